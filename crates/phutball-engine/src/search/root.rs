//! The root's decision pipeline: the checks that can settle the move
//! before any search (a scoring move, the safety filter, a forced move, a
//! proved win), then the search, then the check of the move it chose.

use phutball::{Move, Position};
use phutball_solver::{prove_within, SolverError, Value};

use super::hooks::RootCaps;
use super::root_filter::{Filtered, RootMove};
use super::state::Search;
use super::{Analysis, Decision};
use crate::caps::{PROVER_CHECKS, PROVER_CHECK_NODES};
use crate::deadline::Deadline;
use crate::error::EngineError;
use crate::score::{loss_in, win_in, Score};

/// Why the root's pipeline ends before its last phase: a move decided
/// without a search (or without more of it), or an error. A phase returns
/// it as its `Err`, so that `?` carries it out of [`Search::decide`].
pub(super) enum Early {
    /// The move to play.
    Answer(Analysis),
    /// No move: the game is over, there is none, or the caller stopped.
    Error(EngineError),
}

impl From<EngineError> for Early {
    fn from(e: EngineError) -> Early {
        Early::Error(e)
    }
}

impl Search<'_> {
    /// The move to play at `pos` (not finished), by the root's phases in
    /// turn; `seed` breaks ties in the root order.
    pub(super) fn decide(&mut self, pos: &Position, seed: u64) -> Result<Analysis, EngineError> {
        match self.phases(pos, seed) {
            Ok(analysis) | Err(Early::Answer(analysis)) => Ok(analysis),
            Err(Early::Error(e)) => Err(e),
        }
    }

    fn phases(&mut self, pos: &Position, seed: u64) -> Result<Analysis, Early> {
        self.nodes = 1;
        let caps = RootCaps::new(self.shared.limits);
        let scoring_decided = self.play_a_scoring_jump(pos, caps.scoring)?;
        let threatened = self.opponent_threatens(pos, &caps)?;
        let (moves, own_goal) = self.root_moves_but_own_goals(pos);
        let filtered = self.safety_filter(pos, moves, caps.first_work, caps.filter)?;
        // A root "can I score?" left undecided gets what remains of the
        // filter's share.
        if !scoring_decided && !caps.filter.passed() {
            self.play_a_scoring_jump(pos, caps.filter)?;
        }
        let candidates = self.unless_forced(filtered, own_goal)?;
        let roots = self.threat_roots(pos, candidates, threatened, caps.filter, seed)?;
        let analysis = self.iterate_in_threads(roots.clone());
        if let Some(e) = self.interrupted.take() {
            return Err(EngineError::Interrupted(e).into());
        }
        Ok(self.avoid_proved_loss(analysis, roots)?)
    }

    /// The root's "can I score?" within `deadline`: a scoring jump is the
    /// answer; otherwise whether the check was decided.
    fn play_a_scoring_jump(&self, pos: &Position, deadline: Deadline) -> Result<bool, Early> {
        match self.root_call(u64::MAX, deadline, |b| pos.scoring_jump_within(b))? {
            Some(Some(m)) => Err(self.answer(m, win_in(1), Decision::Scores)),
            Some(None) => Ok(true),
            None => Ok(false),
        }
    }

    /// "Does the opponent threaten to score?" (`None`: not known), within
    /// four times the filter's first work per move.
    fn opponent_threatens(&self, pos: &Position, caps: &RootCaps) -> Result<Option<bool>, Early> {
        let work = caps.first_work.saturating_mul(4);
        Ok(self.root_call(work, caps.filter, |b| pos.end_turn().can_score_within(b))?)
    }

    /// The moves left to choose from after the safety filter, in the root
    /// order: those proved safe, or else those not known to be safe (their
    /// check ran out of time). With none, the least bad move is the answer
    /// (letting them score beats scoring for them now); with one, that move.
    fn unless_forced(
        &self,
        filtered: Filtered,
        own_goal: Option<Move>,
    ) -> Result<Vec<(Move, Position)>, Early> {
        let Filtered {
            safe,
            undecided,
            lets_them_score,
        } = filtered;
        let mut candidates: Vec<RootMove> = if safe.is_empty() { undecided } else { safe };
        candidates.sort_by_key(|(i, _, _)| *i);
        let mut candidates: Vec<(Move, Position)> =
            candidates.into_iter().map(|(_, m, c)| (m, c)).collect();
        match candidates.len() {
            0 => Err(match (lets_them_score, own_goal) {
                (Some((_, m)), _) => self.answer(m, loss_in(2), Decision::AllMovesLose),
                (None, Some(m)) => self.answer(m, loss_in(1), Decision::AllMovesLose),
                // No move at all, unless the caller's stop cut the list short.
                (None, None) => Early::Error(match self.shared.stop.interrupted() {
                    Some(e) => EngineError::Interrupted(e),
                    None => EngineError::NoLegalMove,
                }),
            }),
            1 => {
                let (m, child) = candidates.remove(0);
                let value = -self.evaluate_after_deadline(&child);
                Err(self.answer(m, value, Decision::OnlyMove))
            }
            _ => Ok(candidates),
        }
    }

    /// The answer `m`, worth `value`, found without a search.
    pub(super) fn answer(&self, m: Move, value: i32, decision: Decision) -> Early {
        Early::Answer(self.report(m.clone(), value, 0, vec![m], decision))
    }

    /// The prover's value of `pos` (for its side to move) and line, within
    /// `nodes` nodes, the caller's stop and `deadline`: `Ok(None)` when it
    /// proved nothing.
    pub(super) fn prover_call(
        &self,
        pos: &Position,
        nodes: u64,
        deadline: Deadline,
    ) -> Result<Option<(Value, Vec<Move>)>, EngineError> {
        let answer = self.root_call(nodes, deadline, |b| match prove_within(pos, b) {
            Ok(proof) => Ok(proof.value.map(|v| (v, proof.line))),
            Err(SolverError::Search(e)) => Err(e),
            Err(_) => Ok(None),
        })?;
        Ok(answer.flatten())
    }

    /// `analysis` unless its move is proved to lose (the prover proves a
    /// win for the opponent after it, within [`PROVER_CHECK_NODES`]) while
    /// another root move is not: then the first other move of `roots` in
    /// the search's order, checked in turn, up to [`PROVER_CHECKS`] moves.
    pub(super) fn avoid_proved_loss(
        &mut self,
        mut analysis: Analysis,
        mut roots: Vec<(Move, Position)>,
    ) -> Result<Analysis, EngineError> {
        for _ in 0..PROVER_CHECKS {
            if matches!(analysis.score, Score::Win { .. }) || roots.len() < 2 {
                break;
            }
            let Some(i) = roots.iter().position(|(m, _)| *m == analysis.best_move) else {
                break;
            };
            let after = self.prover_call(&roots[i].1, PROVER_CHECK_NODES, self.after_deadline())?;
            if !matches!(after, Some((Value::Win { .. }, _))) {
                break;
            }
            roots.remove(i);
            let (m, child) = roots[0].clone();
            let value = -self.evaluate_after_deadline(&child);
            analysis = self.report(
                m.clone(),
                value,
                analysis.depth,
                vec![m],
                Decision::Searched,
            );
        }
        Ok(analysis)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use phutball::{Budget, Side};

    use super::*;
    use crate::limits::Limits;
    use crate::search::state::{Shared, Team};
    use crate::table::Table;

    #[test]
    fn a_move_proved_to_lose_is_replaced_by_one_that_is_not() {
        // Eks to move on the 5x5 start: after A5 Ohs has a proved win;
        // after B2 (Eks's own winning move) it has none.
        let pos: Position = "5/5/2@2/5/5 X".parse().unwrap();
        let root = |m: &str| {
            let m: Move = m.parse().unwrap();
            let child = pos.play(&m).unwrap();
            (m, child)
        };
        let stop = Budget::default();
        let team = Team::default();
        let table = Table::new(4);
        let history = HashSet::new();
        let shared = Shared::new(Limits::depth(1), Side::Eks, &stop, &table, &team, &history);
        let mut search = Search::new(shared);
        let losing: Move = "A5".parse().unwrap();
        let chosen = search.report(losing.clone(), 0, 1, vec![losing], Decision::Searched);
        let roots = vec![root("B2"), root("A5")];
        let analysis = search.avoid_proved_loss(chosen.clone(), roots).unwrap();
        assert_eq!(analysis.best_move.to_string(), "B2");
        // Kept when it is the only move, or not proved to lose.
        let only = search
            .avoid_proved_loss(chosen.clone(), vec![root("A5")])
            .unwrap();
        assert_eq!(only.best_move.to_string(), "A5");
        let good = search.report("B2".parse().unwrap(), 0, 1, vec![], Decision::Searched);
        let kept = search
            .avoid_proved_loss(good, vec![root("A5"), root("B2")])
            .unwrap();
        assert_eq!(kept.best_move.to_string(), "B2");
    }
}
