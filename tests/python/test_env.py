"""The PettingZoo AEC environment: PettingZoo's own api_test when PettingZoo
is installed, and tests of the same behaviour that run either way."""

import warnings

import numpy as np
import pytest

import phutball
from phutball import env as phutball_env

from conftest import assert_refused_after_close


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


def test_the_class_is_phutball_aec_env_and_its_old_name_warns():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new name and the constructors do not warn
        from phutball.env import PhutballAECEnv

        assert type(phutball_env.env()) is PhutballAECEnv
        assert type(phutball_env.raw_env()) is PhutballAECEnv
    assert "PhutballEnv" not in phutball_env.__all__
    with pytest.warns(DeprecationWarning, match=r"phutball\.env\.PhutballEnv is renamed phutball\.env\.PhutballAECEnv"):
        from phutball.env import PhutballEnv
    assert PhutballEnv is PhutballAECEnv
    with pytest.raises(AttributeError, match="has no attribute 'PhutballEnvironment'"):
        phutball_env.PhutballEnvironment


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


def jump_position():
    # The seeds' worked example: three jump moves besides the placements.
    return phutball.Position.from_points("K6", ["J7", "H8", "G10", "H11"])


def test_sampling_the_observed_mask_draws_every_legal_action_and_only_those():
    e = phutball_env.env(start=jump_position())
    e.reset(seed=3)
    mask = e.last()[0]["action_mask"]
    legal = set(np.flatnonzero(mask).tolist())
    space = e.action_space(e.agent_selection)
    drawn = [int(space.sample(mask)) for _ in range(20000)]
    assert set(drawn) == legal  # 280 placements and one jump each way: all met in 20000 draws
    counts = np.bincount(drawn, minlength=len(mask))[sorted(legal)]
    assert counts.min() > 20000 / len(legal) / 3  # roughly uniform, not stuck on a few


def test_sampling_is_seeded_by_reset_and_other_masks_sample_as_discrete_does():
    def draws(seed):
        e = phutball_env.env(start=jump_position())
        e.reset(seed=seed)
        mask = e.last()[0]["action_mask"]
        space = e.action_space(e.agent_selection)
        return [int(space.sample(mask)) for _ in range(50)], e, mask

    first, e, mask = draws(7)
    assert first == draws(7)[0] and first != draws(8)[0]
    space = e.action_space(e.agent_selection)
    only = np.zeros_like(mask)
    only[int(np.flatnonzero(mask)[-1])] = 1
    assert {int(space.sample(only)) for _ in range(20)} == {int(np.flatnonzero(mask)[-1])}


def test_the_observed_mask_is_read_only_and_a_stale_one_samples_its_own_state():
    e = phutball_env.env(start=jump_position())
    e.reset(seed=1)
    agent = e.agent_selection
    stale = e.last()[0]["action_mask"]
    with pytest.raises(ValueError):
        stale[0] = 0
    e.step(int(np.flatnonzero(stale)[0]))  # a placement: the turn passes
    e.last()  # the other agent's mask is now the observed one
    after = e.observe(e.agent_selection)["action_mask"]
    # The stale mask still gives its own state's legal actions, not the new state's.
    assert int(e.action_space(agent).sample(stale)) in set(np.flatnonzero(stale).tolist())
    assert not np.array_equal(stale, after)


def test_sampling_the_observed_mask_is_uniform_on_a_small_board():
    # Ball C3, men C4 B4 D3: 31 placements and three jumps on 5 x 7.
    start = phutball.Position.from_points("C3", ["C4", "B4", "D3"], cols=5, rows=7)
    e = phutball_env.env(start=start)
    e.reset(seed=5)
    mask = e.last()[0]["action_mask"]
    legal = np.flatnonzero(mask).tolist()
    space = e.action_space(e.agent_selection)
    drawn = [space.sample(mask) for _ in range(300 * len(legal))]
    assert all(type(a) is np.int64 for a in drawn)  # as Discrete.sample gives
    counts = np.bincount(np.array(drawn), minlength=len(mask))
    assert counts.sum() == counts[legal].sum()  # only legal actions
    expected = len(drawn) / len(legal)
    statistic = float(((counts[legal] - expected) ** 2 / expected).sum())
    # Pearson's statistic has mean k - 1 and deviation sqrt(2 (k - 1)) when
    # uniform; the draws are seeded, so this is fixed, and a draw stuck on
    # part of the actions (a third of them: statistic 600) fails it.
    k = len(legal)
    assert statistic < (k - 1) + 6 * (2 * (k - 1)) ** 0.5


def test_seeding_the_space_fixes_the_observed_masks_draws():
    def draws(e, seed):
        space = e.action_space(e.agent_selection)
        space.seed(seed)
        mask = e.last()[0]["action_mask"]
        return [int(space.sample(mask)) for _ in range(30)]

    e = phutball_env.env(start=jump_position())
    e.reset()
    first = draws(e, 4)
    assert draws(e, 4) == first and draws(e, 5) != first
    other = phutball_env.env(start=jump_position())
    other.reset()
    assert draws(other, 4) == first  # another env, the same seed: the same draws


def test_misuse_before_reset_and_a_bad_agent_are_clear_errors():
    e = phutball_env.env()
    for call in (e.last, lambda: e.observe("O"), lambda: e.step(0)):
        with pytest.raises(RuntimeError, match=r"before reset\(\): call env.reset\(\) first"):
            call()
    e.reset(seed=1)
    with pytest.raises(ValueError, match=r"observe\('bogus'\): no such agent; the agents are \['O', 'X'\]"):
        e.observe("bogus")
    e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))  # still playable after the refusal
    assert e.agent_selection == "X"


def test_every_call_after_close_is_a_runtime_error():
    e = phutball_env.env(render_mode="ansi")
    e.reset(seed=1)
    action = int(np.flatnonzero(e.last()[0]["action_mask"])[0])
    e.close()
    calls = {
        "step()": lambda: e.step(action),
        "observe()": lambda: e.observe("O"),
        "last()": e.last,
        "reset()": e.reset,
        "render()": e.render,
    }
    assert_refused_after_close(calls, "the environment is")
    e.close()  # closing twice is allowed
