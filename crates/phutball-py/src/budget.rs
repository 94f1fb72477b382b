//! Bounded calls: the `timeout=` and `memory_limit=` arguments
//! ([`BudgetKeywords`]), and the one helper, [`run`], that every long call goes
//! through. It releases the GIL for the search and gives the core a
//! [`Budget`] whose interrupt hook stops the search at the deadline, or when
//! Ctrl-C (any signal whose Python handler raises) arrives; the handler's
//! exception is then raised.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use phutball::{Budget, ByteSize, Interrupt};
use phutball_engine::Deadline;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

use crate::errors::{OrRaise, SearchTimeoutError};
use crate::notation::limit_arg;

/// How often a running search looks at Python's signals: Ctrl-C raises
/// `KeyboardInterrupt` within about this (plus one poll of the core, far less).
const SIGNAL_INTERVAL: Duration = Duration::from_millis(10);

/// The `timeout=` argument: `None`, or seconds (an int or a float) that are
/// not negative. Infinity, or a timeout too long to represent, is no timeout.
pub(crate) fn timeout_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Duration>> {
    seconds_arg(obj, "timeout")
}

/// An argument `name` in seconds, read as `timeout=` is (every keyword of
/// the package that is a time takes seconds): `None`, or an int or a float
/// that is not negative; infinity, or a time too long to represent, is none.
pub(crate) fn seconds_arg(
    obj: Option<&Bound<'_, PyAny>>,
    name: &str,
) -> PyResult<Option<Duration>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let not_a_number = || -> PyResult<PyErr> {
        Ok(PyTypeError::new_err(format!(
            "{name} must be None or a number of seconds, not {}",
            obj.get_type().name()?
        )))
    };
    if obj.is_instance_of::<PyBool>() {
        return Err(not_a_number()?);
    }
    // Python floats and ints, and anything with __float__ or __index__ (numpy scalars).
    let seconds: f64 = match obj.extract() {
        Ok(s) => s,
        // An int too large for a float is no timeout at all.
        Err(_) if obj.is_instance_of::<PyInt>() && obj.gt(0)? => return Ok(None),
        Err(_) if obj.is_instance_of::<PyInt>() => f64::NEG_INFINITY,
        Err(_) => return Err(not_a_number()?),
    };
    if seconds.is_nan() || seconds < 0.0 {
        return Err(PyValueError::new_err(format!(
            "{name} must be None or a number of seconds of at least 0, not {}",
            obj.repr()?
        )));
    }
    Ok(Duration::try_from_secs_f64(seconds).ok())
}

/// The `memory_limit=` argument: `None` (no limit), bytes as an int of at
/// least 0 (an int too large for the machine is no limit), or a str in the
/// core's size notation ([`ByteSize`]: `"8M"`, `"2G"`, `"1000B"`), whose
/// refusal is the package's `ParseError`. Its default,
/// [`MemoryLimit::DEFAULT`], is the core's.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct MemoryLimit(pub(crate) usize);

impl MemoryLimit {
    /// The core's default, [`phutball::DEFAULT_MEMORY_LIMIT`] (256 MiB).
    pub(crate) const DEFAULT: MemoryLimit = MemoryLimit(phutball::DEFAULT_MEMORY_LIMIT);
    /// No limit (`None` from Python).
    pub(crate) const NONE: MemoryLimit = MemoryLimit(usize::MAX);
}

impl<'a, 'py> FromPyObject<'a, 'py> for MemoryLimit {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let obj = obj.to_owned();
        if obj.is_instance_of::<PyString>() {
            return Ok(MemoryLimit(parse_size(&obj.extract::<String>()?)?));
        }
        let limit = limit_arg(Some(&obj), "memory_limit").map_err(|e| {
            // A wrong type is told the str form too.
            if e.is_instance_of::<PyTypeError>(obj.py()) {
                PyTypeError::new_err(format!(
                    "memory_limit must be an int of bytes, None, or a str with a unit \
                     such as \"8M\", not {}",
                    obj.get_type()
                        .name()
                        .map_or_else(|_| "that type".to_string(), |n| n.to_string())
                ))
            } else {
                e
            }
        })?;
        Ok(MemoryLimit(limit.map_or(usize::MAX, |l| {
            usize::try_from(l).unwrap_or(usize::MAX)
        })))
    }
}

/// `phutball._phutball._parse_size(text)`: the bytes of a size such as
/// `"512M"`, read by the core's one size notation ([`ByteSize`]), for the
/// package's Python code that takes a size on its command line
/// (`python -m phutball.distributed prove --memory-limit`). Raises
/// `ParseError` (a `ValueError`) saying what was wrong.
#[pyfunction]
#[pyo3(name = "_parse_size")]
pub(crate) fn parse_size(text: &str) -> PyResult<usize> {
    text.parse::<ByteSize>().map(ByteSize::bytes).or_raise()
}

/// Adds `_parse_size` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parse_size, m)?)
}

/// What a call may use, its deadline and its memory limit: the arguments
/// that make the core's [`Budget`] in [`run`] and [`run_threaded`].
#[derive(Copy, Clone, Debug)]
pub(crate) struct BudgetKeywords {
    timeout: Option<Duration>,
    memory: usize,
}

impl BudgetKeywords {
    /// The budget of a call from its `timeout=` and `memory_limit=` arguments.
    pub(crate) fn new(
        timeout: Option<&Bound<'_, PyAny>>,
        memory: MemoryLimit,
    ) -> PyResult<BudgetKeywords> {
        Ok(BudgetKeywords {
            timeout: timeout_arg(timeout)?,
            memory: memory.0,
        })
    }

    /// A call that takes only `timeout=` (it keeps no lists: the core's
    /// default memory limit stays).
    pub(crate) fn timeout(timeout: Option<&Bound<'_, PyAny>>) -> PyResult<BudgetKeywords> {
        BudgetKeywords::new(timeout, MemoryLimit::DEFAULT)
    }
}

/// Takes the GIL and runs Python's signal handlers: the exception one raised
/// (Ctrl-C: `KeyboardInterrupt`), if any.
fn raised_by_signal_handlers() -> Option<PyErr> {
    // A closure: the method path does not meet attach's bound for every `py` lifetime.
    #[allow(clippy::redundant_closure_for_method_calls)]
    Python::attach(|py| py.check_signals()).err()
}

/// Runs `search` with the GIL released, within `budget_keywords`, and converts its
/// answer: the value, `SearchTimeoutError` past the deadline, `MemoryLimitError`
/// past the memory limit, or the exception a signal handler raised (Ctrl-C:
/// `KeyboardInterrupt`) while it ran.
///
/// The budget's interrupt hook, polled by the core every
/// [`phutball::POLL_INTERVAL`] steps, checks the deadline each time and, at
/// most every [`SIGNAL_INTERVAL`], takes the GIL to run Python's signal
/// handlers (`check_signals`; a no-op outside the main thread). Only the
/// calling thread does so: a search's own threads (the engine's helpers)
/// would take the turn and find no signal to handle.
pub(crate) fn run<T, E>(
    py: Python<'_>,
    budget_keywords: BudgetKeywords,
    search: impl FnOnce(&Budget<'_>) -> Result<T, E> + Send,
) -> PyResult<T>
where
    T: Send,
    E: Send,
    Result<T, E>: OrRaise<T>,
{
    let deadline = Deadline::after_opt(budget_keywords.timeout);
    let start = Instant::now();
    let interval = SIGNAL_INTERVAL.as_nanos() as u64;
    let next_signal_check = AtomicU64::new(interval);
    let raised: Mutex<Option<PyErr>> = Mutex::new(None);
    // Once a handler has raised, every later poll says so too: the signal is
    // consumed by the first `check_signals`, and a caller that polls the
    // budget again after a call gave up (the engine, to tell "stopped" from
    // "don't know") must still see the stop.
    let signalled = AtomicBool::new(false);
    let caller = std::thread::current().id();
    let hook = || {
        if signalled.load(Ordering::Relaxed) {
            return Some(Interrupt::Cancelled);
        }
        if deadline.passed() {
            return Some(Interrupt::TimedOut);
        }
        let now = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        if now < next_signal_check.load(Ordering::Relaxed) || std::thread::current().id() != caller
        {
            return None;
        }
        next_signal_check.store(now.saturating_add(interval), Ordering::Relaxed);
        let err = raised_by_signal_handlers()?;
        *raised.lock().unwrap_or_else(PoisonError::into_inner) = Some(err);
        signalled.store(true, Ordering::Relaxed);
        Some(Interrupt::Cancelled)
    };
    let budget = Budget::default()
        .with_memory_limit(budget_keywords.memory)
        .with_interrupt(&hook);
    let result = py.detach(|| search(&budget));
    // A handler's exception wins over whatever the search answered.
    if let Some(err) = raised.into_inner().unwrap_or_else(PoisonError::into_inner) {
        return Err(err);
    }
    result
        .or_raise()
        .map_err(|e| match budget_keywords.timeout {
            Some(t) if e.is_instance_of::<SearchTimeoutError>(py) => SearchTimeoutError::new_err(
                format!("the search gave up at its timeout of {} s", t.as_secs_f64()),
            ),
            _ => e,
        })
}

/// [`run`] for work that spreads over threads of its own (the batches): the
/// core polls from those threads, where Python's signal handlers cannot run,
/// so the calling thread waits for the work with the GIL released and
/// checks for signals itself every [`SIGNAL_INTERVAL`]; a handler that
/// raises (Ctrl-C) sets the budget's cancel flag, and its exception is
/// raised once the work has stopped. The timeout is the budget's hook.
pub(crate) fn run_threaded<T: Send>(
    py: Python<'_>,
    budget_keywords: BudgetKeywords,
    work: impl FnOnce(&Budget<'_>) -> T + Send,
) -> PyResult<T> {
    let deadline = Deadline::after_opt(budget_keywords.timeout);
    let hook = deadline.hook();
    let cancel = AtomicBool::new(false);
    let budget = Budget::default()
        .with_memory_limit(budget_keywords.memory)
        .with_cancel_flag(&cancel)
        .with_interrupt(&hook);
    let mut raised = None;
    let result = py.detach(|| {
        std::thread::scope(|scope| {
            let waiting = std::thread::current();
            let budget = &budget;
            // A thread the system refuses (no memory for its stack under
            // an address-space limit) is the out-of-memory error.
            let worker = std::thread::Builder::new()
                .spawn_scoped(scope, move || {
                    let answer = work(budget);
                    waiting.unpark();
                    answer
                })
                .map_err(|_| phutball::SearchError::OutOfMemory {
                    what: "the search's thread",
                })?;
            while !worker.is_finished() {
                std::thread::park_timeout(SIGNAL_INTERVAL);
                if raised.is_none() {
                    if let Some(err) = raised_by_signal_handlers() {
                        raised = Some(err);
                        cancel.store(true, Ordering::Relaxed);
                    }
                }
            }
            Ok::<_, phutball::SearchError>(worker.join())
        })
    });
    if let Some(err) = raised {
        return Err(err);
    }
    let result = result.or_raise()?;
    // A panic of the work is a bug: pass it on as Rust would (pyo3 turns
    // it into PanicException at the boundary).
    Ok(result.unwrap_or_else(|payload| std::panic::resume_unwind(payload)))
}
