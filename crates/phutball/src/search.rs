//! The one depth-first walk behind every jump enumeration: paths, distinct
//! outcomes and the can-score search. It runs on a padded mailbox with an
//! explicit stack (no recursion), removing and restoring men in place.

use core::ops::ControlFlow;

use crate::error::TooManyOutcomes;
use crate::geometry::{
    Mailbox, EMPTY, FLAG_OFF_BOARD, MAILBOX_LEN, MAN, OUTSIDE, ZOBRIST_BALL, ZOBRIST_POINTS,
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
    /// Index into the direction order of the next direction to try.
    next: u8,
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
///
/// The visitor gets the path (start point first) and the landing cell's flags.
pub(crate) fn walk<const DEDUP: bool, const TRACK: bool, V>(
    pos: &Position,
    order: &[u8; 8],
    outcome_limit: usize,
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
    let start = mb.cell(pos.ball);
    // Each jump removes a man, so the depth is bounded by the number of men.
    let max_depth = pos.men.count() as usize + 1;
    let mut stack: Vec<Frame> = Vec::with_capacity(max_depth + 1);
    let mut points: Vec<Point> = Vec::with_capacity(if TRACK { max_depth + 1 } else { 0 });
    let mut seen = if DEDUP {
        Some(StateSet::new(outcome_limit))
    } else {
        None
    };
    let mut removed = [0u64; REMOVED_WORDS];
    stack.push(Frame {
        ball: start as u16,
        ..Frame::default()
    });
    if TRACK {
        points.push(pos.ball);
    }
    loop {
        let depth = stack.len() - 1;
        let frame = &mut stack[depth];
        if frame.next == 8 {
            stack.pop();
            if TRACK {
                points.pop();
            }
            let Some(parent) = stack.last() else { break };
            let d = ordered[parent.removed_dir as usize];
            let mut c = parent.removed_first as usize;
            for _ in 0..parent.removed_count {
                mb.cells[c] = MAN;
                if DEDUP {
                    removed[c / 64] ^= 1 << (c % 64);
                }
                c = c.wrapping_add(d);
            }
            continue;
        }
        let dir_index = frame.next;
        frame.next += 1;
        let d = ordered[dir_index as usize];
        let first = (frame.ball as usize).wrapping_add(d);
        if mb.cells[first] != MAN {
            continue;
        }
        let mut landing = first.wrapping_add(d);
        let mut count = 1u16;
        while mb.cells[landing] == MAN {
            landing = landing.wrapping_add(d);
            count += 1;
        }
        if mb.cells[landing] == OUTSIDE {
            continue;
        }
        let mut removed_hash = 0;
        if DEDUP {
            removed_hash = frame.removed_hash;
            let mut c = first;
            for _ in 0..count {
                removed_hash ^= ZOBRIST_POINTS[c];
                removed[c / 64] ^= 1 << (c % 64);
                c = c.wrapping_add(d);
            }
            let key_hash = removed_hash ^ ZOBRIST_BALL[landing];
            let set = seen.as_mut().expect("DEDUP walks have a state set");
            if !set.insert(key_hash, landing as u64, &removed)? {
                undo_removed_bits(&mut removed, first, d, count);
                continue;
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
        if flags & stop_mask != 0 {
            if TRACK {
                points.pop();
            }
            if DEDUP {
                undo_removed_bits(&mut removed, first, d, count);
            }
            continue;
        }
        frame.removed_dir = dir_index;
        frame.removed_first = first as u16;
        frame.removed_count = count;
        let mut c = first;
        for _ in 0..count {
            mb.cells[c] = EMPTY;
            c = c.wrapping_add(d);
        }
        stack.push(Frame {
            ball: landing as u16,
            removed_hash,
            ..Frame::default()
        });
    }
    Ok(stats)
}

fn undo_removed_bits(removed: &mut [u64; REMOVED_WORDS], first: usize, d: usize, count: u16) {
    let mut c = first;
    for _ in 0..count {
        removed[c / 64] ^= 1 << (c % 64);
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

/// A necessary condition for scoring, cheap to test: can the ball reach the
/// mover's goal if men were never removed but any of them could be missing?
/// A later man is always one of the men now, so a jump in the real game is a
/// jump of this relaxation; if the relaxation cannot reach the goal, nothing can.
pub(crate) fn relaxed_goal_reachable(pos: &Position, goal_flag: u8) -> bool {
    let mb = Mailbox::new(pos.size, pos.men);
    let stop_mask = if pos.rules.continue_off_board {
        0
    } else {
        FLAG_OFF_BOARD
    };
    let mut reached = [false; MAILBOX_LEN];
    let mut queue = [0u16; MAILBOX_LEN];
    let start = mb.cell(pos.ball);
    reached[start] = true;
    queue[0] = start as u16;
    let (mut head, mut tail) = (0, 1);
    while head < tail {
        let b = queue[head] as usize;
        head += 1;
        for &d in &mb.dirs {
            let mut c = b.wrapping_add(d);
            if mb.cells[c] != MAN {
                continue;
            }
            // Any point past one or more men in a row may be a landing.
            loop {
                c = c.wrapping_add(d);
                if mb.cells[c] == OUTSIDE {
                    break;
                }
                if !reached[c] {
                    if mb.flags[c] & goal_flag != 0 {
                        return true;
                    }
                    reached[c] = true;
                    if mb.flags[c] & stop_mask == 0 {
                        queue[tail] = c as u16;
                        tail += 1;
                    }
                }
                if mb.cells[c] != MAN {
                    break;
                }
            }
        }
    }
    false
}
