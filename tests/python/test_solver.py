"""The solver from Python: ``Position.prove`` (wins and losses with their
certificates, unknown results when a limit runs out, Ctrl-C), ``Proof``,
``Certificate`` (parse, load and save, plain and gzip), ``check_proof`` and
``CertificateError`` for certificates that do not prove what they claim."""

import gzip
import os
import pickle
import sys
import textwrap
import time

import pytest

import phutball
from conftest import interrupted

# 1x3: Ohs places a man on A3 and scores with A2-A4 whatever Eks does.
TINY = phutball.Position.start(1, 3)
# 1x3, a man on A3, Eks to move: placing on A1 lets A2-A4 score, and
# A2-A4 itself is an own goal: Eks loses in two.
LOST = "#/@/1 X"
START = "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O"


@pytest.fixture(scope="module")
def nine() -> phutball.Proof:
    # The 9x9 start: proved in about 0.2 s (release build).
    return phutball.Position.start(9, 9).prove(timeout=120)


# ---- proving ----


def test_the_1x3_start_is_a_win_in_3():
    assert TINY == phutball.Position("1/@/1 O")
    proof = TINY.prove()
    assert isinstance(proof, phutball.Proof)
    assert (proof.result, proof.plies) == ("win", 3)
    assert [str(m) for m in proof.line] == ["A3", "A1", "A2-A4"]
    assert all(isinstance(m, phutball.Move) for m in proof.line)
    # 3 points: the tablebase's distance, exact.
    assert proof.exact and str(proof) == "win in 3: A3 A1 A2-A4"
    assert repr(proof).startswith("Proof(result='win', plies=3, exact=True, line=[A3 A1 A2-A4], nodes=")
    assert proof.stopped is None and not proof.exhausted
    assert isinstance(proof.nodes, int) and isinstance(proof.table_entries, int)
    certificate = proof.certificate
    assert isinstance(certificate, phutball.Certificate)
    assert certificate.winner == "O"
    assert certificate.root == TINY
    assert len(certificate) >= 1
    checked = proof.check()
    assert isinstance(checked, phutball.CheckedProof)
    assert (checked.winner, checked.plies, checked.nodes) == ("O", 3, len(certificate))
    assert checked.root == TINY
    assert str(checked) == f"O wins in at most 3 plies from 1/@/1 O ({len(certificate)} nodes)"
    assert "CheckedProof(winner='O', plies=3" in repr(checked)


def test_a_lost_position_is_proved_a_loss_for_the_side_to_move():
    proof = phutball.Position(LOST).prove()
    assert (proof.result, proof.plies) == ("loss", 2)
    assert str(proof).startswith("loss in 2: ")
    assert proof.line[-1] == phutball.Move("A2-A4")
    # The certificate proves the opponent's win.
    assert proof.certificate is not None and proof.certificate.winner == "O"
    checked = proof.check()
    assert (checked.winner, checked.plies) == ("O", 2)
    assert checked.root == phutball.Position(LOST)


def test_the_9x9_start_proves(nine):
    assert nine.result in ("win", "loss"), repr(nine)
    assert nine.plies is not None and nine.plies == len(nine.line)
    assert nine.certificate is not None and len(nine.certificate) > 100
    assert nine.nodes > 0
    checked = nine.certificate.check(timeout=120)
    winner = "O" if nine.result == "win" else "X"
    assert (checked.winner, checked.plies) == (winner, nine.plies)
    assert checked.root == phutball.Position.start(9, 9)
    # The line is legal from the start.
    pos = phutball.Position.start(9, 9)
    for m in nine.line:
        pos = pos.play(m)
    assert pos.winner == winner


def test_a_finished_position_is_a_value_error():
    finished = phutball.Position("@/1/1 X")
    assert finished.is_finished
    with pytest.raises(ValueError, match="nothing to prove"):
        finished.prove()


def test_proofs_and_certificates_are_immutable():
    proof = TINY.prove()
    with pytest.raises(AttributeError):
        proof.result = "loss"  # type: ignore[misc]
    assert proof.certificate is not None
    with pytest.raises(AttributeError):
        proof.certificate.winner = "X"  # type: ignore[misc]


# ---- limits ----


def test_a_timeout_gives_an_unknown_result_not_an_exception():
    started = time.perf_counter()
    proof = phutball.Position(START).prove(timeout=0.2)
    assert time.perf_counter() - started < 3
    assert proof.result == "unknown"
    assert proof.plies is None and proof.line == [] and proof.certificate is None
    assert proof.stopped == "timed out"
    assert str(proof) == "unknown"
    assert "stopped='timed out'" in repr(proof)
    with pytest.raises(ValueError, match="no certificate"):
        proof.check()
    # A zero timeout has passed before any work.
    assert phutball.Position(START).prove(timeout=0).result == "unknown"


def test_a_node_limit_gives_an_unknown_result(tmp_path):
    proof = phutball.Position(START).prove(nodes=100)
    assert proof.result == "unknown"
    assert proof.stopped is not None and "work limit" in proof.stopped
    assert proof.nodes <= 100
    with pytest.raises(ValueError, match="no certificate"):
        proof.save(tmp_path / "none.txt")
    assert not (tmp_path / "none.txt").exists()
    # Enough nodes for the tiny board.
    assert TINY.prove(nodes=10_000, memory_limit=None).result == "win"


def test_a_memory_limit_too_small_for_the_certificate_gives_an_unknown_result():
    # 256 KiB: the 9x9 start's certificate (473 nodes since relevance
    # zones) needs more than the half it gets.
    proof = phutball.Position.start(9, 9).prove(memory_limit=1 << 18, timeout=60)
    assert proof.result == "unknown" and proof.certificate is None
    # The limit as given (the certificate gets half of it).
    assert proof.stopped is not None and "memory limit of 262144 bytes" in proof.stopped
    # The repr quotes the reason as Python would (it holds an apostrophe).
    assert f"stopped={proof.stopped!r}" in repr(proof)


@pytest.mark.parametrize(
    "kwargs",
    [{"timeout": "1"}, {"timeout": True}, {"nodes": "5"}, {"nodes": 1.5}, {"memory_limit": 1.5}, {"memory_limit": b"1G"}],
)
def test_arguments_of_the_wrong_type_are_type_errors(kwargs):
    with pytest.raises(TypeError):
        TINY.prove(**kwargs)


def test_bad_argument_values_are_value_errors_and_the_limits_are_keyword_only():
    with pytest.raises(ValueError, match="nodes must be None or an int of at least 0"):
        TINY.prove(nodes=-1)
    with pytest.raises(ValueError, match="timeout"):
        TINY.prove(timeout=-1)
    with pytest.raises(TypeError):
        TINY.prove(1)  # type: ignore[misc]
    with pytest.raises(TypeError):
        phutball.Certificate.parse(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        phutball.Certificate.load(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="path_or_certificate must be"):
        phutball.check_proof(5)  # type: ignore[arg-type]
    certificate = TINY.prove().certificate
    assert certificate is not None
    with pytest.raises(TypeError):
        certificate.check(timeout="soon")  # type: ignore[arg-type]


def test_a_check_with_a_zero_timeout_raises_search_timeout_error(nine):
    assert nine.certificate is not None
    with pytest.raises(phutball.SearchTimeoutError):
        nine.certificate.check(timeout=0)


# ---- files ----


@pytest.mark.parametrize("name", ["proof.txt", "proof.txt.gz"])
def test_save_and_load_round_trip(tmp_path, nine, name):
    path = tmp_path / name
    nine.save(path)
    data = path.read_bytes()
    assert data.startswith(b"\x1f\x8b") == name.endswith(".gz")
    text = gzip.decompress(data).decode() if name.endswith(".gz") else data.decode()
    assert text == str(nine.certificate)
    # Format version 2: the 9x9 start's proof answers placements with pass lines.
    assert text.startswith("phutball-proof 2\n") and "\npass " in text
    # Atomic: the temporary file is gone.
    assert os.listdir(tmp_path) == [name]
    loaded = phutball.Certificate.load(path)
    assert loaded == nine.certificate
    assert phutball.Certificate.load(str(path)) == loaded
    checked = phutball.check_proof(path)
    assert checked.plies == nine.plies and checked.nodes == len(loaded)
    assert phutball.check_proof(str(path)).root == phutball.Position.start(9, 9)
    assert phutball.check_proof(loaded).winner == checked.winner


def test_the_load_detects_gzip_by_its_magic_bytes_not_its_name(tmp_path):
    certificate = TINY.prove().certificate
    assert certificate is not None
    (tmp_path / "plain.gz").write_text(str(certificate))
    (tmp_path / "packed.txt").write_bytes(gzip.compress(str(certificate).encode()))
    assert phutball.Certificate.load(tmp_path / "plain.gz") == certificate
    assert phutball.Certificate.load(tmp_path / "packed.txt") == certificate


def test_certificate_save_overwrites_and_unreadable_files_are_os_errors(tmp_path):
    certificate = TINY.prove().certificate
    assert certificate is not None
    path = tmp_path / "c.txt"
    path.write_text("old")
    certificate.save(path)
    assert path.read_text() == str(certificate)
    with pytest.raises(FileNotFoundError):
        phutball.Certificate.load(tmp_path / "missing.txt")
    with pytest.raises(FileNotFoundError):
        certificate.save(tmp_path / "no-such-dir" / "c.txt")
    (tmp_path / "junk.txt").write_bytes(b"\xff\xfe not text")
    with pytest.raises(phutball.ParseError, match="not UTF-8"):
        phutball.Certificate.load(tmp_path / "junk.txt")


def test_the_text_form_parses_back_and_pickles():
    certificate = TINY.prove().certificate
    assert certificate is not None
    again = phutball.Certificate.parse(str(certificate))
    assert again == certificate and again is not certificate
    assert pickle.loads(pickle.dumps(certificate)) == certificate
    assert repr(certificate) == f"<Certificate: O wins, {len(certificate)} nodes, root '1/@/1 O'>"
    with pytest.raises(phutball.ParseError, match="line 1"):
        phutball.Certificate.parse("not a proof")
    with pytest.raises(ValueError, match="missing the `end` line"):
        phutball.Certificate.parse(str(certificate).replace("end\n", ""))


# ---- invalid certificates ----


def test_certificate_error_is_a_value_error():
    assert issubclass(phutball.CertificateError, ValueError)
    assert phutball.CertificateError.__module__ == "phutball"


def test_a_dropped_reply_is_a_certificate_error(nine):
    text = str(nine.certificate)
    lines = text.splitlines(keepends=True)
    reply = next(i for i, line in enumerate(lines) if line.startswith("reply "))
    mutated = phutball.Certificate.parse("".join(lines[:reply] + lines[reply + 1 :]))
    with pytest.raises(phutball.CertificateError, match="is not covered") as caught:
        mutated.check()
    assert "node " in str(caught.value)
    with pytest.raises(phutball.CertificateError):
        phutball.check_proof(mutated)


def test_another_legal_move_of_the_winner_is_a_certificate_error(nine):
    text = str(nine.certificate)
    lines = text.splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.startswith("move "))
    played = phutball.Move(lines[first].split()[1])
    root = phutball.Position.start(9, 9)
    other = next(m for m in root.legal_moves() if m != played)
    target = lines[first].split()[2]
    lines[first] = f"move {other} {target}\n"
    mutated = phutball.Certificate.parse("".join(lines))
    assert root.is_legal(other)
    with pytest.raises(phutball.CertificateError, match="node 0"):
        mutated.check()


def test_an_illegal_move_and_a_false_goal_are_certificate_errors():
    certificate = TINY.prove().certificate
    assert certificate is not None
    text = str(certificate)
    root_move = next(line for line in text.splitlines() if line.startswith("move "))
    _, placed, target = root_move.split()
    # A2 holds the ball: no man goes there.
    with pytest.raises(phutball.CertificateError, match="not legal"):
        phutball.Certificate.parse(text.replace(root_move, f"move A2 {target}")).check()
    # A placement scores nothing.
    with pytest.raises(phutball.CertificateError, match="marked `goal`"):
        phutball.Certificate.parse(text.replace(root_move, f"move {placed} goal")).check()


def test_a_saved_mutated_certificate_fails_check_proof(tmp_path, nine):
    text = str(nine.certificate)
    reply = next(line for line in text.splitlines(keepends=True) if line.startswith("reply "))
    path = tmp_path / "bad.txt.gz"
    path.write_bytes(gzip.compress(text.replace(reply, "", 1).encode()))
    with pytest.raises(phutball.CertificateError):
        phutball.check_proof(path)


# ---- Ctrl-C ----

CHILD = textwrap.dedent(
    """
    import sys, time
    import phutball
    print("ready", flush=True)
    try:
        answer = phutball.Position({start!r}).prove()
    except KeyboardInterrupt:
        print("KeyboardInterrupt", time.monotonic(), flush=True)
        sys.exit(0)
    print("answered", repr(answer), flush=True)
    sys.exit(2)
    """
)


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child process")
def test_ctrl_c_stops_a_proof_with_keyboard_interrupt():
    assert interrupted(CHILD.format(start=START)) < 2


# ---- jobs and checkpoints ----

THREE_BY_FIFTEEN = phutball.Position.start(3, 15)


def test_jobs_prove_the_same_winner_with_a_checked_certificate():
    for jobs in (1, 2, 4):
        proof = phutball.Position.start(3, 13).prove(jobs=jobs, timeout=120)
        assert proof.result == "win", (jobs, proof)
        assert proof.certificate is not None
        assert proof.certificate.check().winner == "O"
    # The solver's range, in its words.
    for bad in (0, 1025):
        with pytest.raises(ValueError, match=rf"jobs={bad}: a prove takes 1 to 1024 jobs, not {bad}"):
            THREE_BY_FIFTEEN.prove(jobs=bad)


def test_a_checkpoint_saves_the_search_and_the_same_call_goes_on(tmp_path):
    path = tmp_path / "3x15.ckpt"
    first = THREE_BY_FIFTEEN.prove(nodes=20_000, checkpoint=path, jobs=2)
    assert first.result == "unknown" and "20000" in (first.stopped or "")
    saved = path.read_bytes()
    assert saved[:8] == b"phbckpt\n"
    second = THREE_BY_FIFTEEN.prove(nodes=20_000, checkpoint=str(path), jobs=1)
    assert second.nodes > first.nodes, (first.nodes, second.nodes)
    # A damaged file is refused and left as it was.
    damaged = bytearray(path.read_bytes())
    damaged[len(damaged) // 2] ^= 0x10
    path.write_bytes(bytes(damaged))
    with pytest.raises(ValueError, match="is refused, and left as it is"):
        THREE_BY_FIFTEEN.prove(nodes=10, checkpoint=path)
    assert path.read_bytes() == bytes(damaged)
    # Another position's file: refused, named.
    path.write_bytes(saved)
    with pytest.raises(ValueError, match="the checkpoint is for `3/3/3"):
        phutball.Position.start(3, 13).prove(nodes=10, checkpoint=path)
    assert path.read_bytes() == saved


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"jobs": 0}, ValueError),
        ({"jobs": 5000}, ValueError),
        ({"jobs": "2"}, TypeError),
        ({"checkpoint_every": 0}, ValueError),
        ({"checkpoint_every": float("nan")}, ValueError),
        ({"checkpoint_every": "60"}, TypeError),
        ({"checkpoint": 5}, TypeError),
    ],
)
def test_bad_jobs_and_checkpoint_arguments_are_refused(kwargs, error):
    with pytest.raises(error):
        THREE_BY_FIFTEEN.prove(nodes=10, **kwargs)


def test_an_unwritable_checkpoint_is_refused_before_the_search(tmp_path):
    with pytest.raises(ValueError, match="cannot write"):
        THREE_BY_FIFTEEN.prove(checkpoint=tmp_path / "missing" / "p.ckpt")


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child process")
def test_ctrl_c_saves_the_checkpoint_before_keyboard_interrupt(tmp_path):
    path = tmp_path / "start.ckpt"
    code = CHILD.format(start=START).replace(".prove()", f".prove(checkpoint={str(path)!r})")
    assert interrupted(code) < 2
    assert path.read_bytes()[:8] == b"phbckpt\n"
    resumed = phutball.Position(START).prove(checkpoint=path, nodes=100)
    assert resumed.result == "unknown" and resumed.nodes > 100


def test_a_stopped_proof_reports_its_root_proof_numbers():
    stopped = phutball.Position.start(9, 11).prove(nodes=20_000)
    assert stopped.result == "unknown" and stopped.numbers is not None
    win, loss = stopped.numbers
    assert 1 <= win < loss  # a first-player win looks nearer than a loss
    assert TINY.prove().numbers is None
