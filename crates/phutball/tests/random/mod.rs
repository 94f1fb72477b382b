//! Random positions and move candidates for the proptests, as boards of the
//! naive model (`reference`) and as core positions.
//!
//! Sizes run from 1x3 to 25x25 with extra weight on 1-column boards, small
//! boards and the standard 15x19; men are scattered at 0-60% density in a
//! window around the ball. The naive model must finish quickly, so at most
//! [`MAX_MEN`] men (those nearest the ball) are kept, and men are dropped,
//! farthest first, until the position has at most [`MAX_PATHS`] jump paths.

// Each integration test crate includes this module and uses only part of it.
#![allow(dead_code)]

use core::ops::ControlFlow;
use std::collections::BTreeSet;

use phutball::{Move, Position, Rules, Side};
use proptest::prelude::*;
use proptest::sample::Index;

use crate::reference::{move_name, Board, Player, Pt};

/// The most men a random position keeps.
pub const MAX_MEN: usize = 22;
/// The most jump paths a random position keeps.
pub const MAX_PATHS: u64 = 3000;

/// Board sizes (columns, rows), with the interesting ones weighted up.
pub fn board_size() -> impl Strategy<Value = (i32, i32)> {
    prop_oneof![
        1 => Just((15, 19)),
        1 => (3i32..=25).prop_map(|rows| (1, rows)),
        2 => (1i32..=6, 3i32..=6),
        2 => (1i32..=25, 3i32..=25),
        1 => Just((25, 25)),
    ]
}

/// A random position of the naive model (either off-board rule).
pub fn board() -> impl Strategy<Value = Board> {
    (
        board_size(),
        0u32..=60,
        1i32..=7,
        any::<bool>(),
        any::<bool>(),
        0u32..12,
    )
        .prop_flat_map(
            |((cols, rows), density, radius, ohs, continue_off_board, ball_mode)| {
                // Mostly a game in progress; sometimes a finished one (ball on
                // or over a goal line), which must have no moves.
                let ball_rows = if ball_mode == 0 {
                    0..=rows + 1
                } else {
                    2..=rows - 1
                };
                (
                    Just((cols, rows, density, radius, ohs, continue_off_board)),
                    0..cols,
                    ball_rows,
                    prop::collection::vec(0u32..100, (cols * rows) as usize),
                )
            },
        )
        .prop_map(
            |(
                (cols, rows, density, radius, ohs, continue_off_board),
                ball_col,
                ball_row,
                rolls,
            )| {
                let ball = (ball_col, ball_row);
                let distance = |p: Pt| (p.0 - ball.0).abs().max((p.1 - ball.1).abs());
                let mut men: Vec<Pt> = Vec::new();
                for col in 0..cols {
                    for row in 1..=rows {
                        let p = (col, row);
                        let roll = rolls[(col * rows + row - 1) as usize];
                        if p != ball && distance(p) <= radius && roll < density {
                            men.push(p);
                        }
                    }
                }
                men.sort_by_key(|&p| (distance(p), p));
                men.truncate(MAX_MEN);
                let mut board = Board {
                    cols,
                    rows,
                    men: men.iter().copied().collect(),
                    ball,
                    to_move: if ohs { Player::Ohs } else { Player::Eks },
                    continue_off_board,
                };
                while count_paths_up_to(&core_position(&board), MAX_PATHS + 1) > MAX_PATHS {
                    let farthest = men.pop().expect("a position without men has no paths");
                    board.men.remove(&farthest);
                }
                board
            },
        )
}

/// A random board and a candidate move for it: a legal jump path (possibly
/// spoiled: cut, extended, bent or restarted), a random path, or a placement
/// anywhere in or just around the board. Many candidates are illegal.
pub fn board_and_move() -> impl Strategy<Value = (Board, Vec<Pt>)> {
    (
        board(),
        0u32..6,
        any::<Index>(),
        prop::collection::vec((0i32..27, 0i32..28), 1..5),
    )
        .prop_map(|(board, kind, pick, randoms)| {
            let paths = board.paths();
            let nearby: Vec<Pt> = randoms
                .iter()
                .map(|&(c, r)| (c % (board.cols + 1).min(25), r % (board.rows + 3).min(27)))
                .collect();
            let candidate = match kind {
                0 => vec![nearby[0]],
                1 => {
                    let mut path = vec![board.ball];
                    path.extend(&nearby);
                    path
                }
                _ if paths.is_empty() => vec![nearby[0]],
                2 => paths[pick.index(paths.len())].clone(),
                3 => {
                    let mut path = paths[pick.index(paths.len())].clone();
                    path.push(nearby[0]);
                    path
                }
                4 => {
                    let mut path = paths[pick.index(paths.len())].clone();
                    let last = path.len() - 1;
                    path[pick.index(last) + 1] = nearby[0];
                    path
                }
                _ => {
                    let mut path = paths[pick.index(paths.len())].clone();
                    path[0] = nearby[0];
                    path
                }
            };
            (board, candidate)
        })
}

/// A random core position.
pub fn position() -> impl Strategy<Value = Position> {
    board().prop_map(|board| core_position(&board))
}

/// The rules of a naive board.
pub fn rules_of(board: &Board) -> Rules {
    Rules {
        continue_off_board: board.continue_off_board,
        ..Rules::default()
    }
}

/// The core position of a naive board, through the position string the naive
/// model writes.
pub fn core_position(board: &Board) -> Position {
    let text = board.position_string();
    Position::parse_with_rules(&text, rules_of(board))
        .unwrap_or_else(|e| panic!("the core rejects {text:?}: {e}"))
}

/// The naive board of a core position.
pub fn reference_board(pos: &Position) -> Board {
    Board {
        cols: i32::from(pos.size().cols()),
        rows: i32::from(pos.size().rows()),
        men: pos.men().iter().map(reference_point).collect(),
        ball: reference_point(pos.ball()),
        to_move: player(pos.to_move()),
        continue_off_board: pos.rules().continue_off_board,
    }
}

/// A core point in the naive model.
pub fn reference_point(p: phutball::Point) -> Pt {
    (i32::from(p.col()), i32::from(p.row()))
}

/// The points of a core move in the naive model.
pub fn reference_points(m: &Move) -> Vec<Pt> {
    m.path().iter().map(|&p| reference_point(p)).collect()
}

/// The naive player for a core side.
pub fn player(side: Side) -> Player {
    match side {
        Side::Ohs => Player::Ohs,
        Side::Eks => Player::Eks,
    }
}

/// A naive move as a core move, through notation.
pub fn core_move(points: &[Pt]) -> Move {
    let text = move_name(points);
    text.parse()
        .unwrap_or_else(|e| panic!("the core rejects move {text:?}: {e}"))
}

/// The core's jump paths as notation strings.
pub fn path_names(pos: &Position) -> Vec<String> {
    pos.jump_paths()
        .unwrap()
        .iter()
        .map(Move::to_string)
        .collect()
}

/// The same strings as a set.
pub fn path_name_set(pos: &Position) -> BTreeSet<String> {
    path_names(pos).into_iter().collect()
}

/// The number of jump paths, counting no further than `limit`.
pub fn count_paths_up_to(pos: &Position, limit: u64) -> u64 {
    let mut n = 0;
    let _ = pos.for_each_jump_path(|_| {
        n += 1;
        if n >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    n
}
