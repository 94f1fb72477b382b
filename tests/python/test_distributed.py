"""phutball.distributed on a real local Ray cluster (two CPUs, started once
for the module and stopped after it). Ray and pyarrow are installed by
tests/python/run.sh: if they are missing these tests fail, they do not skip."""

import json
import os
import signal
import subprocess
import threading
import time

import pyarrow.parquet as pq
import pytest
import ray
from ray.util.state import list_tasks

import phutball
from phutball import distributed
from phutball.distributed.__main__ import main as command

from conftest import SEEDS_STRING, START_STRING

# Tiny searches: a game of about 40 plies takes tens of milliseconds.
SETTINGS = {"nodes": 150, "seed": 5, "move_limit": 40}


@pytest.fixture(scope="module", autouse=True)
def cluster():
    # "local": a new instance even if RAY_ADDRESS names another cluster.
    # Task events reach the state API every 100 ms, not every second: the
    # killed-worker test must see a task RUNNING before it ends.
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=True,
        dashboard_host="127.0.0.1",
        log_to_driver=False,
        _system_config={"task_events_report_interval_ms": 100},
    )
    yield
    ray.shutdown()


def games_of(out):
    rows = pq.read_table(os.path.join(out, "games")).to_pylist()
    return sorted(rows, key=lambda row: row["game"])


def replayed(row):
    """The game of a row, its moves played again by the core (each must be legal)."""
    game = phutball.Game(row["opening"], move_limit=row["move_limit"])
    for move in row["moves"]:
        assert not game.is_over, row["game"]
        game.push(move)
    return game


def test_a_run_is_the_local_selfplay_with_legal_games(tmp_path):
    summary = distributed.selfplay(7, games_per_task=2, out=tmp_path, training=True, **SETTINGS)
    assert summary.written == [(0, 2), (2, 4), (4, 6), (6, 7)] and summary.skipped == []
    rows = games_of(tmp_path)
    assert [row["game"] for row in rows] == list(range(7))
    local = phutball.selfplay(7, jobs=2, **SETTINGS)
    for row, one in zip(rows, local):
        game = replayed(row)
        assert game.is_over and (game.winner or "draw") == row["result"]
        assert row["plies"] == len(row["moves"])
        assert (row["seed"], row["opening"], row["moves"]) == (one.seed, str(one.game.start), [str(m) for m in one.game.moves])
        assert (row["run_seed"], row["limit_nodes"], row["limit_depth"], row["limit_time_ms"]) == (5, 150, None, None)
    training = pq.read_table(os.path.join(tmp_path, "training")).to_pylist()
    assert len(training) == sum(row["plies"] for row in rows)
    first = [t for t in training if t["game"] == rows[0]["game"]]
    positions = replayed(rows[0]).positions
    assert [t["position"] for t in first] == [str(p) for p in positions[:-1]]
    winner = rows[0]["result"]
    assert [t["result"] for t in first] == [0 if winner == "draw" else 1 if p.to_move == winner else -1 for p in positions[:-1]]


def test_random_openings_give_each_game_its_own_and_the_record_keeps_them(tmp_path):
    distributed.selfplay(4, games_per_task=2, out=tmp_path, random_openings=True, **SETTINGS)
    rows = games_of(tmp_path)
    openings = [row["opening"] for row in rows]
    assert len(set(openings)) == 4
    assert openings == [str(phutball.random_opening(row["seed"], 0)) for row in rows]
    assert openings == [str(g.game.start) for g in phutball.selfplay(4, jobs=2, random_openings=True, **SETTINGS)]
    assert json.loads((tmp_path / "run.json").read_text())["random_openings"] is True
    # A resume must agree on them.
    with pytest.raises(distributed.DatasetError, match="random_openings differ"):
        distributed.selfplay(4, games_per_task=2, out=tmp_path, **SETTINGS)
    assert distributed.selfplay(4, games_per_task=2, out=tmp_path, random_openings=True, **SETTINGS).written == []


@pytest.mark.skipif(not os.environ.get("PHUTBALL_CLI"), reason="PHUTBALL_CLI is not set (run tests/python/run.sh)")
def test_the_same_games_as_the_command_line(tmp_path):
    jsonl = tmp_path / "games.jsonl"
    subprocess.run(
        [os.environ["PHUTBALL_CLI"], "selfplay", "--games", "4", "--nodes", "150", "--seed", "5", "--limit", "40", "--jobs", "2", "--jsonl", str(jsonl)],
        check=True,
        capture_output=True,
    )
    cli = [json.loads(line) for line in jsonl.read_text().splitlines()]
    distributed.selfplay(4, games_per_task=3, out=tmp_path / "out", **SETTINGS)
    rows = games_of(tmp_path / "out")
    # The command line numbers games from 1 and says "O wins".
    assert [(c["game"] - 1, c["seed"], c["moves"], c["result"]) for c in cli] == [
        (r["game"], r["seed"], r["moves"], "draw" if r["result"] == "draw" else f"{r['result']} wins") for r in rows
    ]


def test_a_second_run_resumes_without_repeating_work(tmp_path):
    distributed.selfplay(6, games_per_task=2, out=tmp_path, **SETTINGS)
    files = sorted((tmp_path / "games").iterdir())
    assert len(files) == 3
    files[1].unlink()  # as if the run had stopped before this range
    written = {f: f.stat().st_mtime_ns for f in (files[0], files[2])}
    summary = distributed.selfplay(6, games_per_task=2, out=tmp_path, **SETTINGS)
    assert summary.written == [(2, 4)] and summary.skipped == [(0, 2), (4, 6)]
    assert {f: f.stat().st_mtime_ns for f in written} == written
    assert [row["game"] for row in games_of(tmp_path)] == list(range(6))
    again = distributed.selfplay(6, games_per_task=2, out=tmp_path, **SETTINGS)
    assert again.written == [] and len(again.skipped) == 3
    with pytest.raises(ValueError, match="other arguments"):
        distributed.selfplay(6, games_per_task=2, out=tmp_path, **{**SETTINGS, "seed": 6})


def test_a_run_out_of_time_is_cancelled_and_resumes(tmp_path):
    settings = {**SETTINGS, "nodes": 1500, "move_limit": 60}
    with pytest.raises(phutball.SearchTimeoutError, match="resume"):
        distributed.selfplay(6, games_per_task=1, out=tmp_path, timeout=0.05, **settings)
    summary = distributed.selfplay(6, games_per_task=1, out=tmp_path, **settings)
    assert len(summary.written) > 0 and len(summary.written) + len(summary.skipped) == 6
    assert [row["game"] for row in games_of(tmp_path)] == list(range(6))
    late = ["selfplay", "--games", "2", "--nodes", "1500", "--move-limit", "60", "--out", str(tmp_path / "cli"), "--timeout", "0.01", "--no-progress"]
    assert command(late) == 2
    with pytest.raises(ValueError, match="timeout"):
        distributed.selfplay(6, games_per_task=1, out=tmp_path, timeout=-1, **settings)


def test_analysis_rows_are_in_input_order_and_match_analyse_many(tmp_path):
    positions = [SEEDS_STRING, START_STRING, str(phutball.Position.from_points("H10", ["H9", "H8"])), SEEDS_STRING, START_STRING]
    distributed.analyse(positions, nodes=300, seed=2, positions_per_task=2, out=tmp_path / "a")
    rows = pq.read_table(tmp_path / "a" / "analysis").to_pylist()
    assert [r["index"] for r in rows] == list(range(5)) and [r["position"] for r in rows] == positions
    local = phutball.Engine(nodes=300, seed=2).analyse_many(positions, jobs=2)
    assert [(r["best_move"], r["score_text"], r["nodes"], r["pv"]) for r in rows] == [
        (str(a.best_move), a.score_text, a.nodes, [str(m) for m in a.pv]) for a in local
    ]
    listing = tmp_path / "positions.txt"
    listing.write_text("# the positions above\n\n" + "\n".join(positions) + "\n")
    assert command(["analyse", str(listing), "--nodes", "300", "--seed", "2", "--out", str(tmp_path / "b"), "--no-progress"]) == 0
    assert pq.read_table(tmp_path / "b" / "analysis").to_pylist() == rows


def test_bad_input_is_a_value_error_before_any_task(tmp_path):
    with pytest.raises(ValueError, match=r"positions\[1\].*over"):
        distributed.analyse([START_STRING, "7/7/7/7/7/7/7/7/3@3 X"], nodes=10, out=tmp_path)
    with pytest.raises(ValueError, match="positions\\[0\\]"):
        distributed.analyse(["not a position"], nodes=10, out=tmp_path)
    with pytest.raises(ValueError):
        distributed.selfplay(2, nodes=0, out=tmp_path)
    with pytest.raises(ValueError):
        distributed.selfplay(2, nodes=10, games_per_task=0, out=tmp_path)
    assert command(["selfplay", "--games", "2", "--nodes", "-1", "--out", str(tmp_path)]) == 2
    assert not (tmp_path / "games").exists()


def test_the_command_plays_from_an_openings_file(tmp_path):
    listing = tmp_path / "openings.txt"
    listing.write_text(f"# two starts, used in turn\n{SEEDS_STRING}\n\n{START_STRING}\n")
    arguments = ["selfplay", "--games", "3", "--nodes", "150", "--seed", "5", "--move-limit", "40"]
    assert command([*arguments, "--openings", str(listing), "--out", str(tmp_path / "o"), "--no-progress"]) == 0
    expected = [str(phutball.Position(text)) for text in (SEEDS_STRING, START_STRING, SEEDS_STRING)]
    assert [row["opening"] for row in games_of(tmp_path / "o")] == expected


def test_time_is_in_seconds_and_time_ms_still_works_with_a_warning(tmp_path, capsys):
    out = tmp_path / "timed"
    settings = {"seed": 5, "move_limit": 6, "games_per_task": 2, "out": out}
    assert distributed.selfplay(2, time=0.05, **settings).written == [(0, 2)]
    assert {row["limit_time_ms"] for row in games_of(out)} == {50}
    # The same run in the old spelling: it resumes (same settings), warned.
    with pytest.warns(DeprecationWarning, match=r"time_ms is deprecated.*time=1.5"):
        again = distributed.selfplay(2, time_ms=50, **settings)
    assert again.written == [] and again.skipped == [(0, 2)]
    arguments = ["selfplay", "--games", "2", "--seed", "5", "--move-limit", "6", "--games-per-task", "2", "--out", str(out), "--no-progress"]
    assert command([*arguments, "--time", "0.05"]) == 0 and "0 ranges written, 1 already there" in capsys.readouterr().out
    assert command([*arguments, "--time-ms", "50"]) == 0
    assert "--time-ms is deprecated" in capsys.readouterr().err
    assert command([*arguments, "--time", "0.05", "--time-ms", "50"]) == 2
    assert "not both" in capsys.readouterr().err
    with pytest.raises(TypeError, match="not both"):
        distributed.selfplay(2, time=0.05, time_ms=50, **settings)
    with pytest.raises(ValueError, match="at least 0.001 seconds"):
        distributed.analyse([START_STRING], time=0, out=tmp_path / "a")
    with pytest.raises(TypeError, match="number of seconds, not str"):
        distributed.analyse([START_STRING], time="1", out=tmp_path / "a")
    distributed.analyse([START_STRING], time=0.02, out=tmp_path / "a")
    assert [r["limit_time_ms"] for r in pq.read_table(tmp_path / "a" / "analysis").to_pylist()] == [20]


# Last in the file on purpose: Ray 2.60's driver can abort seconds after a
# killed worker's task was retried ("Check failed: ... Tried to complete
# task that was not pending", task_manager.cc), which once took the whole
# pytest run with it during the next test; the module's cluster (and the
# driver state that can do so) is shut down right after this test.
def test_a_worker_killed_mid_run_leaves_every_game_once(tmp_path):
    # Long enough tasks (some seconds) that the one seen running is still
    # running when its worker is killed (with 1500 nodes, once the engine got
    # four times faster, it had often finished: no retry to see).
    settings = {**SETTINGS, "nodes": 6000, "move_limit": 60}
    outcome = {}

    def run():
        try:
            outcome["summary"] = distributed.selfplay(10, games_per_task=2, out=tmp_path, **settings)
        except Exception as e:  # reported by the assertion below
            outcome["error"] = e

    driver = threading.Thread(target=run)
    driver.start()
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and driver.is_alive() and time.monotonic() < deadline:
        running = list_tasks(filters=[("name", "=", "_selfplay_task"), ("state", "=", "RUNNING")])
        pids = [t.worker_pid for t in running if t.worker_pid]
        if pids:
            killed = pids[0]
            os.kill(killed, signal.SIGKILL)
        else:
            time.sleep(0.05)
    driver.join(120)
    assert killed is not None, "no task was seen running"
    assert "error" not in outcome, outcome
    rows = games_of(tmp_path)
    assert [row["game"] for row in rows] == list(range(10))
    assert len(list((tmp_path / "games").glob("*.parquet"))) == 5
    # Ray ran the killed worker's task again (its events arrive with a lag).
    for _ in range(50):
        attempts = [t.attempt_number for t in list_tasks(filters=[("name", "=", "_selfplay_task")], limit=10_000)]
        if max(attempts, default=0) > 0:
            break
        time.sleep(0.1)
    assert max(attempts, default=0) > 0, attempts
