//! The engine from JavaScript: its analysis and best move within limits
//! (a time limit in milliseconds, a depth, a node count), with the default
//! evaluation (`auto`), the hand one or a `Network` (`network.rs`), and
//! `solve`:
//! who wins, proved within a time limit, or "unknown".

use std::time::Duration;

use phutball::Budget;
use phutball_engine::{Engine, EngineError, Limits, Solution};
use wasm_bindgen::prelude::*;

use crate::budget::{timeout, whole};
use crate::classes::WasmPosition;
use crate::errors;
use crate::network::WasmNetwork;
use crate::texts::texts;

/// What the engine found: its move, score, line and work.
#[wasm_bindgen(getter_with_clone)]
pub struct Analysis {
    /// The move it plays, in notation.
    #[wasm_bindgen(js_name = bestMove)]
    pub best_move: String,
    /// `"win in 3"`, `"loss in 2"`, or the evaluation in rows (`"+0.75"`).
    pub score: String,
    /// The deepest iteration completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: f64,
    /// Time taken, in milliseconds.
    #[wasm_bindgen(js_name = elapsedMs)]
    pub elapsed_ms: f64,
    /// The expected line, the best move first.
    pub pv: Vec<String>,
    /// How it decided: `"scores now"`, `"only move"`, `"all moves lose"` or `"searched"`.
    pub decision: String,
}

/// The engine's limits from the page's numbers: at least one of them.
fn limits(time_ms: Option<f64>, depth: Option<f64>, nodes: Option<f64>) -> Result<Limits, JsValue> {
    let ms = timeout(time_ms)?.map(|t| t.as_millis() as u64);
    let depth = depth.map(|d| whole(d, "depth", 0)).transpose()?;
    let nodes = nodes.map(|n| whole(n, "nodes", 0)).transpose()?;
    if ms.is_none() && depth.is_none() && nodes.is_none() {
        return Err(errors::value(
            "give the engine a limit: timeMs, depth or nodes",
        ));
    }
    Limits::checked(ms, depth, nodes, 1).map_err(|e| errors::value(e.named("the limit")))
}

/// An engine error as JavaScript's: `NetworkError` for a position of a
/// board size the engine's network does not serve, else `EngineError`.
fn engine_error(error: &EngineError) -> JsValue {
    let name = match error {
        EngineError::Network(_) => "NetworkError",
        _ => "EngineError",
    };
    errors::named(name, error)
}

/// The engine's analysis of `position` within `timeMs` milliseconds,
/// `depth` plies and `nodes` nodes (at least one given), its choices among
/// equal moves drawn from `seed` (default 0), evaluating with `network`:
/// `undefined` or `"auto"` (the default: the built-in network on the
/// standard 15x19 board, the hand evaluation on every other), `"hand"`,
/// `"net"` (the built-in network, 15x19 only) or a `Network`. A network is
/// read, not taken (through its `toBytes()`: a copy of its weights a call).
/// Throws `ValueError` for a limit out of range or a `network` that is none
/// of these, `EngineError` for a finished position or one without a legal
/// move, `NetworkError` for a position of a board size the network does not
/// serve.
// The limits' types are written out: wasm-bindgen writes a parameter
// before one whose type is given (`network`'s) as not omittable.
#[wasm_bindgen]
pub fn analyse(
    position: &WasmPosition,
    #[wasm_bindgen(js_name = timeMs, unchecked_optional_param_type = "number | null")]
    time_ms: Option<f64>,
    #[wasm_bindgen(unchecked_optional_param_type = "number | null")] depth: Option<f64>,
    #[wasm_bindgen(unchecked_optional_param_type = "number | null")] nodes: Option<f64>,
    #[wasm_bindgen(unchecked_optional_param_type = "number | null")] seed: Option<f64>,
    #[wasm_bindgen(unchecked_optional_param_type = "Network | \"auto\" | \"hand\" | \"net\"")]
    network: Option<JsValue>,
) -> Result<Analysis, JsValue> {
    let limits = limits(time_ms, depth, nodes)?;
    let seed = seed.map(|s| whole(s, "seed", 0)).transpose()?.unwrap_or(0);
    let evaluation = WasmNetwork::evaluation(network.as_ref())?;
    let analysis = Engine::new(limits, seed)
        .with_evaluation(evaluation)
        .analyse_within(&position.inner, &Budget::default())
        .map_err(|e| engine_error(&e))?;
    Ok(Analysis {
        best_move: analysis.best_move.to_string(),
        score: analysis.score.to_string(),
        depth: analysis.depth,
        nodes: analysis.nodes as f64,
        elapsed_ms: analysis.elapsed.as_secs_f64() * 1000.0,
        pv: texts(&analysis.pv),
        decision: analysis.decision.to_string(),
    })
}

/// The engine's move in `position` within `timeMs` milliseconds,
/// evaluating with `network` as `analyse` does.
#[wasm_bindgen(js_name = bestMove)]
pub fn best_move(
    position: &WasmPosition,
    #[wasm_bindgen(js_name = timeMs)] time_ms: f64,
    #[wasm_bindgen(unchecked_optional_param_type = "Network | \"auto\" | \"hand\" | \"net\"")]
    network: Option<JsValue>,
) -> Result<String, JsValue> {
    analyse(position, Some(time_ms), None, None, None, network).map(|a| a.best_move)
}

/// Who wins, as far as `solve` could prove.
#[wasm_bindgen(getter_with_clone)]
pub struct Verdict {
    /// `"win"` or `"loss"` for the side to move, `"draw"`, or `"unknown"`.
    pub result: String,
    /// Plies to the goal for a win or a loss.
    pub plies: Option<u32>,
    /// The winning line, or the longest resistance.
    pub line: Vec<String>,
}

/// Who wins `position` with best play, proved within `timeMs`
/// milliseconds (the engine's deepening search, then the prover), or
/// `"unknown"`. Throws `EngineError` for a finished position.
#[wasm_bindgen]
pub fn solve(
    position: &WasmPosition,
    #[wasm_bindgen(js_name = timeMs)] time_ms: f64,
) -> Result<Verdict, JsValue> {
    let time = timeout(Some(time_ms))?.unwrap_or(Duration::ZERO);
    let solution = phutball_engine::solve(&position.inner, time, &Budget::default())
        .map_err(|e| errors::named("EngineError", e))?;
    let (result, plies, line) = match solution {
        Solution::Win { plies, line, .. } => ("win", Some(plies), line),
        Solution::Loss { plies, line, .. } => ("loss", Some(plies), line),
        Solution::Draw => ("draw", None, Vec::new()),
        Solution::Unknown => ("unknown", None, Vec::new()),
    };
    Ok(Verdict {
        result: result.into(),
        plies,
        line: texts(&line),
    })
}
