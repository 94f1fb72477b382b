//! The engine's time per move, `time=` in seconds as every time the
//! package takes, and its old spelling `time_ms=` (milliseconds), which
//! still works with a `DeprecationWarning` until it is removed.

use std::ffi::CString;
use std::time::Duration;

use phutball_engine::LimitSetting;
use pyo3::exceptions::{PyDeprecationWarning, PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::budget::seconds_arg;
use crate::notation::Int;

/// The engine's shortest time per move: one millisecond, as the
/// engine's table of limits says ([`LimitSetting::TimeMs`]).
const SHORTEST: Duration = Duration::from_millis(1);

/// The time per move from `time` (seconds) or the deprecated `time_ms`
/// (milliseconds; warns), `None` when neither is given; both is a
/// `TypeError`. `time_name` and `ms_name` name the two in messages
/// (`time`, `opponent_limits['time']`).
pub(crate) fn move_time_arg(
    py: Python<'_>,
    time: Option<&Bound<'_, PyAny>>,
    time_ms: Option<&Int>,
    (time_name, ms_name): (&str, &str),
) -> PyResult<Option<Duration>> {
    let time = time.filter(|t| !t.is_none());
    match (time, time_ms) {
        (Some(_), Some(_)) => Err(PyTypeError::new_err(format!(
            "give {time_name} (seconds) or the deprecated {ms_name} (milliseconds), not both"
        ))),
        (None, Some(ms)) => {
            warn_time_ms(py, ms_name, time_name)?;
            let ms = ms.limit(LimitSetting::TimeMs, ms_name)?;
            Ok(Some(Duration::from_millis(ms)))
        }
        (Some(seconds), None) => match seconds_arg(Some(seconds), time_name)? {
            Some(t) if t < SHORTEST => Err(PyValueError::new_err(format!(
                "{time_name} must be at least 0.001 seconds (one millisecond), not {}",
                seconds.repr()?
            ))),
            t => Ok(t),
        },
        (None, None) => Ok(None),
    }
}

/// The `DeprecationWarning` of `ms_name`, at the caller's line.
fn warn_time_ms(py: Python<'_>, ms_name: &str, time_name: &str) -> PyResult<()> {
    let message = format!(
        "{ms_name} is deprecated and will be removed: give {time_name} in seconds \
         ({time_name}=1.5 for {ms_name}=1500)"
    );
    // The text is ours and has no NUL byte.
    let message = CString::new(message).unwrap_or_default();
    PyErr::warn(py, &py.get_type::<PyDeprecationWarning>(), &message, 1)
}
