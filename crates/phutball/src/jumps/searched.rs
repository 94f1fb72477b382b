//! Lossy memories of the states the can-score search has searched below.

use crate::budget::{Meter, SearchError};

/// A direct-mapped memory of searched states for the can-score search: a
/// state found here was searched and need not be again; a state pushed out
/// by another is merely searched again. It starts small (most positions need
/// little) and doubles up to a size that stays in the processor's cache,
/// which matters more than remembering everything.
pub(crate) struct SearchedCache {
    slots: Vec<u128>,
    inserted: usize,
}

/// The most slots a [`SearchedCache`] grows to (512 KiB).
const SEARCHED_MAX_SLOTS: usize = 1 << 15;

impl SearchedCache {
    pub(crate) fn new(enabled: bool) -> SearchedCache {
        SearchedCache {
            slots: vec![0; if enabled { 1024 } else { 0 }],
            inserted: 0,
        }
    }

    /// Records the state; `false` if it was recorded already.
    #[inline]
    pub(crate) fn insert(&mut self, fingerprint: u128) -> bool {
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

/// A lossy memory of states proved not to reach the goal, for the can-score
/// search: a state is recorded only once everything below it has been
/// searched, so a search that gives up part-way leaves only true facts
/// behind, and the memory can be kept across its restarts. Direct-mapped:
/// a state pushed out by another is merely searched again. It starts small
/// and doubles, up to `max_slots` and while the caller's memory budget
/// allows, once it holds twice as many states as slots.
pub(crate) struct DeadCache {
    slots: Vec<u128>,
    recorded: usize,
    max_slots: usize,
}

impl DeadCache {
    /// An empty cache of 1,024 slots (16 KiB, accounted to `meter`) that
    /// grows up to `max_slots`.
    pub(crate) fn new(max_slots: usize, meter: &Meter<'_>) -> Result<DeadCache, SearchError> {
        let slots = 1024;
        meter.hold(slots * core::mem::size_of::<u128>(), "can-score states")?;
        Ok(DeadCache {
            slots: vec![0; slots],
            recorded: 0,
            max_slots: max_slots.max(slots),
        })
    }

    /// The memory it holds, in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.slots.len() * core::mem::size_of::<u128>()
    }

    /// Whether the state was proved dead (and is still remembered).
    #[inline]
    pub(crate) fn contains(&self, fingerprint: u128) -> bool {
        let fingerprint = fingerprint | 1;
        let mask = self.slots.len() - 1;
        self.slots[(fingerprint >> 64) as usize & mask] == fingerprint
    }

    /// Records a state proved dead.
    #[inline]
    pub(crate) fn record(&mut self, fingerprint: u128, meter: &Meter<'_>) {
        let fingerprint = fingerprint | 1;
        let mask = self.slots.len() - 1;
        self.slots[(fingerprint >> 64) as usize & mask] = fingerprint;
        self.recorded += 1;
        if self.recorded > 2 * self.slots.len() && self.slots.len() < self.max_slots {
            self.grow(meter);
        }
    }

    #[cold]
    fn grow(&mut self, meter: &Meter<'_>) {
        let more = self.slots.len() * core::mem::size_of::<u128>();
        let mut slots = Vec::new();
        if meter.hold(more, "can-score states").is_err() {
            // Over the memory budget: stay this size (a smaller memory is
            // slower, never wrong).
            self.max_slots = self.slots.len();
            return;
        }
        if slots.try_reserve_exact(self.slots.len() * 2).is_err() {
            meter.release(more);
            self.max_slots = self.slots.len();
            return;
        }
        slots.resize(self.slots.len() * 2, 0u128);
        let mask = slots.len() - 1;
        for &entry in self.slots.iter().filter(|&&e| e != 0) {
            slots[(entry >> 64) as usize & mask] = entry;
        }
        self.slots = slots;
    }
}
