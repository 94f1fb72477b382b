"""Positions: the worked examples of docs/rules.md, text round trips, properties and errors."""

import pytest

import phutball
from conftest import SEEDS_STRING, START_STRING, benchmark_positions


def strs(moves):
    return [str(m) for m in moves]


def test_seeds_jump_has_exactly_three_jump_moves(seeds):
    assert str(seeds) == SEEDS_STRING
    assert strs(seeds.jump_paths()) == ["K6-G9", "K6-G9-G11", "K6-G9-G11-J11"]
    assert strs(seeds.jump_outcomes()) == ["K6-G9", "K6-G9-G11", "K6-G9-G11-J11"]
    assert seeds.count_jump_paths() == 3
    assert seeds.count_jump_outcomes() == 3


def test_seeds_longest_jump_removes_all_four_men(seeds):
    after = seeds.play("K6-G9-G11-J11")
    assert after.men == []
    assert after.ball == "J11"
    assert after.to_move == "X"
    assert after.winner is None


def test_jumping_a_man_twice_is_illegal_with_a_clear_message(seeds):
    assert not seeds.is_legal("K6-G9-J9-G7")
    with pytest.raises(phutball.IllegalMoveError, match="G9-J9 is not a jump: H9 holds no man"):
        seeds.play("K6-G9-J9-G7")
    with pytest.raises(ValueError):
        seeds.check_move(phutball.Move("K6-G9-J9-G7"))


def test_start_shorthand_parses_as_in_the_cli_and_c():
    assert phutball.Position("start") == phutball.Position()
    assert phutball.Position("start:5x7") == phutball.Position.start(5, 7)
    eks = phutball.Rules(first_player="X")
    assert phutball.Position("start", rules=eks) == phutball.Position(rules=eks)
    with pytest.raises(phutball.ParseError, match="start:COLSxROWS"):
        phutball.Position("start:30x5")


def test_start_has_284_legal_moves_all_placements():
    pos = phutball.Position()
    assert str(pos) == START_STRING
    moves = pos.legal_moves()
    assert len(moves) == 284 == pos.count_legal_moves()
    assert not any(m.is_jump for m in moves)
    assert "H10" not in strs(moves)
    assert pos.ball == "H10" and pos.to_move == "O" and pos.men == []
    assert (pos.cols, pos.rows) == (15, 19)


def test_a_line_of_men_is_jumped_at_once():
    pos = phutball.Position.from_points("H10", ["H9", "H8"])
    assert strs(pos.jump_paths()) == ["H10-H7"]
    assert pos.play("H10-H7").men == []


def test_no_jump_off_the_side_of_the_board():
    pos = phutball.Position.from_points("M10", ["N10", "O10", "P10"])
    assert pos.jump_paths() == []
    assert pos.single_jumps() == []


def test_scoring_over_the_goal_line_wins_for_ohs_whoever_moves():
    for side in ["O", "X"]:
        pos = phutball.Position.from_points("N18", ["O19"], to_move=side)
        assert "N18-P20" in strs(pos.jump_paths())
        after = pos.play("N18-P20")
        assert after.winner == "O"
        assert after.is_finished
        assert after.legal_moves() == []
        with pytest.raises(phutball.IllegalMoveError, match="game is over"):
            after.play("A5")
    assert str(phutball.Position.from_points("N18", ["O19"]).scoring_move()) == "N18-P20"
    corner = phutball.Position.from_points("O18", ["P19"])
    assert corner.jump_paths() == []


def test_own_goal_loses():
    pos = phutball.Position.from_points("H3", ["H2"], to_move="O")
    assert pos.play("H3-H1").winner == "X"
    assert pos.scoring_move() is None
    assert not pos.can_score()


def test_position_string_round_trips_on_benchmark_positions():
    for text, _ in benchmark_positions("jumps-24")[:6]:
        pos = phutball.Position(text)
        assert str(pos) == text
        assert phutball.Position(str(pos)) == pos


def test_off_board_ball_round_trips():
    pos = phutball.Position.from_points("N18", ["O19"]).play("N18-P20")
    assert str(pos).endswith(" X P20")
    assert phutball.Position(str(pos)) == pos


def test_repr_evaluates_to_an_equal_position(seeds):
    namespace = vars(phutball)
    rules = phutball.Rules(continue_off_board=True, first_player="X", start="H9")
    for pos in [
        seeds,
        phutball.Position(),
        phutball.Position(rules=rules),
        seeds.apply_jump("G9"),
        phutball.Position.start(cols=19, rows=19),
    ]:
        again = eval(repr(pos), namespace)
        assert again == pos
        assert hash(again) == hash(pos)


def test_equality_and_hash_are_values(seeds):
    same = phutball.Position(SEEDS_STRING)
    assert same == seeds and hash(same) == hash(seeds)
    assert seeds != seeds.end_turn()
    assert len({seeds, same, seeds.end_turn()}) == 2
    assert seeds.play("K6-G9") != seeds  # playing returns a new value


def test_diagram_has_coordinates_and_pieces(seeds):
    diagram = seeds.diagram()
    lines = diagram.splitlines()
    assert lines[0].split() == list("ABCDEFGHJKLMNOP")
    row6 = next(line for line in lines if line.split()[0] == "6")
    assert row6.split()[1:16][9] == "@"  # K is the tenth column
    assert "Ohs (O) to move" in diagram


def test_rules_text_form_is_the_cores():
    rules = phutball.Rules(continue_off_board=True, first_player="Eks", start="H8")
    assert str(rules) == "continue-off-board first-player=X start-point=H8"
    assert phutball.Rules.parse(str(rules)) == rules
    assert str(phutball.Rules()) == "" and phutball.Rules.parse("") == phutball.Rules()
    game = phutball.Game(phutball.Position.start(rules=rules))
    assert f"rules {rules}" in str(game)
    with pytest.raises(phutball.ParseError, match='unknown rule option "sideways"'):
        phutball.Rules.parse("sideways")
    with pytest.raises(ValueError, match='invalid side "Q"'):
        phutball.Rules.parse("first-player=Q")


def test_rules_are_kept_and_change_play():
    rules = phutball.Rules(continue_off_board=True)
    assert phutball.Rules() == phutball.Rules(False, "O", None)
    men = ["B18", "B19", "C19"]
    stop = phutball.Position.from_points("B17", men)
    go_on = phutball.Position.from_points("B17", men, rules=rules)
    assert go_on.rules == rules and stop.rules == phutball.Rules()
    assert stop != go_on
    # B17-B20 lands off the board; only the continuing rule lets the ball
    # jump back over C19 to D18.
    assert "B17-B20" in strs(stop.jump_paths())
    assert "B17-B20-D18" not in strs(stop.jump_paths())
    assert "B17-B20-D18" in strs(go_on.jump_paths())
    assert phutball.Position(str(go_on), rules=rules) == go_on
    first = phutball.Position.start(rules=phutball.Rules(first_player="X", start="H8"))
    assert first.to_move == "X" and first.ball == "H8"


def test_rules_that_do_not_fit_the_board_are_refused():
    # Z26 is a point of some board (a 25x25 board's strip), not of 15x19. It
    # used to be accepted here, then mirror_columns() raised a PanicException.
    far = phutball.Rules(start="Z26")
    message = "start point Z26 is outside the 15x19 board"
    with pytest.raises(phutball.InvalidPositionError, match=message):
        phutball.Position(str(phutball.Position()), rules=far)
    with pytest.raises(phutball.InvalidPositionError, match=message):
        phutball.Position.from_points("H10", [], rules=far)
    with pytest.raises(phutball.InvalidPositionError, match=message):
        phutball.Position.start(rules=far)
    on_goal = phutball.Rules(start="H19")
    with pytest.raises(phutball.InvalidPositionError, match="H19 must lie strictly between the goal lines"):
        phutball.Position(str(phutball.Position()), rules=on_goal)
    with pytest.raises(phutball.InvalidPositionError, match="H19 must lie strictly"):
        phutball.Position.from_points("H10", [], rules=on_goal)
    with pytest.raises(phutball.ParseError, match="line 2: " + message):
        phutball.Game.from_record(f"start {phutball.Position()}\nrules start-point=Z26\n")
    # On a board that has the point, the rules fit and mirroring keeps them.
    big = phutball.Position.start(cols=25, rows=25, rules=phutball.Rules(start="Z20"))
    assert big.mirror_columns().rules.start == "A20"
    assert big.flip_rows().rules.start == "Z6"
    assert big.planes(relative=True) is not None


def test_from_points_matches_the_position_string(seeds):
    assert seeds == phutball.Position(SEEDS_STRING)
    small = phutball.Position.from_points("B2", ["A1"], to_move="X", cols=3, rows=3)
    assert str(small) == "3/1@1/#2 X"


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("15/15 O", "rows"),
        ("", "empty"),
        ("15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 Z", "O or X"),
        ("15/15/15/15/15/15/15/15/15/7@8/15/15/15/15/15/15/15/15/15 O", "wide"),
        ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 O", "no ball"),
    ],
)
def test_malformed_position_strings_raise_parse_error(text, fragment):
    with pytest.raises(phutball.ParseError, match=fragment):
        phutball.Position(text)


def test_bad_points_and_positions_raise_clear_errors(seeds):
    assert issubclass(phutball.ParseError, ValueError)
    assert issubclass(phutball.IllegalMoveError, ValueError)
    assert issubclass(phutball.InvalidPositionError, ValueError)
    with pytest.raises(phutball.ParseError, match="no column I"):
        seeds.play("I5")
    with pytest.raises(phutball.ParseError, match="no column I"):
        phutball.Position.from_points("I5", [])
    with pytest.raises(phutball.InvalidPositionError, match="ball is on H8"):
        phutball.Position.from_points("H8", ["H8"])
    with pytest.raises(phutball.InvalidPositionError, match="Q5"):
        phutball.Position.from_points("H8", ["Q5"])
    with pytest.raises(phutball.InvalidPositionError, match="off-board"):
        phutball.Position.from_points("H8", ["H20"])
    with pytest.raises(phutball.InvalidPositionError, match="not supported"):
        phutball.Position.start(cols=26)
    with pytest.raises(phutball.ParseError, match='invalid side "Y"'):
        phutball.Position.from_points("H8", [], to_move="Y")
    with pytest.raises(phutball.ParseError, match='invalid side "Q"'):
        phutball.Rules(first_player="Q")
    with pytest.raises(phutball.InvalidPositionError, match="board size 300x19 is not supported"):
        phutball.Position.from_points("A2", [], cols=300)
    with pytest.raises(phutball.InvalidPositionError, match="board size 15x-1 is not supported"):
        phutball.Position.start(rows=-1)
    with pytest.raises(phutball.IllegalMoveError, match="already there"):
        seeds.play("J7")
    with pytest.raises(phutball.IllegalMoveError, match="must start at the ball"):
        seeds.play("H8-H6")


def test_wrong_types_raise_type_error(seeds):
    with pytest.raises(TypeError, match="phutball.Move"):
        seeds.play(42)
    with pytest.raises(TypeError):
        phutball.Position(42)
    with pytest.raises(TypeError):
        phutball.Position.from_points("K6", "J7")  # a string is not a list of points
    with pytest.raises(TypeError, match="limit must be an int, not str"):
        seeds.jump_paths(limit="3")


@pytest.mark.parametrize("method", ["jump_paths", "jump_outcomes", "legal_moves"])
def test_negative_limits_raise_value_error_and_huge_ones_mean_no_limit(seeds, method):
    with pytest.raises(ValueError, match="limit must be None or an int of at least 0, not -1"):
        getattr(seeds, method)(limit=-1)
    everything = getattr(seeds, method)()
    assert getattr(seeds, method)(limit=10**30) == everything
    assert getattr(seeds, method)(limit=None) == everything


def test_limits_cut_enumerations_short():
    text, (paths, outcomes, _) = benchmark_positions("jumps-24")[0]
    pos = phutball.Position(text)
    assert len(pos.jump_paths(limit=10)) == 10
    assert pos.jump_paths(limit=0) == []
    assert len(pos.jump_outcomes(limit=7)) == 7
    placements = len(pos.placements())
    assert len(pos.legal_moves(limit=placements + 5)) == placements + 5
    assert len(pos.legal_moves(limit=3)) == 3
    assert pos.count_jump_paths() == paths
    assert pos.count_jump_outcomes() == outcomes
    assert pos.count_legal_moves() == placements + outcomes


def test_score_benchmarks_agree_with_reference():
    for text, (_, _, can_score) in benchmark_positions("score-16"):
        pos = phutball.Position(text)
        assert pos.can_score() == bool(can_score)
        move = pos.scoring_move()
        assert (move is not None) == bool(can_score)
        if move is not None:
            assert pos.play(move).winner == pos.to_move


def test_symmetries():
    pos = phutball.Position.from_points("K6", ["J7", "H8", "G10", "H11"])
    mirrored = pos.mirror_columns()
    assert mirrored.ball == "F6"
    assert mirrored.mirror_columns() == pos
    flipped = pos.flip_rows()
    assert flipped.ball == "K14" and flipped.to_move == "X"
    assert flipped.count_jump_paths() == pos.count_jump_paths()
