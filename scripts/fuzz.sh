#!/usr/bin/env bash
# The fuzz suite: every cargo-fuzz target of fuzz/ (docs/fuzzing.md) for a
# bounded time each, from a copy of its committed seed corpus.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET]     (default 15)
#
# Installs what is missing, saying so: the nightly toolchain (rustup, the
# minimal profile; where rustup cannot fetch it, the default toolchain with
# RUSTC_BOOTSTRAP=1). Builds the targets as `cargo fuzz build` (cargo-fuzz
# 0.13) does, with its flags, but with cargo itself: cargo-fuzz is not
# needed here (installing it is 1-2 minutes on a fresh machine), only to
# work with the targets by hand (docs/fuzzing.md). Builds them with
# AddressSanitizer into
# $FUZZ_TARGET_DIR (default target/fuzz); the corpora the runs grow and any
# crash inputs stay there too, so the tree stays clean. Exits non-zero if a
# target crashes, panics, times out or runs out of memory, printing the
# reproducer's path, its bytes and the command that replays it. Prints a line
# at least every 20 s, and ends with `fuzz: N passed, M failed`.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-15}
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET] (a whole number of seconds, at least 1; not '$seconds')" >&2
    exit 2
fi
target_dir=${FUZZ_TARGET_DIR:-$root/target/fuzz}
work=$target_dir/runs
# rustup's proxies live there, which PATH may lack.
export PATH="$PATH:${CARGO_HOME:-$HOME/.cargo}/bin"

say() { echo "[fuzz] $*"; }

# Runs "$@", printing a line every 20 s while it runs (no silent stretch).
with_ticker() {
    local label=$1
    shift
    local started=$SECONDS
    (
        while sleep 20; do
            say "$label: still running ($((SECONDS - started)) s)"
        done
    ) &
    local ticker=$!
    local status=0
    "$@" || status=$?
    kill "$ticker" 2>/dev/null || true
    wait "$ticker" 2>/dev/null || true
    return "$status"
}

suite_start=$SECONDS

# --- What the suite needs ---------------------------------------------------
if ! command -v rustup >/dev/null; then
    echo "scripts/fuzz.sh: rustup is needed (for the nightly toolchain the targets build with)" >&2
    exit 2
fi
# AddressSanitizer is a -Z flag, which needs nightly. Where rustup cannot
# fetch it (no network to its server), the default toolchain with
# RUSTC_BOOTSTRAP=1 takes the same flags: it ships the same sanitizer
# runtime.
cargo=(cargo +nightly)
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    say "installing the nightly Rust toolchain: rustup toolchain install nightly --profile minimal"
    if ! with_ticker "rustup toolchain install nightly" \
        timeout 600 rustup toolchain install nightly --profile minimal --no-self-update; then
        say "rustup could not install nightly: building with the default toolchain and RUSTC_BOOTSTRAP=1 instead"
        export RUSTC_BOOTSTRAP=1
        cargo=(cargo)
    fi
fi
if [ "${RUSTC_BOOTSTRAP:-}" = 1 ]; then
    say "toolchain: $(rustc --version) (RUSTC_BOOTSTRAP=1)"
else
    say "toolchain: $(rustup run nightly rustc --version)"
fi
cd "$root"
if [ "${RUSTC_BOOTSTRAP:-}" = 1 ]; then
    host=$(rustc -vV | sed -n 's/^host: //p')
else
    host=$(rustup run nightly rustc -vV | sed -n 's/^host: //p')
fi
# The flags of `cargo fuzz build` (cargo-fuzz 0.13.2, src/project.rs, with
# its defaults: release, AddressSanitizer, debug assertions): libFuzzer's
# coverage counters and comparison tracing, `--cfg fuzzing`, one codegen
# unit (the coverage passes defeat ThinLTO's imports otherwise). --target
# keeps them off build scripts and proc macros.
fuzz_flags=(
    -Cpasses=sancov-module
    -Cllvm-args=-sanitizer-coverage-level=4
    -Cllvm-args=-sanitizer-coverage-inline-8bit-counters
    -Cllvm-args=-sanitizer-coverage-pc-table
    -Cllvm-args=-sanitizer-coverage-trace-compares
    --cfg fuzzing
    -Cllvm-args=-simplifycfg-branch-fold-threshold=0
    -Zsanitizer=address
    -Cllvm-args=-sanitizer-coverage-stack-depth
    -Cdebug-assertions
    -Ccodegen-units=1
)
build_fuzz_targets() {
    RUSTFLAGS="${fuzz_flags[*]}" "${cargo[@]}" build --manifest-path "$root/fuzz/Cargo.toml" \
        --target "$host" --release --config 'profile.release.debug="line-tables-only"' \
        --bins --target-dir "$target_dir"
}

# --- Build --------------------------------------------------------------------
say "building the targets (AddressSanitizer, release with debug assertions) into $target_dir"
build_start=$SECONDS
with_ticker "cargo build (fuzz targets)" build_fuzz_targets
say "built in $((SECONDS - build_start)) s"

bin_dir=$target_dir/$host/release
# As cargo-fuzz sets it: the targets' statics would be reported otherwise.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_odr_violation=0}

# The targets: the [[bin]] names of fuzz/Cargo.toml.
mapfile -t targets < <(sed -n '/^\[\[bin\]\]/,/^name/s/^name = "\(.*\)"$/\1/p' "$root/fuzz/Cargo.toml")
if [ "${#targets[@]}" -eq 0 ]; then
    echo "scripts/fuzz.sh: found no [[bin]] targets in fuzz/Cargo.toml" >&2
    exit 2
fi

# --- Run ----------------------------------------------------------------------
# Prints a crash input: its path, its bytes, and how to replay it.
show_artifact() {
    local target=$1 file=$2
    say "$target: reproducer $file ($(wc -c <"$file") bytes):"
    od -A d -c "$file" | head -n 40
    say "$target: replay it with: $bin_dir/$target $file"
    say "$target: (or, with cargo-fuzz: cargo +nightly fuzz run --fuzz-dir $root/fuzz --target-dir $target_dir $target $file)"
}

passed=0
failed=0
failures=()
for target in "${targets[@]}"; do
    seeds=$root/fuzz/seeds/$target
    corpus=$work/corpus/$target
    artifacts=$work/artifacts/$target
    log=$work/logs/$target.log
    rm -rf "$corpus" "$artifacts"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    if [ -d "$seeds" ]; then
        cp "$seeds"/* "$corpus"/
    else
        say "$target: no seed corpus in fuzz/seeds/$target (starting from nothing)"
    fi
    # Inputs up to 4 KiB, or the largest seed.
    max_len=4096
    for f in "$corpus"/*; do
        size=$(wc -c <"$f")
        if [ "$size" -gt "$max_len" ]; then max_len=$size; fi
    done
    say "$target: ${seconds} s from $(find "$corpus" -type f | wc -l) inputs (log: $log)"
    status=0
    with_ticker "$target" "$bin_dir/$target" "$corpus" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
        -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1 || status=$?
    found=("$artifacts"/*)
    if [ "$status" -eq 0 ] && [ ! -e "${found[0]}" ]; then
        summary=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || true)
        say "$target: ok: ${summary:-$(tail -n 1 "$log")}"
        passed=$((passed + 1))
    else
        say "$target: FAILED (exit $status); the end of its log:"
        tail -n 60 "$log"
        for file in "${found[@]}"; do
            [ -e "$file" ] && show_artifact "$target" "$file"
        done
        failed=$((failed + 1))
        failures+=("$target")
    fi
done

say "total $((SECONDS - suite_start)) s"
if [ "$failed" -gt 0 ]; then
    say "failed: ${failures[*]}"
fi
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
