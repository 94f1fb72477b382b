"""Step-by-step play: JumpInProgress, and Positions that are always at the
start of a move (regressions for the old mid-jump flag on Position)."""

import copy
import pickle
import random

import numpy as np
import pytest

import phutball
from conftest import SEEDS_STRING, benchmark_positions, point_col_row


def jump_index(state, point):
    col, row = point_col_row(point)
    cols, rows = state.position.cols, state.position.rows
    return cols * rows + row * cols + col


@pytest.fixture
def jump():
    return phutball.Position(SEEDS_STRING).apply_jump("G9")


def test_a_jump_in_progress_knows_its_parts(jump):
    assert isinstance(jump, phutball.JumpInProgress)
    assert jump.start == "K6" and jump.removed == ["J7", "H8"]
    assert jump.position.ball == "G9" and jump.to_move == "O" and jump.position.to_move == "O"
    assert jump.winner is None and not jump.is_finished and jump.is_mid_jump
    assert jump.action_count == 601
    assert jump.single_jumps() == ["G11"]
    assert jump.legal_actions() == [jump_index(jump, "G11"), 600]
    assert list(np.flatnonzero(jump.legal_action_mask())) == jump.legal_actions()
    assert jump.describe_action(600) == "end jump"
    assert jump.describe_action(jump_index(jump, "G11")) == "jump to G11"
    assert str(jump).endswith(" | jump from K6 removed J7,H8")
    assert jump.diagram().endswith("Ohs (O) to move, jumping from K6 (removed J7, H8)\n")
    assert "(jumping)" in jump._repr_svg_()
    assert jump.planes()[3].min() == 1 and jump.position.planes()[3].max() == 0


def test_jumping_on_and_ending_equal_playing_the_path(jump):
    seeds = phutball.Position(SEEDS_STRING)
    on = jump.apply_jump("G11").apply_jump("J11")
    assert on.removed == ["J7", "H8", "G10", "H11"]
    assert on.end() == seeds.play("K6-G9-G11-J11")
    after = jump.apply_action(jump_index(jump, "G11"))
    assert isinstance(after, phutball.JumpInProgress)
    ended = after.apply_action(600)
    assert isinstance(ended, phutball.Position) and ended == seeds.play("K6-G9-G11")
    with pytest.raises(phutball.IllegalMoveError, match="under way"):
        jump.apply_action(0)  # a placement
    with pytest.raises(phutball.IllegalMoveError, match="not a jump"):
        jump.apply_jump("G13")


def test_repr_str_pickle_and_hash_round_trip(jump):
    namespace = vars(phutball)
    rules = phutball.Rules(continue_off_board=True)
    off = phutball.Position("1#1/1#1/1@1/3/3 O", rules=rules).apply_jump("B6")
    for value in [jump, jump.apply_jump("G11"), off]:
        assert eval(repr(value), namespace) == value
        for again in [pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)]:
            assert again == value and hash(again) == hash(value)
            assert type(again) is phutball.JumpInProgress
    assert repr(off).startswith("JumpInProgress('") and "rules=Rules(" in repr(off)
    assert phutball.JumpInProgress(str(jump)) == jump
    assert len({jump, phutball.JumpInProgress(str(jump)), jump.apply_jump("G11")}) == 2


def test_bad_text_forms_are_value_errors(jump):
    board = str(jump.position)
    with pytest.raises(phutball.ParseError, match="jump from"):
        phutball.JumpInProgress(board)
    with pytest.raises(phutball.ParseError, match="invalid point"):
        phutball.JumpInProgress(board + " | jump from K6 removed Z99")
    # An impossible jump in a well-formed text is an invalid position, as for position strings.
    with pytest.raises(phutball.InvalidPositionError, match="removed man G10 is still on the board"):
        phutball.JumpInProgress(board + " | jump from K6 removed G10")
    with pytest.raises(ValueError):
        phutball.JumpInProgress(board + " | jump from K1 removed J7")


def test_a_position_cannot_be_made_mid_jump():
    with pytest.raises(phutball.InvalidPositionError, match="JumpInProgress"):
        phutball.Position(SEEDS_STRING, mid_jump=True)
    with pytest.raises(ValueError):
        phutball.Position(mid_jump=True)
    pos = phutball.Position(SEEDS_STRING, mid_jump=False)
    assert pos == phutball.Position(SEEDS_STRING) and not pos.is_mid_jump


def states_by_random_actions(start, steps, rng):
    """The states reached from `start` by random legal actions."""
    state = start
    states = [state]
    for _ in range(steps):
        actions = state.legal_actions()
        if not actions:
            break
        state = state.apply_action(rng.choice(actions))
        states.append(state)
    return states


@pytest.mark.parametrize("text", [SEEDS_STRING] + [t for t, _ in benchmark_positions("jumps-24")[:4]])
def test_positions_reached_step_by_step_keep_their_invariants(text):
    """Regressions: a position used to be able to carry a jump under way, whose
    listed moves did not play, whose string dropped the flag, and whose game
    lost it in its record and pickle."""
    rng = random.Random(text)
    start = phutball.Position(text)
    for state in states_by_random_actions(start, 12, rng):
        assert eval(repr(state), vars(phutball)) == state
        assert pickle.loads(pickle.dumps(state)) == state
        if isinstance(state, phutball.JumpInProgress):
            assert state.is_mid_jump and state.winner is None
            continue
        assert not state.is_mid_jump
        assert phutball.Position(str(state)) == state
        for move in state.legal_moves(limit=200):
            assert state.is_legal(move), move
            state.play(move)
        game = phutball.Game(state)
        assert pickle.loads(pickle.dumps(game)) == game
        assert phutball.Game.from_record(str(game)) == game
