#!/usr/bin/env bash
# The Python package's test suite, run against the built wheel as a user
# gets it: builds the release's abi3 wheel and the sdist into dist/
# (scripts/release.sh --build: manylinux2014 with maturin's --zig) and checks their
# metadata (twine check), installs the wheel with its [env,png,test] extras
# into a virtual environment of its own (target/python-wheel-check) and runs
# pytest (every test must run: a skipped test fails the suite unless
# PHUTBALL_ALLOW_SKIPS gives the reason, which the closing line repeats),
# the stubs check (mypy's stubtest against python/phutball/_phutball.pyi)
# and the API reference (pdoc, tests/python/api_reference.py, into
# target/python-reference) there with no cargo or rustc on PATH. The
# tools (maturin, twine) live in .venv (created if missing), which gets the
# wheel too, for the examples and benchmark scripts; the CLI is built for the
# cross-check against the Rust core, and the extension's own Rust tests run
# last. Idempotent; exits non-zero on any failure.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"

python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
# maturin and pip work in the active virtual environment.
# shellcheck disable=SC1091
source .venv/bin/activate

pip_quiet=(python -m pip install --quiet --disable-pip-version-check)
say() { echo "run.sh: $*"; }

say "installing maturin and twine into .venv (pip)"
"${pip_quiet[@]}" "maturin>=1.9,<2" "twine>=6.1"

# The widget's browser test drives Debian's chromium with chromium-driver
# in JupyterLab (selenium and JupyterLab come with the wheel's [test] extra
# below). Required: the test fails without them.
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "run.sh: installing chromium and chromium-driver with apt-get (for tests/python/test_widget_browser.py)" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver >/dev/null ||
            { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver >/dev/null; } ||
            echo "run.sh: chromium did not install: the widget's browser test will fail" >&2
    else
        echo "run.sh: /usr/bin/chromium or /usr/bin/chromedriver is missing and this is not root: install chromium and chromium-driver, or the widget's browser test fails" >&2
    fi
fi

# cairosvg (the [png] extra) loads the system's Cairo library: test_svg's
# PNG test needs it, and a skip fails the suite.
if ! ldconfig -p 2>/dev/null | grep -q 'libcairo\.so\.2'; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "run.sh: installing libcairo2 with apt-get (for tests/python/test_svg.py's PNG test)" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q libcairo2 >/dev/null ||
            { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q libcairo2 >/dev/null; } ||
            echo "run.sh: libcairo2 did not install: the PNG test will be skipped, failing the suite" >&2
    else
        echo "run.sh: libcairo.so.2 is missing and this is not root: install libcairo2, or the PNG test is skipped and the suite fails" >&2
    fi
fi

# The release wheel itself (scripts/release.sh, docs/release.md): manylinux2014
# (glibc 2.17) abi3 for this machine's architecture, built with maturin's
# --zig in Cargo.toml's `wheel` profile (stripped), and the sdist, into
# dist/, where `scripts/release.sh --check --reuse` (the test command's
# release suite) finds them. release.sh installs ziglang (and the other
# release tools) into .venv when missing, saying so.
# maturin and cargo show their progress: the build is the longest step.
bash scripts/release.sh --build "wheel-$(uname -m)" sdist
version="$(awk -F'"' '/^version = / { print $2; exit }' Cargo.toml)"
wheel="$(ls "$repo"/dist/phutball-"$version"-cp39-abi3-manylinux2014_"$(uname -m)".*.whl)"
sdist="$repo/dist/phutball-$version.tar.gz"
ls "$sdist" >/dev/null
say "checking the metadata (twine check)"
twine check --strict "$wheel" "$sdist"
# .venv gets the built wheel (not an editable build) for the examples and
# the benchmark scripts.
"${pip_quiet[@]}" --force-reinstall --no-deps "$wheel"

say "building the CLI for the cross-check (cargo build --release -p phutball-cli)"
cargo build --release -p phutball-cli
export PHUTBALL_CLI="$CARGO_TARGET_DIR/release/phutball"

# The wheel in a virtual environment of its own, with no Rust on PATH: what
# a user without Rust gets from pip. Its dependencies and the test tools
# come from the wheel's extras (and mypy for stubtest).
check_venv="$CARGO_TARGET_DIR/python-wheel-check"
[ -x "$check_venv/bin/python" ] || "$python" -m venv "$check_venv"
# pdoc builds the API reference (tests/python/api_reference.py reads its
# private stub helpers: the version is pinned; pdoc 16 needs Python 3.10+).
say "installing the wheel with [env,png,notebook,ray,test,train], mypy and pdoc 16.0.0 into $check_venv (pip)"
"$check_venv/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel[env,png,notebook,ray,test,train]" mypy "pdoc==16.0.0"
"$check_venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$wheel"
no_rust_path=""
IFS=: read -ra path_dirs <<<"$PATH"
for dir in "${path_dirs[@]}"; do
    [ -e "$dir/cargo" ] || [ -e "$dir/rustc" ] || no_rust_path="${no_rust_path:+$no_rust_path:}$dir"
done
without_rust() {
    env -u VIRTUAL_ENV PATH="$check_venv/bin:$no_rust_path" "$@"
}
if without_rust sh -c 'command -v cargo || command -v rustc'; then
    echo "run.sh: cargo or rustc is still on PATH for the wheel's tests" >&2
    exit 1
fi
without_rust python -c "
import phutball, sys
assert phutball.__file__.startswith(sys.prefix), phutball.__file__
print('run.sh: testing the installed wheel:', phutball.__file__)"
say "pytest, with no cargo or rustc on PATH"
rm -f "$CARGO_TARGET_DIR/widget-jupyterlab.png"
# The Ray suites run in pytest processes of their own, after the rest: Ray
# 2.60's driver can abort (SIGABRT, exit status 134, "Check failed: ... Tried
# to complete task that was not pending": a Ray bug, a task's cancellation
# racing its completion) seconds after a test passed, which would take every
# test after it down too. A file whose process aborts so is run once more,
# saying so; any other failure, or a second abort, fails the suite.
ray_files=(tests/python/test_dataset.py tests/python/test_dataset_integrity.py tests/python/test_distributed.py tests/python/test_distributed_prove.py tests/python/test_distributed_jobs.py tests/python/test_train.py)
not_ray=()
for file in "${ray_files[@]}"; do not_ray+=(--ignore="$file"); done
# pytest's status 5 is "no test collected": what a -k filter given to this script can leave.
run_pytest() {
    local status=0
    without_rust python -m pytest -q -p no:cacheprovider "$@" || status=$?
    if [ "$status" -eq 5 ] && [ "$filtered" -eq 1 ]; then status=0; fi
    return "$status"
}
filtered=$(( $# > 0 ? 1 : 0 ))
# Every test runs or the suite fails: conftest.py writes each skipped test,
# with its reason, here. PHUTBALL_ALLOW_SKIPS=REASON lets them pass, the
# closing line naming how many and why.
skip_log="$CARGO_TARGET_DIR/python-skipped.txt"
: >"$skip_log"
export PHUTBALL_SKIP_LOG="$skip_log"
run_pytest tests/python "${not_ray[@]}" "$@"
for file in "${ray_files[@]}"; do
    status=0
    run_pytest "$file" "$@" || status=$?
    if [ "$status" -eq 134 ]; then
        say "$file: Ray's driver aborted (SIGABRT, the Ray bug above); running the file once more"
        status=0
        run_pytest "$file" "$@" || status=$?
    fi
    [ "$status" -eq 0 ] || exit "$status"
done
# A Ray file run twice (the abort above) logs its skips twice: counted once.
skipped=$(sort -u "$skip_log" | wc -l)
if [ "$skipped" -gt 0 ]; then
    say "$skipped tests skipped:"
    sort -u "$skip_log" | sed 's/^/  /'
    if [ -z "${PHUTBALL_ALLOW_SKIPS:-}" ]; then
        echo "run.sh: $skipped tests skipped: every test must run here (install what it needs), or set PHUTBALL_ALLOW_SKIPS=REASON to allow skips" >&2
        exit 1
    fi
    skips_note=", $skipped tests skipped (allowed: $PHUTBALL_ALLOW_SKIPS)"
else
    skips_note=", no test skipped"
fi
if [ -f "$CARGO_TARGET_DIR/widget-jupyterlab.png" ]; then
    say "the widget in JupyterLab after the browser test's clicks: $CARGO_TARGET_DIR/widget-jupyterlab.png"
fi
say "stubtest: the stubs name what the extension has"
without_rust python -m mypy.stubtest phutball._phutball
say "the API reference: pdoc's pages of the installed package into $CARGO_TARGET_DIR/python-reference (tests/python/api_reference.py: every public name documented, pdoc's warnings as errors)"
rm -rf "$CARGO_TARGET_DIR/python-reference"
without_rust python tests/python/api_reference.py "$CARGO_TARGET_DIR/python-reference"

# The extension's Rust tests (the exception table in docs/python.md against
# the mapping): they link the interpreter, so they run here, not in the
# workspace's `cargo test`.
say "the extension's Rust tests (cargo test -p phutball-py)"
PYO3_PYTHON="$(command -v python)" cargo test -p phutball-py --lib
say "abi3 wheel $(basename "$wheel") and sdist $(basename "$sdist") pass$skips_note"
