//! `JumpInProgress`: a jump move under way, one jump at a time, for a page
//! that lets the player jump step by step.

use phutball::{Point, StepState};
use wasm_bindgen::prelude::*;

use crate::classes::{WasmJumpInProgress, WasmPosition};
use crate::errors;
use crate::svg;

#[wasm_bindgen(js_class = JumpInProgress)]
impl WasmJumpInProgress {
    /// The text form (it parses back under the same rules).
    #[wasm_bindgen(js_name = toString)]
    pub fn text(&self) -> String {
        self.inner.to_string()
    }

    /// The board as it stands (the men jumped so far removed).
    #[wasm_bindgen(getter)]
    pub fn position(&self) -> WasmPosition {
        self.inner.position().into()
    }

    /// Where the move started.
    #[wasm_bindgen(getter)]
    pub fn start(&self) -> String {
        self.inner.start().to_string()
    }

    /// The landing points of the jumps that continue the move.
    #[wasm_bindgen(js_name = singleJumps)]
    pub fn single_jumps(&self) -> Vec<String> {
        let jumps = self.inner.single_jumps();
        jumps.iter().map(|j| j.to.to_string()).collect()
    }

    /// One more jump, to `to`. Throws `IllegalMoveError` if none lands there.
    #[wasm_bindgen(js_name = applyJump)]
    pub fn apply_jump(&self, to: &str) -> Result<WasmJumpInProgress, JsValue> {
        self.inner
            .apply_jump(errors::parsed::<Point>(to)?)
            .map(WasmJumpInProgress::from)
            .map_err(|e| errors::named("IllegalMoveError", e))
    }

    /// Ends the move: the position with the other side to move.
    pub fn end(&self) -> WasmPosition {
        self.inner.end().into()
    }

    /// An SVG picture, as `Position.svg`; `lastMove` is the path so far.
    pub fn svg(
        &self,
        #[wasm_bindgen(js_name = lastMove)] last_move: Option<String>,
        moves: Option<Vec<String>>,
        highlight: Option<Vec<String>>,
        flip: Option<bool>,
        width: Option<f64>,
    ) -> Result<String, JsValue> {
        let args = svg::Args {
            last_move,
            moves,
            highlight,
            flip: flip.unwrap_or(false),
            width,
        };
        svg::draw(&StepState::Jump(self.inner), args)
    }
}
