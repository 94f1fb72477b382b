#!/usr/bin/env bash
# Issue 36's 1 s ladder: the built-in network (generation 2) against the hand
# evaluation, 200 games at 1 s a move, played in sittings (`--record`).
# net-1s.jsonl beside this script holds the games played so far; each run
# plays the rest and prints the summary over every recorded game.
#
# The record names the `phutball` binary by path and SHA-256, so a sitting
# must use the same build: commit 775617c built at the fixed path
# /work/ladder-src (the build keeps its path in its line tables) and copied
# to /work/ladder-bin. Built that way twice, from empty target folders, it
# gave the same bytes (81cb29dc...e818). The ladder refuses another build.
#
#   JOBS=2 benches/ladders/net-1s.sh     # from the repository's root
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=/work/ladder-src bin=/work/ladder-bin rev=775617c
if [ ! -x "$bin/phutball" ] || [ ! -x "$bin/ladder" ]; then
  mkdir -p "$src" "$bin"
  git -C "$here" archive "$rev" | tar -x -C "$src"
  (cd "$src" && cargo build --release -q -p phutball-cli --bin phutball \
    && cargo build --release -q -p phutball-benches --bin ladder)
  cp "$src/target/release/phutball" "$src/target/release/ladder" "$bin/"
fi
exec "$bin/ladder" --old "$bin/phutball" --new "$bin/phutball" \
  --old-args "--eval hand" --new-args "--eval net" \
  --games 200 --time 1000 --jobs "${JOBS:-2}" --record "$here/net-1s.jsonl"
