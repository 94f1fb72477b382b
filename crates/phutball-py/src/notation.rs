//! Reading Python arguments: points, sides and moves (a `Move` object or
//! its notation) with the core's notation, and the integer arguments (limits,
//! action indices, board sizes) with errors that say what was wrong.

use phutball::{BoardSize, Move, Point, Side};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::errors::OrRaise;
use crate::moves::PyMove;

/// A point such as `"H10"`.
pub(crate) fn parse_point(text: &str) -> PyResult<Point> {
    text.trim().parse::<Point>().or_raise()
}

/// `"O"` or `"X"`, with the core's error otherwise.
pub(crate) fn parse_side(text: &str) -> PyResult<Side> {
    text.parse::<Side>().or_raise()
}

/// A `Move` object or move notation (`"H10"`, `"K6-G9-G11"`).
pub(crate) fn move_arg(obj: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(m) = obj.cast::<PyMove>() {
        return Ok(m.get().inner.clone());
    }
    if let Ok(text) = obj.extract::<String>() {
        return text.parse::<Move>().or_raise();
    }
    Err(PyTypeError::new_err(format!(
        "a move must be a phutball.Move or notation such as 'H10' or 'K6-G9', not {}",
        obj.get_type().name()?
    )))
}

/// An integer argument as an `i64`, or `None` when it does not fit: Python
/// ints and anything with `__index__` (numpy integers) are accepted; other
/// types raise a `TypeError` naming the argument.
pub(crate) fn int_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<i64>> {
    match obj.extract::<i64>() {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(None),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{name} must be an int, not {}",
            obj.get_type().name()?
        ))),
    }
}

/// A `limit=`-style argument: `None`, or an int that is not negative (an int
/// too large for the machine means no limit). A negative value raises a
/// `ValueError` naming the argument.
pub(crate) fn limit_arg(obj: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<u64>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let value = match int_arg(obj, name)? {
        Some(v) => v,
        None if obj.lt(0)? => i64::MIN,
        None => return Ok(Some(u64::MAX)),
    };
    u64::try_from(value).map(Some).map_err(|_| {
        PyValueError::new_err(format!(
            "{name} must be None or an int of at least 0, not {}",
            obj.str()
                .map_or_else(|_| value.to_string(), |s| s.to_string())
        ))
    })
}

/// An action index; an int that no board has raises the core's
/// `IllegalMoveError` for an unknown action.
pub(crate) fn action_arg(obj: &Bound<'_, PyAny>, size: BoardSize) -> PyResult<usize> {
    let index = int_arg(obj, "action")?.and_then(|v| usize::try_from(v).ok());
    match index {
        Some(index) => Ok(index),
        None => Err(crate::errors::IllegalMoveError::new_err(format!(
            "action {} does not exist: a {size} board has actions 0 to {}",
            obj.str()?,
            size.action_count() - 1
        ))),
    }
}

/// A board size; sizes no board has raise the core's `InvalidPositionError`.
pub(crate) fn size_arg(cols: i64, rows: i64) -> PyResult<BoardSize> {
    BoardSize::try_from((cols, rows)).or_raise()
}
