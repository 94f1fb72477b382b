"""Single-agent play (issue 25 item 2): ``opponent=`` of ``phutball.VecEnv``,
``PhutballVectorEnv`` and ``PhutballGymEnv``: random, engine and callable
opponents, the agent's turn in every observation and its rewards."""

import re

import numpy as np
import pytest
from test_network import weights_file

import phutball

try:
    import gymnasium
except ImportError:  # the tests of the extension's VecEnv run without it
    gymnasium = None

# The gymnasium environment's tests; tests/python/run.sh installs gymnasium
# (the [env] extra) and fails on any skip.
needs_gymnasium = pytest.mark.skipif(gymnasium is None, reason="gymnasium is not installed (pip install 'phutball[env]')")

SMALL = {"cols": 5, "rows": 7}
# A board whose start the engine searches (it finds 5x7's win in 23 at
# once, whatever its evaluation): where a network changes its moves.
SEARCHED = {"cols": 7, "rows": 7}
OHS_CHANNEL = 2


def masked_actions(rng, mask):
    """One legal action per row of the masks, uniformly at random."""
    return np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)


def agent_to_act(obs, side):
    """Whether every observation shows ``side`` to act (channel 2 is Ohs' turn)."""
    return bool(np.all(obs[:, OHS_CHANNEL, 0, 0] == (1.0 if side == "O" else 0.0)))


@pytest.mark.parametrize("opponent", ["random", "engine"])
@pytest.mark.parametrize("side", ["O", "X"])
def test_every_observation_is_the_agents_turn_and_rewards_are_its(opponent, side):
    # The engine's searches are the cost: fewer games, a small budget.
    n, limits = (64, None) if opponent == "random" else (16, {"nodes": 30})
    env = phutball.VecEnv(
        n, **SMALL, move_limit=30, seed=3, opponent=opponent, opponent_limits=limits, agent_side=side
    )
    assert (env.opponent, env.agent_side) == (opponent, side)
    obs, mask = env.reset()
    assert agent_to_act(obs, side)
    # Moving first, the opponent has placed one man in every game (channel 0: men).
    assert np.array_equal(obs[:, 0].sum(axis=(1, 2)), np.full(n, 1.0 if side == "X" else 0.0))
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(80):
        obs, mask, rewards, terminated, truncated, info = env.step(masked_actions(rng, mask))
        assert agent_to_act(obs, side)
        assert all(s.to_move == side for s in env.states())
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert np.array_equal(rewards != 0, terminated)
        seen.update(rewards[terminated].tolist())
    assert -1.0 in seen, "the opponent never won"
    if opponent == "random":
        assert 1.0 in seen, "a random agent never beat the random opponent"


def test_an_engine_opponent_at_a_node_budget_is_deterministic():
    runs = []
    for jobs in (1, 2):
        env = phutball.VecEnv(
            40, **SMALL, seed=5, jobs=jobs, opponent="engine", opponent_limits={"nodes": 60}
        )
        env.reset()
        for _ in range(10):
            env.step(env.sample_actions())
        runs.append([str(s) for s in env.states()])
    assert runs[0] == runs[1]
    assert any(s != str(phutball.Position.start(**SMALL)) for s in runs[0])


def test_a_callable_opponent_is_asked_for_the_waiting_games_only():
    calls = []

    def first_legal(obs, mask):
        assert obs.dtype == np.float32 and mask.dtype == np.bool_
        assert obs.shape[1:] == (5, 9, 5) and mask.shape[0] == obs.shape[0]
        # The opponent (Eks) is to act in every game it is asked about.
        assert agent_to_act(obs, "X")
        calls.append(len(obs))
        return mask.argmax(axis=1)

    env = phutball.VecEnv(16, **SMALL, seed=1, opponent=first_legal)
    assert env.opponent == "external"
    obs, mask = env.reset()
    assert calls == []
    rng = np.random.default_rng(1)
    for _ in range(30):
        obs, mask, rewards, terminated, truncated, info = env.step(masked_actions(rng, mask))
        assert agent_to_act(obs, "O")
        assert len(env.waiting()) == 0
    assert calls and max(calls) <= 16


def ball_network(cols=5, rows=7, ball_weight=-0.25):
    """A network of one hidden unit for ``cols`` x ``rows`` boards that
    values the ball's progress (input ``2 * cols * rows``, in rows) at
    ``ball_weight`` times 100: negative, it likes the ball going back, far
    from the hand evaluation."""
    inputs = 2 * cols * rows + 3
    w1 = [0.0] * inputs
    w1[2 * cols * rows] = ball_weight
    return phutball.Network.from_bytes(weights_file(b"ball", layers=[(cols, rows, 1, w1 + [0.5, 100.0, 0.0])]))


@pytest.mark.parametrize("evaluation", ["default", "hand", "network", "file"])
def test_a_callable_that_plays_the_engines_moves_plays_as_the_engine_opponent(evaluation, tmp_path):
    # The engine opponent is an Engine with the batch's seed and evaluation,
    # on positions without history: a callable playing that engine's moves
    # action by action must give the same games.
    seed, nodes = 5, 60
    net = ball_network(**SEARCHED)
    (tmp_path / "ball.phbnet").write_bytes(net.to_bytes())
    eval_arg = {"default": None, "hand": "hand", "network": net, "file": f"net:{tmp_path / 'ball.phbnet'}"}[evaluation]
    engine = phutball.Engine(nodes=nodes, seed=seed, eval=eval_arg)
    pending = {}

    def as_engine(obs, mask):
        actions = []
        for i, state in zip(env.waiting(), [env.states()[i] for i in env.waiting()]):
            if not pending.get(i):
                pending[i] = state.move_to_actions(engine.best_move(state))
            actions.append(pending[i].pop(0))
        return actions

    for side in ("O", "X"):
        env = phutball.VecEnv(6, **SEARCHED, seed=seed, opponent=as_engine, agent_side=side)
        rust = phutball.VecEnv(
            6, **SEARCHED, seed=seed, opponent="engine", opponent_limits={"nodes": nodes}, agent_side=side,
            opponent_eval=eval_arg,
        )
        assert rust.opponent_eval == ("auto" if eval_arg is None else "hand" if eval_arg == "hand" else net)
        pending.clear()
        env.reset()
        rust.reset()
        assert [str(s) for s in env.states()] == [str(s) for s in rust.states()]
        for _ in range(15):
            actions = rust.sample_actions()
            assert np.array_equal(actions, env.sample_actions())
            got = env.step(actions)
            want = rust.step(actions)
            assert [str(s) for s in env.states()] == [str(s) for s in rust.states()]
            for a, b in zip(got[:5], want[:5]):
                assert np.array_equal(a, b)


def test_the_engine_opponents_network_changes_its_play():
    # Where the engine opens (the agent is Eks), the network's opening is
    # the engine's with that network, not the hand evaluation's.
    start = phutball.Position.start(**SEARCHED)
    net = ball_network(**SEARCHED)
    openings = {}
    for evaluation in ("hand", net):
        env = phutball.VecEnv(2, **SEARCHED, seed=1, opponent="engine", opponent_eval=evaluation, agent_side="X")
        env.reset()
        engine = phutball.Engine(nodes=100, seed=1, eval=evaluation)
        assert [str(s) for s in env.states()] == [str(start.play(engine.best_move(start)))] * 2
        openings[str(evaluation)] = str(env.states()[0])
    assert len(set(openings.values())) == 2, openings
    assert phutball.VecEnv(2, **SMALL, opponent="random").opponent_eval is None


def test_bad_opponent_evaluations_are_refused_by_name(tmp_path):
    cases = [
        ({"opponent": "random", "opponent_eval": "hand"}, ValueError, "opponent_eval is for opponent='engine' only"),
        ({"opponent": lambda obs, mask: mask.argmax(axis=1), "opponent_eval": ball_network()}, ValueError, "opponent_eval"),
        ({"opponent_eval": ball_network()}, ValueError, "opponent_eval"),
        ({"opponent": "engine", "opponent_eval": 3}, TypeError, "opponent_eval must be"),
        ({"opponent": "engine", "opponent_eval": "net:"}, ValueError, "opponent_eval: net: needs a file name"),
        ({"opponent": "engine", "opponent_eval": "minimax"}, ValueError, "opponent_eval: unknown evaluation"),
        ({"opponent": "engine", "opponent_eval": ball_network(9, 9)}, phutball.NetworkError,
         "the engine opponent's network cannot judge this batch's board: the network serves 9x9, not 5x7"),
        ({"opponent": "engine", "opponent_eval": f"net:{tmp_path / 'missing.phbnet'}"}, OSError, "missing.phbnet"),
    ]
    for kwargs, error, message in cases:
        with pytest.raises(error, match=re.escape(message)):
            phutball.VecEnv(2, **SMALL, **kwargs)


def test_a_callable_returning_illegal_actions_raises_and_changes_no_game():
    def end_jump(obs, mask):
        # "End jump" is the last action, illegal at the start of a turn.
        return np.full(len(obs), mask.shape[1] - 1)

    env = phutball.VecEnv(8, **SMALL, seed=2, opponent=end_jump)
    obs, mask = env.reset()
    before = [str(s) for s in env.states()]
    with pytest.raises(phutball.IllegalMoveError, match="game 0"):
        env.step(env.sample_actions())
    assert [str(s) for s in env.states()] == before
    assert len(env.waiting()) == 0

    def wrong_count(obs, mask):
        return [0]

    env = phutball.VecEnv(8, **SMALL, seed=2, opponent=wrong_count)
    env.reset()
    with pytest.raises(ValueError, match="shape"):
        env.step(env.sample_actions())
    assert len(env.waiting()) == 0


def test_bad_opponent_arguments_name_the_argument():
    cases = [
        ({"opponent": "minimax"}, ValueError, "opponent"),
        ({"opponent": 3}, TypeError, "opponent"),
        ({"opponent": "random", "opponent_limits": {"nodes": 5}}, ValueError, "opponent_limits"),
        ({"opponent": "engine", "opponent_limits": {"nodes": 0}}, ValueError, "nodes"),
        ({"opponent": "engine", "opponent_limits": {"threads": 2}}, ValueError, "opponent_limits"),
        ({"opponent": "engine", "opponent_limits": {}}, ValueError, "opponent_limits"),
        ({"opponent": "engine", "opponent_limits": [100]}, TypeError, "opponent_limits"),
        ({"opponent": "random", "agent_side": "Z"}, ValueError, "agent_side"),
        ({"opponent": "random", "agent_side": 1}, TypeError, "agent_side"),
        ({"agent_side": "X"}, ValueError, "agent_side"),
        ({"opponent": "random", "agent_side": "X", "move_limit": 1}, ValueError, "move limit"),
    ]
    for kwargs, error, word in cases:
        with pytest.raises(error, match=word):
            phutball.VecEnv(2, **SMALL, **kwargs)


def test_step_waiting_into_is_for_an_external_opponent():
    env = phutball.VecEnv(2, **SMALL, opponent="random")
    obs, mask = env.reset()
    n = 2
    out = (obs, mask, np.zeros(n, np.float32), np.zeros(n, np.bool_), np.zeros(n, np.bool_))
    with pytest.raises(ValueError, match="external"):
        env.step_waiting_into([], *out)


@needs_gymnasium
def test_gymnasium_checks_pass_with_an_opponent():
    import phutball.gym as pgym
    from gymnasium.utils.env_checker import check_env

    for opponent in ["random", "engine", lambda obs, mask: mask.argmax(axis=1)]:
        evaluation = ball_network() if opponent == "engine" else None
        env = pgym.PhutballGymEnv(**SMALL, opponent=opponent, agent_side="X", move_limit=20, opponent_eval=evaluation)
        check_env(env, skip_render_check=True)
        obs, info = env.reset(seed=1)
        assert obs[OHS_CHANNEL, 0, 0] == 0.0
        done = False
        while not done:
            action = int(np.flatnonzero(info["action_mask"])[0])
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        assert not info["action_mask"].any()
        with pytest.raises(phutball.IllegalMoveError):
            env.step(0)


@needs_gymnasium
def test_make_vec_takes_the_opponent():
    import phutball.gym  # noqa: F401  (registers Phutball-v0)

    envs = gymnasium.make_vec(
        "Phutball-v0", num_envs=8, **SMALL, opponent="engine", opponent_limits={"nodes": 50}, opponent_eval=ball_network()
    )
    obs, infos = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(20):
        obs, rewards, terminated, truncated, infos = envs.step(masked_actions(rng, infos["action_mask"]))
        assert np.all(infos["to_move"] == 0)
    envs.close()
