//! What every target shares: the rules to try, and a small budget.
#![allow(dead_code)] // each target uses a part

use std::time::{Duration, Instant};

use phutball::{Budget, Interrupt, Rules, Side};

/// Steps of work one bounded call may take: some milliseconds with the
/// fuzzing instrumentation, which makes the walk about 30 times slower.
pub const WORK_LIMIT: u64 = 2_000;
/// Bytes one bounded call may use for its lists and states.
pub const MEMORY_LIMIT: usize = 16 << 20;
/// Wall time one bounded call may take (the work limit stops it first; this
/// is the backstop should a budget fail to count some work).
pub const DEADLINE: Duration = Duration::from_secs(2);

/// The rules each text is read under: the defaults, and every option changed.
pub fn rule_sets() -> [Rules; 2] {
    [
        Rules::default(),
        Rules {
            continue_off_board: true,
            first_player: Side::Eks,
            start: None,
        },
    ]
}

/// Runs `body` with a budget of [`WORK_LIMIT`], [`MEMORY_LIMIT`] and
/// [`DEADLINE`] from now.
pub fn with_budget<T>(body: impl FnOnce(&Budget<'_>) -> T) -> T {
    let deadline = Instant::now() + DEADLINE;
    let clock = move || (Instant::now() >= deadline).then_some(Interrupt::TimedOut);
    let budget = Budget::default()
        .with_work_limit(WORK_LIMIT)
        .with_memory_limit(MEMORY_LIMIT)
        .with_interrupt(&clock);
    body(&budget)
}
