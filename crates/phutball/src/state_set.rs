//! The exact set of states the distinct-outcome search has visited.

use crate::budget::{Meter, SearchError};
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
            // vec![0; n] allocates zeroed pages the table may never touch.
            tags: vec![0; slots],
            entries: vec![0; slots],
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
        self.fingerprints
            .try_reserve_exact(more)
            .map_err(|_| SearchError::OutOfMemory { what: WHAT })
    }

    #[cold]
    fn grow(&mut self, meter: &Meter<'_>) -> Result<(), SearchError> {
        let len = self.tags.len() * 2;
        meter.hold(len * SLOT_BYTES, WHAT)?;
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
        meter.release(self.tags.len() * SLOT_BYTES);
        self.tags = tags;
        self.entries = entries;
        Ok(())
    }
}

/// Bytes per slot: a tag and an entry index.
const SLOT_BYTES: usize = 2 + 4;
