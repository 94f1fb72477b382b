//! Bounded work from C: the cancel token, the per-call budget, and how it
//! becomes the core's [`Budget`] (work, memory, cancel flag, deadline).

use core::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use phutball::{Budget, Position, SearchError, DEFAULT_MEMORY_LIMIT};
use phutball_engine::Deadline;

use crate::buffers::{free_handle, ref_arg, require_out, write_new_handle, write_out};
use crate::guard::ffi_call;
use crate::position::{position_arg, PhutballPosition};
use crate::status::{FfiResult, PhutballStatus};

/// A cancel token: a flag that one thread sets to stop the calls of other
/// threads that were given it (in `PhutballBudget.cancel`). An opaque handle
/// owned by the caller, made by `phutball_cancel_token_new` and freed with
/// `phutball_cancel_token_free`.
///
/// Threads: `phutball_cancel_token_cancel`, `phutball_cancel_token_reset` and
/// `phutball_cancel_token_is_cancelled` may be called from any thread at any
/// time, including while other threads run calls that use the token; one
/// token may serve any number of calls at once. The token must outlive every
/// call it was given to: free it only after they have all returned.
pub struct PhutballCancelToken(pub(crate) AtomicBool);

/// What one call may use; pass a pointer to it to the `*_within` functions
/// (NULL: the defaults, which is the same as all fields 0 or NULL). The
/// struct is read at the start of the call only; the token it points to must
/// stay alive until the call returns.
///
/// A call that gives up returns `PHUTBALL_STATUS_TIMED_OUT`,
/// `PHUTBALL_STATUS_CANCELLED`, `PHUTBALL_STATUS_WORK_LIMIT` or
/// `PHUTBALL_STATUS_TOO_MANY_OUTCOMES` (the memory limit) with a message, and
/// writes nothing; a call that answers gives exactly the unbounded answer.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PhutballBudget {
    /// Milliseconds from the start of the call until it gives up with
    /// `PHUTBALL_STATUS_TIMED_OUT`; 0: no timeout. The clock is checked every
    /// 1024 steps of work (some tens of microseconds).
    pub timeout_ms: u64,
    /// Steps of work (landings of the ball, placements, positions) before the
    /// call gives up with `PHUTBALL_STATUS_WORK_LIMIT`; 0: no work limit.
    pub work_limit: u64,
    /// Bytes the call may use for the lists it builds and the states it
    /// remembers before it gives up with `PHUTBALL_STATUS_TOO_MANY_OUTCOMES`;
    /// 0: the default, 256 MiB; `UINT64_MAX`: no limit but the allocator's
    /// (whose refusal is still that status, not an abort).
    pub memory_limit: u64,
    /// A token another thread may cancel: the call then gives up with
    /// `PHUTBALL_STATUS_CANCELLED` (within some tens of microseconds of
    /// work); NULL: none. A token already cancelled stops the call at once.
    pub cancel: *const PhutballCancelToken,
}

/// The budget of one call, read from C: a [`Budget`] once the deadline's
/// hook has a place to live ([`CallBudget::run`]).
#[derive(Copy, Clone, Debug)]
pub(crate) struct CallBudget<'a> {
    work: u64,
    memory: usize,
    cancel: Option<&'a AtomicBool>,
    deadline: Deadline,
}

impl CallBudget<'_> {
    /// Runs `body` with the core's budget this stands for.
    pub(crate) fn run<R>(&self, body: impl FnOnce(&Budget<'_>) -> R) -> R {
        let hook = self.deadline.hook();
        let mut budget = Budget::default().with_memory_limit(self.memory);
        if self.work != 0 {
            budget = budget.with_work_limit(self.work);
        }
        if let Some(flag) = self.cancel {
            budget = budget.with_cancel_flag(flag);
        }
        if self.deadline != Deadline::NONE {
            budget = budget.with_interrupt(&hook);
        }
        body(&budget)
    }
}

/// Reads the budget argument of a `*_within` function (NULL: the defaults);
/// the timeout starts now.
///
/// # Safety
/// `budget` must be NULL or point to a readable `PhutballBudget` whose
/// `cancel` is NULL or a live token that stays alive for `'a`.
pub(crate) unsafe fn budget_arg<'a>(budget: *const PhutballBudget) -> CallBudget<'a> {
    // SAFETY: the caller promises budget is NULL or readable.
    let given = unsafe { budget.as_ref() }
        .copied()
        .unwrap_or_else(|| phutball_budget_default());
    // SAFETY: the caller promises cancel is NULL or a live token for 'a.
    let cancel = unsafe { given.cancel.as_ref() }.map(|token| &token.0);
    CallBudget {
        work: given.work_limit,
        memory: match given.memory_limit {
            0 => DEFAULT_MEMORY_LIMIT,
            bytes => usize::try_from(bytes).unwrap_or(usize::MAX),
        },
        cancel,
        deadline: match given.timeout_ms {
            0 => Deadline::NONE,
            ms => Deadline::after(Duration::from_millis(ms)),
        },
    }
}

/// Answers `query` about the position behind `pos` within `budget`: the
/// body of the `*_within` functions of a position.
///
/// # Safety
/// `pos` NULL or live; `budget` NULL or readable, its `cancel` NULL or a live
/// token.
pub(crate) unsafe fn position_within<T>(
    pos: *const PhutballPosition,
    budget: *const PhutballBudget,
    query: impl FnOnce(&Position, &Budget<'_>) -> Result<T, SearchError>,
) -> FfiResult<T> {
    // SAFETY: the caller's promises about pos and budget.
    let (pos, call) = unsafe { (position_arg(pos)?, budget_arg(budget)) };
    Ok(call.run(|budget| query(pos, budget))?)
}

/// [`position_within`], its answer written to `*out` (checked for NULL
/// before the search starts).
///
/// # Safety
/// As [`position_within`]; `out` NULL or writable.
pub(crate) unsafe fn write_within<T>(
    pos: *const PhutballPosition,
    budget: *const PhutballBudget,
    out: *mut T,
    query: impl FnOnce(&Position, &Budget<'_>) -> Result<T, SearchError>,
) -> FfiResult {
    require_out(out, "out")?;
    // SAFETY: the caller's promises about pos, budget and out.
    unsafe { write_out(out, position_within(pos, budget, query)?, "out") }
}

/// The default budget: all fields 0 and NULL (no timeout, no work limit, the
/// default memory limit of 256 MiB, no cancel token). Passing NULL for a
/// `const PhutballBudget *` means the same.
#[no_mangle]
pub extern "C" fn phutball_budget_default() -> PhutballBudget {
    PhutballBudget {
        timeout_ms: 0,
        work_limit: 0,
        memory_limit: 0,
        cancel: core::ptr::null(),
    }
}

/// Makes a cancel token, not cancelled, and stores a new handle in `*out`.
///
/// # Safety
/// `out` must be NULL or point to a writable `PhutballCancelToken *`.
#[no_mangle]
pub unsafe extern "C" fn phutball_cancel_token_new(
    out: *mut *mut PhutballCancelToken,
) -> PhutballStatus {
    ffi_call(|| {
        let token = PhutballCancelToken(AtomicBool::new(false));
        // SAFETY: the caller's promise about out.
        unsafe { write_new_handle(out, token, "out") }
    })
}

/// Borrows the token behind a handle argument named `token`.
///
/// # Safety
/// `token` must be NULL or a live token.
unsafe fn token_arg<'a>(token: *const PhutballCancelToken) -> FfiResult<&'a AtomicBool> {
    // SAFETY: the caller's promise about token.
    Ok(&unsafe { ref_arg(token, "token") }?.0)
}

/// Cancels: every call running with this token, on any thread, gives up with
/// `PHUTBALL_STATUS_CANCELLED` soon after, and every later call given it
/// gives up at once, until `phutball_cancel_token_reset`. Safe to call from
/// any thread, any number of times, while other threads use the token.
///
/// # Safety
/// `token` must be NULL or a live token.
#[no_mangle]
pub unsafe extern "C" fn phutball_cancel_token_cancel(
    token: *const PhutballCancelToken,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about token.
        unsafe { token_arg(token) }?.store(true, Ordering::SeqCst);
        Ok(())
    })
}

/// Clears the token, so that it can serve new calls. A call that was running
/// when the token was cancelled may or may not have seen the cancel; reset
/// only once the calls it was meant to stop have returned.
///
/// # Safety
/// `token` must be NULL or a live token.
#[no_mangle]
pub unsafe extern "C" fn phutball_cancel_token_reset(
    token: *const PhutballCancelToken,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about token.
        unsafe { token_arg(token) }?.store(false, Ordering::SeqCst);
        Ok(())
    })
}

/// Writes whether the token is cancelled.
///
/// # Safety
/// `token` must be NULL or a live token; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_cancel_token_is_cancelled(
    token: *const PhutballCancelToken,
    out: *mut bool,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about token and out.
        unsafe { write_out(out, token_arg(token)?.load(Ordering::SeqCst), "out") }
    })
}

/// Frees a cancel token. NULL is ignored. No call may be using the token
/// (running with it, or cancelling it) and it must not be used again.
///
/// # Safety
/// `token` must be NULL or a live token from this library, not freed before,
/// that no other thread uses.
#[no_mangle]
pub unsafe extern "C" fn phutball_cancel_token_free(token: *mut PhutballCancelToken) {
    // SAFETY: the caller's promise about token.
    unsafe { free_handle(token) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use phutball::{Position, SearchError};

    #[test]
    fn a_null_budget_is_the_defaults() {
        // SAFETY: NULL is allowed.
        let call = unsafe { budget_arg(core::ptr::null()) };
        call.run(|budget| {
            assert_eq!(budget.work_limit(), u64::MAX);
            assert_eq!(budget.memory_limit(), DEFAULT_MEMORY_LIMIT);
            assert_eq!(budget.interrupted(), None);
        });
    }

    #[test]
    fn the_fields_become_the_budget() {
        let mut token = core::ptr::null_mut();
        // SAFETY: token is a writable pointer.
        let status = unsafe { phutball_cancel_token_new(&raw mut token) };
        assert_eq!(status, PhutballStatus::Ok);
        let given = PhutballBudget {
            timeout_ms: 3_600_000,
            work_limit: 7,
            memory_limit: u64::MAX,
            cancel: token,
        };
        // SAFETY: given is readable and token live until freed below.
        let call = unsafe { budget_arg(&raw const given) };
        call.run(|budget| {
            assert_eq!(budget.work_limit(), 7);
            assert_eq!(budget.memory_limit(), usize::MAX);
            assert_eq!(budget.interrupted(), None);
            // SAFETY: token is live.
            unsafe { phutball_cancel_token_cancel(token) };
            assert_eq!(budget.interrupted(), Some(SearchError::Cancelled));
            // SAFETY: token is live.
            unsafe { phutball_cancel_token_reset(token) };
            assert_eq!(budget.interrupted(), None);
        });
        // SAFETY: made above, freed once, no call uses it.
        unsafe { phutball_cancel_token_free(token) };
    }

    #[test]
    fn a_past_deadline_times_out() {
        let given = PhutballBudget {
            timeout_ms: 1,
            ..phutball_budget_default()
        };
        // SAFETY: given is readable, with no token.
        let call = unsafe { budget_arg(&raw const given) };
        std::thread::sleep(Duration::from_millis(5));
        let answer = call.run(|budget| Position::standard().legal_moves_within(budget));
        assert_eq!(answer, Err(SearchError::TimedOut));
    }
}
