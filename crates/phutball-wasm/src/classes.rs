//! The classes that each other's methods return: `Position` and
//! `JumpInProgress` (a jump starts from a position and ends in one). Only
//! the structs (and their conversions) are here; each class's methods are
//! in its own module (`position.rs`, `jump_in_progress.rs`), which can then
//! use the other's class without an import loop.

use phutball::{JumpInProgress, Position};
use wasm_bindgen::prelude::*;

/// A Phutball position: men, ball, the side to move, the board size and
/// the rule options. Immutable: `play` returns a new one.
#[wasm_bindgen(js_name = Position)]
#[derive(Clone, Copy)]
pub struct WasmPosition {
    pub(crate) inner: Position,
}

impl From<Position> for WasmPosition {
    fn from(inner: Position) -> Self {
        WasmPosition { inner }
    }
}

/// A jump move under way: the ball has made one or more jumps and the same
/// side may jump again or end the move.
#[wasm_bindgen(js_name = JumpInProgress)]
pub struct WasmJumpInProgress {
    pub(crate) inner: JumpInProgress,
}

impl From<JumpInProgress> for WasmJumpInProgress {
    fn from(inner: JumpInProgress) -> Self {
        WasmJumpInProgress { inner }
    }
}
