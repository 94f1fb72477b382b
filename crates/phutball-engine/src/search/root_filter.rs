//! The root's moves and its safety filter: every legal move but the own
//! goals, sorted by "can the opponent score after it?" under the filter's
//! growing work caps.

use phutball::{Move, Position};

use super::state::Search;
use crate::candidates::{all_moves, jump_moves};
use crate::deadline::Deadline;
use crate::error::EngineError;
use crate::safety::is_safe_within;

/// A root move: its index in the root order, the move, the position after it.
pub(super) type RootMove = (usize, Move, Position);

/// The root moves sorted by [`Search::safety_filter`].
pub(super) struct Filtered {
    /// Proved safe.
    pub(super) safe: Vec<RootMove>,
    /// Not decided within the filter's work and time.
    pub(super) undecided: Vec<RootMove>,
    /// The first move found to let the opponent score, with its index.
    pub(super) lets_them_score: Option<(usize, Move)>,
}

impl Search<'_> {
    /// The root moves of `pos` (see [`RootMove`]) but those that end with
    /// the ball in the mover's own goal, and the first of those, if any.
    pub(super) fn root_moves_but_own_goals(
        &mut self,
        pos: &Position,
    ) -> (Vec<RootMove>, Option<Move>) {
        let me = pos.to_move();
        let mut own_goal = None;
        let mut others = Vec::new();
        for (i, m) in self.root_moves(pos).into_iter().enumerate() {
            self.nodes += 1;
            let Ok(child) = pos.play(&m) else { continue };
            if child.winner() == Some(me.opponent()) {
                own_goal.get_or_insert(m);
            } else {
                others.push((i, m, child));
            }
        }
        (others, own_goal)
    }

    /// Every root move: all placements and up to
    /// [`ROOT_JUMPS`](crate::caps::ROOT_JUMPS) jump outcomes (a bounded
    /// enumeration, which the move's deadline also ends). Should the
    /// deadline leave no move at all, the first jump is looked for without
    /// it: the engine always answers with a legal move.
    fn root_moves(&self, pos: &Position) -> Vec<Move> {
        let hook = self.shared.clock(self.shared.deadline);
        let moves = all_moves(pos, &self.shared.budget(u64::MAX, &hook));
        if !moves.is_empty() {
            return moves;
        }
        let hook = self.shared.clock(Deadline::NONE);
        jump_moves(pos, 1, &self.shared.budget(u64::MAX, &hook))
    }

    /// The safety filter at the root: "can the opponent score after this
    /// move?" for every move of `pending` (its index in the root order, the
    /// move, the position after it; own goals are out already, so unsafe
    /// means "lets them score"), with `first_work` steps first, then four
    /// times more for the moves still undecided, while `deadline` lasts.
    pub(super) fn safety_filter(
        &self,
        pos: &Position,
        mut pending: Vec<RootMove>,
        first_work: u64,
        deadline: Deadline,
    ) -> Result<Filtered, EngineError> {
        let mut safe = Vec::new();
        let mut lets_them_score = None;
        let mut work = first_work;
        loop {
            let mut undecided = Vec::new();
            for (i, m, child) in pending {
                if deadline.passed() {
                    undecided.push((i, m, child));
                    continue;
                }
                match self.root_call(work, deadline, |b| is_safe_within(pos, &m, b))? {
                    Some(false) => {
                        lets_them_score.get_or_insert((i, m));
                    }
                    Some(true) => safe.push((i, m, child)),
                    None => undecided.push((i, m, child)),
                }
            }
            pending = undecided;
            if pending.is_empty() || work == u64::MAX || deadline.passed() {
                break;
            }
            work = work.saturating_mul(4);
        }
        Ok(Filtered {
            safe,
            undecided: pending,
            lets_them_score,
        })
    }
}
