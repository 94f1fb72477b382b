"""Proofs in parts from Python: ``phutball.frontier`` (the distinct unfinished
positions some plies below a root), against the moves played one ply at a
time, and ``phutball.combine_proofs`` (the frontier's certificates into one
checked proof of the root), against ``Position.prove``; missing and wrong
certificates, the bounds, Ctrl-C and bad arguments."""

import os
import sys
import textwrap
import threading
import time

import pytest

import phutball
from conftest import interrupted

TINY = phutball.Position.start(1, 3)
FIVE = phutball.Position.start(5, 5)
SEVEN = phutball.Position.start(7, 7)
START = phutball.Position()
FINISHED = "7/7/7/7/7/7/7/7/3@3 X"
# Small tables: the frontier's positions are easy, and a prover's tables
# of the default 256 MiB take longer to set up than most of their proofs.
SMALL = 8 << 20


def one_ply_below(positions):
    """The distinct unfinished positions one move below ``positions``, played one by one."""
    below = {}
    for pos in positions:
        for move in pos.legal_moves():
            after = pos.play(move)
            if not after.is_finished:
                below.setdefault(after, None)
    return list(below)


def proofs_of(frontier, nodes=None):
    """The certificates of the frontier's positions that ``Position.prove`` proves."""
    proofs = (p.prove(nodes=nodes, memory_limit=SMALL) for p in frontier)
    return [proof.certificate for proof in proofs if proof.certificate is not None]


@pytest.fixture(scope="module")
def five_proofs():
    return {plies: proofs_of(phutball.frontier(FIVE, plies)) for plies in (0, 1, 2)}


@pytest.mark.parametrize("root", [TINY, FIVE, SEVEN], ids=["1x3", "5x5", "7x7"])
def test_the_frontier_is_the_positions_played_one_ply_at_a_time(root):
    expected = [root]
    for plies in range(3):
        frontier = phutball.frontier(root, plies)
        assert all(isinstance(p, phutball.Position) for p in frontier)
        assert len(set(frontier)) == len(frontier), "a position is listed twice"
        assert set(frontier) == set(expected), plies
        expected = one_ply_below(expected)
    assert len(phutball.frontier(TINY, 1)) == 2
    assert len(phutball.frontier(FIVE, 1)) == 24


def test_the_frontier_keeps_the_rules_and_reads_position_strings():
    rules = phutball.Rules(continue_off_board=True)
    root = phutball.Position(str(FIVE), rules=rules)
    assert all(p.rules == rules for p in phutball.frontier(root, 2))
    assert phutball.frontier(str(FIVE), 1) == phutball.frontier(FIVE, 1)


@pytest.mark.parametrize("plies", [0, 1, 2])
def test_the_5x5_frontier_proofs_combine_into_the_roots_win(five_proofs, plies):
    proof = phutball.combine_proofs(FIVE, plies, five_proofs[plies])
    assert isinstance(proof, phutball.Proof)
    assert proof.result == FIVE.prove().result == "win"
    # 25 points, past the tablebases: the distance is the proof's bound.
    assert not proof.exact and str(proof).startswith(f"win within {proof.plies}: ")
    assert len(proof.line) == proof.plies and FIVE.is_legal(proof.line[0])
    checked = phutball.check_proof(proof.certificate)
    assert (checked.winner, checked.root, checked.plies) == ("O", FIVE, proof.plies)
    assert proof.nodes == 0 and proof.stopped is None
    if plies == 0:
        assert proof.certificate == five_proofs[0][0]
    else:
        # The frontier's certificates, appended under the top nodes.
        assert len(proof.certificate) > min(len(c) for c in five_proofs[plies])


def test_the_7x7_frontier_combines_with_small_proofs():
    # 1200 nodes a position: some positions stay unproved (42 of 48 are
    # proved since relevance zones; 1800 prove all), and the winner's line
    # does not need them.
    frontier = phutball.frontier(SEVEN, 1)
    certificates = proofs_of(frontier, nodes=1200)
    assert 0 < len(certificates) < len(frontier)
    proof = phutball.combine_proofs(SEVEN, 1, certificates)
    assert proof.result == SEVEN.prove().result == "win"
    assert phutball.check_proof(proof.certificate).root == SEVEN


def test_a_lost_root_combines_into_a_loss():
    lost = FIVE.play(FIVE.prove().line[0])
    proof = phutball.combine_proofs(lost, 1, proofs_of(phutball.frontier(lost, 1)))
    assert proof.result == lost.prove().result == "loss"
    assert str(proof).startswith("loss within ")
    checked = proof.check()
    assert (checked.winner, checked.root) == ("O", lost)


def test_missing_certificates_leave_the_root_unknown_unless_the_winner_avoids_them(five_proofs):
    proofs = five_proofs[1]
    none = phutball.combine_proofs(FIVE, 1, [])
    assert (none.result, none.certificate, none.line, str(none)) == ("unknown", None, [], "unknown")
    # Only the positions Eks loses (Ohs's winning moves) are needed.
    wins = [c for c in proofs if c.winner == "O"]
    assert 0 < len(wins) < len(proofs)
    assert phutball.combine_proofs(FIVE, 1, wins[:1]).result == "win"
    assert phutball.combine_proofs(FIVE, 1, [c for c in proofs if c.winner == "X"]).result == "unknown"
    # Certificates of positions not in the frontier are ignored.
    assert phutball.combine_proofs(FIVE, 1, [SEVEN.prove().certificate]).result == "unknown"
    # A certificate at any depth up to the plies is a leaf: the 1-ply
    # frontier's proofs settle the root at 2 plies too (a tree cut unevenly).
    uneven = phutball.combine_proofs(FIVE, 2, five_proofs[1])
    assert uneven.result == "win" and phutball.check_proof(uneven.certificate).root == FIVE


def test_a_wrong_certificate_is_a_certificate_error():
    best = FIVE.prove().line[0]
    certificate = FIVE.play(best).prove().certificate
    text = str(certificate)
    lines = text.splitlines(keepends=True)
    # The winner's first move marked as scoring: it does not.
    first = next(i for i, line in enumerate(lines) if line.startswith("move "))
    lines[first] = " ".join(lines[first].split()[:2]) + " goal\n"
    wrong = phutball.Certificate.parse("".join(lines))
    with pytest.raises(phutball.CertificateError, match="a certificate given is wrong"):
        phutball.combine_proofs(FIVE, 1, [wrong])


def test_a_finished_root_is_a_value_error():
    with pytest.raises(ValueError, match="game is over"):
        phutball.frontier(FINISHED, 1)
    with pytest.raises(ValueError, match="game is over"):
        phutball.combine_proofs(phutball.Position(FINISHED), 1, [])


def test_the_bounds():
    # The standard start two plies deep: 40194 positions, a few tenths of a second.
    with pytest.raises(phutball.SearchTimeoutError):
        phutball.frontier(START, 2, timeout=0)
    with pytest.raises(phutball.MemoryLimitError, match="frontier"):
        phutball.frontier(START, 2, memory_limit=256 * 1000)
    assert len(phutball.frontier(START, 2, memory_limit=None)) == 40194
    with pytest.raises(phutball.SearchTimeoutError):
        phutball.combine_proofs(START, 2, [], timeout=0)
    proofs = proofs_of(phutball.frontier(SEVEN, 1))
    with pytest.raises(phutball.SearchTimeoutError):
        phutball.combine_proofs(SEVEN, 1, proofs, timeout=1e-9)
    assert phutball.combine_proofs(SEVEN, 1, proofs, timeout=60).result == "win"


def test_the_gil_is_released_while_it_enumerates():
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.005)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        started = time.monotonic()
        for _ in range(3):
            phutball.frontier(START, 2, memory_limit=None)
        took = time.monotonic() - started
    finally:
        done.set()
        ticker.join()
    # With the GIL held, the ticker would stall for the whole enumeration.
    assert len(ticks) >= min(10, took / 0.02), (len(ticks), took)


CHILD = textwrap.dedent(
    """
    import sys, time
    import phutball
    print("ready", flush=True)
    try:
        # Three plies of the standard start: 11 million positions, more
        # than the default memory limit holds (after some seconds).
        phutball.frontier(phutball.Position(), 3)
    except KeyboardInterrupt:
        print("KeyboardInterrupt", time.monotonic(), flush=True)
        sys.exit(0)
    except phutball.MemoryLimitError:
        print("MemoryLimitError", time.monotonic(), flush=True)
        sys.exit(3)
    print("answered", flush=True)
    sys.exit(2)
    """
)


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child process")
def test_ctrl_c_stops_a_frontier_with_keyboard_interrupt():
    assert interrupted(CHILD, wait=0.5) < 2


def test_bad_arguments_are_clear_type_and_value_errors():
    certificate = TINY.prove().certificate
    with pytest.raises(TypeError, match="position must be a phutball.Position or a position string, not int"):
        phutball.frontier(42, 1)
    with pytest.raises(TypeError, match="root must be a phutball.Position or a position string, not NoneType"):
        phutball.combine_proofs(None, 1, [])
    with pytest.raises(phutball.ParseError):
        phutball.frontier("15/15 O", 1)
    for bad, error, message in [
        ("1", TypeError, "plies must be an int, not str"),
        (1.0, TypeError, "plies must be an int, not float"),
        (True, TypeError, "plies must be an int, not bool"),
        (-1, ValueError, "plies must be from 0 to 32, not -1"),
        (33, ValueError, "plies must be from 0 to 32, not 33"),
        (1 << 70, ValueError, "plies must be from 0 to 32"),
    ]:
        with pytest.raises(error, match=message):
            phutball.frontier(TINY, bad)
        with pytest.raises(error, match=message):
            phutball.combine_proofs(TINY, bad, [])
    for bad, message in [
        ("text", "certificates must be a sequence of phutball.Certificate, not str"),
        (certificate, "certificates must be a sequence of phutball.Certificate, not Certificate"),
        (7, "certificates must be a sequence of phutball.Certificate, not int"),
        ([certificate, None], r"certificates\[1\] must be a phutball.Certificate, not NoneType"),
        ([str(certificate)], r"certificates\[0\] must be a phutball.Certificate, not str"),
    ]:
        with pytest.raises(TypeError, match=message):
            phutball.combine_proofs(TINY, 1, bad)
    # Any iterable of certificates will do.
    assert phutball.combine_proofs(TINY, 0, (c for c in [certificate])).result == "win"
    with pytest.raises(TypeError, match="timeout"):
        phutball.frontier(TINY, 1, timeout="1")
    with pytest.raises(ValueError, match="timeout"):
        phutball.combine_proofs(TINY, 1, [], timeout=-1)
    with pytest.raises(ValueError, match="memory_limit"):
        phutball.frontier(TINY, 1, memory_limit=-1)
    with pytest.raises(TypeError):
        phutball.frontier(TINY, 1, 5)  # the limits are keyword-only
    with pytest.raises(TypeError):
        phutball.combine_proofs(TINY, 1, [], 5)
