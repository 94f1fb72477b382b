//! A solved position's result as C sees it: the `PHUTBALL_PROOF_*`
//! constants, shared by the prover's answers (`prove.rs`) and the
//! tablebase's (`tablebase.rs`).

use phutball_solver::Value;

/// A proof's result for the side to move: the `PHUTBALL_PROOF_*` constants.
pub type PhutballProofResult = u8;
/// Nothing proved: the budget stopped the search first (`stopped` says
/// which), or neither side forces a goal in the graph searched (`exhausted`).
pub const PHUTBALL_PROOF_UNKNOWN: PhutballProofResult = 0;
/// The side to move forces a goal within `plies` plies.
pub const PHUTBALL_PROOF_WIN: PhutballProofResult = 1;
/// The opponent forces a goal within `plies` plies whatever the side to move does.
pub const PHUTBALL_PROOF_LOSS: PhutballProofResult = 2;
/// Neither side can force a goal: proved only where a tablebase covers the
/// board (one given to `phutball_prove_with_tablebase_within`, or the one
/// `phutball_prove_within` builds for boards of at most 20 points); a draw
/// has no certificate.
pub const PHUTBALL_PROOF_DRAW: PhutballProofResult = 3;

/// A known value as its `PHUTBALL_PROOF_*` constant and its plies (0 for a draw).
pub(crate) fn result_and_plies(value: Value) -> (PhutballProofResult, u32) {
    match value {
        Value::Win { plies } => (PHUTBALL_PROOF_WIN, plies),
        Value::Loss { plies } => (PHUTBALL_PROOF_LOSS, plies),
        Value::Draw => (PHUTBALL_PROOF_DRAW, 0),
    }
}
