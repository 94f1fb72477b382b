//! A search's turn on more than one job. The two searches of a prove (a
//! win for the side to move, a win for its opponent) take turns as on one
//! job, in rounds that double; on J jobs each turn runs J threads over the
//! search's shared table ([`parallel`](super::parallel)), once the search
//! has searched [`PARALLEL_AFTER_NODES`]. Turns, not the two searches at
//! once: with relevance zones the search that cannot succeed costs a few
//! per cent of the nodes, so a core of its own would idle (7x11: 3.19 s on
//! one job, 3.08 s with the two searches at once; `docs/notes/prover-lab.md`).

use phutball::{Position, SearchError};

use super::dfpn::{Dfpn, Stop};
use super::parallel::{self, Round};
use super::shared_table::SharedTable;
use super::table::WAYS;

/// Nodes after which a search turns parallel: its shared table is
/// allocated (zeroed) before it can start, a cost a proof of a second or
/// more does not notice.
const PARALLEL_AFTER_NODES: u64 = 1 << 12;

/// Nodes of a parallel search between two growths of its shared table.
const PARALLEL_CHUNK_NODES: u64 = 1 << 20;

/// How a turn ended.
pub(crate) struct TurnEnd {
    /// The root's numbers when the turn proved or disproved it, else why it
    /// stopped (a [`SearchError::WorkLimit`] at the turn's end or a pause).
    pub(crate) result: Result<(u32, u32), Stop>,
    /// The turn stopped for a checkpoint's save.
    pub(crate) paused: bool,
}

/// Searches `pos` on `jobs` threads until it is proved or disproved, the
/// search has `node_limit` nodes, a save is due or the caller stops it.
pub(crate) fn turn(
    pos: &Position,
    search: &mut Dfpn<'_>,
    shared: &mut Option<SharedTable>,
    jobs: usize,
    node_limit: u64,
) -> Result<TurnEnd, SearchError> {
    loop {
        if shared.is_none() && search.nodes >= PARALLEL_AFTER_NODES {
            *shared = Some(SharedTable::from_table(
                &search.table,
                search.table.buckets(),
            )?);
            search.table = search.table.emptied()?;
        }
        let Some(table) = shared else {
            // One thread to the nodes after which the search turns parallel.
            search.node_limit = node_limit.min(PARALLEL_AFTER_NODES);
            let result = search.search(pos);
            if matches!(result, Err(SearchError::WorkLimit { .. }))
                && search.nodes < node_limit
                && !search.paused
            {
                continue;
            }
            return Ok(TurnEnd {
                result,
                paused: search.paused,
            });
        };
        // In chunks, the shared table grown between them to hold a chunk's
        // entries (one a node at most), up to its limit: a table larger
        // than the search needs costs every probe a cache miss.
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
            jobs,
            nodes: search.nodes,
            node_limit: chunk_end,
            stop: search.stop,
            inner: search.inner,
            pause: search.pause,
        };
        let end = parallel::search_round(pos, &round);
        search.nodes = end.nodes;
        if matches!(end.result, Err(SearchError::WorkLimit { .. }))
            && search.nodes < node_limit
            && !end.paused
        {
            continue;
        }
        return Ok(TurnEnd {
            result: end.result,
            paused: end.paused,
        });
    }
}
