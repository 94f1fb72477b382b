"""Moves, games and the game record; pickling and copying of every class."""

import copy
import pickle

import pytest

import phutball


def test_move_notation_path_and_kind():
    jump = phutball.Move("K6-G9-G11-J11")
    assert str(jump) == "K6-G9-G11-J11"
    assert jump.path == ["K6", "G9", "G11", "J11"]
    assert jump.is_jump
    place = phutball.Move("h10")
    assert str(place) == "H10" and place.path == ["H10"] and not place.is_jump
    assert eval(repr(jump), vars(phutball)) == jump
    assert phutball.Move("H10") == place and hash(phutball.Move("H10")) == hash(place)
    with pytest.raises(phutball.ParseError, match="no column I"):
        phutball.Move("I5")
    with pytest.raises(phutball.ParseError):
        phutball.Move("K6--G9")
    with pytest.raises(phutball.ParseError):
        phutball.Move("")


def test_game_push_pop_result_and_record(tmp_path):
    game = phutball.Game()
    game.push("H9")
    game.push(phutball.Move("H11"))
    game.push("H10-H8")
    assert len(game) == 3
    assert [str(m) for m in game.moves] == ["H9", "H11", "H10-H8"]
    assert game.position.ball == "H8"
    assert game.positions[0] == phutball.Position() == game.start
    assert game.result == "*" and game.winner is None and not game.is_over
    assert str(game.pop()) == "H10-H8"
    assert game.position.ball == "H10"
    record = str(game)
    assert record.splitlines() == [
        "start 15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O",
        "H9",
        "H11",
    ]
    assert phutball.Game.from_record(record) == game
    assert repr(game).startswith("Game.from_record(")
    assert eval(repr(game), vars(phutball)) == game
    limited = phutball.Game(move_limit=7)
    assert eval(repr(limited), vars(phutball)) == limited
    path = tmp_path / "game.txt"
    game.save(path)
    assert phutball.Game.load(str(path)) == game


def test_game_rejects_illegal_moves_and_stays_unchanged():
    game = phutball.Game()
    game.push("H9")
    with pytest.raises(phutball.IllegalMoveError, match=r"move 2 \(H9\).*already there"):
        game.push("H9")
    assert len(game) == 1
    with pytest.raises(phutball.ParseError, match="line 2"):
        phutball.Game.from_record("start 15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O\nI5\n")
    with pytest.raises(phutball.ParseError, match="start"):
        phutball.Game.from_record("H9\n")
    with pytest.raises(OSError):
        phutball.Game.load("/nonexistent/phutball/game.txt")


def test_game_move_limit_is_a_draw():
    game = phutball.Game(phutball.Position(), move_limit=2)
    game.push("A1")
    game.push("A2")
    assert game.result == "draw" and game.is_over
    with pytest.raises(phutball.IllegalMoveError, match="move limit"):
        game.push("A3")
    again = phutball.Game.from_record(str(game))
    assert again.move_limit == 2 and again.result == "draw"
    with pytest.raises(ValueError, match="move_limit must be None or an int of at least 0, not -1"):
        phutball.Game(move_limit=-1)
    # Too large is an error, not silently clamped (issue 9).
    with pytest.raises(ValueError, match="move_limit must be None or an int from 0 to 4294967295"):
        phutball.Game(move_limit=10**30)


def test_game_win_is_reported():
    game = phutball.Game(phutball.Position.from_points("N18", ["O19"]))
    game.push("N18-P20")
    assert game.result == "O wins" and game.winner == "O" and game.is_over


@pytest.mark.parametrize(
    "value",
    [
        phutball.Position(),
        phutball.Position.from_points("K6", ["J7", "H8", "G10", "H11"]).apply_jump("G9"),
        phutball.Position("3/1@1/3 X", rules=phutball.Rules(continue_off_board=True)),
        phutball.Move("K6-G9-G11"),
        phutball.Rules(continue_off_board=True, first_player="X", start="H9"),
    ],
)
def test_values_pickle_and_copy(value):
    for again in [pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)]:
        assert again == value
        assert type(again) is type(value)
        assert repr(again) == repr(value)


def test_game_pickles_and_copies_independently():
    game = phutball.Game(move_limit=10)
    game.push("H9")
    for again in [pickle.loads(pickle.dumps(game)), copy.copy(game), copy.deepcopy(game)]:
        assert again == game and again.move_limit == 10
        again.push("H11")
        assert len(game) == 1 and len(again) == 2
