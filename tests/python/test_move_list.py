"""phutball.MoveList, the positions' lists of moves: a read-only sequence
that makes its Move objects only when read, and behaves as the list it
replaced (len, indexing, slices, iteration, in, ==, repr, pickling)."""

import collections.abc
import pickle

import pytest

import phutball

# The seeds' worked example: three jump paths.
SEEDS = phutball.Position.from_points("K6", ["J7", "H8", "G10", "H11"])
PATHS = ["K6-G9", "K6-G9-G11", "K6-G9-G11-J11"]


def test_it_is_a_sequence_of_moves():
    moves = SEEDS.jump_paths()
    assert isinstance(moves, phutball.MoveList)
    assert isinstance(moves, collections.abc.Sequence)
    assert len(moves) == 3 and bool(moves) and not SEEDS.jump_paths(limit=0)
    assert [str(m) for m in moves] == PATHS
    assert [str(moves[i]) for i in range(3)] == PATHS
    assert str(moves[-1]) == PATHS[-1] and str(moves[-3]) == PATHS[0]
    assert list(reversed(moves)) == [phutball.Move(p) for p in reversed(PATHS)]
    for bad in (3, -4, 10**30):
        with pytest.raises(IndexError, match="out of range"):
            moves[bad]
    with pytest.raises(TypeError, match="indices must be integers or slices, not str"):
        moves["0"]


def test_slices_are_move_lists_as_a_list_would_slice():
    moves = SEEDS.jump_paths()
    plain = [phutball.Move(p) for p in PATHS]
    for part in (slice(None), slice(1, None), slice(None, None, -1), slice(0, 3, 2), slice(5, 9), slice(-2, -1)):
        assert isinstance(moves[part], phutball.MoveList)
        assert moves[part] == plain[part], part


def test_equality_membership_index_and_count():
    moves = SEEDS.jump_paths()
    plain = [phutball.Move(p) for p in PATHS]
    assert moves == plain and moves == tuple(plain) and moves == SEEDS.jump_outcomes()
    assert plain == moves  # the reflected comparison
    assert moves != plain[:2] and moves != list(reversed(plain)) and moves != PATHS
    assert not (moves != plain)
    assert moves != "K6-G9" and moves != 3
    assert phutball.Move("K6-G9-G11") in moves and phutball.Move("H10") not in moves
    # Notation is looked for as its move (docs/python.md), as every move argument is read.
    assert "K6-G9" in moves and "H10" not in moves
    assert moves.index(phutball.Move("K6-G9-G11")) == 1
    with pytest.raises(ValueError, match="not in the list"):
        moves.index(phutball.Move("H10"))
    assert moves.count(phutball.Move("K6-G9")) == 1 and moves.count("K6-G9") == 1
    with pytest.raises(TypeError):
        hash(moves)


def test_repr_construction_and_pickling():
    moves = SEEDS.jump_paths()
    assert repr(moves) == "MoveList([Move('K6-G9'), Move('K6-G9-G11'), Move('K6-G9-G11-J11')])"
    assert repr(phutball.MoveList()) == "MoveList([])"
    assert phutball.MoveList(PATHS) == moves
    assert phutball.MoveList(m for m in moves) == moves
    assert pickle.loads(pickle.dumps(moves)) == moves
    with pytest.raises(phutball.ParseError):
        phutball.MoveList(["K6-G9", "I5"])
    with pytest.raises(TypeError):
        phutball.MoveList([3])


def test_every_list_of_a_position_is_one_and_iterators_are_independent():
    pos = phutball.Position()
    for moves in (pos.placements(), pos.legal_moves(), pos.jump_paths(), pos.jump_outcomes()):
        assert isinstance(moves, phutball.MoveList)
    placements = pos.placements()
    assert len(placements) == 284
    first, second = iter(placements), iter(placements)
    assert next(first) == placements[0]
    assert next(first) == placements[1]
    assert next(second) == placements[0]
    assert iter(first) is first
    assert sum(1 for _ in first) == 282
    with pytest.raises(StopIteration):
        next(first)
