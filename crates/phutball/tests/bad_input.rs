//! Bad input of every kind gets a typed error that says what was wrong, never
//! a panic: malformed text for every parser, impossible positions, illegal
//! moves, malformed game records, and arbitrary strings and moves (fuzzing).

mod random;
mod reference;

use phutball::{
    Bitboard, BoardSize, Game, GameError, IllegalMoveError, InvalidPositionError, Move, ParseError,
    Point, Position, Rules, Side, TooManyOutcomesError,
};
use proptest::prelude::*;

const START: &str = "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O";

fn point(text: &str) -> Point {
    text.parse().unwrap()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

fn position_error(text: &str) -> ParseError {
    match text.parse::<Position>() {
        Ok(pos) => panic!("{text:?} parsed as {pos}"),
        Err(e) => e,
    }
}

/// The error must be a `ParseError::Position` whose message mentions `needle`.
fn assert_malformed(text: &str, needle: &str) {
    let e = position_error(text);
    assert!(
        matches!(e, ParseError::Position { .. }),
        "{text:?}: expected a malformed-position error, got {e:?}"
    );
    assert!(
        e.to_string().contains(needle),
        "{text:?}: {e} does not mention {needle:?}"
    );
}

#[test]
fn empty_position_strings() {
    for text in ["", "   ", "\n\t"] {
        assert!(
            matches!(position_error(text), ParseError::Empty { .. }),
            "{text:?}"
        );
    }
}

#[test]
fn malformed_position_strings() {
    let rows = "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15";
    assert_malformed(rows, "missing side");
    assert_malformed(&format!("{rows} Q"), "side to move");
    assert_malformed(&format!("{rows} OX"), "side to move");
    assert_malformed(&format!("{rows} 0"), "side to move");
    assert_malformed("3/1@1/4 X", "wide");
    assert_malformed("3/1@1/2 X", "wide");
    assert_malformed("3/@ O", "rows");
    assert_malformed(&format!("{}1@1 O", "3/".repeat(25)), "rows");
    assert_malformed("26/12@13/26 O", "wide");
    assert_malformed("3/1@x/3 O", "unexpected 'x'");
    assert_malformed("3/1@é/3 O", "unexpected 'é'");
    assert_malformed("3/1.1/3 O", "unexpected '.'");
    assert_malformed("3/@1@/3 O", "second ball");
    assert_malformed("3/3/3 O", "no ball");
    assert_malformed("3/1@1/3 O A0", "already on the board");
    assert_malformed("3/3/3 O B2", "off-board point");
    assert_malformed("3/3/3 O D0", "off-board point");
    assert_malformed("3/3/3 O A5", "off-board point");
    assert_malformed("3/3/3 O zz", "invalid point");
    assert_malformed("3/3/3 O I0", "column I");
    assert_malformed("3/1@1/3 O A0 A4", "at most three fields");
    assert_malformed("03/1@1/3 O", "bad count");
    assert_malformed("3/01@1/3 O", "bad count");
    assert_malformed("3/0@2/3 O", "bad count");
    assert_malformed("99999999999999999999999/1@1/3 O", "wide");
    assert_malformed("4294967297/1@1/3 O", "wide");
    assert_malformed("18446744073709551617/1@1/3 O", "wide");
    assert_malformed("/1@1/3 O", "empty");
    assert_malformed("3//1@1 O", "empty");
    assert_malformed("3/1@1/ O", "empty");
}

#[test]
fn a_row_of_men_wider_than_the_largest_board() {
    let wide = "#".repeat(26);
    let e = position_error(&format!("{wide}/@25/25 O"));
    assert!(matches!(e, ParseError::Position { .. }), "{e:?}");
}

#[test]
fn position_errors_say_where() {
    match position_error("3/1@x/3 O") {
        ParseError::Position { column, .. } => assert_eq!(column, 5),
        e => panic!("{e:?}"),
    }
}

#[test]
fn unknown_points() {
    assert!(matches!(
        "I5".parse::<Point>(),
        Err(ParseError::ColumnI { .. })
    ));
    assert!(matches!(
        "i5".parse::<Point>(),
        Err(ParseError::ColumnI { .. })
    ));
    assert!(matches!("".parse::<Point>(), Err(ParseError::Empty { .. })));
    for text in [
        "Q0x", "H", "10", "H-1", "Z99", "H010", "H27", "H+1", " H10", "H10 ", "H1.0", "Ω5", "5H",
        "HH", "H٣",
    ] {
        match text.parse::<Point>() {
            Err(ParseError::Point { text: t }) => assert_eq!(t, text),
            other => panic!("{text:?}: {other:?}"),
        }
    }
}

#[test]
fn unknown_sides_are_side_errors_not_position_string_errors() {
    assert_eq!("x".parse::<Side>(), Ok(Side::Eks));
    assert_eq!("Ohs".parse::<Side>(), Ok(Side::Ohs));
    for text in ["", "Q", "OX", "Oh", " O"] {
        let e = text.parse::<Side>().unwrap_err();
        assert_eq!(e, ParseError::Side { text: text.into() });
        assert!(!e.to_string().contains("position"), "{e}");
    }
    assert_eq!(
        "Q".parse::<Side>().unwrap_err().to_string(),
        "invalid side \"Q\": a side is O (Ohs) or X (Eks)"
    );
}

#[test]
fn points_beyond_a_board_are_named_in_the_error() {
    let e = "I5".parse::<Point>().unwrap_err().to_string();
    assert!(e.contains("\"I5\"") && e.contains("no column I"), "{e}");
    let e = "Z99".parse::<Point>().unwrap_err().to_string();
    assert!(e.contains("\"Z99\""), "{e}");
}

#[test]
fn malformed_moves() {
    assert!(matches!("".parse::<Move>(), Err(ParseError::Empty { .. })));
    assert!(matches!(
        "  ".parse::<Move>(),
        Err(ParseError::Empty { .. })
    ));
    for text in [
        "H10-", "-H10", "H10--H8", "H10-I5", "H10 H8", "H10-H8-", "-", "I5", "H10,H8", "H10_H8",
    ] {
        assert!(
            matches!(text.parse::<Move>(), Err(ParseError::Move { .. })),
            "{text:?}: {:?}",
            text.parse::<Move>()
        );
    }
}

#[test]
fn impossible_positions() {
    let std = BoardSize::STANDARD;
    let rules = Rules::default();
    let none = Bitboard::EMPTY;
    for (cols, rows) in [(0, 5), (26, 5), (5, 2), (5, 26), (0, 0), (255, 255)] {
        assert_eq!(
            BoardSize::new(cols, rows),
            Err(InvalidPositionError::Size {
                cols: cols.into(),
                rows: rows.into()
            })
        );
    }
    let men = Bitboard::from_point(point("H20"));
    assert_eq!(
        Position::from_parts(std, rules, men, point("A5"), Side::Ohs),
        Err(InvalidPositionError::ManOffBoard(point("H20")))
    );
    let men = Bitboard::from_point(point("Q5"));
    assert!(matches!(
        Position::from_parts(std, rules, men, point("A5"), Side::Ohs),
        Err(InvalidPositionError::Outside { what: "man", .. })
    ));
    assert!(matches!(
        Position::from_parts(std, rules, none, point("H21"), Side::Ohs),
        Err(InvalidPositionError::Outside { what: "ball", .. })
    ));
    let men = Bitboard::from_point(point("A5"));
    assert_eq!(
        Position::from_parts(std, rules, men, point("A5"), Side::Ohs),
        Err(InvalidPositionError::BallOnMan(point("A5")))
    );
    for start in ["H1", "H19", "H0", "H20"] {
        let rules = Rules {
            start: Some(point(start)),
            ..Rules::default()
        };
        assert_eq!(
            Position::start_with(std, rules),
            Err(InvalidPositionError::StartNotInPlay(point(start)))
        );
    }
    let rules = Rules {
        start: Some(point("Q5")),
        ..Rules::default()
    };
    assert!(matches!(
        Position::start_with(std, rules),
        Err(InvalidPositionError::Outside {
            what: "start point",
            ..
        })
    ));
}

/// Rules whose start point does not fit the board are refused wherever rules
/// are made or attached, so mirroring and flipping (which map the start point)
/// never meet them.
#[test]
fn rules_that_do_not_fit_the_board_are_refused_everywhere() {
    let std = BoardSize::STANDARD;
    let outside = Rules {
        start: Some(point("Z26")),
        ..Rules::default()
    };
    let on_goal = Rules {
        start: Some(point("H19")),
        ..Rules::default()
    };
    let outside_error = InvalidPositionError::Outside {
        what: "start point",
        point: point("Z26"),
        cols: 15,
        rows: 19,
    };
    assert_eq!(outside.validate(std), Err(outside_error.clone()));
    assert_eq!(
        outside_error.to_string(),
        "start point Z26 is outside the 15x19 board"
    );
    assert_eq!(
        on_goal.validate(std),
        Err(InvalidPositionError::StartNotInPlay(point("H19")))
    );
    assert_eq!(Rules::default().validate(std), Ok(()));
    for (rules, error) in [
        (outside, outside_error),
        (on_goal, InvalidPositionError::StartNotInPlay(point("H19"))),
    ] {
        assert_eq!(
            Position::parse_with_rules(START, rules),
            Err(ParseError::Invalid(error.clone()))
        );
        let men = Bitboard::from_point(point("H9"));
        assert_eq!(
            Position::from_parts(std, rules, men, point("H10"), Side::Ohs),
            Err(error.clone())
        );
        assert_eq!(Position::standard().with_rules(rules), Err(error.clone()));
        assert_eq!(Position::start_with(std, rules), Err(error));
    }
    // On a board that has it, the same point is fine, and mirroring keeps it.
    let big = BoardSize::new(25, 25).unwrap();
    let rules = Rules {
        start: Some(point("Z20")),
        ..Rules::default()
    };
    let pos = Position::start_with(big, rules).unwrap();
    assert_eq!(pos.mirror_columns().rules().start, Some(point("A20")));
    assert_eq!(pos.flip_rows().rules().start, Some(point("Z6")));
}

#[test]
fn illegal_placements() {
    let pos: Position = "15/15/15/15/15/15/15/15/15/7@7/7#7/15/15/15/15/15/15/15/15 O"
        .parse()
        .unwrap();
    let cases = [
        ("H9", IllegalMoveError::Occupied(point("H9"))),
        ("H10", IllegalMoveError::OnBall(point("H10"))),
        ("H0", IllegalMoveError::PlaceOffBoard(point("H0"))),
        ("A20", IllegalMoveError::PlaceOffBoard(point("A20"))),
    ];
    for (text, error) in cases {
        assert_eq!(pos.play(&mv(text)), Err(error), "{text}");
        assert!(!pos.is_legal(&mv(text)));
    }
    for text in ["Q10", "A21", "Z5", "Z26"] {
        assert!(
            matches!(pos.play(&mv(text)), Err(IllegalMoveError::Outside { .. })),
            "{text}"
        );
    }
}

#[test]
fn illegal_jumps() {
    // Ball H10; men H11 H12, J10, G9 F8.
    let pos: Position = "15/15/15/15/15/15/15/7#7/7#7/7@#6/6#8/5#9/15/15/15/15/15/15/15 O"
        .parse()
        .unwrap();
    assert!(pos.is_legal(&mv("H10-H13")));
    let cases = [
        (
            "G10-G12",
            IllegalMoveError::NotFromBall {
                ball: point("H10"),
                start: point("G10"),
            },
        ),
        (
            "H10-H8",
            IllegalMoveError::Gap {
                from: point("H10"),
                to: point("H8"),
                gap: point("H9"),
            },
        ),
        (
            "H10-H12",
            IllegalMoveError::LandsOnMan {
                from: point("H10"),
                to: point("H12"),
            },
        ),
        (
            "H10-H11",
            IllegalMoveError::LandsOnMan {
                from: point("H10"),
                to: point("H11"),
            },
        ),
        (
            "H10-G10",
            IllegalMoveError::NoManJumped {
                from: point("H10"),
                to: point("G10"),
            },
        ),
        (
            "H10-J13",
            IllegalMoveError::NotALine {
                from: point("H10"),
                to: point("J13"),
            },
        ),
        (
            "H10-H13-H10",
            IllegalMoveError::Gap {
                from: point("H13"),
                to: point("H10"),
                gap: point("H12"),
            },
        ),
    ];
    for (text, error) in cases {
        assert_eq!(pos.play(&mv(text)), Err(error), "{text}");
        assert!(!pos.is_legal(&mv(text)), "{text}");
    }
    assert!(matches!(
        pos.play(&mv("H10-H21")),
        Err(IllegalMoveError::Outside { .. })
    ));
    assert!(matches!(
        pos.play(&mv("H10-Q10")),
        Err(IllegalMoveError::Outside { .. })
    ));
    assert_eq!(
        pos.play(&Move::Jump(vec![point("H10")])),
        Err(IllegalMoveError::EmptyJump)
    );
    assert_eq!(
        pos.play(&Move::Jump(vec![])),
        Err(IllegalMoveError::EmptyJump)
    );
}

#[test]
fn no_jump_on_after_landing_off_the_board() {
    // Ball H18; men H19 and J19: H18-H20 ends the move under the default rule,
    // so the ball may not come back over J19 to K18.
    let pos: Position = "7##6/7@7/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 X"
        .parse()
        .unwrap();
    assert_eq!(
        pos.play(&mv("H18-H20-K18")),
        Err(IllegalMoveError::AfterOffBoard(point("H20")))
    );
    let mid = pos.apply_jump(point("H20")).unwrap();
    assert_eq!(
        mid.apply_jump(point("K18")),
        Err(IllegalMoveError::AfterOffBoard(point("H20")))
    );
    assert_eq!(
        mid.apply_action(phutball::Action::Place(point("A5"))),
        Err(phutball::ActionError::Illegal(
            IllegalMoveError::JumpInProgress
        ))
    );
}

#[test]
fn no_move_from_a_finished_position() {
    for (text, winner) in [
        (
            "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 X H20",
            Side::Ohs,
        ),
        (
            "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/7@7 O",
            Side::Eks,
        ),
        (
            "7@7/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 O",
            Side::Ohs,
        ),
    ] {
        let pos: Position = text.parse().unwrap();
        assert_eq!(pos.winner(), Some(winner));
        assert_eq!(
            pos.play(&mv("A5")),
            Err(IllegalMoveError::GameOver { winner })
        );
        let ball = pos.ball().to_string();
        assert_eq!(
            pos.play(&mv(&format!("{ball}-A5"))),
            Err(IllegalMoveError::GameOver { winner })
        );
        assert_eq!(
            pos.apply_jump(point("A5")),
            Err(IllegalMoveError::GameOver { winner })
        );
        assert_eq!(pos.legal_moves(), Ok(vec![]));
        assert!(pos.single_jumps().is_empty());
        assert!(!pos.can_score());
    }
}

#[test]
fn outcome_bounds_too_small_are_errors() {
    // The seeds' example has 3 distinct outcomes.
    let pos: Position = "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O"
        .parse()
        .unwrap();
    for limit in 0..3 {
        assert_eq!(
            pos.count_jump_outcomes_bounded(limit),
            Err(TooManyOutcomesError { limit })
        );
        assert_eq!(
            pos.jump_outcomes_bounded(limit),
            Err(TooManyOutcomesError { limit })
        );
    }
    assert_eq!(pos.count_jump_outcomes_bounded(3), Ok(3));
}

fn record_error(text: &str) -> (usize, String) {
    match text.parse::<Game>() {
        Err(ParseError::Record { line, reason }) => (line, reason),
        other => panic!("{text:?}: expected a record error, got {other:?}"),
    }
}

#[test]
fn malformed_game_records() {
    let cases: Vec<(String, usize, &str)> = vec![
        (String::new(), 1, "no 'start"),
        ("; only a comment\n".into(), 1, "no 'start"),
        ("H9\n".into(), 1, "must begin"),
        ("start\n".into(), 1, "empty"),
        ("start 3/3/3 O\n".into(), 1, "no ball"),
        (format!("start {START}\nstart {START}\n"), 2, "second start"),
        ("rules continue-off-board\n".into(), 1, "before the start"),
        ("limit 5\n".into(), 1, "before the start"),
        (
            format!("start {START}\nH9\nrules continue-off-board\n"),
            3,
            "after the first move",
        ),
        (
            format!("start {START}\nH9\nlimit 4\n"),
            3,
            "after the first move",
        ),
        (
            format!("start {START}\nrules fly\n"),
            2,
            "unknown rule option",
        ),
        (format!("start {START}\nlimit -3\n"), 2, "whole number"),
        (format!("start {START}\nlimit abc\n"), 2, "whole number"),
        (
            format!("start {START}\nlimit 99999999999\n"),
            2,
            "whole number",
        ),
        (format!("start {START}\nlimit\n"), 2, "whole number"),
        (format!("start {START}\nH9\nH10\n"), 3, "the ball is there"),
        (format!("start {START}\n\n; note\nI5\n"), 4, "column I"),
        (format!("start {START}\nH9 H8\n"), 2, "invalid"),
        (format!("start {START}\nlimit 1\nH9\nH8\n"), 4, "move limit"),
        (format!("Start {START}\n"), 1, "must begin"),
        (
            format!("start {START}\nrules start-point=Z26\n"),
            2,
            "start point Z26 is outside the 15x19 board",
        ),
        (
            format!("start {START}\n; handicap\nrules first-player=X start-point=H1\nH9\n"),
            3,
            "start point H1 must lie strictly between the goal lines",
        ),
    ];
    for (text, line, needle) in cases {
        let (found_line, reason) = record_error(&text);
        assert_eq!(found_line, line, "{text:?}: {reason}");
        assert!(
            reason.contains(needle),
            "{text:?}: {reason:?} does not mention {needle:?}"
        );
    }
}

#[test]
fn illegal_game_moves_leave_the_game_unchanged() {
    let mut game = Game::standard().with_move_limit(Some(2));
    game.push(mv("H9")).unwrap();
    let before = game.clone();
    match game.push(mv("H9")) {
        Err(GameError::Illegal {
            number,
            notation,
            source,
        }) => {
            assert_eq!((number, notation.as_str()), (2, "H9"));
            assert_eq!(source, IllegalMoveError::Occupied(point("H9")));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(game, before);
    game.push(mv("H8")).unwrap();
    assert_eq!(game.push(mv("H7")), Err(GameError::MoveLimit(2)));
    assert_eq!(game.moves().len(), 2);
}

/// Strings built from the characters the parsers care about, to get past their first checks.
fn notation_like() -> impl Strategy<Value = String> {
    "[0-9#@/ OXoxA-Zaz;\\-\n]{0,60}"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn arbitrary_text_never_panics_a_parser(text in prop_oneof![any::<String>(), notation_like()]) {
        let _ = text.parse::<Point>();
        let _ = text.parse::<Move>();
        let _ = text.parse::<Side>();
        let _ = text.parse::<Game>();
        let _ = Position::parse_with_rules(&text, Rules { continue_off_board: true, ..Rules::default() });
        if let Ok(pos) = text.parse::<Position>() {
            // Whatever parses has a canonical form that parses back to it.
            prop_assert_eq!(pos.to_string().parse::<Position>(), Ok(pos));
        }
        if let Ok(m) = text.parse::<Move>() {
            prop_assert_eq!(m.to_string().parse::<Move>(), Ok(m));
        }
    }

    #[test]
    fn near_miss_position_strings_never_panic(
        rows in prop::collection::vec("[0-9#@]{0,8}", 0..28),
        side in "[OXox ]{0,2}",
        ball in "[A-Za-z]?[0-9]{0,3}",
    ) {
        let text = format!("{} {} {}", rows.join("/"), side, ball);
        let _ = text.parse::<Position>();
        let _ = format!("start {text}\nH9\n").parse::<Game>();
    }

    #[test]
    fn arbitrary_moves_never_panic(
        pos in random::position(),
        points in prop::collection::vec((0u8..25, 0u8..27), 0..5),
    ) {
        let points: Vec<Point> = points.iter().map(|&(c, r)| Point::new(c, r).unwrap()).collect();
        let m = if points.len() == 1 { Move::Place(points[0]) } else { Move::Jump(points.clone()) };
        if let Ok(after) = pos.play(&m) {
            prop_assert_eq!(after.to_move(), pos.to_move().opponent());
        }
        for &p in &points {
            let _ = pos.apply_jump(p);
        }
        let mut game = Game::new(pos);
        let before = game.clone();
        if game.push(m).is_err() {
            prop_assert_eq!(game, before);
        }
    }
}

proptest! {
    /// Any start point on any board size: the rules are refused, or the start
    /// position and its mirror images exist.
    #[test]
    fn any_start_point_is_refused_or_mirrors(
        cols in 1u8..=25,
        rows in 3u8..=25,
        col in 0u8..25,
        row in 0u8..=26,
    ) {
        let size = BoardSize::new(cols, rows).unwrap();
        let rules = Rules { start: Point::new(col, row), ..Rules::default() };
        if let Ok(pos) = Position::start_with(size, rules) {
            prop_assert_eq!(pos.mirror_columns().mirror_columns(), pos);
            prop_assert_eq!(pos.flip_rows().flip_rows(), pos);
        }
        if let Ok(pos) = Position::standard().with_rules(rules) {
            prop_assert_eq!(pos.mirror_columns().mirror_columns(), pos);
            prop_assert_eq!(pos.flip_rows().flip_rows(), pos);
        }
    }
}
