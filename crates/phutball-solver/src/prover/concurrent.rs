//! A prove on more than one job. The two searches (a win for the side to
//! move, a win for its opponent) run at once, each on its own thread(s),
//! instead of taking turns on one: the search that cannot succeed costs
//! the other core, not the wall time (on one job, the 7x11 start's
//! opponent search took 130,048 of its 297,760 nodes; two jobs were 1.25x
//! to 1.64x one job on the 7x11 to 11x11 starts, where each search's turn
//! on both jobs gave 0.95x to 1.64x: `docs/notes/prover-lab.md`). The
//! first proof stops the other search. With four jobs or
//! more, each search runs on half of them over a shared table
//! ([`parallel`](super::parallel)), once it has searched
//! [`PARALLEL_AFTER_NODES`].

use std::sync::atomic::{AtomicBool, Ordering};

use phutball::{Budget, Position, SearchError};

use super::checkpoint::Schedule;
use super::dfpn::{Dfpn, Stop};
use super::parallel::{self, Round};
use super::shared_table::SharedTable;
use super::table::WAYS;
use super::{joined, proved, prover_thread, save, stop, Checkpointing, Handover, Proof, Searches};
use crate::error::SolverError;

/// Nodes after which a search with more than one thread of its own turns
/// parallel: its shared table is allocated (zeroed) before it can start,
/// a cost a proof of a second or more does not notice.
const PARALLEL_AFTER_NODES: u64 = 1 << 16;

/// Nodes of a parallel search between two growths of its shared table.
const PARALLEL_CHUNK_NODES: u64 = 1 << 20;

/// What every search of one prove shares.
pub(crate) struct Context<'a, 'b> {
    pub(crate) pos: &'a Position,
    pub(crate) budget: &'b Budget<'b>,
    pub(crate) inner: &'b Budget<'b>,
    pub(crate) pause: Option<&'b (dyn Fn() -> bool + Sync)>,
    /// Set when one search has proved the position: the other stops.
    pub(crate) halt: &'b AtomicBool,
    pub(crate) jobs: usize,
    pub(crate) memory: usize,
    pub(crate) table_bytes: usize,
    /// Nodes of the checkpoint it resumed from (the work limit counts the
    /// others).
    pub(crate) resumed_nodes: u64,
}

/// How one search's run ended.
struct RunEnd {
    result: Result<(u32, u32), Stop>,
    paused: bool,
}

/// Proves `cx.pos` with both searches at once (see the module's doc).
pub(crate) fn prove<'b>(
    cx: &Context<'_, 'b>,
    searches: &mut Searches<'b>,
    schedule: &mut Schedule,
    checkpointing: &mut Option<Checkpointing<'_>>,
) -> Result<Proof, SolverError> {
    let threads_each = (cx.jobs / 2).max(1);
    loop {
        let left = cx
            .budget
            .work_limit()
            .saturating_sub(searches.total() - cx.resumed_nodes);
        if left == 0 {
            let e = SearchError::WorkLimit {
                limit: cx.budget.work_limit(),
            };
            return stop(cx.pos, searches, schedule, checkpointing, e);
        }
        let open = schedule.searches.iter().filter(|s| !s.settled).count() as u64;
        let share = (left / open.max(1)).max(1);
        let settled = [schedule.searches[0].settled, schedule.searches[1].settled];
        let [first, second] = &mut searches.dfpn;
        let [first_table, second_table] = &mut searches.shared;
        let ends = std::thread::scope(|scope| -> Result<[Option<RunEnd>; 2], SearchError> {
            let helper = if settled[1] {
                None
            } else {
                let run_second = move || run(cx, second, second_table, threads_each, share);
                Some(
                    prover_thread()
                        .spawn_scoped(scope, run_second)
                        .map_err(|_| SearchError::OutOfMemory {
                            what: "the prover's threads",
                        })?,
                )
            };
            let mine = if settled[0] {
                None
            } else {
                Some(run(cx, first, first_table, threads_each, share)?)
            };
            let theirs = helper.map(joined).transpose()?;
            Ok([mine, theirs])
        })?;
        // A proof first, whatever the other search did.
        for (i, end) in ends.iter().enumerate() {
            if matches!(
                end,
                Some(RunEnd {
                    result: Ok((0, _)),
                    ..
                })
            ) {
                let nodes = searches.total();
                let table_entries = searches.entries();
                if let Some(shared) = searches.shared[i].take() {
                    searches.dfpn[i].table = shared.to_table(cx.table_bytes)?;
                }
                // The proved root saved before its certificate is written
                // (see `alternate`).
                save(cx.pos, searches, schedule, checkpointing, Handover::End)?;
                // The certificate's reading may search again: no pause,
                // and no halt (this search set it).
                let search = &mut searches.dfpn[i];
                search.pause = None;
                search.halt = None;
                return proved(search, cx.pos, cx.memory, nodes, table_entries);
            }
        }
        let mut paused = false;
        for (i, end) in ends.into_iter().enumerate() {
            match end.map(|e| (e.result, e.paused)) {
                None => {}
                Some((Ok(_), _)) => schedule.searches[i].settled = true,
                Some((Err(SearchError::WorkLimit { .. }), p)) => paused |= p,
                Some((Err(e), _)) => return stop(cx.pos, searches, schedule, checkpointing, e),
            }
        }
        if schedule.searches.iter().all(|s| s.settled) {
            return Ok(Proof::unknown(
                searches.total(),
                searches.entries(),
                None,
                true,
            ));
        }
        if paused {
            save(cx.pos, searches, schedule, checkpointing, Handover::Pause)?;
        }
    }
}

/// Runs one search until it proves or disproves the root, searches `share`
/// more nodes, pauses for a save, or `cx.halt` is set. It sets `halt` when
/// it proves the position, and when it fails (no memory for a shared
/// table): the other search's thread then stops too, instead of running
/// on while the prove waits for it.
fn run<'b>(
    cx: &Context<'_, 'b>,
    search: &mut Dfpn<'b>,
    shared: &mut Option<SharedTable>,
    threads: usize,
    share: u64,
) -> Result<RunEnd, SearchError> {
    let end = run_to_stop(cx, search, shared, threads, share);
    if matches!(
        end,
        Ok(RunEnd {
            result: Ok((0, _)),
            ..
        }) | Err(_)
    ) {
        cx.halt.store(true, Ordering::Relaxed);
    }
    end
}

/// [`run`] but for setting `halt`.
fn run_to_stop<'b>(
    cx: &Context<'_, 'b>,
    search: &mut Dfpn<'b>,
    shared: &mut Option<SharedTable>,
    threads: usize,
    share: u64,
) -> Result<RunEnd, SearchError> {
    let halt = cx.halt;
    let node_limit = search.nodes.saturating_add(share);
    let end = loop {
        if threads > 1 && shared.is_none() && search.nodes >= PARALLEL_AFTER_NODES {
            *shared = Some(SharedTable::from_table(
                &search.table,
                search.table.buckets(),
            )?);
            search.table = search.table.emptied()?;
        }
        let Some(table) = shared else {
            // One thread: to the end, or (before it turns parallel) to the
            // nodes after which it would.
            search.halt = Some(halt);
            // The same calls as its turns on one job (rounds of 1024
            // nodes, doubling: each call ends at 2 n + 1024), so that each
            // search goes the same way as there and proves, or not, at the
            // same node: other restart points took the 8x11 start's search
            // to 4 times the nodes.
            let round = search.nodes.saturating_add(super::FIRST_ROUND_NODES);
            search.node_limit = node_limit.min(search.nodes.saturating_add(round));
            if threads > 1 {
                search.node_limit = search
                    .node_limit
                    .min(PARALLEL_AFTER_NODES.max(search.nodes + 1));
            }
            let result = search.search(cx.pos);
            let reached = search.nodes >= search.node_limit;
            if matches!(result, Err(SearchError::WorkLimit { .. }))
                && reached
                && search.nodes < node_limit
                && !search.paused
                && !search.halted
            {
                continue;
            }
            break RunEnd {
                result,
                paused: search.paused,
            };
        };
        // Parallel: in chunks, the shared table grown between them to
        // hold a chunk's entries (one a node at most), up to its limit.
        let chunk_end = node_limit.min(search.nodes.saturating_add(PARALLEL_CHUNK_NODES));
        let wanted = usize::try_from(chunk_end.saturating_mul(4) / 3 / WAYS as u64)
            .unwrap_or(usize::MAX)
            .clamp(1, search.table.max_buckets())
            .next_power_of_two()
            .min(search.table.max_buckets());
        if wanted > table.buckets() {
            *table = table.grown(wanted)?;
        }
        let round = Round {
            attacker: search.attacker,
            table,
            jobs: threads,
            nodes: search.nodes,
            node_limit: chunk_end,
            stop: cx.budget,
            inner: cx.inner,
            pause: cx.pause,
            halt: Some(halt),
        };
        let end = parallel::search_round(cx.pos, &round);
        search.nodes = end.nodes;
        if matches!(end.result, Err(SearchError::WorkLimit { .. }))
            && search.nodes < node_limit
            && !end.paused
            && !end.halted
        {
            continue;
        }
        break RunEnd {
            result: end.result,
            paused: end.paused,
        };
    };
    Ok(end)
}
