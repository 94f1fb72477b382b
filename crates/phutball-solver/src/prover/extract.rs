//! From a proved root to a [`Certificate`]: the proof graph read back from
//! the search's table (a node whose entry was evicted is proved again) or
//! from a tablebase (the shortest win at each of the winner's nodes), with
//! one node per distinct position, numbered so that every move leads to a
//! later node.

use std::collections::HashMap;

use phutball::{Bitboard, Budget, Move, Position, SearchError, Side};

use super::dfpn::{play, Dfpn, Expansion, Stop};
use crate::certificate::{Certificate, CertificateNode, PassAnswer, Target};
use crate::tablebase::Tablebase;
use crate::value::Value;

/// Where the winner's moves come from.
pub(crate) enum Source<'d, 'b> {
    /// A df-pn search that proved the root (its table, or a search again).
    Search(&'d mut Dfpn<'b>),
    /// A tablebase that covers the board.
    Table(&'d Tablebase),
}

/// Where a node's move leads while the graph is built: a goal, or a node
/// by its place in the post-order list.
#[derive(Copy, Clone)]
enum Edge {
    Goal,
    Done(usize),
}

/// A node's moves while the graph is built, its `else` answer, and its
/// pass (the node of the pass and its zone).
struct Moves {
    listed: Vec<(Move, Edge)>,
    otherwise: Option<Move>,
    pass: Option<(usize, Bitboard)>,
}

impl Moves {
    fn one(m: Move, edge: Edge) -> Moves {
        Moves {
            listed: vec![(m, edge)],
            otherwise: None,
            pass: None,
        }
    }
}

/// Builds the certificate of a root `dfpn` proved, within a memory allowance.
pub(crate) struct Extractor<'d, 'b> {
    source: Source<'d, 'b>,
    winner: Side,
    inner: &'d Budget<'d>,
    /// Finished nodes, in post-order: position, moves, `else` answer.
    done: Vec<(Position, Moves)>,
    /// The zone of each finished node's proof (as the checker computes it).
    zones: Vec<Bitboard>,
    index: HashMap<Position, usize>,
    /// The keys of the positions on the current line.
    line: Vec<u64>,
    bytes: usize,
    memory_limit: usize,
}

/// Rough bytes one node of the graph takes (position, index, moves).
const NODE_BYTES: usize = 512;

impl<'d, 'b> Extractor<'d, 'b> {
    pub(crate) fn new(
        source: Source<'d, 'b>,
        winner: Side,
        inner: &'d Budget<'d>,
        memory_limit: usize,
    ) -> Extractor<'d, 'b> {
        Extractor {
            source,
            winner,
            inner,
            done: Vec::new(),
            zones: Vec::new(),
            index: HashMap::new(),
            line: Vec::new(),
            bytes: 0,
            memory_limit,
        }
    }

    /// The certificate of `root`, which the search has proved.
    pub(crate) fn certificate(mut self, root: &Position) -> Result<Certificate, ExtractError> {
        let Edge::Done(root_index) = self.node(root)? else {
            return Err(lost());
        };
        // Nodes finished while a child that failed was tried are complete
        // proofs, but nothing may lead to them: keep what the root reaches.
        let mut reached = vec![false; self.done.len()];
        let mut stack = vec![root_index];
        while let Some(i) = stack.pop() {
            if std::mem::replace(&mut reached[i], true) {
                continue;
            }
            let moves = &self.done[i].1;
            for (_, e) in &moves.listed {
                if let Edge::Done(j) = *e {
                    stack.push(j);
                }
            }
            if let Some((j, _)) = moves.pass {
                stack.push(j);
            }
        }
        // Reverse post-order is a topological order: every edge goes to a
        // later node.
        let mut new_index = vec![usize::MAX; self.done.len()];
        for (next, i) in (0..self.done.len())
            .rev()
            .filter(|&i| reached[i])
            .enumerate()
        {
            new_index[i] = next;
        }
        let nodes = self
            .done
            .into_iter()
            .enumerate()
            .rev()
            .filter(|(i, _)| reached[*i])
            .map(|(_, (position, moves))| CertificateNode {
                position,
                otherwise: moves.otherwise,
                pass: moves.pass.map(|(j, zone)| PassAnswer {
                    target: new_index[j],
                    zone,
                }),
                moves: moves
                    .listed
                    .into_iter()
                    .map(|(m, e)| {
                        let target = match e {
                            Edge::Goal => Target::Goal,
                            Edge::Done(i) => Target::Node(new_index[i]),
                        };
                        (m, target)
                    })
                    .collect(),
            })
            .collect();
        Ok(Certificate {
            winner: self.winner,
            nodes,
        })
    }

    fn node(&mut self, pos: &Position) -> Result<Edge, ExtractError> {
        if pos.winner() == Some(self.winner) {
            return Ok(Edge::Goal);
        }
        if let Some(&i) = self.index.get(pos) {
            return Ok(Edge::Done(i));
        }
        let key = pos.zobrist();
        if self.line.contains(&key) || pos.is_finished() {
            return Err(lost());
        }
        self.bytes += NODE_BYTES;
        if self.bytes > self.memory_limit {
            return Err(ExtractError::Stop(SearchError::MemoryLimit {
                limit: self.memory_limit,
                what: "the proof's certificate",
            }));
        }
        self.line.push(key);
        let moves = if pos.to_move() == self.winner {
            self.attacker_move(pos)
        } else {
            self.defender_replies(pos)
        };
        self.line.pop();
        let moves = moves?;
        let zone = self.zone(pos, &moves);
        self.zones.push(zone);
        self.done.push((*pos, moves));
        let i = self.done.len() - 1;
        self.index.insert(*pos, i);
        Ok(Edge::Done(i))
    }

    /// The attacker's move: a scoring jump, else the proved child whose
    /// proof has the smallest zone, then the least work behind it (the
    /// smallest proof), proving it again if the table lost it.
    fn attacker_move(&mut self, pos: &Position) -> Result<Moves, ExtractError> {
        match &self.source {
            Source::Search(_) => {}
            Source::Table(table) => {
                // The shortest win: its child's distance is one ply less,
                // so the line never comes back to itself.
                let Some(Value::Win { .. }) = table.probe(pos) else {
                    return Err(lost());
                };
                let m = table.best_move(pos).ok_or_else(lost)?;
                let edge = self.node(&play(pos, &m))?;
                return Ok(Moves::one(m, edge));
            }
        }
        // A child's proof may come back to a position on the current line
        // (the table proved it on another line): then the next proved child
        // is tried, and when none is left the node is proved again with the
        // line avoided. Finished nodes stay: each is a complete proof.
        let mut failed: Vec<u64> = Vec::new();
        for attempt in 0..3 {
            let Source::Search(dfpn) = &mut self.source else {
                return Err(lost());
            };
            let children = match dfpn.expand(pos)? {
                Expansion::Decided(0, _, Some(m)) => return Ok(Moves::one(m, Edge::Goal)),
                Expansion::Decided(..) => return Err(lost()),
                Expansion::Open(children) => children,
            };
            let (index, line) = (&self.index, &self.line);
            let mut proved: Vec<_> = children
                .into_iter()
                .filter(|c| {
                    let key = c.pos.zobrist();
                    (index.contains_key(&c.pos)
                        || dfpn.table.get(dfpn.key(&c.pos)).is_some_and(|n| n.0 == 0))
                        && !line.contains(&key)
                        && !failed.contains(&key)
                })
                .map(|c| {
                    // The smallest kept zone first (as the search's), then
                    // the least work behind it (the smallest proof).
                    let key = dfpn.key(&c.pos);
                    let zone = dfpn
                        .zone_of(key)
                        .map_or(u32::MAX, |z| (pos.move_zone(&c.mv) | z).count());
                    ((zone, dfpn.table.work(key)), c)
                })
                .collect();
            proved.sort_by_key(|(order, _)| *order);
            #[cfg(test)]
            if tests::distrusted(pos) && attempt < 2 {
                // The test below: as if every proved child came back to the line.
                proved.clear();
            }
            for (_, child) in proved {
                match self.node(&child.pos) {
                    Ok(edge) => return Ok(Moves::one(child.mv, edge)),
                    Err(ExtractError::Lost) => failed.push(child.pos.zobrist()),
                    Err(e) => return Err(e),
                }
            }
            if let Source::Search(dfpn) = &mut self.source {
                if attempt == 1 {
                    // The table's proofs of the children are tied to other
                    // lines: a table that forgot them proves this node anew.
                    #[cfg(test)]
                    if tests::distrusted(pos) {
                        tests::EMPTIED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                    dfpn.table = dfpn.table.emptied()?;
                }
                if attempt < 2 {
                    failed.clear();
                    prove_again(dfpn, pos, &self.line)?;
                }
            }
        }
        Err(lost())
    }

    /// Every reply of the defender with a distinct outcome: those after
    /// which the attacker's present scoring jump (if it has one) still
    /// scores are left to the `else` line; else, where the search proved
    /// the pass, the placements outside its proof's zone are left to the
    /// `pass` line; the others are listed.
    fn defender_replies(&mut self, pos: &Position) -> Result<Moves, ExtractError> {
        let threat = pos.end_turn().scoring_jump_within(self.inner)?;
        let pass = match threat {
            Some(_) => None,
            None => self.pass(pos)?,
        };
        let replies = self.dfpn_inner_moves(pos)?;
        let mut out = Vec::new();
        let mut answered = false;
        for m in replies {
            if let (Some((_, zone)), Move::Place(p)) = (&pass, &m) {
                if !zone.contains(*p) {
                    continue;
                }
            }
            let after = play(pos, &m);
            let attacker = Some(self.winner);
            let scores = |t: &Move| after.play(t).is_ok_and(|a| a.winner() == attacker);
            // An own goal needs no answer where there is an `else` line.
            if threat.is_some()
                && (after.winner() == attacker || threat.as_ref().is_some_and(scores))
            {
                answered = true;
                continue;
            }
            let edge = self.node(&after)?;
            out.push((m, edge));
        }
        Ok(Moves {
            listed: out,
            otherwise: threat.filter(|_| answered),
            pass,
        })
    }

    /// The pass of the defender's node `pos` where the search proved it:
    /// its node and its proof's zone (`None` where it did not, or where
    /// its proof comes back to the current line).
    fn pass(&mut self, pos: &Position) -> Result<Option<(usize, Bitboard)>, ExtractError> {
        let Source::Search(dfpn) = &self.source else {
            return Ok(None);
        };
        let pass = pos.end_turn();
        let key = dfpn.key(&pass);
        // Proved in the table, or (a pass proof does little work, so the
        // table drops it first) with a zone kept, which only proofs get.
        if dfpn.table.get(key).is_none_or(|n| n.0 != 0) && dfpn.zone_of(key).is_none() {
            return Ok(None);
        }
        match self.node(&pass) {
            Ok(Edge::Done(i)) => Ok(Some((i, self.zones[i]))),
            Ok(Edge::Goal) | Err(ExtractError::Lost) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The zone of a finished node's proof, by the checker's rule: the
    /// winner's move's points and its target's zone; at the loser's node
    /// the points its jumps depend on, every reply's target's zone, the
    /// pass's zone and the `else` jump's points.
    fn zone(&self, pos: &Position, moves: &Moves) -> Bitboard {
        let of = |e: &Edge| match *e {
            Edge::Goal => Bitboard::EMPTY,
            Edge::Done(i) => self.zones[i],
        };
        if pos.to_move() == self.winner {
            return moves
                .listed
                .iter()
                .fold(Bitboard::EMPTY, |z, (m, e)| z | pos.move_zone(m) | of(e));
        }
        let mut zone = pos.jump_zone();
        for (_, e) in &moves.listed {
            zone |= of(e);
        }
        if let Some((_, pass_zone)) = moves.pass {
            zone |= pass_zone;
        }
        if let Some(m) = &moves.otherwise {
            zone |= pos.move_zone(m);
        }
        zone
    }

    /// All legal moves of `pos` (placements and one jump per outcome).
    fn dfpn_inner_moves(&self, pos: &Position) -> Result<Vec<Move>, Stop> {
        pos.legal_moves_within(self.inner)
    }
}

/// Proves `pos` again with `dfpn` (its table lost the proof), avoiding the
/// positions of `line` (zobrist keys of the certificate's current line).
fn prove_again(dfpn: &mut Dfpn<'_>, pos: &Position, line: &[u64]) -> Result<(), ExtractError> {
    let limit = dfpn.node_limit;
    dfpn.node_limit = u64::MAX;
    let keys: Vec<u64> = line.iter().map(|&k| dfpn.key_of_zobrist(k)).collect();
    let result = dfpn.search_avoiding(pos, &keys);
    dfpn.node_limit = limit;
    match result? {
        (0, _) => Ok(()),
        _ => Err(lost()),
    }
}

/// Why no certificate came out.
pub(crate) enum ExtractError {
    /// The caller's budget stopped it.
    Stop(Stop),
    /// The search's proof could not be read back: a table entry that a
    /// search again contradicted (the disproofs of cycles depend on the
    /// path), or a line that comes back to itself.
    Lost,
}

impl From<Stop> for ExtractError {
    fn from(e: Stop) -> ExtractError {
        ExtractError::Stop(e)
    }
}

fn lost() -> ExtractError {
    ExtractError::Lost
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

    use phutball::{BoardSize, Budget, Position, Rules};

    use crate::Value;

    /// The board (`cols << 8 | rows`, 0: none) on which the attacker's
    /// moves find no usable proved child twice, so that each goes to the
    /// emptied table: the path the 5x11 start met once (`tests/prover.rs`,
    /// ignored: a minute of CPU). A board, not a flag, so that the other
    /// tests of this crate, proving on other boards on other threads at the
    /// same time, are untouched; a static, for the prover's own thread.
    static DISTRUSTED_BOARD: AtomicU32 = AtomicU32::new(0);
    /// How many times a table was emptied on that board.
    pub(super) static EMPTIED: AtomicUsize = AtomicUsize::new(0);

    fn board_code(size: BoardSize) -> u32 {
        u32::from(size.cols()) << 8 | u32::from(size.rows())
    }

    pub(super) fn distrusted(pos: &Position) -> bool {
        DISTRUSTED_BOARD.load(Ordering::Relaxed) == board_code(pos.size())
    }

    #[test]
    fn a_node_whose_proved_children_all_fail_is_proved_again_with_an_emptied_table() {
        // 3x7: no other test of this crate's own proves on it. The search
        // alone (no tablebase: 21 points would get one).
        let size = BoardSize::new(3, 7).unwrap();
        let start = Position::start_with(size, Rules::default()).unwrap();
        let search = |pos: &Position| {
            crate::prove_with_tablebase_within(pos, &Budget::default(), None).expect("proved")
        };
        let trusted = search(&start);
        DISTRUSTED_BOARD.store(board_code(size), Ordering::Relaxed);
        let proof = search(&start);
        DISTRUSTED_BOARD.store(0, Ordering::Relaxed);
        assert!(
            EMPTIED.load(Ordering::Relaxed) > 0,
            "the emptied table's path was not taken"
        );
        assert_eq!(proof.value.is_some(), trusted.value.is_some());
        assert!(matches!(proof.value, Some(Value::Win { .. })), "{proof:?}");
        let certificate = proof.certificate.expect("a certificate");
        let checked = certificate
            .check(&Budget::default())
            .expect("the certificate holds");
        assert_eq!(checked.root, start);
    }
}
