"""Random play, three ways, in one run (issue 11): steps per second of

- the Rust core's own random-action loop (``benches/src/bin/random_steps.rs``,
  one thread, 256 games stepped in turn), bare and writing each step's
  observation planes and legal-action mask as ``VecEnv`` does, and the
  engine's ``VecEnv`` from Rust (``random_steps --jobs``);
- ``phutball.VecEnv(256)`` stepped with ``env.sample_actions()`` (``jobs=1``
  and ``jobs=2``), and with actions drawn in numpy from the returned masks;
  ``phutball.VecEnv(1024)`` with ``jobs=1`` and ``jobs=2``;
- the PettingZoo AEC environment ``phutball.env`` with ``action_space.sample(mask)``.

Each as a ratio to the core and to PettingZoo. Run by hand from the repository
root with the package installed (``bash tests/python/run.sh`` makes ``.venv``):

    .venv/bin/python benches/python/vecenv_bench.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import time
from typing import Callable, Dict, Optional

import numpy as np

import phutball
import phutball.env

GAMES = 256


def core_rate(steps: int, *options: str) -> float:
    command = ["cargo", "run", "--release", "-q", "-p", "phutball-benches", "--bin", "random_steps", "--"]
    out = subprocess.run(
        command + ["--steps", str(steps), *options],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    print("  " + out.strip())
    match = re.search(r"([0-9]+) steps/s", out)
    assert match, out
    return float(match.group(1))


def timed(seconds: float, run: Callable[[], int]) -> float:
    """Calls ``run`` (which returns the steps it took) until ``seconds`` have passed."""
    steps = 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds:
        steps += run()
    return steps / (time.perf_counter() - begin)


def numpy_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per row: the k-th True of the row."""
    counts = masks.sum(axis=1)
    kth = (rng.random(masks.shape[0]) * counts).astype(np.int64)
    return (np.cumsum(masks, axis=1) > kth[:, None]).argmax(axis=1)


def vec_env_rate(
    seconds: float, jobs: Optional[int], numpy_choice: bool = False, games: int = GAMES, into: bool = False
) -> float:
    """Steps per second of ``VecEnv(games)``: with ``into``, ``step_into``
    arrays made once (as the Gymnasium env steps it), else ``step``'s new
    arrays every step."""
    env = phutball.VecEnv(games, seed=1, jobs=jobs)
    print(f"  {env!r}: {env.jobs} job(s) a step{', step_into' if into else ''}")
    obs, mask = env.reset()
    rng = np.random.default_rng(1)
    state = {"mask": mask}
    ends = (np.zeros(games, np.float32), np.zeros(games, bool), np.zeros(games, bool))

    def run() -> int:
        actions = numpy_actions(rng, state["mask"]) if numpy_choice else env.sample_actions()
        if into:
            env.step_into(actions, obs, mask, *ends)
        else:
            _, state["mask"], *_ = env.step(actions)
        return games

    return timed(seconds, run)


def pettingzoo_rate(seconds: float) -> float:
    env = phutball.env.env()
    env.reset(seed=1)

    def run() -> int:
        steps = 0
        for _ in range(1000):
            agent = env.agent_selection
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                if not env.agents:
                    env.reset()
                continue
            env.step(env.action_space(agent).sample(observation["action_mask"]))
            steps += 1
        return steps

    return timed(seconds, run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    print(f"random play, {GAMES} games, {args.seconds} s a measurement")
    rates: Dict[str, float] = {}
    steps = int(1_000_000 * args.seconds)
    rates["core (Rust, 1 thread)"] = core_rate(4 * steps, "--observe", "0")
    rates["core with observations (Rust, 1 thread)"] = core_rate(steps, "--observe", "1")
    rates["Rust VecEnv(256), jobs=1"] = core_rate(steps, "--jobs", "1")
    rates["VecEnv(256), sample_actions, jobs=1"] = vec_env_rate(args.seconds, 1)
    rates["VecEnv(256), sample_actions, jobs=2"] = vec_env_rate(args.seconds, 2)
    rates["VecEnv(256), numpy choice, jobs=1"] = vec_env_rate(args.seconds, 1, numpy_choice=True)
    rates["VecEnv(1024), sample_actions, jobs=1"] = vec_env_rate(args.seconds, 1, games=1024)
    rates["VecEnv(1024), sample_actions, jobs=2"] = vec_env_rate(args.seconds, 2, games=1024)
    rates["Rust VecEnv(1024), jobs=1"] = core_rate(steps, "--games", "1024", "--jobs", "1")
    rates["Rust VecEnv(1024), jobs=2"] = core_rate(steps, "--games", "1024", "--jobs", "2")
    rates["PettingZoo env"] = pettingzoo_rate(args.seconds)
    core, observed = rates["core (Rust, 1 thread)"], rates["core with observations (Rust, 1 thread)"]
    zoo = rates["PettingZoo env"]
    print(f"{'what':42} {'steps/s':>10} {'x core':>7} {'x core+obs':>10} {'x PettingZoo':>12}")
    for name, rate in rates.items():
        print(f"{name:42} {rate:10,.0f} {rate / core:7.2f} {rate / observed:10.2f} {rate / zoo:12.1f}")


if __name__ == "__main__":
    main()
