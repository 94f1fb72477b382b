"""phutball.Episode: the core's step and reward rule, bound; the PettingZoo
env and VecEnv follow it (the cross-checks are here)."""

import math

import numpy as np
import pytest

import phutball

SMALL = phutball.Position.start(cols=5, rows=7)


def action(state, text):
    """The index of the action ``text`` (``"jump to D4"``) in ``state``."""
    for index in state.legal_actions():
        if state.describe_action(index) == text:
            return index
    raise AssertionError(f"{text} is not legal in {state}")


def test_a_goal_ends_the_episode_with_plus_one_to_the_scorer():
    start = phutball.Position("2#2/2@2/5/5/5/5/5 O")
    episode = phutball.Episode(start, move_limit=None)
    t = episode.step(action(start, "jump to C8"))
    assert not t.is_over and isinstance(t.state, phutball.JumpInProgress)
    t = episode.step(action(t.state, "end jump"))
    assert (t.terminated, t.truncated, t.is_over, t.winner, t.mover) == (True, False, True, "O", "O")
    assert (t.reward, t.reward_for("O"), t.reward_for("X")) == (1.0, 1.0, -1.0)
    assert episode.is_over and episode.moves == 1
    with pytest.raises(phutball.IllegalMoveError, match="the episode is over"):
        episode.step(0)


def test_the_move_limit_truncates_and_jumps_keep_the_turn():
    start = phutball.Position("7/7/7/7/3#3/3@3/7 O")
    episode = phutball.Episode(start, move_limit=2)
    t = episode.step(action(start, "jump to D4"))
    assert (episode.moves, episode.to_move, t.is_over) == (0, "O", False)
    t = episode.step(action(t.state, "end jump"))
    assert (episode.moves, episode.to_move) == (1, "X")
    t = episode.step(action(t.state, "place A1"))
    assert (t.truncated, t.terminated, t.reward, t.winner) == (True, False, 0.0, None)
    # A reward of 0 is +0.0 for both sides, not -0.0 for the one that did not move.
    assert [math.copysign(1.0, t.reward_for(side)) for side in "OX"] == [1.0, 1.0]
    assert episode.is_over


def test_bad_arguments_say_what_was_wrong_and_change_nothing():
    with pytest.raises(ValueError, match="already finished"):
        phutball.Episode(phutball.Position("5/5/5/5/5/5/2@2 O"))
    with pytest.raises(ValueError, match="move_limit"):
        phutball.Episode(move_limit=0)
    with pytest.raises(TypeError, match="start must be"):
        phutball.Episode("start")
    episode = phutball.Episode(SMALL)
    for bad, error in [(10**6, phutball.IllegalMoveError), (1.5, TypeError), (True, TypeError)]:
        with pytest.raises(error):
            episode.step(bad)
    with pytest.raises(phutball.IllegalMoveError, match="no jump move is under way"):
        episode.step(SMALL.action_count - 1)
    assert episode.state == SMALL and episode.moves == 0
    t = episode.step(0)
    with pytest.raises(phutball.ParseError):
        t.reward_for("Z")


def test_the_pettingzoo_env_and_vec_env_follow_the_episode():
    # Random games: the env's rewards and ends are the episode's, step for
    # step, and VecEnv's rewards are the mover's reward.
    from phutball import env as phutball_env

    rng = np.random.default_rng(5)
    for game in range(5):
        e = phutball_env.env(start=SMALL, move_limit=30)
        e.reset()
        episode = phutball.Episode(SMALL, move_limit=30)
        while e.agents:
            agent = e.agent_selection
            if e.terminations[agent] or e.truncations[agent]:
                e.step(None)
                continue
            legal = np.flatnonzero(e.observe(agent)["action_mask"])
            a = int(rng.choice(legal))
            t = episode.step(a)
            e.step(a)
            assert e.position == t.state
            assert e.rewards == {"O": t.reward_for("O"), "X": t.reward_for("X")}
            assert e.terminations[agent] == t.terminated and e.truncations[agent] == t.truncated
        assert episode.is_over

    env = phutball.VecEnv(1, cols=5, rows=7, move_limit=30, seed=2, jobs=1)
    env.reset()
    episode = phutball.Episode(SMALL, move_limit=30)
    while not episode.is_over:
        a = env.sample_actions()
        _, _, rewards, terminated, truncated, _ = env.step(a)
        t = episode.step(int(a[0]))
        assert (rewards[0], terminated[0], truncated[0]) == (t.reward, t.terminated, t.truncated)


def test_repr_evaluates_back_and_pickling_resumes_the_episode():
    import pickle

    from phutball import Episode, JumpInProgress, Position  # noqa: F401 (the repr's names)

    start = phutball.Position("7/7/7/7/3#3/3@3/7 O")
    episode = phutball.Episode(start, move_limit=3)
    episode.step(action(start, "jump to D4"))
    assert isinstance(episode.state, phutball.JumpInProgress)
    for again in [eval(repr(episode)), pickle.loads(pickle.dumps(episode))]:
        assert again == episode and again is not episode
        assert (again.moves, again.move_limit, again.state) == (episode.moves, 3, episode.state)
    episode.step(action(episode.state, "end jump"))
    assert eval(repr(episode)) == episode and episode.moves == 1
    assert repr(phutball.Episode(start)) == f"Episode({start!r}, move_limit=200, moves=0)"
