"""``python -m phutball.distributed selfplay|analyse ...``: the datasets of
``phutball.distributed`` from the command line, with a progress bar."""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from . import RunSummary, analyse, selfplay


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m phutball.distributed",
        description="Self-play and analysis datasets (Parquet) on a Ray cluster; see docs/distributed.md.",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    def common(command: argparse.ArgumentParser, seed_help: str) -> None:
        command.add_argument("--nodes", type=int, help="nodes per search")
        command.add_argument("--depth", type=int, help="depth per search, in plies")
        command.add_argument("--time-ms", type=int, help="milliseconds per search (not reproducible)")
        command.add_argument("--seed", type=int, default=0, help=seed_help)
        command.add_argument("--out", required=True, help="the dataset directory (on a cluster: shared by every node)")
        command.add_argument("--address", help='the Ray cluster: "auto", "ray://HOST:10001", ... (default: RAY_ADDRESS, else a local instance)')
        command.add_argument("--timeout", type=float, help="seconds for the whole run; the ranges written stay, to resume from")
        command.add_argument("--no-progress", action="store_true", help="no progress bar")

    play = commands.add_parser("selfplay", help="engine games, one row per game (out/games)")
    play.add_argument("--games", type=int, required=True)
    common(play, "the run's seed: game i is seeded from it and i, as in `phutball selfplay` (default 0)")
    play.add_argument("--openings", help="a file of start positions, one position string a line, used in turn")
    play.add_argument("--move-limit", type=int, default=300, help="a game reaching this many moves is a draw (default 300)")
    play.add_argument("--games-per-task", type=int, default=16)
    play.add_argument("--training", action="store_true", help="also write one row per move (out/training)")

    study = commands.add_parser("analyse", help="one row per position of FILE, in order (out/analysis)")
    study.add_argument("file", help="position strings, one a line (blank lines and '# ...' comments skipped)")
    common(study, "the engines' seed (default 0)")
    study.add_argument("--positions-per-task", type=int, default=64)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    args = _parser().parse_args(argv)
    limits = {"nodes": args.nodes, "depth": args.depth, "time_ms": args.time_ms, "seed": args.seed}
    shared = {"out": args.out, "address": args.address, "progress": not args.no_progress, "timeout": args.timeout}
    try:
        summary: RunSummary
        if args.command == "selfplay":
            openings = None
            if args.openings:
                from . import _read_positions

                openings = _read_positions(args.openings)
            summary = selfplay(
                args.games,
                openings=openings,
                move_limit=args.move_limit,
                games_per_task=args.games_per_task,
                training=args.training,
                **limits,
                **shared,
            )
            kind = "games"
        else:
            summary = analyse(args.file, positions_per_task=args.positions_per_task, **limits, **shared)
            kind = "analysis"
    except (ValueError, OSError) as e:  # OSError: a file, or the timeout (a TimeoutError)
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: run the same command again to resume", file=sys.stderr)
        return 130
    print(
        f"{summary.rows} rows in {summary.out}/{kind}: {len(summary.written)} ranges written, "
        f"{len(summary.skipped)} already there"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
