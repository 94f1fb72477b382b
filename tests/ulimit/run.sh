#!/usr/bin/env bash
# Memory exhaustion is an error, never an abort: runs every enumerating
# command of the CLI, the C API's enumerating entry points (enumerate.c) and
# the Python package's (case.py) under `ulimit -v` (an address-space limit,
# so the allocator refuses long before the memory limit is reached, or with
# no memory limit at all) on two positions: DENSE, a 15x19 board with 85%
# men (issue #26), and CHECKER, a 25x25 board with a man on every point whose
# column and row (counted from 1) have an odd sum, the ball in the middle.
#
# Each case must end in an answer or a clean error: the CLI exit 0, or exit
# 4 (memory) or 3 (timeout) with one `phutball:` line on stderr (`count`:
# one per undecided figure, then its time and a last `phutball:` line); the C
# program's status OK, PHUTBALL_STATUS_TOO_MANY_OUTCOMES (the memory status)
# or a timeout; Python an answer, `MemoryLimitError` or `SearchTimeoutError`.
# A signal (exit status 128 or more: SIGABRT from "memory allocation of N
# bytes failed", SIGKILL from the per-case time limit) or anything else
# fails the case. One line per case; ends with "ulimit: N passed, M failed"
# and exits non-zero on any failure.
#
# Reuses what scripts/test.sh's earlier suites built in $CARGO_TARGET_DIR
# (default target/): the release CLI and libphutball (cargo build --release,
# a no-op when they are fresh) and the wheel installed in
# target/python-wheel-check (tests/python/run.sh). Run on its own it builds
# what is missing: the wheel with maturin into $CARGO_TARGET_DIR/ulimit-venv
# (ULIMIT_REBUILD_WHEEL=1 rebuilds it there even when the checked venv
# exists; ULIMIT_PYTHON=PATH uses that interpreter's installed phutball).
# About a minute on 2 cores.
#
# It also runs `tablebase build 4x5 --jobs 128` ten times under ulimit -v
# 500000 (issue #39): each run must answer with the table built without
# the limit, byte for byte, or exit 4; and it fails when a kind of case
# (CLI, C, Python) never met the memory error: limits that no longer bite
# would pass every case without testing anything.
#
# Fault injection (scripts/inject-faults.sh runs both, expecting failure):
# ULIMIT_FAULT=abort runs a stand-in for the CLI that aborts (SIGABRT);
# ULIMIT_FAULT=roomy sets every address-space limit to 100 GB, so no
# memory runs out. ULIMIT_ONLY=REGEX runs only the cases whose "KIND NAME"
# matches (Python is set up only when "py" can match).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
export CARGO_TARGET_DIR="$TARGET"
WORK="$TARGET/ulimit-tests"
rm -rf "$WORK"
mkdir -p "$WORK"
say() { echo "ulimit: $*"; }

# --- what the suite runs ------------------------------------------------------
say "building the release CLI and C library (cargo build --release; a no-op when fresh)"
cargo build --release --quiet -p phutball-cli -p phutball-capi || exit 1
CLI="$TARGET/release/phutball"
if [ "${ULIMIT_FAULT:-}" = abort ]; then
    say "fault injected: the CLI is a stand-in that aborts"
    printf '#!/bin/sh\nkill -ABRT $$\n' >"$WORK/aborting-cli"
    chmod +x "$WORK/aborting-cli"
    CLI="$WORK/aborting-cli"
fi
say "compiling tests/ulimit/enumerate.c against include/phutball.h and $TARGET/release/libphutball.so"
# A copy of the library under its SONAME, found by the rpath (the build
# tree has only libphutball.so; scripts/install-c.sh makes the links).
cp "$TARGET/release/libphutball.so" "$WORK/libphutball.so" &&
    ln -s libphutball.so "$WORK/libphutball.so.0" &&
    cc -std=c11 -Wall -Wextra -Werror -O1 -I include tests/ulimit/enumerate.c \
        -L "$WORK" -Wl,-rpath,"$WORK" -lphutball -o "$WORK/enumerate" || exit 1
C_PROG="$WORK/enumerate"

PY="${ULIMIT_PYTHON:-$TARGET/python-wheel-check/bin/python}"
# Whether case KIND NAME is run (ULIMIT_ONLY).
chosen() { [ -z "${ULIMIT_ONLY:-}" ] || [[ "$1" =~ $ULIMIT_ONLY ]]; }
python_cases=1
if [ -n "${ULIMIT_ONLY:-}" ] && ! [[ "py " =~ ${ULIMIT_ONLY#^} ]] && ! [[ "py" =~ $ULIMIT_ONLY ]]; then
    python_cases=0
fi
if [ "$python_cases" = 1 ] && { [ "${ULIMIT_REBUILD_WHEEL:-0}" = 1 ] || ! "$PY" -c 'import phutball' 2>/dev/null; }; then
    venv="$TARGET/ulimit-venv"
    say "no wheel installed in $TARGET/python-wheel-check: building one with maturin into $venv (pip: maturin, numpy)"
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv" || exit 1
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "maturin>=1.9,<2" numpy || exit 1
    rm -rf "$WORK/wheel"
    "$venv/bin/maturin" build --release --quiet --out "$WORK/wheel" || exit 1
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$WORK"/wheel/phutball-*.whl || exit 1
    PY="$venv/bin/python"
fi

# --- the positions --------------------------------------------------------------
DENSE='###############/##1##1#1#######/###############/##1##1#########/1######1#####1#/############1##/#1#1###2######/#####1#####1#1#/###############/1######@1######/###1#####2####/######2#######/####1#3######/1######1#######/1##1####1###1##/###1##1#1######/###1###1#1#####/###############/####1########1# O'
# Rows from the top (row 25) down; a man where column + row is odd, the ball
# on M13, every other point vacant.
CHECKER="$(python3 - <<'EOF'
size = 25
rows = []
for row in range(size, 0, -1):
    text, run = "", 0
    for col in range(1, size + 1):
        if (col, row) == (13, 13):
            cell = "@"
        elif (col + row) % 2 == 1:
            cell = "#"
        else:
            run += 1
            continue
        if run:
            text, run = text + str(run), 0
        text += cell
    rows.append(text + (str(run) if run else ""))
print("/".join(rows) + " O")
EOF
)"
printf '%s\n' "$DENSE" >"$WORK/dense.txt"
printf '%s\n' "$CHECKER" >"$WORK/checker.txt"

# --- running a case -------------------------------------------------------------
# Address-space limits (KiB), found by trying: low enough that the
# allocator refuses within a second or two of search, high enough that the
# program starts. Python's interpreter and extension map more.
# Two limits each: whichever allocation fails first decides between an
# abort and a clean error, and the two make different ones fail (at the
# higher, the outcome search's table of states has grown to most of the
# space: the small allocations after it are what aborted).
# Python's start-up alone maps 75 to 115 MB, by which extras are installed
# (`import phutball` imports gymnasium, and so numpy.random, when present):
# its limits are set above what it measures after the import, not fixed.
CLI_KBS="${ULIMIT_CLI_KB:-30000 60000}"
C_KBS="${ULIMIT_C_KB:-30000 60000}"
if [ "${ULIMIT_FAULT:-}" = roomy ]; then
    say "fault injected: every address-space limit is 100 GB, so no memory runs out"
    CLI_KBS=100000000 C_KBS=100000000 ULIMIT_PY_KB=100000000
fi
# Each case's own time limit (the calls take timeouts of TIMEOUT_MS); past
# it the case is killed, and fails as a signal.
TIMEOUT_MS=5000
CASE_LIMIT_S=40

passed=0
failed=0
memory_errors=0
failures=()
# Per kind (cli, c, py): the cases run, and those that met the memory error.
declare -A ran=() ran_out=()
# A command that checks an answer (exit 0): it must succeed too.
answer_check=()

# run_case KIND NAME KIB COMMAND...: KIND cli, c or py.
run_case() {
    local kind="$1" name="$2" kib="$3"
    shift 3
    chosen "$kind $name" || return 0
    local out="$WORK/out" err="$WORK/err" rc started=$SECONDS verdict="" detail
    timeout -s KILL "$CASE_LIMIT_S" bash -c 'ulimit -v "$0" && exec "$@"' "$kib" "$@" >"$out" 2>"$err" </dev/null
    rc=$?
    local lines
    lines="$(grep -c . "$err")"
    detail="$(tail -n 1 "$err" | cut -c1-110)"
    if [ "$rc" -ge 128 ]; then
        verdict="FAIL: killed by signal $((rc - 128))"
        detail="$(tail -c 300 "$err" | tr '\n' ' ')"
    else
        case "$kind:$rc" in
        cli:0 | c:0 | py:0)
            if [ "${#answer_check[@]}" -gt 0 ] && ! "${answer_check[@]}"; then
                verdict="FAIL: answered, wrongly (${answer_check[*]})"
            else
                verdict="ok: answered"
            fi
            ;;
        cli:3 | cli:4)
            # count says why per figure, then its time and a last phutball: line.
            # tablebase build says what it builds first, then why it stopped.
            if { [ "$lines" -eq 1 ] || [ "${name#* }" = count ] || [ "${name%% *}" = tablebase ]; } &&
                tail -n 1 "$err" | grep -q '^phutball: ' &&
                ! grep -q -e 'panicked' -e 'memory allocation of' "$err"; then
                verdict="ok: exit $rc"
            else
                verdict="FAIL: exit $rc with $lines stderr lines, not one phutball: line"
                detail="$(head -c 300 "$err" | tr '\n' ' ')"
            fi
            ;;
        c:3 | c:4 | py:3 | py:4) verdict="ok: exit $rc" ;;
        *)
            verdict="FAIL: exit $rc"
            detail="$(tail -c 300 "$err" | tr '\n' ' ') $(tail -c 200 "$out" | tr '\n' ' ')"
            ;;
        esac
    fi
    if [ "$kind" != cli ]; then
        # The program's one line of outcome; on a failure, stderr's tail
        # too (a traceback ends with the exception).
        detail="$(tail -n 1 "$out" | cut -c1-110)"
        if [ "${verdict#ok}" = "$verdict" ]; then
            detail="$detail $(tail -n 3 "$err" | tr '\n' ' ' | cut -c1-300)"
        fi
    fi
    if [ "$rc" = 4 ]; then memory_errors=$((memory_errors + 1)); fi
    if [ "${name%% *}" != tablebase ]; then
        ran[$kind]=$((${ran[$kind]:-0} + 1))
        if [ "$rc" = 4 ]; then ran_out[$kind]=$((${ran_out[$kind]:-0} + 1)); fi
    fi
    if [ "${verdict#ok}" != "$verdict" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        failures+=("$kind $name")
    fi
    printf '%-4s %-46s %-6s %3ss  %s | %s\n' "$kind" "$name" "${kib}K" "$((SECONDS - started))" "$verdict" "$detail"
}

# numpy (which phutball imports) would map an OpenBLAS buffer per core.
export OPENBLAS_NUM_THREADS=1
if [ "$python_cases" = 0 ]; then
    PY_KBS=""
elif [ -z "${ULIMIT_PY_KB:-}" ]; then
    py_base="$("$PY" tests/ulimit/case.py baseline "$DENSE" 1)" || exit 1
    say "Python maps $py_base KiB after importing phutball"
    PY_KBS="$((py_base + 25000)) $((py_base + 65000))"
else
    PY_KBS="$ULIMIT_PY_KB"
fi

started=$SECONDS
say "ulimit -v (KiB): CLI $CLI_KBS, C $C_KBS, Python $PY_KBS; calls time out after ${TIMEOUT_MS} ms"
t=$TIMEOUT_MS
first() { echo "$1"; }
for board in dense checker; do
    if [ "$board" = dense ]; then pos="$DENSE"; else pos="$CHECKER"; fi
    file="$WORK/$board.txt"
    # The CLI: every command that enumerates or searches, with a memory
    # limit past the address-space limit (the allocator refuses first).
    for kib in $CLI_KBS; do
        run_case cli "$board moves" "$kib" "$CLI" moves --timeout "$t" --memory-limit 100000M "$pos"
        run_case cli "$board jumps --outcomes" "$kib" "$CLI" jumps --outcomes --timeout "$t" --memory-limit 100000M "$pos"
        run_case cli "$board perft 3" "$kib" "$CLI" perft --timeout "$t" --memory-limit 1000000M "$pos" 3
        run_case cli "$board count" "$kib" "$CLI" count --timeout "$t" --memory-limit 100000M "$file"
    done
    # These keep little that grows with the input: the first limit only.
    kib="$(first $CLI_KBS)"
    run_case cli "$board jumps" "$kib" "$CLI" jumps --timeout "$t" --memory-limit 100000M "$pos"
    run_case cli "$board show (can score)" "$kib" "$CLI" show --timeout "$t" --memory-limit 100000M "$pos"
    run_case cli "$board best --time" "$kib" "$CLI" best --time "$t" "$pos"
    run_case cli "$board best --jobs 2" "$kib" "$CLI" best --time "$t" --jobs 2 "$pos"
    run_case cli "$board analyse --jobs 2" "$kib" "$CLI" analyse --time "$t" --jobs 2 "$file"
    run_case cli "$board solve" "$kib" "$CLI" solve --timeout "$t" "$pos"
    run_case cli "$board prove" "$kib" "$CLI" prove --timeout "$t" --memory-limit 100G "$pos"
    # The C API, memory_limit UINT64_MAX: no limit but the allocator's.
    for c in legal_moves jump_paths jump_outcomes count_jump_paths count_jump_outcomes \
        count_legal_moves perft2 can_score for_each_jump_path for_each_jump_outcome best_move prove; do
        for kib in $C_KBS; do
            case "$c" in count_jump_paths | can_score | for_each_jump_path | best_move | prove)
                [ "$kib" = "$(first $C_KBS)" ] || continue ;;
            esac
            run_case c "$board $c" "$kib" "$C_PROG" "$c" "$pos" "$t" none
        done
    done
    # Python, memory_limit=None wherever a call takes one.
    for p in legal_moves jump_paths jump_outcomes count_jump_paths count_jump_outcomes \
        count_legal_moves can_score scoring_move frontier prove best_move; do
        for kib in $PY_KBS; do
            case "$p" in count_jump_paths | can_score | scoring_move | best_move | prove)
                [ "$kib" = "$(first $PY_KBS)" ] || continue ;;
            esac
            run_case py "$board $p" "$kib" "$PY" tests/ulimit/case.py "$p" "$pos" "$((t / 1000))"
        done
    done
done

# --- tablebase build: more jobs than the address space holds -----------------
# The build caps its threads at what the space holds (issue #39: 128 jobs
# under 500,000 KiB aborted in about 3 runs of 6). A run that answers must
# have written the table built without the limit.
tb_kib="${ULIMIT_TABLEBASE_KB:-500000}"
tb_runs=10
if chosen "cli tablebase build 4x5 --jobs 128"; then
    "$TARGET/release/phutball" tablebase build 4x5 --out "$WORK/free.tb" >/dev/null 2>&1 ||
        { say "the 4x5 tablebase without a limit failed"; exit 1; }
    answer_check=(cmp -s "$WORK/free.tb" "$WORK/limited.tb")
    tb_memory=$memory_errors
    for run in $(seq "$tb_runs"); do
        rm -f "$WORK/limited.tb"
        run_case cli "tablebase build 4x5 --jobs 128 (run $run)" "$tb_kib" \
            "$CLI" tablebase build 4x5 --jobs 128 --out "$WORK/limited.tb"
    done
    answer_check=()
    say "tablebase build 4x5 --jobs 128 under ${tb_kib}K: $((memory_errors - tb_memory)) of $tb_runs runs out of memory (exit 4), the others answered"
fi

echo
say "$memory_errors cases ended in the memory error; $((SECONDS - started)) s"
# Limits that no longer bite pass every case and test nothing: each kind
# must meet the memory error at least once.
for kind in cli c py; do
    if [ "${ran[$kind]:-0}" -gt 0 ] && [ "${ran_out[$kind]:-0}" -eq 0 ]; then
        say "no $kind case ran out of memory (of ${ran[$kind]}): the limits no longer bite; lower them"
        failed=$((failed + 1))
        failures+=("$kind: memory never ran out")
    elif [ "${ran[$kind]:-0}" -gt 0 ]; then
        say "$kind: ${ran_out[$kind]} of ${ran[$kind]} cases ran out of memory"
    fi
done
if [ "$failed" -gt 0 ]; then
    say "failed: ${failures[*]}"
fi
echo "ulimit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
