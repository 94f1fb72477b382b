//! The checker: a certificate holds when every node's moves are legal by
//! the core's plain rules, every reply of the loser is covered (listed, or
//! answered by the node's `else` jump, which must score after it), and
//! every line ends in the winner's goal. It uses no search and no heuristics:
//! only [`Position::legal_moves_within`], [`Position::play`] and
//! [`Position::winner`].

use std::collections::HashSet;

use phutball::{Budget, Move, Position, SearchError, Side};
use thiserror::Error;

use super::{Certificate, Target};

/// What a checked certificate proves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedProof {
    /// The root position.
    pub root: Position,
    /// The side that forces a goal.
    pub winner: Side,
    /// The longest line of the proof, in plies (the loser's longest
    /// resistance against the certificate's moves).
    pub plies: u32,
    /// The number of nodes.
    pub nodes: usize,
}

/// Why a certificate does not prove what it claims.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CertificateError {
    /// The certificate has no node.
    #[error("the certificate has no node")]
    Empty,
    /// A node's position belongs to another board or other rules than the root's.
    #[error("node {node}: its board or rules differ from the root's")]
    OtherBoard {
        /// The node.
        node: usize,
    },
    /// A node's position is finished: there is nothing to play there.
    #[error("node {node}: the game is already over there")]
    Finished {
        /// The node.
        node: usize,
    },
    /// The winner's node does not name exactly one move.
    #[error("node {node}: the winner ({winner}) must play exactly one move here, the certificate names {count}")]
    NotOneMove {
        /// The node.
        node: usize,
        /// The winner.
        winner: Side,
        /// How many moves it names.
        count: usize,
    },
    /// A move is not legal in its node's position.
    #[error("node {node}: `{mv}` is not legal here: {reason}")]
    IllegalMove {
        /// The node.
        node: usize,
        /// The move.
        mv: Move,
        /// Why.
        reason: String,
    },
    /// The loser has a reply the certificate does not answer.
    #[error("node {node}: the reply `{mv}` is not covered")]
    MissingReply {
        /// The node.
        node: usize,
        /// A move with the uncovered outcome.
        mv: Move,
    },
    /// A reply not listed is not answered by the node's `else` jump.
    #[error("node {node}: after the reply `{mv}` the `else` answer `{answer}` does not score")]
    ElseDoesNotScore {
        /// The node.
        node: usize,
        /// A reply the `else` line must answer.
        mv: Move,
        /// The `else` move.
        answer: Move,
    },
    /// An `else` line at a node where the winner is to move.
    #[error("node {node}: an `else` line where the winner is to move")]
    ElseAtWinnersNode {
        /// The node.
        node: usize,
    },
    /// Two replies of one node have the same outcome.
    #[error("node {node}: the reply `{mv}` repeats an outcome already covered")]
    DuplicateReply {
        /// The node.
        node: usize,
        /// The second move with that outcome.
        mv: Move,
    },
    /// A move's target is not a later node of the certificate.
    #[error(
        "node {node}: `{mv}` leads to node {target}, which is not a later node (at most {last})"
    )]
    BadTarget {
        /// The node.
        node: usize,
        /// The move.
        mv: Move,
        /// Its target.
        target: usize,
        /// The last node's number.
        last: usize,
    },
    /// A move marked as ending in the winner's goal does not.
    #[error("node {node}: `{mv}` is marked `goal` but does not end the game with {winner}'s goal")]
    NotAGoal {
        /// The node.
        node: usize,
        /// The move.
        mv: Move,
        /// The winner claimed.
        winner: Side,
    },
    /// A move leads somewhere else than its target node's position.
    #[error("node {node}: `{mv}` gives {actual}, not node {target}'s position")]
    WrongPosition {
        /// The node.
        node: usize,
        /// The move.
        mv: Move,
        /// The node it names.
        target: usize,
        /// The position it gives (its position string).
        actual: String,
    },
    /// A node no line from the root reaches.
    #[error("node {node} is not reached from the root")]
    Unreached {
        /// The node.
        node: usize,
    },
    /// The budget stopped the check (enumerating a node's moves).
    #[error("the check stopped: {0}")]
    Search(#[from] SearchError),
}

impl Certificate {
    /// Checks the certificate with the core's plain rules within `budget`
    /// (its cancel flag and hook are polled between nodes and inside each
    /// node's move enumeration; its limits apply to each enumeration).
    ///
    /// # Errors
    ///
    /// The first [`CertificateError`] found, in node order.
    pub fn check(&self, budget: &Budget<'_>) -> Result<CheckedProof, CertificateError> {
        let root = self.root().ok_or(CertificateError::Empty)?;
        let mut reached = vec![false; self.nodes.len()];
        reached[0] = true;
        for i in 0..self.nodes.len() {
            if let Some(e) = budget.interrupted() {
                return Err(e.into());
            }
            if !reached[i] {
                return Err(CertificateError::Unreached { node: i });
            }
            self.check_node(i, root, &mut reached, budget)?;
        }
        let plies = self.plies_from_each_node();
        Ok(CheckedProof {
            root: *root,
            winner: self.winner,
            plies: plies[0],
            nodes: self.nodes.len(),
        })
    }

    /// The longest line from each node, in plies, filled from the last node
    /// back (targets are later nodes; a target that is not counts 0). An
    /// `else` answer is a reply and a goal: two plies.
    pub(crate) fn plies_from_each_node(&self) -> Vec<u32> {
        let count = self.nodes.len();
        let mut plies = vec![0u32; count];
        for i in (0..count).rev() {
            let listed = self.nodes[i].moves.iter().map(|(_, t)| match *t {
                Target::Goal => 1,
                Target::Node(n) if n > i && n < count => plies[n].saturating_add(1),
                Target::Node(_) => 0,
            });
            let otherwise = self.nodes[i].otherwise.as_ref().map(|_| 2);
            plies[i] = listed.chain(otherwise).max().unwrap_or(0);
        }
        plies
    }

    /// Checks node `i`'s moves, marking the nodes they reach.
    fn check_node(
        &self,
        i: usize,
        root: &Position,
        reached: &mut [bool],
        budget: &Budget<'_>,
    ) -> Result<(), CertificateError> {
        let node = &self.nodes[i];
        let winner_to_move = self.check_node_shape(i, root)?;
        // At the loser's node every legal reply must be answered: collect
        // their outcomes to check the listed moves and the `else` against.
        let outcomes = if winner_to_move {
            None
        } else {
            Some(outcomes(i, &node.position, budget)?)
        };
        let mut covered = HashSet::new();
        for (m, target) in &node.moves {
            let after = play_listed(i, &node.position, m)?;
            if let Some(all) = &outcomes {
                // A legal move's outcome is always one of the list's;
                // this guards against a core that disagrees with itself.
                if !all.contains(&after) {
                    return Err(CertificateError::IllegalMove {
                        node: i,
                        mv: m.clone(),
                        reason: "its outcome is not among the legal moves' outcomes".into(),
                    });
                }
                if !covered.insert(after) {
                    return Err(CertificateError::DuplicateReply {
                        node: i,
                        mv: m.clone(),
                    });
                }
            }
            self.check_target(i, m, *target, &after, reached)?;
        }
        match outcomes {
            Some(all) => self.check_unlisted(i, &all, &covered, budget),
            None if node.otherwise.is_some() => {
                Err(CertificateError::ElseAtWinnersNode { node: i })
            }
            None => Ok(()),
        }
    }

    /// Checks what node `i` must be whatever its moves: on the root's board
    /// and rules, not finished, and one move if the winner is to move.
    /// Returns whether the winner is to move.
    fn check_node_shape(&self, i: usize, root: &Position) -> Result<bool, CertificateError> {
        let node = &self.nodes[i];
        let pos = &node.position;
        if pos.size() != root.size() || pos.rules() != root.rules() {
            return Err(CertificateError::OtherBoard { node: i });
        }
        if pos.is_finished() {
            return Err(CertificateError::Finished { node: i });
        }
        let winner_to_move = pos.to_move() == self.winner;
        if winner_to_move && node.moves.len() != 1 {
            return Err(CertificateError::NotOneMove {
                node: i,
                winner: self.winner,
                count: node.moves.len(),
            });
        }
        Ok(winner_to_move)
    }

    /// Checks that move `m` of node `i`, which leads to `after`, reaches
    /// what its `target` says: the winner's goal, or a later node holding
    /// `after` (then marked in `reached`).
    fn check_target(
        &self,
        i: usize,
        m: &Move,
        target: Target,
        after: &Position,
        reached: &mut [bool],
    ) -> Result<(), CertificateError> {
        let last = self.nodes.len() - 1;
        match target {
            Target::Goal => {
                if after.winner() != Some(self.winner) {
                    return Err(CertificateError::NotAGoal {
                        node: i,
                        mv: m.clone(),
                        winner: self.winner,
                    });
                }
            }
            Target::Node(t) => {
                if t <= i || t > last {
                    return Err(CertificateError::BadTarget {
                        node: i,
                        mv: m.clone(),
                        target: t,
                        last,
                    });
                }
                if self.nodes[t].position != *after {
                    return Err(CertificateError::WrongPosition {
                        node: i,
                        mv: m.clone(),
                        target: t,
                        actual: after.to_string(),
                    });
                }
                reached[t] = true;
            }
        }
        Ok(())
    }

    /// Checks that every outcome of the loser's node `i` not in `covered`
    /// is the winner's goal or answered by its `else` jump.
    fn check_unlisted(
        &self,
        i: usize,
        all: &HashSet<Position>,
        covered: &HashSet<Position>,
        budget: &Budget<'_>,
    ) -> Result<(), CertificateError> {
        let node = &self.nodes[i];
        let pos = &node.position;
        for outcome in all.iter().filter(|p| !covered.contains(*p)) {
            // The loser's own goal needs no answer, `else` line or not.
            let answered = outcome.winner() == Some(self.winner)
                || node.otherwise.as_ref().is_some_and(|m| {
                    outcome
                        .play(m)
                        .is_ok_and(|after| after.winner() == Some(self.winner))
                });
            if !answered {
                let mv = uncovered_move(pos, outcome, budget)?;
                return Err(match &node.otherwise {
                    None => CertificateError::MissingReply { node: i, mv },
                    Some(answer) => CertificateError::ElseDoesNotScore {
                        node: i,
                        mv,
                        answer: answer.clone(),
                    },
                });
            }
        }
        Ok(())
    }
}

/// A legal move of `pos` that gives `outcome`, to name in an error.
fn uncovered_move(
    pos: &Position,
    outcome: &Position,
    budget: &Budget<'_>,
) -> Result<Move, CertificateError> {
    Ok(pos
        .legal_moves_within(budget)?
        .into_iter()
        .find(|m| pos.play(m).as_ref() == Ok(outcome))
        .unwrap_or(Move::Place(pos.ball())))
}

/// `m` played at node `i`, whose position is `pos`, or the certificate's
/// error for an illegal move.
fn play_listed(i: usize, pos: &Position, m: &Move) -> Result<Position, CertificateError> {
    pos.play(m).map_err(|e| CertificateError::IllegalMove {
        node: i,
        mv: m.clone(),
        reason: e.to_string(),
    })
}

/// The outcomes of every legal move at node `i`, whose position is `pos`.
fn outcomes(
    i: usize,
    pos: &Position,
    budget: &Budget<'_>,
) -> Result<HashSet<Position>, CertificateError> {
    let mut all = HashSet::new();
    for m in pos.legal_moves_within(budget)? {
        all.insert(play_listed(i, pos, &m)?);
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use phutball::Budget;

    use crate::Certificate;

    #[test]
    fn the_losers_own_goal_needs_no_reply_and_no_else_line() {
        // 1x3, ball on A2, a man on A3, Eks to move: A1 lets Ohs jump
        // A2-A4; the jump A2-A4 is Eks's own goal, listed nowhere.
        let text = "phutball-proof 1\nrules\nwinner O\nnode 0 #/@/1 X\nreply A1 1\nnode 1 #/@/# O\nmove A2-A4 goal\nend\n";
        let cert: Certificate = text.parse().unwrap();
        let checked = cert.check(&Budget::default()).unwrap();
        assert_eq!(checked.plies, 2);
        // Without the reply, the placement is missing.
        let dropped = text.replace("reply A1 1\n", "");
        let cert: Certificate = dropped.parse().unwrap();
        assert!(cert.check(&Budget::default()).is_err());
    }
}
