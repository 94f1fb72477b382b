"""Move lists from Python against the Rust core: Position.jump_paths() over
the 24 positions of jumps-24 (1,366,444 paths), whose Move objects a
MoveList makes only when read.

Run by hand, with the package built in release mode (``maturin develop
--release``, or ``bash tests/python/run.sh`` once), from the repository root:

    .venv/bin/python benches/python/move_lists.py

and compare the first line with the Rust time of the same lists,
``cargo bench -p phutball-benches --bench jumps -- "jumps-24/jump_paths"``
(the README has the figures of one run). Each figure is the best of
``--repeat`` passes.
"""

import argparse
import gc
import pathlib
import time

import phutball

FIXTURE = pathlib.Path(__file__).resolve().parents[2] / "crates/phutball/tests/data/jumps-24.fixture"


def positions() -> list:
    """The fixture's positions (its format: crates/phutball/tests/data/README.md):
    not comments ("# ..."), blank lines, or figures (lines starting with a
    lowercase key)."""
    found = []
    for line in FIXTURE.read_text().splitlines():
        line = line.strip()
        if not line or line == "#" or line.startswith("# ") or line[0].islower():
            continue
        found.append(phutball.Position(line))
    return found


def best_of(repeat: int, work) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    boards = positions()
    total = sum(len(p.jump_paths()) for p in boards)
    print(f"{len(boards)} positions, {total:,} jump paths; best of {args.repeat} passes")

    def lists():
        for p in boards:
            p.jump_paths()

    def lists_read():
        for p in boards:
            for _ in p.jump_paths():
                pass

    def lists_kept():
        # Every Move object alive at once, as the plain lists of before.
        return [list(p.jump_paths()) for p in boards]

    def lists_kept_without_collector():
        gc.disable()
        try:
            return lists_kept()
        finally:
            gc.enable()

    for name, work in [
        ("jump_paths()", lists),
        ("jump_paths(), every Move read once", lists_read),
        ("list(jump_paths()), every Move kept", lists_kept),
        ("the same, cycle collector off", lists_kept_without_collector),
    ]:
        seconds = best_of(args.repeat, work)
        print(f"{name:40s} {seconds * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
