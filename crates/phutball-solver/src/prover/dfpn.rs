//! Depth-first proof-number search (df-pn, Nagai 2002) with the 1 + ε
//! trick of Pawlewicz and Lew (2007): a child is searched until its proof
//! (or disproof) number passes the second-best sibling's by a quarter, so
//! the search does not thrash between two nearly equal children.
//!
//! One search proves that `attacker` forces a goal. At the attacker's
//! nodes (OR) any one move will do; at the defender's nodes (AND) every
//! distinct outcome of every legal move must lose. Both kinds of node look
//! one ply ahead with the core's can-score: the attacker wins at once
//! where it can score, and a defender's reply after which the attacker can
//! score is proved without a node of its own.
//!
//! Cycles: the game has no repetition rule, so a line that comes back to a
//! position on the current path wins nothing for the attacker; such a
//! child counts as disproved. That disproof depends on the path (the
//! graph-history interaction), so a disproof may be wrong elsewhere; a
//! proof never is, since proofs rest only on goals. Disproofs are never
//! reported as results, and every proof is checked as a certificate.

// pn and dn, proof and disproof numbers, are the method's own names.
#![allow(clippy::similar_names)]

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};

use phutball::{Bitboard, Budget, Move, Point, Position, SearchError, Side};

use super::parallel::Crew;
use super::table::{ProofTable, Table};

/// Infinity for proof numbers: a proved or disproved node.
pub(crate) const INF: u32 = u32::MAX / 4;

/// Plies below the root past which a node counts as disproved (a win that
/// needs more is not searched for; it keeps the recursion bounded).
pub(crate) const MAX_DEPTH: u32 = 400;

/// Initial proof numbers of the attacker's moves, by kind: a threat (a
/// placement after which the attacker could score) needs the fewest
/// defences refuted, a quiet placement the most. Jumps lie between.
const THREAT_PN: u32 = 1;
const JUMP_PN: u32 = 4;
const QUIET_PN: u32 = 12;

/// Nodes a parallel search's thread counts before it adds them to the
/// threads' shared count.
pub(crate) const CREW_BATCH: u64 = 32;

/// Nodes between two polls of the caller's stop.
const POLL_NODES: u64 = 256;

/// A child of a node, with the move that reaches it.
pub(crate) struct Child {
    pub(crate) mv: Move,
    pub(crate) pos: Position,
    /// Its key in the search's table.
    key: u64,
    /// The proof number to assume before it is searched.
    init_pn: u32,
    /// The defender's pass: the same position with the attacker to move
    /// (not a move of the game; its proof answers the defender's
    /// placements outside the proof's zone).
    pub(crate) pass: bool,
}

/// What one ply of look-ahead says of a node.
pub(crate) enum Expansion {
    /// Decided without search: proof and disproof numbers (0 or INF), and
    /// the attacker's winning move when it scores now.
    Decided(u32, u32, Option<Move>),
    /// The children still to be decided (a defender's node lists only the
    /// replies after which the attacker cannot score at once).
    Open(Vec<Child>),
}

/// Why a search stopped without an answer.
pub(crate) type Stop = SearchError;

/// One df-pn search for `attacker`, over its own table or, as one thread
/// of a parallel search, a shared one.
pub(crate) struct Dfpn<'b, T: ProofTable = Table> {
    pub(crate) attacker: Side,
    pub(crate) table: T,
    /// The keys of the positions on the current path.
    path: HashSet<u64, BuildHasherDefault<KeyHasher>>,
    pub(crate) nodes: u64,
    /// The node count at which this round of search stops.
    pub(crate) node_limit: u64,
    /// The caller's budget: its cancel flag and hook, polled.
    pub(crate) stop: &'b Budget<'b>,
    /// The budget of the core calls (the caller's stop, no work limit).
    pub(crate) inner: &'b Budget<'b>,
    /// Asked at each poll: whether to stop now for a checkpoint's save
    /// (the search then returns as at its round's end, with `paused` set).
    pub(crate) pause: Option<&'b (dyn Fn() -> bool + Sync)>,
    /// The last stop was a pause, not the round's end.
    pub(crate) paused: bool,
    /// Pause at fixed node counts ([`next_pause_point`]) instead of when
    /// `pause` says a save is due: a search that pauses (and so goes back
    /// to its root) at the same nodes whenever it is saved goes the same
    /// way from a saved state as it went without the interruption.
    pub(crate) pause_at_points: bool,
    /// The next pause point (0: not known yet).
    next_pause: u64,
    /// Set when the other search has proved the position: this one stops
    /// (as at its round's end, with `halted` set).
    pub(crate) halt: Option<&'b AtomicBool>,
    /// The last stop was for `halt`.
    pub(crate) halted: bool,
    /// The root's (pn, dn) as the search last combined its children's,
    /// stopped or not (`None` before it has looked at the root's children).
    pub(crate) root_numbers: Option<(u32, u32)>,
    /// Proofs and disproofs this search has stored: a child's search that
    /// stored none cannot have settled a sibling through a transposition.
    settled_puts: u64,
    /// The other threads of a parallel search, if any: their node count
    /// (which the node limit then bounds), their stop, the nodes they are in.
    pub(crate) crew: Option<&'b Crew>,
    /// The zones of the proofs this search found, by key (a key without
    /// one counts as depending on every point).
    zones: RefCell<HashMap<u64, Bitboard, BuildHasherDefault<KeyHasher>>>,
    /// The most zones kept: past it the map starts again.
    zone_capacity: usize,
}

/// A defender's node's pass: its position, key and numbers in the table.
type PassState = (Position, u64, Option<(u32, u32)>);

/// The most positions a zone not kept is worked out from
/// ([`Dfpn::proved_zone`]).
const ZONE_WALK: u32 = 64;

/// Bytes a kept zone takes (a bitboard, its key and the map's overhead).
const ZONE_BYTES: usize = 160;

impl<'b, T: ProofTable> Dfpn<'b, T> {
    pub(crate) fn new(
        attacker: Side,
        table: T,
        stop: &'b Budget<'b>,
        inner: &'b Budget<'b>,
    ) -> Dfpn<'b, T> {
        Dfpn {
            attacker,
            table,
            path: HashSet::default(),
            nodes: 0,
            node_limit: u64::MAX,
            stop,
            inner,
            pause: None,
            paused: false,
            pause_at_points: false,
            next_pause: 0,
            halt: None,
            halted: false,
            crew: None,
            root_numbers: None,
            settled_puts: 0,
            zones: RefCell::default(),
            // A sixteenth of the memory limit.
            zone_capacity: (stop.memory_limit() / 16 / ZONE_BYTES).max(1024),
        }
    }

    /// The zone of the proof of `key`, if this search kept it.
    pub(crate) fn zone_of(&self, key: u64) -> Option<Bitboard> {
        self.zones.borrow().get(&key).copied()
    }

    /// Keeps the zone of a proof of `key`.
    fn keep_zone(&self, key: u64, zone: Bitboard) {
        let mut zones = self.zones.borrow_mut();
        if zones.len() >= self.zone_capacity {
            zones.clear();
        }
        zones.insert(key, zone);
    }

    /// The zone of the proof of `pos`, which the table has as proved: the
    /// kept one, or, where it was not kept (a resumed checkpoint, a full
    /// map), worked out again from the table's proof below `pos`, visiting
    /// at most `walk` more positions (`None` if that does not do).
    fn proved_zone(&self, pos: &Position, walk: &mut u32) -> Result<Option<Bitboard>, Stop> {
        if pos.winner() == Some(self.attacker) {
            return Ok(Some(Bitboard::EMPTY));
        }
        let key = self.key(pos);
        if let Some(zone) = self.zone_of(key) {
            return Ok(Some(zone));
        }
        if *walk == 0 || self.path.contains(&key) || self.table.get(key).is_none_or(|n| n.0 != 0) {
            return Ok(None);
        }
        *walk -= 1;
        let zone = if pos.to_move() == self.attacker {
            match self.expand(pos)? {
                Expansion::Decided(0, _, Some(m)) => Some(pos.move_zone(&m)),
                Expansion::Decided(..) => None,
                Expansion::Open(children) => {
                    let proved = |c: &&Child| self.table.get(c.key).is_some_and(|n| n.0 == 0);
                    let mut found = None;
                    for c in children.iter().filter(proved) {
                        if let Some(zone) = self.proved_zone(&c.pos, walk)? {
                            found = Some(pos.move_zone(&c.mv) | zone);
                            break;
                        }
                    }
                    found
                }
            }
        } else {
            Some(self.defence_zone(pos, walk)?)
        };
        // A failed walk is not tried again: every point stands for it.
        self.keep_zone(key, zone.unwrap_or(pos.size().board_points()));
        Ok(zone)
    }

    /// Stores `key`'s numbers in the table, counting the settled ones.
    fn store(&mut self, key: u64, pn: u32, dn: u32, work: u64) {
        if pn == 0 || dn == 0 {
            self.settled_puts += 1;
        }
        self.table.put(key, pn, dn, work);
    }

    /// The key of `pos` in this search's table: the two searches of one
    /// proof may share a table.
    pub(crate) fn key(&self, pos: &Position) -> u64 {
        self.key_of_zobrist(pos.zobrist())
    }

    /// [`Dfpn::key`] from a position's zobrist hash.
    pub(crate) fn key_of_zobrist(&self, zobrist: u64) -> u64 {
        match self.attacker {
            Side::Ohs => zobrist,
            Side::Eks => zobrist ^ 0x9e37_79b9_7f4a_7c15,
        }
    }

    /// Searches `pos` until it is proved or disproved, or the round's node
    /// limit or the caller's budget stops it: (pn, dn) of the root.
    pub(crate) fn search(&mut self, pos: &Position) -> Result<(u32, u32), Stop> {
        self.paused = false;
        self.halted = false;
        self.mid(pos, INF, INF, 0)
    }

    /// Searches `pos` as [`Dfpn::search`] with the positions of `path` counted as
    /// on the current line (so a proof found does not pass through them).
    pub(crate) fn search_avoiding(
        &mut self,
        pos: &Position,
        path: &[u64],
    ) -> Result<(u32, u32), Stop> {
        let added: Vec<u64> = path
            .iter()
            .copied()
            .filter(|&k| self.path.insert(k))
            .collect();
        let result = self.mid(pos, INF, INF, path.len() as u32);
        for k in added {
            self.path.remove(&k);
        }
        result
    }

    /// The numbers of `child` as the table has them, or its initial ones.
    fn numbers(&self, child: &Child) -> (u32, u32) {
        if self.path.contains(&child.key) {
            return (INF, 0);
        }
        self.table.get(child.key).unwrap_or((child.init_pn, 1))
    }

    /// A child reached by `mv`.
    fn child(&self, mv: Move, pos: Position, init_pn: u32) -> Child {
        Child {
            key: self.key(&pos),
            mv,
            pos,
            init_pn,
            pass: false,
        }
    }

    /// Looks one ply ahead from `pos`: every child.
    pub(crate) fn expand(&self, pos: &Position) -> Result<Expansion, Stop> {
        Ok(match self.expand_deferring(pos)? {
            (Expansion::Open(mut children), quiet) => {
                children.extend(self.quiet_children(pos, quiet));
                Expansion::Open(children)
            }
            (decided, _) => decided,
        })
    }

    /// Looks one ply ahead from `pos`, but leaves the attacker's quiet
    /// placements as points, to be built only if the search gets to them
    /// ([`Dfpn::quiet_children`]): most attacker nodes are settled by a
    /// threat or a jump, and the quiet ones were most of the children
    /// built (a copy and a hash each).
    fn expand_deferring(&self, pos: &Position) -> Result<(Expansion, Vec<Point>), Stop> {
        if let Some(winner) = pos.winner() {
            let decided = if winner == self.attacker {
                Expansion::Decided(0, INF, None)
            } else {
                Expansion::Decided(INF, 0, None)
            };
            return Ok((decided, Vec::new()));
        }
        if pos.to_move() == self.attacker {
            self.expand_attack(pos)
        } else {
            Ok((self.expand_defence(pos)?, Vec::new()))
        }
    }

    /// The numbers of the attacker's quiet placements at `points` taken as
    /// one child (the least pn, the sum of dn), from the table where it has
    /// them, without building the children.
    fn quiet_numbers(&self, pos: &Position, points: &[Point]) -> (u32, u32) {
        let mut pn = INF;
        let mut dn = 0u32;
        for &p in points {
            let key = self.key_of_zobrist(pos.zobrist_after_placement(p));
            let (cpn, cdn) = if self.path.contains(&key) {
                (INF, 0)
            } else {
                self.table.get(key).unwrap_or((QUIET_PN, 1))
            };
            pn = pn.min(cpn);
            dn = dn.saturating_add(cdn).min(INF);
        }
        (pn, dn)
    }

    /// The children of the attacker's quiet placements at `points`, nearest
    /// the ball first.
    fn quiet_children(&self, pos: &Position, mut points: Vec<Point>) -> Vec<Child> {
        points.sort_by_key(|&p| distance(p, pos.ball()));
        points
            .into_iter()
            .map(|p| {
                let m = Move::Place(p);
                let after = play(pos, &m);
                self.child(m, after, QUIET_PN)
            })
            .collect()
    }

    /// The attacker's children of `pos` (the attacker to move), in the
    /// order the search tries them, and its quiet placements, not built;
    /// decided at once if one scores or none is left.
    fn expand_attack(&self, pos: &Position) -> Result<(Expansion, Vec<Point>), Stop> {
        if let Some(m) = pos.scoring_jump_within(self.inner)? {
            return Ok((Expansion::Decided(0, INF, Some(m)), Vec::new()));
        }
        // Threats first, then jumps, then quiet placements nearest the ball.
        let threats = pos.threat_placements_within(self.inner)?;
        let mut children: Vec<Child> = threats
            .iter()
            .map(|&p| {
                let m = Move::Place(p);
                let after = play(pos, &m);
                self.child(m, after, THREAT_PN)
            })
            .collect();
        for m in pos.jump_outcomes_within(self.inner)? {
            let after = play(pos, &m);
            // No jump scores (checked above): a finished one is an own goal.
            if !after.is_finished() {
                children.push(self.child(m, after, JUMP_PN));
            }
        }
        let quiet: Vec<Point> = pos
            .placement_points()
            .iter()
            .filter(|p| !threats.contains(p))
            .collect();
        if children.is_empty() && quiet.is_empty() {
            return Ok((Expansion::Decided(INF, 0, None), quiet));
        }
        Ok((Expansion::Open(children), quiet))
    }

    /// The pass of the defender's node `pos` and what the table knows of
    /// it: `None` where the pass is on the current line.
    fn pass_of(&self, pos: &Position) -> Option<PassState> {
        let pass = pos.end_turn();
        let key = self.key(&pass);
        if self.path.contains(&key) {
            return None;
        }
        Some((pass, key, self.table.get(key)))
    }

    /// The defender's replies to `pos` (the defender to move) that do not
    /// lose at once; decided if the defender can score or none is left.
    /// Where the attacker has no threat and the pass is still open, the
    /// pass comes first: while it is open the placements wait (the search
    /// takes the pass first), and once it is proved only those in its
    /// proof's zone stay ([`Dfpn::settle_pass`]).
    fn expand_defence(&self, pos: &Position) -> Result<Expansion, Stop> {
        if pos.can_score_within(self.inner)? {
            return Ok(Expansion::Decided(INF, 0, None));
        }
        // A placement leaves a scoring path of the attacker's as it is
        // unless it takes one of the path's landing points: only those
        // placements can stop the threat (the others are proved by
        // that path, without a can-score search each).
        let threat = pos.end_turn().scoring_jump_within(self.inner)?;
        let all = pos.placement_points();
        let (placements, pass) = match &threat {
            Some(m) => (all & stoppers(m), None),
            None => match self.pass_of(pos) {
                Some((pass, _, Some((0, _)))) => {
                    let zone = self.proved_zone(&pass, &mut { ZONE_WALK })?;
                    (all & zone.unwrap_or(all), None)
                }
                // A pass on the line, or one that fails (the attacker
                // cannot win even with two moves in a row): every placement.
                None | Some((_, _, Some((_, 0)))) => (all, None),
                Some((_, _, Some((pn, _)))) if pn >= PASS_PN_LIMIT => (all, None),
                Some((pass, key, _)) => (all, Some((pass, key))),
            },
        };
        let mut children = Vec::new();
        let mut consider = |m: Move, after: Position| -> Result<(), Stop> {
            // A finished reply is the defender's own goal (it cannot score).
            let key = self.key(&after);
            if after.is_finished() || self.table.get(key) == Some((0, INF)) {
                return Ok(());
            }
            if after.can_score_within(self.inner)? {
                return Ok(());
            }
            children.push(Child {
                mv: m,
                pos: after,
                key,
                init_pn: 1,
                pass: false,
            });
            Ok(())
        };
        for p in placements {
            let m = Move::Place(p);
            let after = play(pos, &m);
            consider(m, after)?;
        }
        for m in pos.jump_outcomes_within(self.inner)? {
            let after = play(pos, &m);
            consider(m, after)?;
        }
        if children.is_empty() {
            return Ok(Expansion::Decided(0, INF, None));
        }
        let waiting = children.iter().filter(|c| !c.mv.is_jump()).count();
        if let Some((pass, key)) = pass.filter(|_| waiting >= PASS_MIN_PLACEMENTS) {
            children.insert(
                0,
                Child {
                    // Not played: the pass is no move.
                    mv: Move::Place(pos.ball()),
                    pos: pass,
                    key,
                    init_pn: 1,
                    pass: true,
                },
            );
        }
        Ok(Expansion::Open(children))
    }

    /// Drops the settled pass (the first child) of a defender's node, and
    /// with a proved one, the placements outside its proof's zone.
    fn settle_pass(
        &self,
        children: &mut Vec<Child>,
        numbers: &mut Vec<(u32, u32)>,
    ) -> Result<(), Stop> {
        let (pass_pn, _) = numbers[0];
        let zone = if pass_pn == 0 {
            self.proved_zone(&children[0].pos, &mut { ZONE_WALK })?
        } else {
            None
        };
        let mut keep = children.iter().map(|c| match (&c.mv, zone) {
            _ if c.pass => false,
            (Move::Place(p), Some(zone)) => zone.contains(*p),
            _ => true,
        });
        let keep: Vec<bool> = keep.by_ref().collect();
        let mut i = 0;
        children.retain(|_| {
            i += 1;
            keep[i - 1]
        });
        let mut i = 0;
        numbers.retain(|_| {
            i += 1;
            keep[i - 1]
        });
        Ok(())
    }

    /// The zone of the proof of the defender's node `pos`, proved: the
    /// points its jumps depend on, the threat's path or the pass's zone,
    /// and every reply's proof's zone (a scoring jump's path where the
    /// reply lets the attacker score at once; every point where the
    /// zone is not kept).
    fn defence_zone(&self, pos: &Position, walk: &mut u32) -> Result<Bitboard, Stop> {
        let every = pos.size().board_points();
        let mut zone = pos.jump_zone();
        let attack = pos.end_turn();
        let all = pos.placement_points();
        let placements = match attack.scoring_jump_within(self.inner)? {
            Some(m) => {
                zone |= attack.move_zone(&m);
                all & stoppers(&m)
            }
            None => match self.pass_of(pos) {
                Some((pass, _, Some((0, _)))) => {
                    let pass_zone = self.proved_zone(&pass, walk)?.unwrap_or(every);
                    zone |= pass_zone;
                    all & pass_zone
                }
                // The pass is not proved (or no longer in the table):
                // every placement has its own proof.
                _ => all,
            },
        };
        let replies = placements
            .iter()
            .map(Move::Place)
            .chain(pos.jump_outcomes_within(self.inner)?);
        for m in replies {
            let after = play(pos, &m);
            if after.is_finished() {
                continue;
            }
            zone |= match self.zone_of(self.key(&after)) {
                Some(z) => z,
                None => match after.scoring_jump_within(self.inner)? {
                    Some(s) => after.move_zone(&s),
                    None => self.proved_zone(&after, walk)?.unwrap_or(every),
                },
            };
            if zone == every {
                break;
            }
        }
        Ok(zone)
    }

    /// The zone of the proof of the attacker's node `pos`, proved by the
    /// child with pn 0 (a built child, or one of the quiet placements).
    fn attack_zone(
        &self,
        pos: &Position,
        children: &[Child],
        numbers: &[(u32, u32)],
        quiet: &[Point],
    ) -> Result<Bitboard, Stop> {
        let every = pos.size().board_points();
        let mut walk = ZONE_WALK;
        if let Some((c, _)) = children.iter().zip(numbers).find(|(_, n)| n.0 == 0) {
            let zone = self.proved_zone(&c.pos, &mut walk)?.unwrap_or(every);
            return Ok(pos.move_zone(&c.mv) | zone);
        }
        for &p in quiet {
            let key = self.key_of_zobrist(pos.zobrist_after_placement(p));
            if self.table.get(key).is_some_and(|n| n.0 == 0) {
                let m = Move::Place(p);
                let zone = self
                    .proved_zone(&play(pos, &m), &mut walk)?
                    .unwrap_or(every);
                return Ok(pos.move_zone(&m) | zone);
            }
        }
        Ok(every)
    }

    /// The child to search next (least pn at OR, least dn at AND) and the
    /// second-best number, for the child's thresholds.
    fn choose(
        crew: Option<&Crew>,
        or_node: bool,
        numbers: &[(u32, u32)],
        children: &[Child],
        th_dn: u32,
    ) -> (usize, u32) {
        // The threads of a parallel search follow one another at the
        // attacker's nodes, where one move is enough: spread over its
        // moves, the second thread searched twice the nodes of one thread
        // (8x11), for lines the proof did not need.
        let Some(crew) = crew.filter(|_| !or_node) else {
            return best_two(or_node, numbers);
        };
        // Every reply of a defender's node must be refuted: a thread takes
        // a reply no other thread is in, while one is left (those replies
        // count as almost disproved).
        let (best, second) = best_two_by(numbers, |i| {
            children.get(i).map_or(0, |c| crew.threads_in(c.key))
        });
        // A reply chosen over a busier one whose own number is past this
        // node's threshold would return at once, and be chosen again:
        // take the best by the numbers alone.
        if numbers.get(best).is_some_and(|&n| n.1 >= th_dn) {
            return best_two(or_node, numbers);
        }
        (best, second)
    }

    /// Counts a node, and polls the caller's stop, the checkpoint's pause,
    /// and the node limit: the error that ends
    /// the search, if one does.
    fn count_node(&mut self) -> Result<(), Stop> {
        self.nodes += 1;
        let limit = SearchError::WorkLimit {
            limit: self.node_limit,
        };
        if self.nodes % POLL_NODES == 0 {
            if let Some(e) = self.stop.interrupted() {
                return Err(e);
            }
            if !self.pause_at_points && self.pause.is_some_and(|due| due()) {
                self.paused = true;
                return Err(limit);
            }
            if self.halt.is_some_and(|h| h.load(Ordering::Relaxed)) {
                self.halted = true;
                return Err(limit);
            }
        }
        if self.pause_at_points {
            if self.next_pause < self.nodes {
                self.next_pause = next_pause_point(self.nodes - 1);
            }
            if self.nodes == self.next_pause {
                self.next_pause = next_pause_point(self.nodes);
                self.paused = true;
                return Err(limit);
            }
        }
        match self.crew {
            // A parallel search's limit bounds all its threads' nodes,
            // counted in batches (a shared count each node would be a
            // contended write each node).
            Some(crew) => {
                if crew.is_done() {
                    return Err(limit);
                }
                if self.nodes % CREW_BATCH == 0
                    && crew
                        .count_nodes(CREW_BATCH)
                        .is_none_or(|n| n >= self.node_limit)
                {
                    return Err(limit);
                }
            }
            None => {
                if self.nodes >= self.node_limit {
                    return Err(limit);
                }
            }
        }
        Ok(())
    }

    /// Keeps the zone of `pos` (key `key`), proved by one ply of look-ahead:
    /// the attacker's `scoring` jump, or every reply losing at once.
    fn keep_decided_zone(
        &self,
        pos: &Position,
        key: u64,
        scoring: Option<&Move>,
    ) -> Result<(), Stop> {
        let zone = match scoring {
            Some(m) => pos.move_zone(m),
            None if pos.is_finished() => Bitboard::EMPTY,
            None => self.defence_zone(pos, &mut { ZONE_WALK })?,
        };
        self.keep_zone(key, zone);
        Ok(())
    }

    /// Keeps the zone of `pos` (key `key`), proved by its children.
    fn keep_proof_zone(
        &self,
        pos: &Position,
        key: u64,
        or_node: bool,
        (children, numbers, quiet): (&[Child], &[(u32, u32)], &[Point]),
    ) -> Result<(), Stop> {
        let zone = if or_node {
            self.attack_zone(pos, children, numbers, quiet)?
        } else {
            self.defence_zone(pos, &mut { ZONE_WALK })?
        };
        self.keep_zone(key, zone);
        Ok(())
    }

    /// The multiple-iterative-deepening step: searches `pos` until its proof
    /// number reaches `th_pn` or its disproof number `th_dn`.
    fn mid(
        &mut self,
        pos: &Position,
        th_pn: u32,
        th_dn: u32,
        depth: u32,
    ) -> Result<(u32, u32), Stop> {
        self.count_node()?;
        let key = self.key(pos);
        if depth >= MAX_DEPTH {
            return Ok((INF, 0));
        }
        let (mut children, mut quiet) = match self.expand_deferring(pos)? {
            (Expansion::Decided(pn, dn, scoring), _) => {
                self.store(key, pn, dn, 1);
                if pn == 0 {
                    self.keep_decided_zone(pos, key, scoring.as_ref())?;
                }
                return Ok((pn, dn));
            }
            (Expansion::Open(children), quiet) => (children, quiet),
        };
        let or_node = pos.to_move() == self.attacker;
        let started = self.nodes;
        self.path.insert(key);
        // Each node a parallel search's thread is in is marked, so that
        // the others can avoid it (marking only the plies near the root
        // spread the threads too little: 1.75x the nodes on 7x11).
        let crew = self.crew;
        if let Some(crew) = crew {
            crew.enter(key);
        }
        let mut numbers: Vec<(u32, u32)> = children.iter().map(|c| self.numbers(c)).collect();
        // The quiet placements not built stand as one last child, with the
        // numbers they would have: the table's (probed by their hash alone,
        // without building them), else the ones they start with.
        if !quiet.is_empty() {
            numbers.push(self.quiet_numbers(pos, &quiet));
        }
        // The placements a pass's zone most likely holds ([`combine_waiting`]).
        let near = children
            .first()
            .filter(|c| c.pass)
            .map_or(Bitboard::EMPTY, |_| pos.jump_zone());
        let result = loop {
            // A pass settled: the placements to refute are known now.
            if children.first().is_some_and(|c| c.pass)
                && (numbers[0].0 == 0
                    || numbers[0].0 >= PASS_PN_LIMIT
                    // Disproved, or (its disproof number's sum saturated)
                    // past any threshold: given up.
                    || numbers[0].1 == 0
                    || numbers[0].1 >= INF)
            {
                if let Err(e) = self.settle_pass(&mut children, &mut numbers) {
                    break Err(e);
                }
                if children.is_empty() {
                    break Ok((0, INF));
                }
            }
            let pass_open = children.first().is_some_and(|c| c.pass);
            let (pn, dn) = if pass_open {
                combine_waiting(&children, &numbers, near)
            } else {
                combine(or_node, &numbers)
            };
            if depth == 0 {
                self.root_numbers = Some((pn, dn));
            }
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 {
                break Ok((pn, dn));
            }
            // The best child (least pn at OR, least dn at AND), and the
            // second-best value, for the child's thresholds.
            let (best, second) = if pass_open {
                // The pass first: its proof settles which placements need
                // a reply; its disproof only means that all of them do.
                (0, INF)
            } else {
                Self::choose(crew, or_node, &numbers, &children, th_dn)
            };
            if best == children.len() {
                numbers.pop();
                let built = self.quiet_children(pos, core::mem::take(&mut quiet));
                numbers.extend(built.iter().map(|c| self.numbers(c)));
                children.extend(built);
                continue;
            }
            let (child_pn, child_dn) = if pass_open {
                (sub(th_pn, pn, numbers[0].0).min(PASS_PN_LIMIT), INF)
            } else {
                child_thresholds(or_node, (th_pn, th_dn), (pn, dn), numbers[best], second)
            };
            let settled_before = self.settled_puts;
            match self.mid(&children[best].pos, child_pn, child_dn, depth + 1) {
                Ok(r) => numbers[best] = r,
                Err(e) => break Err(e),
            }
            // Other children may have been settled through transpositions,
            // but only by a search that settled something. Their other
            // numbers change through a sibling's search too rarely to pay
            // for probing every sibling after every search (it was a third
            // of the time): they are read again when next settled.
            if self.settled_puts != settled_before {
                for (i, c) in children.iter().enumerate() {
                    if i != best {
                        if let Some(r) = self.table.get(c.key) {
                            numbers[i] = r;
                        }
                    }
                }
            }
        };
        self.path.remove(&key);
        if let Some(crew) = crew {
            crew.leave(key);
        }
        let (pn, dn) = result?;
        if pn == 0 {
            self.keep_proof_zone(pos, key, or_node, (&children, &numbers, &quiet))?;
        }
        let work = self.nodes - started + self.table.work(key);
        self.store(key, pn, dn, work);
        Ok((pn, dn))
    }
}

/// The first pause point past `nodes`: 1024, then each point n followed by
/// n + max(1024, n / 64), so that a long search pauses every 1.6% of its
/// nodes (a pause costs a descent from the root again).
pub(crate) fn next_pause_point(nodes: u64) -> u64 {
    let mut point = PAUSE_FIRST;
    while point <= nodes {
        point = point.saturating_add((point / 64).max(PAUSE_FIRST));
    }
    point
}

/// The first pause point, and the least distance between two.
const PAUSE_FIRST: u64 = 1024;

/// A child's thresholds (1 + ε): at the attacker's node, its proof number
/// may pass the second-best sibling's by a quarter and its disproof number
/// takes what its siblings leave of the node's threshold; at the
/// defender's, the other way round.
fn child_thresholds(
    or_node: bool,
    (th_pn, th_dn): (u32, u32),
    (pn, dn): (u32, u32),
    (cpn, cdn): (u32, u32),
    second: u32,
) -> (u32, u32) {
    let limit = second.saturating_add(1).saturating_add(second / 4);
    if or_node {
        (th_pn.min(limit), sub(th_dn, dn, cdn))
    } else {
        (sub(th_pn, pn, cpn), th_dn.min(limit))
    }
}

/// `th - (total - own)`: the threshold left for one child when its
/// siblings account for `total - own`, at least 1 more than `own` can be.
fn sub(th: u32, total: u32, own: u32) -> u32 {
    if th >= INF {
        return INF;
    }
    th.saturating_sub(total.saturating_sub(own)).min(INF)
}

/// The node's numbers from its children's.
fn combine(or_node: bool, numbers: &[(u32, u32)]) -> (u32, u32) {
    let min_pn = numbers.iter().map(|n| n.0).min().unwrap_or(INF);
    let min_dn = numbers.iter().map(|n| n.1).min().unwrap_or(INF);
    let sum_pn = numbers
        .iter()
        .fold(0u32, |s, n| s.saturating_add(n.0).min(INF));
    let sum_dn = numbers
        .iter()
        .fold(0u32, |s, n| s.saturating_add(n.1).min(INF));
    if or_node {
        (min_pn, sum_dn)
    } else {
        (sum_pn, min_dn)
    }
}

/// The fewest placements a defender's node must have to refute for its
/// pass to be searched first: with fewer, the pass costs more than the
/// placements it could spare.
const PASS_MIN_PLACEMENTS: usize = 4;

/// The proof number past which a pass is given up: a pass is worth
/// searching only while the attacker wins quickly with its two moves (its
/// zone is then small). Measured (`docs/notes/prover-lab.md`): 3 took the
/// 7x11 start from 2,464,393 nodes without passes to 297,760; 2 and 4 to
/// 387,146 and 570,026, 64 to more than the search without passes.
const PASS_PN_LIMIT: u32 = 3;

/// The placements that can stop the attacker's scoring jump `threat`: its
/// landing points.
fn stoppers(threat: &Move) -> Bitboard {
    Bitboard::from_points(threat.path()[1..].iter().copied())
}

/// The numbers of a defender's node whose pass (the first child) is open:
/// the pass's proof number, the jumps', and the placements' next to the
/// ball's jumps (those the pass's zone most likely holds); the least
/// disproof number of the real replies (the pass's failure disproves
/// nothing).
fn combine_waiting(children: &[Child], numbers: &[(u32, u32)], near: Bitboard) -> (u32, u32) {
    // Every real reply refuted already: proved, whatever the pass; one
    // that wins for the defender: disproved.
    if numbers[1..].iter().all(|n| n.0 == 0) {
        return (0, INF);
    }
    if numbers[1..].iter().any(|n| n.1 == 0) {
        return (INF, 0);
    }
    let mut pn = numbers[0].0;
    let mut dn = INF;
    for (c, n) in children.iter().zip(numbers).skip(1) {
        let counted = match &c.mv {
            Move::Place(p) => near.contains(*p),
            Move::Jump(_) => true,
        };
        if counted {
            pn = pn.saturating_add(n.0).min(INF);
        }
        dn = dn.min(n.1);
    }
    (pn, dn)
}

/// The index of the child to search and the second-best number.
fn best_two(or_node: bool, numbers: &[(u32, u32)]) -> (usize, u32) {
    least_two(numbers.len(), |i| {
        let n = numbers[i];
        if or_node {
            n.0
        } else {
            n.1
        }
    })
}

/// [`best_two`] at a defender's node, each reply's disproof number
/// counted as `INF - 1` while `others(reply)` other threads are in it.
fn best_two_by(numbers: &[(u32, u32)], others: impl Fn(usize) -> u32) -> (usize, u32) {
    least_two(numbers.len(), |i| match others(i) {
        0 => numbers[i].1,
        _ => INF - 1,
    })
}

/// The index in `0..len` of the least `value` (the first of equals) and
/// the second least (`INF` when `len` is 1).
fn least_two(len: usize, value: impl Fn(usize) -> u32) -> (usize, u32) {
    let mut best = 0;
    let mut best_value = value(0);
    let mut second = INF;
    for i in 1..len {
        let v = value(i);
        if v < best_value {
            second = best_value;
            best = i;
            best_value = v;
        } else if v < second {
            second = v;
        }
    }
    (best, second)
}

/// The position after a move the core listed as legal.
pub(crate) fn play(pos: &Position, m: &Move) -> Position {
    match pos.play(m) {
        Ok(after) => after,
        Err(e) => unreachable!("the core listed {m} as legal in {pos}: {e}"),
    }
}

/// The hasher of the path's set: its keys are zobrist hashes already.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// The king-move distance between two points.
fn distance(a: Point, b: Point) -> u8 {
    a.col().abs_diff(b.col()).max(a.row().abs_diff(b.row()))
}
