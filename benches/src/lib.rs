//! The benchmark positions (the core's fixture files, `phutball::fixtures`)
//! and a plain mailbox path counter, the baseline the core's enumeration is
//! measured against.

#![deny(missing_docs)]

pub mod plain;

use std::time::{Duration, Instant};

use phutball::fixtures::{self, Fixture};
use phutball::{Budget, Interrupt, Position, SearchError};

/// 24 dense standard-board positions with their paths, outcomes and score.
pub const JUMPS_24: &str = "jumps-24.fixture";
/// 16 standard-board positions for the can-score search, with their figures.
pub const SCORE_16: &str = "score-16.fixture";
/// 32 hard standard-board can-score positions: the two of issue 9, then 30
/// found by `hard_positions`; a `score` figure each, three `undecided`.
pub const HARD_32: &str = "hard-32.fixture";

/// The records of the core's fixture file `name` (see
/// `crates/phutball/tests/data/README.md`).
///
/// # Panics
///
/// If the file does not read or parse: the benches need their fixtures.
pub fn fixture(name: &str) -> Vec<Fixture> {
    let path = fixtures::path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    fixtures::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The positions of the records.
pub fn positions(records: &[Fixture]) -> Vec<Position> {
    records.iter().map(|r| r.position).collect()
}

/// `can_score_within` under a deadline `timeout` from now (the caller's
/// clock, polled by the core every `POLL_INTERVAL` landings): its result
/// and the time it took.
pub fn can_score_timed(pos: &Position, timeout: Duration) -> (Result<bool, SearchError>, Duration) {
    let start = Instant::now();
    let deadline = start + timeout;
    let clock = move || (Instant::now() >= deadline).then_some(Interrupt::TimedOut);
    let budget = Budget::default().with_interrupt(&clock);
    let result = pos.can_score_within(&budget);
    (result, start.elapsed())
}

/// Can-score over a corpus, each position under its own deadline.
#[derive(Clone, Debug)]
pub struct CorpusRun {
    /// Each position's result and time, in order.
    pub results: Vec<(Result<bool, SearchError>, Duration)>,
}

impl CorpusRun {
    /// Runs `can_score_timed` on every position.
    pub fn run(positions: &[Position], timeout: Duration) -> CorpusRun {
        CorpusRun {
            results: positions
                .iter()
                .map(|p| can_score_timed(p, timeout))
                .collect(),
        }
    }

    /// How many positions were decided.
    pub fn decided(&self) -> usize {
        self.results.iter().filter(|(r, _)| r.is_ok()).count()
    }

    /// The median time (the lower middle one for an even count).
    pub fn median(&self) -> Duration {
        let mut times: Vec<Duration> = self.results.iter().map(|&(_, t)| t).collect();
        times.sort();
        times
            .get((times.len().max(1) - 1) / 2)
            .copied()
            .unwrap_or_default()
    }

    /// The longest time.
    pub fn worst(&self) -> Duration {
        self.results
            .iter()
            .map(|&(_, t)| t)
            .max()
            .unwrap_or_default()
    }

    /// The longest time of a position decided (zero if none was).
    pub fn worst_decided(&self) -> Duration {
        self.results
            .iter()
            .filter(|(r, _)| r.is_ok())
            .map(|&(_, t)| t)
            .max()
            .unwrap_or_default()
    }

    /// A one-line summary: decided count, median and worst time.
    pub fn summary(&self) -> String {
        format!(
            "{} of {} decided; median {:.1} ms, worst {:.1} ms (worst decided {:.1} ms)",
            self.decided(),
            self.results.len(),
            self.median().as_secs_f64() * 1e3,
            self.worst().as_secs_f64() * 1e3,
            self.worst_decided().as_secs_f64() * 1e3
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hard_corpus_has_an_answer_a_line() {
        let corpus = fixture(HARD_32);
        assert_eq!(corpus.len(), 32);
        assert!(corpus.iter().all(|r| r.score.is_some()));
        assert!(corpus.iter().all(|r| !r.position.is_finished()));
    }

    #[test]
    fn a_timed_out_position_counts_as_undecided() {
        let run = CorpusRun {
            results: vec![
                (Ok(true), Duration::from_millis(3)),
                (Err(SearchError::TimedOut), Duration::from_millis(10)),
                (Ok(false), Duration::from_millis(1)),
            ],
        };
        assert_eq!(run.decided(), 2);
        assert_eq!(run.median(), Duration::from_millis(3));
        assert_eq!(run.worst(), Duration::from_millis(10));
        assert_eq!(run.worst_decided(), Duration::from_millis(3));
    }
}
