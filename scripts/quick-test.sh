#!/usr/bin/env bash
# The everyday check, reusing what earlier runs built: the Rust tests (no
# fmt, clippy, rustdoc or release dry runs), the C/C++ suite and the Python
# suite. scripts/test.sh, the full suite CI runs, adds the rest.
# Usage: scripts/quick-test.sh
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

failed=()
run() {
    local name="$1"
    shift
    local started=$SECONDS
    echo "=== $name"
    if "$@"; then
        echo "=== $name: ok ($((SECONDS - started)) s)"
    else
        failed+=("$name")
        echo "=== $name: FAILED ($((SECONDS - started)) s)"
    fi
}

run "cargo test" cargo test --quiet --workspace --exclude phutball-py
run "C and C++ (tests/c/run.sh)" bash tests/c/run.sh
run "Python (tests/python/run.sh)" bash tests/python/run.sh

if [ ${#failed[@]} -gt 0 ]; then
    echo "quick-test: failed: ${failed[*]}"
    exit 1
fi
echo "quick-test: all passed"
