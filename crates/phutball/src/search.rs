//! The one depth-first walk behind every jump enumeration: paths, distinct
//! outcomes and the can-score search. It runs on a padded mailbox, removing
//! and restoring men in place. It recurses once per jump of the current
//! path; every jump removes a man, so the depth is at most the number of men
//! plus one (626 on the largest board), a few tens of kilobytes of stack.

use core::ops::ControlFlow;

use crate::error::TooManyOutcomes;
use crate::geometry::{
    Mailbox, DIRECTION_OFFSETS, FINGERPRINT_BALL, FINGERPRINT_MEN, FLAG_OFF_BOARD, MAILBOX_LEN,
    MAILBOX_MASK, MAN, OUTSIDE, STRIP_STOP,
};
use crate::point::Point;
use crate::position::Position;

/// An order in which the walk tries the 8 directions, with what the hot loop
/// needs precomputed.
pub(crate) struct Order {
    /// Mailbox offsets, in this order.
    offsets: [usize; 8],
    /// For each ordered direction, the ordered index of its opposite.
    opposite: [u8; 8],
    /// For each 9-bit neighbourhood ([`Mailbox::neighbourhood`]), the mask of
    /// ordered directions with a man adjacent.
    neighbours: [u8; 512],
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
    Limit,
}

struct Walker<V, const DEDUP: u8, const TRACK: bool> {
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
pub(crate) fn walk<const DEDUP: u8, const TRACK: bool, V>(
    pos: &Position,
    order: &'static Order,
    outcome_limit: usize,
    prune_for_goal: Option<u8>,
    visit: V,
) -> Result<WalkStats, TooManyOutcomes>
where
    V: FnMut(&[Point], u8) -> ControlFlow<()>,
{
    if !pos.ball_may_jump() {
        return Ok(WalkStats::default());
    }
    let mb = Mailbox::new(pos.size, pos.men, !pos.rules.continue_off_board);
    let start = mb.cell(pos.ball);
    let pending = order.neighbours[mb.neighbourhood(start)];
    let mut walker = Walker::<V, DEDUP, TRACK> {
        mb,
        order,
        prune_for_goal,
        may_jump_from_strip: pos.rules.continue_off_board,
        visit,
        searched: SearchedCache::new(DEDUP == DEDUP_INTERNAL),
        seen: StateSet::new(DEDUP == DEDUP_ALL, outcome_limit, pos.men.count()),
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
    match result {
        ControlFlow::Break(Stop::Limit) => Err(TooManyOutcomes {
            limit: outcome_limit,
        }),
        flow => Ok(WalkStats {
            landings: walker.landings,
            stopped: flow.is_break(),
        }),
    }
}

impl<V, const DEDUP: u8, const TRACK: bool> Walker<V, DEDUP, TRACK>
where
    V: FnMut(&[Point], u8) -> ControlFlow<()>,
{
    /// Tries the jumps in `pending` (ordered directions with a man adjacent)
    /// from `ball`; `removed` fingerprints the men removed so far; `reach`
    /// holds the cells from which the goal may still be reached (pruning only).
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
            let mut landing = first.wrapping_add(d) & MAILBOX_MASK;
            let mut contents = self.mb.cells[landing];
            while contents == MAN {
                landing = landing.wrapping_add(d) & MAILBOX_MASK;
                contents = self.mb.cells[landing];
            }
            if contents == OUTSIDE {
                continue;
            }
            let mut child_removed = 0;
            if DEDUP == DEDUP_ALL {
                child_removed = fingerprint_run(removed, first, landing, d);
                match self.seen.insert(child_removed ^ FINGERPRINT_BALL[landing]) {
                    Ok(true) => {}
                    Ok(false) => continue,
                    Err(_) => return ControlFlow::Break(Stop::Limit),
                }
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
                let mut c = first;
                while c != landing {
                    self.mb.set_man(c, false);
                    c = c.wrapping_add(d) & MAILBOX_MASK;
                }
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
                let mut c = first;
                while c != landing {
                    self.mb.set_man(c, true);
                    c = c.wrapping_add(d) & MAILBOX_MASK;
                }
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
fn fingerprint_run(removed: u128, first: usize, end: usize, d: usize) -> u128 {
    let mut fingerprint = removed;
    let mut c = first;
    while c != end {
        fingerprint ^= FINGERPRINT_MEN[c];
        c = c.wrapping_add(d) & MAILBOX_MASK;
    }
    fingerprint
}

/// A direct-mapped memory of searched states for the can-score search: a
/// state found here was searched and need not be again; a state pushed out
/// by another is merely searched again. It starts small (most positions need
/// little) and doubles up to a size that stays in the processor's cache,
/// which matters more than remembering everything.
struct SearchedCache {
    slots: Vec<u128>,
    inserted: usize,
}

/// The most slots a [`SearchedCache`] grows to (512 KiB).
const SEARCHED_MAX_SLOTS: usize = 1 << 15;

impl SearchedCache {
    fn new(enabled: bool) -> SearchedCache {
        SearchedCache {
            slots: vec![0; if enabled { 1024 } else { 0 }],
            inserted: 0,
        }
    }

    /// Records the state; `false` if it was recorded already.
    #[inline]
    fn insert(&mut self, fingerprint: u128) -> bool {
        let fingerprint = fingerprint | 1;
        let mask = self.slots.len() - 1;
        let slot = &mut self.slots[(fingerprint >> 64) as usize & mask];
        if *slot == fingerprint {
            return false;
        }
        *slot = fingerprint;
        self.inserted += 1;
        if self.inserted > 2 * self.slots.len() && self.slots.len() < SEARCHED_MAX_SLOTS {
            self.grow();
        }
        true
    }

    fn grow(&mut self) {
        let mut slots = vec![0u128; self.slots.len() * 2];
        let mask = slots.len() - 1;
        for &entry in self.slots.iter().filter(|&&e| e != 0) {
            slots[(entry >> 64) as usize & mask] = entry;
        }
        self.slots = slots;
    }
}

/// A set of mailbox cells.
#[derive(Clone, Copy)]
struct CellSet([u64; MAILBOX_LEN / 64]);

impl CellSet {
    const EMPTY: CellSet = CellSet([0; MAILBOX_LEN / 64]);
    const ALL: CellSet = CellSet([u64::MAX; MAILBOX_LEN / 64]);

    #[inline(always)]
    fn contains(&self, cell: usize) -> bool {
        let cell = cell & MAILBOX_MASK;
        self.0[cell / 64] >> (cell % 64) & 1 != 0
    }

    #[inline(always)]
    fn insert(&mut self, cell: usize) {
        let cell = cell & MAILBOX_MASK;
        self.0[cell / 64] |= 1 << (cell % 64);
    }

    /// Whether any cell of the run `first`, `first + d`, ... before `end` is in the set.
    fn intersects_run(&self, first: usize, end: usize, d: usize) -> bool {
        let mut c = first;
        while c != end {
            if self.contains(c) {
                return true;
            }
            c = c.wrapping_add(d) & MAILBOX_MASK;
        }
        false
    }
}

/// Below this depth of the current path, removing a man of [`Reach::support`]
/// recomputes the reach; deeper, the cost outweighs what it prunes (measured
/// on `benches/data/score-16.pos`).
const RECOMPUTE_DEPTH: usize = 4;

/// How many jumps from the goal the men in [`Reach::support`] are collected:
/// the men near the goal are the few that every scoring path needs, and
/// watching only them keeps recomputation rare.
const SUPPORT_LAYERS: usize = 3;

/// The can-score search's pruning: the cells from which the ball might still
/// reach the goal if men were never removed but any of them could be missing,
/// found by a backward search over that relaxation of the jump rules. Men are
/// only ever removed, so a real jump is always a jump of the relaxation, and
/// from a cell outside `alive` the goal cannot be reached, however many more
/// men are removed. `support` holds the men the relaxation used for its last
/// jumps into the goal: when one of them is removed, `alive` is recomputed.
struct Reach {
    alive: CellSet,
    support: CellSet,
}

impl Reach {
    /// No pruning: everything alive, nothing to recompute.
    const EVERYWHERE: Reach = Reach {
        alive: CellSet::ALL,
        support: CellSet::EMPTY,
    };

    fn compute(mb: &Mailbox, goal_flag: u8, may_jump_from_strip: bool) -> Reach {
        let mut alive = CellSet::EMPTY;
        let mut support = CellSet::EMPTY;
        let mut queue = [0u16; MAILBOX_LEN];
        let mut tail = 0;
        for cell in 0..MAILBOX_LEN {
            if mb.cells[cell] != OUTSIDE && mb.flags[cell] & goal_flag != 0 {
                queue[tail] = cell as u16;
                tail += 1;
            }
        }
        let mut head = 0;
        // Breadth-first layers: layer k holds the cells k jumps from the goal.
        let mut layer = 0;
        let mut layer_end = tail;
        while head < tail {
            if head == layer_end {
                layer += 1;
                layer_end = tail;
            }
            let target = queue[head] as usize;
            head += 1;
            for &d in &DIRECTION_OFFSETS {
                // Walk back from the target over one or more men: every point
                // behind them could be where the jump started.
                let mut c = target.wrapping_sub(d) & MAILBOX_MASK;
                if mb.cells[c] != MAN {
                    continue;
                }
                loop {
                    if layer < SUPPORT_LAYERS {
                        support.insert(c);
                    }
                    let source = c.wrapping_sub(d) & MAILBOX_MASK;
                    let contents = mb.cells[source];
                    if contents == OUTSIDE {
                        break;
                    }
                    let jumps_from_here =
                        may_jump_from_strip || mb.flags[source] & FLAG_OFF_BOARD == 0;
                    if jumps_from_here && !alive.contains(source) {
                        alive.insert(source);
                        queue[tail] = source as u16;
                        tail += 1;
                    }
                    if contents != MAN {
                        break;
                    }
                    c = source;
                }
            }
        }
        Reach { alive, support }
    }
}

/// A first table size for a position with `men` men: outcomes grow steeply
/// with the men on the board, and growing the table is much of its cost (on
/// `jumps-24`, starting dense positions at 2^18 slots, 1.5 MiB, beat 2^14 and
/// 2^16; untouched pages of a large zeroed allocation cost nothing).
fn initial_slots(men: u32) -> usize {
    match men {
        0..=30 => 1 << 10,
        31..=60 => 1 << 13,
        _ => 1 << 18,
    }
}

/// An open-addressing set of search-state fingerprints (ball cell + removed
/// men, 128 bits: see [`FINGERPRINT_MEN`]). Probing reads only a 2-byte tag
/// per slot, so the part of the table read on every landing stays small
/// enough for the processor's cache; the entry index (4 bytes a slot) and the
/// full fingerprints (in insertion order) are read only when a tag matches.
struct StateSet {
    /// Per slot: 16 bits of the fingerprint, never 0 in a used slot (0: free).
    tags: Vec<u16>,
    /// Per slot: the index of its fingerprint.
    entries: Vec<u32>,
    fingerprints: Vec<u128>,
    limit: usize,
}

impl StateSet {
    /// A set holding at most `limit` states, or an unused one (no allocation).
    fn new(enabled: bool, limit: usize, men: u32) -> StateSet {
        let slots = if enabled { initial_slots(men) } else { 0 };
        StateSet {
            tags: vec![0; slots],
            entries: vec![0; slots],
            fingerprints: Vec::new(),
            // Entries are 32-bit indices.
            limit: limit.min(u32::MAX as usize),
        }
    }

    #[inline(always)]
    fn tag(fingerprint: u128) -> u16 {
        ((fingerprint >> 64) as u16) | 1
    }

    /// Inserts the state; `Ok(false)` if it was already there.
    #[inline]
    fn insert(&mut self, fingerprint: u128) -> Result<bool, TooManyOutcomes> {
        let mask = self.tags.len() - 1;
        let tag = Self::tag(fingerprint);
        let mut slot = fingerprint as usize & mask;
        loop {
            let slot_tag = self.tags[slot];
            if slot_tag == 0 {
                break;
            }
            if slot_tag == tag && self.fingerprints[self.entries[slot] as usize] == fingerprint {
                return Ok(false);
            }
            slot = (slot + 1) & mask;
        }
        if self.fingerprints.len() >= self.limit {
            return Err(TooManyOutcomes { limit: self.limit });
        }
        self.tags[slot] = tag;
        self.entries[slot] = self.fingerprints.len() as u32;
        self.fingerprints.push(fingerprint);
        if self.fingerprints.len() * 2 > self.tags.len() {
            self.grow();
        }
        Ok(true)
    }

    fn grow(&mut self) {
        let len = self.tags.len() * 2;
        let mask = len - 1;
        let mut tags = vec![0u16; len];
        let mut entries = vec![0u32; len];
        for (i, &fingerprint) in self.fingerprints.iter().enumerate() {
            let mut slot = fingerprint as usize & mask;
            while tags[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            tags[slot] = Self::tag(fingerprint);
            entries[slot] = i as u32;
        }
        self.tags = tags;
        self.entries = entries;
    }
}

/// The number of jump paths of `pos`: the walk of [`walk`] stripped to what
/// counting needs (no visitor, no states, no pruning), for the hot loop.
pub(crate) fn count_paths(pos: &Position) -> u64 {
    if !pos.ball_may_jump() {
        return 0;
    }
    let mut mb = Mailbox::new(pos.size, pos.men, !pos.rules.continue_off_board);
    let start = mb.cell(pos.ball);
    let pending = CLOCKWISE.neighbours[mb.neighbourhood(start)];
    count_below(&mut mb, start, pending)
}

fn count_below(mb: &mut Mailbox, ball: usize, mut pending: u8) -> u64 {
    let order = &CLOCKWISE;
    let mut paths = 0;
    while pending != 0 {
        let dir = pending.trailing_zeros() as usize;
        pending &= pending - 1;
        let d = order.offsets[dir];
        let first = ball.wrapping_add(d) & MAILBOX_MASK;
        let mut landing = first.wrapping_add(d) & MAILBOX_MASK;
        let mut contents = mb.cells[landing];
        while contents == MAN {
            landing = landing.wrapping_add(d) & MAILBOX_MASK;
            contents = mb.cells[landing];
        }
        if contents == OUTSIDE {
            continue;
        }
        paths += 1;
        if contents == STRIP_STOP {
            continue;
        }
        // The men removed lie behind the landing point, so only the way back
        // changes: the other neighbours can be read before removing them.
        let child_pending =
            order.neighbours[mb.neighbourhood(landing)] & !(1 << order.opposite[dir]);
        if child_pending == 0 {
            continue;
        }
        let mut c = first;
        while c != landing {
            mb.set_man(c, false);
            c = c.wrapping_add(d) & MAILBOX_MASK;
        }
        paths += count_below(mb, landing, child_pending);
        let mut c = first;
        while c != landing {
            mb.set_man(c, true);
            c = c.wrapping_add(d) & MAILBOX_MASK;
        }
    }
    paths
}
