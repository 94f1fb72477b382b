#!/usr/bin/env bash
# The prover's benchmark: the time, nodes, nodes per second and proof size
# of proving each start, on one job and on two, against the prover of an
# earlier commit built beside it (default: 9bc1a28, issue 35's starting
# point), interleaved board by board so that the ratios share one load.
#
#   scripts/bench-prover.sh [--base COMMIT] [BOARD ...]   (default boards: 7x11 8x11 9x11 10x11 11x11)
#
# Prints one row per board and build; `uptime` before and after. Builds both
# CLIs in release (the base in a git worktree under target/bench-base).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
base=9bc1a28
if [ "${1:-}" = --base ]; then base="$2"; shift 2; fi
boards=("$@")
[ ${#boards[@]} -gt 0 ] || boards=(7x11 8x11 9x11 10x11 11x11)

cargo build --release --locked -q -p phutball-cli
now="$repo/target/release/phutball"
worktree="$repo/target/bench-base"
if [ ! -x "$worktree/target/release/phutball" ] || [ "$(git -C "$worktree" rev-parse --short HEAD 2>/dev/null)" != "$(git rev-parse --short "$base")" ]; then
    rm -rf "$worktree"
    git worktree prune
    git worktree add -q --detach "$worktree" "$base"
    (cd "$worktree" && CARGO_TARGET_DIR="$worktree/target" cargo build --release --locked -q -p phutball-cli)
fi
before="$worktree/target/release/phutball"

echo "load before: $(uptime)"
printf '%-6s %-14s %9s %9s %11s %10s %12s %s\n' board build wall_s cpu_s nodes nodes/s cert_nodes result
# row BOARD NAME BINARY [PROVE FLAGS...]
row() {
    local board="$1" name="$2" bin="$3"; shift 3
    local out err
    err="$(mktemp)"
    out="$( { /usr/bin/time -f 'TIME %e %U %S' "$bin" prove "$@" "start:$board" 2>"$err"; } )" || true
    local times figures wall cpu nodes cert
    times="$(grep '^TIME' "$err" | tail -1 || true)"
    figures="$(grep '^nodes' "$err" | tail -1 || true)"
    wall="$(echo "$times" | awk '{print $2}')"
    cpu="$(echo "$times" | awk '{printf "%.1f", $3 + $4}')"
    nodes="$(echo "$figures" | sed -E 's/^nodes ([0-9]+),.*/\1/')"
    cert="$(echo "$figures" | sed -nE 's/.*certificate ([0-9]+) nodes.*/\1/p')"
    printf '%-6s %-14s %9s %9s %11s %10s %12s %s\n' "$board" "$name" "$wall" "$cpu" "$nodes" \
        "$(awk -v n="$nodes" -v c="$cpu" 'BEGIN { if (c > 0) printf "%d", n / c }')" "${cert:--}" "${out%%:*}"
    rm -f "$err"
}
for board in "${boards[@]}"; do
    row "$board" "$base" "$before"
    # `prove` gives up after 60 s by default now; the base (older) build
    # had no limit and may not read `none`.
    row "$board" "now --jobs 1" "$now" --jobs 1 --timeout none
    row "$board" "now --jobs 2" "$now" --jobs 2 --timeout none
done
echo "load after: $(uptime)"
