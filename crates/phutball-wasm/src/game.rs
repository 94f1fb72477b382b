//! `Game`: the moves from a start position, with undo and the text game
//! record (`start ...`, then a move a line) that saves and loads a game.

use phutball::{Game, GameResult, Move, StepState};
use wasm_bindgen::prelude::*;

use crate::classes::WasmPosition;
use crate::errors;
use crate::svg;
use crate::texts::texts;

/// A game: its start, its moves and where it stands.
#[wasm_bindgen(js_name = Game)]
pub struct WasmGame {
    inner: Game,
}

#[wasm_bindgen(js_class = Game)]
impl WasmGame {
    /// A game from `start` (default: the standard start). `start` is
    /// read, not taken: it stays usable (no call of the package consumes
    /// its arguments). Throws `ValueError` for anything but a `Position`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "Position")] start: Option<JsValue>,
    ) -> Result<WasmGame, JsValue> {
        let start = match start {
            Some(start) => WasmPosition::read(&start)?,
            None => phutball::Position::standard(),
        };
        Ok(WasmGame {
            inner: Game::new(start),
        })
    }

    /// Reads a text game record; every move is checked. Throws `ParseError`
    /// naming the line at fault.
    #[wasm_bindgen(js_name = fromRecord)]
    pub fn from_record(text: &str) -> Result<WasmGame, JsValue> {
        text.parse()
            .map(|inner| WasmGame { inner })
            .map_err(|e| errors::named("ParseError", e))
    }

    /// The text game record.
    pub fn record(&self) -> String {
        self.inner.to_string()
    }

    /// Plays `move` (notation). Throws `IllegalMoveError` saying why, or
    /// `ParseError` for bad notation.
    pub fn push(&mut self, r#move: &str) -> Result<(), JsValue> {
        let m = errors::parsed::<Move>(r#move)?;
        self.inner
            .push(m)
            .map_err(|e| errors::named("IllegalMoveError", e))
    }

    /// Takes back the last move (undo): it, or `undefined` at the start.
    pub fn pop(&mut self) -> Option<String> {
        self.inner.pop().map(|m| m.to_string())
    }

    /// The position now.
    #[wasm_bindgen(getter)]
    pub fn position(&self) -> WasmPosition {
        (*self.inner.position()).into()
    }

    /// The start position.
    #[wasm_bindgen(getter)]
    pub fn start(&self) -> WasmPosition {
        (*self.inner.start()).into()
    }

    /// The moves so far, in notation.
    #[wasm_bindgen(getter)]
    pub fn moves(&self) -> Vec<String> {
        texts(self.inner.moves())
    }

    /// The number of moves so far.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> usize {
        self.inner.moves().len()
    }

    /// How the game stands: `"*"` while it goes on, else its result.
    #[wasm_bindgen(getter)]
    pub fn result(&self) -> String {
        self.inner.result().to_string()
    }

    /// Whether the game is over.
    #[wasm_bindgen(getter, js_name = isOver)]
    pub fn is_over(&self) -> bool {
        self.inner.result() != GameResult::Ongoing
    }

    /// The picture of the position now with its last move, as `Position.svg`.
    pub fn svg(
        &self,
        moves: Option<Vec<String>>,
        highlight: Option<Vec<String>>,
        flip: Option<bool>,
        width: Option<f64>,
    ) -> Result<String, JsValue> {
        let args = svg::Args {
            last_move: self.inner.moves().last().map(ToString::to_string),
            moves,
            highlight,
            flip: flip.unwrap_or(false),
            width,
        };
        svg::draw(&StepState::from(*self.inner.position()), args)
    }
}
