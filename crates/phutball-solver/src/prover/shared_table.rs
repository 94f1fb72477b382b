//! The transposition table the threads of a parallel search share: the
//! same buckets and replacement as [`Table`], in atomic words and without
//! locks. An entry is three words, the key stored xored with the other two
//! (Hyatt and Mann's lockless hashing): a read torn by a write elsewhere
//! fails that check and counts as a miss, so no thread ever reads numbers
//! that belong to another key. A lost write costs only search, as an
//! evicted entry does: proofs are checked as certificates.
//!
//! It is allocated whole (it does not grow: growing would stop every
//! thread), so a search turns parallel only once it has searched enough
//! for the allocation to be small beside it.

use std::sync::atomic::{AtomicU64, Ordering};

use phutball::SearchError;

use super::table::{Table, WAYS};

/// Words of one entry: the checked key, the numbers, the work.
const WORDS: usize = 3;

/// The shared table.
pub(crate) struct SharedTable {
    words: Vec<AtomicU64>,
    mask: usize,
}

impl SharedTable {
    /// A table of `buckets` buckets (a power of two) holding `table`'s
    /// entries, allocated fallibly.
    pub(crate) fn from_table(table: &Table, buckets: usize) -> Result<SharedTable, SearchError> {
        let shared = SharedTable::empty(buckets.max(table.buckets()))?;
        for (key, pn, dn, work) in table.entries() {
            shared.put(key, pn, dn, work);
        }
        Ok(shared)
    }

    /// An empty table of `buckets` buckets (a power of two), allocated
    /// fallibly.
    fn empty(buckets: usize) -> Result<SharedTable, SearchError> {
        let buckets = buckets.next_power_of_two();
        let len = buckets * WAYS * WORDS;
        let mut words = Vec::new();
        words
            .try_reserve_exact(len)
            .map_err(|_| SearchError::OutOfMemory {
                what: "the parallel prover's transposition table",
            })?;
        words.resize_with(len, AtomicU64::default);
        Ok(SharedTable {
            words,
            mask: buckets - 1,
        })
    }

    /// The same entries in a table of `buckets` buckets (a power of two,
    /// more than it has): each entry goes where it would have.
    pub(crate) fn grown(&self, buckets: usize) -> Result<SharedTable, SearchError> {
        let grown = SharedTable::empty(buckets)?;
        for (key, pn, dn, work) in self.entries() {
            grown.put(key, pn, dn, work);
        }
        Ok(grown)
    }

    /// The table as a [`Table`] of at most `bytes` (for the certificate's
    /// reading, and the checkpoint's), every entry kept that fits.
    pub(crate) fn to_table(&self, bytes: usize) -> Result<Table, SearchError> {
        let mut table = Table::with_bytes_and_buckets(bytes, self.buckets())?;
        for (key, pn, dn, work) in self.entries() {
            table.put(key, pn, dn, work);
        }
        Ok(table)
    }

    /// Buckets of the table.
    pub(crate) fn buckets(&self) -> usize {
        self.mask + 1
    }

    fn slots(&self, key: u64) -> core::ops::Range<usize> {
        let first = (key as usize & self.mask) * WAYS;
        first..first + WAYS
    }

    /// The slot's (key, numbers, work), or `None` when empty or torn.
    fn read(&self, slot: usize) -> Option<(u64, u64, u64)> {
        let at = slot * WORDS;
        let checked = self.words[at].load(Ordering::Acquire);
        let numbers = self.words[at + 1].load(Ordering::Relaxed);
        let work = self.words[at + 2].load(Ordering::Relaxed);
        let key = checked ^ numbers ^ work;
        (checked != 0 && key != 0).then_some((key, numbers, work))
    }

    fn find(&self, key: u64) -> Option<(u64, u64)> {
        let key = key.max(1);
        self.slots(key)
            .filter_map(|slot| self.read(slot))
            .find(|e| e.0 == key)
            .map(|(_, numbers, work)| (numbers, work))
    }

    /// The proof and disproof numbers stored for `key`, if any.
    pub(crate) fn get(&self, key: u64) -> Option<(u32, u32)> {
        self.find(key)
            .map(|(numbers, _)| ((numbers >> 32) as u32, numbers as u32))
    }

    /// The work stored with `key` (0 when absent).
    pub(crate) fn work(&self, key: u64) -> u64 {
        self.find(key).map_or(0, |(_, work)| work)
    }

    /// Stores `key`'s numbers, replacing its old entry, else an empty
    /// slot, else the entry of the bucket with the least work.
    pub(crate) fn put(&self, key: u64, pn: u32, dn: u32, work: u64) {
        let key = key.max(1);
        let mut chosen = None;
        let mut empty = None;
        let mut least: Option<(usize, u64)> = None;
        for slot in self.slots(key) {
            match self.read(slot) {
                Some((k, _, _)) if k == key => {
                    chosen = Some(slot);
                    break;
                }
                Some((_, _, w)) => {
                    if least.is_none_or(|(_, lw)| w < lw) {
                        least = Some((slot, w));
                    }
                }
                None => {
                    if empty.is_none() {
                        empty = Some(slot);
                    }
                }
            }
        }
        let Some(slot) = chosen.or(empty).or(least.map(|(slot, _)| slot)) else {
            return;
        };
        let numbers = u64::from(pn) << 32 | u64::from(dn);
        let at = slot * WORDS;
        self.words[at + 1].store(numbers, Ordering::Relaxed);
        self.words[at + 2].store(work, Ordering::Relaxed);
        self.words[at].store(key ^ numbers ^ work, Ordering::Release);
    }

    /// How many slots hold an entry, counted (a shared counter would
    /// cost every thread a contended write per new entry).
    pub(crate) fn stored(&self) -> usize {
        self.entries().count()
    }

    /// The stored entries, as (key, pn, dn, work).
    pub(crate) fn entries(&self) -> impl Iterator<Item = (u64, u32, u32, u64)> + '_ {
        (0..self.words.len() / WORDS)
            .filter_map(|slot| self.read(slot))
            .map(|(key, numbers, work)| (key, (numbers >> 32) as u32, numbers as u32, work))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prover::table::ENTRY_BYTES;

    #[test]
    fn entries_are_found_replaced_evicted_and_copied_back() {
        let mut table = Table::with_bytes(1 << 20).unwrap();
        table.put(7, 1, 2, 10);
        let shared = SharedTable::from_table(&table, 1).unwrap();
        assert_eq!(shared.get(7), Some((1, 2)));
        shared.put(7, 0, 9, 11);
        assert_eq!((shared.get(7), shared.work(7)), (Some((0, 9)), 11));
        assert_eq!(shared.get(0), None);
        // Keys of one bucket (the low bits): the least work goes first.
        let bucket_keys: Vec<u64> = (1..=5).map(|i| 7 + (i << 40)).collect();
        for (i, &k) in bucket_keys.iter().enumerate() {
            shared.put(k, 3, 3, 100 + i as u64);
        }
        let kept: Vec<u64> = [7]
            .iter()
            .chain(&bucket_keys)
            .copied()
            .filter(|&k| shared.get(k).is_some())
            .collect();
        assert_eq!(kept.len(), WAYS);
        assert!(
            shared.get(7).is_none(),
            "the entry with the least work stays"
        );
        let back = shared.to_table(ENTRY_BYTES * WAYS * 1024).unwrap();
        assert_eq!((back.stored(), shared.stored()), (WAYS, WAYS));
        for &k in &kept {
            assert_eq!(back.get(k), shared.get(k));
        }
    }

    #[test]
    fn threads_writing_one_bucket_never_read_anothers_numbers() {
        let shared = SharedTable::from_table(&Table::with_bytes(1 << 16).unwrap(), 1).unwrap();
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let shared = &shared;
                scope.spawn(move || {
                    for i in 0..20_000u64 {
                        // Each key's numbers are derived from it.
                        let key = (i % 64 + 1) << 8 | t;
                        shared.put(key, key as u32, (key >> 3) as u32, i);
                        for probe in 1..=64u64 {
                            let other = probe << 8 | ((t + 1) % 4);
                            if let Some((pn, dn)) = shared.get(other) {
                                assert_eq!((pn, dn), (other as u32, (other >> 3) as u32));
                            }
                        }
                    }
                });
            }
        });
    }
}
