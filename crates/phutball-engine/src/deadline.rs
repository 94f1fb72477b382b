//! The clock the core does not read: a deadline as an interrupt hook for a
//! [`Budget`](phutball::Budget), shared by the engine and every wrapper.

use std::time::Duration;

use phutball::Interrupt;

use crate::clock::Instant;

/// A point in time after which a search should stop.
///
/// ```
/// use std::time::Duration;
/// use phutball::{Budget, Position, SearchError};
/// use phutball_engine::Deadline;
///
/// let deadline = Deadline::after(Duration::ZERO);
/// let check = deadline.hook();
/// let budget = Budget::default().with_interrupt(&check);
/// assert_eq!(Position::standard().legal_moves_within(&budget), Err(SearchError::TimedOut));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deadline {
    at: Option<Instant>,
}

impl Deadline {
    /// `timeout` from now (a timeout too far off to represent is none).
    pub fn after(timeout: Duration) -> Deadline {
        Deadline {
            at: Instant::now().checked_add(timeout),
        }
    }

    /// `timeout` from now, or no deadline for `None`.
    pub fn after_opt(timeout: Option<Duration>) -> Deadline {
        timeout.map_or(Deadline::NONE, Deadline::after)
    }

    /// No deadline at all.
    pub const NONE: Deadline = Deadline { at: None };

    /// Whether it has passed.
    pub fn passed(&self) -> bool {
        self.at.is_some_and(|at| Instant::now() >= at)
    }

    /// The time left (zero once passed; `None` without a deadline).
    pub fn remaining(&self) -> Option<Duration> {
        self.at
            .map(|at| at.saturating_duration_since(Instant::now()))
    }

    /// [`Interrupt::TimedOut`] once it has passed: the body of an interrupt hook.
    pub fn check(&self) -> Option<Interrupt> {
        self.passed().then_some(Interrupt::TimedOut)
    }

    /// An interrupt hook for [`Budget::with_interrupt`](phutball::Budget::with_interrupt).
    pub fn hook(self) -> impl Fn() -> Option<Interrupt> + Sync {
        move || self.check()
    }
}
