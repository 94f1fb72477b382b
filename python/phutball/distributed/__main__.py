"""``python -m phutball.distributed selfplay|analyse|prove|verify ...``: the
datasets and the proofs of ``phutball.distributed`` from the command line,
with a progress bar."""

from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional

import ray

import phutball
from phutball import _phutball

from . import DatasetError, DatasetReport, RunSummary, _prove, _ray_left_behind, analyse, jobs, selfplay, verify

# The errors a command reports as `error: ...` with status 2: bad input
# (ValueError, TypeError), files and the timeout (OSError: TimeoutError),
# the library's limits (MemoryLimitError, TooManyOutcomesError) and Ray's
# (a task's error comes as a RayError that is also the task's error class).
_ERRORS = (ValueError, TypeError, OSError, MemoryError, phutball.TooManyOutcomesError, ray.exceptions.RayError)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m phutball.distributed",
        description="Self-play and analysis datasets (Parquet), and proofs in parts, on a Ray cluster; see docs/distributed.md.",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    def common(command: argparse.ArgumentParser, seed_help: str) -> None:
        command.add_argument("--nodes", type=int, help="nodes per search")
        command.add_argument("--depth", type=int, help="depth per search, in plies")
        command.add_argument("--time", type=float, metavar="SECONDS", help="seconds per search, kept to the millisecond (not reproducible)")
        # The old spelling, for one release (the package takes seconds everywhere).
        command.add_argument("--time-ms", type=int, help=argparse.SUPPRESS)
        command.add_argument("--seed", type=int, default=0, help=seed_help)
        command.add_argument("--out", required=True, help="the dataset directory or object-store URI, s3://bucket/prefix (on a cluster: one every node reaches)")
        command.add_argument("--address", help='the Ray cluster: "auto", "ray://HOST:10001", ... (default: RAY_ADDRESS, else a local instance)')
        command.add_argument("--timeout", type=float, help="seconds for the whole run; the ranges written stay, to resume from")
        command.add_argument("--no-progress", action="store_true", help="no progress bar")

    play = commands.add_parser("selfplay", help="engine games, one row per game (out/games)")
    play.add_argument("--games", type=int, required=True)
    common(play, "the run's seed: game i is seeded from it and i, as in `phutball selfplay` (default 0)")
    play.add_argument("--openings", help="a file of start positions, one position string a line, used in turn")
    play.add_argument(
        "--random-openings", action="store_true", help="each game from an opening of its own: the start with four random men near the ball"
    )
    play.add_argument("--move-limit", type=int, default=300, help="a game reaching this many moves is a draw (default 300)")
    play.add_argument("--games-per-task", type=int, default=16)
    play.add_argument("--training", action="store_true", help="also write one row per move (out/training)")
    eval_help = ('the engines\' evaluation: "auto" (default: the built-in network on 15x19, the hand evaluation elsewhere), '
                 '"hand", "net" (the built-in network) or "net:FILE", a weights file (docs/network.md)')
    play.add_argument("--eval", default="auto", help=eval_help)

    study = commands.add_parser("analyse", help="one row per position of FILE, in order (out/analysis)")
    study.add_argument("file", help="position strings, one a line (blank lines and '# ...' comments skipped)")
    common(study, "the engines' seed (default 0)")
    study.add_argument("--positions-per-task", type=int, default=64)
    study.add_argument("--eval", default="auto", help=eval_help)

    proof = commands.add_parser(
        "prove",
        help="prove who wins POSITION, the positions --frontier-plies below it one a task: "
        "prints `win within N: LINE`, `loss within N: LINE` (`in N` when N is exact) or `unknown`, as `phutball prove` does",
    )
    proof.add_argument("position", help="a position string, `start` or `start:COLSxROWS`")
    proof.add_argument("--frontier-plies", type=int, help="plies expanded on the driver, 0 to 32 (default 1)")
    proof.add_argument("--task-timeout", type=float, help="seconds per frontier position; one that runs out counts as unproved")
    proof.add_argument("--nodes", type=int, help="the prover's nodes per frontier position")
    proof.add_argument(
        "--memory-limit",
        type=_size,
        default=phutball.DEFAULT_MEMORY_LIMIT,
        metavar="SIZE",
        help="memory per frontier position: bytes, or with a unit K, M or G (KiB, MiB, GiB), e.g. 512M (default 256M)",
    )
    proof.add_argument("--certificate", metavar="FILE", help="write the proof's certificate to FILE (gzip-compressed if FILE ends in .gz)")
    proof.add_argument("--address", help='the Ray cluster: "auto", "ray://HOST:10001", ... (default: RAY_ADDRESS, else a local instance)')
    proof.add_argument("--timeout", type=float, help="seconds for the whole run")
    proof.add_argument("--no-progress", action="store_true", help="no progress bar")
    jobs.add_arguments(proof)

    check = commands.add_parser(
        "verify",
        help="open and check every range file of the dataset OUT against its checksum: what is complete, damaged, "
        "missing or unverifiable (exit 0 complete, 1 damaged, missing, unverifiable or refused files, 2 not a dataset)",
    )
    check.add_argument("out", help="the dataset directory or object-store URI (s3://bucket/prefix)")
    check.add_argument("--replay", action="store_true", help="also play every game of out/games again, each move checked, to its result")
    return parser


def _report_lines(report: DatasetReport) -> List[str]:
    """What `verify` prints: the run, each table's ranges, every damaged, missing and refused file."""
    run = report.run
    what = f"{run.get('games')} games" if run.get("kind") == "selfplay" else f"{run.get('positions')} positions"
    source = "run.json" if report.recorded else "the range files' metadata (no run.json)"
    lines = [f"{report.out}: {run.get('kind')} of {what}, seed {run.get('seed')} (from {source})"]
    for name, table in report.tables.items():
        total = len(table.complete) + len(table.damaged) + len(table.missing) + len(table.unverifiable)
        lines.append(
            f"{name}: {len(table.complete)} of {total} ranges complete, {len(table.damaged)} damaged, {len(table.missing)} missing"
            + (f", {len(table.unverifiable)} unverifiable" if table.unverifiable else "")
        )
        lines += [f"damaged: {path}: {why}" for _, path, why in table.damaged]
        lines += [f"missing: {name} {start} to {end - 1}" for start, end in table.missing]
        lines += [f"unverifiable: {path}: has no checksum (written before checksums)" for _, path in table.unverifiable]
    lines += [f"refused: {path}: {why}" for path, why in report.refused]
    if report.complete:
        lines.append("complete")
    else:
        first = "move the refused files away, then " if report.refused else ""
        unverifiable = sum(len(t.unverifiable) for t in report.tables.values())
        aside = " (damaged and unverifiable files are set aside in quarantine/ and their ranges written again)" if unverifiable else ""
        lines.append(f"not complete: {first}rerun the same command to repair it{aside}")
    return lines


def _verify_command(args: argparse.Namespace) -> int:
    try:
        report = verify(args.out, replay=args.replay)
    except _ERRORS as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print("\n".join(_report_lines(report)))
    return 0 if report.complete else 1


def _size(text: str) -> int:
    """A size of memory in bytes, read by the extension's one size notation
    (``512M``, ``2G``, ``1000B``: as ``memory_limit="512M"`` and the CLI's
    ``--memory-limit`` read it); its ``ParseError`` becomes argparse's
    ``error: argument --memory-limit: ...``, status 2, before any Ray work."""
    try:
        return _phutball._parse_size(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from e


def _position(text: str) -> "phutball.Position":
    """A position string, or `start` / `start:COLSxROWS` as `phutball prove` reads them."""
    if text == "start":
        return phutball.Position()
    if text.startswith("start:"):
        cols, x, rows = text[len("start:") :].partition("x")
        if not (x and cols.isdigit() and rows.isdigit()):
            raise ValueError(f"{text}: not a board size (start:COLSxROWS, e.g. start:9x9)")
        return phutball.Position.start(int(cols), int(rows))
    return phutball.Position(text)


def _check_writable(path: str) -> None:
    """Fails before a long proof, not after it, when ``path`` cannot be
    written (as `phutball prove --certificate` checks): a probe file beside
    it, written and removed."""
    probe = f"{path}.tmp{os.getpid()}"
    try:
        with open(probe, "wb"):
            pass
        os.remove(probe)
    except OSError as e:
        raise OSError(f"cannot write {path}: {e.strerror or e}") from e


def _prove_command(args: argparse.Namespace) -> int:
    """`prove`: the result line on stdout (as `phutball prove` prints it), the figures on stderr."""
    if args.jobs_driver:
        try:
            if args.certificate:
                _check_writable(args.certificate)
            return jobs.command(args, _position(args.position))
        except _ERRORS as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    try:
        if args.certificate:
            _check_writable(args.certificate)
        proof, figures = _prove(
            _position(args.position),
            frontier_plies=1 if args.frontier_plies is None else args.frontier_plies,
            timeout=args.timeout,
            task_timeout=args.task_timeout,
            nodes=args.nodes,
            memory_limit=args.memory_limit,
            address=args.address,
            progress=not args.no_progress,
        )
        print(proof)
        text = (
            f"frontier {figures.frontier} positions: {figures.proved} proved, {figures.unknown} unknown, "
            f"{figures.cancelled} not needed; nodes {figures.nodes}, {figures.seconds:.3f} s"
        )
        if proof.certificate is not None:
            text += f", certificate {len(proof.certificate)} nodes"
        print(text, file=sys.stderr)
        if args.certificate and proof.certificate is not None:
            proof.save(args.certificate)
            print(f"certificate: {args.certificate}", file=sys.stderr)
    except _ERRORS as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "prove":
        return _prove_command(args)
    if args.command == "verify":
        return _verify_command(args)
    limits = {"nodes": args.nodes, "depth": args.depth, "time": args.time, "seed": args.seed}
    if args.time_ms is not None:
        if args.time is not None:
            print("error: give --time (seconds) or the deprecated --time-ms, not both", file=sys.stderr)
            return 2
        print("warning: --time-ms is deprecated and will be removed: give --time in seconds (--time 1.5 for --time-ms 1500)", file=sys.stderr)
        limits["time"] = args.time_ms / 1000
    shared = {"out": args.out, "address": args.address, "progress": not args.no_progress, "timeout": args.timeout}
    try:
        summary: RunSummary
        if args.command == "selfplay":
            openings = None
            if args.openings:
                from ._datasets import _read_positions

                openings = _read_positions(args.openings)
            summary = selfplay(
                args.games,
                openings=openings,
                move_limit=args.move_limit,
                games_per_task=args.games_per_task,
                training=args.training,
                random_openings=args.random_openings,
                eval=args.eval,
                **limits,
                **shared,
            )
            kind = "games"
        else:
            summary = analyse(args.file, positions_per_task=args.positions_per_task, eval=args.eval, **limits, **shared)
            kind = "analysis"
    except _ERRORS as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: run the same command again to resume", file=sys.stderr)
        return 130
    for path in summary.set_aside:
        print(f"set aside: {path}", file=sys.stderr)
    print(
        f"{summary.rows} rows in {summary.out}/{kind}: {len(summary.written)} ranges written, "
        f"{len(summary.skipped)} already there"
    )
    return 0


def _exit(status: int) -> None:
    """Exits with ``status``; without Python's clean-up when a Ray thread
    was left behind (connecting to an unreachable address, or shutting
    down), which would wait for it, past the command's timeout."""
    if _ray_left_behind():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    sys.exit(status)


if __name__ == "__main__":
    _exit(main())
