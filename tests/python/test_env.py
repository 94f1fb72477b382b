"""The PettingZoo AEC environment: PettingZoo's own api_test when PettingZoo
is installed, and tests of the same behaviour that run either way."""

import numpy as np
import pytest

import phutball
from phutball import env as phutball_env


def play_random(environment, rng, max_steps=5000):
    steps = 0
    for agent in environment.agent_iter(max_steps):
        obs, reward, terminated, truncated, info = environment.last()
        if terminated or truncated:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) > 0
            action = int(rng.choice(legal))
        environment.step(action)
        steps += 1
    return steps


def test_pettingzoo_api_test():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    assert phutball_env.HAVE_PETTINGZOO
    small = phutball.Position.start(cols=5, rows=7)
    api_test(phutball_env.env(start=small, move_limit=30), num_cycles=300)
    api_test(phutball_env.env(move_limit=10), num_cycles=100)


def test_reset_observation_and_mask():
    e = phutball_env.env()
    e.reset(seed=1)
    assert e.agents == ["O", "X"] and e.agent_selection == "O"
    obs, reward, terminated, truncated, info = e.last()
    assert obs["observation"].shape == (5, 21, 15)
    assert obs["action_mask"].dtype == np.int8 and int(obs["action_mask"].sum()) == 284
    assert int(e.observe("X")["action_mask"].sum()) == 0
    assert reward == 0 and not terminated and not truncated
    assert e.action_space("O").n == 601


def test_jump_keeps_the_turn_and_a_goal_ends_the_game_with_rewards():
    start = phutball.Position.from_points("N17", ["N18", "O19"], to_move="X")
    e = phutball_env.env(start=start)
    e.reset()
    assert e.agent_selection == "X"
    e.step(start.move_to_actions("N17-N19")[0])  # Eks jumps onto Ohs's goal line...
    assert e.agent_selection == "X"  # ...and keeps the turn: the move is not over
    assert not any(e.terminations.values())
    e.step(start.action_count - 1)  # ending the move there is an own goal
    assert e.terminations == {"O": True, "X": True}
    assert e.rewards == {"O": 1, "X": -1}
    assert e._cumulative_rewards == {"O": 1, "X": -1}
    e.step(None)
    e.step(None)
    assert e.agents == []


def test_move_limit_truncates():
    e = phutball_env.env(move_limit=3)
    e.reset()
    for point in ["A1", "A2", "A3"]:
        e.step(phutball.Position().move_to_actions(point)[0])
    assert e.truncations == {"O": True, "X": True}
    assert e.rewards == {"O": 0, "X": 0}


def test_illegal_action_raises_and_changes_nothing():
    e = phutball_env.env()
    e.reset()
    with pytest.raises(phutball.IllegalMoveError):
        e.step(600)
    assert e.position == phutball.Position() and e.agent_selection == "O"
    for wrong in [1.5, "5"]:
        with pytest.raises(TypeError, match="action must be an int"):
            e.step(wrong)
    assert e.position == phutball.Position() and e.agent_selection == "O"
    e.step(np.int64(0))  # numpy integers, as spaces.Discrete.sample() gives, are actions
    assert e.position.men == ["A1"]


@pytest.mark.parametrize("limit", [0, -1, 2.5])
def test_a_move_limit_below_one_is_rejected(limit):
    # The episode's own check: a ValueError for 0 and -1, a TypeError for 2.5.
    with pytest.raises((ValueError, TypeError), match="move_limit"):
        phutball_env.env(move_limit=limit)


def test_random_games_end_properly():
    rng = np.random.default_rng(7)
    for _ in range(3):
        e = phutball_env.env(start=phutball.Position.start(cols=5, rows=7), move_limit=60)
        e.reset(seed=3)
        play_random(e, rng)
        assert e.agents == []
