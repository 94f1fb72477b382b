//! Which moves the search looks at.
//!
//! A standard board has some 280 placements, nearly all of them irrelevant to
//! the next few moves. The search therefore looks at:
//!
//! - every jump outcome (up to a bound), since jumps are what changes the game;
//! - placements near the ball (within two points), where new jumps appear;
//! - placements along the ball's eight lines: up to three points out, and the
//!   first vacant point behind a chain of men (it lengthens the chain);
//! - when the opponent threatens to score, only the moves that can stop that
//!   threat: the jumps, and the placements on the landing points of one
//!   scoring path. A placement changes a path only if it stands on one of its
//!   landing points, so any move that stops every threat is among these.
//!
//! The full move list is used at the root (to filter out moves that lose at
//! once) and as a last resort when the candidates are empty.

use core::ops::ControlFlow;

use phutball::{Budget, Direction, Move, Point, Position};

use crate::caps::{INNER_JUMPS, MOVE_OUTCOME_WORK, ROOT_JUMPS};

/// How far along the ball's lines placements are always considered.
const LINE_REACH: i32 = 3;

/// Up to `cap` jump moves, one per distinct outcome, found within `budget`
/// (its cancel flag and interrupt hook; the work is capped here at
/// [`MOVE_OUTCOME_WORK`] distinct outcomes, or `cap` if larger). A search that
/// stops early, for whatever reason, still gives the moves it found.
pub(crate) fn jump_moves(pos: &Position, cap: usize, budget: &Budget<'_>) -> Vec<Move> {
    let mut out = Vec::new();
    if cap == 0 {
        return out;
    }
    let work = MOVE_OUTCOME_WORK.max(cap as u64);
    let budget = budget.with_work_limit(budget.work_limit().min(work));
    let _ = pos.for_each_jump_outcome_within(&budget, |path: &[Point]| {
        out.push(Move::Jump(path.to_vec()));
        if out.len() >= cap {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    out
}

/// Every placement and up to [`ROOT_JUMPS`] jump moves (found within `budget`).
pub(crate) fn all_moves(pos: &Position, budget: &Budget<'_>) -> Vec<Move> {
    let mut moves = pos.placements();
    moves.extend(jump_moves(pos, ROOT_JUMPS, budget));
    moves
}

/// The moves that might stop the scoring jump `threat` the opponent would
/// have if it moved now: the jumps (found within `budget`) and the
/// placements on its landing points.
pub(crate) fn blocking_moves(
    pos: &Position,
    threat: &Move,
    jump_cap: usize,
    budget: &Budget<'_>,
) -> Vec<Move> {
    let vacant = pos.placement_points();
    let mut moves: Vec<Move> = threat
        .path()
        .iter()
        .skip(1)
        .filter(|&&p| vacant.contains(p))
        .map(|&p| Move::Place(p))
        .collect();
    moves.extend(jump_moves(pos, jump_cap, budget));
    moves
}

/// The moves worth searching in a quiet position: the jumps (found within
/// `budget`), and the placements near the ball and along its lines.
pub(crate) fn quiet_moves(pos: &Position, budget: &Budget<'_>) -> Vec<Move> {
    let mut moves: Vec<Move> = nearby_placements(pos)
        .into_iter()
        .map(Move::Place)
        .collect();
    moves.extend(jump_moves(pos, INNER_JUMPS, budget));
    moves
}

/// Vacant points near the ball and along its lines, without repeats.
pub(crate) fn nearby_placements(pos: &Position) -> Vec<Point> {
    let vacant = pos.placement_points();
    let ball = pos.ball();
    let mut chosen = phutball::Bitboard::EMPTY;
    let mut out = Vec::with_capacity(40);
    let mut take = |p: Point, out: &mut Vec<Point>| {
        if vacant.contains(p) && !chosen.contains(p) {
            chosen.insert(p);
            out.push(p);
        }
    };
    for d_row in -2..=2 {
        for d_col in -2..=2 {
            if let Some(p) = ball.offset(d_col, d_row) {
                if pos.size().contains(p) {
                    take(p, &mut out);
                }
            }
        }
    }
    for direction in Direction::ALL {
        // `distance` steps from the ball; stop at the first vacant point
        // at least LINE_REACH away.
        let mut distance = 1;
        let mut next = ball.step(direction);
        while let Some(p) = next.filter(|&p| pos.size().is_on_board(p)) {
            if !pos.has_man(p) {
                take(p, &mut out);
                if distance >= LINE_REACH {
                    break;
                }
            }
            distance += 1;
            next = p.step(direction);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_offers_the_points_around_the_ball() {
        let pos = Position::standard();
        let points = nearby_placements(&pos);
        // 24 points within two, plus the third point on each of the 8 lines.
        assert_eq!(points.len(), 32);
        assert!(points.contains(&"H13".parse().unwrap()));
        assert!(!points.contains(&"H14".parse().unwrap()));
        assert!(!points.contains(&pos.ball()));
    }

    #[test]
    fn the_end_of_a_chain_is_offered() {
        // Ball H10, men H11..H15: H16 lengthens the chain.
        let pos: Position = "15/15/15/15/7#7/7#7/7#7/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15 X"
            .parse()
            .unwrap();
        assert!(nearby_placements(&pos).contains(&"H16".parse().unwrap()));
    }

    #[test]
    fn blocking_moves_are_the_landing_points_and_the_jumps() {
        // Ohs threatens H10-H12-H14-...; here a short board: ball H3 on a 15x5
        // board with men H4, Eks to move: Ohs would jump H3-H5 (its goal row).
        let pos: Position = "15/7#7/7@7/15/15 X".parse().unwrap();
        let threat = pos.end_turn().scoring_jump().unwrap();
        let moves = blocking_moves(&pos, &threat, 64, &Budget::default());
        let text: Vec<String> = moves.iter().map(Move::to_string).collect();
        assert_eq!(text, ["H5", "H3-H5"]);
    }
}
