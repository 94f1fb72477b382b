//! Errors as JavaScript `Error`s named after the core's error types
//! (`ParseError`, `IllegalMoveError`, ...), so a page can tell them apart;
//! the message is the core's.

use std::fmt::Display;
use std::str::FromStr;

use phutball::SearchError;
use wasm_bindgen::JsValue;

/// A JavaScript `Error` named `name` with `error`'s message.
pub(crate) fn named(name: &str, error: impl Display) -> JsValue {
    let js = js_sys::Error::new(&error.to_string());
    js.set_name(name);
    js.into()
}

/// `text` read by the core's parser (`FromStr`: a point, a move, rule
/// options), or a `ParseError` with the core's message. The bindings parse
/// no notation of their own.
pub(crate) fn parsed<T: FromStr>(text: &str) -> Result<T, JsValue>
where
    T::Err: Display,
{
    text.parse().map_err(|e| named("ParseError", e))
}

/// A search stopped by its budget: `SearchTimeoutError` for the time
/// limit, `MemoryLimitError` for the memory limit, else `SearchError`.
pub(crate) fn search(error: &SearchError) -> JsValue {
    let name = match error {
        SearchError::TimedOut => "SearchTimeoutError",
        SearchError::MemoryLimit { .. } => "MemoryLimitError",
        _ => "SearchError",
    };
    named(name, error)
}

/// `ValueError` for an argument out of its range.
pub(crate) fn value(message: impl Display) -> JsValue {
    named("ValueError", message)
}
