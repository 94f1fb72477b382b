//! Proofs in parts: the positions K plies below a root (its frontier), each
//! proved on its own (by another thread, process or machine), and the
//! answers combined into one certificate of the root. The distributed
//! prover (`phutball.distributed.prove`) is this, with Ray tasks between.

use std::collections::{HashMap, HashSet};

use phutball::{Budget, Move, Position, SearchError, Side};

use crate::certificate::{Certificate, CertificateNode, PassAnswer, Target};
use crate::error::SolverError;
use crate::prover::{finish, Proof};

/// The distinct unfinished positions `plies` plies below `root`: every legal
/// move (one per distinct outcome) of every position, down to that depth,
/// stopping at finished positions. `plies` 0 is the root itself.
///
/// ```
/// use phutball::{Budget, Position};
/// use phutball_solver::frontier_within;
/// // 1x3: Ohs has two placements (A1, A3), and no jump.
/// let root: Position = "1/@/1 O".parse()?;
/// assert_eq!(frontier_within(&root, 1, &Budget::default())?.len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`SolverError::Finished`] for a finished root; [`SolverError::Search`]
/// when `budget` stops an enumeration, or the frontier would hold more
/// positions than its memory limit allows (about 256 bytes each).
pub fn frontier_within(
    root: &Position,
    plies: u32,
    budget: &Budget<'_>,
) -> Result<Vec<Position>, SolverError> {
    if root.is_finished() {
        return Err(SolverError::Finished);
    }
    let limit = budget.memory_limit() / 256;
    let mut level = vec![*root];
    for _ in 0..plies {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for pos in &level {
            for m in pos.legal_moves_within(budget)? {
                let child = played(pos, &m);
                if !child.is_finished() && seen.insert(child) {
                    if next.len() >= limit {
                        return Err(SearchError::MemoryLimit {
                            limit: budget.memory_limit(),
                            what: "the frontier",
                        }
                        .into());
                    }
                    next.push(child);
                }
            }
        }
        level = next;
    }
    Ok(level)
}

/// What the combination knows of a position of the top tree: proved for
/// the winner tried, or not.
struct Top<'c> {
    winner: Side,
    /// The frontier's certificates that prove `winner` wins, by root.
    proofs: HashMap<Position, &'c Certificate>,
    nodes: Vec<CertificateNode>,
    /// The certificates to append, in order, with the top node's index of
    /// the move that leads to each.
    appended: Vec<(&'c Certificate, usize, usize)>,
}

/// Combines `proofs` (certificates of positions of the frontier of `root`
/// at `plies`, as [`frontier_within`] gives it, or of any positions at most
/// `plies` plies below it; each certificate's root is its first node) into
/// a proof of `root`, if they prove one: the top plies are searched
/// exhaustively (every reply of the loser, one proved move of the winner)
/// down to a position with a certificate or `plies` deep, the
/// certificates appended. The
/// result is checked as any proof is ([`Certificate::check`]).
///
/// A frontier position without a certificate counts as not proved, so the
/// root may still be proved when some tasks failed (the winner avoids
/// them). `Ok` with `value: None` when the frontier's proofs do not settle
/// the root.
///
/// # Errors
///
/// [`SolverError::Finished`] for a finished root, [`SolverError::Search`]
/// when `budget` stops an enumeration, [`SolverError::Unsound`] if the
/// combined certificate fails its check (a certificate given was wrong).
pub fn combine_within(
    root: &Position,
    plies: u32,
    proofs: &[Certificate],
    budget: &Budget<'_>,
) -> Result<Proof, SolverError> {
    if root.is_finished() {
        return Err(SolverError::Finished);
    }
    for winner in [root.to_move(), root.to_move().opponent()] {
        let mut top = Top {
            winner,
            proofs: proofs
                .iter()
                .filter(|c| c.winner == winner)
                .filter_map(|c| c.root().map(|r| (*r, c)))
                .collect(),
            nodes: Vec::new(),
            appended: Vec::new(),
        };
        if top.prove(root, plies, budget)?.is_some() {
            let certificate = top.certificate();
            return finish(certificate, root.to_move(), budget, 0, 0);
        }
    }
    Ok(Proof {
        value: None,
        exact: false,
        line: Vec::new(),
        certificate: None,
        nodes: 0,
        table_entries: 0,
        stopped: None,
        exhausted: false,
        numbers: None,
    })
}

/// Where a top node's move leads: a goal, a top node, or the root of an
/// appended certificate (by its place in `appended`).
enum Edge {
    Goal,
    Node(usize),
    Appended(usize),
}

impl Top<'_> {
    /// Proves `pos` for the winner with `plies` plies of the top tree left:
    /// the edge to it, or `None`. Top nodes are added only for positions
    /// proved (an unproved subtree is rolled back).
    fn prove(
        &mut self,
        pos: &Position,
        plies: u32,
        budget: &Budget<'_>,
    ) -> Result<Option<Edge>, SolverError> {
        if let Some(winner) = pos.winner() {
            return Ok((winner == self.winner).then_some(Edge::Goal));
        }
        // A position with a certificate is a leaf at any depth, so the
        // proofs of a tree cut unevenly (a job-level driver's leaves)
        // combine as well as a frontier's.
        if let Some(c) = self.proofs.get(pos).copied() {
            self.appended.push((c, usize::MAX, usize::MAX));
            return Ok(Some(Edge::Appended(self.appended.len() - 1)));
        }
        if plies == 0 {
            return Ok(None);
        }
        let index = self.nodes.len();
        self.nodes.push(CertificateNode {
            position: *pos,
            moves: Vec::new(),
            otherwise: None,
            pass: None,
        });
        let appended = self.appended.len();
        let mut moves = Vec::new();
        let winner_to_move = pos.to_move() == self.winner;
        for m in pos.legal_moves_within(budget)? {
            let child = played(pos, &m);
            let edge = self.prove(&child, plies - 1, budget)?;
            match (edge, winner_to_move) {
                (Some(edge), true) => {
                    moves = vec![(m, edge)];
                    break;
                }
                (Some(edge), false) => moves.push((m, edge)),
                (None, true) => {}
                (None, false) => {
                    moves.clear();
                    break;
                }
            }
        }
        if moves.is_empty() {
            // Roll back what this subtree added.
            self.nodes.truncate(index);
            self.appended.truncate(appended);
            return Ok(None);
        }
        for (i, (m, edge)) in moves.into_iter().enumerate() {
            let target = match edge {
                Edge::Goal => Target::Goal,
                Edge::Node(n) => Target::Node(n),
                Edge::Appended(a) => {
                    self.appended[a].1 = index;
                    self.appended[a].2 = i;
                    // Filled in by `certificate`, once the top is complete.
                    Target::Node(usize::MAX)
                }
            };
            self.nodes[index].moves.push((m, target));
        }
        Ok(Some(Edge::Node(index)))
    }

    /// The top nodes, then each appended certificate's nodes, renumbered.
    fn certificate(mut self) -> Certificate {
        let mut offset = self.nodes.len();
        let mut nodes = Vec::new();
        for (c, parent, slot) in &self.appended {
            if *parent == usize::MAX {
                // The frontier root itself (plies 0): the root is proved by it.
                return (*c).clone();
            }
            self.nodes[*parent].moves[*slot].1 = Target::Node(offset);
            for n in &c.nodes {
                let moves = n
                    .moves
                    .iter()
                    .map(|(m, t)| {
                        let t = match *t {
                            Target::Goal => Target::Goal,
                            Target::Node(k) => Target::Node(k + offset),
                        };
                        (m.clone(), t)
                    })
                    .collect();
                nodes.push(CertificateNode {
                    position: n.position,
                    moves,
                    otherwise: n.otherwise.clone(),
                    pass: n.pass.as_ref().map(|p| PassAnswer {
                        target: p.target + offset,
                        zone: p.zone,
                    }),
                });
            }
            offset += c.nodes.len();
        }
        let mut all = self.nodes;
        all.extend(nodes);
        Certificate {
            winner: self.winner,
            nodes: all,
        }
    }
}

fn played(pos: &Position, m: &Move) -> Position {
    match pos.play(m) {
        Ok(after) => after,
        Err(e) => unreachable!("the core listed {m} as legal in {pos}: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prove_within;
    use crate::Value;

    fn proofs_of(frontier: &[Position]) -> Vec<Certificate> {
        frontier
            .iter()
            .filter_map(|p| prove_within(p, &Budget::default().with_work_limit(200_000)).ok())
            .filter_map(|p| p.certificate)
            .collect()
    }

    #[test]
    fn frontier_proofs_combine_into_a_proof_of_the_root() {
        let root: Position = "5/5/2@2/5/5 O".parse().unwrap();
        for plies in 0..=2 {
            let frontier = frontier_within(&root, plies, &Budget::default()).unwrap();
            let proof =
                combine_within(&root, plies, &proofs_of(&frontier), &Budget::default()).unwrap();
            assert!(
                matches!(proof.value, Some(Value::Win { .. })),
                "{plies}: {proof:?}"
            );
            let checked = proof
                .certificate
                .unwrap()
                .check(&Budget::default())
                .unwrap();
            assert_eq!(checked.winner, Side::Ohs);
        }
        assert_eq!(
            frontier_within(&root, 1, &Budget::default()).unwrap().len(),
            24
        );
    }

    #[test]
    fn a_missing_proof_the_winner_avoids_is_no_loss_and_one_it_needs_is_unknown() {
        let root: Position = "5/5/2@2/5/5 O".parse().unwrap();
        let frontier = frontier_within(&root, 1, &Budget::default()).unwrap();
        let mut proofs = proofs_of(&frontier);
        // Keep only the winning first move's proof: still proved.
        proofs.retain(|c| c.winner == Side::Ohs);
        assert_eq!(
            proofs.len(),
            proofs.iter().filter(|c| c.winner == Side::Ohs).count()
        );
        let proof = combine_within(&root, 1, &proofs, &Budget::default()).unwrap();
        assert!(proof.value.is_some());
        // Two plies deep, drop a reply's proof at the winner's best move:
        // the move is not proved; with every other move unproved, unknown.
        let frontier = frontier_within(&root, 2, &Budget::default()).unwrap();
        let best = prove_within(&root, &Budget::default()).unwrap().line[0].clone();
        let after_best = root.play(&best).unwrap();
        let a_reply = after_best.play(&"A1".parse().unwrap()).unwrap();
        let proofs: Vec<Certificate> = proofs_of(&frontier)
            .into_iter()
            .filter(|c| c.winner == Side::Ohs && c.root() != Some(&a_reply))
            .filter(|c| c.root().is_some_and(|r| frontier.contains(r)))
            .collect();
        let proof = combine_within(&root, 2, &proofs, &Budget::default()).unwrap();
        if let Some(c) = &proof.certificate {
            // Another first move was proved: not the one whose reply lacks a proof.
            assert!(c.check(&Budget::default()).is_ok());
            assert_ne!(c.nodes[0].moves[0].0, best);
        }
        let none = combine_within(&root, 2, &[], &Budget::default()).unwrap();
        assert_eq!(none.value, None);
    }

    #[test]
    fn proofs_cut_unevenly_combine_too() {
        // The winner's best first move proved as a whole at ply 1; the
        // other branches' positions two plies down: only the first is used.
        let root: Position = "5/5/2@2/5/5 O".parse().unwrap();
        let best = prove_within(&root, &Budget::default()).unwrap().line[0].clone();
        let after_best = root.play(&best).unwrap();
        let mut proofs = proofs_of(&[after_best]);
        assert_eq!(proofs.len(), 1);
        proofs.extend(proofs_of(
            &frontier_within(&root, 2, &Budget::default()).unwrap(),
        ));
        let proof = combine_within(&root, 2, &proofs, &Budget::default()).unwrap();
        let certificate = proof.certificate.expect("proved");
        assert_eq!(certificate.nodes[0].moves, vec![(best, Target::Node(1))]);
        assert_eq!(certificate.nodes[1].position, after_best);
        assert!(certificate.check(&Budget::default()).is_ok());
        // A certificate deeper than the plies the top may search is not met.
        let deep = proofs_of(&frontier_within(&root, 2, &Budget::default()).unwrap());
        let shallow = combine_within(&root, 1, &deep, &Budget::default()).unwrap();
        assert_eq!(shallow.value, None);
    }
}
