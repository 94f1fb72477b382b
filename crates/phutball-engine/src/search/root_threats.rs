//! The root's threat checks: a proved win in three or five plies, or by
//! the prover, is the answer; otherwise the moves to search, without those
//! after which the opponent wins in three.

use phutball::{Move, Point, Position, SplitMix64};
use phutball_solver::Value;

use super::root::Early;
use super::state::Search;
use super::tree::order_key;
use super::Decision;
use crate::candidates::nearby_placements;
use crate::caps::{FIVE_POLLS, FIVE_SHARE, NODE_SCORE_WORK, PROVER_NODES, PROVER_SHARE};
use crate::deadline::Deadline;
use crate::error::EngineError;
use crate::score::win_in;
use crate::threats::{threat_placements, winning_move, winning_threat_in_five};

impl Search<'_> {
    /// The root moves to search, once the threats are known (`candidates`
    /// proved safe, or the fallback; `threatened`: whether the opponent
    /// could score at once, `None` not known): or a win in three or five
    /// plies, or a longer one the prover proved, as the answer.
    pub(super) fn threat_roots(
        &self,
        pos: &Position,
        candidates: Vec<(Move, Position)>,
        threatened: Option<bool>,
        filter_deadline: Deadline,
        seed: u64,
    ) -> Result<Vec<(Move, Position)>, Early> {
        let own_threats = self.proved_win(pos, filter_deadline)?;
        // An undecided threat counts as a threat: every candidate is searched.
        let roots = root_candidates(
            pos,
            candidates.clone(),
            threatened != Some(false),
            &own_threats,
            seed,
        );
        // Moves after which the opponent has a move that wins in three
        // plies are played only when every move does that. Not when the
        // opponent threatens to score at once: the few moves that stop it
        // are searched (a check of each costs more than it is worth on the
        // dense boards where that is common).
        Ok(if threatened == Some(false) {
            self.drop_losses_in_three(roots, candidates, filter_deadline)?
        } else {
            roots
        })
    }

    /// A proved win as the answer, or else the placements after which the
    /// side to move could score (its threats). A proved win needs no
    /// search: placements that threaten to score, or jumps, after which no
    /// reply stops every threat. The proof includes the move's safety (the
    /// opponent cannot score after it), so it stands even when the safety
    /// filter left the move undecided.
    fn proved_win(&self, pos: &Position, filter_deadline: Deadline) -> Result<Vec<Point>, Early> {
        let win = self.root_call(NODE_SCORE_WORK, filter_deadline, |b| winning_move(pos, b))?;
        if let Some(Some(first)) = win {
            return Err(self.answer(first, win_in(3), Decision::Searched));
        }
        let own_threats = self
            .root_call(NODE_SCORE_WORK, filter_deadline, |b| {
                threat_placements(pos, b)
            })?
            .unwrap_or_default();
        if !own_threats.is_empty() {
            let win = self.root_call_capped(
                FIVE_POLLS,
                self.share_deadline(FIVE_SHARE, filter_deadline),
                |b| winning_threat_in_five(pos, &own_threats, b),
            )?;
            if let Some(Some(p)) = win {
                return Err(self.answer(Move::Place(p), win_in(5), Decision::Searched));
            }
        }
        // A longer win, proved by the solver (with its certificate checked).
        let deadline = self.share_deadline(PROVER_SHARE, filter_deadline);
        if let Some((Value::Win { plies }, line)) = self.prover_call(pos, PROVER_NODES, deadline)? {
            if let Some(first) = line.into_iter().next() {
                return Err(self.answer(first, win_in(plies), Decision::Searched));
            }
        }
        Ok(own_threats)
    }

    /// The root moves to search (`roots`) but those after which the
    /// opponent has a move that wins in three plies (each check capped at
    /// [`NODE_SCORE_WORK`] per call into the core, and ended by `deadline`;
    /// undecided moves are kept). When that leaves none, the other moves of
    /// `candidates` (proved safe, or the fallback) that do not lose so; when
    /// none of those either, `roots` as they were.
    fn drop_losses_in_three(
        &self,
        roots: Vec<(Move, Position)>,
        candidates: Vec<(Move, Position)>,
        deadline: Deadline,
    ) -> Result<Vec<(Move, Position)>, EngineError> {
        if candidates.len() < 2 {
            return Ok(roots);
        }
        let not_losing =
            |moves: &[(Move, Position)]| -> Result<Vec<(Move, Position)>, EngineError> {
                let mut kept = Vec::with_capacity(moves.len());
                for (m, child) in moves {
                    let lost =
                        self.root_call(NODE_SCORE_WORK, deadline, |b| winning_move(child, b))?;
                    if !matches!(lost, Some(Some(_))) {
                        kept.push((m.clone(), *child));
                    }
                }
                Ok(kept)
            };
        let kept = not_losing(&roots)?;
        if !kept.is_empty() {
            return Ok(kept);
        }
        // Every root move loses: a saving move may be among the others.
        let others: Vec<(Move, Position)> = candidates
            .into_iter()
            .filter(|(m, _)| !roots.iter().any(|(r, _)| r == m))
            .collect();
        let saving = not_losing(&others)?;
        Ok(if saving.is_empty() { roots } else { saving })
    }
}

/// The root moves to search, best first by a cheap guess: when the opponent
/// threatens to score, every safe move; otherwise the safe jumps, the safe
/// placements near the ball and the safe threat placements (`own_threats`:
/// after them the side to move could score), or all safe moves if none of
/// those is left.
fn root_candidates(
    pos: &Position,
    safe: Vec<(Move, Position)>,
    threatened: bool,
    own_threats: &[Point],
    seed: u64,
) -> Vec<(Move, Position)> {
    let mut roots: Vec<(Move, Position)> = if threatened {
        safe.clone()
    } else {
        let near = nearby_placements(pos);
        safe.iter()
            .filter(|(m, _)| match m {
                Move::Place(p) => near.contains(p) || own_threats.contains(p),
                Move::Jump(_) => true,
            })
            .cloned()
            .collect()
    };
    if roots.is_empty() {
        roots = safe;
    }
    let mut rng = SplitMix64::new(seed);
    let mut keyed: Vec<(i32, (Move, Position))> = roots
        .into_iter()
        .map(|(m, child)| (order_key(pos, &m) * 8 + rng.below(8) as i32, (m, child)))
        .collect();
    keyed.sort_by_key(|(key, _)| -key);
    keyed.into_iter().map(|(_, mc)| mc).collect()
}

#[cfg(test)]
mod tests {
    use crate::{Engine, Limits, Score};
    use phutball::Position;

    #[test]
    fn a_longer_win_proved_at_the_root_is_played_at_any_depth() {
        // The 1x7 start: the solver proves a win in 7 plies, which a
        // one-ply search (and the win-in-five check) could not see.
        let start: Position = "1/1/1/@/1/1/1 O".parse().unwrap();
        let analysis = Engine::new(Limits::depth(1), 1).analyse(&start).unwrap();
        assert_eq!(analysis.score, Score::Win { plies: 7 });
        assert_eq!(analysis.best_move.to_string(), "A5");
    }
}
