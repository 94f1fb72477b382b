"""phutball.distributed.prove on a real local Ray cluster (the fixture of
test_distributed.py: two CPUs, started once for the module): the frontier's
proofs combined into one certificate that check_proof and the CLI's
check-proof accept, agreeing with Position.prove; a worker killed mid-run;
limits, timeouts and bad arguments; the command. Ray is installed by
tests/python/run.sh: if it is missing these tests fail, they do not skip."""

import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest
import ray
from ray.util.state import list_tasks

import phutball
from phutball import distributed
from phutball.distributed import _prove
from phutball.distributed import __main__ as prove_command_module
from phutball.distributed.__main__ import main as command

from test_distributed import cluster  # noqa: F401 - the module's local Ray cluster

FIVE = phutball.Position.start(5, 5)
SEVEN = phutball.Position.start(7, 7)
# Small tables: the frontier's positions are easy, and a prover's tables
# of the default 256 MiB take longer to set up than most of their proofs.
SMALL = 8 << 20
# Per frontier position: enough for the positions the winner's line needs;
# the hard ones (after a poor first move, the loser's wins) stay unknown.
LIMITS = {"nodes": 2000, "memory_limit": SMALL}
# 4x11, nine plies into the start's proof, Eks to move: lost. Its 42
# frontier positions one ply down are all needed (a loss is proved against
# every move), two of them take about 1 and 3 s, the others milliseconds.
LOST = "1#2/4/1#2/4/1#2/4/2#1/2@1/1#2/4/4 X"


def assert_checks(proof, root, result):
    """``proof`` is ``result`` for the side to move of ``root``, and its certificate proves it."""
    assert isinstance(proof, phutball.Proof)
    assert proof.result == result, repr(proof)
    # `in N` when N is exact (a win in 1), else `within N`, the proof's bound.
    said = "in" if proof.exact else "within"
    assert re.fullmatch(rf"{result} {said} {proof.plies}: \S+( \S+)*", str(proof)), str(proof)
    assert len(proof.line) == proof.plies and root.is_legal(proof.line[0])
    checked = phutball.check_proof(proof.certificate)
    winner = root.to_move if result == "win" else ("X" if root.to_move == "O" else "O")
    assert (checked.root, checked.winner, checked.plies) == (root, winner, proof.plies)


def test_bad_input_is_an_error_before_any_task():
    for kwargs, error, message in [
        ({"frontier_plies": -1}, ValueError, "frontier_plies"),
        ({"frontier_plies": "1"}, TypeError, "frontier_plies"),
        ({"frontier_plies": 33}, ValueError, "plies must be from 0 to 32"),
        ({"timeout": -1}, ValueError, "timeout"),
        ({"task_timeout": "1"}, TypeError, "task_timeout"),
        ({"nodes": -1}, ValueError, "nodes"),
        ({"nodes": 1.5}, TypeError, "nodes"),
        ({"memory_limit": -1}, ValueError, "memory_limit"),
    ]:
        with pytest.raises(error, match=message):
            distributed.prove(FIVE, **kwargs)
    with pytest.raises(ValueError, match="game is over"):
        distributed.prove("7/7/7/7/7/7/7/7/3@3 X")
    with pytest.raises(phutball.ParseError):
        distributed.prove("not a position")
    # The module's cluster, untouched: no task was ever submitted (this test runs first).
    assert ray.is_initialized()
    time.sleep(0.3)  # task events arrive every 100 ms
    assert list_tasks(filters=[("name", "=", "_prove_task")]) == []


@pytest.mark.parametrize("plies", [1, 2])
@pytest.mark.parametrize("root", [FIVE, SEVEN], ids=["5x5", "7x7"])
def test_the_start_is_proved_in_parts_as_position_prove_proves_it(root, plies):
    limits = LIMITS if plies == 1 else {**LIMITS, "nodes": 100}
    proof, figures = _prove(
        root, frontier_plies=plies, timeout=120, task_timeout=None, address=None, progress=False, **limits
    )
    assert_checks(proof, root, root.prove().result)
    assert proof.result == "win"
    assert figures.frontier == len(phutball.frontier(root, plies))
    assert figures.proved + figures.unknown + figures.cancelled == figures.frontier
    assert figures.proved > 0 and figures.nodes > 0
    if plies == 1:
        # The public call answers the same.
        again = distributed.prove(root, frontier_plies=plies, timeout=120, **limits)
        assert again.result == "win" and phutball.check_proof(again.certificate).root == root


def test_a_lost_root_is_proved_a_loss_from_every_position_below_it():
    lost = SEVEN.play(SEVEN.prove().line[0])
    proof, figures = _prove(
        lost, frontier_plies=1, timeout=120, task_timeout=None, nodes=None, memory_limit=SMALL, address=None, progress=False
    )
    assert_checks(proof, lost, lost.prove().result)
    assert proof.result == "loss"
    # A loss needs every move refuted: no task is cancelled.
    assert figures.cancelled == 0 and figures.proved == figures.frontier


def test_an_empty_frontier_and_a_frontier_of_the_root_itself():
    # 1x3 full of men, Ohs to move: A2-A4 scores, A2-A0 is an own goal;
    # no move leaves the game going.
    full = phutball.Position("#/@/# O")
    assert phutball.frontier(full, 1) == []
    proof = distributed.prove(full, frontier_plies=1)
    assert_checks(proof, full, "win")
    assert str(proof) == "win in 1: A2-A4"
    assert_checks(distributed.prove(FIVE, frontier_plies=0, **LIMITS), FIVE, "win")


def test_limits_that_run_out_leave_the_root_unknown():
    # One node a position: nothing below the root is proved.
    proof, figures = _prove(
        SEVEN, frontier_plies=1, timeout=120, task_timeout=None, nodes=1, memory_limit=SMALL, address=None, progress=False
    )
    assert (proof.result, proof.certificate, str(proof)) == ("unknown", None, "unknown")
    assert figures.unknown == figures.frontier == 48 and figures.proved == 0
    assert distributed.prove(SEVEN, frontier_plies=1, task_timeout=0, memory_limit=SMALL).result == "unknown"


def test_a_run_out_of_time_raises_and_cancels_its_tasks():
    # The standard start one ply deep: 284 positions none of which is
    # proved in seconds.
    started = time.monotonic()
    with pytest.raises(phutball.SearchTimeoutError, match="of 284 frontier positions answered"):
        distributed.prove(phutball.Position(), frontier_plies=1, timeout=1.5, task_timeout=60)
    assert time.monotonic() - started < 30
    with pytest.raises(phutball.SearchTimeoutError):
        distributed.prove(phutball.Position(), frontier_plies=2, timeout=0)
    # Nothing is left running (the cancelled tasks' events arrive with a lag).
    for _ in range(100):
        running = list_tasks(filters=[("name", "=", "_prove_task"), ("state", "=", "RUNNING")])
        if not running:
            break
        time.sleep(0.1)
    assert not running, running


def test_the_command_prints_the_result_line_and_writes_the_certificate(tmp_path, capsys):
    path = tmp_path / "seven.txt.gz"
    assert command(["prove", "start:7x7", "--frontier-plies", "2", "--nodes", "100", "--memory-limit", "8M", "--certificate", str(path), "--no-progress"]) == 0
    out, err = capsys.readouterr()
    line = out.strip()
    match = re.fullmatch(r"win within (\d+): (\S+( \S+)*)", line)
    assert match, line
    assert "frontier 1136 positions:" in err and f"certificate: {path}" in err
    checked = phutball.check_proof(path)
    assert (checked.root, checked.winner, checked.plies) == (SEVEN, "O", int(match.group(1)))
    # The line is legal from the root, as the command's `phutball prove` prints its own.
    game = phutball.Game(SEVEN)
    for move in match.group(2).split():
        game.push(move)
    assert game.winner == "O"
    assert command(["prove", "start:7x7", "--nodes", "1", "--memory-limit", "8M", "--no-progress"]) == 0
    assert capsys.readouterr().out == "unknown\n"
    assert command(["prove", "start:7x7", "--timeout", "0", "--no-progress"]) == 2
    assert command(["prove", "start:7", "--no-progress"]) == 2
    assert command(["prove", "7/7/7/7/7/7/7/7/3@3 X", "--no-progress"]) == 2
    assert "game is over" in capsys.readouterr().err


@pytest.mark.skipif(not os.environ.get("PHUTBALL_CLI"), reason="PHUTBALL_CLI is not set (run tests/python/run.sh)")
def test_the_clis_check_proof_accepts_a_saved_distributed_proof(tmp_path):
    proof = distributed.prove(SEVEN, frontier_plies=2, timeout=120, nodes=100, memory_limit=SMALL)
    path = tmp_path / "seven.txt"
    proof.save(path)
    cli = os.environ["PHUTBALL_CLI"]
    checked = subprocess.run([cli, "check-proof", str(path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.strip() == f"valid: O wins in at most {proof.plies} plies from {SEVEN} ({len(proof.certificate)} nodes)"
    # The same line as `phutball prove` prints for its own proof.
    direct = subprocess.run([cli, "prove", "start:7x7"], capture_output=True, text=True, check=True).stdout.strip()
    assert re.fullmatch(r"win within \d+: \S+( \S+)*", direct) and re.fullmatch(r"win within \d+: \S+( \S+)*", str(proof))
    # A damaged copy fails.
    text = path.read_text()
    reply = next(line for line in text.splitlines(keepends=True) if line.startswith("reply "))
    (tmp_path / "bad.txt").write_text(text.replace(reply, "", 1))
    assert subprocess.run([cli, "check-proof", str(tmp_path / "bad.txt")], capture_output=True).returncode == 1


# Last in the file on purpose: Ray 2.60's driver can abort seconds after a
# killed worker's task was retried ("Check failed: ... Tried to complete
# task that was not pending", task_manager.cc), which once took the whole
# pytest run with it during the next test; the module's cluster (and the
# driver state that can do so) is shut down right after this test.
def test_a_worker_killed_mid_run_leaves_the_proof_proved_and_checked():
    root = phutball.Position(LOST)
    outcome = {}

    def run():
        try:
            outcome["proof"] = distributed.prove(root, frontier_plies=1, timeout=300)
        except Exception as e:  # reported by the assertion below
            outcome["error"] = e

    driver = threading.Thread(target=run)
    driver.start()
    killed = None
    seen = set()
    deadline = time.monotonic() + 60
    while killed is None and driver.is_alive() and time.monotonic() < deadline:
        running = list_tasks(filters=[("name", "=", "_prove_task"), ("state", "=", "RUNNING")])
        # A task seen running at two polls is one of the long ones: its
        # worker is still on it when killed.
        pids = [t.worker_pid for t in running if t.worker_pid and t.task_id in seen]
        seen = {t.task_id for t in running}
        if pids:
            killed = pids[0]
            os.kill(killed, signal.SIGKILL)
        else:
            time.sleep(0.05)
    driver.join(300)
    assert killed is not None, "no task was seen running"
    assert "error" not in outcome, outcome
    assert_checks(outcome["proof"], root, "loss")
    # Ray ran the killed worker's task again (its events arrive with a lag).
    for _ in range(50):
        attempts = [t.attempt_number for t in list_tasks(filters=[("name", "=", "_prove_task")], limit=10_000)]
        if max(attempts, default=0) > 0:
            break
        time.sleep(0.1)
    assert max(attempts, default=0) > 0, attempts


# The limits kept on every path (issue 39, F4).


def test_an_unreachable_address_ends_at_the_timeout_saying_why():
    # Ray's connect to it retries for minutes and answers no signal; the
    # command gives up at --timeout. A process of its own: the module's
    # cluster is up here, and the connect needs Ray not initialised.
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "phutball.distributed", "prove", "start:7x7", "--frontier-plies", "1", "--address", "bogus:1234", "--timeout", "10", "--no-progress"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    took = time.monotonic() - started
    assert done.returncode == 2, done.stderr
    assert "error: timed out after 10.0 s" in done.stderr and "bogus:1234 did not answer" in done.stderr
    assert "Traceback" not in done.stderr
    # Ended by the timeout, not by Ray's minutes of retries: the margin is
    # the interpreter's start and Ray's import, 2.7 s on a loaded machine.
    assert 10 <= took < 20, took


def test_a_huge_frontier_keeps_the_timeout():
    # 194,384 positions two plies below the 25x25 start: handed to Ray a
    # few a CPU at a time, so the deadline is kept (it took 44 s and 1.6 GB).
    started = time.monotonic()
    with pytest.raises(phutball.SearchTimeoutError, match="of 194384 frontier positions answered"):
        distributed.prove(phutball.Position.start(25, 25), frontier_plies=2, task_timeout=1, timeout=5)
    assert time.monotonic() - started < 7


def test_an_unwritable_certificate_is_refused_before_any_work(tmp_path, monkeypatch, capsys):
    def no_work(*args, **kwargs):
        raise AssertionError("the proof started")

    monkeypatch.setattr(prove_command_module, "_prove", no_work)
    missing = tmp_path / "no" / "such" / "dir" / "c.txt"
    assert command(["prove", "start:5x5", "--certificate", str(missing), "--no-progress"]) == 2
    assert capsys.readouterr().err.startswith(f"error: cannot write {missing}:")
    assert not missing.parent.exists()


def test_library_errors_are_an_error_line_and_status_2(capsys):
    # MemoryLimitError (a RuntimeError and a MemoryError, not a ValueError):
    # the frontier of 25x25 two plies deep in 1 MiB.
    assert command(["prove", "start:25x25", "--frontier-plies", "2", "--memory-limit", "1M", "--no-progress"]) == 2
    assert capsys.readouterr().err == "error: memory limit of 1048576 bytes reached (the frontier)\n"
    # InvalidPositionError (a ValueError).
    assert command(["prove", "start:26x26", "--no-progress"]) == 2
    assert capsys.readouterr().err == "error: board size 26x26 is not supported (columns 1-25, rows 3-25)\n"


def test_a_bad_memory_limit_is_a_usage_error_before_any_work(monkeypatch, capsys):
    # The size is read by the extension (the core's notation, as the CLI's
    # --memory-limit and memory_limit="8M" read it): argparse's error line
    # with the core's words, status 2, and no proof started.
    def no_work(*args, **kwargs):
        raise AssertionError("the proof started")

    monkeypatch.setattr(prove_command_module, "_prove", no_work)
    for bad, says in (("12Q", "unknown unit `Q` in `12Q`"), ("0", "the memory limit must be at least 1 byte"), ("-1M", "`-1M` is not a size: a memory limit cannot be negative")):
        with pytest.raises(SystemExit) as exit:
            command(["prove", "start:5x5", f"--memory-limit={bad}", "--no-progress"])
        assert exit.value.code == 2
        assert f"error: argument --memory-limit: {says}" in capsys.readouterr().err
    assert prove_command_module._parser().parse_args(["prove", "start:5x5", "--memory-limit", "8M"]).memory_limit == 8 << 20
