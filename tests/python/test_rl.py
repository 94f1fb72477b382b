"""phutball.rl: exact accuracy agrees with a brute-force count from the
tablebase, the tables' positions and the kept-value rule, and Elo games
against the engine add up."""

import math

import numpy as np
import pytest
from test_opponents import ball_network

import phutball
from phutball import rl

TINY = "3x4"


def first_legal(obs, mask):
    """A deterministic policy: the lowest legal action (placements first)."""
    return np.argmax(mask, axis=1)


def last_legal(obs, mask):
    """A deterministic policy: the highest legal action (jumps and "end jump")."""
    return mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)


def brute_force(table, positions, choose):
    """Counts by value whether ``choose``'s move keeps it, the move played
    with Position/JumpInProgress and the rule written out in plies."""
    counts = {"win": [0, 0], "draw": [0, 0], "loss": [0, 0]}
    for pos in positions:
        state = pos
        while True:
            state = state.apply_action(choose(state.legal_actions()))
            if isinstance(state, phutball.Position) or state.is_finished:
                break
        after = state if isinstance(state, phutball.Position) else state.position
        value, child = table.probe(pos), table.probe(after)
        kept = {
            "win": child.result == "loss",
            "draw": child.result == "draw",
            "loss": child.result == "win" and child.plies == value.plies - 1,
        }[value.result]
        counts[value.result][0] += kept
        counts[value.result][1] += 1
    return {k: tuple(v) for k, v in counts.items()}


@pytest.mark.parametrize("policy, choose", [(first_legal, min), (last_legal, max)])
def test_exact_accuracy_agrees_with_a_brute_force_count(policy, choose):
    table = rl.tablebase(TINY)
    result = rl.exact_accuracy(policy, TINY, positions=600, seed=3)
    picks = np.random.default_rng(3).choice(table.stats()["positions"], size=600, replace=False)
    positions = [table.position(int(i)) for i in picks]
    assert result.by_value == brute_force(table, positions, choose)
    assert result.positions == 600 and result.kept == sum(k for k, _ in result.by_value.values())
    assert result.accuracy == result.kept / 600
    # The same positions given as a list count the same.
    assert rl.exact_accuracy(policy, TINY, positions=positions).by_value == result.by_value


def test_a_tiny_table_is_taken_whole_and_the_random_policy_is_between():
    table = rl.tablebase("1x7")
    result = rl.exact_accuracy(rl.random_policy(1), "1x7")
    assert result.positions == table.stats()["positions"] <= rl.DEFAULT_POSITIONS
    assert {k: t for k, (_, t) in result.by_value.items()} == {
        "win": table.stats()["wins"],
        "draw": table.stats()["draws"],
        "loss": table.stats()["losses"],
    }
    assert 0 < result.accuracy < 1
    assert repr(result).startswith("<ExactAccuracy 1x7: ")


def test_the_best_moves_keep_every_value_and_others_do_not():
    table = rl.tablebase(TINY)
    kept = broken = 0
    for index in range(0, table.stats()["positions"], 97):
        pos = table.position(index)
        assert rl.keeps_value(table, pos, pos.play(table.best_move(pos)))
        for move in pos.legal_moves():
            broken += not rl.keeps_value(table, pos, pos.play(move))
        kept += 1
    assert kept > 200 and broken > 0


def test_table_positions_are_numbered_and_bounded():
    table = rl.tablebase(TINY)
    count = table.stats()["positions"]
    first, last = table.position(0), table.position(count - 1)
    assert first.to_move == "O" and last.to_move == "X"
    assert table.position(table.states).to_move == "X"
    for bad in (count, -1):
        with pytest.raises(IndexError, match="out of range"):
            table.position(bad)
    with pytest.raises(TypeError):
        table.position(1.5)


def test_value_rule_in_plies():
    table = rl.tablebase("1x7")
    values = {table.probe(table.position(i)) for i in range(table.stats()["positions"])}
    loss = max((v for v in values if v.result == "loss"), key=lambda v: v.plies)
    wins = [v for v in values if v.result == "win"]
    assert any(loss.is_kept_by(w) for w in wins)
    assert all(loss.is_kept_by(w) == (w.plies >= loss.plies - 1) for w in wins)
    assert all(w.is_kept_by(loss) and not w.is_kept_by(w) for w in wins)


def test_illegal_actions_and_bad_arguments_are_counted_or_refused():
    result = rl.exact_accuracy(lambda obs, mask: np.full(len(mask), -1), TINY, positions=50)
    assert (result.kept, result.illegal) == (0, 50)
    with pytest.raises(ValueError, match="board"):
        rl.exact_accuracy(first_legal, "3by7")
    with pytest.raises(ValueError, match="returned"):
        rl.exact_accuracy(lambda obs, mask: [0], TINY, positions=5)
    with pytest.raises(ValueError, match="not a position"):
        rl.exact_accuracy(first_legal, TINY, positions=[phutball.Position.start()])
    with pytest.raises(phutball.SearchTimeoutError):
        rl.exact_accuracy(first_legal, TINY, positions=50, timeout=0)
    # timeout= is read as every call of the package reads it.
    with pytest.raises(ValueError, match="timeout must be None or a number of seconds of at least 0, not -1"):
        rl.exact_accuracy(first_legal, TINY, positions=5, timeout=-1)
    with pytest.raises(TypeError, match="timeout must be None or a number of seconds, not str"):
        rl.elo_vs_engine(rl.random_policy(0), nodes=(1,), games=2, timeout="soon")


def test_elo_games_add_up():
    rows = rl.elo_vs_engine(rl.random_policy(0), nodes=(1, 50), games=2, move_limit=12, timeout=60)
    assert [r.nodes for r in rows] == [1, 50]
    for row in rows:
        assert row.wins + row.draws + row.losses == row.games == 2
        assert row.score == (row.wins + row.draws / 2) / 2
        assert row.elo == rl.elo(row.score)
    assert rl.elo(0.5) == 0 and rl.elo(0.0) is None and rl.elo(1.0) is None
    assert math.isclose(rl.elo(0.75), 400 * math.log10(3))
    with pytest.raises(phutball.SearchTimeoutError):
        rl.elo_vs_engine(rl.random_policy(0), nodes=(1000,), games=2, timeout=0)


def test_import_phutball_does_not_import_rl():
    import subprocess
    import sys

    code = "import sys, phutball; print('phutball.rl' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"


def test_the_training_example_runs_at_tiny_scale():
    """examples/python/train_tiny.py at seconds' scale: its loop runs and each
    accuracy it prints is its rows' kept over their total (not the learning)."""
    import re
    import subprocess
    import sys

    from conftest import REPO

    script = REPO / "examples" / "python" / "train_tiny.py"
    args = ["--board", TINY, "--iterations", "4", "--games", "16", "--positions", "60", "--evals", "2"]
    out = subprocess.run([sys.executable, str(script), *args], check=True, capture_output=True, text=True).stdout
    lines = [line for line in out.splitlines() if line.startswith("cpu")]
    games = [int(re.search(r"games +(\d+)", line).group(1)) for line in lines]
    assert games == [0, 32, 64], out
    for line in lines:
        accuracy = float(re.search(r"accuracy ([\d.]+)", line).group(1))
        rows = [tuple(map(int, kt)) for kt in re.findall(r"(\d+)/(\d+)", line)]
        assert sum(t for _, t in rows) == 60
        assert accuracy == pytest.approx(sum(k for k, _ in rows) / 60, abs=5e-4)


def test_the_docs_figures_for_3x7_hold():
    """docs/rl.md's first example prints what its comments say (the 3x7
    table: about 5 s to build in a release build)."""
    from conftest import REPO

    docs = (REPO / "docs" / "rl.md").read_text()
    assert repr(rl.exact_accuracy(first_legal, "3x7")) in docs
    random = rl.exact_accuracy(rl.random_policy(1), "3x7", positions=10_000, seed=1)
    assert f"{random.accuracy:.4f}" in docs and "2488/7732" in docs
    assert random.by_value["win"] == (2488, 7732)


RL = "__import__('phutball.rl', fromlist=['rl'])"
LONG_RL_CALLS = {
    # A policy of 10 ms a call, one position a batch: minutes in the Python loop.
    "exact_accuracy": f"lambda: {RL}.exact_accuracy(lambda o, m: (time.sleep(0.01), m.argmax(1))[1], '3x4', batch=1)",
    # The engine's first search, at a budget of a billion nodes.
    "elo_vs_engine": f"lambda: {RL}.elo_vs_engine({RL}.random_policy(0), nodes=(10**9,), games=2)",
}


@pytest.mark.parametrize("name", LONG_RL_CALLS)
def test_ctrl_c_stops_the_long_calls(name):
    from test_bounded import interrupt_child

    latency = interrupt_child(LONG_RL_CALLS[name], delay=1.0)
    assert latency < 2, f"{name}: KeyboardInterrupt {latency:.2f} s after SIGINT"


def random_positions(count, seed):
    """Up to ``count`` positions at the start of a move on each of a few
    boards, reached by random play."""
    rng = np.random.default_rng(seed)
    found = []
    for cols, rows in [(15, 19), (5, 7), (4, 9)]:
        episode = phutball.Episode(phutball.Position.start(cols, rows), move_limit=None)
        on_board = 0
        while on_board < count and not episode.is_over:
            state = episode.state
            if isinstance(state, phutball.Position):
                found.append(state)
                on_board += 1
            episode.step(int(rng.choice(np.flatnonzero(state.legal_action_mask()))))
    return found


def test_positions_come_back_from_their_planes():
    positions = random_positions(40, seed=3)
    assert len(positions) > 60
    assert {p.to_move for p in positions} == {"O", "X"}
    assert any(p.men for p in positions)
    for pos in positions:
        assert rl.position_from_planes(pos.planes()) == pos
    jump = phutball.Position.from_points("H10", ["H11"], "O").apply_jump("H12")
    with pytest.raises(ValueError, match="jump under way"):
        rl.position_from_planes(jump.planes())
    with pytest.raises(ValueError, match="shape"):
        rl.position_from_planes(np.zeros((4, 21, 15), np.float32))
    two_balls = phutball.Position().planes()
    two_balls[1, 3, 3] = 1
    with pytest.raises(ValueError, match="2 balls"):
        rl.position_from_planes(two_balls)


def play_policy_move(policy, pos):
    """The position after the policy's move from ``pos``, one action at a time."""
    episode = phutball.Episode(pos, move_limit=None)
    while True:
        state = episode.state
        action = int(policy(state.planes()[None], state.legal_action_mask()[None])[0])
        after = episode.step(action)
        if after.is_over or isinstance(after.state, phutball.Position):
            return rl.position_from_planes(after.state.planes()) if not after.is_over else after.state


def test_the_engine_policy_plays_the_engines_move_action_by_action():
    pos = phutball.Position.from_points("H10", ["H11", "H13", "G10"], "O")
    for nodes, seed in [(1, 0), (50, 3)]:
        move = phutball.Engine(nodes=nodes, seed=seed).best_move(pos)
        assert len(pos.move_to_actions(move)) > 1, "a jump of several actions"
        assert play_policy_move(rl.engine_policy(nodes, seed=seed), pos) == pos.play(move)
    # A jump it did not start, it ends at once.
    jump = pos.apply_jump("H12")
    end_jump = pos.action_count - 1
    policy = rl.engine_policy(1)
    assert policy(jump.planes()[None], jump.legal_action_mask()[None]).tolist() == [end_jump]
    # A move the mask does not allow (the env's rules are not the policy's) is refused.
    first = pos.move_to_actions(phutball.Engine(nodes=1, seed=0).best_move(pos))[0]
    mask = pos.legal_action_mask()[None].copy()
    mask[0, first] = False
    with pytest.raises(ValueError, match="not legal here"):
        rl.engine_policy(1, seed=0)(pos.planes()[None], mask)


def test_the_engine_policy_and_elo_take_an_evaluation(tmp_path):
    # A 9x9 network that likes the ball going back: the policy plays the
    # engine's move with it (a jump back, where the hand evaluation's jumps
    # forward), action by action.
    net = ball_network(9, 9)
    path = tmp_path / "ball.phbnet"
    path.write_bytes(net.to_bytes())
    pos = phutball.Position.from_points("E5", ["E4", "E3", "D5", "F6"], "O", cols=9, rows=9)
    assert str(phutball.Engine(nodes=50, seed=1).best_move(pos)) == "E5-G7"
    for evaluation in (net, f"net:{path}"):
        move = phutball.Engine(nodes=50, seed=1, eval=evaluation).best_move(pos)
        assert str(move) != "E5-G7"
        assert play_policy_move(rl.engine_policy(50, seed=1, eval=evaluation), pos) == pos.play(move)
    # On a board the network does not serve, the engine's refusal.
    with pytest.raises(phutball.NetworkError, match="the network serves 9x9, not 15x19"):
        rl.engine_policy(1, eval=net)(phutball.Position().planes()[None], phutball.Position().legal_action_mask()[None])
    with pytest.raises(phutball.NetworkError, match="the network serves 9x9, not 15x19"):
        rl.elo_vs_engine(rl.random_policy(0), nodes=(1,), games=2, eval=net)
    with pytest.raises(ValueError, match="eval: net: needs a file name"):
        rl.engine_policy(1, eval="net:")
    # Elo against the engine with a 15x19 network (every position level).
    level = ball_network(15, 19, 0.0)
    rows = rl.elo_vs_engine(rl.engine_policy(1, seed=2), nodes=(1,), games=2, move_limit=10, timeout=120, eval=level)
    assert rows[0].wins + rows[0].draws + rows[0].losses == 2


def test_the_engine_policy_is_a_rung_elo_can_rate():
    rows = rl.elo_vs_engine(rl.engine_policy(1, seed=2), nodes=(1,), games=4, move_limit=30, timeout=120)
    assert rows[0].wins + rows[0].draws + rows[0].losses == 4
