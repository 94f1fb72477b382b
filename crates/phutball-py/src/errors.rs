//! The Python exception classes and the conversion of the core's errors to
//! them, keeping the core's messages.

use std::fmt::Display;

use phutball::{
    ActionError, GameError, IllegalMove, InvalidPosition, ParseError as CoreParseError,
    SearchError, TooManyOutcomes,
};
use phutball_engine::EngineError;
use pyo3::create_exception;
use pyo3::exceptions::{
    PyKeyboardInterrupt, PyMemoryError, PyRuntimeError, PyTimeoutError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

create_exception!(
    phutball,
    ParseError,
    PyValueError,
    "Text that is not valid notation: a point, a move, a position string or a game record."
);
create_exception!(
    phutball,
    IllegalMoveError,
    PyValueError,
    "A move or action that is not legal in the position; the message says why."
);
create_exception!(
    phutball,
    InvalidPositionError,
    PyValueError,
    "Parts that do not make a valid position (a man off the board, the ball on a man, ...)."
);
create_exception!(
    phutball,
    TooManyOutcomesError,
    PyRuntimeError,
    "A search would need more outcomes (or more memory) than it may keep."
);

create_exception!(
    phutball,
    SearchTimeout,
    PyTimeoutError,
    "A search ran out of the time (or work) it was given before it could answer."
);

/// `phutball.MemoryLimitError`, a subclass of both `TooManyOutcomesError`
/// (what a list too large raised before) and the builtin `MemoryError`.
/// `create_exception!` takes one base, so the class is made by `type()`.
static MEMORY_LIMIT_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

const MEMORY_LIMIT_DOC: &str = "A call would need more memory than its memory_limit= allows (or \
the allocator refused it). A TooManyOutcomesError and a MemoryError.";

fn memory_limit_error(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    let ty = MEMORY_LIMIT_ERROR.get_or_try_init(py, || -> PyResult<Py<PyType>> {
        let bases = PyTuple::new(
            py,
            [
                py.get_type::<TooManyOutcomesError>(),
                py.get_type::<PyMemoryError>(),
            ],
        )?;
        let dict = PyDict::new(py);
        dict.set_item("__doc__", MEMORY_LIMIT_DOC)?;
        dict.set_item("__module__", "phutball")?;
        let ty = py
            .get_type::<PyType>()
            .call1(("MemoryLimitError", bases, dict))?;
        Ok(ty.cast_into::<PyType>()?.unbind())
    })?;
    Ok(ty.bind(py))
}

/// A `MemoryLimitError` with `message`.
fn memory_limit_err(message: String) -> PyErr {
    Python::attach(|py| match memory_limit_error(py) {
        Ok(ty) => PyErr::from_type(ty.clone(), message),
        Err(e) => e,
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add(
        "InvalidPositionError",
        py.get_type::<InvalidPositionError>(),
    )?;
    m.add(
        "TooManyOutcomesError",
        py.get_type::<TooManyOutcomesError>(),
    )?;
    m.add("SearchTimeout", py.get_type::<SearchTimeout>())?;
    m.add("MemoryLimitError", memory_limit_error(py)?)?;
    Ok(())
}

/// Turns a core error into the matching Python exception.
pub(crate) trait OrRaise<T> {
    /// The value, or the Python exception for the error.
    fn or_raise(self) -> PyResult<T>;
}

fn raise<E: Display>(make: fn(String) -> PyErr, e: E) -> PyErr {
    make(e.to_string())
}

impl<T> OrRaise<T> for Result<T, CoreParseError> {
    fn or_raise(self) -> PyResult<T> {
        self.map_err(|e| raise(ParseError::new_err, e))
    }
}

impl<T> OrRaise<T> for Result<T, IllegalMove> {
    fn or_raise(self) -> PyResult<T> {
        self.map_err(|e| raise(IllegalMoveError::new_err, e))
    }
}

impl<T> OrRaise<T> for Result<T, ActionError> {
    fn or_raise(self) -> PyResult<T> {
        self.map_err(|e| raise(IllegalMoveError::new_err, e))
    }
}

impl<T> OrRaise<T> for Result<T, GameError> {
    fn or_raise(self) -> PyResult<T> {
        self.map_err(|e| raise(IllegalMoveError::new_err, e))
    }
}

impl<T> OrRaise<T> for Result<T, InvalidPosition> {
    fn or_raise(self) -> PyResult<T> {
        self.map_err(|e| raise(InvalidPositionError::new_err, e))
    }
}

impl<T> OrRaise<T> for Result<T, TooManyOutcomes> {
    fn or_raise(self) -> PyResult<T> {
        self.map_err(|e| raise(TooManyOutcomesError::new_err, e))
    }
}

/// The Python exception for a search that gave up.
fn search_error(e: SearchError) -> PyErr {
    match e {
        SearchError::TimedOut | SearchError::WorkLimit { .. } => raise(SearchTimeout::new_err, e),
        SearchError::Cancelled => raise(PyKeyboardInterrupt::new_err, e),
        SearchError::MemoryLimit { .. } | SearchError::OutOfMemory { .. } => {
            raise(memory_limit_err, e)
        }
        _ => raise(TooManyOutcomesError::new_err, e),
    }
}

impl<T> OrRaise<T> for Result<T, SearchError> {
    fn or_raise(self) -> PyResult<T> {
        self.map_err(search_error)
    }
}

impl<T> OrRaise<T> for Result<T, EngineError> {
    fn or_raise(self) -> PyResult<T> {
        self.map_err(|e| match e {
            EngineError::Interrupted(e) => search_error(e),
            e => raise(PyValueError::new_err, e),
        })
    }
}
