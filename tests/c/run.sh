#!/usr/bin/env bash
# The C API's test suite, from a clean clone: installs what it needs (cbindgen
# 0.29.4, a C/C++ compiler, valgrind; pkg-config and CMake from PyPI into .venv
# when they are not on PATH), checks that include/phutball.h is what cbindgen
# makes of crates/phutball-capi and compiles as C99, C11, C++11 and C++17,
# installs the library into a temporary prefix (scripts/install-c.sh), moves
# the prefix and the build tree's libraries away, and tests the installed copy
# only: the SONAME and links, the C and C++ examples and tests compiled with
# warnings as errors against both libraries by `pkg-config phutball` (and
# `--static`), a CMake project outside the repository by find_package, all run
# with LD_LIBRARY_PATH set to the prefix alone. It compares the jump lists of
# examples/c/jumps (and the outcomes of examples/cpp/outcomes) with the Rust
# CLI's on the worked examples and every record of
# crates/phutball/tests/data/jumps-24.fixture, and runs the tests once under
# valgrind, the reports every correct program gets suppressed by
# tests/c/valgrind.supp (which says why each is expected). A green run prints
# the builds' progress and one line per program ("test_engine: N passed, 0
# failed (shared and static); valgrind (shared): clean").
# test_solver proves and checks certificates (phutball_prove_within,
# phutball_check_proof), good and mutated; test_tablebase builds, probes and
# reads back tablebases; test_network reads a weights file it builds byte by
# byte (and damaged ones) and searches with it.
# test_budget and test_engine start searches on a second thread and cancel them
# from the first (pthreads: -pthread in CFLAGS; the static link's -lpthread
# comes with the rest of Libs.private from phutball.pc).
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
# Outside the repository: the installed prefix and the CMake project.
OUTSIDE="$(mktemp -d "${TMPDIR:-/tmp}/phutball-capi.XXXXXX")"
# The build tree's libraries, moved away while the installed copy is tested
# and put back at the end (Cargo would rebuild them if they were missing).
BUILD_TREE_LIBS=("$LIB/libphutball.so" "$LIB/libphutball.a" "$LIB/deps/libphutball.so" "$LIB/deps/libphutball.a")
put_back() {
    local lib
    for lib in "${BUILD_TREE_LIBS[@]}"; do
        if [ -e "$lib.moved-away" ]; then mv "$lib.moved-away" "$lib"; fi
    done
    rm -rf "$OUTSIDE"
}
trap put_back EXIT
for lib in "${BUILD_TREE_LIBS[@]}"; do rm -f "$lib.moved-away"; done # left by a run that was killed

# --- what the suite needs -------------------------------------------------
CBINDGEN_VERSION=0.29.4
if [ "$(cbindgen --version 2>/dev/null || true)" != "cbindgen $CBINDGEN_VERSION" ]; then
    echo "installing cbindgen $CBINDGEN_VERSION into ~/.cargo/bin: cargo install builds it from source (a few minutes, once; no registry ships a binary)"
    cargo install cbindgen --version "$CBINDGEN_VERSION" --locked
fi
missing=()
command -v gcc >/dev/null || missing+=(gcc)
command -v g++ >/dev/null || missing+=(g++)
command -v valgrind >/dev/null || missing+=(valgrind)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}"
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# pkg-config and CMake, as a user of the installed library has them; when they
# are not on PATH, PyPI's pkgconf and cmake go into the project's .venv.
from_pypi=()
PKG_CONFIG=pkg-config
if ! command -v pkg-config >/dev/null; then
    PKG_CONFIG="$ROOT/.venv/bin/pkgconf"
    [ -x "$PKG_CONFIG" ] || from_pypi+=(pkgconf)
fi
CMAKE=cmake
if ! command -v cmake >/dev/null; then
    CMAKE="$ROOT/.venv/bin/cmake"
    [ -x "$CMAKE" ] || from_pypi+=(cmake)
fi
CMAKE_GENERATOR_ARGS=()
if ! command -v make >/dev/null; then
    CMAKE_GENERATOR_ARGS=(-G Ninja)
    export PATH="$PATH:$ROOT/.venv/bin" # for ninja; after the system's tools
    [ -x .venv/bin/ninja ] || from_pypi+=(ninja)
fi
if [ ${#from_pypi[@]} -gt 0 ]; then
    echo "installing ${from_pypi[*]} from PyPI into .venv"
    [ -x .venv/bin/python ] || python3 -m venv .venv
    .venv/bin/python -m pip install --quiet --disable-pip-version-check "${from_pypi[@]}"
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

# --- install, then move the prefix and the build tree's libraries away ---------
bash scripts/install-c.sh "$OUTSIDE/first-prefix"
PREFIX="$OUTSIDE/prefix"
mv "$OUTSIDE/first-prefix" "$PREFIX" # nothing installed may name where it was put
echo "run.sh: building the CLI (cargo build --release -p phutball-cli), for the jump lists' cross-check"
cargo build --release -p phutball-cli
CLI="$LIB/phutball"
for lib in "${BUILD_TREE_LIBS[@]}"; do
    if [ -e "$lib" ]; then mv "$lib" "$lib.moved-away"; fi
done
# Only the installed copy from here on.
export PKG_CONFIG_LIBDIR="$PREFIX/lib/pkgconfig" PKG_CONFIG_PATH=""
VERSION="$("$PKG_CONFIG" --modversion phutball)"
MAJOR="${VERSION%%.*}"
step "pkg-config's phutball $VERSION has the installed header's major version" grep -q \
    "^#define PHUTBALL_VERSION_MAJOR $MAJOR\$" "$("$PKG_CONFIG" --variable=includedir phutball)/phutball.h"
# Each check reads its pipe to the end (grep without -q): under pipefail, a
# grep -q that stops at the first match makes ldd or readelf die of SIGPIPE,
# and the pipe fails whatever it found.
soname_is() { readelf -d "$1" | grep "(SONAME) *Library soname: \[$2\]\$" >/dev/null; }
step "readelf -d: the SONAME is libphutball.so.$MAJOR" soname_is "$PREFIX/lib/libphutball.so.$VERSION" "libphutball.so.$MAJOR"
step "libphutball.so.$MAJOR -> libphutball.so.$VERSION" test "$(readlink "$PREFIX/lib/libphutball.so.$MAJOR")" = "libphutball.so.$VERSION"
step "libphutball.so -> libphutball.so.$MAJOR" test "$(readlink "$PREFIX/lib/libphutball.so")" = "libphutball.so.$MAJOR"
step "phutball.pc lists what the static library needs (Libs.private)" \
    test "$("$PKG_CONFIG" --static --libs phutball)" != "$("$PKG_CONFIG" --libs phutball)"
step "the build tree has no libphutball.so or .a left" test -z "$(find "$TARGET/release" -maxdepth 2 -name 'libphutball.[as]*' ! -name '*.moved-away')"

# The header on its own, in each language it promises.
printf '#include <phutball.h>\nint main(void) { return phutball_version() == NULL; }\n' >"$WORK/header.c"
cp "$WORK/header.c" "$WORK/header.cpp"
HEADER_CFLAGS=($("$PKG_CONFIG" --cflags phutball))
for std in c99 c11; do
    step "the header compiles as $std" gcc -std=$std -pedantic -Wall -Wextra -Werror "${HEADER_CFLAGS[@]}" -fsyntax-only "$WORK/header.c"
done
for std in c++11 c++17; do
    step "the header compiles as $std" g++ -std=$std -pedantic -Wall -Wextra -Werror "${HEADER_CFLAGS[@]}" -fsyntax-only "$WORK/header.cpp"
done

# The libraries as pkg-config gives them. With both in one directory the
# linker takes the .so for -lphutball; the static link asks for the archive by
# name (-l:libphutball.a) and adds Libs.private, the system libraries it needs.
SHARED_LIBS=($("$PKG_CONFIG" --libs phutball))
STATIC_LIBS=($("$PKG_CONFIG" --static --libs phutball | sed -E 's/(^| )-lphutball( |$)/\1-l:libphutball.a\2/'))
CFLAGS=(-std=c11 -Wall -Wextra -Wpedantic -Werror -O2 -g -pthread "${HEADER_CFLAGS[@]}" -Itests/c)
CXXFLAGS=(-std=c++17 -Wall -Wextra -Wpedantic -Werror -O2 -g -pthread "${HEADER_CFLAGS[@]}" -Itests/c -Iexamples/cpp)
# build COMPILER-FLAGS-ARRAY-NAME COMPILER SOURCE NAME: NAME-shared and NAME-static.
build() {
    local flags="$1[@]" compiler="$2" source="$3" name="$4"
    step "compile $source (shared)" "$compiler" "${!flags}" "$source" -o "$WORK/$name-shared" "${SHARED_LIBS[@]}"
    step "compile $source (static)" "$compiler" "${!flags}" "$source" -o "$WORK/$name-static" "${STATIC_LIBS[@]}"
}
build CFLAGS gcc tests/c/installed/consumer.c consumer
build CFLAGS gcc examples/c/jumps.c jumps
build CFLAGS gcc examples/c/play.c play
build CFLAGS gcc tests/c/test_capi.c test_capi
build CFLAGS gcc tests/c/test_engine.c test_engine
build CFLAGS gcc tests/c/test_budget.c test_budget
build CFLAGS gcc tests/c/test_solver.c test_solver
build CFLAGS gcc tests/c/test_tablebase.c test_tablebase
build CFLAGS gcc tests/c/test_network.c test_network
build CXXFLAGS g++ examples/cpp/outcomes.cpp outcomes
build CXXFLAGS g++ tests/c/test_cpp.cpp test_cpp
# The README's first C program, as a new user copies it (its "Start here").
awk '/^## Start here/{on=1} /^## Two commands/{on=0} on&&/^```c$/{c=1;next} c&&/^```$/{c=0} c' README.md >"$WORK/readme_first.c"
step "the README's C program is there" test -s "$WORK/readme_first.c"
build CFLAGS gcc "$WORK/readme_first.c" readme_first
# ... and its build line, as written there (PREFIX and pkg-config replaced by
# this run's), in a folder of its own.
readme_build_line() {
    local line
    line="$(grep -o '`cc -std=c11 first.c[^`]*`' README.md | tr -d '`')" && [ -n "$line" ] || return 1
    mkdir -p "$WORK/readme-build" && cp "$WORK/readme_first.c" "$WORK/readme-build/first.c" &&
        (cd "$WORK/readme-build" && export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" &&
            line="${line//PREFIX/$PREFIX}" && bash -c "${line//pkg-config/$PKG_CONFIG}" | tee first.out | grep -qx '3 jump moves')
}
not_linked_to_shared_library() { ! ldd "$1" | grep 'libphutball\.so' >/dev/null; }
step "static test binary does not load libphutball.so" not_linked_to_shared_library "$WORK/test_capi-static"
needs_soname() { readelf -d "$1" | grep "(NEEDED) *Shared library: \[libphutball.so.$MAJOR\]\$" >/dev/null; }
step "shared test binary needs libphutball.so.$MAJOR" needs_soname "$WORK/test_capi-shared"
needs_the_prefix() {
    local status=0
    env -u LD_LIBRARY_PATH "$1" >/dev/null 2>"$WORK/no-prefix.err" || status=$?
    [ "$status" -eq 127 ] && grep -q "libphutball.so.$MAJOR: cannot open shared object file" "$WORK/no-prefix.err"
}
step "shared test binary does not start without the prefix on LD_LIBRARY_PATH" needs_the_prefix "$WORK/consumer-shared"
# The programs find the library in the prefix, and only there.
export LD_LIBRARY_PATH="$PREFIX/lib"
loads_from_prefix() { ldd "$1" | grep "libphutball.so.$MAJOR => $PREFIX/lib/libphutball.so.$MAJOR " >/dev/null; }
step "shared test binary loads libphutball.so.$MAJOR from the prefix" loads_from_prefix "$WORK/test_capi-shared"

# --- a CMake project outside the repository, by find_package ---------------------
PROJECT="$OUTSIDE/cmake-project"
mkdir -p "$PROJECT"
cp tests/c/installed/CMakeLists.txt tests/c/installed/consumer.c examples/c/jumps.c \
    examples/cpp/outcomes.cpp examples/cpp/phutball.hpp "$PROJECT"
cmake_build() {
    "$CMAKE" -S "$PROJECT" -B "$PROJECT/build" "${CMAKE_GENERATOR_ARGS[@]}" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_PREFIX_PATH="$PREFIX" >"$WORK/cmake.log" 2>&1 &&
        "$CMAKE" --build "$PROJECT/build" >>"$WORK/cmake.log" 2>&1 || { cat "$WORK/cmake.log" >&2; return 1; }
}
step "CMake: find_package(phutball CONFIG) and build (cmake $("$CMAKE" --version | head -n 1 | cut -d' ' -f3))" cmake_build
prints_version() { "$1" >"$WORK/consumer.out" && grep -qx "phutball $VERSION: 3 jump paths" "$WORK/consumer.out"; }
step "consumer (pkg-config, shared)" prints_version "$WORK/consumer-shared"
step "consumer (pkg-config, static)" prints_version "$WORK/consumer-static"
step "consumer (CMake, phutball::phutball)" prints_version "$PROJECT/build/consumer"
step "consumer (CMake, phutball::phutball_static)" prints_version "$PROJECT/build/consumer_static"
step "CMake's consumer needs libphutball.so.$MAJOR" needs_soname "$PROJECT/build/consumer"
step "CMake's consumer_static does not load libphutball.so" not_linked_to_shared_library "$PROJECT/build/consumer_static"
# find_package(phutball REQUEST CONFIG) configures: Cargo's rules, so the same
# minor version while the major is 0.
accepts_request() {
    "$CMAKE" -S tests/c/installed/version-check -B "$OUTSIDE/version-check-$1" -DPHUTBALL_REQUEST="$1" \
        -DCMAKE_PREFIX_PATH="$PREFIX" >"$WORK/version-check.log" 2>&1
}
IFS=. read -r _ MINOR _ <<<"$VERSION"
for request in "$MAJOR.$MINOR" "$VERSION"; do
    step "CMake: phutball $VERSION accepts a request for $request" accepts_request "$request"
done
refuses_request() { ! accepts_request "$1" && grep -q 'not compatible with the version requested' "$WORK/version-check.log"; }
for request in "$MAJOR.$((MINOR + 1))" "$((MAJOR + 1)).0"; do
    step "CMake: phutball $VERSION refuses a request for $request" refuses_request "$request"
done

# --- the tests and examples, with both libraries ---------------------------------
# logged PROGRAM LINKAGE ARGS...: runs WORK/PROGRAM-LINKAGE with its output in
# WORK/PROGRAM-LINKAGE.log, shown when it fails (a green run prints a line
# per program at the end instead).
logged() {
    local program="$1" linkage="$2"
    shift 2
    "$WORK/$program-$linkage" "$@" >"$WORK/$program-$linkage.log" 2>&1 ||
        { cat "$WORK/$program-$linkage.log" >&2; return 1; }
}
prints_three_jump_moves() { "$1" >"$WORK/readme_first.out" && grep -qx '3 jump moves' "$WORK/readme_first.out"; }
plays_to_a_win() { "$1" >"$WORK/play.out" && grep -q '^result: Ohs wins$' "$WORK/play.out"; }
for linkage in shared static; do
    step "test_capi ($linkage)" logged test_capi "$linkage" "$FIXTURES"
    step "test_cpp ($linkage)" logged test_cpp "$linkage"
    step "test_engine ($linkage)" logged test_engine "$linkage"
    step "test_budget ($linkage)" logged test_budget "$linkage" "$FIXTURES"
    step "test_solver ($linkage)" logged test_solver "$linkage"
    step "test_tablebase ($linkage)" logged test_tablebase "$linkage"
    step "test_network ($linkage)" logged test_network "$linkage"
    step "examples/c/play ($linkage)" plays_to_a_win "$WORK/play-$linkage"
    step "the README's C program ($linkage) prints 3 jump moves" prints_three_jump_moves "$WORK/readme_first-$linkage"
done
step "the README's build line builds and runs its C program" readme_build_line

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
    step "jumps (CMake) on $pos" same_lines "$pos" "$CLI" jumps "$pos" -- "$PROJECT/build/jumps" "$pos"
    step "outcomes (CMake) on $pos" same_lines "$pos" "$CLI" jumps --outcomes "$pos" -- "$PROJECT/build/outcomes" "$pos"
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

# --- once under valgrind, and a line per program ----------------------------------
# --fair-sched=yes: valgrind runs one thread at a time, and by default a
# busy thread (a search) can keep the lock long enough to starve the thread
# that cancels it, past the cancel tests' 30 s backstop on a loaded machine.
# The reports every correct program gets are suppressed (tests/c/valgrind.supp
# says why each is expected), so every leak kind, possibly lost included, is
# an error, and a green run prints nothing of valgrind's.
# shellcheck disable=SC2054 # the commas are valgrind's list, one argument
VALGRIND=(valgrind -q --fair-sched=yes --error-exitcode=1 --leak-check=full
    --errors-for-leak-kinds=definite,indirect,possible --suppressions=tests/c/valgrind.supp)
# checks PROGRAM LINKAGE: the "N passed, M failed" of PROGRAM's run above.
checks() { sed -n "s/^$1: \([0-9]* passed, [0-9]* failed\)\$/\1/p" "$WORK/$1-$2.log" 2>/dev/null | tail -n 1; }
# under_valgrind PROGRAM LINKAGE ARGS...: runs WORK/PROGRAM-LINKAGE under
# valgrind (the program's output and valgrind's report to files, shown when
# either has something to say), then prints PROGRAM's summary line.
under_valgrind() {
    local program="$1" linkage="$2" status=0 result counts shared static
    shift 2
    "${VALGRIND[@]}" --log-file="$WORK/$program.valgrind" "$WORK/$program-$linkage" "$@" \
        >"$WORK/$program.valgrind.out" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
        cat "$WORK/$program.valgrind.out" "$WORK/$program.valgrind" >&2
        result="FAILED (exit status $status; the program's output and valgrind's report above)"
    elif [ -s "$WORK/$program.valgrind" ]; then
        cat "$WORK/$program.valgrind" >&2
        result="no errors, but the messages above"
    else
        result="clean"
    fi
    shared="$(checks "$program" shared)"
    static="$(checks "$program" static)"
    counts=""
    if [ -n "$shared" ] && [ "$shared" = "$static" ]; then
        counts="$shared (shared and static); "
    elif [ -n "$shared$static" ]; then
        counts="shared: ${shared:-no count}, static: ${static:-no count}; "
    fi
    echo "$program: ${counts}valgrind ($linkage): $result"
    [ "$status" -eq 0 ]
}
step "valgrind test_capi" under_valgrind test_capi shared "$FIXTURES"
step "valgrind test_cpp" under_valgrind test_cpp static
step "valgrind test_engine" under_valgrind test_engine shared
step "valgrind test_budget" under_valgrind test_budget static "$FIXTURES"
step "valgrind test_solver" under_valgrind test_solver shared
step "valgrind test_tablebase" under_valgrind test_tablebase static
step "valgrind test_network" under_valgrind test_network shared
step "valgrind play" under_valgrind play shared
step "valgrind jumps" under_valgrind jumps static "${WORKED[0]}"

echo "capi: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
