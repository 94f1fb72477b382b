//! The exact set of states the distinct-outcome search has visited.

use crate::budget::{reserve_exact, zeroed, Meter, SearchError};
use crate::error::TooManyOutcomesError;

/// What the memory limit names when the state set outgrows it.
const WHAT: &str = "the set of states searched";

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
        Ok(StateSet {
            // Reserved fallibly: an allocator that refuses (an address-space
            // limit) gives the out-of-memory error, not an abort.
            tags: zeroed(slots, WHAT)?,
            entries: zeroed(slots, WHAT)?,
            fingerprints: Vec::new(),
            // Entries are 32-bit indices.
            limit: limit.min(u32::MAX as usize),
        })
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

#[cfg(test)]
mod tests {
    use super::*;

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
