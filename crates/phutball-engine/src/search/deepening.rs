//! Iterative deepening over the root moves, and the principal variation
//! read back from the table once it is done.

use std::sync::atomic::Ordering;

use phutball::{Move, Position};

use super::state::Search;
use super::{Analysis, Decision};
use crate::candidates::all_moves;
use crate::caps::{DEPTH0_EVALUATIONS, NODE_SCORE_WORK};
use crate::clock::Instant;
use crate::score::{DECIDED, INFINITY};

/// The principal variation shown is at most this long.
const MAX_PV: usize = 32;

impl Search<'_> {
    /// Iterative deepening over the root moves (`roots` is not empty).
    pub(super) fn iterate(&mut self, mut roots: Vec<(Move, Position)>) -> Analysis {
        let search_started = Instant::now();
        let mut best = 0usize;
        let mut best_value = -INFINITY;
        let mut depth_done = 0;
        for depth in 1..=self.shared.limits.max_depth() {
            let mut alpha = -INFINITY;
            let mut iteration_best = None;
            for (i, (_, child)) in roots.iter().enumerate() {
                let value = -self.negamax(child, depth - 1, -INFINITY, -alpha, 1);
                if self.aborted {
                    break;
                }
                if value > alpha {
                    alpha = value;
                    iteration_best = Some(i);
                }
            }
            // A move that beat the previous best (searched first) in an
            // unfinished iteration is still an improvement.
            if let Some(i) = iteration_best {
                if !self.aborted || i != 0 || depth_done == 0 {
                    best = i;
                    best_value = alpha;
                }
            }
            if self.aborted {
                break;
            }
            depth_done = depth;
            let chosen = roots.remove(best);
            roots.insert(0, chosen);
            best = 0;
            if best_value >= DECIDED || best_value <= -DECIDED && depth >= 4 {
                break;
            }
            // The next iteration would take several times as long: stop
            // early (when it would not end within the search's time, that
            // is, the time left after the root's checks).
            if let Some(left) = self.shared.deadline.remaining() {
                if search_started.elapsed() * 2 >= left {
                    break;
                }
            }
        }
        if !self.aborted {
            // Done: the other threads of a threaded search may stop.
            self.shared.team.finished.store(true, Ordering::Relaxed);
        }
        if depth_done == 0 {
            (best, best_value) = self.best_by_evaluation(&roots);
        }
        let (m, child) = roots[best].clone();
        let pv = self.principal_variation(m.clone(), child, depth_done as usize + 2);
        self.report(m, best_value, depth_done, pv, Decision::Searched)
    }

    /// The root move whose position evaluates best for the mover, and its
    /// value, for when no depth finished (the root's checks took a small
    /// node budget, or a time limit was short): the root order alone puts
    /// jumps first, and a jump back towards the mover's own goal among them
    /// (the engine at 100 nodes played such jumps and lost every game to
    /// the engine at 300). Earlier moves win ties; at most
    /// [`DEPTH0_EVALUATIONS`] moves of the root order are evaluated, all
    /// within one [`Search::after_deadline`].
    fn best_by_evaluation(&self, roots: &[(Move, Position)]) -> (usize, i32) {
        let hook = self.shared.clock(self.after_deadline());
        let budget = self.shared.budget(u64::MAX, &hook);
        let mut best = (0, -INFINITY);
        for (i, (_, child)) in roots.iter().enumerate().take(DEPTH0_EVALUATIONS) {
            let value = -self.evaluate(child, &budget);
            if value > best.1 {
                best = (i, value);
            }
            if budget.interrupted().is_some() {
                break;
            }
        }
        best
    }

    /// The move and the moves stored as best after it in the table (each
    /// step's can-score capped at [`NODE_SCORE_WORK`], and with a time
    /// limit all of it within [`crate::caps::PV_TIME`]).
    fn principal_variation(&self, first: Move, mut pos: Position, len: usize) -> Vec<Move> {
        let deadline = self.after_deadline();
        let hook = self.shared.clock(deadline);
        let budget = self.shared.budget(NODE_SCORE_WORK, &hook);
        let mut pv = vec![first];
        while pv.len() < len.min(MAX_PV) && !pos.is_finished() && !deadline.passed() {
            if let Ok(Some(m)) = pos.scoring_jump_within(&budget) {
                pv.push(m);
                break;
            }
            let Some(entry) = self.shared.table.probe(pos.zobrist()) else {
                break;
            };
            let next = all_moves(&pos, &budget).into_iter().find_map(|m| {
                let child = pos.play(&m).ok()?;
                (child.zobrist() == entry.best_child).then_some((m, child))
            });
            let Some((m, child)) = next else { break };
            pv.push(m);
            pos = child;
        }
        pv
    }
}
