#!/usr/bin/env bash
# Checks that can fail, do: the rust-version, ulimit and closed-pipe
# checks, each run once with its fault injected, must fail (issue #39).
#   - scripts/check-msrv.sh with MSRV_FAULT=1: a crate that calls an API
#     newer than its rust-version;
#   - tests/ulimit/run.sh with ULIMIT_FAULT=abort (a CLI that aborts) and
#     ULIMIT_FAULT=roomy (limits so high no memory runs out), on one case;
#   - crates/phutball-cli/tests/closed_output.rs with CLOSED_OUTPUT_FAULT=1
#     (`seq`, which reports its broken pipe, in place of the CLI).
# About 15 s once scripts/test.sh's earlier suites have built the CLI, the
# C library and the tests. Exits non-zero if a check passes with its fault.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
passed=0
failed=0

# must_fail NAME COMMAND...: the check NAME, its fault injected.
must_fail() {
    local name="$1" started=$SECONDS
    shift
    if "$@" >"${TMPDIR:-/tmp}/inject-faults.$$" 2>&1; then
        failed=$((failed + 1))
        echo "inject-faults: FAIL: $name passed with its fault injected; its output:"
        tail -n 20 "${TMPDIR:-/tmp}/inject-faults.$$"
    else
        passed=$((passed + 1))
        echo "inject-faults: ok: $name failed with its fault injected, as it must ($((SECONDS - started)) s)"
    fi
    rm -f "${TMPDIR:-/tmp}/inject-faults.$$"
}

if [ -n "${PHUTBALL_SKIP_MSRV:-}" ]; then
    echo "inject-faults: the rust-version check is skipped (PHUTBALL_SKIP_MSRV), and so is its fault"
else
    must_fail "the rust-version check (an API of Rust 1.86)" env MSRV_FAULT=1 bash scripts/check-msrv.sh
fi
must_fail "the ulimit check (a CLI that aborts)" \
    env ULIMIT_FAULT=abort ULIMIT_ONLY='^cli dense moves$' bash tests/ulimit/run.sh
must_fail "the ulimit check (no memory runs out)" \
    env ULIMIT_FAULT=roomy ULIMIT_ONLY='^cli dense moves$' bash tests/ulimit/run.sh
must_fail "the closed-pipe check (seq in place of the CLI)" \
    env CLOSED_OUTPUT_FAULT=1 cargo test --quiet -p phutball-cli --test closed_output completions_into_a_closed_pipe
echo "inject-faults: $passed checks failed as they must, $failed passed with their fault"
[ "$failed" -eq 0 ]
