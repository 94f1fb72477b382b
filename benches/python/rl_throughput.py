"""Random play side by side, in one run (issue 25, item 4): steps per second of

- ``phutball.VecEnv(256)`` at ``jobs=1`` and ``jobs=None`` (every core), and
  ``VecEnv(1024)`` at ``jobs=1`` and ``jobs=2``, stepped with
  ``sample_actions()`` (into new arrays with ``step``, and into arrays
  made once with ``step_into``, as the Gymnasium env steps it);
  ``VecEnv(256)`` with actions drawn in numpy from the masks as well;
- the Gymnasium vector env, ``gymnasium.make_vec("Phutball-v0",
  num_envs=256, jobs=1)``, with actions drawn in numpy from
  ``infos["action_mask"]`` and with the underlying ``VecEnv``'s
  ``sample_actions()``, and at the default ``jobs`` (every core);
- the PettingZoo AEC env ``phutball.env`` with ``action_space.sample(mask)``;
- single-agent play (issue 25, item 2): ``VecEnv(256, opponent="random")``
  and ``opponent="engine"`` at ``{"nodes": 100}`` (jobs 1 and 2), the agent
  stepped with ``sample_actions()``, each step with the opponent's reply;
- when installed: OpenSpiel's plain Python loop (``pyspiel``) on Go 19x19
  and Hex 11x11, and pgx's Hex and Go 19x19 on the CPU (JAX, one jitted and
  vmapped step of the whole batch, timed after a warm-up call).

Each row is also given as a ratio to ``VecEnv(256)`` at one job, and the
issue's three goals are printed at the end. Run from the repository root
with the package installed::

    python benches/python/rl_throughput.py [--seconds 2]

(The older ``vecenv_bench.py`` beside it compares ``VecEnv`` with the Rust
core's own loop.)
"""

from __future__ import annotations

import argparse
import random
from typing import Dict, Optional

import numpy as np

# The rows both scripts have are timed one way: vecenv_bench.py's (this
# script's folder is on sys.path when it runs).
from vecenv_bench import numpy_actions, pettingzoo_rate, timed, vec_env_rate

NOT_INSTALLED = "not installed"


def gym_rate(seconds: float, games: int, numpy_choice: bool, jobs: Optional[int] = 1) -> float:
    import gymnasium

    import phutball.gym  # noqa: F401 (registers "Phutball-v0")

    envs = gymnasium.make_vec("Phutball-v0", num_envs=games, jobs=jobs)
    _, infos = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    state = {"infos": infos}
    sample = envs.unwrapped.sample_actions

    def run() -> int:
        actions = numpy_actions(rng, state["infos"]["action_mask"]) if numpy_choice else sample()
        _, _, _, _, state["infos"] = envs.step(actions)
        return games

    return timed(seconds, run)


def opponent_rate(seconds: float, opponent: str, jobs: int, games: int = 256) -> float:
    """Agent steps per second against ``opponent`` (each with its reply)."""
    import phutball

    limits = {"nodes": 100} if opponent == "engine" else None
    env = phutball.VecEnv(games, seed=1, jobs=jobs, opponent=opponent, opponent_limits=limits)
    env.reset()

    def run() -> int:
        env.step(env.sample_actions())
        return games

    return timed(seconds, run)


def open_spiel_rate(seconds: float, name: str, size: int) -> Optional[float]:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name, {"board_size": size})
    choose = random.Random(1).choice
    state = {"now": game.new_initial_state()}

    def run() -> int:
        steps = 0
        for _ in range(1000):
            now = state["now"]
            if now.is_terminal():
                now = state["now"] = game.new_initial_state()
            now.apply_action(choose(now.legal_actions()))
            steps += 1
        return steps

    return timed(seconds, run)


def pgx_rate(seconds: float, env_id: str, batch: int) -> Optional[float]:
    try:
        import jax
        import jax.numpy as jnp
        import pgx
    except ImportError:
        return None
    env = pgx.make(env_id)
    init, step = jax.vmap(env.init), jax.vmap(env.step)

    @jax.jit
    def random_step(states, key):  # type: ignore[no-untyped-def]
        act_key, reset_key = jax.random.split(key)
        logits = jnp.where(states.legal_action_mask, 0.0, -jnp.inf)
        actions = jax.random.categorical(act_key, logits, axis=1)
        states = step(states, actions)
        # Autoreset: finished games restart, as the other environments' do.
        fresh = init(jax.random.split(reset_key, batch))
        done = states.terminated | states.truncated

        def pick(new, old):  # type: ignore[no-untyped-def]
            return jnp.where(done.reshape(done.shape + (1,) * (old.ndim - 1)), new, old)

        return jax.tree_util.tree_map(pick, fresh, states)

    key = jax.random.PRNGKey(1)
    states = init(jax.random.split(key, batch))
    keys = {"key": key, "states": random_step(states, key)}  # warm-up: compiles
    jax.block_until_ready(keys["states"])

    def run() -> int:
        keys["key"], sub = jax.random.split(keys["key"])
        keys["states"] = random_step(keys["states"], sub)
        jax.block_until_ready(keys["states"])
        return batch

    print(f"  pgx {env_id}: batch {batch}, jax {jax.__version__} on {jax.devices()[0].platform}")
    return timed(seconds, run)


def report(rates: Dict[str, Optional[float]], base: str) -> None:
    one = rates[base]
    assert one is not None
    print(f"{'what':58} {'steps/s':>13} {'x VecEnv(256) 1 job':>20}")
    for name, rate in rates.items():
        if rate is None:
            print(f"{name:58} {NOT_INSTALLED:>13}")
        else:
            print(f"{name:58} {rate:13,.0f} {rate / one:20.3f}")


def goal(name: str, top: Optional[float], bottom: Optional[float], target: str) -> None:
    if top is None or bottom is None:
        print(f"{name:58} {NOT_INSTALLED:>13}   goal {target}")
    else:
        print(f"{name:58} {top / bottom:13.3f}   goal {target}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--pgx-batch", type=int, default=256, help="games a pgx step (vmapped)")
    args = parser.parse_args()
    secs = args.seconds
    print(f"random play, {secs} s a measurement")
    rates: Dict[str, Optional[float]] = {}
    base = "VecEnv(256), sample_actions, jobs=1"
    rates[base] = vec_env_rate(secs, 1)
    rates["VecEnv(256), sample_actions, jobs=None (every core)"] = vec_env_rate(secs, None)
    rates["VecEnv(256), numpy choice, jobs=1"] = vec_env_rate(secs, 1, numpy_choice=True)
    rates["VecEnv(1024), sample_actions, jobs=1"] = vec_env_rate(secs, 1, games=1024)
    rates["VecEnv(1024), sample_actions, jobs=2"] = vec_env_rate(secs, 2, games=1024)
    rates["VecEnv(1024), sample_actions, step_into, jobs=1"] = vec_env_rate(secs, 1, games=1024, into=True)
    rates["VecEnv(1024), sample_actions, step_into, jobs=2"] = vec_env_rate(secs, 2, games=1024, into=True)
    rates["Gymnasium make_vec(256, jobs=1), numpy choice from infos"] = gym_rate(secs, 256, numpy_choice=True)
    rates["Gymnasium make_vec(256, jobs=1), VecEnv.sample_actions"] = gym_rate(secs, 256, numpy_choice=False)
    rates["Gymnasium make_vec(256), VecEnv.sample_actions (every core)"] = gym_rate(
        secs, 256, numpy_choice=False, jobs=None
    )
    rates["PettingZoo env, action_space.sample(mask)"] = pettingzoo_rate(secs)
    rates["VecEnv(256), random opponent, jobs=1"] = opponent_rate(secs, "random", 1)
    rates["VecEnv(256), engine opponent nodes=100, jobs=1"] = opponent_rate(secs, "engine", 1)
    rates["VecEnv(256), engine opponent nodes=100, jobs=2"] = opponent_rate(secs, "engine", 2)
    rates["OpenSpiel Go 19x19, Python loop"] = open_spiel_rate(secs, "go", 19)
    rates["OpenSpiel Hex 11x11, Python loop"] = open_spiel_rate(secs, "hex", 11)
    rates[f"pgx Hex 11x11, CPU, jit+vmap {args.pgx_batch}"] = pgx_rate(secs, "hex", args.pgx_batch)
    rates[f"pgx Go 19x19, CPU, jit+vmap {args.pgx_batch}"] = pgx_rate(secs, "go_19x19", args.pgx_batch)
    report(rates, base)
    print("goals:")
    goal(
        "Gymnasium / VecEnv(256), numpy choice, jobs=1",
        rates["Gymnasium make_vec(256, jobs=1), numpy choice from infos"],
        rates["VecEnv(256), numpy choice, jobs=1"],
        ">= 0.8",
    )
    goal(
        "Gymnasium / VecEnv(256), sample_actions, jobs=1",
        rates["Gymnasium make_vec(256, jobs=1), VecEnv.sample_actions"],
        rates[base],
        ">= 0.8",
    )
    goal(
        "VecEnv(1024) jobs=2 / jobs=1",
        rates["VecEnv(1024), sample_actions, jobs=2"],
        rates["VecEnv(1024), sample_actions, jobs=1"],
        ">= 1.7 (cores free)",
    )
    goal(
        "VecEnv(1024) step_into jobs=2 / jobs=1",
        rates["VecEnv(1024), sample_actions, step_into, jobs=2"],
        rates["VecEnv(1024), sample_actions, step_into, jobs=1"],
        ">= 1.7 (cores free)",
    )
    goal(
        "PettingZoo env / OpenSpiel Go 19x19",
        rates["PettingZoo env, action_space.sample(mask)"],
        rates["OpenSpiel Go 19x19, Python loop"],
        "> 1",
    )


if __name__ == "__main__":
    main()
