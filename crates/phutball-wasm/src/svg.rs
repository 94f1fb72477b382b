//! The pictures' arguments read into the core's [`SvgOptions`]; the core
//! draws ([`StepState::svg`]), and its geometry says where a point is drawn
//! and which point a click is on.

use phutball::{BoardSize, Move, Point, StepState, SvgOptions};
use wasm_bindgen::JsValue;

use crate::budget::whole;
use crate::errors;

/// The picture's options as a page passes them.
#[derive(Default)]
pub(crate) struct Args {
    pub(crate) last_move: Option<String>,
    pub(crate) moves: Option<Vec<String>>,
    pub(crate) highlight: Option<Vec<String>>,
    pub(crate) flip: bool,
    pub(crate) width: Option<f64>,
}

/// The picture of `state` drawn with `args`.
pub(crate) fn draw(state: &StepState, args: Args) -> Result<String, JsValue> {
    let width = args
        .width
        .map(|w| {
            let px = whole(w, "width", 1)?;
            phutball::svg_width(i128::from(px)).map_err(errors::value)
        })
        .transpose()?;
    let options = SvgOptions {
        moves: args
            .moves
            .unwrap_or_default()
            .iter()
            .map(|m| errors::parsed::<Move>(m))
            .collect::<Result<_, _>>()?,
        last_move: args
            .last_move
            .as_deref()
            .map(errors::parsed::<Move>)
            .transpose()?,
        highlight: args
            .highlight
            .unwrap_or_default()
            .iter()
            .map(|p| errors::parsed::<Point>(p))
            .collect::<Result<_, _>>()?,
        flip: args.flip,
        width,
    };
    state
        .svg(&options)
        .map_err(|e| errors::named("IllegalMoveError", e))
}

/// Where `point` is drawn on a board of `size`: `[x, y]`.
pub(crate) fn point_centre(size: BoardSize, point: &str, flip: bool) -> Result<Vec<f64>, JsValue> {
    let (x, y) = phutball::svg_point_centre(errors::parsed(point)?, size, flip)
        .map_err(|e| errors::named("IllegalMoveError", e))?;
    Ok(vec![x, y])
}

/// The point drawn nearest to `(x, y)` on a board of `size`, if any.
pub(crate) fn point_at(size: BoardSize, x: f64, y: f64, flip: bool) -> Option<String> {
    phutball::svg_point_at(x, y, size, flip).map(|p| p.to_string())
}
