//! The prover's transposition table: proof and disproof numbers of the
//! positions searched, in a fixed number of slots sized from the caller's
//! memory limit. When a bucket is full the entry with the least work
//! behind it goes: a proof is cheap to find again where it was cheap to
//! find, and the search never needs more memory than it was given.

use phutball::SearchError;

/// One remembered position: its key, numbers and the work spent on it.
#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    pn: u32,
    dn: u32,
    work: u64,
}

/// Entries per bucket.
pub(crate) const WAYS: usize = 4;

/// The bytes one entry takes.
pub(crate) const ENTRY_BYTES: usize = core::mem::size_of::<Entry>();

/// The table. Key 0 marks an empty slot (a real key of 0 is stored as 1).
/// It starts small and doubles while it is three-quarters full, up to the
/// bytes it was given: a small proof does not pay for a large table.
pub(crate) struct Table {
    entries: Vec<Entry>,
    mask: usize,
    stored: usize,
    max_buckets: usize,
}

/// Buckets of a new table (64 KiB).
const FIRST_BUCKETS: usize = 1 << 10;

impl Table {
    /// A table of at most `bytes` (at least one bucket), allocated fallibly.
    pub(crate) fn with_bytes(bytes: usize) -> Result<Table, SearchError> {
        let wanted = (bytes / (ENTRY_BYTES * WAYS)).max(1);
        // The largest power of two of buckets that fits.
        let max_buckets = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        let buckets = max_buckets.min(FIRST_BUCKETS);
        let entries = allocate(buckets * WAYS).ok_or(SearchError::OutOfMemory {
            what: "the prover's transposition table",
        })?;
        Ok(Table {
            entries,
            mask: buckets - 1,
            stored: 0,
            max_buckets,
        })
    }

    /// An empty table of at most `bytes` that starts with `buckets` buckets
    /// (a power of two, cut to the limit): a checkpoint's table read back
    /// at its saved size puts every entry where it was, and drops none.
    pub(crate) fn with_bytes_and_buckets(
        bytes: usize,
        buckets: usize,
    ) -> Result<Table, SearchError> {
        let mut table = Table::with_bytes(bytes)?;
        let buckets = buckets.clamp(1, table.max_buckets);
        if buckets > table.mask + 1 {
            let entries = allocate(buckets * WAYS).ok_or(SearchError::OutOfMemory {
                what: "the prover's transposition table",
            })?;
            table.entries = entries;
            table.mask = buckets.next_power_of_two().min(table.max_buckets) - 1;
        }
        Ok(table)
    }

    /// The most buckets the table may grow to.
    pub(crate) fn max_buckets(&self) -> usize {
        self.max_buckets
    }

    /// How many buckets the table has now.
    pub(crate) fn buckets(&self) -> usize {
        self.mask + 1
    }

    /// An empty table with the same limit.
    pub(crate) fn emptied(&self) -> Result<Table, SearchError> {
        Table::with_bytes(self.max_buckets * WAYS * ENTRY_BYTES)
    }

    /// Doubles the table if it may and the allocator agrees (else it stays
    /// as it is and replaces entries).
    fn grow(&mut self) {
        let buckets = (self.mask + 1) * 2;
        let Some(entries) = allocate(buckets * WAYS) else {
            self.max_buckets = self.mask + 1;
            return;
        };
        let old = core::mem::replace(&mut self.entries, entries);
        self.mask = buckets - 1;
        self.stored = 0;
        for e in old.into_iter().filter(|e| e.key != 0) {
            self.put(e.key, e.pn, e.dn, e.work);
        }
    }

    fn bucket(&self, key: u64) -> core::ops::Range<usize> {
        let first = (key as usize & self.mask) * WAYS;
        first..first + WAYS
    }

    /// The proof and disproof numbers stored for `key`, if any.
    pub(crate) fn get(&self, key: u64) -> Option<(u32, u32)> {
        let key = key.max(1);
        self.entries[self.bucket(key)]
            .iter()
            .find(|e| e.key == key)
            .map(|e| (e.pn, e.dn))
    }

    /// The work stored with `key` (0 when absent).
    pub(crate) fn work(&self, key: u64) -> u64 {
        let key = key.max(1);
        self.entries[self.bucket(key)]
            .iter()
            .find(|e| e.key == key)
            .map_or(0, |e| e.work)
    }

    /// Stores `key`'s numbers, replacing its old entry, else an empty slot,
    /// else the entry of the bucket with the least work.
    pub(crate) fn put(&mut self, key: u64, pn: u32, dn: u32, work: u64) {
        if self.stored >= self.entries.len() / 4 * 3 && self.mask < self.max_buckets - 1 {
            self.grow();
        }
        let key = key.max(1);
        let range = self.bucket(key);
        let bucket = &mut self.entries[range];
        let slot = bucket
            .iter()
            .position(|e| e.key == key)
            .or_else(|| bucket.iter().position(|e| e.key == 0))
            .unwrap_or_else(|| {
                let mut least = 0;
                for (i, e) in bucket.iter().enumerate() {
                    if e.work < bucket[least].work {
                        least = i;
                    }
                }
                least
            });
        if bucket[slot].key == 0 {
            self.stored += 1;
        }
        bucket[slot] = Entry { key, pn, dn, work };
    }

    /// How many slots hold an entry.
    pub(crate) fn stored(&self) -> usize {
        self.stored
    }

    /// How many slots there are.
    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        self.entries.len()
    }

    /// The stored entries, as (key, pn, dn, work), for a checkpoint.
    pub(crate) fn entries(&self) -> impl Iterator<Item = (u64, u32, u32, u64)> + '_ {
        self.entries
            .iter()
            .filter(|e| e.key != 0)
            .map(|e| (e.key, e.pn, e.dn, e.work))
    }
}

/// What a df-pn search needs of its table: its own [`Table`], or a
/// thread's view of a [`SharedTable`](super::shared_table::SharedTable).
pub(crate) trait ProofTable {
    /// The proof and disproof numbers stored for `key`, if any.
    fn get(&self, key: u64) -> Option<(u32, u32)>;
    /// The work stored with `key` (0 when absent).
    fn work(&self, key: u64) -> u64;
    /// Stores `key`'s numbers.
    fn put(&mut self, key: u64, pn: u32, dn: u32, work: u64);
}

impl ProofTable for Table {
    fn get(&self, key: u64) -> Option<(u32, u32)> {
        Table::get(self, key)
    }
    fn work(&self, key: u64) -> u64 {
        Table::work(self, key)
    }
    fn put(&mut self, key: u64, pn: u32, dn: u32, work: u64) {
        Table::put(self, key, pn, dn, work);
    }
}

impl ProofTable for &super::shared_table::SharedTable {
    fn get(&self, key: u64) -> Option<(u32, u32)> {
        super::shared_table::SharedTable::get(self, key)
    }
    fn work(&self, key: u64) -> u64 {
        super::shared_table::SharedTable::work(self, key)
    }
    fn put(&mut self, key: u64, pn: u32, dn: u32, work: u64) {
        super::shared_table::SharedTable::put(self, key, pn, dn, work);
    }
}

/// `slots` empty entries, or `None` when the allocator refuses.
fn allocate(slots: usize) -> Option<Vec<Entry>> {
    let mut entries = Vec::new();
    entries.try_reserve_exact(slots).ok()?;
    entries.resize(slots, Entry::default());
    Some(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_found_replaced_and_evicted_by_least_work() {
        let mut t = Table::with_bytes(ENTRY_BYTES * WAYS).unwrap();
        assert_eq!(t.capacity(), WAYS);
        t.put(7, 1, 2, 10);
        assert_eq!(t.get(7), Some((1, 2)));
        t.put(7, 0, 9, 11);
        assert_eq!((t.get(7), t.stored()), (Some((0, 9)), 1));
        for k in 8..11 {
            t.put(k, 1, 1, 100);
        }
        // Full: the next key takes the slot with the least work (key 7).
        t.put(12, 3, 3, 50);
        assert_eq!(t.get(7), None);
        assert_eq!(t.get(12), Some((3, 3)));
        assert_eq!(t.work(12), 50);
        assert_eq!(t.get(0), None);
    }

    #[test]
    fn a_table_grows_to_its_limit_and_keeps_its_entries() {
        let mut t = Table::with_bytes(ENTRY_BYTES * WAYS * FIRST_BUCKETS * 4).unwrap();
        assert_eq!(t.capacity(), WAYS * FIRST_BUCKETS);
        let n = (WAYS * FIRST_BUCKETS * 3) as u64;
        for k in 1..=n {
            t.put(k * 0x9e37_79b9, 1, 2, k);
        }
        assert_eq!(t.capacity(), WAYS * FIRST_BUCKETS * 4);
        assert!((1..=n).all(|k| t.get(k * 0x9e37_79b9) == Some((1, 2))));
        for k in n + 1..=4 * n {
            t.put(k * 0x9e37_79b9, 1, 2, k);
        }
        assert_eq!(t.capacity(), WAYS * FIRST_BUCKETS * 4);
    }
}
