//! The checker: a certificate holds when every node's moves are legal by
//! the core's plain rules, every reply of the loser is covered (listed, the
//! winner's goal, a placement outside the zone of the node's `pass` line,
//! or answered by the node's `else` jump, which must score after it), and
//! every line ends in the winner's goal.
//!
//! A `pass` line's target must hold the node's position with the winner to
//! move, and its zone every point that target's proof depends on: the
//! checker computes each node's zone itself, from the last node back (the
//! points its moves, its jump moves and its targets' proofs depend on:
//! [`Position::move_zone`], [`Position::jump_zone`]), and never trusts the
//! file's. A man added outside a node's zone leaves its proof winning, so
//! the pass line's target also wins after every placement outside it.
//!
//! It uses no search and no heuristics: only
//! [`Position::legal_moves_within`], [`Position::play`],
//! [`Position::winner`], [`Position::end_turn`], [`Position::move_zone`]
//! and [`Position::jump_zone`].

use std::collections::HashSet;

use phutball::{Bitboard, Budget, Move, Point, Position, SearchError, Side};
use thiserror::Error;

use super::{Certificate, PassAnswer, Target};

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
    /// A `pass` line at a node where the winner is to move.
    #[error("node {node}: a `pass` line where the winner is to move")]
    PassAtWinnersNode {
        /// The node.
        node: usize,
    },
    /// A `pass` line's target is not a later node of the certificate.
    #[error("node {node}: the pass line leads to node {target}, which is not a later node (at most {last})")]
    BadPassTarget {
        /// The node.
        node: usize,
        /// Its pass line's target.
        target: usize,
        /// The last node's number.
        last: usize,
    },
    /// A `pass` line's target does not hold the node's position with the
    /// winner to move.
    #[error("node {node}: the pass line leads to node {target}, which is not this position with {winner} to move")]
    WrongPassPosition {
        /// The node.
        node: usize,
        /// Its pass line's target.
        target: usize,
        /// The winner, who would be to move there.
        winner: Side,
    },
    /// A `pass` line's zone leaves out a point its target's proof depends
    /// on (the checker's zone of the target, not the file's).
    #[error("node {node}: the pass line's zone leaves out {point}, which node {target}'s proof depends on")]
    ZoneLeavesOut {
        /// The node.
        node: usize,
        /// Its pass line's target.
        target: usize,
        /// A point of the target's zone that the pass line's zone lacks.
        point: Point,
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
    /// The zones of `pass` lines are checked last, once every node is
    /// (a node's zone needs its targets'), and only if there is a `pass`
    /// line; they take a [`Bitboard`] a node.
    ///
    /// # Errors
    ///
    /// The first [`CertificateError`] found, in node order (the zones'
    /// [`CertificateError::ZoneLeavesOut`] after all others).
    pub fn check(&self, budget: &Budget<'_>) -> Result<CheckedProof, CertificateError> {
        let root = self.root().ok_or(CertificateError::Empty)?;
        let mut reached = vec![false; self.nodes.len()];
        reached[0] = true;
        // Each node's own zone, if a pass line needs them.
        let mut zones = Vec::new();
        let with_zones = self.nodes.iter().any(|n| n.pass.is_some());
        if with_zones {
            zones
                .try_reserve_exact(self.nodes.len())
                .map_err(|_| SearchError::OutOfMemory {
                    what: "the certificate's zones",
                })?;
        }
        for i in 0..self.nodes.len() {
            if let Some(e) = budget.interrupted() {
                return Err(e.into());
            }
            if !reached[i] {
                return Err(CertificateError::Unreached { node: i });
            }
            let zone = self.check_node(i, root, &mut reached, with_zones, budget)?;
            if with_zones {
                zones.push(zone);
            }
        }
        if with_zones {
            self.check_zones(zones, budget)?;
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
    /// `else` answer is a reply and a goal: two plies; a `pass` line is a
    /// placement and its target's line.
    pub(crate) fn plies_from_each_node(&self) -> Vec<u32> {
        let count = self.nodes.len();
        let mut plies = vec![0u32; count];
        for i in (0..count).rev() {
            let after = |target| match target {
                Target::Goal => 1,
                Target::Node(n) if n > i && n < count => plies[n].saturating_add(1),
                Target::Node(_) => 0,
            };
            let node = &self.nodes[i];
            let listed = node.moves.iter().map(|(_, t)| after(*t));
            let pass = node.pass.as_ref().map(|p| after(Target::Node(p.target)));
            let otherwise = node.otherwise.as_ref().map(|_| 2);
            plies[i] = listed.chain(pass).chain(otherwise).max().unwrap_or(0);
        }
        plies
    }

    /// Checks node `i`'s moves, marking the nodes they reach. Returns the
    /// node's own zone if `with_zones` (else an empty set): the points its
    /// lines depend on, its targets' zones left out (the winner's move's
    /// zone; the loser's jump zone and the `else` move's zone after each
    /// outcome it answers).
    fn check_node(
        &self,
        i: usize,
        root: &Position,
        reached: &mut [bool],
        with_zones: bool,
        budget: &Budget<'_>,
    ) -> Result<Bitboard, CertificateError> {
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
            if let Some(Outcomes { all, .. }) = &outcomes {
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
        let Some(Outcomes { legal, .. }) = outcomes else {
            if node.otherwise.is_some() {
                return Err(CertificateError::ElseAtWinnersNode { node: i });
            }
            if node.pass.is_some() {
                return Err(CertificateError::PassAtWinnersNode { node: i });
            }
            // The one move's zone (`check_node_shape` counted one).
            let zone = node.moves.first().filter(|_| with_zones);
            return Ok(zone.map_or(Bitboard::EMPTY, |(m, _)| node.position.move_zone(m)));
        };
        if let Some(pass) = &node.pass {
            self.check_pass(i, pass, reached)?;
        }
        let answered = self.check_unlisted(i, &legal, &covered, with_zones)?;
        Ok(if with_zones {
            node.position.jump_zone() | answered
        } else {
            Bitboard::EMPTY
        })
    }

    /// Checks that node `i`'s `pass` line leads to a later node holding
    /// its position with the winner to move (then marked in `reached`).
    fn check_pass(
        &self,
        i: usize,
        pass: &PassAnswer,
        reached: &mut [bool],
    ) -> Result<(), CertificateError> {
        let last = self.nodes.len() - 1;
        let t = pass.target;
        if t <= i || t > last {
            return Err(CertificateError::BadPassTarget {
                node: i,
                target: t,
                last,
            });
        }
        if self.nodes[t].position != self.nodes[i].position.end_turn() {
            return Err(CertificateError::WrongPassPosition {
                node: i,
                target: t,
                winner: self.winner,
            });
        }
        reached[t] = true;
        Ok(())
    }

    /// Computes every node's zone from the last node back, from `zones`,
    /// each node's own (what [`Certificate::check_node`] returns): a
    /// node's own zone and its targets' (a goal's is empty), its pass
    /// line's target's included. Checks that each `pass` line's zone holds
    /// its target's zone.
    fn check_zones(
        &self,
        mut zones: Vec<Bitboard>,
        budget: &Budget<'_>,
    ) -> Result<(), CertificateError> {
        // The first error in node order: the last one found.
        let mut first = None;
        for i in (0..self.nodes.len()).rev() {
            if let Some(e) = budget.interrupted() {
                return Err(e.into());
            }
            let node = &self.nodes[i];
            let mut zone = zones[i];
            for (_, target) in &node.moves {
                if let Target::Node(t) = *target {
                    zone |= zones[t];
                }
            }
            if let Some(pass) = &node.pass {
                let needed = zones[pass.target];
                if let Some(point) = (needed - pass.zone).iter().next() {
                    first = Some(CertificateError::ZoneLeavesOut {
                        node: i,
                        target: pass.target,
                        point,
                    });
                }
                zone |= needed;
            }
            zones[i] = zone;
        }
        first.map_or(Ok(()), Err)
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

    /// Checks that every outcome of the loser's node `i` (in `legal`, with
    /// a move giving it) not in `covered` is the winner's goal, a placement
    /// outside the zone of the node's `pass` line, or answered by its
    /// `else` move. Returns the union of the `else` move's zones after
    /// each outcome it answers if `with_zones`.
    fn check_unlisted(
        &self,
        i: usize,
        legal: &[(Move, Position)],
        covered: &HashSet<Position>,
        with_zones: bool,
    ) -> Result<Bitboard, CertificateError> {
        let node = &self.nodes[i];
        let mut zone = Bitboard::EMPTY;
        for (mv, outcome) in legal {
            // The loser's own goal needs no answer, `else` line or not.
            if covered.contains(outcome) || outcome.winner() == Some(self.winner) {
                continue;
            }
            if let (Some(pass), Move::Place(p)) = (&node.pass, mv) {
                if !pass.zone.contains(*p) {
                    continue;
                }
            }
            let Some(answer) = &node.otherwise else {
                return Err(CertificateError::MissingReply {
                    node: i,
                    mv: mv.clone(),
                });
            };
            if !outcome
                .play(answer)
                .is_ok_and(|after| after.winner() == Some(self.winner))
            {
                return Err(CertificateError::ElseDoesNotScore {
                    node: i,
                    mv: mv.clone(),
                    answer: answer.clone(),
                });
            }
            if with_zones {
                zone |= outcome.move_zone(answer);
            }
        }
        Ok(zone)
    }
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

/// The outcomes of the legal moves of a loser's node.
struct Outcomes {
    /// The legal moves in the core's order, one a distinct outcome
    /// (every placement among them), each with its outcome.
    legal: Vec<(Move, Position)>,
    /// The set of those outcomes.
    all: HashSet<Position>,
}

/// The outcomes of every legal move at node `i`, whose position is `pos`.
fn outcomes(i: usize, pos: &Position, budget: &Budget<'_>) -> Result<Outcomes, CertificateError> {
    let moves = pos.legal_moves_within(budget)?;
    let mut legal = Vec::with_capacity(moves.len());
    let mut all = HashSet::with_capacity(moves.len());
    for m in moves {
        let after = play_listed(i, pos, &m)?;
        if all.insert(after) {
            legal.push((m, after));
        }
    }
    Ok(Outcomes { legal, all })
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
