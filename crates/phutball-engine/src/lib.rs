//! A Phutball engine over the [`phutball`] core: search, evaluation, players
//! and self-play.
//!
//! ```
//! use phutball::Position;
//! use phutball_engine::{Engine, Limits};
//! let engine = Engine::new(Limits::nodes(2000), 7);
//! let analysis = engine.analyse(&Position::standard())?;
//! assert!(Position::standard().is_legal(&analysis.best_move));
//! assert_eq!(analysis.pv[0], analysis.best_move);
//! # Ok::<(), phutball_engine::EngineError>(())
//! ```
//!
//! # Why alpha-beta, and not MCTS
//!
//! Phutball is decided by tactics: a position is won when the side to move
//! can score, and lost when the opponent has a threat nothing stops. The
//! core answers "can the side to move score now?" exactly and cheaply
//! ([`Position::can_score`]), which makes a negamax alpha-beta search
//! *exact* about the last two plies at every leaf: a leaf whose side can
//! score is a win, and a leaf where the opponent threatens is a loss unless
//! one of the few moves that can stop the threat does (see the candidate
//! rules in `candidates.rs`). Random playouts, as MCTS uses, are very noisy
//! here (a random mover almost never scores, nor stops a threat), and
//! MCTS finds such narrow forced lines slowly. So the engine is an
//! iterative-deepening negamax with alpha-beta pruning and a transposition
//! table keyed by the core's Zobrist hash.
//!
//! # The search
//!
//! - **Root**: if a scoring jump exists it is played at once. Otherwise every
//!   legal move (all placements and up to 4096 jump outcomes) is played and
//!   those after which the opponent can score (or which are own goals) are
//!   dropped; this is what makes the guarantees hold whatever the depth or
//!   time. A move that wins in three plies (a threat no reply stops, see
//!   `threats.rs`) is then played at once, or else a threat placement that
//!   wins in five (after every reply it has a win in three); when the
//!   opponent does not
//!   threaten, moves after which it would win in three are dropped while
//!   others remain. When the opponent threatens, every surviving move is
//!   searched; otherwise the surviving jumps, the placements near the ball
//!   and the threat placements.
//! - **Inner nodes**: a finished position is a win or loss; a position whose
//!   side can score is a win in one. When the opponent threatens, only the
//!   moves that can stop the threat are searched (the jumps, and placements
//!   on the landing points of one scoring path: any move stopping every
//!   threat is among them, so a loss found there is real). Otherwise: up to
//!   64 jump outcomes and the placements within two points of the ball or
//!   along its lines (threat placements here and a win-in-three check at
//!   the horizon cost more speed than they gained: docs/engine.md).
//! - **Horizon**: the evaluation (see `eval.rs`: ball progress, both sides'
//!   jump threats), or a loss if the opponent threatens and nothing stops it.
//! - **Limits**: time, depth and node count ([`Limits`]); the time and node
//!   limits are checked at every node, and the time inside every call into
//!   the core too (see below). Without a time limit the result is fully
//!   determined by the position, the limits and the seed (the seed breaks
//!   ties in the root move order). Forced results (win/loss in N) are
//!   proved: a position all of whose candidates lose is searched again with
//!   all its moves before the loss counts.
//!
//! # Bounded work: the engine keeps its clock
//!
//! Deciding "can the side to move score?" can take the core minutes on a
//! dense board, so every call into the core that can run long (can-score,
//! the scoring jump, the enumeration of jump outcomes) runs under a
//! [`phutball::Budget`]: a work cap, and one interrupt hook that polls the
//! caller's stop (the cancel flag and hook of the budget given to
//! [`Engine::analyse_within`]) and then the move's deadline (the clock is
//! read at one poll in eight; the core polls every 1024 steps of work).
//!
//! - **With a time limit** ([`Limits::time`]) a legal move comes within the
//!   limit and a few milliseconds on every position (reading back the
//!   principal variation may take 10 ms more). The root's "can I score?"
//!   may use 30% of the time. "Does the opponent threaten?" and the safety
//!   filter (for every root move: "can the opponent score after it?") end
//!   by 65%: each move's check first gets 16 384 steps (landings of the
//!   ball), then the moves still undecided get four times more, and so on
//!   while the share lasts, so one hard move cannot starve the others; a
//!   "can I score?" still undecided gets what is left of that share. The
//!   search has the rest.
//! - **Without a time limit** (depth or nodes only) the root's checks are
//!   exact: they are not bounded in time (minutes on some dense boards),
//!   and only the caller's stop ends them. The guarantees then always hold.
//! - **Inside the tree**, with or without a time limit, every can-score and
//!   scoring-jump search is capped at 65 536 steps (a few milliseconds on
//!   the densest boards; the positions of ordinary games need far fewer),
//!   and jump outcomes at 16 384 per node (4096 in the evaluation). These
//!   caps are work, not time, so a search without a time limit stays
//!   reproducible.
//!
//! A check that gave up ("don't know") is treated conservatively:
//!
//! - at the root, an undecided "can I score?" is not a win: the engine
//!   searches; a move whose "can the opponent score after it?" is undecided
//!   is not known to be safe: it is searched only when no move is proved
//!   safe (a fallback below every proved-safe move); an undecided "does the
//!   opponent threaten?" counts as a threat (every candidate is searched);
//! - in the tree, an undecided "can the side to move score?" is not a win,
//!   and an undecided threat, or a defence not known to hold, is not a loss
//!   (the evaluation less the price of a threat).
//!
//! So the guarantees of [`Engine::analyse`] hold whenever the budget was
//! enough to decide them: it scores when its "can I score?" was decided;
//! it never plays an own goal while another move exists (that needs no
//! search, so it always holds); and it plays a move proved to stop every
//! threat whenever the filter proved one (with enough time it proves every
//! such move; the filter's checks on the ordinary boards of the tactical
//! suites take microseconds).
//!
//! # Players and self-play
//!
//! [`Player`] is anything that chooses moves: the [`Engine`], the
//! [`BaselinePlayer`] (scores, else blocks, else places ahead of the ball)
//! and the [`RandomPlayer`]. [`play_game`] plays them against each other.
//!
//! # All cores
//!
//! [`analyse_many`] analyses a batch of positions and [`SelfPlay::play`]
//! plays a batch of engine games, each over a number of threads (an engine
//! and its table per thread), with the results in input order. Without a
//! time limit, and with one thread per search ([`Limits::threads`]), they
//! are reproducible and do not depend on the thread count:
//! game `i` of a self-play run is seeded from the run's seed and `i`.
//! [`is_safe`] (and [`is_safe_within`]) is the one test of a move's safety
//! they all share: legal, not an own goal, no score for the opponent at once.
//!
//! # Cargo features
//!
//! - `test-support` (off by default): the module `suites` (generated
//!   tactical test positions) and `every_error_named` (every error, named as
//!   the wrappers' error tables name it), for tests, examples and
//!   measurements; not part of the stable interface. It turns on the core's
//!   `test-support`.

mod arena;
mod batch;
mod candidates;
mod deadline;
mod error;
mod eval;
mod limits;
mod players;
mod safety;
mod score;
mod search;
mod solve;
#[cfg(feature = "test-support")]
pub mod suites;
mod table;
mod threats;
mod vec_env;

pub use arena::{play_game, MatchError};
pub use batch::{analyse_many, default_jobs, SelfPlay, SelfPlayGame};
pub use deadline::Deadline;
#[cfg(feature = "test-support")]
pub use error::every_error_named;
pub use error::{AnyError, EngineError};
pub use limits::{LimitError, LimitSetting, Limits, MAX_DEPTH, MAX_THREADS};
/// The core's generator, kept at this path for the engine's users.
pub use phutball::SplitMix64;
pub use players::{BaselinePlayer, Player, RandomPlayer};
pub use safety::{is_safe, is_safe_within};
pub use score::Score;
pub use search::{Analysis, Decision, Engine};
pub use solve::{solve, Solution};
pub use vec_env::{
    FinalObservation, StepBuffers, VecEnv, VecEnvError, MIN_GAMES_PER_THREAD, POLL_GAMES,
};

#[cfg(doc)]
use phutball::Position;

/// The crate's README (its crates.io page): its example, checked as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct Readme;
