//! The Python exception classes and the conversion of the core's errors to
//! them, keeping the core's messages.

use std::fmt::Display;

use phutball::{
    ActionError, GameError, IllegalMove, InvalidPosition, ParseError as CoreParseError,
    SearchError, TooManyOutcomes,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyTimeoutError, PyValueError};
use pyo3::prelude::*;

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
    "The distinct-outcome search would need more memory than its bound."
);

create_exception!(
    phutball,
    SearchTimeout,
    PyTimeoutError,
    "A search ran out of the time (or work) it was given before it could answer."
);

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

impl<T> OrRaise<T> for Result<T, SearchError> {
    fn or_raise(self) -> PyResult<T> {
        self.map_err(|e| match e {
            SearchError::TimedOut | SearchError::WorkLimit { .. } => {
                raise(SearchTimeout::new_err, e)
            }
            SearchError::Cancelled => raise(PyKeyboardInterrupt::new_err, e),
            _ => raise(TooManyOutcomesError::new_err, e),
        })
    }
}
