#!/usr/bin/env bash
# Checks every proof certificate in certificates/ with `phutball check-proof`
# (the plain rules, no search) and that it proves what the records claim:
# a file CxR.txt.gz must prove a win from the start of the CxR board, for
# the winner and in the plies certificates/starts.json records (written by
# scripts/settle_starts.py), and every proof recorded there must have its
# file. Prints one line per file, then
# `N passed, M failed`; exits non-zero if any failed.
#
# Usage: scripts/check-certificates.sh [--release]
# Builds the CLI first (debug, or release with --release; a no-op after
# `cargo test` or `cargo build --release`), into $CARGO_TARGET_DIR or
# target/. PHUTBALL=BINARY runs that binary instead, without building.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

profile=debug
built="debug build"
if [ "${1:-}" = "--release" ]; then
    profile=release
    built="release build"
fi
if [ -z "${PHUTBALL:-}" ]; then
    flags=(--quiet -p phutball-cli)
    if [ "$profile" = release ]; then
        flags+=(--release)
    fi
    cargo build "${flags[@]}" || exit 1
    PHUTBALL="${CARGO_TARGET_DIR:-$root/target}/$profile/phutball"
else
    built="$PHUTBALL"
fi

# The start position string of a COLSxROWS board (docs/rules.md): the ball
# on column COLS/2 counted from 0, row ROWS/2 + 1, Ohs to move.
start_of() {
    local cols=$1 rows=$2 r left right text="" line
    left=$((cols / 2))
    right=$((cols - left - 1))
    for ((r = rows; r >= 1; r--)); do
        if [ "$r" -eq $((rows / 2 + 1)) ]; then
            line="$([ "$left" -gt 0 ] && echo -n "$left")@$([ "$right" -gt 0 ] && echo -n "$right")"
        else
            line="$cols"
        fi
        text+="${text:+/}$line"
    done
    echo "$text O"
}

# What certificates/starts.json claims for each board: "O PLIES" for a
# first-player win, "X PLIES" for a loss (boards without a proof: nothing).
declare -A claims=()
if [ -f certificates/starts.json ]; then
    listed="$(python3 -c '
import json
for board, r in json.load(open("certificates/starts.json")).items():
    if r.get("result") in ("win", "loss"):
        print(board, "O" if r["result"] == "win" else "X", r["plies"])
')" || { echo "certificates/starts.json: cannot be read"; exit 1; }
    while read -r board winner plies; do
        [ -n "$board" ] && claims[$board]="$winner $plies"
    done <<<"$listed"
fi

passed=0
failed=0
started=$SECONDS
shopt -s nullglob
for file in certificates/*.txt.gz; do
    name="$(basename "$file" .txt.gz)"
    if ! out="$("$PHUTBALL" check-proof "$file" 2>&1)"; then
        echo "FAILED $file: $out"
        failed=$((failed + 1))
        continue
    fi
    # valid: O wins in at most N plies from POSITION (M nodes)
    fault=""
    if [[ "$out" =~ ^valid:\ ([OX])\ wins\ in\ at\ most\ ([0-9]+)\ plies\ from\ (.*)\ \(([0-9]+)\ nodes\)$ ]]; then
        winner="${BASH_REMATCH[1]}" plies="${BASH_REMATCH[2]}" from="${BASH_REMATCH[3]}"
        if [[ "$name" =~ ^([0-9]+)x([0-9]+)$ ]]; then
            expected="$(start_of "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}")"
            if [ "$from" != "$expected" ]; then
                fault="proves $from, not the start of $name ($expected)"
            fi
        fi
        claim="${claims[$name]:-}"
        if [ -z "$fault" ] && [ -n "$claim" ] && [ "$claim" != "$winner $plies" ]; then
            fault="proves $winner in $plies plies, certificates/starts.json claims $claim"
        fi
    else
        fault="unexpected answer: $out"
    fi
    if [ -n "$fault" ]; then
        echo "FAILED $file: $fault"
        failed=$((failed + 1))
    else
        echo "ok $file: $out"
        passed=$((passed + 1))
    fi
done
# A proof the records claim needs its certificate.
for board in "${!claims[@]}"; do
    if [ ! -f "certificates/$board.txt.gz" ]; then
        echo "FAILED certificates/$board.txt.gz: missing (certificates/starts.json claims ${claims[$board]})"
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed ($((SECONDS - started)) s, $built)"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
