//! The transposition table: results of searched positions, keyed by the
//! core's Zobrist hash, so that a position reached by two move orders is
//! searched once and the best move found earlier is tried first.

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

/// A fixed-size, always-replace table.
pub(crate) struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        let len = 1usize << bits;
        Table {
            entries: vec![Entry::default(); len],
            mask: len - 1,
        }
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == key && key != 0).then_some(e)
    }

    /// Stores a result, replacing whatever shared its slot.
    pub fn store(&mut self, entry: Entry) {
        let slot = entry.key as usize & self.mask;
        self.entries[slot] = entry;
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
