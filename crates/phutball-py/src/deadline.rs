//! `phutball._phutball._Deadline`: one `timeout=` kept across several calls
//! by the package's Python code (`phutball.rl`'s rounds of games), read by
//! the one `timeout=` reader ([`timeout_arg`]) and kept by the engine's
//! [`Deadline`], as every call's own timeout is.

use phutball_engine::Deadline;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::budget::timeout_arg;
use crate::errors::SearchTimeoutError;

/// A ``timeout=`` in seconds from now (``None``: none), for Python code
/// that makes several calls under one timeout: ``left()`` gives each call
/// the seconds that are left.
#[pyclass(name = "_Deadline", module = "phutball", frozen)]
pub(crate) struct PyDeadline {
    deadline: Deadline,
}

#[pymethods]
impl PyDeadline {
    /// Reads ``timeout`` as every ``timeout=`` is read: ``TypeError`` for
    /// what is not a number, ``ValueError`` for a negative one.
    #[new]
    #[pyo3(signature = (timeout=None))]
    fn new(timeout: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Ok(PyDeadline {
            deadline: Deadline::after_opt(timeout_arg(timeout)?),
        })
    }

    /// The seconds left (``None``: no deadline). Raises
    /// ``SearchTimeoutError`` once none are.
    fn left(&self) -> PyResult<Option<f64>> {
        match self.deadline.remaining() {
            None => Ok(None),
            Some(left) if left.is_zero() => Err(SearchTimeoutError::new_err("the timeout ran out")),
            Some(left) => Ok(Some(left.as_secs_f64())),
        }
    }

    #[allow(clippy::unused_self)]
    fn __reduce__(&self) -> PyResult<()> {
        Err(PyTypeError::new_err(
            "a _Deadline does not pickle: it is a moment of this process's clock; \
             pass the seconds left() instead",
        ))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDeadline>()
}
