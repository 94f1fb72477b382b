//! Moves as text: a short list as strings ([`texts`]), and a long call's
//! list as JavaScript strings within its budget ([`texts_within`]). A dense
//! board has hundreds of thousands of jump paths, dozens of points each:
//! writing them out took seconds and hundreds of MiB after the search had
//! kept its time limit (issue #39: `jumpPaths(300000, 200)` took 2,978 ms),
//! so the deadline is polled, and the text counted against the memory
//! limit, while they are written too.

use std::fmt::Write;

use js_sys::{Array, JsString};
use phutball::{Budget, Move, SearchError};

/// Notation for each move (a short list: a line, a principal variation).
pub(crate) fn texts(moves: &[Move]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

/// Moves written between two polls of the deadline: a few milliseconds.
const POLL_EVERY: usize = 1024;
/// What a string costs besides its text: V8's header and the array's slot.
const STRING_BYTES: usize = 24;

/// Each move in notation, as a JavaScript array of strings; stops with the
/// budget's error when its deadline passes or the text outgrows its
/// memory limit.
pub(crate) fn texts_within(moves: &[Move], budget: &Budget<'_>) -> Result<Array, SearchError> {
    let limit = budget.memory_limit();
    let texts = Array::new();
    let mut text = String::new();
    let mut bytes = 0usize;
    for (i, m) in moves.iter().enumerate() {
        if i % POLL_EVERY == 0 {
            if let Some(stop) = budget.interrupted() {
                return Err(stop);
            }
        }
        text.clear();
        let _ = write!(text, "{m}");
        bytes = bytes.saturating_add(text.len() + STRING_BYTES);
        if bytes > limit {
            return Err(SearchError::MemoryLimit {
                limit,
                what: "the moves' text",
            });
        }
        texts.push(&JsString::from(text.as_str()));
    }
    Ok(texts)
}
