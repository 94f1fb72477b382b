"""Tablebases from Python: ``Tablebase.build`` (values that agree with the
prover's proofs, limits, Ctrl-C), ``probe``/``best_move``/``line``,
``stats``, and the file format through ``save``/``load`` and
``to_bytes``/``from_bytes`` (``TablebaseFileError`` for damaged bytes)."""

import os
import textwrap

import pytest

import phutball
from conftest import interrupted


@pytest.fixture(scope="module")
def tiny() -> phutball.Tablebase:
    return phutball.Tablebase.build(1, 3)


@pytest.fixture(scope="module")
def small() -> phutball.Tablebase:
    # 3x5: 147,456 states, a few hundredths of a second.
    return phutball.Tablebase.build(3, 5)


def test_the_1x3_start_is_a_win_in_3(tiny):
    start = phutball.Position.start(1, 3)
    value = tiny.probe(start)
    assert isinstance(value, phutball.Value)
    assert (value.result, value.plies) == ("win", 3)
    assert str(value) == "win in 3" and repr(value) == "<Value: win in 3>"
    assert tiny.start_value == value
    assert tiny.best_move(start) == phutball.Move("A3")
    assert [str(m) for m in tiny.line(start, 10)] == ["A3", "A1", "A2-A4"]
    assert tiny.line(start, 1) == [phutball.Move("A3")]
    assert (tiny.cols, tiny.rows, tiny.continue_off_board, tiny.states) == (1, 3, False, 4)
    assert repr(tiny) == "<Tablebase 1x3: 4 states, the start is a win in 3>"


def test_probe_agrees_with_the_prover(tiny, small):
    start = phutball.Position.start(3, 5)
    proof = start.prove(timeout=60)
    value = small.probe(start)
    assert value is not None and proof.result == value.result
    assert proof.plies == value.plies
    # A loss: the tablebase's longest resistance is the prover's.
    lost = phutball.Position("#/@/1 X")
    loss = tiny.probe(lost)
    assert loss is not None and (loss.result, loss.plies) == ("loss", 2)
    assert (lost.prove().result, lost.prove().plies) == ("loss", 2)


def test_prove_with_a_tablebase_is_exact(small, tiny):
    start = phutball.Position.start(3, 5)
    proof = start.prove(tablebase=small)
    value = small.probe(start)
    assert value is not None and (proof.result, proof.plies) == (value.result, value.plies)
    assert proof.certificate is not None
    assert proof.check().plies == value.plies
    # A table that does not cover the position: the search alone answers.
    assert phutball.Position.start(9, 9).prove(tablebase=tiny, timeout=60).result in ("win", "loss")
    with pytest.raises(TypeError):
        start.prove(tablebase="3x5.tb")  # type: ignore[arg-type]


def test_values_are_hashable_and_compare(tiny):
    start = phutball.Position.start(1, 3)
    a, b = tiny.probe(start), tiny.probe(start)
    assert a == b and hash(a) == hash(b)
    assert a != tiny.probe(phutball.Position("#/@/1 X"))
    finished = tiny.probe(phutball.Position("@/1/1 X"))
    assert finished is not None and (finished.result, finished.plies) == ("loss", 0)


def test_a_position_the_table_does_not_cover_gives_none(tiny):
    other = phutball.Position()
    assert not tiny.covers(other)
    assert tiny.probe(other) is None and tiny.best_move(other) is None
    assert tiny.line(other, 5) == []
    ruled = phutball.Position.start(1, 3, rules=phutball.Rules(continue_off_board=True))
    assert not tiny.covers(ruled) and tiny.probe(ruled) is None
    assert tiny.best_move(phutball.Position("@/1/1 X")) is None


def test_stats_count_every_position(small):
    stats = small.stats()
    assert list(stats) == ["positions", "wins", "losses", "draws", "longest_win", "longest_loss"]
    assert stats["positions"] == 2 * small.states == 2 * 3 * 3 * 2 ** 14
    assert stats["wins"] + stats["losses"] + stats["draws"] == stats["positions"]
    assert stats["longest_win"] > 0


def test_the_continue_off_board_rule_has_its_own_table():
    table = phutball.Tablebase.build(1, 3, continue_off_board=True)
    assert table.continue_off_board
    ruled = phutball.Position.start(1, 3, rules=phutball.Rules(continue_off_board=True))
    assert table.covers(ruled) and table.probe(ruled) is not None
    assert not table.covers(phutball.Position.start(1, 3))
    assert "continue-off-board" in repr(table)


def test_jobs_do_not_change_the_values():
    one = phutball.Tablebase.build(3, 4, jobs=1)
    two = phutball.Tablebase.build(3, 4, jobs=2)
    assert one.to_bytes() == two.to_bytes()
    with pytest.raises(ValueError, match="jobs"):
        phutball.Tablebase.build(3, 4, jobs=0)
    # The solver's range, as the CLI's --jobs and C's jobs.
    with pytest.raises(ValueError, match=r"jobs=257: a tablebase build takes 1 to 256 jobs, not 257"):
        phutball.Tablebase.build(3, 4, jobs=257)
    assert phutball.Tablebase.build(3, 4, jobs=256).to_bytes() == one.to_bytes()


# ---- files ----


def test_save_and_load_round_trip(tmp_path, small):
    path = tmp_path / "3x5.tb"
    small.save(path)
    assert os.listdir(tmp_path) == ["3x5.tb"]  # the temporary file is gone
    data = path.read_bytes()
    assert data == small.to_bytes()
    assert data[:8] == b"PHUTTB\r\n" and len(data) == 32 + small.states
    loaded = phutball.Tablebase.load(path)
    assert loaded.to_bytes() == data
    assert phutball.Tablebase.load(str(path)).stats() == small.stats()
    start = phutball.Position.start(3, 5)
    assert loaded.probe(start) == small.probe(start)
    assert phutball.Tablebase.from_bytes(data).stats() == small.stats()


def test_damaged_bytes_are_tablebase_file_errors(tmp_path, tiny):
    data = tiny.to_bytes()
    assert issubclass(phutball.TablebaseFileError, ValueError)
    with pytest.raises(phutball.TablebaseFileError, match="truncated"):
        phutball.Tablebase.from_bytes(data[:-1])
    with pytest.raises(phutball.TablebaseFileError, match="shorter than the 32-byte header"):
        phutball.Tablebase.from_bytes(b"PHUT")
    with pytest.raises(phutball.TablebaseFileError, match="not PHUTTB"):
        phutball.Tablebase.from_bytes(b"x" * 40)
    flipped = bytearray(data)
    flipped[-1] ^= 1
    with pytest.raises(phutball.TablebaseFileError, match="damaged"):
        phutball.Tablebase.from_bytes(bytes(flipped))
    path = tmp_path / "bad.tb"
    path.write_bytes(bytes(flipped))
    with pytest.raises(phutball.TablebaseFileError, match="bad.tb: "):
        phutball.Tablebase.load(path)
    with pytest.raises(FileNotFoundError):
        phutball.Tablebase.load(tmp_path / "missing.tb")
    with pytest.raises(FileNotFoundError):
        tiny.save(tmp_path / "no-such-dir" / "t.tb")


# ---- limits and bad arguments ----


def test_limits_raise_as_everywhere_else():
    with pytest.raises(phutball.SearchTimeoutError):
        phutball.Tablebase.build(3, 5, timeout=0)
    with pytest.raises(phutball.MemoryLimitError, match="memory limit of 1000 bytes"):
        phutball.Tablebase.build(3, 5, memory_limit=1000)
    # 5x5 needs about 280 MB, over the default 256 MiB.
    with pytest.raises(phutball.MemoryLimitError):
        phutball.Tablebase.build(5, 5)
    with pytest.raises(ValueError, match="at most 32 are supported"):
        phutball.Tablebase.build(5, 7)
    with pytest.raises(phutball.InvalidPositionError):
        phutball.Tablebase.build(3, 2)


def test_wrong_argument_types_are_type_errors(tiny):
    with pytest.raises(TypeError):
        phutball.Tablebase.build("3", 5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        phutball.Tablebase.build(3, 5, timeout="1")
    with pytest.raises(TypeError):
        phutball.Tablebase.build(3, 5, 1)  # type: ignore[misc]
    with pytest.raises(TypeError):
        tiny.probe("1/@/1 O")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        tiny.line(phutball.Position.start(1, 3), "5")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_plies"):
        tiny.line(phutball.Position.start(1, 3), -1)
    with pytest.raises(TypeError):
        phutball.Tablebase.from_bytes("PHUTTB")  # type: ignore[arg-type]


CHILD = textwrap.dedent(
    """
    import sys, time
    import phutball
    print("ready", flush=True)
    try:
        table = phutball.Tablebase.build(3, 7)
    except KeyboardInterrupt:
        print("KeyboardInterrupt", time.monotonic(), flush=True)
        sys.exit(0)
    print("answered", repr(table), flush=True)
    sys.exit(2)
    """
)


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child process")
def test_ctrl_c_stops_a_build_with_keyboard_interrupt():
    # 3x7 (15.7 million states) takes seconds: Ctrl-C after 0.3 s stops it.
    assert interrupted(CHILD, wait=0.3) < 2
