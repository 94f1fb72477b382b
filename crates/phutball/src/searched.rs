//! A lossy memory of the states the can-score search has searched below.

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
