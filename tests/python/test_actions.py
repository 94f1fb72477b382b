"""The fixed integer action space, the legal action mask and the planes."""

import numpy as np
import pytest

import phutball
from conftest import SEEDS_STRING, benchmark_positions, point_col_row


def place_index(pos, point):
    col, row = point_col_row(point)
    return (row - 1) * pos.cols + col


def jump_index(pos, point):
    col, row = point_col_row(point)
    return pos.cols * pos.rows + row * pos.cols + col


def test_start_has_284_legal_actions():
    pos = phutball.Position()
    mask = pos.legal_action_mask()
    assert mask.dtype == np.bool_
    assert mask.shape == (pos.action_count,) == (601,)
    assert int(mask.sum()) == 284
    assert not mask[place_index(pos, "H10")]
    assert pos.legal_actions() == list(np.flatnonzero(mask))


def expected_first_actions(pos):
    """The first action of every legal move, from the documented layout."""
    first = set()
    for move in pos.legal_moves():
        path = move.path
        first.add(jump_index(pos, path[1]) if move.is_jump else place_index(pos, path[0]))
    return first


@pytest.mark.parametrize("text", [SEEDS_STRING] + [t for t, _ in benchmark_positions("jumps-24")[:3]])
def test_mask_agrees_with_legal_moves(text):
    pos = phutball.Position(text)
    assert set(np.flatnonzero(pos.legal_action_mask())) == expected_first_actions(pos)


def test_jump_actions_then_end_equal_playing_the_path():
    pos = phutball.Position(SEEDS_STRING)
    for move in pos.jump_paths():
        step = pos
        actions = pos.move_to_actions(move)
        assert actions[-1] == pos.action_count - 1
        for a in actions:
            assert step.legal_action_mask()[a], pos.describe_action(a)
            step = step.apply_action(a)
        assert step == pos.play(move)
    mid = pos.apply_action(jump_index(pos, "G9"))
    assert isinstance(mid, phutball.JumpInProgress)
    assert mid.is_mid_jump and mid.to_move == "O" and mid.position.ball == "G9"
    assert set(mid.legal_actions()) == {jump_index(pos, "G11"), pos.action_count - 1}
    assert mid.winner is None


def test_illegal_actions_raise_clear_errors():
    pos = phutball.Position()
    with pytest.raises(phutball.IllegalMoveError, match="no jump move is under way"):
        pos.apply_action(pos.action_count - 1)
    with pytest.raises(phutball.IllegalMoveError, match="action 601 does not exist"):
        pos.apply_action(601)
    with pytest.raises(phutball.IllegalMoveError, match="already there|the ball is there"):
        pos.apply_action(place_index(pos, "H10"))
    with pytest.raises(phutball.IllegalMoveError, match="action -1 does not exist"):
        pos.apply_action(-1)
    with pytest.raises(phutball.IllegalMoveError, match="action 10{30} does not exist"):
        pos.apply_action(10**30)
    with pytest.raises(phutball.IllegalMoveError, match="action -1 does not exist"):
        pos.describe_action(-1)
    with pytest.raises(TypeError, match="action must be an int, not str"):
        pos.apply_action("H9")
    with pytest.raises(TypeError, match="action must be an int, not float"):
        pos.apply_action(1.0)
    mid = phutball.Position(SEEDS_STRING).apply_jump("G9")
    with pytest.raises(phutball.IllegalMoveError, match="under way"):
        mid.apply_action(place_index(mid.position, "A1"))


def test_describe_action():
    pos = phutball.Position()
    assert pos.describe_action(place_index(pos, "H9")) == "place H9"
    assert pos.describe_action(jump_index(pos, "P20")) == "jump to P20"
    assert pos.describe_action(600) == "end jump"
    with pytest.raises(phutball.IllegalMoveError):
        pos.describe_action(601)


def test_planes_encode_men_ball_side_and_orientation():
    pos = phutball.Position(SEEDS_STRING)
    planes = pos.planes()
    assert planes.dtype == np.float32 and planes.shape == (5, 21, 15)
    men = {(point_col_row(p)[1], point_col_row(p)[0]) for p in ["J7", "H8", "G10", "H11"]}
    assert {tuple(x) for x in np.argwhere(planes[0] == 1)} == men
    col, row = point_col_row("K6")
    assert planes[1, row, col] == 1 and planes[1].sum() == 1
    assert planes[2].min() == 1  # Ohs to move
    assert planes[3].max() == 0  # no jump under way
    assert planes[4, 0].sum() == 0 and planes[4, 20].sum() == 0 and planes[4, 1:20].min() == 1
    eks = pos.end_turn().planes()
    assert eks[2].max() == 0
    turned = pos.end_turn().planes(relative=True)
    # Row r seen from Eks's side is row 20 - r.
    assert turned[1, 20 - row, col] == 1
    assert pos.apply_jump("G9").planes()[3].min() == 1


def test_other_board_sizes():
    pos = phutball.Position.start(cols=1, rows=5)
    assert pos.action_count == 1 * 12 + 1
    assert int(pos.legal_action_mask().sum()) == 4
    assert pos.planes().shape == (5, 7, 1)
