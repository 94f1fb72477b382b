//! Benchmark positions (`benches/data`, with their reference counts) and a
//! plain mailbox path counter, the baseline the core's enumeration is measured
//! against.

#![deny(missing_docs)]

pub mod plain;

use phutball::Position;

/// 24 dense standard-board positions, one position string per line.
pub const JUMPS_24: &str = include_str!("../data/jumps-24.pos");
/// `<paths> <outcomes> <can-score>` for each line of [`JUMPS_24`].
pub const JUMPS_24_EXPECTED: &str = include_str!("../data/jumps-24.expected");
/// 16 standard-board positions for the can-score search.
pub const SCORE_16: &str = include_str!("../data/score-16.pos");
/// `<paths> <outcomes> <can-score>` for each line of [`SCORE_16`].
pub const SCORE_16_EXPECTED: &str = include_str!("../data/score-16.expected");

/// The positions of a benchmark file.
pub fn positions(text: &str) -> Vec<Position> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.parse().expect("benchmark positions are valid"))
        .collect()
}

/// The reference figures of an `.expected` file: (paths, outcomes, can score).
pub fn expected(text: &str) -> Vec<(u64, u64, bool)> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<u64> = line
                .split_whitespace()
                .map(|f| f.parse().expect("numbers"))
                .collect();
            (fields[0], fields[1], fields[2] == 1)
        })
        .collect()
}
