//! The parallel search: J threads run the same df-pn from the root over
//! one shared table ([`SharedTable`]), as in Pawlewicz and Hayward's
//! scalable parallel df-pn. What one thread proves, the others read from
//! the table. So that they do not all search the same line, each counts
//! the children other threads are in as harder than their numbers say
//! (virtual proof numbers, after Kaneko): a child k threads are in counts
//! as n (1 + k) + k, so a second thread takes the next-best child where
//! the two are close, and follows the first where it is clearly best.
//!
//! The threads share the round's node limit, the caller's stop, and the
//! checkpoint's pause: when one thread stops (a proof of the root, the
//! limit, a cancel, a pause), the others stop at their next node.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use phutball::{Budget, Position, SearchError, Side};

use super::dfpn::{Dfpn, Stop, CREW_BATCH};
use super::shared_table::SharedTable;
use super::{joined, prover_thread};

/// Counters of the nodes threads are in, by key: a power of two.
const BUSY_SLOTS: usize = 1 << 16;

/// What the threads of one parallel search share besides the table.
pub(crate) struct Crew {
    /// Nodes searched by all threads (and before them, by the search).
    nodes: AtomicU64,
    /// One thread has stopped: the others stop too.
    done: AtomicBool,
    /// How many threads are in a node, by its key's top bits (two nodes
    /// may share a counter: that only spreads the threads less well).
    busy: Vec<AtomicU32>,
}

impl Crew {
    fn new(nodes: u64) -> Crew {
        Crew {
            nodes: AtomicU64::new(nodes),
            done: AtomicBool::new(false),
            busy: (0..BUSY_SLOTS).map(|_| AtomicU32::new(0)).collect(),
        }
    }

    /// Counts `n` nodes: the nodes searched by all threads so far, or
    /// `None` when another thread has stopped the search.
    pub(crate) fn count_nodes(&self, n: u64) -> Option<u64> {
        if self.done.load(Ordering::Relaxed) {
            return None;
        }
        Some(self.nodes.fetch_add(n, Ordering::Relaxed) + n)
    }

    fn slot(&self, key: u64) -> &AtomicU32 {
        &self.busy[(key >> 48) as usize & (BUSY_SLOTS - 1)]
    }

    /// Whether a thread has stopped the search.
    pub(crate) fn is_done(&self) -> bool {
        self.done.load(Ordering::Relaxed)
    }

    /// A thread enters the node `key`.
    pub(crate) fn enter(&self, key: u64) {
        self.slot(key).fetch_add(1, Ordering::Relaxed);
    }

    /// A thread leaves the node `key`.
    pub(crate) fn leave(&self, key: u64) {
        self.slot(key).fetch_sub(1, Ordering::Relaxed);
    }

    /// How many threads are in the node `key` now.
    pub(crate) fn threads_in(&self, key: u64) -> u32 {
        self.slot(key).load(Ordering::Relaxed)
    }
}

/// How one round of a parallel search ended.
pub(crate) struct RoundEnd {
    /// The root's numbers when it was proved or disproved, else why the
    /// round stopped ([`SearchError::WorkLimit`] at its end or a pause).
    pub(crate) result: Result<(u32, u32), Stop>,
    /// The round stopped for a checkpoint's save.
    pub(crate) paused: bool,
    /// The round stopped because the other search proved the position.
    pub(crate) halted: bool,
    /// Nodes searched by the search, this round's included.
    pub(crate) nodes: u64,
}

/// What one round of a parallel search is given.
pub(crate) struct Round<'b> {
    pub(crate) attacker: Side,
    pub(crate) table: &'b SharedTable,
    pub(crate) jobs: usize,
    /// Nodes searched before the round.
    pub(crate) nodes: u64,
    /// The node count at which the round ends.
    pub(crate) node_limit: u64,
    pub(crate) stop: &'b Budget<'b>,
    pub(crate) inner: &'b Budget<'b>,
    pub(crate) pause: Option<&'b (dyn Fn() -> bool + Sync)>,
    /// Set when the other search has proved the position (the two
    /// searches at once, [`concurrent`](super::concurrent)).
    pub(crate) halt: Option<&'b AtomicBool>,
}

/// Runs one round of the search of `pos` on `round.jobs` threads (the
/// caller's and `jobs - 1` more; fewer when the system starts fewer).
pub(crate) fn search_round(pos: &Position, round: &Round<'_>) -> RoundEnd {
    let crew = Crew::new(round.nodes);
    let run = || {
        let mut search = Dfpn::new(round.attacker, round.table, round.stop, round.inner);
        search.crew = Some(&crew);
        search.pause = round.pause;
        search.halt = round.halt;
        search.node_limit = round.node_limit;
        let result = search.search(pos);
        crew.done.store(true, Ordering::Relaxed);
        // The nodes not yet counted in a batch.
        crew.nodes
            .fetch_add(search.nodes % CREW_BATCH, Ordering::Relaxed);
        (result, search.paused, search.halted)
    };
    let ends = std::thread::scope(|scope| {
        let mut helpers = Vec::new();
        for _ in 1..round.jobs {
            match prover_thread().spawn_scoped(scope, run) {
                Ok(handle) => helpers.push(handle),
                // Fewer threads than asked: the search goes on with those
                // that started (the caller's at least).
                Err(_) => break,
            }
        }
        let mut ends = vec![run()];
        ends.extend(helpers.into_iter().map(joined));
        ends
    });
    let nodes = crew.nodes.load(Ordering::Relaxed);
    let settled = ends
        .iter()
        .find_map(|(r, _, _)| r.as_ref().ok().filter(|(pn, dn)| *pn == 0 || *dn == 0));
    if let Some(&numbers) = settled {
        return RoundEnd {
            result: Ok(numbers),
            paused: false,
            halted: false,
            nodes,
        };
    }
    let failure = ends.iter().find_map(|(r, _, _)| match r {
        Err(SearchError::WorkLimit { .. }) | Ok(_) => None,
        Err(e) => Some(e.clone()),
    });
    RoundEnd {
        result: Err(failure.unwrap_or(SearchError::WorkLimit {
            limit: round.node_limit,
        })),
        paused: ends.iter().any(|e| e.1),
        halted: ends.iter().any(|e| e.2),
        nodes,
    }
}
