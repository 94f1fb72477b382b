"""The gymnasium-space stand-ins (python/phutball/_spaces.py), on their own
and, where gymnasium is installed, answer for answer against gymnasium's
classes; and VecEnv's gymnasium.vector.VectorEnv attributes with either."""

import numpy as np
import pytest

import phutball
from phutball import _spaces, _vector

try:
    import gymnasium
    from gymnasium import spaces as gym_spaces
except ImportError:  # the stand-ins are tested on their own
    gymnasium = None
    gym_spaces = None

needs_gymnasium = pytest.mark.skipif(gymnasium is None, reason="gymnasium is not installed")

COLS, ROWS = 5, 7

# (space, value) pairs: members and non-members of every kind.
DISCRETE_VALUES = [0, 4, 5, -1, True, np.int64(3), np.uint8(2), np.array(3), np.array([3]), 1.0, "1", None]
MULTI_VALUES = [
    np.array([0, 1, 2]),
    [0, 1, 2],
    (2, 1, 0),
    np.array([0, 1, 3]),
    np.array([-1, 0, 0]),
    np.array([0, 1], dtype=np.int64),
    np.array([0.0, 1.0, 2.0]),
    np.array([0, 1, 2], dtype=np.uint8),
    np.array([[0, 1, 2]]),
    3,
]
BOX_VALUES = [
    np.zeros((2, 3), dtype=np.float32),
    np.ones((2, 3), dtype=np.float32),
    np.full((2, 3), 1.5, dtype=np.float32),
    np.full((2, 3), -0.5, dtype=np.float32),
    np.zeros((2, 3), dtype=np.float64),
    np.zeros((2, 3), dtype=np.float16),
    np.zeros((3, 2), dtype=np.float32),
    [[0.0, 0.5, 1.0], [1.0, 0.5, 0.0]],
    "planes",
]


def spaces_pairs():
    """(stand-in, gymnasium's) for each kind, gymnasium's None if not installed."""
    made = {
        "Discrete": lambda m: m.Discrete(5),
        "MultiDiscrete": lambda m: m.MultiDiscrete(np.array([3, 3, 3])),
        "Box": lambda m: m.Box(low=0.0, high=1.0, shape=(2, 3), dtype=np.float32),
    }
    return {k: (f(_spaces), f(gym_spaces) if gym_spaces else None) for k, f in made.items()}


@pytest.mark.parametrize(
    "kind, values",
    [("Discrete", DISCRETE_VALUES), ("MultiDiscrete", MULTI_VALUES), ("Box", BOX_VALUES)],
)
def test_the_stand_ins_contain_what_gymnasium_contains(kind, values):
    ours, theirs = spaces_pairs()[kind]
    answers = [ours.contains(v) for v in values]
    assert any(answers) and not all(answers), answers
    if theirs is not None:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gymnasium warns when it casts a list
            expected = [theirs.contains(v) for v in values]
        assert answers == expected, [(v, a, e) for v, a, e in zip(values, answers, expected) if a != e]


def test_the_stand_ins_answer_on_their_own():
    discrete, multi, box = (pair[0] for pair in spaces_pairs().values())
    assert [discrete.contains(v) for v in (0, 4, 5, -1, np.int64(3), np.array(3), 1.0)] == [
        True, True, False, False, True, True, False,
    ]
    assert 2 in discrete and 7 not in discrete
    assert multi.contains([0, 1, 2]) and not multi.contains([0, 1, 3]) and not multi.contains([0, 1])
    assert not multi.contains(np.array([0.0, 1.0, 2.0])), "floats do not cast to int64 safely"
    assert box.contains(np.zeros((2, 3), dtype=np.float32))
    assert not box.contains(np.full((2, 3), 1.5, dtype=np.float32))
    assert not box.contains(np.zeros((2, 3)))  # float64 does not cast to float32 safely
    words = _spaces.Dict({"action_mask": _spaces.Box(0, 1, (2,), np.int8), "n": discrete})
    assert words["n"] is discrete
    assert words.contains({"action_mask": np.array([0, 1], dtype=np.int8), "n": 3})
    assert not words.contains({"action_mask": np.array([0, 2], dtype=np.int8), "n": 3})
    assert not words.contains({"n": 3})


def test_the_stand_ins_sample_members_reproducibly():
    discrete, multi, box = (pair[0] for pair in spaces_pairs().values())
    for space in (discrete, multi, box):
        space.seed(4)
        first = [space.sample() for _ in range(20)]
        assert all(space.contains(x) for x in first)
        space.seed(4)
        again = [space.sample() for _ in range(20)]
        assert all(np.array_equal(a, b) for a, b in zip(first, again))
    mask = np.array([0, 0, 1, 0, 1], dtype=np.int8)
    assert {discrete.sample(mask) for _ in range(50)} == {2, 4}
    with pytest.raises(ValueError, match="allows no action"):
        discrete.sample(np.zeros(5, dtype=np.int8))
    assert len({discrete.sample() for _ in range(200)}) == 5


@pytest.fixture(params=["installed", "stand-ins"])
def space_module(request, monkeypatch):
    """VecEnv's spaces from gymnasium (if installed) or from the stand-ins."""
    if request.param == "installed":
        if gymnasium is None:
            pytest.skip("gymnasium is not installed")
        return gym_spaces
    monkeypatch.setattr(_vector, "_spaces", lambda: _spaces)
    return _spaces


def test_vec_env_has_the_vector_env_attributes(space_module):
    env = phutball.VecEnv(4, cols=COLS, rows=ROWS, seed=2)
    obs, _ = env.reset()
    assert env.num_envs == 4
    assert isinstance(env.single_observation_space, space_module.Box)
    assert isinstance(env.single_action_space, space_module.Discrete)
    assert isinstance(env.action_space, space_module.MultiDiscrete)
    assert env.single_observation_space.contains(obs[0]) and env.observation_space.contains(obs)
    assert env.single_action_space.n == env.action_count
    actions = env.sample_actions()
    assert env.action_space.contains(actions) and env.action_space.shape == (4,)
    obs, *_ = env.step(actions)
    assert env.observation_space.contains(obs)
    # Made once: a seeded space stays seeded.
    assert env.action_space is env.action_space
    env.action_space.seed(3)
    first = env.action_space.sample()
    env.action_space.seed(3)
    assert np.array_equal(env.action_space.sample(), first)
    assert env.metadata["autoreset_mode"] == _vector._same_step()
    assert env.render_mode is None and env.spec is None and env.unwrapped is env
    assert not env.closed
    env.close()
    env.close()
    assert env.closed
    assert isinstance(env, phutball._phutball.VecEnv)


@needs_gymnasium
def test_vec_env_spaces_are_gymnasiums_batched_spaces():
    from gymnasium.vector.utils import batch_space

    env = phutball.VecEnv(6, cols=COLS, rows=ROWS)
    assert env.observation_space == batch_space(env.single_observation_space, 6)
    assert env.action_space == batch_space(env.single_action_space, 6)
    # What every gymnasium VectorEnv has (the spaces and num_envs are set by its __init__).
    for name in ["metadata", "close", "closed", "render_mode", "spec", "unwrapped"]:
        assert hasattr(gymnasium.vector.VectorEnv, name) and hasattr(env, name), name
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
