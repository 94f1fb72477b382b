"""phutball.gym: the Gymnasium environments (issue 25 item 1).

PhutballVectorEnv over the Rust VecEnv (same-step autoreset, arrays written
in place by VecEnv.step_into) and PhutballGymEnv over a phutball.Episode, both
registered as "Phutball-v0"."""

import re
import signal
import subprocess
import sys
import time
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pytest

import phutball

from conftest import assert_refused_after_close

try:
    import gymnasium
    from gymnasium.utils.env_checker import check_env
    from gymnasium.vector import AutoresetMode, SyncVectorEnv
    from gymnasium.vector.utils import batch_space

    import phutball.gym as pgym
except ImportError:  # the tests of the extension's VecEnv run without it
    gymnasium = None

# The tests of phutball.gym; tests/python/run.sh installs gymnasium (the
# [env] extra) and fails on any skip.
needs_gymnasium = pytest.mark.skipif(gymnasium is None, reason="gymnasium is not installed (pip install 'phutball[env]')")

SMALL = {"cols": 5, "rows": 7}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def masked_actions(rng, mask):
    """One legal action per row of the masks, uniformly at random."""
    return np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)


@needs_gymnasium
def test_the_docs_example_runs():
    section = DOCS.read_text(encoding="utf-8").split("### Gymnasium\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert blocks, "docs/python.md lost its Gymnasium example"
    for code in blocks:
        exec(compile(code, str(DOCS), "exec"), {})


@needs_gymnasium
def test_check_env_passes_on_the_registered_env():
    for kwargs in (SMALL, {}):
        env = gymnasium.make("Phutball-v0", **kwargs)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(env.unwrapped)
        assert isinstance(env.unwrapped, pgym.PhutballGymEnv)


@needs_gymnasium
def test_the_single_game_class_is_phutball_gym_env_and_its_old_name_warns():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # making the registered env uses the new name
        env = gymnasium.make("Phutball-v0", **SMALL)
    assert type(env.unwrapped) is pgym.PhutballGymEnv
    assert gymnasium.spec("Phutball-v0").entry_point == "phutball.gym:PhutballGymEnv"
    assert "PhutballEnv" not in pgym.__all__
    with pytest.warns(DeprecationWarning, match=r"phutball\.gym\.PhutballEnv is renamed phutball\.gym\.PhutballGymEnv"):
        from phutball.gym import PhutballEnv
    assert PhutballEnv is pgym.PhutballGymEnv
    with pytest.raises(AttributeError, match="has no attribute 'PhutballEnvironment'"):
        pgym.PhutballEnvironment


@needs_gymnasium
def test_make_vec_gives_the_vector_env_with_gymnasiums_attributes():
    envs = gymnasium.make_vec("Phutball-v0", num_envs=8, seed=1, **SMALL)
    raw = envs.unwrapped
    assert isinstance(raw, pgym.PhutballVectorEnv)
    assert isinstance(raw, gymnasium.vector.VectorEnv)
    assert raw.num_envs == 8
    assert raw.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert raw.single_observation_space == gymnasium.spaces.Box(0.0, 1.0, (5, 9, 5), np.float32)
    assert raw.single_action_space == gymnasium.spaces.Discrete(81)
    assert raw.observation_space == batch_space(raw.single_observation_space, 8)
    assert raw.action_space == batch_space(raw.single_action_space, 8)
    obs, infos = envs.reset(seed=3)
    assert obs.shape == (8, 5, 9, 5) and obs.dtype == np.float32
    assert obs in raw.observation_space
    assert infos["action_mask"].shape == (8, 81) and infos["action_mask"].dtype == np.bool_
    assert infos["to_move"].dtype == np.int8 and not infos["to_move"].any()
    assert infos["_action_mask"].all() and infos["_to_move"].all()
    envs.close()
    assert raw.closed


@needs_gymnasium
def test_the_module_prefixed_id_imports_the_module_itself():
    code = (
        "import sys, gymnasium\n"
        "assert 'phutball.gym' not in sys.modules\n"
        "envs = gymnasium.make_vec('phutball.gym:Phutball-v0', num_envs=3, cols=5, rows=7)\n"
        "print(type(envs.unwrapped).__name__, envs.num_envs)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["PhutballVectorEnv", "3"]


@needs_gymnasium
def test_import_phutball_imports_gymnasium_only_when_a_space_is_asked_for():
    code = (
        "import sys, phutball\n"
        "env = phutball.VecEnv(2, cols=5, rows=7)\n"
        "env.reset()\n"
        "print('gymnasium' in sys.modules)\n"
        "space = env.single_action_space\n"
        "print('gymnasium' in sys.modules, type(space).__module__.split('.')[0])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "gymnasium"]


def test_phutball_imports_without_gymnasium():
    code = (
        "import sys\n"
        "sys.modules['gymnasium'] = None\n"  # as if it were not installed
        "import phutball\n"
        "phutball.VecEnv(2, cols=5, rows=7).reset()\n"
        "try:\n"
        "    import phutball.gym\n"
        "except ImportError:\n"
        "    print('no gym')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "no gym"


@needs_gymnasium
def test_a_standard_wrapper_stack_steps_and_records_episodes():
    envs = gymnasium.make_vec("Phutball-v0", num_envs=8, seed=0, **SMALL)
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(envs)
    envs = gymnasium.wrappers.vector.NormalizeReward(envs)
    rng = np.random.default_rng(0)
    _, infos = envs.reset(seed=0)
    ended = recorded = 0
    for _ in range(400):
        _, rewards, terminated, truncated, infos = envs.step(masked_actions(rng, infos["action_mask"]))
        assert rewards.shape == (8,) and np.isfinite(rewards).all()
        done = terminated | truncated
        ended += int(done.sum())
        if done.any():
            assert (infos["_episode"] == done).all()
            lengths = infos["episode"]["l"][done]
            assert (lengths > 0).all()
            # Self-play: the only reward of an episode is its last action's.
            raw_returns = infos["episode"]["r"][done]
            assert set(np.abs(raw_returns)) <= {0.0, 1.0}
            recorded += len(lengths)
    record = envs.env  # NormalizeReward(RecordEpisodeStatistics)
    assert ended > 20, "random play on 5x7 ends games within 400 steps"
    assert recorded == ended == record.episode_count
    assert len(record.return_queue) == min(ended, record.return_queue.maxlen)


@needs_gymnasium
def test_gymnasiums_observation_wrappers_refuse_same_step_autoreset():
    # Gymnasium 1.x's VectorObservationWrapper (NormalizeObservation, ...)
    # would not transform final_obs, so it refuses the mode (docs/python.md).
    envs = gymnasium.make_vec("Phutball-v0", num_envs=2, **SMALL)
    with pytest.raises(ValueError, match="NEXT_STEP or DISABLED"):
        gymnasium.wrappers.vector.NormalizeObservation(envs)
    # The docs' way round: a SyncVectorEnv of PhutballGymEnvs, next-step autoreset.
    synced = gymnasium.make_vec("Phutball-v0", 2, vectorization_mode="sync", **SMALL)
    synced = gymnasium.wrappers.vector.NormalizeObservation(synced)
    _, infos = synced.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(60):
        obs, *_, infos = synced.step(masked_actions(rng, infos["action_mask"]))
        assert np.isfinite(obs).all()


@needs_gymnasium
def test_same_step_autoreset_shows_what_the_episode_shows():
    """Each game alongside a phutball.Episode given the same actions: the
    observations, masks, rewards and flags, and a finished game's final_obs."""
    n, limit = 6, 10
    envs = pgym.PhutballVectorEnv(n, move_limit=limit, seed=2, **SMALL)
    start = phutball.Position.start(**SMALL)
    episodes = [phutball.Episode(start, move_limit=limit) for _ in range(n)]
    rng = np.random.default_rng(1)
    obs, infos = envs.reset()
    seen = {"terminated": 0, "truncated": 0}
    for _ in range(300):
        actions = masked_actions(rng, infos["action_mask"])
        movers = infos["to_move"].copy()
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        for i, episode in enumerate(episodes):
            t = episode.step(int(actions[i]))
            assert movers[i] == (t.mover == "X")
            assert (rewards[i], terminated[i], truncated[i]) == (t.reward, t.terminated, t.truncated)
            if t.is_over:
                seen["terminated" if t.terminated else "truncated"] += 1
                assert infos["_final_obs"][i] and infos["_final_info"][i]
                np.testing.assert_array_equal(infos["final_obs"][i], episode.state.planes())
                assert infos["final_info"]["to_move"][i] == (episode.state.to_move == "X")
                assert not infos["final_info"]["action_mask"][i].any()
                episodes[i] = episode = phutball.Episode(start, move_limit=limit)
            elif "final_obs" in infos:
                assert not infos["_final_obs"][i] and infos["final_obs"][i] is None
            np.testing.assert_array_equal(obs[i], episode.state.planes())
            np.testing.assert_array_equal(infos["action_mask"][i], episode.state.legal_action_mask())
            assert infos["to_move"][i] == (episode.state.to_move == "X")
        assert ("final_obs" in infos) == bool((terminated | truncated).any())
    assert seen["terminated"] > 5 and seen["truncated"] > 5, seen


def same(a, b):
    """Equal data, dicts and object arrays included (rewards may differ in float width)."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) and a.dtype == object:
        return a.shape == b.shape and all(
            (x is None and y is None) or (x is not None and y is not None and same(x, y)) for x, y in zip(a, b)
        )
    return np.array_equal(a, b) and (not isinstance(a, np.ndarray) or a.dtype.kind == b.dtype.kind)


@needs_gymnasium
def test_the_infos_are_laid_out_as_sync_vector_env_lays_out_phutball_envs():
    n, limit = 4, 8
    ours = pgym.PhutballVectorEnv(n, move_limit=limit, **SMALL)
    sync = SyncVectorEnv(
        [lambda: pgym.PhutballGymEnv(move_limit=limit, **SMALL) for _ in range(n)],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    assert ours.single_observation_space == sync.single_observation_space
    assert ours.single_action_space == sync.single_action_space
    assert ours.action_space == sync.action_space
    rng = np.random.default_rng(4)
    got, want = ours.reset(), sync.reset()
    assert same(got, want)
    ends = 0
    for _ in range(120):
        actions = masked_actions(rng, got[-1]["action_mask"])
        got, want = ours.step(actions), sync.step(actions)
        assert same(got, want)
        ends += "final_obs" in got[4]
    assert ends > 5


@needs_gymnasium
def test_the_arrays_are_reused_and_the_infos_dict_is_new():
    envs = pgym.PhutballVectorEnv(4, seed=0, **SMALL)
    obs, infos = envs.reset()
    arrays = None
    for _ in range(50):
        result = envs.step(envs.sample_actions())
        assert result[0] is obs
        assert result[4] is not infos
        infos = result[4]
        assert infos["action_mask"] is result[4]["action_mask"]
        now = (result[1], result[2], result[3], infos["action_mask"], infos["to_move"])
        if arrays is not None:
            assert all(x is y for x, y in zip(now, arrays))
        arrays = now
    obs_again, infos_again = envs.reset()
    assert obs_again is obs and infos_again["action_mask"] is arrays[3]


@needs_gymnasium
def test_a_step_allocates_no_array():
    # tracemalloc sees numpy's allocations: a new observation array (400 kB
    # here) would show in the peak; the infos dict and the actions' cast do not.
    envs = pgym.PhutballVectorEnv(64, seed=0, jobs=1)
    envs.reset()
    actions = []  # a run's actions, drawn first so that the replay draws none
    for _ in range(30):
        actions.append(envs.sample_actions())
        envs.step(actions[-1])
    envs.reset()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for a in actions:
            envs.step(a)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert peak < envs._obs.nbytes / 4, f"{peak} bytes at the peak of 30 steps"


@needs_gymnasium
def test_the_buffers_hand_over_without_a_copy():
    envs = pgym.PhutballVectorEnv(3, seed=0, **SMALL)
    obs, infos = envs.reset()
    for array in (obs, infos["action_mask"]):
        view = np.from_dlpack(array)  # as torch.from_dlpack / jax.dlpack take it
        assert np.shares_memory(view, array)
    snapshot = np.from_dlpack(obs).copy()
    envs.step(envs.sample_actions())
    assert not np.array_equal(np.from_dlpack(obs), snapshot), "the next step overwrites the buffer"


def vec_buffers(n=4, **overrides):
    raw = phutball._phutball.VecEnv(n, seed=0, **SMALL)
    shape = (n, *raw.observation_shape)
    arrays = {
        "obs": np.zeros(shape, np.float32),
        "mask": np.zeros((n, raw.action_count), np.bool_),
        "rewards": np.zeros(n, np.float32),
        "terminated": np.zeros(n, np.bool_),
        "truncated": np.zeros(n, np.bool_),
        "to_move": np.zeros(n, np.int8),
    }
    arrays.update(overrides)
    return raw, arrays


BAD_ARRAYS = [
    ("obs", lambda a: a.astype(np.float64), TypeError, "obs must have dtype float32, not float64"),
    ("obs", lambda a: a[:, :, :-1], ValueError, r"obs must have shape \(4, 5, 9, 5\), not \(4, 5, 8, 5\)"),
    ("obs", lambda a: np.zeros((4, 5, 9, 10), np.float32)[..., ::2], ValueError, "obs must be C-contiguous"),
    ("obs", lambda a: a.tolist(), TypeError, "obs must be a numpy array, not list"),
    ("mask", lambda a: a.astype(np.int8), TypeError, "mask must have dtype bool, not int8"),
    ("rewards", lambda a: a[:3], ValueError, r"rewards must have shape \(4,\), not \(3,\)"),
    ("terminated", lambda a: a.view(np.int8), TypeError, "terminated must have dtype bool"),
    ("truncated", lambda a: np.lib.stride_tricks.as_strided(a, writeable=False), ValueError, "truncated is read-only"),
    ("to_move", lambda a: a.astype(np.int64), TypeError, "to_move must have dtype int8, not int64"),
]


@pytest.mark.parametrize("name, spoil, error, message", BAD_ARRAYS, ids=[m for _, _, _, m in BAD_ARRAYS])
def test_step_into_refuses_a_bad_array_naming_it(name, spoil, error, message):
    raw, arrays = vec_buffers()
    raw.reset_into(arrays["obs"], arrays["mask"])
    before = raw.states()
    arrays[name] = spoil(arrays[name])
    actions = raw.sample_actions()
    with pytest.raises(error, match=message):
        raw.step_into(actions, **arrays)
    assert raw.states() == before, "a refused step changes no game"


def test_step_into_refuses_one_array_for_two_flags():
    flags = np.zeros(4, np.bool_)
    raw, arrays = vec_buffers(terminated=flags, truncated=flags)
    raw.reset_into(arrays["obs"], arrays["mask"])
    with pytest.raises(ValueError, match="truncated shares memory with another of the arrays"):
        raw.step_into(raw.sample_actions(), **arrays)


def test_reset_into_refuses_a_bad_array_and_writes_the_start():
    raw, arrays = vec_buffers()
    with pytest.raises(TypeError, match="mask must have dtype bool"):
        raw.reset_into(arrays["obs"], arrays["mask"].astype(np.uint8))
    with pytest.raises(ValueError, match=r"to_move must have shape \(4,\)"):
        raw.reset_into(arrays["obs"], arrays["mask"], to_move=np.zeros(5, np.int8))
    arrays["to_move"][:] = 7
    raw.reset_into(arrays["obs"], arrays["mask"], seed=1, to_move=arrays["to_move"])
    start = phutball.Position.start(**SMALL)
    for i in range(4):
        np.testing.assert_array_equal(arrays["obs"][i], start.planes())
        np.testing.assert_array_equal(arrays["mask"][i], start.legal_action_mask())
    assert (arrays["to_move"] == 0).all()


def test_step_into_returns_the_ended_games_only():
    raw, arrays = vec_buffers(n=2)
    raw.reset_into(arrays["obs"], arrays["mask"])
    assert raw.step_into(raw.sample_actions(), **arrays) == {}
    # Without to_move the rest is written as before.
    del arrays["to_move"]
    assert raw.step_into(raw.sample_actions(), **arrays) == {}


@needs_gymnasium
def test_seeding_makes_runs_reproducible():
    def run(seed):
        envs = gymnasium.make_vec("Phutball-v0", num_envs=4, **SMALL)
        obs, _ = envs.reset(seed=seed)
        trace = [envs.action_space.sample().tolist()]
        for _ in range(150):
            obs, rewards, terminated, truncated, _ = envs.step(envs.unwrapped.sample_actions())
            trace.append((obs.tobytes(), rewards.tolist(), terminated.tolist(), truncated.tolist()))
        return trace

    assert run(7) == run(7)
    assert run(7) != run(8)


@needs_gymnasium
def test_the_vector_env_refuses_what_it_cannot_do():
    envs = pgym.PhutballVectorEnv(2, **SMALL)
    with pytest.raises(RuntimeError, match="before reset"):
        envs.step([0, 0])
    envs.reset()
    with pytest.raises(ValueError, match="takes no options"):
        envs.reset(options={"reset_mask": np.ones(2, bool)})
    with pytest.raises(phutball.IllegalMoveError, match="game 0"):
        envs.step([80, 0])  # "end jump" with no jump under way
    with pytest.raises(ValueError, match="render_mode"):
        pgym.PhutballVectorEnv(2, render_mode="human")
    assert envs.render() is None
    shown = pgym.PhutballVectorEnv(2, render_mode="ansi", **SMALL)
    shown.reset()
    assert shown.render() == (phutball.Position.start(**SMALL).diagram(),) * 2


@needs_gymnasium
def test_the_single_env_samples_legal_actions_and_stops_at_the_end():
    env = pgym.PhutballGymEnv(move_limit=30, **SMALL)
    _, info = env.reset(seed=5)
    steps = 0
    while True:
        action = env.action_space.sample()
        assert info["action_mask"][action]
        _, reward, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            break
    assert not info["action_mask"].any() and env.action_space.sample() == 0
    assert reward in (-1.0, 0.0, 1.0) and steps > 1
    with pytest.raises(phutball.IllegalMoveError):
        env.step(0)
    only = np.zeros(env.action_space.n, np.int8)
    only[3] = 1
    env.reset()
    assert env.action_space.sample(mask=only) == 3


CTRL_C_CHILD = """
import sys, time
import phutball.gym
envs = phutball.gym.PhutballVectorEnv(16384, cols=5, rows=7, seed=0, jobs=1)
envs.reset()
print("ready", flush=True)
try:
    while True:  # each step some milliseconds in Rust: the signal lands in one
        envs.step(envs.sample_actions())
except KeyboardInterrupt:
    print("KeyboardInterrupt", time.monotonic(), flush=True)
"""


@needs_gymnasium
def test_ctrl_c_stops_the_stepping_with_keyboard_interrupt():
    child = subprocess.Popen([sys.executable, "-c", CTRL_C_CHILD], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.5)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    word, at = out.split()[:2]
    assert (child.returncode, word) == (0, "KeyboardInterrupt")
    assert float(at) - sent < 2


@needs_gymnasium
def test_both_envs_refuse_every_call_after_close():
    env = pgym.PhutballGymEnv(render_mode="ansi", **SMALL)
    env.reset(seed=1)
    env.close()
    calls = {"reset()": env.reset, "step()": lambda: env.step(0), "render()": env.render, "state": lambda: env.state}
    assert_refused_after_close(calls, "the environment is")
    envs = pgym.PhutballVectorEnv(2, render_mode="ansi", **SMALL)
    envs.reset(seed=1)
    actions = envs.sample_actions()
    envs.close()
    calls = {
        "reset()": envs.reset,
        "step()": lambda: envs.step(actions),
        "sample_actions()": envs.sample_actions,
        "states()": envs.states,
        "render()": envs.render,
    }
    assert_refused_after_close(calls, "the environments are")
    env.close()
    envs.close()  # closing twice is allowed
