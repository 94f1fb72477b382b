//! The one depth-first walk behind every jump enumeration: paths, distinct
//! outcomes and the can-score search. It runs on a padded mailbox, removing
//! and restoring men in place. It recurses once per jump of the current
//! path; every jump removes a man, so the depth is at most the number of men
//! plus one (626 on the largest board), a few tens of kilobytes of stack.

use core::ops::ControlFlow;

use crate::board::mailbox::{Mailbox, DIRECTION_OFFSETS, EMPTY, MAILBOX_MASK, OUTSIDE, STRIP_STOP};
use crate::board::point::Point;
use crate::board::zobrist::{FINGERPRINT_BALL, FINGERPRINT_MEN};
use crate::budget::{Meter, SearchError};
use crate::jumps::reach::Reach;
use crate::jumps::searched::SearchedCache;
use crate::jumps::state_set::StateSet;
use crate::rules::position::Position;

/// An order in which the walk tries the 8 directions, with what the hot loop
/// needs precomputed.
pub(crate) struct Order {
    /// Mailbox offsets, in this order.
    pub(crate) offsets: [usize; 8],
    /// For each ordered direction, the ordered index of its opposite.
    pub(crate) opposite: [u8; 8],
    /// For each 9-bit neighbourhood ([`Mailbox::neighbourhood`]), the mask of
    /// ordered directions with a man adjacent.
    pub(crate) neighbours: [u8; 512],
}

impl Order {
    const fn new(order: [u8; 8]) -> Order {
        // Neighbourhood bit of each clockwise direction N NE E SE S SW W NW.
        const BIT: [usize; 8] = [1, 2, 5, 8, 7, 6, 3, 0];
        let mut offsets = [0usize; 8];
        let mut opposite = [0u8; 8];
        let mut i = 0;
        while i < 8 {
            offsets[i] = DIRECTION_OFFSETS[order[i] as usize];
            let back = (order[i] + 4) % 8;
            let mut j = 0;
            while j < 8 {
                if order[j] == back {
                    opposite[i] = j as u8;
                }
                j += 1;
            }
            i += 1;
        }
        let mut neighbours = [0u8; 512];
        let mut hood = 0;
        while hood < 512 {
            let mut mask = 0u8;
            let mut i = 0;
            while i < 8 {
                if hood >> BIT[order[i] as usize] & 1 != 0 {
                    mask |= 1 << i;
                }
                i += 1;
            }
            neighbours[hood] = mask;
            hood += 1;
        }
        Order {
            offsets,
            opposite,
            neighbours,
        }
    }
}

/// Clockwise from north: the order of enumerated paths.
pub(crate) static CLOCKWISE: Order = Order::new([0, 1, 2, 3, 4, 5, 6, 7]);
/// North-bound directions first, for Ohs's can-score search.
pub(crate) static NORTH_FIRST: Order = Order::new([0, 1, 7, 2, 6, 3, 5, 4]);
/// South-bound directions first, for Eks's can-score search.
pub(crate) static SOUTH_FIRST: Order = Order::new([4, 3, 5, 2, 6, 1, 7, 0]);

/// Visit every path.
pub(crate) const DEDUP_NONE: u8 = 0;
/// Visit every resulting state once.
pub(crate) const DEDUP_ALL: u8 = 1;
/// Search below every resulting state once.
pub(crate) const DEDUP_INTERNAL: u8 = 2;

/// What a walk found.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct WalkStats {
    /// Landings visited (paths, or distinct outcomes when deduplicating).
    pub landings: u64,
    /// Whether the visitor stopped the walk.
    pub stopped: bool,
}

/// Why a walk stopped early.
enum Stop {
    Visitor,
    Budget(SearchError),
}

impl From<SearchError> for Stop {
    fn from(e: SearchError) -> Stop {
        Stop::Budget(e)
    }
}

struct Walker<'m, 'b, V, const DEDUP: u8, const TRACK: bool> {
    meter: &'m Meter<'b>,
    mb: Mailbox,
    order: &'static Order,
    /// The goal flag of the side to move when pruning for the can-score search.
    prune_for_goal: Option<u8>,
    may_jump_from_strip: bool,
    visit: V,
    seen: StateSet,
    /// For [`DEDUP_INTERNAL`]: a lossy memory of searched states.
    searched: SearchedCache,
    points: Vec<Point>,
    landings: u64,
}

/// Walks the jump tree of `pos`.
///
/// - `DEDUP`: [`DEDUP_NONE`] visits every path. [`DEDUP_ALL`] visits each
///   resulting state (ball cell + removed men) once and does not search below
///   a state seen before (the futures from equal states are equal).
///   [`DEDUP_INTERNAL`] visits every landing but searches below each state
///   once (enough to decide reachability, cheaper than deduplicating leaves).
/// - `TRACK`: keep the path as points and hand it to the visitor; otherwise the
///   visitor gets an empty slice.
/// - `prune_for_goal`: when given (a goal flag), the walk does not go on from
///   a landing from which no cell with that flag can be reached ([`Reach`]):
///   the can-score search's pruning.
///
/// The visitor gets the path (start point first) and the landing cell's flags.
/// Every landing is a step of work on `meter`; the state set's memory is
/// accounted to it too (and given back at the end).
pub(crate) fn walk<const DEDUP: u8, const TRACK: bool, V>(
    pos: &Position,
    order: &'static Order,
    outcome_limit: usize,
    prune_for_goal: Option<u8>,
    meter: &Meter<'_>,
    visit: V,
) -> Result<WalkStats, SearchError>
where
    V: FnMut(&[Point], u8) -> ControlFlow<()>,
{
    if !pos.ball_may_jump() {
        return Ok(WalkStats::default());
    }
    let mb = Mailbox::new(pos.size, pos.men, !pos.rules.continue_off_board);
    let start = mb.cell(pos.ball);
    let pending = order.neighbours[mb.neighbourhood(start)];
    let seen = StateSet::new(DEDUP == DEDUP_ALL, outcome_limit, pos.men.count(), meter)?;
    let mut walker = Walker::<V, DEDUP, TRACK> {
        meter,
        mb,
        order,
        prune_for_goal,
        may_jump_from_strip: pos.rules.continue_off_board,
        visit,
        searched: SearchedCache::new(DEDUP == DEDUP_INTERNAL),
        seen,
        points: Vec::with_capacity(if TRACK {
            pos.men.count() as usize + 2
        } else {
            0
        }),
        landings: 0,
    };
    if TRACK {
        walker.points.push(pos.ball);
    }
    let reach = match prune_for_goal {
        Some(goal) => {
            let reach = Reach::compute(&walker.mb, goal, walker.may_jump_from_strip);
            if !reach.alive.contains(start) {
                return Ok(WalkStats::default());
            }
            reach
        }
        None => Reach::EVERYWHERE,
    };
    let result = walker.search(start, pending, 0, &reach, 0);
    meter.release(walker.seen.bytes());
    match result {
        ControlFlow::Break(Stop::Budget(e)) => Err(e),
        flow => Ok(WalkStats {
            landings: walker.landings,
            stopped: flow.is_break(),
        }),
    }
}

impl<V, const DEDUP: u8, const TRACK: bool> Walker<'_, '_, V, DEDUP, TRACK>
where
    V: FnMut(&[Point], u8) -> ControlFlow<()>,
{
    /// Tries the jumps in `pending` (ordered directions with a man adjacent)
    /// from `ball`; `removed` fingerprints the men removed so far; `reach`
    /// holds the cells from which the goal may still be reached (pruning only).
    // Over 80 lines on purpose: the jump walk's hot loop, run for every
    // jump of every enumeration. Kept whole so that a jump costs one call
    // (its own frame of the recursion) and no helper calls besides; the
    // jump-path benchmarks (benches/benches/jumps.rs) measure it.
    fn search(
        &mut self,
        ball: usize,
        mut pending: u8,
        removed: u128,
        reach: &Reach,
        depth: usize,
    ) -> ControlFlow<Stop> {
        while pending != 0 {
            let dir = pending.trailing_zeros() as usize;
            pending &= pending - 1;
            let d = self.order.offsets[dir];
            let first = ball.wrapping_add(d) & MAILBOX_MASK;
            let (landing, contents) = self.mb.landing(ball, d);
            if contents == OUTSIDE {
                continue;
            }
            let mut child_removed = 0;
            if DEDUP == DEDUP_ALL {
                child_removed = fingerprint_run(removed, first, landing, d);
                match self
                    .seen
                    .insert(child_removed ^ FINGERPRINT_BALL[landing], self.meter)
                {
                    Ok(true) => {}
                    Ok(false) => continue,
                    Err(e) => return ControlFlow::Break(Stop::Budget(e)),
                }
            }
            if let Err(e) = self.meter.tick() {
                return ControlFlow::Break(Stop::Budget(e));
            }
            self.landings += 1;
            if TRACK {
                self.points.push(self.mb.point(landing));
            }
            if (self.visit)(&self.points, self.mb.flags[landing]).is_break() {
                return ControlFlow::Break(Stop::Visitor);
            }
            // The men removed lie behind the landing point, so only the way
            // back changes: the other neighbours can be read before removing them.
            let stays = contents == STRIP_STOP || !reach.alive.contains(landing);
            let mut child_pending = if stays {
                0
            } else {
                self.order.neighbours[self.mb.neighbourhood(landing)]
                    & !(1 << self.order.opposite[dir])
            };
            if DEDUP == DEDUP_INTERNAL && child_pending != 0 {
                // Only states searched below need remembering: a leaf costs
                // less to visit again than to look up.
                child_removed = fingerprint_run(removed, first, landing, d);
                if !self
                    .searched
                    .insert(child_removed ^ FINGERPRINT_BALL[landing])
                {
                    child_pending = 0;
                }
            }
            if child_pending != 0 {
                self.mb.set_run(first, landing, d, false);
                let flow = match self.prune_for_goal {
                    Some(goal)
                        if depth < RECOMPUTE_DEPTH
                            && reach.support.intersects_run(first, landing, d) =>
                    {
                        self.search_with_new_reach(
                            landing,
                            child_pending,
                            child_removed,
                            goal,
                            depth + 1,
                        )
                    }
                    _ => self.search(landing, child_pending, child_removed, reach, depth + 1),
                };
                self.mb.set_run(first, landing, d, true);
                flow?;
            }
            if TRACK {
                self.points.pop();
            }
        }
        ControlFlow::Continue(())
    }

    /// Men that `reach` relied on are gone: recomputes it before going on.
    /// Kept out of [`Walker::search`] so that its frame stays small.
    #[inline(never)]
    fn search_with_new_reach(
        &mut self,
        ball: usize,
        pending: u8,
        removed: u128,
        goal: u8,
        depth: usize,
    ) -> ControlFlow<Stop> {
        let reach = Reach::compute(&self.mb, goal, self.may_jump_from_strip);
        if !reach.alive.contains(ball) {
            return ControlFlow::Continue(());
        }
        self.search(ball, pending, removed, &reach, depth)
    }
}

/// `removed` with the men of the run `first`, `first + d`, ... before `end` added.
#[inline(always)]
pub(crate) fn fingerprint_run(removed: u128, first: usize, end: usize, d: usize) -> u128 {
    let mut fingerprint = removed;
    let mut c = first;
    while c != end {
        fingerprint ^= FINGERPRINT_MEN[c];
        c = c.wrapping_add(d) & MAILBOX_MASK;
    }
    fingerprint
}

/// Below this depth of the current path, removing a man of [`Reach::support`]
/// recomputes the reach; deeper, the cost outweighs what it prunes (measured
/// on `tests/data/score-16.fixture`).
pub(crate) const RECOMPUTE_DEPTH: usize = 4;

/// The number of jump paths of `pos`: the walk of [`walk`] stripped to what
/// counting needs (no visitor, no states, no pruning), for the hot loop.
/// A step of work on `meter` is a landing searched below (a leaf costs too
/// little to count on its own).
pub(crate) fn count_paths(pos: &Position, meter: &Meter<'_>) -> Result<u64, SearchError> {
    if !pos.ball_may_jump() {
        return Ok(0);
    }
    let mut mb = Mailbox::new(pos.size, pos.men, !pos.rules.continue_off_board);
    let start = mb.cell(pos.ball);
    let pending = CLOCKWISE.neighbours[mb.neighbourhood(start)];
    count_below(&mut mb, start, pending, meter)
}

fn count_below(
    mb: &mut Mailbox,
    ball: usize,
    mut pending: u8,
    meter: &Meter<'_>,
) -> Result<u64, SearchError> {
    let order = &CLOCKWISE;
    let mut paths = 0;
    while pending != 0 {
        let dir = pending.trailing_zeros() as usize;
        pending &= pending - 1;
        let d = order.offsets[dir];
        let first = ball.wrapping_add(d) & MAILBOX_MASK;
        let (landing, contents) = mb.landing(ball, d);
        if contents != EMPTY {
            // Outside the board, or a strip where the move ends.
            paths += u64::from(contents == STRIP_STOP);
            continue;
        }
        paths += 1;
        // The men removed lie behind the landing point, so only the way back
        // changes: the other neighbours can be read before removing them.
        let child_pending =
            order.neighbours[mb.neighbourhood(landing)] & !(1 << order.opposite[dir]);
        if child_pending == 0 {
            continue;
        }
        meter.tick()?;
        mb.set_run(first, landing, d, false);
        let below = count_below(mb, landing, child_pending, meter);
        mb.set_run(first, landing, d, true);
        paths += below?;
    }
    Ok(paths)
}
