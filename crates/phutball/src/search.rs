//! The one depth-first walk behind every jump enumeration: paths, distinct
//! outcomes and the can-score search. It runs on a padded mailbox with an
//! explicit stack (no recursion), removing and restoring men in place.

use core::ops::ControlFlow;

use crate::error::TooManyOutcomes;
use crate::geometry::{
    Mailbox, EMPTY, FLAG_OFF_BOARD, MAILBOX_LEN, MAILBOX_MASK, MAN, OUTSIDE, ZOBRIST_BALL,
    ZOBRIST_POINTS,
};
use crate::point::Point;
use crate::position::Position;

/// Directions in the mailbox's clockwise order, starting north.
pub(crate) const CLOCKWISE: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
/// Directions most useful to Ohs first (north-bound), for the can-score search.
pub(crate) const NORTH_FIRST: [u8; 8] = [0, 1, 7, 2, 6, 3, 5, 4];
/// Directions most useful to Eks first (south-bound).
pub(crate) const SOUTH_FIRST: [u8; 8] = [4, 3, 5, 2, 6, 1, 7, 0];

#[derive(Copy, Clone, Default)]
struct Frame {
    /// The ball's cell at this depth.
    ball: u16,
    /// Ordered directions still to try, as a bit mask (only those with an adjacent man).
    pending: u8,
    /// Direction of the jump that led to the child being searched.
    removed_dir: u8,
    /// First man removed by that jump.
    removed_first: u16,
    /// Number of men removed by that jump.
    removed_count: u16,
    /// Zobrist key of all men removed on the way to this frame.
    removed_hash: u64,
}

/// What a walk found.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct WalkStats {
    /// Landings visited (paths, or distinct outcomes when deduplicating).
    pub landings: u64,
    /// Whether the visitor stopped the walk.
    pub stopped: bool,
}

/// Words of the removed-men bitset over mailbox cells.
const REMOVED_WORDS: usize = MAILBOX_LEN.div_ceil(64);

/// Walks the jump tree of `pos`.
///
/// - `DEDUP`: visit each resulting state (ball cell + removed men) once and do
///   not search below a state seen before (the futures from equal states are equal).
/// - `TRACK`: keep the path as points and hand it to the visitor; otherwise the
///   visitor gets an empty slice.
/// - `alive`: when given, the walk does not go on from a landing cell whose
///   entry is `false` (the can-score search's pruning).
///
/// The visitor gets the path (start point first) and the landing cell's flags.
pub(crate) fn walk<const DEDUP: bool, const TRACK: bool, V>(
    pos: &Position,
    order: &[u8; 8],
    outcome_limit: usize,
    alive: Option<&[bool; MAILBOX_LEN]>,
    mut visit: V,
) -> Result<WalkStats, TooManyOutcomes>
where
    V: FnMut(&[Point], u8) -> ControlFlow<()>,
{
    let mut stats = WalkStats::default();
    if !pos.ball_may_jump() {
        return Ok(stats);
    }
    let mut mb = Mailbox::new(pos.size, pos.men);
    let stop_mask = if pos.rules.continue_off_board {
        0
    } else {
        FLAG_OFF_BOARD
    };
    let dirs = mb.dirs;
    let ordered: [usize; 8] = core::array::from_fn(|i| dirs[order[i] as usize]);
    // The ordered index of each ordered direction's opposite.
    let opposite: [u8; 8] = core::array::from_fn(|i| {
        let back = (order[i] + 4) % 8;
        order.iter().position(|&o| o == back).unwrap_or(0) as u8
    });
    let start = mb.cell(pos.ball);
    // Each jump removes a man, so the depth is bounded by the number of men.
    let max_depth = pos.men.count() as usize + 1;
    let mut stack: Vec<Frame> = vec![Frame::default(); max_depth + 1];
    let mut points: Vec<Point> = Vec::with_capacity(if TRACK { max_depth + 1 } else { 0 });
    let mut seen = if DEDUP {
        Some(StateSet::new(outcome_limit))
    } else {
        None
    };
    let mut removed = [0u64; REMOVED_WORDS];
    stack[0] = Frame {
        ball: start as u16,
        pending: man_mask(&mb.cells, start, &ordered),
        ..Frame::default()
    };
    if TRACK {
        points.push(pos.ball);
    }
    let mut depth = 0usize;
    loop {
        let frame = &mut stack[depth];
        if frame.pending == 0 {
            if depth == 0 {
                break;
            }
            depth -= 1;
            if TRACK {
                points.pop();
            }
            let parent = &stack[depth];
            let d = ordered[parent.removed_dir as usize];
            let mut c = parent.removed_first as usize;
            for _ in 0..parent.removed_count {
                mb.cells[c & MAILBOX_MASK] = MAN;
                if DEDUP {
                    toggle(&mut removed, c);
                }
                c = c.wrapping_add(d);
            }
            continue;
        }
        let dir_index = frame.pending.trailing_zeros() as usize;
        frame.pending &= frame.pending - 1;
        let d = ordered[dir_index];
        // The pending mask says a man is adjacent in this direction.
        let first = (frame.ball as usize).wrapping_add(d);
        let mut landing = first.wrapping_add(d);
        let mut count = 1u16;
        while mb.cells[landing & MAILBOX_MASK] == MAN {
            landing = landing.wrapping_add(d);
            count += 1;
        }
        if mb.cells[landing & MAILBOX_MASK] == OUTSIDE {
            continue;
        }
        let landing = landing & MAILBOX_MASK;
        let mut removed_hash = 0;
        if DEDUP {
            removed_hash = frame.removed_hash;
            let mut c = first;
            for _ in 0..count {
                removed_hash ^= ZOBRIST_POINTS[c & MAILBOX_MASK];
                toggle(&mut removed, c);
                c = c.wrapping_add(d);
            }
            let key_hash = removed_hash ^ ZOBRIST_BALL[landing];
            if let Some(set) = seen.as_mut() {
                if !set.insert(key_hash, landing as u64, &removed)? {
                    undo_removed_bits(&mut removed, first, d, count);
                    continue;
                }
            }
        }
        stats.landings += 1;
        if TRACK {
            points.push(mb.point(landing));
        }
        let flags = mb.flags[landing];
        if visit(&points, flags).is_break() {
            stats.stopped = true;
            return Ok(stats);
        }
        // The men removed lie behind the landing point, so only the way back
        // changes: the other neighbours can be read before removing them.
        let child_pending = if flags & stop_mask != 0 || alive.is_some_and(|a| !a[landing]) {
            0
        } else {
            man_mask(&mb.cells, landing, &ordered) & !(1 << opposite[dir_index])
        };
        if child_pending == 0 {
            if TRACK {
                points.pop();
            }
            if DEDUP {
                undo_removed_bits(&mut removed, first, d, count);
            }
            continue;
        }
        frame.removed_dir = dir_index as u8;
        frame.removed_first = first as u16;
        frame.removed_count = count;
        let mut c = first;
        for _ in 0..count {
            mb.cells[c & MAILBOX_MASK] = EMPTY;
            c = c.wrapping_add(d);
        }
        depth += 1;
        stack[depth] = Frame {
            ball: landing as u16,
            pending: child_pending,
            removed_hash,
            ..Frame::default()
        };
    }
    Ok(stats)
}

/// Bit `i` set when the neighbour in ordered direction `i` holds a man.
#[inline(always)]
fn man_mask(cells: &[u8; MAILBOX_LEN], cell: usize, ordered: &[usize; 8]) -> u8 {
    let mut mask = 0u8;
    for (i, &d) in ordered.iter().enumerate() {
        mask |= u8::from(cells[cell.wrapping_add(d) & MAILBOX_MASK] == MAN) << i;
    }
    mask
}

#[inline(always)]
fn toggle(removed: &mut [u64; REMOVED_WORDS], cell: usize) {
    let cell = cell & MAILBOX_MASK;
    removed[cell / 64] ^= 1 << (cell % 64);
}

fn undo_removed_bits(removed: &mut [u64; REMOVED_WORDS], first: usize, d: usize, count: u16) {
    let mut c = first;
    for _ in 0..count {
        toggle(removed, c);
        c = c.wrapping_add(d);
    }
}

/// An open-addressing set of search states (ball cell + removed men), with
/// exact keys so that a hash collision can never merge two outcomes.
struct StateSet {
    /// Entry index + 1 per slot; 0 is a free slot.
    slots: Vec<u32>,
    hashes: Vec<u64>,
    /// Keys, `KEY_WORDS` words each: the ball cell, then the removed bitset.
    keys: Vec<u64>,
    limit: usize,
}

const KEY_WORDS: usize = REMOVED_WORDS + 1;

impl StateSet {
    fn new(limit: usize) -> StateSet {
        StateSet {
            slots: vec![0; 1024],
            hashes: Vec::with_capacity(512),
            keys: Vec::with_capacity(512 * KEY_WORDS),
            limit,
        }
    }

    /// Inserts the state; `Ok(false)` if it was already there.
    fn insert(
        &mut self,
        hash: u64,
        ball: u64,
        removed: &[u64; REMOVED_WORDS],
    ) -> Result<bool, TooManyOutcomes> {
        let mask = self.slots.len() - 1;
        let mut slot = (hash as usize) & mask;
        loop {
            let entry = self.slots[slot];
            if entry == 0 {
                break;
            }
            let i = entry as usize - 1;
            if self.hashes[i] == hash {
                let key = &self.keys[i * KEY_WORDS..(i + 1) * KEY_WORDS];
                if key[0] == ball && key[1..] == removed[..] {
                    return Ok(false);
                }
            }
            slot = (slot + 1) & mask;
        }
        if self.hashes.len() >= self.limit {
            return Err(TooManyOutcomes { limit: self.limit });
        }
        self.hashes.push(hash);
        self.keys.push(ball);
        self.keys.extend_from_slice(removed);
        self.slots[slot] = self.hashes.len() as u32;
        if self.hashes.len() * 2 > self.slots.len() {
            self.grow();
        }
        Ok(true)
    }

    fn grow(&mut self) {
        let len = self.slots.len() * 2;
        let mask = len - 1;
        let mut slots = vec![0u32; len];
        for (i, &h) in self.hashes.iter().enumerate() {
            let mut slot = (h as usize) & mask;
            while slots[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            slots[slot] = i as u32 + 1;
        }
        self.slots = slots;
    }
}

/// The cells from which the ball might still reach a cell flagged `goal_flag`
/// if men were never removed but any of them could be missing: a backward
/// search over a relaxation of the jump rules. Men are only ever removed, so a
/// real jump is always a jump of the relaxation, and a cell outside this set
/// can never lead to the goal: the can-score search does not go on from it.
pub(crate) fn cells_that_may_reach(pos: &Position, goal_flag: u8) -> Box<[bool; MAILBOX_LEN]> {
    let mb = Mailbox::new(pos.size, pos.men);
    let may_jump_from_strip = pos.rules.continue_off_board;
    let mut alive = Box::new([false; MAILBOX_LEN]);
    let mut queue = Vec::with_capacity(MAILBOX_LEN);
    for cell in 0..MAILBOX_LEN {
        if mb.cells[cell] != OUTSIDE && mb.flags[cell] & goal_flag != 0 {
            queue.push(cell);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let target = queue[head];
        head += 1;
        for &d in &mb.dirs {
            // Walk back from the target over one or more men: every point
            // behind them could be where the jump started.
            let mut c = target.wrapping_sub(d) & MAILBOX_MASK;
            if mb.cells[c] != MAN {
                continue;
            }
            loop {
                let source = c.wrapping_sub(d) & MAILBOX_MASK;
                let contents = mb.cells[source];
                if contents == OUTSIDE {
                    break;
                }
                let jumps_from_here = may_jump_from_strip || mb.flags[source] & FLAG_OFF_BOARD == 0;
                if jumps_from_here && !alive[source] {
                    alive[source] = true;
                    queue.push(source);
                }
                if contents != MAN {
                    break;
                }
                c = source;
            }
        }
    }
    alive
}
