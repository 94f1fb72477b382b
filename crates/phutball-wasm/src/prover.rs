//! `prove`: the solver's proof-number search of who wins, within a time
//! limit and a node count; a limit that runs out is no error but the
//! result "unknown", with `stopped` saying which.

use phutball::Budget;
use phutball_engine::Deadline;
use phutball_solver::prove_within;
use wasm_bindgen::prelude::*;

use crate::budget::{timeout, whole};
use crate::classes::WasmPosition;
use crate::errors;
use crate::texts::texts;

/// What the prover found.
#[wasm_bindgen(getter_with_clone)]
pub struct Proof {
    /// `"win in 3"`, `"loss in 2"` (exact distances), `"win within 7"`,
    /// `"loss within 6"` (the proof's bound), `"draw"` (a tablebase's), or
    /// `"unknown"`.
    pub result: String,
    /// Whether the distance in `result` is exact (a tablebase's answer, on
    /// boards of at most 20 points, or a win in 1 or a loss in 2).
    pub exact: bool,
    /// The proved line: the winning move first, or the longest resistance.
    pub line: Vec<String>,
    /// The prover's nodes.
    pub nodes: f64,
    /// Why it stopped without an answer (the time or node limit, memory).
    pub stopped: Option<String>,
    /// Whether the answer came with a certificate the solver has checked.
    pub certified: bool,
    /// Both searches ended without proving a goal in the graph searched.
    pub exhausted: bool,
}

/// Proves who wins `position` with best play within `timeMs` milliseconds
/// and `nodes` prover nodes (at least one of them given). Throws
/// `SolverError` for a finished position, `ValueError` for a bad limit.
#[wasm_bindgen]
pub fn prove(
    position: &WasmPosition,
    #[wasm_bindgen(js_name = timeMs)] time_ms: Option<f64>,
    nodes: Option<f64>,
) -> Result<Proof, JsValue> {
    let time = timeout(time_ms)?;
    let nodes = nodes.map(|n| whole(n, "nodes", 1)).transpose()?;
    if time.is_none() && nodes.is_none() {
        return Err(errors::value("give the prover a limit: timeMs or nodes"));
    }
    let deadline = Deadline::after_opt(time);
    let hook = deadline.hook();
    let budget = Budget::default().with_interrupt(&hook);
    let budget = nodes.map_or(budget, |n| budget.with_work_limit(n));
    let proof =
        prove_within(&position.inner, &budget).map_err(|e| errors::named("SolverError", e))?;
    Ok(Proof {
        result: proof.verdict(),
        exact: proof.exact,
        line: texts(&proof.line),
        nodes: proof.nodes as f64,
        stopped: proof.stopped.map(|e| e.to_string()),
        certified: proof.certificate.is_some(),
        exhausted: proof.exhausted,
    })
}
