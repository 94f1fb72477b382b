//! Bounded work: what a caller allows a search that can run long (work,
//! memory, a cancel flag, a deadline), and the meter that holds a search to it.
//!
//! The core reads no clock: a deadline is the caller's closure, polled
//! every [`POLL_INTERVAL`] steps of work together with the cancel flag.

use core::cell::Cell;
use core::fmt;
use core::sync::atomic::{AtomicBool, Ordering};

use thiserror::Error;

use crate::error::TooManyOutcomesError;

/// The memory a call may use by default for the lists it returns and the
/// states it remembers: 256 MiB.
pub const DEFAULT_MEMORY_LIMIT: usize = 256 << 20;

/// Steps of work (landings of the ball, placements, positions) between two
/// polls of the cancel flag and the interrupt hook: about 10-100 µs of work.
pub const POLL_INTERVAL: u64 = 1024;

/// What a caller's interrupt hook answers when the search should stop.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Interrupt {
    /// The caller's deadline has passed.
    TimedOut,
    /// The caller cancelled the search (a signal, a user's request).
    Cancelled,
}

/// Why a bounded call gave up. A bounded call either answers exactly what
/// the unbounded one would, or returns one of these; never a wrong answer.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SearchError {
    /// The work limit ([`Budget::with_work_limit`]) was reached.
    #[error("gave up after {limit} steps of work (the work limit)")]
    WorkLimit {
        /// The limit, in steps of work.
        limit: u64,
    },
    /// The caller's deadline passed ([`Interrupt::TimedOut`]).
    #[error("timed out")]
    TimedOut,
    /// The caller cancelled: the cancel flag was set or the hook said so.
    #[error("cancelled")]
    Cancelled,
    /// The lists and states would need more memory than allowed.
    #[error("memory limit of {limit} bytes reached ({what})")]
    MemoryLimit {
        /// The limit, in bytes.
        limit: usize,
        /// What was being built.
        what: &'static str,
    },
    /// The allocator refused memory below the limit.
    #[error("out of memory ({what})")]
    OutOfMemory {
        /// What was being built.
        what: &'static str,
    },
    /// More distinct outcomes than an outcome limit allows.
    #[error(transparent)]
    TooManyOutcomes(#[from] TooManyOutcomesError),
}

impl From<Interrupt> for SearchError {
    /// The error of a call the caller stopped this way.
    fn from(interrupt: Interrupt) -> SearchError {
        match interrupt {
            Interrupt::TimedOut => SearchError::TimedOut,
            Interrupt::Cancelled => SearchError::Cancelled,
        }
    }
}

/// What a caller allows one call: steps of work, bytes of memory, a cancel
/// flag another thread may set, and an interrupt hook (a deadline, a check
/// for signals). `Copy`, so one budget can be handed to several calls; each
/// call counts its own work and memory from zero.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use phutball::{Budget, Interrupt, Position, SearchError};
///
/// let pos = Position::standard();
/// // At most 10 landings of the ball: the start has none to make.
/// assert_eq!(pos.count_jump_paths_within(&Budget::default().with_work_limit(10)), Ok(0));
///
/// // A flag set (here before the call, usually from another thread) cancels.
/// let stop = AtomicBool::new(true);
/// let budget = Budget::default().with_cancel_flag(&stop);
/// assert_eq!(pos.legal_moves_within(&budget), Err(SearchError::Cancelled));
///
/// // A deadline is the caller's own clock, polled as a closure.
/// let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
/// let clock = move || (std::time::Instant::now() >= deadline).then_some(Interrupt::TimedOut);
/// let budget = Budget::default().with_interrupt(&clock);
/// assert_eq!(pos.legal_moves_within(&budget)?.len(), 284);
/// # Ok::<(), SearchError>(())
/// ```
#[derive(Copy, Clone)]
pub struct Budget<'a> {
    work: u64,
    memory: usize,
    cancel: Option<&'a AtomicBool>,
    interrupt: Option<&'a (dyn Fn() -> Option<Interrupt> + Sync)>,
}

impl Default for Budget<'_> {
    /// No work limit, [`DEFAULT_MEMORY_LIMIT`], no cancel flag, no interrupt hook.
    fn default() -> Self {
        Budget {
            work: u64::MAX,
            memory: DEFAULT_MEMORY_LIMIT,
            cancel: None,
            interrupt: None,
        }
    }
}

impl fmt::Debug for Budget<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Budget")
            .field("work", &self.work)
            .field("memory", &self.memory)
            .field("cancel", &self.cancel)
            .field("interrupt", &self.interrupt.map(|_| "<closure>"))
            .finish()
    }
}

impl<'a> Budget<'a> {
    /// No limit at all, not even on memory (the allocator's refusal is still
    /// an error, [`SearchError::OutOfMemory`], not an abort where it can be caught).
    pub const fn unlimited() -> Budget<'a> {
        Budget {
            work: u64::MAX,
            memory: usize::MAX,
            cancel: None,
            interrupt: None,
        }
    }

    /// At most `steps` steps of work: landings of the ball (every path
    /// counted, or every state searched), placements and positions.
    #[must_use]
    pub const fn with_work_limit(mut self, steps: u64) -> Budget<'a> {
        self.work = steps;
        self
    }

    /// At most `bytes` of memory for the lists returned and the states remembered.
    #[must_use]
    pub const fn with_memory_limit(mut self, bytes: usize) -> Budget<'a> {
        self.memory = bytes;
        self
    }

    /// Stops with [`SearchError::Cancelled`] soon after `flag` is set (from any thread).
    #[must_use]
    pub const fn with_cancel_flag(mut self, flag: &'a AtomicBool) -> Budget<'a> {
        self.cancel = Some(flag);
        self
    }

    /// Polls `check` every [`POLL_INTERVAL`] steps (and once at the start);
    /// the search stops with the [`Interrupt`] it returns. A deadline, or a
    /// check for signals, lives here: the core reads no clock itself. A call
    /// stops at the first answer; a hook that answers only once (a consumed
    /// signal) stops only the call that saw it.
    #[must_use]
    pub const fn with_interrupt(
        mut self,
        check: &'a (dyn Fn() -> Option<Interrupt> + Sync),
    ) -> Budget<'a> {
        self.interrupt = Some(check);
        self
    }

    /// The work limit, in steps (`u64::MAX`: none).
    pub const fn work_limit(&self) -> u64 {
        self.work
    }

    /// The memory limit, in bytes (`usize::MAX`: none).
    pub const fn memory_limit(&self) -> usize {
        self.memory
    }

    /// The caller's stop, now: [`Interrupt::Cancelled`] when the cancel
    /// flag is set, else the interrupt hook's answer. Only the caller's
    /// stop: the work and memory limits, and the allocator's refusal
    /// ([`SearchError::OutOfMemory`]), are a call's own errors, met while it
    /// works, and never an [`Interrupt`]. A hook that adapts another
    /// budget's stop (`move || outer.interrupt()`) passes it on unchanged.
    #[inline]
    pub fn interrupt(&self) -> Option<Interrupt> {
        if self.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            return Some(Interrupt::Cancelled);
        }
        self.interrupt.and_then(|check| check())
    }

    /// [`Budget::interrupt`] as the error a call stopped by it returns.
    pub fn interrupted(&self) -> Option<SearchError> {
        self.interrupt().map(SearchError::from)
    }
}

/// One call's account against its [`Budget`]: work done, memory held. Shared
/// by reference between nested searches (perft inside a walk), hence cells.
pub(crate) struct Meter<'b> {
    budget: &'b Budget<'b>,
    work: Cell<u64>,
    next_poll: Cell<u64>,
    bytes: Cell<usize>,
}

impl<'b> Meter<'b> {
    /// A meter for one call; polls the budget at once, so a call made
    /// after the deadline or the cancel does no work.
    pub(crate) fn start(budget: &'b Budget<'b>) -> Result<Meter<'b>, SearchError> {
        let meter = Meter {
            budget,
            work: Cell::new(0),
            next_poll: Cell::new(0),
            bytes: Cell::new(0),
        };
        meter.poll()?;
        Ok(meter)
    }

    /// A meter for a call with no budget at all: it never polls.
    pub(crate) fn unlimited() -> Meter<'static> {
        static UNLIMITED: Budget<'static> = Budget::unlimited();
        Meter {
            budget: &UNLIMITED,
            work: Cell::new(0),
            next_poll: Cell::new(u64::MAX),
            bytes: Cell::new(0),
        }
    }

    /// Counts one step of work.
    #[inline(always)]
    pub(crate) fn tick(&self) -> Result<(), SearchError> {
        let work = self.work.get() + 1;
        self.work.set(work);
        if work >= self.next_poll.get() {
            return self.poll();
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn poll(&self) -> Result<(), SearchError> {
        let work = self.work.get();
        if work > self.budget.work {
            return Err(SearchError::WorkLimit {
                limit: self.budget.work,
            });
        }
        if let Some(stop) = self.budget.interrupted() {
            return Err(stop);
        }
        let budget = self.budget;
        let next = if budget.cancel.is_none() && budget.interrupt.is_none() {
            // Nothing to poll: wake only past the work limit.
            budget.work.saturating_add(1)
        } else {
            // Wake exactly past the work limit too.
            work.saturating_add(POLL_INTERVAL)
                .min(budget.work.saturating_add(1))
        };
        self.next_poll.set(next);
        Ok(())
    }

    /// Accounts for `bytes` more held; fails past the memory limit.
    pub(crate) fn hold(&self, bytes: usize, what: &'static str) -> Result<(), SearchError> {
        let total = self.bytes.get().saturating_add(bytes);
        if total > self.budget.memory {
            return Err(SearchError::MemoryLimit {
                limit: self.budget.memory,
                what,
            });
        }
        self.bytes.set(total);
        Ok(())
    }

    /// Accounts for `bytes` given back.
    pub(crate) fn release(&self, bytes: usize) {
        self.bytes.set(self.bytes.get().saturating_sub(bytes));
    }

    /// Pushes `item` onto `list`, which holds `item_bytes` more besides the
    /// slot (a jump path's points): the list's growth is accounted and
    /// tried with `try_reserve`, so a list too large is an error, not an abort.
    pub(crate) fn push<T>(
        &self,
        list: &mut Vec<T>,
        item: T,
        item_bytes: usize,
        what: &'static str,
    ) -> Result<(), SearchError> {
        if list.len() == list.capacity() {
            let more = list.capacity().max(16);
            self.hold(more * core::mem::size_of::<T>(), what)?;
            reserve_exact(list, more, what)?;
        }
        self.hold(item_bytes, what)?;
        list.push(item);
        Ok(())
    }
}

/// A vector of `len` default values (zeros), its memory reserved with
/// `try_reserve_exact`: an allocator that refuses (an address-space limit,
/// a size no machine has) gives [`SearchError::OutOfMemory`] naming `what`,
/// never an abort.
pub(crate) fn zeroed<T: Clone + Default>(
    len: usize,
    what: &'static str,
) -> Result<Vec<T>, SearchError> {
    let mut v = Vec::new();
    reserve_exact(&mut v, len, what)?;
    v.resize(len, T::default());
    Ok(v)
}

/// What must stay free after a large reservation: the small allocations
/// no search makes fallibly (a path's points, an output buffer, a thread's
/// bookkeeping) need somewhere to go, or they abort the process.
const HEADROOM_BYTES: usize = 4 << 20;

/// `list.try_reserve_exact(more)`, as [`SearchError::OutOfMemory`] naming
/// `what` when the allocator refuses, or when a reservation of more than
/// [`HEADROOM_BYTES`] leaves less than that free (probed with a reservation
/// given back at once): under an address-space limit the large table then
/// fails cleanly, rather than a small allocation after it aborting.
pub(crate) fn reserve_exact<T>(
    list: &mut Vec<T>,
    more: usize,
    what: &'static str,
) -> Result<(), SearchError> {
    let error = SearchError::OutOfMemory { what };
    list.try_reserve_exact(more).map_err(|_| error.clone())?;
    if more.saturating_mul(core::mem::size_of::<T>()) > HEADROOM_BYTES {
        Vec::<u8>::new()
            .try_reserve_exact(HEADROOM_BYTES)
            .map_err(|_| error)?;
    }
    Ok(())
}
