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


def chi_square(drawn, legal):
    """Pearson's statistic of the draws' counts against uniform over `legal`
    (a draw outside `legal` fails the caller's subset check first)."""
    counts = np.array([drawn.count(a) for a in legal])
    expected = len(drawn) / len(legal)
    return float(((counts - expected) ** 2 / expected).sum())


def uniform_enough(drawn, legal):
    """Whether the statistic is below its mean plus 6 standard deviations
    (k - 1 and sqrt(2 (k - 1)) for k outcomes): a uniform draw passes with
    near certainty, and the draws are seeded, so the test is fixed."""
    k = len(legal)
    return chi_square(drawn, legal) < (k - 1) + 6 * (2 * (k - 1)) ** 0.5


def finished_position():
    """Eks jumps onto Ohs's goal line and ends the move there: an own goal."""
    start = phutball.Position.from_points("N17", ["N18", "O19"], to_move="X")
    jump = start.apply_action(start.move_to_actions("N17-N19")[0])
    return jump.apply_action(start.action_count - 1)


def random_seeds(count, seed):
    return [int(s) for s in np.random.default_rng(seed).integers(0, 2**64, size=count, dtype=np.uint64)]


@pytest.mark.parametrize(
    "state",
    [
        phutball.Position.start(cols=5, rows=7),
        # Mid-jump on a small board: landings and "end jump", no placements.
        phutball.Position.from_points("C3", ["C4", "C6"], cols=5, rows=7).apply_action(
            jump_index(phutball.Position.start(cols=5, rows=7), "C5")
        ),
        phutball.Position.from_points("C3", ["C4", "B4", "D3"], cols=5, rows=7),
    ],
    ids=["start", "mid-jump", "jumps-and-placements"],
)
def test_random_legal_action_is_legal_uniform_and_fixed_by_its_seed(state):
    legal = state.legal_actions()
    drawn = [state.random_legal_action(s) for s in random_seeds(300 * len(legal), 11)]
    assert set(drawn) == set(legal)
    assert uniform_enough(drawn, legal)
    # Always the first legal action would not be uniform: the check can fail.
    assert len(legal) == 1 or not uniform_enough([legal[0]] * len(drawn), legal)
    assert [state.random_legal_action(s) for s in (0, 1, 2**64 - 1)] == [
        state.random_legal_action(s) for s in (0, 1, 2**64 - 1)
    ]


def test_random_legal_action_is_none_once_the_game_is_over_and_checks_its_seed():
    assert finished_position().winner is not None
    assert finished_position().random_legal_action(5) is None
    pos = phutball.Position()
    for bad in (-1, 2**64):
        with pytest.raises(ValueError, match="seed"):
            pos.random_legal_action(bad)
    for bad in (1.5, "3", True):
        with pytest.raises(TypeError, match="seed"):
            pos.random_legal_action(bad)


@pytest.mark.parametrize("relative", [False, True])
def test_planes_and_mask_are_planes_and_a_read_only_int8_mask(relative):
    seeds = phutball.Position(SEEDS_STRING)
    states = [seeds, seeds.apply_action(seeds.legal_actions()[-1]), finished_position()]
    for state in states:
        planes, mask = state.planes_and_mask(relative=relative)
        assert planes.dtype == np.float32 and np.array_equal(planes, state.planes(relative=relative))
        assert mask.dtype == np.int8 and mask.shape == (state.action_count,)
        assert np.array_equal(mask, state.legal_action_mask().astype(np.int8))
        with pytest.raises(ValueError):
            mask[0] = 1
    assert states[1].is_mid_jump and int(states[2].planes_and_mask()[1].sum()) == 0
