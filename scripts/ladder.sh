#!/usr/bin/env bash
# The strength ladder (docs/engine.md, "Threats"): builds the `phutball`
# command of git revision REV into /tmp/phutball-ladder-REV and plays it
# against this tree's build: scripts/ladder.sh REV [--games 200] [--nodes 2000] ...
set -euo pipefail
rev=${1:?usage: scripts/ladder.sh REV [ladder options]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
old=/tmp/phutball-ladder-$(git -C "$root" rev-parse --short "$rev")
if [ ! -x "$old/target/release/phutball" ]; then
  mkdir -p "$old"
  git -C "$root" archive "$rev" | tar -x -C "$old"
  (cd "$old" && cargo build --release -q -p phutball-cli)
fi
(cd "$root" && cargo build --release -q -p phutball-cli -p phutball-benches --bin ladder)
"$root/target/release/ladder" --old "$old/target/release/phutball" --new "$root/target/release/phutball" "$@"
