//! Reading Python arguments: points, sides and moves (a `Move` object or
//! its notation) with the core's notation, and the integer arguments (limits,
//! action indices, board sizes) with errors that say what was wrong.

use phutball::{BoardSize, Point, Side};
use phutball_engine::{LimitError, LimitSetting};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBool;

use crate::errors::OrRaise;

/// A point such as `"H10"`.
pub(crate) fn parse_point(text: &str) -> PyResult<Point> {
    text.trim().parse::<Point>().or_raise()
}

/// `"O"` or `"X"`, with the core's error otherwise.
pub(crate) fn parse_side(text: &str) -> PyResult<Side> {
    text.parse::<Side>().or_raise()
}

/// An integer argument as an `i64`, or `None` when it does not fit: Python
/// ints and anything with `__index__` (numpy integers) are accepted; a bool
/// and other types raise a `TypeError` naming the argument.
pub(crate) fn int_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<i64>> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an int, not bool"
        )));
    }
    match obj.extract::<i64>() {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(None),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{name} must be an int, not {}",
            obj.get_type().name()?
        ))),
    }
}

/// An integer argument of a signature, read by the one rule of every
/// integer argument of the module ([`Int::read`], through the readers of
/// [`int`]): a Python int or anything with `__index__` (numpy integers),
/// never a bool (a `TypeError` naming the argument). Its
/// range is checked where it is used, by [`Int::within`] or
/// [`Int::limit`], with a `ValueError` naming the argument and the range.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Int {
    /// The value, saturated beyond `i128` (no range reaches that far).
    value: i128,
    /// Whether it was saturated (the messages then say so).
    saturated: bool,
}

impl Int {
    /// An int (a signature's default).
    pub(crate) const fn of(value: i64) -> Int {
        Int {
            value: value as i128,
            saturated: false,
        }
    }

    /// The value as given, for messages.
    pub(crate) fn text(&self) -> String {
        match (self.saturated, self.value < 0) {
            (false, _) => self.value.to_string(),
            (true, true) => format!("an int below {}", i128::MIN),
            (true, false) => format!("an int above {}", i128::MAX),
        }
    }

    /// The value if it is from `lo` to `hi`, else a `ValueError` naming
    /// the argument and the bound it is past: "`name` must be at least
    /// `lo`, not `value`" (or "at most `hi`").
    pub(crate) fn within<T>(&self, name: &str, lo: T, hi: T) -> PyResult<T>
    where
        T: Copy + Into<i128> + TryFrom<i128> + std::fmt::Display,
    {
        if (lo.into()..=hi.into()).contains(&self.value) {
            if let Ok(v) = T::try_from(self.value) {
                return Ok(v);
            }
        }
        let bound = if self.value < lo.into() {
            format!("at least {lo}")
        } else {
            format!("at most {hi}")
        };
        Err(PyValueError::new_err(format!(
            "{name} must be {bound}, not {}",
            self.text()
        )))
    }

    /// A setting of the engine's limits, checked by the engine's table
    /// ([`LimitSetting::check`]), the `ValueError` naming `name`.
    pub(crate) fn limit(&self, setting: LimitSetting, name: &str) -> PyResult<u64> {
        let error = |e: &LimitError| PyValueError::new_err(e.named(name));
        match u64::try_from(self.value) {
            Ok(v) => setting.check(v).map_err(|e| error(&e)),
            Err(_) => Err(error(&LimitError::outside(setting, self.text()))),
        }
    }
}

impl Int {
    /// Reads `obj` as the integer argument `name`: a `TypeError` naming it
    /// for a bool or anything that is not an int.
    pub(crate) fn read(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Int> {
        if obj.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err(format!(
                "{name} must be an int, not bool"
            )));
        }
        match obj.extract::<i128>() {
            Ok(value) => Ok(Int {
                value,
                saturated: false,
            }),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(Int {
                value: if obj.lt(0)? { i128::MIN } else { i128::MAX },
                saturated: true,
            }),
            Err(_) => Err(PyTypeError::new_err(format!(
                "{name} must be an int, not {}",
                obj.get_type().name()?
            ))),
        }
    }
}

/// The readers of the integer arguments of the module's signatures, one
/// per argument name (`#[pyo3(from_py_with = int::depth)]`, and
/// `int::depth_or_none` for an optional one), so that every `TypeError`
/// names its argument.
pub(crate) mod int {
    use super::Int;
    use pyo3::prelude::*;

    macro_rules! readers {
        ($($name:ident, $or_none:ident;)*) => {$(
            #[allow(dead_code)]
            pub(crate) fn $name(obj: &Bound<'_, PyAny>) -> PyResult<Int> {
                Int::read(obj, stringify!($name))
            }

            #[allow(dead_code)]
            pub(crate) fn $or_none(obj: &Bound<'_, PyAny>) -> PyResult<Option<Int>> {
                if obj.is_none() {
                    return Ok(None);
                }
                Int::read(obj, stringify!($name)).map(Some)
            }
        )*};
    }

    readers! {
        time_ms, time_ms_or_none;
        depth, depth_or_none;
        nodes, nodes_or_none;
        seed, seed_or_none;
        threads, threads_or_none;
        jobs, jobs_or_none;
        games, games_or_none;
        start, start_or_none;
        index, index_or_none;
        move_limit, move_limit_or_none;
        moves, moves_or_none;
        num_envs, num_envs_or_none;
        cols, cols_or_none;
        rows, rows_or_none;
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
pub(crate) fn size_arg(cols: &Int, rows: &Int) -> PyResult<BoardSize> {
    // Far beyond any board, an int is as wrong as i64::MAX.
    let clamp =
        |v: &Int| i64::try_from(v.value).unwrap_or(if v.value < 0 { i64::MIN } else { i64::MAX });
    BoardSize::try_from((clamp(cols), clamp(rows))).or_raise()
}
