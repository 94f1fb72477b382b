//! The worked examples of `docs/rules.md`, each built from its points (not
//! from a position string) and checked against the figures the rules give.

use std::collections::BTreeSet;

use phutball::{BoardSize, IllegalMoveError, Move, Point, Position, Rules, Side};

fn point(text: &str) -> Point {
    text.parse().unwrap()
}

/// A standard-board position with the ball and men on the named points.
fn standard(ball: &str, men: &[&str], to_move: Side) -> Position {
    standard_with(ball, men, to_move, Rules::default())
}

fn standard_with(ball: &str, men: &[&str], to_move: Side, rules: Rules) -> Position {
    let men = men.iter().map(|m| point(m)).collect();
    Position::from_parts(BoardSize::STANDARD, rules, men, point(ball), to_move).unwrap()
}

fn jump(text: &str) -> Move {
    text.parse().unwrap()
}

fn path_set(pos: &Position) -> BTreeSet<String> {
    pos.jump_paths()
        .unwrap()
        .iter()
        .map(Move::to_string)
        .collect()
}

fn names(texts: &[&str]) -> BTreeSet<String> {
    texts.iter().map(|t| (*t).to_string()).collect()
}

#[test]
fn the_seeds_jump_has_exactly_three_moves() {
    let pos = standard("K6", &["J7", "H8", "G10", "H11"], Side::Ohs);
    assert_eq!(
        path_set(&pos),
        names(&["K6-G9", "K6-G9-G11", "K6-G9-G11-J11"])
    );
    assert_eq!(pos.count_jump_paths(), 3);
    assert_eq!(pos.count_jump_outcomes(), Ok(3));
    assert_eq!(pos.count_legal_moves(), Ok(15 * 19 - 4 - 1 + 3));
}

#[test]
fn the_seeds_jump_removes_all_four_men() {
    let pos = standard("K6", &["J7", "H8", "G10", "H11"], Side::Ohs);
    let after = pos.play(&jump("K6-G9-G11-J11")).unwrap();
    assert!(after.men().is_empty());
    assert_eq!(after.ball(), point("J11"));
    assert_eq!(after.to_move(), Side::Eks);
    assert_eq!(after.winner(), None);
    // The first jump alone passes over both J7 and H8.
    let first = pos.play(&jump("K6-G9")).unwrap();
    let left: BTreeSet<String> = first.men().iter().map(|p| p.to_string()).collect();
    assert_eq!(left, names(&["G10", "H11"]));
}

#[test]
fn jumping_h8_twice_is_illegal() {
    let pos = standard("K6", &["J7", "H8", "G10", "H11"], Side::Ohs);
    let m = jump("K6-G9-J9-G7");
    assert!(!pos.is_legal(&m));
    // After K6-G9, H9 between G9 and J9 holds no man.
    assert_eq!(
        pos.play(&m),
        Err(IllegalMoveError::Gap {
            from: point("G9"),
            to: point("J9"),
            gap: point("H9")
        })
    );
}

#[test]
fn the_start_has_284_moves_all_placements() {
    let start = Position::standard();
    assert_eq!(
        start.to_string(),
        "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O"
    );
    assert_eq!(start.ball(), point("H10"));
    let moves = start.legal_moves().unwrap();
    assert_eq!(moves.len(), 284);
    assert!(moves.iter().all(|m| matches!(m, Move::Place(_))));
    assert_eq!(start.count_legal_moves(), Ok(284));
    assert!(start.jump_paths().unwrap().is_empty());
}

#[test]
fn one_jump_removes_a_line_of_two_men() {
    let pos = standard("H10", &["H9", "H8"], Side::Ohs);
    assert_eq!(path_set(&pos), names(&["H10-H7"]));
    let after = pos.play(&jump("H10-H7")).unwrap();
    assert!(after.men().is_empty());
    assert_eq!(after.ball(), point("H7"));
    // The ball cannot stop on the first vacant point's neighbour in the line.
    assert!(pos.play(&jump("H10-H8")).is_err());
}

#[test]
fn a_line_of_men_to_the_side_edge_blocks_the_jump() {
    let pos = standard("M10", &["N10", "O10", "P10"], Side::Ohs);
    assert!(pos.single_jumps().is_empty());
    assert!(pos.jump_paths().unwrap().is_empty());
    // Q is not a column of the standard board.
    assert!(matches!(
        pos.play(&jump("M10-Q10")),
        Err(IllegalMoveError::Outside { .. })
    ));
}

#[test]
fn jumping_over_the_top_goal_line_wins_for_ohs_whoever_moved() {
    for mover in Side::ALL {
        let pos = standard("N18", &["O19"], mover);
        assert_eq!(path_set(&pos), names(&["N18-P20"]));
        let after = pos.play(&jump("N18-P20")).unwrap();
        assert_eq!(after.winner(), Some(Side::Ohs), "{mover:?} moved");
        assert!(after.is_finished());
        assert_eq!(after.legal_moves(), Ok(vec![]));
        assert_eq!(
            after.play(&jump("A1")),
            Err(IllegalMoveError::GameOver { winner: Side::Ohs })
        );
        assert_eq!(pos.can_score(), mover == Side::Ohs);
    }
}

#[test]
fn no_jump_past_the_corner() {
    let pos = standard("O18", &["P19"], Side::Ohs);
    assert!(pos.jump_paths().unwrap().is_empty());
    assert!(!pos.can_score());
}

#[test]
fn an_own_goal_loses() {
    let pos = standard("H3", &["H2"], Side::Ohs);
    assert_eq!(path_set(&pos), names(&["H3-H1"]));
    let after = pos.play(&jump("H3-H1")).unwrap();
    assert_eq!(after.winner(), Some(Side::Eks));
    // Ohs cannot score here, and the own goal is not a score for Ohs.
    assert!(!pos.can_score());
    assert_eq!(pos.scoring_jump(), None);
}

#[test]
fn by_default_the_move_ends_off_the_board() {
    // G18 over H19 lands on J20; with the option the ball may come back over J19.
    let men = ["H19", "J19"];
    let pos = standard("G18", &men, Side::Eks);
    assert_eq!(path_set(&pos), names(&["G18-J20"]));
    assert!(matches!(
        pos.play(&jump("G18-J20-J18")),
        Err(IllegalMoveError::AfterOffBoard(_))
    ));

    let rules = Rules {
        continue_off_board: true,
        ..Rules::default()
    };
    let pos = standard_with("G18", &men, Side::Eks, rules);
    assert_eq!(path_set(&pos), names(&["G18-J20", "G18-J20-J18"]));
    // Passing over the goal line and ending elsewhere scores nothing.
    let after = pos.play(&jump("G18-J20-J18")).unwrap();
    assert_eq!(after.winner(), None);
    assert!(after.men().is_empty());
}

#[test]
fn one_dimensional_phutball() {
    let size = BoardSize::new(1, 5).unwrap();
    let start = Position::start_with(size, Rules::default()).unwrap();
    assert_eq!(start.ball(), point("A3"));
    assert_eq!(start.to_string(), "1/1/@/1/1 O");
    assert_eq!(start.count_legal_moves(), Ok(4));
    let after = start
        .play(&jump("A4"))
        .and_then(|p| p.play(&jump("A5")))
        .unwrap();
    assert_eq!(path_set(&after), names(&["A3-A6"]));
    assert_eq!(
        after.play(&jump("A3-A6")).unwrap().winner(),
        Some(Side::Ohs)
    );
}

/// `docs/rules.md`: the ball starts on column (C+1)/2 and row (R+1)/2, both
/// rounded up.
#[test]
fn the_centre_rounds_up() {
    let cases = [
        ((15, 19), "H10"),
        ((19, 19), "K10"),
        ((1, 3), "A2"),
        ((3, 4), "B3"),
        ((4, 4), "C3"),
        ((2, 3), "B2"),
        ((24, 24), "N13"),
    ];
    for ((cols, rows), centre) in cases {
        let size = BoardSize::new(cols, rows).unwrap();
        assert_eq!(size.centre(), point(centre), "{cols}x{rows}");
    }
}
