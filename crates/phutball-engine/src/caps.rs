//! The caps: every cap on the engine's work (the search's, its move lists'
//! and its evaluation's) and every share of the move's time, each stated
//! once. The search (`search/hooks.rs` holds its hooks and budgets), the
//! move lists (`candidates.rs`, `threats.rs`) and the evaluation
//! (`eval.rs`) read them here.

use std::time::Duration;

/// Work cap (steps of the core's search: landings of the ball) of every
/// can-score and scoring-jump search at an inner node, at the horizon and
/// in the principal variation, with or without a time limit: a few
/// milliseconds on the densest boards; the positions of ordinary games are
/// decided in far fewer steps.
pub(crate) const NODE_SCORE_WORK: u64 = 1 << 16;
/// At most this many jump outcomes (each a move) are considered at the
/// root, in the root's move list with every placement.
pub(crate) const ROOT_JUMPS: usize = 4096;
/// At most this many jump outcomes become candidates at an inner node, and
/// a reply list of more jumps than this counts as "too many to try".
pub(crate) const INNER_JUMPS: usize = 64;
/// Work cap (distinct outcomes visited) of the outcome search that lists a
/// node's jump moves (or the list's own cap of outcomes, if larger).
pub(crate) const MOVE_OUTCOME_WORK: u64 = 1 << 14;
/// Work cap (distinct outcomes visited) of the outcome search inside the
/// evaluation, which runs at every leaf: lower than [`MOVE_OUTCOME_WORK`].
pub(crate) const EVAL_OUTCOME_WORK: u64 = 4096;
/// The evaluation looks at most at this many distinct jump outcomes (the
/// same outcomes serve both sides).
pub(crate) const EVAL_JUMP_OUTCOMES: usize = 256;
/// With a time limit, the root's safety filter first gives each move's
/// can-score this much work, then four times as much to the moves still
/// undecided, and so on while the filter's share of the time lasts.
pub(crate) const ROOT_FIRST_WORK: u64 = 1 << 14;
/// With a time limit, the root's "can I score?" may use this share (in
/// percent) of the move's time.
pub(crate) const SCORING_SHARE: u32 = 30;
/// With a time limit, the root's checks (the above, then "does the opponent
/// threaten?" and the safety filter) end by this share of the move's time;
/// the search has the rest.
pub(crate) const FILTER_SHARE: u32 = 65;
/// The root's win-in-five check (a threat, then a win in three after
/// every reply) ends after this many polls of its budget (some 8 million
/// steps at most, see `Search::root_call_capped`), with or without a
/// time limit.
pub(crate) const FIVE_POLLS: u32 = 1 << 13;
/// With a time limit, the win-in-five check may use this share (in
/// percent) of the move's time, within the root checks' share.
pub(crate) const FIVE_SHARE: u32 = 10;
/// The root's prover (a proof-number search for a win of either side, see
/// `phutball_solver::prove_within`) stops after this many nodes, with or
/// without a time limit: a bound that keeps an untimed search reproducible.
pub(crate) const PROVER_NODES: u64 = 256;
/// With a time limit, the root's prover may use this share (in percent)
/// of the move's time, within the root checks' share.
pub(crate) const PROVER_SHARE: u32 = 5;
/// The check of the move chosen (the prover on the position after it)
/// stops after this many nodes.
pub(crate) const PROVER_CHECK_NODES: u64 = 64;
/// At most this many moves chosen in turn are checked and dropped as
/// proved losses, before the next one is played unchecked.
pub(crate) const PROVER_CHECKS: usize = 3;
/// With a time limit, reading back the principal variation after the search
/// (or evaluating the move chosen without a search) may take this long.
pub(crate) const PV_TIME: Duration = Duration::from_millis(10);

/// The root moves evaluated, in the root order, when no depth finished
/// (`Search::best_by_evaluation`): an evaluation on a dense board can take
/// a millisecond or more, and all of a dense root's 200-odd moves added
/// 300 ms to a search at one node.
pub(crate) const DEPTH0_EVALUATIONS: usize = 48;
/// The engine's clock is read at one poll of the core's searches in this many.
pub(crate) const CLOCK_SAMPLE: u32 = 8;
