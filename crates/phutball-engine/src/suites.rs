//! Tactical test positions generated from random ones, judged by the core's
//! can-score search: "win now" (the side to move can score) and "defend"
//! (the opponent threatens to score and only a few moves stop every threat).
//!
//! Hidden from the docs: public only for the engine's own tests, examples
//! and measurements, so it may change without notice.

use phutball::{Bitboard, BoardSize, Budget, Position, Rules, Side};

use crate::candidates::{all_moves, blocking_moves, ROOT_JUMPS};
use crate::safety::is_safe;
use phutball::SplitMix64;

/// A random standard-board position: the ball somewhere in play and `men`
/// men scattered around it (within `spread` points), `to_move` to move.
pub fn random_position(rng: &mut SplitMix64, men: usize, spread: i32, to_move: Side) -> Position {
    let size = BoardSize::STANDARD;
    let col = rng.below(size.cols() as usize) as i32;
    let row = 2 + rng.below(size.rows() as usize - 2) as i32;
    let ball = phutball::Point::new(col as u8, row as u8).unwrap_or(size.centre());
    let mut placed = Bitboard::EMPTY;
    let mut tries = 0;
    while (placed.count() as usize) < men && tries < men * 20 {
        tries += 1;
        let d_col = rng.below(2 * spread as usize + 1) as i32 - spread;
        let d_row = rng.below(2 * spread as usize + 1) as i32 - spread;
        if let Some(p) = ball.offset(d_col, d_row) {
            if size.is_on_board(p) && p != ball {
                placed.insert(p);
            }
        }
    }
    Position::from_parts(size, Rules::default(), placed, ball, to_move)
        .unwrap_or_else(|_| Position::standard())
}

/// Random positions (seeded) in which the side to move can score.
pub fn win_now_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let side = rng.side();
        let men = 10 + rng.below(50);
        let pos = random_position(&mut rng, men, 5, side);
        if !pos.is_finished() && pos.can_score() {
            out.push(pos);
        }
    }
    out
}

/// Random positions (seeded) in which the side to move cannot score, the
/// opponent could score next move, and between 1 and `max_defences` moves
/// stop every such threat.
pub fn defend_positions(seed: u64, count: usize, max_defences: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let side = rng.side();
        let men = 10 + rng.below(40);
        let pos = random_position(&mut rng, men, 5, side);
        if pos.is_finished() || pos.can_score() || !pos.end_turn().can_score() {
            continue;
        }
        // Only jumps and placements on a threat's landing points can stop
        // it, so counting the safe ones among those counts them all.
        let Some(threat) = pos.end_turn().scoring_jump() else {
            continue;
        };
        let defences = blocking_moves(&pos, &threat, ROOT_JUMPS, &Budget::default())
            .iter()
            .filter(|m| is_safe(&pos, m))
            .count();
        if (1..=max_defences).contains(&defences) {
            out.push(pos);
        }
    }
    out
}

/// Random positions (seeded) in which the side to move has an own-goal jump
/// and at least one other move.
pub fn own_goal_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let side = rng.side();
        let men = 10 + rng.below(40);
        let pos = random_position(&mut rng, men, 4, side);
        if pos.is_finished() {
            continue;
        }
        // Own goals are the opponent's goals: can it score if it were to move?
        if pos.end_turn().can_score() {
            let own_goal_exists = all_moves(&pos, &Budget::default()).iter().any(|m| {
                pos.play(m)
                    .is_ok_and(|after| after.winner() == Some(side.opponent()))
            });
            if own_goal_exists {
                out.push(pos);
            }
        }
    }
    out
}
