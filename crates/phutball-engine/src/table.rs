//! The transposition table: results of searched positions, keyed by the
//! core's Zobrist hash, so that a position reached by two move orders is
//! searched once and the best move found earlier is tried first.
//!
//! An [`Engine`](crate::Engine) keeps one table between its searches
//! ([`TableCache`]): allocating and zeroing 6 MiB cost more than a whole
//! search of a position won in one. Each search starts from an empty table
//! all the same (a new generation makes every old entry a miss), so a
//! result never depends on the searches before it. Within a search the
//! table is shared by its threads, without a lock (see [`Slot`]).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

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
    /// Score, depth, bound and the table's generation in one word.
    fn packed(&self, generation: u16) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        u64::from(self.score as u32)
            | u64::from(self.depth) << 32
            | bound << 40
            | u64::from(generation) << 48
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

/// The generation in a packed word.
fn generation_of(packed: u64) -> u16 {
    (packed >> 48) as u16
}

/// One slot, three words written and read without a lock: the key is
/// stored xor-ed with the other two, so a slot read while another thread
/// rewrites it (words of two entries) fails the key check instead of
/// passing off one entry's move or score as another's. The generation
/// lives in the packed word, under the same check.
#[derive(Default)]
struct Slot {
    checked_key: AtomicU64,
    best_child: AtomicU64,
    packed: AtomicU64,
}

/// A fixed-size, always-replace table, which the threads of one search
/// share (see [`Slot`]) and an engine keeps between searches (see
/// [`TableCache`]).
pub(crate) struct Table {
    slots: Vec<Slot>,
    mask: usize,
    /// Stamped on every entry stored; entries of other generations are
    /// empty. Never 0, the generation of a zeroed slot. Changed only
    /// between searches (`&mut self`), so the threads of one search agree.
    generation: u16,
}

impl Table {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        let len = 1usize << bits;
        Table {
            slots: std::iter::repeat_with(Slot::default).take(len).collect(),
            mask: len - 1,
            generation: 1,
        }
    }

    /// A table of `2^bits` entries if the allocator gives one, else of the
    /// most entries it gives (a smaller table is slower, never wrong): an
    /// address-space limit makes the search weaker, not an abort.
    fn new_or_smaller(bits: u32) -> Table {
        for bits in (1..=bits).rev() {
            let len = 1usize << bits;
            let mut slots = Vec::new();
            if slots.try_reserve_exact(len).is_ok() {
                slots.resize_with(len, Slot::default);
                return Table {
                    slots,
                    mask: len - 1,
                    generation: 1,
                };
            }
        }
        Table::new(0)
    }

    /// Empties the table in constant time: a new generation. Once in 65 535
    /// clears the counter wraps and the slots are really zeroed.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slots.fill_with(Slot::default);
            self.generation = 1;
        }
    }

    /// The entry stored for `key` in this generation, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = &self.slots[key as usize & self.mask];
        let best_child = slot.best_child.load(Ordering::Relaxed);
        let packed = slot.packed.load(Ordering::Relaxed);
        let stored_key = slot.checked_key.load(Ordering::Relaxed) ^ best_child ^ packed;
        (stored_key == key && key != 0 && generation_of(packed) == self.generation)
            .then(|| Entry::unpack(key, best_child, packed))
    }

    /// Stores a result, replacing whatever shared its slot.
    pub fn store(&self, entry: Entry) {
        let slot = &self.slots[entry.key as usize & self.mask];
        let packed = entry.packed(self.generation);
        slot.checked_key
            .store(entry.key ^ entry.best_child ^ packed, Ordering::Relaxed);
        slot.best_child.store(entry.best_child, Ordering::Relaxed);
        slot.packed.store(packed, Ordering::Relaxed);
    }
}

/// The table an engine keeps between searches. A search takes it out (so
/// that the lock is held only for a moment) and puts it back when done; a
/// second search running meanwhile on the same engine (from another thread)
/// finds the slot empty and allocates a table of its own.
#[derive(Default)]
pub(crate) struct TableCache {
    slot: Mutex<Option<Table>>,
}

impl TableCache {
    /// Runs `search` with an empty table of `2^bits` entries, reused if
    /// one is kept.
    pub fn with_table<R>(&self, bits: u32, search: impl FnOnce(&Table) -> R) -> R {
        let kept = self.lock().take();
        let table = match kept {
            Some(mut table) if table.slots.len() == 1usize << bits => {
                table.clear();
                table
            }
            _ => Table::new_or_smaller(bits),
        };
        let result = search(&table);
        self.lock().get_or_insert(table);
        result
    }

    /// Whether a table is kept now (for the tests).
    #[cfg(test)]
    pub fn holds_a_table(&self) -> bool {
        self.lock().is_some()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Table>> {
        // The slot holds plain data, whole at every moment: a panic elsewhere
        // while it was locked leaves nothing half-written.
        self.slot.lock().unwrap_or_else(PoisonError::into_inner)
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
    use crate::score::{loss_in, win_in};

    #[test]
    fn stores_and_finds_by_key() {
        let mut t = Table::new(4);
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
        // Cleared: not a hit any more, and storing again works.
        t.clear();
        assert!(t.probe(0x1234).is_none());
        t.store(e);
        assert_eq!(t.probe(0x1234).map(|e| e.score), Some(5));
    }

    #[test]
    fn a_wrapped_generation_still_empties_the_table() {
        let mut t = Table::new(4);
        let entry = Entry {
            key: 7,
            score: 1,
            ..Entry::default()
        };
        t.store(entry);
        // 65 535 clears bring the counter back to 1, the stored generation.
        for _ in 0..u16::MAX {
            t.clear();
        }
        assert_eq!(t.generation, 1);
        assert!(t.probe(7).is_none());
    }

    #[test]
    fn the_cache_keeps_one_table_and_hands_it_out_empty() {
        let cache = TableCache::default();
        assert!(!cache.holds_a_table());
        let entry = Entry {
            key: 99,
            ..Entry::default()
        };
        cache.with_table(4, |t| t.store(entry));
        assert!(cache.holds_a_table());
        cache.with_table(4, |t| {
            assert!(t.probe(99).is_none(), "a reused table starts empty");
            // While it is out, a second search gets a table of its own.
            cache.with_table(4, |other| assert!(other.probe(99).is_none()));
        });
        assert!(cache.holds_a_table());
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
        let packed = other.packed(t.generation);
        t.slots[5]
            .checked_key
            .store(other.key ^ other.best_child ^ packed, Ordering::Relaxed);
        assert!(t.probe(0x55).is_none());
        assert!(t.probe(0x55 + 16).is_none());
        t.slots[5].best_child.store(2, Ordering::Relaxed);
        t.slots[5].packed.store(packed, Ordering::Relaxed);
        assert_eq!(t.probe(0x55 + 16).unwrap().score, 40);
    }

    #[test]
    fn an_entry_of_another_generation_is_no_hit_even_with_its_key_checked() {
        let mut t = Table::new(4);
        let entry = Entry {
            key: 0x66,
            best_child: 3,
            score: -12,
            depth: 2,
            bound: Bound::Exact,
        };
        t.store(entry);
        let stored_in = t.generation;
        t.clear();
        // The slot is whole and its key checks out: only the generation
        // (inside the checked word) tells that it is stale.
        let slot = &t.slots[6];
        let packed = slot.packed.load(Ordering::Relaxed);
        assert_eq!(generation_of(packed), stored_in);
        assert_eq!(
            slot.checked_key.load(Ordering::Relaxed) ^ 3 ^ packed,
            entry.key
        );
        assert!(t.probe(0x66).is_none());
        // Negative scores keep their sign bits out of the generation.
        t.store(entry);
        assert_eq!(t.probe(0x66).map(|e| (e.score, e.depth)), Some((-12, 2)));
    }

    #[test]
    fn forced_scores_round_trip_relative_to_the_node() {
        let at_root = win_in(5);
        let stored = to_table(at_root, 2);
        assert_eq!(stored, win_in(3));
        assert_eq!(from_table(stored, 4), win_in(7));
        assert_eq!(from_table(to_table(loss_in(6), 3), 3), loss_in(6));
        assert_eq!(from_table(to_table(42, 3), 9), 42);
    }
}
