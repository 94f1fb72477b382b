//! The transposition table: results of searched positions, keyed by the
//! core's Zobrist hash, so that a position reached by two move orders is
//! searched once and the best move found earlier is tried first.

use std::sync::atomic::{AtomicU64, Ordering};

/// How a stored score relates to the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub(crate) enum Bound {
    /// The exact value.
    #[default]
    Exact,
    /// A lower bound (the search failed high).
    Lower,
    /// An upper bound (no move reached alpha).
    Upper,
}

/// One stored result. The best move is kept as the hash of the position it
/// leads to: compact, and enough to find the move again among the candidates.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Entry {
    pub key: u64,
    pub best_child: u64,
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
}

impl Entry {
    /// Score, depth and bound in one word.
    fn packed(&self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        u64::from(self.score as u32) | u64::from(self.depth) << 32 | bound << 40
    }

    fn unpack(key: u64, best_child: u64, packed: u64) -> Entry {
        let bound = match (packed >> 40) & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => Bound::Exact,
        };
        Entry {
            key,
            best_child,
            score: packed as u32 as i32,
            depth: (packed >> 32) as u8,
            bound,
        }
    }
}

/// One slot, three words written and read without a lock: the key is
/// stored xor-ed with the other two, so a slot read while another thread
/// rewrites it (words of two entries) fails the key check instead of
/// passing off one entry's move or score as another's.
#[derive(Default)]
struct Slot {
    checked_key: AtomicU64,
    best_child: AtomicU64,
    packed: AtomicU64,
}

/// A fixed-size, always-replace table, which the threads of one search
/// share (see [`Slot`]).
pub(crate) struct Table {
    slots: Vec<Slot>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        let len = 1usize << bits;
        Table {
            slots: std::iter::repeat_with(Slot::default).take(len).collect(),
            mask: len - 1,
        }
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = &self.slots[key as usize & self.mask];
        let best_child = slot.best_child.load(Ordering::Relaxed);
        let packed = slot.packed.load(Ordering::Relaxed);
        let stored_key = slot.checked_key.load(Ordering::Relaxed) ^ best_child ^ packed;
        (stored_key == key && key != 0).then(|| Entry::unpack(key, best_child, packed))
    }

    /// Stores a result, replacing whatever shared its slot.
    pub fn store(&self, entry: Entry) {
        let slot = &self.slots[entry.key as usize & self.mask];
        let packed = entry.packed();
        slot.checked_key
            .store(entry.key ^ entry.best_child ^ packed, Ordering::Relaxed);
        slot.best_child.store(entry.best_child, Ordering::Relaxed);
        slot.packed.store(packed, Ordering::Relaxed);
    }
}

/// Scores of forced results are stored relative to the node (plies from it),
/// not to the root, so that they stay right when met at another depth.
pub(crate) fn to_table(score: i32, ply: u32) -> i32 {
    use crate::score::DECIDED;
    if score >= DECIDED {
        score + ply as i32
    } else if score <= -DECIDED {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_table`].
pub(crate) fn from_table(score: i32, ply: u32) -> i32 {
    use crate::score::DECIDED;
    if score >= DECIDED {
        score - ply as i32
    } else if score <= -DECIDED {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::WIN;

    #[test]
    fn stores_and_finds_by_key() {
        let t = Table::new(4);
        assert!(t.probe(0x1234).is_none());
        t.store(Entry {
            key: 0x1234,
            best_child: 9,
            score: 5,
            depth: 3,
            bound: Bound::Lower,
        });
        let e = t.probe(0x1234).unwrap();
        assert_eq!(
            (e.best_child, e.score, e.depth, e.bound),
            (9, 5, 3, Bound::Lower)
        );
        // Same slot, other key: not a hit.
        assert!(t.probe(0x1234 + 16).is_none());
    }

    #[test]
    fn a_slot_half_rewritten_by_another_thread_is_no_hit() {
        let t = Table::new(4);
        let entry = |key, best_child, score| Entry {
            key,
            best_child,
            score,
            depth: 7,
            bound: Bound::Upper,
        };
        t.store(entry(0x55, 1, -300));
        let e = t.probe(0x55).unwrap();
        assert_eq!((e.score, e.depth, e.bound), (-300, 7, Bound::Upper));
        // Another thread's store into the same slot got as far as its
        // first word: the key no longer checks out, for either entry.
        let other = entry(0x55 + 16, 2, 40);
        t.slots[5].checked_key.store(
            other.key ^ other.best_child ^ other.packed(),
            Ordering::Relaxed,
        );
        assert!(t.probe(0x55).is_none());
        assert!(t.probe(0x55 + 16).is_none());
        t.slots[5].best_child.store(2, Ordering::Relaxed);
        t.slots[5].packed.store(other.packed(), Ordering::Relaxed);
        assert_eq!(t.probe(0x55 + 16).unwrap().score, 40);
    }

    #[test]
    fn forced_scores_round_trip_relative_to_the_node() {
        let at_root = WIN - 5;
        let stored = to_table(at_root, 2);
        assert_eq!(stored, WIN - 3);
        assert_eq!(from_table(stored, 4), WIN - 7);
        assert_eq!(from_table(to_table(-(WIN - 6), 3), 3), -(WIN - 6));
        assert_eq!(from_table(to_table(42, 3), 9), 42);
    }
}
