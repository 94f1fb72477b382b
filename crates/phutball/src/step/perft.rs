//! perft: the number of move sequences of a given depth, a standard check
//! of move generation.

use core::ops::ControlFlow;

use crate::budget::{Budget, Meter, SearchError};
use crate::jumps::walk::{walk, CLOCKWISE, DEDUP_ALL};
use crate::rules::position::Position;

/// The number of move sequences of `depth` moves from `pos`, counting a jump
/// move once per distinct resulting position, with no moves from a finished
/// position. The last ply is counted in bulk, without playing its moves.
/// Within the default [`Budget`] (no work limit: depth 3 of a dense
/// position runs for hours; [`perft_within`] takes a budget).
///
/// ```
/// use phutball::{perft, Position};
/// let start = Position::standard();
/// assert_eq!(perft(&start, 1)?, 284);
/// assert_eq!(perft(&start, 2)?, 80_380);
/// # Ok::<(), phutball::SearchError>(())
/// ```
///
/// # Errors
///
/// [`SearchError`] when the default [`Budget`](crate::Budget)'s memory limit is
/// reached or the allocator refuses (it has no time or work limit).
pub fn perft(pos: &Position, depth: u32) -> Result<u64, SearchError> {
    perft_within(pos, depth, &Budget::default())
}

/// [`perft`] within `budget`: a placement, a jump outcome and a landing
/// are each a step of work; the moves are streamed, never listed, so the
/// memory held is the distinct-outcome states of one position per ply.
///
/// # Errors
///
/// [`SearchError`] when `budget` stops the search first: its deadline, work
/// or memory limit, its cancel flag or interrupt hook, or the allocator.
pub fn perft_within(pos: &Position, depth: u32, budget: &Budget<'_>) -> Result<u64, SearchError> {
    perft_metered(pos, depth, &Meter::start(budget)?)
}

fn perft_metered(pos: &Position, depth: u32, meter: &Meter<'_>) -> Result<u64, SearchError> {
    if depth == 0 {
        return Ok(1);
    }
    if pos.is_finished() {
        return Ok(0);
    }
    if depth == 1 {
        return pos.count_legal_moves_metered(meter);
    }
    let mut total = 0u64;
    for p in pos.placement_points() {
        meter.tick()?;
        let mut next = *pos;
        next.add_man(p);
        total += perft_metered(&next.end_turn(), depth - 1, meter)?;
    }
    let mut failed = None;
    walk::<DEDUP_ALL, true, _>(pos, &CLOCKWISE, usize::MAX, None, meter, |path, _| {
        // Every path the walk visits is a legal jump move from `pos`.
        let below = pos
            .play_jump_path(path)
            .map_or(Ok(0), |next| perft_metered(&next, depth - 1, meter));
        match below {
            Ok(n) => {
                total += n;
                ControlFlow::Continue(())
            }
            Err(e) => {
                failed = Some(e);
                ControlFlow::Break(())
            }
        }
    })?;
    failed.map_or(Ok(total), Err)
}
