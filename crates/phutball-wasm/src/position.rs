//! `Position`: a position at the start of a move, read from and written to
//! the core's position string, with its moves, jumps and pictures.

use js_sys::Array;
use phutball::{BoardSize, Move, Point, Position, Rules, Side, StepState};
use wasm_bindgen::prelude::*;

use crate::budget::{moves_within, whole, within};
use crate::classes::{WasmJumpInProgress, WasmPosition};
use crate::errors;
use crate::svg;
use crate::texts::texts;

impl WasmPosition {
    /// The position a JavaScript `Position` holds, read through its own
    /// `toString()` and `rules`, so that the object stays usable:
    /// wasm-bindgen hands a class over by value only, taking it from its
    /// owner (an optional `&Position` it cannot take).
    pub(crate) fn read(value: &JsValue) -> Result<Position, JsValue> {
        let not_a_position = || errors::value("expected a Position");
        let method = |name: &str| {
            js_sys::Reflect::get(value, &JsValue::from_str(name))
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
                .ok_or_else(not_a_position)
        };
        let text = method("toString")?.call0(value)?;
        let rules = js_sys::Reflect::get(value, &JsValue::from_str("rules"))?;
        let (Some(text), Some(rules)) = (text.as_string(), rules.as_string()) else {
            return Err(not_a_position());
        };
        WasmPosition::new(Some(text), Some(rules)).map(|p| p.inner)
    }
}

/// Rule options in their text form (`"continue-off-board first-player=X"`;
/// `undefined` or `""` for the defaults).
pub(crate) fn parse_rules(rules: Option<String>) -> Result<Rules, JsValue> {
    errors::parsed(rules.as_deref().unwrap_or(""))
}

/// The most a list may hold: `undefined` for no limit.
fn list_limit(limit: Option<f64>) -> Result<usize, JsValue> {
    limit.map_or(Ok(usize::MAX), |l| {
        whole(l, "limit", 0).map(|l| usize::try_from(l).unwrap_or(usize::MAX))
    })
}

#[wasm_bindgen(js_class = Position)]
impl WasmPosition {
    /// Reads a position string (`"start"`, `"start:9x11"`, or
    /// `"15/.../15 O"`) under `rules`; no text is the standard start.
    /// Throws `ParseError` saying where the text is wrong.
    #[wasm_bindgen(constructor)]
    pub fn new(text: Option<String>, rules: Option<String>) -> Result<WasmPosition, JsValue> {
        let rules = parse_rules(rules)?;
        Position::parse_with_rules(text.as_deref().unwrap_or("start"), rules)
            .map(WasmPosition::from)
            .map_err(|e| errors::named("ParseError", e))
    }

    /// The start position of a `cols` x `rows` board (1-25 columns, 3-25
    /// rows). Throws `InvalidPositionError` for a size no board has.
    pub fn start(cols: f64, rows: f64, rules: Option<String>) -> Result<WasmPosition, JsValue> {
        let rules = parse_rules(rules)?;
        let size = BoardSize::try_from((cols as i64, rows as i64))
            .ok()
            .filter(|_| cols.fract() == 0.0 && rows.fract() == 0.0)
            .ok_or_else(|| {
                errors::named(
                    "InvalidPositionError",
                    format!("no board has {cols} columns and {rows} rows"),
                )
            })?;
        Position::start_with(size, rules)
            .map(WasmPosition::from)
            .map_err(|e| errors::named("InvalidPositionError", e))
    }

    /// A position from the ball's point and the men's, e.g.
    /// `Position.fromPoints("K6", ["J7", "H8", "G10", "H11"])`, on the
    /// standard board with Ohs to move unless said otherwise.
    #[wasm_bindgen(js_name = fromPoints)]
    pub fn from_points(
        ball: &str,
        men: Vec<String>,
        #[wasm_bindgen(js_name = toMove)] to_move: Option<String>,
        rules: Option<String>,
    ) -> Result<WasmPosition, JsValue> {
        let ball = errors::parsed::<Point>(ball)?;
        let men = men
            .iter()
            .map(|m| errors::parsed::<Point>(m))
            .collect::<Result<phutball::Bitboard, _>>()?;
        let to_move: Side = to_move
            .as_deref()
            .unwrap_or("O")
            .parse()
            .map_err(|e| errors::named("ParseError", e))?;
        let rules = parse_rules(rules)?;
        Position::from_parts(BoardSize::STANDARD, rules, men, ball, to_move)
            .map(WasmPosition::from)
            .map_err(|e| errors::named("InvalidPositionError", e))
    }

    /// The position string.
    #[wasm_bindgen(js_name = toString)]
    pub fn text(&self) -> String {
        self.inner.to_string()
    }

    /// The board as text, one row a line.
    pub fn diagram(&self) -> String {
        self.inner.diagram()
    }

    /// The number of columns.
    #[wasm_bindgen(getter)]
    pub fn cols(&self) -> u8 {
        self.inner.size().cols()
    }

    /// The number of rows, goal line to goal line.
    #[wasm_bindgen(getter)]
    pub fn rows(&self) -> u8 {
        self.inner.size().rows()
    }

    /// The rule options in their text form (`""` for the defaults).
    #[wasm_bindgen(getter)]
    pub fn rules(&self) -> String {
        self.inner.rules().to_string()
    }

    /// The ball's point, e.g. `"H10"`.
    #[wasm_bindgen(getter)]
    pub fn ball(&self) -> String {
        self.inner.ball().to_string()
    }

    /// The men's points, row by row from the bottom.
    #[wasm_bindgen(getter)]
    pub fn men(&self) -> Vec<String> {
        self.inner.men().iter().map(|p| p.to_string()).collect()
    }

    /// The side to move: `"O"` or `"X"`.
    #[wasm_bindgen(getter, js_name = toMove)]
    pub fn side_to_move(&self) -> String {
        self.inner.to_move().char().to_string()
    }

    /// `"O"` or `"X"` once that side has scored.
    #[wasm_bindgen(getter)]
    pub fn winner(&self) -> Option<String> {
        self.inner.winner().map(|s| s.char().to_string())
    }

    /// Whether the game is over.
    #[wasm_bindgen(getter, js_name = isFinished)]
    pub fn is_finished(&self) -> bool {
        self.inner.is_finished()
    }

    /// Whether a man stands on `point`. Throws `ParseError`.
    #[wasm_bindgen(js_name = hasMan)]
    pub fn has_man(&self, point: &str) -> Result<bool, JsValue> {
        Ok(self.inner.has_man(errors::parsed::<Point>(point)?))
    }

    /// Every placement, row by row from row 1.
    pub fn placements(&self) -> Vec<String> {
        texts(&self.inner.placements())
    }

    /// The landing points of the single jumps the ball can make now.
    #[wasm_bindgen(js_name = singleJumps)]
    pub fn single_jumps(&self) -> Vec<String> {
        let jumps = self.inner.single_jumps();
        jumps.iter().map(|j| j.to.to_string()).collect()
    }

    /// Every legal move (placements, then jump paths), at most `limit`,
    /// within `timeMs` (`SearchTimeoutError`) and the default memory limit
    /// (`MemoryLimitError`), both kept while the moves are written as
    /// strings too.
    #[wasm_bindgen(js_name = legalMoves, unchecked_return_type = "string[]")]
    pub fn legal_moves(
        &self,
        limit: Option<f64>,
        #[wasm_bindgen(js_name = timeMs)] time_ms: Option<f64>,
    ) -> Result<Array, JsValue> {
        let limit = list_limit(limit)?;
        moves_within(time_ms, |b| self.inner.legal_moves_up_to(limit, b))
    }

    /// Every jump path (each prefix of a path is one), bounded as `legalMoves`.
    #[wasm_bindgen(js_name = jumpPaths, unchecked_return_type = "string[]")]
    pub fn jump_paths(
        &self,
        limit: Option<f64>,
        #[wasm_bindgen(js_name = timeMs)] time_ms: Option<f64>,
    ) -> Result<Array, JsValue> {
        let limit = list_limit(limit)?;
        moves_within(time_ms, |b| self.inner.jump_paths_up_to(limit, b))
    }

    /// The number of jump paths, within `timeMs`.
    #[wasm_bindgen(js_name = countJumpPaths)]
    pub fn count_jump_paths(
        &self,
        #[wasm_bindgen(js_name = timeMs)] time_ms: Option<f64>,
    ) -> Result<f64, JsValue> {
        within(time_ms, |b| self.inner.count_jump_paths_within(b)).map(|n| n as f64)
    }

    /// One path to each distinct result of a jump, bounded as `legalMoves`.
    #[wasm_bindgen(js_name = jumpOutcomes, unchecked_return_type = "string[]")]
    pub fn jump_outcomes(
        &self,
        limit: Option<f64>,
        #[wasm_bindgen(js_name = timeMs)] time_ms: Option<f64>,
    ) -> Result<Array, JsValue> {
        let limit = list_limit(limit)?;
        moves_within(time_ms, |b| self.inner.jump_outcomes_up_to(limit, b))
    }

    /// Whether the side to move can score this move, within `timeMs`.
    #[wasm_bindgen(js_name = canScore)]
    pub fn can_score(
        &self,
        #[wasm_bindgen(js_name = timeMs)] time_ms: Option<f64>,
    ) -> Result<bool, JsValue> {
        within(time_ms, |b| self.inner.can_score_within(b))
    }

    /// A jump that scores for the side to move, if any, within `timeMs`.
    #[wasm_bindgen(js_name = scoringMove)]
    pub fn scoring_move(
        &self,
        #[wasm_bindgen(js_name = timeMs)] time_ms: Option<f64>,
    ) -> Result<Option<String>, JsValue> {
        within(time_ms, |b| self.inner.scoring_jump_within(b)).map(|m| m.map(|m| m.to_string()))
    }

    /// Whether `move` (notation) is legal here. Throws `ParseError`.
    #[wasm_bindgen(js_name = isLegal)]
    pub fn is_legal(&self, r#move: &str) -> Result<bool, JsValue> {
        Ok(self.inner.is_legal(&errors::parsed::<Move>(r#move)?))
    }

    /// The position after `move`, the other side to move. Throws
    /// `IllegalMoveError` saying why, `ParseError` for bad notation.
    pub fn play(&self, r#move: &str) -> Result<WasmPosition, JsValue> {
        self.inner
            .play(&errors::parsed::<Move>(r#move)?)
            .map(WasmPosition::from)
            .map_err(|e| errors::named("IllegalMoveError", e))
    }

    /// Starts a jump move with one jump of the ball to `to`.
    #[wasm_bindgen(js_name = applyJump)]
    pub fn apply_jump(&self, to: &str) -> Result<WasmJumpInProgress, JsValue> {
        self.inner
            .apply_jump(errors::parsed::<Point>(to)?)
            .map(WasmJumpInProgress::from)
            .map_err(|e| errors::named("IllegalMoveError", e))
    }

    /// The same men and ball, the other side to move (a pass).
    #[wasm_bindgen(js_name = endTurn)]
    pub fn end_turn(&self) -> WasmPosition {
        self.inner.end_turn().into()
    }

    /// An SVG picture: `lastMove` and `moves` (legal here, drawn as
    /// arrows) in notation, `highlight`ed points, `flip` (turned 180
    /// degrees), `width` in pixels.
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
        svg::draw(&StepState::from(self.inner), args)
    }

    /// Where `point` is drawn in this board's picture: `[x, y]` in its
    /// own units (its `viewBox`).
    #[wasm_bindgen(js_name = svgPointCentre)]
    pub fn svg_point_centre(&self, point: &str, flip: Option<bool>) -> Result<Vec<f64>, JsValue> {
        svg::point_centre(self.inner.size(), point, flip.unwrap_or(false))
    }

    /// The point drawn nearest to `(x, y)` in this board's picture, if any:
    /// the point a click is on.
    #[wasm_bindgen(js_name = svgPointAt)]
    pub fn svg_point_at(&self, x: f64, y: f64, flip: Option<bool>) -> Option<String> {
        svg::point_at(self.inner.size(), x, y, flip.unwrap_or(false))
    }
}
