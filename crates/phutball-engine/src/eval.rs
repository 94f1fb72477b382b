//! The static evaluation, from the side to move's point of view, in hundredths
//! of a row (one row of ball progress is worth 100).
//!
//! It is called only where the side to move cannot score at once (the search
//! has asked the core's can-score search first), so it judges quiet positions:
//!
//! - **ball progress**: how far the ball stands towards the mover's goal,
//!   measured from the centre row;
//! - **the mover's jump threat**: the best row progress one jump move of the
//!   mover reaches (three quarters of it counts: it is the mover's to take,
//!   but taking it spends the move and removes the men used);
//! - **the opponent's jump threat**: the same for the opponent were it to move
//!   now (half counts: the mover can often spoil it first).
//!
//! The men near the ball enter through the two jump threats: a chain of men
//! leading towards a goal is worth what the ball can gain along it, which is
//! the part of the men's structure that matters in Phutball; men far from
//! any line of the ball do not move the value at all.

use core::ops::ControlFlow;

use phutball::{Budget, Point, Position, Side};

use crate::caps::{EVAL_JUMP_OUTCOMES, EVAL_OUTCOME_WORK};

/// One row of ball progress.
pub(crate) const ROW: i32 = 100;
/// A jump threat counts for at most this much: a threat to score is worth
/// no more than a long jump, since the search has already seen whether it
/// can be stopped.
const MAX_COUNTED_GAIN: i32 = 4 * ROW;

/// Progress of a ball on `row` for `side`: rows from the centre towards the
/// side's goal, in hundredths of a row (negative: towards its own goal).
pub(crate) fn progress(pos: &Position, side: Side, row: u8) -> i32 {
    // Twice the distance from the centre, so that even row counts stay exact.
    let twice = 2 * i32::from(row) - (i32::from(pos.size().rows()) + 1);
    let ohs = twice * ROW / 2;
    match side {
        Side::Ohs => ohs,
        Side::Eks => -ohs,
    }
}

/// The best progress after one jump move of `pos`'s ball (or of standing
/// still) for the side to move and for its opponent were it to move now, in
/// that order, looking at the outcomes found within `budget` (and at most
/// [`EVAL_OUTCOME_WORK`] of them). The jumps do not depend on who moves, so one
/// enumeration serves both sides.
pub(crate) fn best_jump_progress(pos: &Position, budget: &Budget<'_>) -> (i32, i32) {
    let me = pos.to_move();
    let ball_row = pos.ball().row();
    let (mut mine, mut theirs) = (
        progress(pos, me, ball_row),
        progress(pos, me.opponent(), ball_row),
    );
    let mut looked_at = 0;
    let budget = budget.with_work_limit(budget.work_limit().min(EVAL_OUTCOME_WORK));
    // A search that stops early (its work bound, the clock) still reported
    // every outcome it visited, which is all this needs.
    let _ = pos.for_each_jump_outcome_within(&budget, |path: &[Point]| {
        if let Some(last) = path.last() {
            mine = mine.max(progress(pos, me, last.row()));
            theirs = theirs.max(progress(pos, me.opponent(), last.row()));
        }
        looked_at += 1;
        if looked_at >= EVAL_JUMP_OUTCOMES {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    (mine, theirs)
}

/// The three terms of the evaluation of a position, from its side to
/// move's point of view, in hundredths of a row: what the hand evaluation
/// weighs ([`Terms::hand_value`]) and the learned one's dense inputs
/// (`crate::net`, docs/network.md).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Terms {
    /// The ball's progress from the centre towards the mover's goal.
    pub(crate) here: i32,
    /// The progress the mover's best jump adds, capped at
    /// [`MAX_COUNTED_GAIN`].
    pub(crate) my_gain: i32,
    /// The same for the opponent were it to move now (capped).
    pub(crate) their_gain: i32,
}

impl Terms {
    /// The hand evaluation: the ball's progress, plus three quarters of the
    /// mover's jump threat, minus half of the opponent's.
    pub(crate) fn hand_value(self) -> i32 {
        self.here + self.my_gain * 3 / 4 - self.their_gain / 2
    }
}

/// The evaluation's terms of `pos`, the jump outcomes looked for within
/// `budget`.
pub(crate) fn terms(pos: &Position, budget: &Budget<'_>) -> Terms {
    let me = pos.to_move();
    let here = progress(pos, me, pos.ball().row());
    let (mine, theirs) = best_jump_progress(pos, budget);
    Terms {
        here,
        my_gain: (mine - here).min(MAX_COUNTED_GAIN),
        their_gain: (theirs + here).min(MAX_COUNTED_GAIN),
    }
}

/// The evaluation of a position whose side to move cannot score now (as
/// far as the search knows); the jump outcomes are looked for within `budget`.
pub(crate) fn evaluate(pos: &Position, budget: &Budget<'_>) -> i32 {
    terms(pos, budget).hand_value()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_counts_rows_from_the_centre() {
        let pos = Position::standard();
        assert_eq!(progress(&pos, Side::Ohs, 10), 0);
        assert_eq!(progress(&pos, Side::Ohs, 12), 200);
        assert_eq!(progress(&pos, Side::Eks, 12), -200);
        assert_eq!(progress(&pos, Side::Eks, 0), 1000);
    }

    #[test]
    fn the_start_is_level_and_a_ball_near_the_goal_is_good() {
        assert_eq!(evaluate(&Position::standard(), &Budget::default()), 0);
        // Ball on H15, Ohs to move, no men: five rows up for Ohs.
        let pos: Position = "15/15/15/15/7@7/15/15/15/15/15/15/15/15/15/15/15/15/15/15 O"
            .parse()
            .unwrap();
        assert_eq!(evaluate(&pos, &Budget::default()), 500);
        assert_eq!(evaluate(&pos.end_turn(), &Budget::default()), -500);
    }

    #[test]
    fn a_man_the_mover_can_jump_forward_is_worth_something() {
        // Ball H10, man H11: Ohs to move can jump to H12; Eks to move would not.
        let pos: Position = "15/15/15/15/15/15/15/15/7#7/7@7/15/15/15/15/15/15/15/15/15 O"
            .parse()
            .unwrap();
        assert!(evaluate(&pos, &Budget::default()) > 0);
        assert!(evaluate(&pos.end_turn(), &Budget::default()) < 0);
    }
}
