//! The budgets of the long calls: a time limit in milliseconds (a page's
//! unit, `performance.now()`'s) read into the engine's [`Deadline`], with
//! the core's default memory limit. A call with a limit returns (or throws
//! `SearchTimeoutError`) within it, so the page, or the worker it runs in,
//! gets control back.

use std::time::Duration;

use js_sys::Array;
use phutball::{Budget, Move, SearchError};
use phutball_engine::Deadline;
use wasm_bindgen::JsValue;

use crate::errors;
use crate::texts::texts_within;

/// `timeMs` read: `None` (or `undefined`) for no limit, else a finite
/// number of milliseconds at least 0.
pub(crate) fn timeout(time_ms: Option<f64>) -> Result<Option<Duration>, JsValue> {
    time_ms
        .map(|ms| {
            (ms.is_finite() && ms >= 0.0)
                .then(|| Duration::try_from_secs_f64(ms / 1000.0).ok())
                .flatten()
                .ok_or_else(|| {
                    errors::value(format!(
                        "timeMs must be a number of milliseconds at least 0, not {ms}"
                    ))
                })
        })
        .transpose()
}

/// `call` with a budget that ends after `time_ms`, its search error thrown
/// as a named JavaScript error.
pub(crate) fn within<T>(
    time_ms: Option<f64>,
    call: impl FnOnce(&Budget<'_>) -> Result<T, SearchError>,
) -> Result<T, JsValue> {
    let deadline = Deadline::after_opt(timeout(time_ms)?);
    let hook = deadline.hook();
    call(&Budget::default().with_interrupt(&hook)).map_err(|e| errors::search(&e))
}

/// `call`'s moves as strings, within the budget of [`within`]: it holds
/// while they are written too.
pub(crate) fn moves_within(
    time_ms: Option<f64>,
    call: impl FnOnce(&Budget<'_>) -> Result<Vec<Move>, SearchError>,
) -> Result<Array, JsValue> {
    within(time_ms, |budget| {
        call(budget).and_then(|moves| texts_within(&moves, budget))
    })
}

/// A count or a limit given as a JavaScript number: a whole number from
/// `min` up, `name` naming it in the error.
pub(crate) fn whole(value: f64, name: &str, min: u64) -> Result<u64, JsValue> {
    // 2^53: every whole number below is exact in an f64.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if value.fract() == 0.0 && value >= min as f64 && value <= EXACT {
        Ok(value as u64)
    } else {
        Err(errors::value(format!(
            "{name} must be a whole number at least {min}, not {value}"
        )))
    }
}
