#!/usr/bin/env bash
# The C API's test suite, from a clean clone: installs what it needs (cbindgen
# 0.29.4, a C/C++ compiler, valgrind), checks that include/phutball.h is what
# cbindgen makes of crates/phutball-capi, builds libphutball.so/.a, compiles the
# C and C++ examples and tests with warnings as errors against both libraries,
# runs them, compares the jump lists of examples/c/jumps (and the outcomes of
# examples/cpp/outcomes) with the Rust CLI's on the worked examples and every
# record of crates/phutball/tests/data/jumps-24.fixture, and runs the tests once
# under valgrind.
# test_limits and test_engine start searches on a second thread and cancel them
# from the first (pthreads: -pthread in CFLAGS, -lpthread for the static library).
# Ends with "capi: N passed, M failed"; exits non-zero on any failure.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
LIB="$TARGET/release"
WORK="$TARGET/capi-tests"
# The fixture files: reference positions and their figures.
FIXTURES=crates/phutball/tests/data
rm -rf "$WORK"
mkdir -p "$WORK"

# --- what the suite needs -------------------------------------------------
CBINDGEN_VERSION=0.29.4
if [ "$(cbindgen --version 2>/dev/null || true)" != "cbindgen $CBINDGEN_VERSION" ]; then
    echo "installing cbindgen $CBINDGEN_VERSION"
    cargo install cbindgen --version "$CBINDGEN_VERSION" --locked --quiet
fi
missing=()
command -v gcc >/dev/null || missing+=(gcc)
command -v g++ >/dev/null || missing+=(g++)
command -v valgrind >/dev/null || missing+=(valgrind)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}"
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
fi

passed=0
failed=0
# step NAME COMMAND...: runs COMMAND, counts it, and says so when it fails.
step() {
    local name="$1"
    shift
    if "$@"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAILED: $name" >&2
    fi
}

# --- the header is fresh -----------------------------------------------------
step "include/phutball.h is what cbindgen $CBINDGEN_VERSION generates (regenerate it: see crates/phutball-capi/cbindgen.toml)" \
    cbindgen --quiet --config crates/phutball-capi/cbindgen.toml --output include/phutball.h --verify crates/phutball-capi

# --- build ---------------------------------------------------------------------
cargo build --release --quiet -p phutball-capi -p phutball-cli
CLI="$LIB/phutball"
STATIC_LIBS=(-lgcc_s -lutil -lrt -lpthread -lm -ldl) # cargo rustc --crate-type staticlib -- --print native-static-libs

CFLAGS=(-std=c11 -Wall -Wextra -Wpedantic -Werror -O2 -g -pthread -Iinclude -Itests/c)
CXXFLAGS=(-std=c++17 -Wall -Wextra -Wpedantic -Werror -O2 -g -pthread -Iinclude -Itests/c -Iexamples/cpp)
# build COMPILER-FLAGS-ARRAY-NAME COMPILER SOURCE NAME: NAME-shared and NAME-static.
build() {
    local flags="$1[@]" compiler="$2" source="$3" name="$4"
    step "compile $source (shared)" "$compiler" "${!flags}" "$source" -o "$WORK/$name-shared" \
        -L"$LIB" -lphutball -Wl,-rpath,"$LIB"
    step "compile $source (static)" "$compiler" "${!flags}" "$source" -o "$WORK/$name-static" \
        "$LIB/libphutball.a" "${STATIC_LIBS[@]}"
}
build CFLAGS gcc examples/c/jumps.c jumps
build CFLAGS gcc examples/c/play.c play
build CFLAGS gcc tests/c/test_capi.c test_capi
build CFLAGS gcc tests/c/test_engine.c test_engine
build CFLAGS gcc tests/c/test_limits.c test_limits
build CXXFLAGS g++ examples/cpp/outcomes.cpp outcomes
build CXXFLAGS g++ tests/c/test_cpp.cpp test_cpp
not_linked_to_shared_library() { ! ldd "$1" | grep -q 'libphutball\.so'; }
step "static test binary does not load libphutball.so" not_linked_to_shared_library "$WORK/test_capi-static"

# --- the tests and examples, with both libraries ---------------------------------
plays_to_a_win() { "$1" >"$WORK/play.out" && grep -q '^result: Ohs wins$' "$WORK/play.out"; }
for linkage in shared static; do
    step "test_capi ($linkage)" "$WORK/test_capi-$linkage" "$FIXTURES"
    step "test_cpp ($linkage)" "$WORK/test_cpp-$linkage"
    step "test_engine ($linkage)" "$WORK/test_engine-$linkage"
    step "test_limits ($linkage)" "$WORK/test_limits-$linkage" "$FIXTURES"
    step "examples/c/play ($linkage)" plays_to_a_win "$WORK/play-$linkage"
done

# --- jump lists: C and C++ against the Rust CLI --------------------------------
# board ROW TEXT [ROW TEXT]... SIDE: a 15 x 19 position string, rows "15" unless given.
board() {
    local -A rows=()
    while [ $# -gt 1 ]; do rows[$1]="$2"; shift 2; done
    local out="" row
    for row in $(seq 19 -1 1); do
        out+="${rows[$row]:-15}"
        if [ "$row" -gt 1 ]; then out+="/"; fi
    done
    echo "$out $1"
}
WORKED=(
    "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O" # the seeds' jump
    "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O"     # the start: no jumps
    "$(board 10 7@7 9 7#7 8 7#7 O)"                                   # H10-H7 over H9 H8
    "$(board 10 11@### O)"                                            # M10: nothing to the east
    "$(board 19 13#1 18 12@2 O)"                                      # N18-P20
    "$(board 19 14# 18 13@1 O)"                                       # O18: no Q20
    "$(board 3 7@7 2 7#7 O)"                                          # H3-H1, own goal
    "$(board 19 13## 18 12@2 X)"                                      # off-board rule matters
)
# same_lines DESCRIPTION EXPECTED-COMMAND -- ACTUAL-COMMAND: same lines, any order.
same_lines() {
    local description="$1"
    shift
    local expected=() actual=()
    while [ "$1" != "--" ]; do expected+=("$1"); shift; done
    shift
    actual=("$@")
    # step runs this where set -e is off: every failure is checked by hand.
    "${expected[@]}" | LC_ALL=C sort >"$WORK/expected.txt" || { echo "$description: the CLI failed" >&2; return 1; }
    "${actual[@]}" | LC_ALL=C sort >"$WORK/actual.txt" || { echo "$description: ${actual[0]} failed" >&2; return 1; }
    if cmp -s "$WORK/expected.txt" "$WORK/actual.txt"; then
        return 0
    fi
    echo "$description: $(wc -l <"$WORK/actual.txt") lines differ from the CLI's $(wc -l <"$WORK/expected.txt")" >&2
    return 1
}
for pos in "${WORKED[@]}"; do
    for linkage in shared static; do
        step "jumps ($linkage) on $pos" same_lines "$pos" "$CLI" jumps "$pos" -- "$WORK/jumps-$linkage" "$pos"
        step "jumps --continue-off-board ($linkage) on $pos" same_lines "$pos" \
            "$CLI" jumps --continue-off-board "$pos" -- "$WORK/jumps-$linkage" "$pos" --continue-off-board
        step "outcomes ($linkage) on $pos" same_lines "$pos" \
            "$CLI" jumps --outcomes "$pos" -- "$WORK/outcomes-$linkage" "$pos"
    done
done
# Each record of jumps-24 as "<position> TAB <paths figure>" (the fixture
# format: comments "# ...", position lines, figure lines "key value").
awk '/^#( |$)/ || /^$/ { next } /^[a-z]/ { if ($1 == "paths") print pos "\t" $2; next } { pos = $0 }' \
    "$FIXTURES/jumps-24.fixture" >"$WORK/jumps-24.tsv"
step "jumps-24.fixture has 24 records with paths" test "$(wc -l <"$WORK/jumps-24.tsv")" -eq 24
record=0
while IFS=$'\t' read -r pos expected_paths; do
    record=$((record + 1))
    step "jumps on jumps-24 record $record" same_lines "jumps-24 record $record" \
        "$CLI" jumps "$pos" -- "$WORK/jumps-shared" "$pos"
    step "jumps-24 record $record has $expected_paths paths" test "$(wc -l <"$WORK/actual.txt")" -eq "$expected_paths"
    step "outcomes on jumps-24 record $record" same_lines "jumps-24 record $record" \
        "$CLI" jumps --outcomes "$pos" -- "$WORK/outcomes-static" "$pos"
done <"$WORK/jumps-24.tsv"
rm -f "$WORK/expected.txt" "$WORK/actual.txt"

rejects_bad_position() {
    local status=0
    "$1" "15/15/I5 O" >"$WORK/bad.out" 2>"$WORK/bad.err" || status=$?
    [ "$status" -eq 1 ] && [ ! -s "$WORK/bad.out" ] && grep -q 'bad position: ' "$WORK/bad.err"
}
step "jumps rejects a bad position with a message" rejects_bad_position "$WORK/jumps-shared"
# A dense board (issue 9) has far too many paths: the timeout ends the walk.
# hard-32 record 1: the first line that is not a comment, blank or a figure.
DENSE="$(awk '!/^([a-z]|# |#?$)/ { print; exit }' "$FIXTURES/hard-32.fixture")"
gives_up_at_the_timeout() {
    local status=0
    "$1" "$DENSE" --timeout 200 >"$WORK/timeout.out" 2>"$WORK/timeout.err" || status=$?
    [ "$status" -eq 3 ] && grep -q '^jumps: gave up: timed out$' "$WORK/timeout.err"
}
step "jumps --timeout gives up with exit status 3 on a dense board" gives_up_at_the_timeout "$WORK/jumps-static"

# --- once under valgrind ----------------------------------------------------------
# to_file COMMAND...: runs COMMAND with its output kept out of the log.
to_file() { "$@" >"$WORK/valgrind.out"; }
# --fair-sched=yes: valgrind runs one thread at a time, and by default a
# busy thread (a search) can keep the lock long enough to starve the thread
# that cancels it, past the cancel tests' 30 s backstop on a loaded machine.
VALGRIND=(to_file valgrind -q --fair-sched=yes --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect)
step "valgrind test_capi" "${VALGRIND[@]}" "$WORK/test_capi-shared" "$FIXTURES"
step "valgrind test_cpp" "${VALGRIND[@]}" "$WORK/test_cpp-static"
step "valgrind test_engine" "${VALGRIND[@]}" "$WORK/test_engine-shared"
step "valgrind test_limits" "${VALGRIND[@]}" "$WORK/test_limits-static" "$FIXTURES"
step "valgrind play" "${VALGRIND[@]}" "$WORK/play-shared"
step "valgrind jumps" "${VALGRIND[@]}" "$WORK/jumps-static" "${WORKED[0]}"

echo "capi: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
