#!/usr/bin/env bash
# The strength ladder (docs/notes/engine-lab.md, "The strength ladder"): builds the `phutball`
# command of git revision REV into /tmp/phutball-ladder-REV and plays it
# against this tree's build: scripts/ladder.sh REV [--games 200] [--nodes 2000] ...
# REV `.` is this tree's build itself (nothing else built): with
# --old-args "ARGS" and --new-args "ARGS", extra arguments of each side's
# `best` (split at whitespace), the ladder then compares two settings of one
# build, e.g. scripts/ladder.sh . --old-args "--eval hand" --new-args
# "--eval net:FILE" (each side's default is otherwise `auto`, the built-in
# network on 15x19; a REV before 329e23a plays hand by default, so give
# this build --new-args "--eval hand" to compare the code alone). Both work
# with any REV too (benches/src/bin/ladder.rs).
# scripts/ladder.sh REV speed [ROUNDS] instead times `best --depth 5` of the
# two builds on the engine's four speed positions, in turn, ROUNDS times (3),
# each build with the words of $OLD_ARGS or $NEW_ARGS added (e.g.
# NEW_ARGS="--eval hand" to time hand against a REV from before auto).
set -euo pipefail
rev=${1:?usage: scripts/ladder.sh REV|. [ladder options] | scripts/ladder.sh REV speed [ROUNDS]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "$rev" = . ]; then
  old=$root
else
  old=/tmp/phutball-ladder-$(git -C "$root" rev-parse --short "$rev")
  if [ ! -x "$old/target/release/phutball" ]; then
    mkdir -p "$old"
    git -C "$root" archive "$rev" | tar -x -C "$old"
    (cd "$old" && cargo build --release -q -p phutball-cli)
  fi
fi
(cd "$root" && cargo build --release -q -p phutball-cli --bin phutball -p phutball-benches --bin ladder)
new=$root/target/release/phutball
if [ "${1:-}" != speed ]; then
  exec "$root/target/release/ladder" --old "$old/target/release/phutball" --new "$new" "$@"
fi
# The start and the three middle games of the `speed` part of the strength example.
positions=(
  "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O"
  "15/15/15/15/15/15/10#4/9@5/7####4/10#4/7#7/15/15/15/15/15/15/15/15 O"
  "15/15/15/15/10#4/11@3/11##2/15/7#1#5/15/7#7/15/15/15/15/15/15/15/15 O"
  "15/9@5/9#5/15/15/15/11#3/15/6#4#3/15/7#7/15/15/15/15/15/15/15/15 O"
)
runs() {
  for round in $(seq "$1"); do
    for i in "${!positions[@]}"; do
      for build in old new; do
        bin=$old/target/release/phutball args=${OLD_ARGS:-}
        [ "$build" = new ] && bin=$new args=${NEW_ARGS:-}
        # shellcheck disable=SC2086 # the arguments are split at whitespace
        line=$("$bin" best --depth 5 $args "${positions[$i]}" 2>&1 >/dev/null)
        echo "$round $((i + 1)) $build $(sed -E 's/.*depth ([0-9]+), ([0-9]+) nodes in ([0-9.]+) s.*/\1 \2 \3/' <<<"$line")"
      done
    done
  done
}
echo "round position build depth nodes seconds"
# Then per position: the nodes and mean seconds of each build, and the ratios.
runs "${2:-3}" | awk '{ print; k = $2 " " $3; nodes[k] = $5; secs[k] += $6; n[k]++ }
  END { for (i = 1; i <= 4; i++) { o = i " old"; w = i " new"; to = secs[o] / n[o]; tw = secs[w] / n[w]
    printf "position %d: old %d nodes %.3f s, new %d nodes %.3f s; time new/old %.2f, nodes/s new/old %.2f\n",
      i, nodes[o], to, nodes[w], tw, tw / to, (nodes[w] / tw) / (nodes[o] / to) } }'
