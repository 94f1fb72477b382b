//! `SmallBoard` against the core's own moves: on random positions of random
//! boards of at most 64 points, under both off-board rules, its children
//! are exactly the positions `legal_moves_within` + `play` give, its
//! parents are exactly the positions that have it among their children,
//! and its flip, encoding and decoding agree with `Position`'s.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use phutball::{Bitboard, BoardSize, Budget, Point, Position, Rules, Side};
use phutball_solver::{SmallBoard, SmallPosition, SmallScratch};
use proptest::prelude::*;

/// A random position of a random board of at most `max_points` points:
/// any density of men, the ball on any point or strip (finished positions
/// included), either side to move, either off-board rule.
fn position(max_points: u32) -> impl Strategy<Value = Position> {
    let most_cols = (max_points / 3).min(8) as u8;
    (1u8..=most_cols)
        .prop_flat_map(move |cols| {
            let most_rows = (max_points / u32::from(cols)).min(16) as u8;
            (Just(cols), 3u8..=most_rows)
        })
        .prop_flat_map(|(cols, rows)| {
            let cells = usize::from(cols) * usize::from(rows + 2);
            (
                Just((cols, rows)),
                0.0f64..=1.0,
                proptest::collection::vec(0.0f64..1.0, usize::from(cols) * usize::from(rows)),
                0..cells,
                any::<bool>(),
                any::<bool>(),
            )
        })
        .prop_map(
            |((cols, rows), density, draws, ball, eks, continue_off_board)| {
                let size = BoardSize::new(cols, rows).expect("a valid size");
                let ball = Point::new(ball as u8 % cols, ball as u8 / cols).expect("a point");
                let men: Bitboard = draws
                    .iter()
                    .enumerate()
                    .filter(|&(_, &draw)| draw < density)
                    .map(|(i, _)| Point::new(i as u8 % cols, i as u8 / cols + 1).expect("a point"))
                    .filter(|&p| p != ball)
                    .collect();
                let rules = Rules {
                    continue_off_board,
                    ..Rules::default()
                };
                let to_move = if eks { Side::Eks } else { Side::Ohs };
                Position::from_parts(size, rules, men, ball, to_move).expect("a valid position")
            },
        )
}

fn board_of(pos: &Position) -> SmallBoard {
    SmallBoard::new(pos.size(), pos.rules().continue_off_board).expect("at most 64 points")
}

/// The core's children of `pos`: every legal move played.
fn core_children(pos: &Position) -> Vec<Position> {
    pos.legal_moves_within(&Budget::unlimited())
        .expect("small boards have few moves")
        .iter()
        .map(|m| pos.play(m).expect("a legal move plays"))
        .collect()
}

/// `SmallBoard`'s children of `pos`, decoded.
fn small_children(board: &SmallBoard, pos: &Position) -> Vec<Position> {
    let small = board.encode(pos).expect("the board's own position");
    let mut children = Vec::new();
    let flow = board
        .for_each_child(small, &mut SmallScratch::default(), |child| {
            children.push(child);
            ControlFlow::Continue(())
        })
        .expect("under the scratch limit");
    assert!(flow.is_continue(), "nothing stopped the walk");
    children
        .into_iter()
        .map(|child| {
            board
                .decode(child, pos.to_move().opponent())
                .expect("a valid child")
        })
        .collect()
}

/// `SmallBoard`'s parents of `pos`, decoded (the other side to move).
fn small_parents(board: &SmallBoard, pos: &Position) -> Vec<Position> {
    let small = board.encode(pos).expect("the board's own position");
    let mut parents: Vec<SmallPosition> = Vec::new();
    let flow = board
        .for_each_parent(small, &mut SmallScratch::default(), |parent| {
            parents.push(parent);
            ControlFlow::Continue(())
        })
        .expect("under the scratch limit");
    assert!(flow.is_continue(), "nothing stopped the walk");
    parents
        .into_iter()
        .map(|parent| {
            board
                .decode(parent, pos.to_move().opponent())
                .expect("a valid parent")
        })
        .collect()
}

/// A position's text, which identifies it on its board (and sorts).
fn texts(positions: &[Position]) -> BTreeSet<String> {
    positions.iter().map(ToString::to_string).collect()
}

/// Whether `small`'s children are the core's children of `pos`.
fn check_children(pos: &Position) -> Result<(), TestCaseError> {
    let board = board_of(pos);
    let small = small_children(&board, pos);
    let core = core_children(pos);
    // Each child once: placements add a man, jumps remove men, and the
    // jumps are one per distinct outcome on both sides.
    prop_assert_eq!(texts(&small).len(), small.len(), "duplicates in {}", pos);
    prop_assert_eq!(small.len(), core.len(), "children of {}", pos);
    prop_assert_eq!(texts(&small), texts(&core), "children of {}", pos);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn children_are_the_cores_moves_played(pos in position(30)) {
        check_children(&pos)?;
    }
}

proptest! {
    // Up to 64 points: dense boards have many outcomes, so fewer cases.
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn children_agree_up_to_64_points(pos in position(64)) {
        check_children(&pos)?;
    }
}

proptest! {
    // Sparse positions have many parents, each checked with the core's
    // moves: boards of at most 20 points.
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn parents_are_the_positions_with_it_as_a_child(pos in position(20)) {
        let board = board_of(&pos);
        let parents = small_parents(&board, &pos);
        prop_assert_eq!(texts(&parents).len(), parents.len(), "duplicate parents of {}", pos);
        for parent in &parents {
            prop_assert!(!parent.is_finished(), "{} is over, yet a parent of {}", parent, pos);
            prop_assert!(
                core_children(parent).contains(&pos),
                "{} is no parent of {}", parent, pos
            );
        }
        // Completeness: pos is a parent of each of its children.
        for child in core_children(&pos) {
            prop_assert!(
                texts(&small_parents(&board, &child)).contains(&pos.to_string()),
                "{} is missing among the parents of its child {}", pos, child
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn flips_and_encodings_agree_with_positions(pos in position(64)) {
        let board = board_of(&pos);
        let small = board.encode(&pos).expect("the board's own position");
        prop_assert_eq!(board.decode(small, pos.to_move()), Some(pos));
        prop_assert_eq!(board.flip_rows(small), board.encode(&pos.flip_rows()).expect("same board"));
        prop_assert_eq!(board.flip_rows(board.flip_rows(small)), small);
        prop_assert_eq!(board.winner_at(small.ball), pos.winner());
        prop_assert_eq!(board.placements(small).count_ones(), pos.placement_points().count());
    }
}

#[test]
fn other_boards_and_rules_are_not_encoded() {
    let board = SmallBoard::new(BoardSize::new(3, 4).expect("a size"), false).expect("12 points");
    let other_size = Position::start_with(BoardSize::new(4, 3).expect("a size"), Rules::default())
        .expect("a start");
    assert_eq!(board.encode(&other_size), None);
    let other_rule = Position::start_with(
        BoardSize::new(3, 4).expect("a size"),
        Rules {
            continue_off_board: true,
            ..Rules::default()
        },
    )
    .expect("a start");
    assert_eq!(board.encode(&other_rule), None);
    // A man off the board, a ball outside it, a ball on a man: no position.
    let bad = [
        SmallPosition {
            ball: 4,
            men: 1 << 12,
        },
        SmallPosition { ball: 18, men: 0 },
        SmallPosition {
            ball: 4,
            men: 1 << 1,
        },
    ];
    for small in bad {
        assert_eq!(board.decode(small, Side::Ohs), None, "{small:?}");
    }
}
