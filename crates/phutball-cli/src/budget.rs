//! The budget flags, read in this one place for every command: `--timeout
//! MS` (or `none`), `--memory-limit SIZE` (bytes, with a unit K, M or G),
//! and the value parsers of `--nodes N` and `--jobs J`; and the exit
//! statuses that say which bound ended a search. A value a parser here
//! refuses is a usage error: one line, exit status 2.

use std::time::Duration;

use clap::Args;
use phutball::{Budget, ByteSize, Interrupt, ParseError, SearchError, DEFAULT_MEMORY_LIMIT};
use phutball_engine::{Deadline, LimitSetting};

use crate::error::CliError;

/// The default `--memory-limit` of `prove` and `tablebase`, whose tables
/// are worth more room than the rules commands' lists: 1 GiB.
pub const SOLVER_MEMORY_LIMIT: usize = 1 << 30;

/// The smallest `--memory-limit` written without a unit. It counted MiB
/// for the rules commands before it counted bytes everywhere, so an old
/// `--memory-limit 64` (64 MiB then) is refused rather than read as 64
/// bytes; a tiny limit is still possible with its unit (`64B`, `1K`).
const SMALLEST_BARE_SIZE: usize = 1 << 20;

/// A value of `--timeout`: milliseconds, or `none`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeLimit {
    /// Give up after this many milliseconds.
    Ms(u64),
    /// `--timeout none`: no time limit (for a command that has a default one).
    Unlimited,
}

/// `--timeout MS`: the one deadline flag.
#[derive(Args, Clone, Copy, Debug, Default)]
pub struct TimeoutFlag {
    /// Give up after MS milliseconds (`none`: no time limit): one line on
    /// stderr and exit status 3 (prove and solve print `unknown` instead;
    /// count prints `?` for each figure of a line not decided in its MS).
    #[arg(long = "timeout", value_name = "MS", value_parser = parse_timeout)]
    pub limit: Option<TimeLimit>,
}

impl TimeoutFlag {
    /// `--timeout`, or `default_ms` when it is not given.
    pub fn or(self, default_ms: u64) -> TimeoutFlag {
        TimeoutFlag {
            limit: Some(self.limit.unwrap_or(TimeLimit::Ms(default_ms))),
        }
    }

    /// The time limit in milliseconds (`None`: no limit).
    pub fn ms(self) -> Option<u64> {
        match self.limit {
            Some(TimeLimit::Ms(ms)) => Some(ms),
            Some(TimeLimit::Unlimited) | None => None,
        }
    }

    /// A deadline `--timeout` from now (none without `--timeout`).
    pub fn deadline(self) -> Deadline {
        Deadline::after_opt(self.ms().map(Duration::from_millis))
    }

    /// `timed out after MS ms (--timeout MS)`: the reason a search stopped
    /// at the deadline.
    pub fn timed_out(self) -> String {
        format!(
            "timed out after {} ms (--timeout MS)",
            self.ms().unwrap_or(0)
        )
    }
}

/// `--timeout MS`: a whole number of milliseconds, 0 or more (0: give up
/// at once), or `none` for no time limit.
pub fn parse_timeout(text: &str) -> Result<TimeLimit, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("none") {
        return Ok(TimeLimit::Unlimited);
    }
    t.parse().map(TimeLimit::Ms).map_err(|_| {
        format!(
            "--timeout takes milliseconds, a whole number 0 or more (or `none` for no limit), \
             not {text}"
        )
    })
}

/// The budget of one search command: `--timeout MS` and `--memory-limit
/// SIZE`, the flags that make its [`Budget`].
#[derive(Args, Clone, Copy, Debug, Default)]
pub struct BudgetFlags {
    #[command(flatten)]
    pub timeout: TimeoutFlag,
    /// At most SIZE bytes of memory for what the search keeps: a number of
    /// bytes, or with a unit K, M or G (KiB, MiB, GiB), e.g. 512M; default
    /// 256M (prove and tablebase: 1G). Past it: one line on stderr, exit
    /// status 4.
    #[arg(
        long,
        value_name = "SIZE",
        value_parser = parse_size,
        allow_negative_numbers = true
    )]
    pub memory_limit: Option<usize>,
}

impl BudgetFlags {
    /// These flags with `default_ms` as the time limit when `--timeout` is
    /// not given.
    pub fn with_default_timeout(self, default_ms: u64) -> BudgetFlags {
        BudgetFlags {
            timeout: self.timeout.or(default_ms),
            ..self
        }
    }

    /// These flags with `default_bytes` as the memory limit when
    /// `--memory-limit` is not given.
    pub fn with_default_memory(self, default_bytes: usize) -> BudgetFlags {
        BudgetFlags {
            memory_limit: Some(self.memory_limit.unwrap_or(default_bytes)),
            ..self
        }
    }

    /// The memory limit in bytes (the core's default without `--memory-limit`).
    pub fn memory_bytes(&self) -> usize {
        self.memory_limit.unwrap_or(DEFAULT_MEMORY_LIMIT)
    }

    /// A deadline `--timeout` from now (none without `--timeout`).
    pub fn deadline(&self) -> Deadline {
        self.timeout.deadline()
    }

    /// The budget for one search: the memory limit, and `check` (a
    /// deadline's hook) as its interrupt when there is a timeout.
    pub fn budget<'a>(&self, check: &'a (dyn Fn() -> Option<Interrupt> + Sync)) -> Budget<'a> {
        let budget = Budget::default().with_memory_limit(self.memory_bytes());
        if self.timeout.ms().is_some() {
            budget.with_interrupt(check)
        } else {
            budget
        }
    }

    /// `over the memory limit of SIZE (--memory-limit SIZE raises it)`,
    /// with `what` went over it.
    pub fn over_memory(&self, what: &str) -> String {
        format!(
            "over the memory limit of {} ({what}; --memory-limit SIZE raises it)",
            size_text(self.memory_bytes())
        )
    }

    /// Why `what` gave up, in words, with the exit status that goes with it.
    pub fn failure(&self, what: &str, e: &SearchError) -> CliError {
        let (reason, kind): (String, fn(String) -> CliError) = match e {
            SearchError::TimedOut => (self.timeout.timed_out(), CliError::TimedOut),
            SearchError::WorkLimit { .. } | SearchError::Cancelled => {
                (e.to_string(), CliError::TimedOut)
            }
            SearchError::MemoryLimit { what, .. } => (self.over_memory(what), CliError::Memory),
            SearchError::OutOfMemory { .. } | SearchError::TooManyOutcomes(_) => {
                (e.to_string(), CliError::Memory)
            }
            _ => (e.to_string(), CliError::TimedOut),
        };
        kind(format!("{what}: {reason}"))
    }
}

/// `--memory-limit SIZE`: the core's size notation ([`ByteSize`]: bytes,
/// optionally with a unit K, M, G or B), with its refusals and their
/// words; and the CLI's own rule on top: a bare number below 1 MiB (an old
/// MiB count, see [`SMALLEST_BARE_SIZE`]) is refused with the unit to add.
pub fn parse_size(text: &str) -> Result<usize, String> {
    let size: ByteSize = text.parse().map_err(|e: ParseError| e.to_string())?;
    let t = text.trim();
    let bare = t.bytes().all(|b| b.is_ascii_digit());
    let n = size.bytes();
    if bare && n < SMALLEST_BARE_SIZE {
        return Err(format!(
            "`{text}` would be {n} bytes: --memory-limit counts bytes (some commands \
             counted MiB before); add a unit: {n}M for {n} MiB, or {n}B if bytes are meant"
        ));
    }
    Ok(n)
}

/// `bytes` in words, as `--memory-limit` is written: `1000 bytes`,
/// `64 KiB`, `1 MiB`, `1.5 GiB` (the core's [`ByteSize`] in words).
pub fn size_text(bytes: usize) -> String {
    ByteSize::new(bytes).to_string()
}

/// `--nodes N`: at least 1, the engine's one range of node counts (the
/// prover's too).
pub fn parse_nodes(text: &str) -> Result<u64, String> {
    engine_setting(text, LimitSetting::Nodes, "--nodes")
}

/// `--jobs J` of `best` and `game`: the threads searching each move, 1 to
/// the engine's most.
pub fn parse_search_jobs(text: &str) -> Result<u32, String> {
    // Within the table's range a thread count fits a u32 (at most 64).
    engine_setting(text, LimitSetting::Threads, "--jobs").map(|t| t as u32)
}

/// `--jobs J`: a count of at least 1, then within the command's own range
/// (`within`: the solver's, the tablebase's, or none).
pub fn parse_jobs<E: std::fmt::Display>(
    text: &str,
    within: impl Fn(usize) -> Result<usize, E>,
) -> Result<usize, String> {
    let jobs = text
        .trim()
        .parse::<usize>()
        .map_err(|_| format!("--jobs must be a whole number, at least 1, not {text}"))?;
    if jobs == 0 {
        return Err("--jobs must be at least 1, not 0".into());
    }
    within(jobs).map_err(|e| e.to_string())
}

/// A count of jobs with no range of its own beyond at least 1 (and a u32).
pub fn any_jobs(jobs: usize) -> Result<usize, String> {
    u32::try_from(jobs)
        .map(|_| jobs)
        .map_err(|_| format!("--jobs must be at most {}, not {jobs}", u32::MAX))
}

/// A value of `flag` for the engine's `setting`, checked by the engine's
/// one table of their ranges ([`LimitSetting`]): what C and Python refuse,
/// the CLI refuses.
pub fn engine_setting(text: &str, setting: LimitSetting, flag: &str) -> Result<u64, String> {
    // Not a number at all (`abc`, `-5`): said so, not only the range.
    let value: u64 = text.trim().parse().map_err(|_| {
        format!(
            "{flag} must be a whole number {}, not {text}",
            setting.range_text()
        )
    })?;
    setting.check(value).map_err(|e| e.named(flag))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_take_units_and_refuse_nonsense() {
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert_eq!(parse_size("2K"), Ok(2048));
        assert_eq!(parse_size("64b"), Ok(64));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        assert!(parse_size("0").is_err());
        assert!(parse_size("0M").is_err());
        assert!(parse_size("12Q").unwrap_err().contains("unknown unit `Q`"));
        assert!(parse_size("-1").unwrap_err().contains("negative"));
        assert!(parse_size("lots").unwrap_err().contains("not a size"));
        assert!(parse_size("99999999999999999999G").is_err());
    }

    #[test]
    fn a_bare_small_number_is_refused_with_the_unit_to_add() {
        let e = parse_size("64").unwrap_err();
        assert!(e.contains("64M for 64 MiB"), "{e}");
        assert!(parse_size("1048575").is_err());
    }

    #[test]
    fn sizes_read_back_in_words() {
        assert_eq!(size_text(1000), "1000 bytes");
        assert_eq!(size_text(64 << 10), "64 KiB");
        assert_eq!(size_text(1 << 20), "1 MiB");
        assert_eq!(size_text(3 << 29), "1.5 GiB");
    }

    #[test]
    fn jobs_are_counted_from_one_within_the_commands_range() {
        assert_eq!(parse_jobs("3", any_jobs), Ok(3));
        assert!(parse_jobs("0", any_jobs)
            .unwrap_err()
            .contains("at least 1"));
        assert!(parse_jobs("x", any_jobs).is_err());
        let at_most_two = |j: usize| if j <= 2 { Ok(j) } else { Err("too many") };
        assert_eq!(parse_jobs("5", at_most_two), Err("too many".to_string()));
        assert_eq!(parse_search_jobs("64"), Ok(64));
        assert!(parse_search_jobs("65")
            .unwrap_err()
            .contains("--jobs must be from 1 to 64"));
        assert!(parse_nodes("0").is_err());
    }

    #[test]
    fn a_value_that_is_not_a_number_is_named_so() {
        assert_eq!(
            parse_nodes("abc"),
            Err("--nodes must be a whole number at least 1, not abc".to_string())
        );
        assert_eq!(
            parse_search_jobs("-1"),
            Err("--jobs must be a whole number from 1 to 64, not -1".to_string())
        );
        assert_eq!(
            parse_jobs("-2", any_jobs),
            Err("--jobs must be a whole number, at least 1, not -2".to_string())
        );
    }

    #[test]
    fn timeouts_are_milliseconds_or_none() {
        assert_eq!(parse_timeout("250"), Ok(TimeLimit::Ms(250)));
        assert_eq!(parse_timeout("0"), Ok(TimeLimit::Ms(0)));
        assert_eq!(parse_timeout("none"), Ok(TimeLimit::Unlimited));
        for bad in ["-5", "abc", "1.5", ""] {
            let e = parse_timeout(bad).unwrap_err();
            assert!(e.starts_with("--timeout takes milliseconds"), "{bad}: {e}");
            assert!(e.ends_with(&format!("not {bad}")), "{bad}: {e}");
        }
        let none = TimeoutFlag {
            limit: Some(TimeLimit::Unlimited),
        };
        assert_eq!(none.ms(), None);
        assert_eq!(none.or(60_000).ms(), None, "none stays none");
        assert_eq!(TimeoutFlag::default().or(60_000).ms(), Some(60_000));
    }
}
