//! The notebook pictures' arguments (`moves=`, `highlight=`, `flip=`,
//! `size=`, `last_move=`) read into the core's `SvgOptions`; the core draws
//! (`StepState::svg`), and `phutball.svg.to_png` turns a picture into PNG.
//! The picture's geometry (where a point is drawn, which point a click is
//! on) is the core's too, for the widget.

use std::num::NonZeroU32;

use phutball::{BoardSize, Move, StepState, SvgOptions};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use crate::errors::OrRaise;
use crate::moves::move_arg;
use crate::moves::PyMove;
use crate::notation::{parse_point, Int};

/// The picture of `state` drawn with the Python arguments; `last_move` is
/// already read (a game knows its own).
pub(crate) fn draw(
    state: &StepState,
    last_move: Option<Move>,
    size: Option<&Bound<'_, PyAny>>,
    moves: Option<&Bound<'_, PyAny>>,
    highlight: Option<&Bound<'_, PyAny>>,
    flip: bool,
) -> PyResult<String> {
    let options = SvgOptions {
        moves: one_or_many(moves, move_arg)?,
        last_move,
        highlight: one_or_many(highlight, |p| parse_point(&p.extract::<String>()?))?,
        flip,
        width: width_arg(size)?,
    };
    state.svg(&options).or_raise()
}

/// `obj.svg(*args, **kwargs)` as PNG bytes, by `phutball.svg.to_png`
/// (which needs cairosvg): `png` takes exactly the arguments of `svg`.
pub(crate) fn png(
    obj: &Bound<'_, PyAny>,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let svg = obj.call_method("svg", args, kwargs)?;
    Ok(obj
        .py()
        .import("phutball.svg")?
        .call_method1("to_png", (svg,))?
        .unbind())
}

/// Where `point` (notation) is drawn in the picture of a board of `size`:
/// the core's [`phutball::svg_point_centre`].
pub(crate) fn point_centre(size: BoardSize, point: &str, flip: bool) -> PyResult<(f64, f64)> {
    phutball::svg_point_centre(parse_point(point)?, size, flip).or_raise()
}

/// The point (notation) drawn nearest to `(x, y)` in the picture of a board
/// of `size`, if any: the core's [`phutball::svg_point_at`].
pub(crate) fn point_at(size: BoardSize, x: f64, y: f64, flip: bool) -> Option<String> {
    phutball::svg_point_at(x, y, size, flip).map(|p| p.to_string())
}

/// The picture as Jupyter shows it: no options but a game's last move.
pub(crate) fn plain(state: &StepState, last_move: Option<&Move>) -> PyResult<String> {
    let options = SvgOptions {
        last_move: last_move.cloned(),
        ..SvgOptions::default()
    };
    state.svg(&options).or_raise()
}

/// `None` (nothing), one item (a move or a point as a string), or an
/// iterable of them, each read by `read`.
fn one_or_many<T>(
    obj: Option<&Bound<'_, PyAny>>,
    read: impl Fn(&Bound<'_, PyAny>) -> PyResult<T>,
) -> PyResult<Vec<T>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Vec::new());
    };
    // A string is one item, not an iterable of characters.
    if obj.is_instance_of::<PyString>() || obj.cast::<PyMove>().is_ok() {
        return Ok(vec![read(obj)?]);
    }
    obj.try_iter()?.map(|item| read(&item?)).collect()
}

/// `size=`: `None` for the natural size, else the width in pixels, 1 to
/// the core's [`phutball::SVG_MAX_WIDTH`] (its one range of widths).
fn width_arg(size: Option<&Bound<'_, PyAny>>) -> PyResult<Option<NonZeroU32>> {
    let Some(size) = size.filter(|s| !s.is_none()) else {
        return Ok(None);
    };
    let px = Int::read(size, "size")?;
    let px = px.within("size", i64::MIN, i64::MAX).unwrap_or(i64::MIN);
    phutball::svg_width(i128::from(px)).map(Some).map_err(|_| {
        PyValueError::new_err(format!(
            "size must be None or the picture's width in pixels, an int from 1 to {}, not {}",
            phutball::SVG_MAX_WIDTH,
            size.str()
                .map_or_else(|_| px.to_string(), |s| s.to_string())
        ))
    })
}
