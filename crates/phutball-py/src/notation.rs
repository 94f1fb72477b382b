//! Reading Python arguments with the core's notation: points, sides and
//! moves (a `Move` object or its notation).

use phutball::{Move, Point, Side};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::errors::OrRaise;
use crate::moves::PyMove;

/// A point such as `"H10"`.
pub(crate) fn parse_point(text: &str) -> PyResult<Point> {
    text.trim().parse::<Point>().or_raise()
}

/// `"O"` or `"X"`.
pub(crate) fn parse_side(text: &str) -> PyResult<Side> {
    text.parse::<Side>()
        .map_err(|_| phutball::ParseError::Move {
            text: text.to_string(),
            reason: "a side is \"O\" (Ohs) or \"X\" (Eks)".to_string(),
        })
        .or_raise()
}

/// `"O"` or `"X"`.
pub(crate) fn side_str(side: Side) -> &'static str {
    match side {
        Side::Ohs => "O",
        Side::Eks => "X",
    }
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
