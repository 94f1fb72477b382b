#!/usr/bin/env python3
"""The top of a job-level proof's tree, from its checkpoint: the root's
numbers and figures, then each first move with what the tree knows of it
(proved a win or a loss for the side to move at the root, or open with its
numbers, its subtree's size and the jobs spent on it).

    python scripts/jobs_top.py CHECKPOINT POSITION [--moves N]

CHECKPOINT is the path (or s3:// URI) given to `python -m
phutball.distributed prove --jobs-driver --checkpoint`, POSITION the
position proved (`start`, `start:13x13` or a position string). Prints the
N most promising open moves (default 10) after the settled ones' counts.
Reads the checkpoint as the driver does (a damaged or foreign one is an
error naming it); writes nothing."""

import argparse
import sys

import phutball
from phutball.distributed import _Store, jobs


def position_of(text: str) -> phutball.Position:
    if text == "start":
        return phutball.Position.start()
    if text.startswith("start:"):
        cols, rows = text[len("start:"):].split("x")
        return phutball.Position.start(int(cols), int(rows))
    return phutball.Position(text)


def subtree(node) -> int:
    return 1 + sum(subtree(c) for c in node.children or [])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint")
    parser.add_argument("position")
    parser.add_argument("--moves", type=int, default=10)
    args = parser.parse_args()
    root = position_of(args.position)
    try:
        record = jobs._read_checkpoint(_Store(args.checkpoint), root)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if record is None:
        print(f"error: no checkpoint at {args.checkpoint}", file=sys.stderr)
        return 2
    driver = jobs._Driver(root, int(record["job_nodes"]), int(record["expand_after"]))
    driver.restore(record)
    figures = record["figures"]
    top = driver.root
    print(f"root {root}: {top.result or 'open'} (win number {top.win}, loss number {top.loss})")
    print(
        f"jobs {figures['jobs']} ({figures['proved']} proved, {figures['unknown']} unknown), "
        f"prover nodes {figures['nodes']}, tree {subtree(top)} nodes, {len(record['certificates'])} certificates kept"
    )
    if top.children is None:
        print("the root is not expanded yet")
        return 0
    # A child's result is for its side to move: a loss there is a win for the root's side.
    winning = [c for c in top.children if c.loss == 0]
    losing = [c for c in top.children if c.win == 0]
    open_moves = [c for c in top.children if not c.settled]
    print(
        f"{len(top.children)} first moves: {len(winning)} proved to win for {root.to_move}, "
        f"{len(losing)} proved to lose, {len(open_moves)} open"
    )
    for c in winning:
        print(f"  {c.move}: wins (proved)")
    for c in sorted(open_moves, key=lambda c: (c.loss, c.win))[: args.moves]:
        print(f"  {c.move}: open, numbers to win {c.loss} / to lose {c.win}, subtree {subtree(c)} nodes, {c.tries} unknown answers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
