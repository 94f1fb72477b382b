"""phutball.VecEnv: a batch of games stepped in Rust, against single positions."""

import os
import subprocess
import sys
from typing import List, Union

import numpy as np
import pytest

import phutball
from phutball import JumpInProgress, Position, VecEnv

from conftest import assert_refused_after_close

State = Union[Position, JumpInProgress]

# A small board: random games end often, by goals and by the move limit.
COLS, ROWS = 5, 7


def start() -> Position:
    return Position.start(COLS, ROWS)


def test_a_batch_steps_like_single_positions() -> None:
    n, limit = 40, 15
    env = VecEnv(n, cols=COLS, rows=ROWS, move_limit=limit, seed=3, jobs=2)
    obs, mask = env.reset()
    assert obs.shape == (n, 5, ROWS + 2, COLS) and obs.dtype == np.float32
    assert mask.shape == (n, env.action_count) and mask.dtype == np.bool_
    singles: List[State] = [start() for _ in range(n)]
    moves = [0] * n
    assert all(np.array_equal(obs[i], s.planes()) for i, s in enumerate(singles))
    goals = limits = 0
    for _ in range(150):
        actions = env.sample_actions()
        assert all(mask[i, a] for i, a in enumerate(actions))
        obs, mask, rewards, terminated, truncated, info = env.step(actions)
        assert rewards.dtype == np.float32 and terminated.dtype == np.bool_
        for i, single in enumerate(singles):
            mover = single.to_move
            after = single.apply_action(int(actions[i]))
            moves[i] += after.to_move != mover
            winner = after.winner
            assert rewards[i] == (0.0 if winner is None else 1.0 if winner == mover else -1.0)
            assert terminated[i] == (winner is not None)
            assert truncated[i] == (winner is None and moves[i] >= limit)
            ended = terminated[i] or truncated[i]
            assert info["_final_obs"][i] == ended
            if ended:
                assert np.array_equal(info["final_obs"][i], after.planes())
                after, moves[i] = start(), 0
                goals += int(terminated[i])
                limits += int(truncated[i])
            else:
                assert info["final_obs"][i] is None
            singles[i] = after
            assert np.array_equal(obs[i], after.planes())
            assert np.array_equal(mask[i], after.legal_action_mask())
        assert env.states() == singles
    assert goals > 0 and limits > 0


def test_jobs_and_seeds_do_not_change_the_games() -> None:
    runs = []
    n = 2 * 128 + 37  # a second thread needs 128 games of its own
    for jobs in (1, 2):
        env = VecEnv(n, cols=COLS, rows=ROWS, seed=9, jobs=jobs)
        assert env.jobs == jobs
        env.reset()
        outputs = [env.step(env.sample_actions())[:5] for _ in range(30)]
        runs.append((env.states(), outputs))
    (states_1, out_1), (states_2, out_2) = runs
    assert states_1 == states_2
    for a, b in zip(out_1, out_2):
        assert all(np.array_equal(x, y) for x, y in zip(a, b))
    env = VecEnv(100, cols=COLS, rows=ROWS, seed=9, jobs=2)
    assert env.jobs == 1, "too few games to split"
    env.step(env.sample_actions())
    env.reset(seed=9)
    assert env.states() == [start()] * 100


def test_actions_may_be_a_list_or_any_integer_array() -> None:
    env = VecEnv(2, seed=0)
    h9 = Position().legal_actions()[100]
    for actions in ([h9, h9], np.array([h9, h9], dtype=np.uint16), (h9, h9)):
        env.reset()
        obs, *_ = env.step(actions)
        assert np.array_equal(obs[1], Position().apply_action(h9).planes())


def test_bad_actions_say_which_game_and_change_nothing() -> None:
    env = VecEnv(3, seed=1)
    env.reset()
    before = env.states()
    legal = Position().legal_actions()[0]
    end_jump = env.action_count - 1
    for actions, error, message in [
        ([legal, end_jump, legal], phutball.IllegalMoveError, "game 1: action 600: no jump move is under way"),
        ([legal, legal, env.action_count], phutball.IllegalMoveError, "game 2: action 601 does not exist"),
        ([-1, legal, legal], phutball.IllegalMoveError, "game 0: action -1 does not exist"),
        ([legal, legal], ValueError, r"actions must have shape \(3,\), one per game, not \(2,\)"),
        ([[legal] * 3], ValueError, "one per game"),
    ]:
        with pytest.raises(error, match=message):
            env.step(actions)
        assert env.states() == before
    with pytest.raises(TypeError, match=r"actions must be integers, not float \(actions\[0\]\)"):
        env.step([1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="actions must be integers, not float64"):
        env.step(np.array([1.0, 2.0, 3.0]))
    assert issubclass(phutball.IllegalMoveError, ValueError)


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"num_envs": 0}, ValueError, "num_envs must be at least 1, not 0"),
        ({"num_envs": 2, "jobs": 0}, ValueError, "jobs must be at least 1, not 0"),
        ({"num_envs": 2, "move_limit": 0}, ValueError, "move_limit must be at least 1, not 0"),
        ({"num_envs": 2, "cols": 40}, phutball.InvalidPositionError, "40"),
    ],
)
def test_bad_arguments_say_why(kwargs: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        VecEnv(**kwargs)


def test_a_batch_describes_itself() -> None:
    env = VecEnv(3, cols=COLS, rows=ROWS, move_limit=None, jobs=1)
    assert len(env) == env.num_envs == 3
    assert env.observation_shape == (5, ROWS + 2, COLS)
    assert env.move_limit is None and env.jobs == 1
    assert repr(env) == "VecEnv(3, cols=5, rows=7, move_limit=None, jobs=1)"


def test_the_spaces_describe_what_reset_and_step_return() -> None:
    env = VecEnv(4, cols=COLS, rows=ROWS, seed=2)
    obs, _ = env.reset()
    assert env.observation_space.contains(obs)
    assert env.single_observation_space.contains(obs[0])
    assert env.single_action_space.n == env.action_count
    actions = env.sample_actions()
    assert env.action_space.contains(actions)
    assert env.action_space.shape == (4,)
    obs, *_ = env.step(actions)
    assert env.observation_space.contains(obs)
    assert isinstance(env, phutball._phutball.VecEnv)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_steps_a_batch_its_parent_stepped_on_two_threads():
    # The child has the parent's pool but not its threads: it starts its own.
    code = (
        "import os, phutball\n"
        "env = phutball.VecEnv(512, seed=1, jobs=2)\n"
        "env.reset()\n"
        "env.step(env.sample_actions())\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    env.step(env.sample_actions())\n"
        "    os._exit(0 if env.jobs == 2 else 3)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "env.step(env.sample_actions())\n"
        "print('child', os.waitstatus_to_exitcode(status))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "child 0", out.stderr


def test_a_closed_batch_refuses_every_call() -> None:
    env = VecEnv(2, cols=5, rows=7)
    obs, mask = env.reset(seed=1)
    actions = env.sample_actions()
    n = env.num_envs
    out = (obs, mask, np.zeros(n, np.float32), np.zeros(n, np.bool_), np.zeros(n, np.bool_))
    env.close()
    calls = {
        "reset()": env.reset,
        "reset_into()": lambda: env.reset_into(obs, mask),
        "step()": lambda: env.step(actions),
        "step_into()": lambda: env.step_into(actions, *out),
        "sample_actions()": env.sample_actions,
        "states()": env.states,
    }
    assert_refused_after_close(calls, "the batch is")
