//! The exact set of states the distinct-outcome search has visited.

use std::cell::Cell;

use crate::budget::{reserve_exact, zeroed, Meter, SearchError};
use crate::error::TooManyOutcomesError;

/// The first table sizes ([`initial_slots`]): sparse, middle and dense boards.
const FIRST_SLOTS: [usize; 3] = [1 << 10, 1 << 13, 1 << 18];

/// A set's tables: the tags and the entries.
type Tables = (Vec<u16>, Vec<u32>);

thread_local! {
    /// For each first size, the tables of the thread's last set that ended
    /// at that size, their tags zeroed again, for its next set of that
    /// size: zeroing a dense board's new 1.5 MiB table took more than half
    /// of a search with few outcomes (the dense positions of a random
    /// game: `VecEnv`'s random opponent), where clearing the slots used
    /// takes a few. Only the same size is taken, so a set holds (and the
    /// memory limit counts) what it held before.
    static KEPT: [Cell<Option<Tables>>; 3] = const { [Cell::new(None), Cell::new(None), Cell::new(None)] };
}

/// Which of [`FIRST_SLOTS`] a table of `len` slots is.
fn first_size(len: usize) -> Option<usize> {
    FIRST_SLOTS.iter().position(|&slots| slots == len)
}

/// What the memory limit names when the state set outgrows it.
const WHAT: &str = "the set of states searched";

/// A first table size for a position with `men` men: outcomes grow steeply
/// with the men on the board, and growing the table is much of its cost (on
/// `jumps-24`, starting dense positions at 2^18 slots, 1.5 MiB, beat 2^14 and
/// 2^16, and 2^13 growing four-fold took 45% longer). A new table is
/// written with zeros in full, so a thread keeps its last one ([`KEPT`]).
fn initial_slots(men: u32) -> usize {
    match men {
        0..=30 => FIRST_SLOTS[0],
        31..=60 => FIRST_SLOTS[1],
        _ => FIRST_SLOTS[2],
    }
}

/// An open-addressing set of search-state fingerprints (ball cell + removed
/// men, 128 bits: see `FINGERPRINT_MEN` in `zobrist.rs`). Probing reads only a 2-byte tag
/// per slot, so the part of the table read on every landing stays small
/// enough for the processor's cache; the entry index (4 bytes a slot) and the
/// full fingerprints (in insertion order) are read only when a tag matches.
pub(crate) struct StateSet {
    /// Per slot: 16 bits of the fingerprint, never 0 in a used slot (0: free).
    tags: Vec<u16>,
    /// Per slot: the index of its fingerprint.
    entries: Vec<u32>,
    fingerprints: Vec<u128>,
    limit: usize,
}

impl StateSet {
    /// A set holding at most `limit` states, or an unused one (no
    /// allocation); its memory is accounted to `meter`.
    pub(crate) fn new(
        enabled: bool,
        limit: usize,
        men: u32,
        meter: &Meter<'_>,
    ) -> Result<StateSet, SearchError> {
        let slots = if enabled { initial_slots(men) } else { 0 };
        meter.hold(slots * SLOT_BYTES, WHAT)?;
        let kept =
            first_size(slots).and_then(|size| KEPT.try_with(|k| k[size].take()).ok().flatten());
        let (tags, entries) = if let Some(tables) = kept {
            tables
        } else {
            // Reserved fallibly: an allocator that refuses (an address-space
            // limit) gives the out-of-memory error, not an abort.
            (zeroed(slots, WHAT)?, zeroed(slots, WHAT)?)
        };
        Ok(StateSet {
            tags,
            entries,
            fingerprints: Vec::new(),
            // Entries are 32-bit indices.
            limit: limit.min(u32::MAX as usize),
        })
    }

    /// The tables with every tag zeroed again: the whole table when many
    /// slots were used, else, from each fingerprint's home slot, the slots
    /// up to the next free one (a state lies between its home and the
    /// first slot free when it went in, so this frees every used slot).
    /// Entries are read only under a matching tag, so they stay as they are.
    fn cleared_tables(&mut self) -> Tables {
        let (mut tags, entries) = (
            std::mem::take(&mut self.tags),
            std::mem::take(&mut self.entries),
        );
        if self.fingerprints.len() * 8 >= tags.len() {
            tags.fill(0);
            return (tags, entries);
        }
        let mask = tags.len() - 1;
        for &fingerprint in &self.fingerprints {
            let mut slot = fingerprint as usize & mask;
            while tags[slot] != 0 {
                tags[slot] = 0;
                slot = (slot + 1) & mask;
            }
        }
        (tags, entries)
    }

    /// The bytes this set holds, as accounted to its meter.
    pub(crate) fn bytes(&self) -> usize {
        self.tags.len() * SLOT_BYTES + self.fingerprints.capacity() * 16
    }

    #[inline(always)]
    fn tag(fingerprint: u128) -> u16 {
        ((fingerprint >> 64) as u16) | 1
    }

    /// Inserts the state; `Ok(false)` if it was already there.
    #[inline]
    pub(crate) fn insert(
        &mut self,
        fingerprint: u128,
        meter: &Meter<'_>,
    ) -> Result<bool, SearchError> {
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
            return Err(TooManyOutcomesError { limit: self.limit }.into());
        }
        if self.fingerprints.len() == self.fingerprints.capacity() {
            self.reserve_fingerprints(meter)?;
        }
        self.tags[slot] = tag;
        self.entries[slot] = self.fingerprints.len() as u32;
        self.fingerprints.push(fingerprint);
        if self.fingerprints.len() * 2 > self.tags.len() {
            self.grow(meter)?;
        }
        Ok(true)
    }

    #[cold]
    fn reserve_fingerprints(&mut self, meter: &Meter<'_>) -> Result<(), SearchError> {
        let more = self.fingerprints.capacity().max(1024);
        meter.hold(more * 16, WHAT)?;
        reserve_exact(&mut self.fingerprints, more, WHAT)
    }

    #[cold]
    fn grow(&mut self, meter: &Meter<'_>) -> Result<(), SearchError> {
        self.rehash(self.tags.len() * 2, meter)
    }

    /// Moves the states into a table of `len` slots (a power of two).
    fn rehash(&mut self, len: usize, meter: &Meter<'_>) -> Result<(), SearchError> {
        meter.hold(len.saturating_mul(SLOT_BYTES), WHAT)?;
        let mask = len - 1;
        let tables = zeroed::<u16>(len, WHAT).and_then(|t| Ok((t, zeroed::<u32>(len, WHAT)?)));
        let (mut tags, mut entries) =
            tables.inspect_err(|_| meter.release(len.saturating_mul(SLOT_BYTES)))?;
        for (i, &fingerprint) in self.fingerprints.iter().enumerate() {
            let mut slot = fingerprint as usize & mask;
            while tags[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            tags[slot] = Self::tag(fingerprint);
            entries[slot] = i as u32;
        }
        meter.release(self.tags.len() * SLOT_BYTES);
        self.tags = tags;
        self.entries = entries;
        Ok(())
    }
}

/// Bytes per slot: a tag and an entry index.
const SLOT_BYTES: usize = 2 + 4;

impl Drop for StateSet {
    /// Keeps the tables for the thread's next set (see [`KEPT`]).
    fn drop(&mut self) {
        let Some(size) = first_size(self.tags.len()) else {
            return;
        };
        let tables = self.cleared_tables();
        // After the thread's locals are gone (a set dropped while the thread ends), nothing is kept.
        let _ = KEPT.try_with(|k| k[size].set(Some(tables)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A set's table goes to the thread's next set, every slot free again,
    /// whether few of its slots were used (cleared one by one) or many
    /// (cleared whole).
    #[test]
    fn a_thread_keeps_its_last_table_with_every_slot_free() {
        let meter = Meter::unlimited();
        let fingerprint = |i: u128| i.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835);
        for (men, count) in [(100, 50), (0, 200)] {
            let mut set = StateSet::new(true, usize::MAX, men, &meter).unwrap();
            for i in 1..=count {
                assert_eq!(set.insert(fingerprint(i), &meter), Ok(true));
            }
            let table = set.tags.as_ptr();
            drop(set);
            let mut again = StateSet::new(true, usize::MAX, men, &meter).unwrap();
            assert_eq!(again.tags.as_ptr(), table, "{men} men: the kept table");
            assert!(again.tags.iter().all(|&tag| tag == 0), "{men} men");
            for i in 1..=count {
                assert_eq!(
                    again.insert(fingerprint(i), &meter),
                    Ok(true),
                    "{men} men, state {i}"
                );
                assert_eq!(again.insert(fingerprint(i), &meter), Ok(false));
            }
        }
    }

    /// A table no allocator can give (2^60 slots: 6 EiB) is the
    /// out-of-memory error, not an abort, and the set is left as it was.
    #[test]
    fn a_table_too_large_to_allocate_is_the_out_of_memory_error() {
        let meter = Meter::unlimited();
        let mut set = StateSet::new(true, usize::MAX, 0, &meter).unwrap();
        assert_eq!(set.insert(7, &meter), Ok(true));
        assert_eq!(
            set.rehash(1 << 60, &meter),
            Err(SearchError::OutOfMemory { what: WHAT })
        );
        assert_eq!(set.insert(7, &meter), Ok(false));
        assert_eq!(set.insert(8, &meter), Ok(true));
    }

    #[test]
    fn zeroed_reports_a_capacity_no_machine_has() {
        assert_eq!(
            zeroed::<u32>(usize::MAX / 2, "a test table"),
            Err(SearchError::OutOfMemory {
                what: "a test table"
            })
        );
        assert_eq!(zeroed::<u32>(3, "a test table"), Ok(vec![0; 3]));
    }
}
