//! `--timeout MS` and `--memory-limit MB`: the budget the search commands
//! put on the core's work, and the exit statuses that say which bound ended it.

use std::time::Duration;

use clap::Args;
use phutball::{Budget, Interrupt, SearchError, DEFAULT_MEMORY_LIMIT};
use phutball_engine::Deadline;

use crate::error::CliError;

/// The default of `--memory-limit`, in MiB: the core's default memory limit.
const DEFAULT_MIB: u64 = (DEFAULT_MEMORY_LIMIT >> 20) as u64;

/// The budget of one search command: the flags that make its [`Budget`].
#[derive(Args, Clone, Copy, Debug)]
pub struct BudgetArgs {
    /// Give up after MS milliseconds: one line on stderr, exit status 3
    /// (count: per line, `?` for each figure not decided in time).
    #[arg(long, value_name = "MS")]
    pub timeout: Option<u64>,
    /// At most MB mebibytes for the lists and states a search keeps
    /// (past it: one line on stderr, exit status 4).
    #[arg(
        long,
        value_name = "MB",
        default_value_t = DEFAULT_MIB,
        value_parser = clap::value_parser!(u64).range(1..=(1 << 30)),
    )]
    pub memory_limit: u64,
}

impl BudgetArgs {
    /// A deadline `--timeout` from now (none without `--timeout`).
    pub fn deadline(&self) -> Deadline {
        Deadline::after_opt(self.timeout.map(Duration::from_millis))
    }

    /// The memory limit in bytes.
    pub fn memory_bytes(&self) -> usize {
        usize::try_from(self.memory_limit.saturating_mul(1 << 20)).unwrap_or(usize::MAX)
    }

    /// The budget for one search: the memory limit, and `check` (a
    /// deadline's hook) as its interrupt when there is a timeout.
    pub fn budget<'a>(&self, check: &'a (dyn Fn() -> Option<Interrupt> + Sync)) -> Budget<'a> {
        let budget = Budget::default().with_memory_limit(self.memory_bytes());
        if self.timeout.is_some() {
            budget.with_interrupt(check)
        } else {
            budget
        }
    }

    /// Why `what` gave up, in words, with the exit status that goes with it.
    pub fn failure(&self, what: &str, e: &SearchError) -> CliError {
        let (reason, kind): (String, fn(String) -> CliError) = match e {
            SearchError::TimedOut => (
                format!(
                    "timed out after {} ms (--timeout MS)",
                    self.timeout.unwrap_or(0)
                ),
                CliError::TimedOut,
            ),
            SearchError::WorkLimit { .. } | SearchError::Cancelled => {
                (e.to_string(), CliError::TimedOut)
            }
            SearchError::MemoryLimit { what, .. } => (
                format!(
                    "over the memory limit of {} MiB ({what}; --memory-limit MB raises it)",
                    self.memory_limit
                ),
                CliError::Memory,
            ),
            SearchError::OutOfMemory { .. } | SearchError::TooManyOutcomes(_) => {
                (e.to_string(), CliError::Memory)
            }
            _ => (e.to_string(), CliError::TimedOut),
        };
        kind(format!("{what}: {reason}"))
    }
}
