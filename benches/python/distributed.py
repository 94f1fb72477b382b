"""Self-play games per minute: ``phutball.distributed.selfplay`` on a local
Ray cluster of two CPUs against ``phutball selfplay --jobs 2`` on the same
machine, the same games (same seed and limits), interleaved.

Run by hand, with the package and the CLI built in release mode (``bash
tests/python/run.sh`` once), from the repository root:

    .venv/bin/python benches/python/distributed.py

Ray's start (``ray.init``) is timed apart: a cluster is started once and
serves many runs. The README has the figures of one run.
"""

import argparse
import pathlib
import subprocess
import tempfile
import time

import ray

from phutball import distributed

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games-per-task", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--cli", default=str(ROOT / "target/release/phutball"))
    args = parser.parse_args()

    started = time.perf_counter()
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    print(f"ray.init (a local instance, 2 CPUs): {time.perf_counter() - started:.2f} s")
    cli = [args.cli, "selfplay", "--games", str(args.games), "--nodes", str(args.nodes), "--limit", str(args.limit), "--seed", str(args.seed), "--jobs", "2"]
    for _ in range(args.repeat):
        started = time.perf_counter()
        subprocess.run(cli, check=True, capture_output=True)
        local = time.perf_counter() - started
        with tempfile.TemporaryDirectory() as out:
            started = time.perf_counter()
            distributed.selfplay(args.games, nodes=args.nodes, move_limit=args.limit, seed=args.seed, games_per_task=args.games_per_task, out=out)
            spread = time.perf_counter() - started
        per_minute = [60 * args.games / t for t in (local, spread)]
        print(
            f"{args.games} games: phutball selfplay --jobs 2 {local:.2f} s ({per_minute[0]:.0f}/min), "
            f"distributed {spread:.2f} s ({per_minute[1]:.0f}/min): {per_minute[1] / per_minute[0]:.2f}x"
        )
    ray.shutdown()


if __name__ == "__main__":
    main()
