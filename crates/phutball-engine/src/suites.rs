//! Tactical test positions generated from random ones, judged by the core's
//! can-score search: "win now" (the side to move can score) and "defend"
//! (the opponent threatens to score and only a few moves stop every threat).
//!
//! Behind the `test-support` feature: for the engine's own tests, examples
//! and measurements, so it may change without notice.

use phutball::{Bitboard, BoardSize, Budget, Move, Point, Position, Rules, Side};

use crate::candidates::{all_moves, blocking_moves};
use crate::caps::ROOT_JUMPS;
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

/// Every legal move of `pos`, from the core's full list (the judges below
/// share no code with the engine's candidates); `None` when the core's
/// default memory limit stops the list, which the judges read as "not
/// shown": no win proved, no saving move found.
fn every_move(pos: &Position) -> Option<Vec<Move>> {
    pos.legal_moves().ok()
}

/// Whether `m` wins in three plies in `pos`, judged by the core's full move
/// list and can-score alone: the side to move cannot score now, `m` neither
/// ends the game nor lets the opponent score, and after every reply of the
/// opponent (all its placements and jump outcomes) the reply was an own
/// goal or the side to move can score.
pub fn wins_in_three(pos: &Position, m: &Move) -> bool {
    let me = pos.to_move();
    let Ok(after) = pos.play(m) else {
        return false;
    };
    // A threat first (one can-score): most moves are none.
    if pos.can_score() || after.is_finished() || !after.end_turn().can_score() || after.can_score()
    {
        return false;
    }
    every_reply_loses(&after, me, Position::can_score)
}

/// Whether every reply in `after` (all the moves of the core's list) is an
/// own goal, that is a goal for `me`, or leaves a position that is `won`
/// for `me`, who is to move again.
fn every_reply_loses(after: &Position, me: Side, won: impl Fn(&Position) -> bool) -> bool {
    every_move(after).is_some_and(|replies| {
        replies.iter().all(|reply| {
            after.play(reply).is_ok_and(|next| match next.winner() {
                Some(winner) => winner == me,
                None => won(&next),
            })
        })
    })
}

/// Whether the side to move has a move that wins in three plies
/// ([`wins_in_three`], tried on every legal move).
pub fn has_win_in_three(pos: &Position) -> bool {
    !pos.is_finished()
        && every_move(pos).is_some_and(|moves| moves.iter().any(|m| wins_in_three(pos, m)))
}

/// Whether `m` loses within three plies: it is not safe ([`is_safe`]: the
/// opponent scores next move, or it is an own goal), or the opponent then
/// has a move that wins in three ([`has_win_in_three`]).
pub fn loses_within_three(pos: &Position, m: &Move) -> bool {
    !is_safe(pos, m) || pos.play(m).is_ok_and(|after| has_win_in_three(&after))
}

/// Whether `m` wins within five plies by force in `pos`, judged by the
/// core's full move list and can-score alone: `m` neither ends the game nor
/// lets the opponent score, and after every reply of the opponent (all its
/// placements and jump outcomes) the reply was an own goal, or the side to
/// move can score, or it has a move that wins in three plies
/// ([`has_win_in_three`]).
pub fn wins_within_five(pos: &Position, m: &Move) -> bool {
    let me = pos.to_move();
    let Ok(after) = pos.play(m) else {
        return false;
    };
    if after.is_finished() || after.can_score() {
        return false;
    }
    every_reply_loses(&after, me, |next| {
        next.can_score() || has_win_in_three(next)
    })
}

/// The placements of `pos` after which its side to move could score if it
/// moved again (every vacant point tried with a can-score).
pub fn threat_placements_by_trial(pos: &Position) -> Vec<Point> {
    pos.placement_points()
        .iter()
        .filter(|&p| {
            pos.play(&Move::Place(p))
                .is_ok_and(|after| !after.is_finished() && after.end_turn().can_score())
        })
        .collect()
}

/// Random positions (seeded) in which neither side could score at once, the
/// side to move has no win in three plies, and it has a threat placement
/// that wins within five plies by force ([`wins_within_five`]): the wins in
/// five that a threat-space search finds.
pub fn win_in_five_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let pos = near_goal_position(&mut rng, 20, false);
        if pos.is_finished() || pos.can_score() || pos.end_turn().can_score() {
            continue;
        }
        let threats = threat_placements_by_trial(&pos);
        if threats.is_empty() || has_win_in_three(&pos) {
            continue;
        }
        if threats
            .iter()
            .any(|&p| wins_within_five(&pos, &Move::Place(p)))
        {
            out.push(pos);
        }
    }
    out
}

/// A random position with a few men (`4..4 + max_men`) around the ball,
/// the side to move chosen so that the ball is within seven rows of the
/// goal it attacks (or defends: `near_own_goal`) when it is near a goal.
fn near_goal_position(rng: &mut SplitMix64, max_men: usize, near_own_goal: bool) -> Position {
    let side = rng.side();
    let men = 4 + rng.below(max_men);
    let pos = random_position(rng, men, 4, side);
    let rows = i32::from(pos.size().rows());
    let ball_row = i32::from(pos.ball().row());
    let attacks_top = (side == Side::Ohs) != near_own_goal;
    let to_goal = if attacks_top {
        rows - ball_row
    } else {
        ball_row - 1
    };
    if (1..=7).contains(&to_goal) {
        pos
    } else {
        // The other side to move: the ball is then near the goal it
        // attacks (or defends) if it was near the other one.
        pos.end_turn()
    }
}

/// Random positions (seeded) with a win in three plies for the side to
/// move and no win in one (judged by [`wins_in_three`] on every legal move).
pub fn win_in_three_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let pos = near_goal_position(&mut rng, 20, false);
        if !pos.is_finished() && !pos.end_turn().can_score() && has_win_in_three(&pos) {
            out.push(pos);
        }
    }
    out
}

/// Random positions (seeded) in which the opponent, were it to move, would
/// have a win in three plies, the side to move cannot score, and some move
/// does not lose within three plies ([`loses_within_three`]): most moves
/// lose, a few do not.
pub fn lose_in_three_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let pos = near_goal_position(&mut rng, 20, true);
        if pos.is_finished() || pos.can_score() || pos.end_turn().can_score() {
            continue;
        }
        if !has_win_in_three(&pos.end_turn()) {
            continue;
        }
        let saved = every_move(&pos)
            .is_some_and(|moves| moves.iter().any(|m| !loses_within_three(&pos, m)));
        if saved {
            out.push(pos);
        }
    }
    out
}
