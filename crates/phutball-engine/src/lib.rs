//! A Phutball engine over the [`phutball`] core: an iterative-deepening
//! negamax alpha-beta search with a transposition table, whose root checks
//! (can I score, which moves let the opponent score, wins in three and
//! five by threat) give its guarantees at any depth; players and games
//! between them; batches of analyses and of self-play games on threads.
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
//! A side that can score does, and a move is [safe](is_safe) when the
//! opponent cannot score at once after it. [`analyse_many`] answers per
//! position, in input order, whatever the number of jobs:
//!
//! ```
//! use phutball::{Budget, Position};
//! use phutball_engine::{analyse_many, is_safe, Limits};
//! // Ball K6 with four men near it: three jumps, none of them scoring.
//! let pos: Position = "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O".parse()?;
//! let positions = [pos, Position::standard()];
//! let answers = analyse_many(&positions, Limits::depth(2), 1, 2, &Budget::default());
//! assert_eq!(answers.len(), 2);
//! for (position, answer) in positions.iter().zip(&answers) {
//!     let analysis = answer.as_ref().expect("both positions have moves");
//!     assert!(is_safe(position, &analysis.best_move));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The search evaluates its leaves with a learned value [`Network`] (by
//! default the one built in, on the standard board it serves) or with
//! three hand-written terms (by default on every other board)
//! ([`Engine::with_evaluation`], [`Evaluation`]; the weights file and the
//! arithmetic are specified in `docs/network.md`).
//!
//! The reference is `docs/engine.md`: what the engine guarantees, how it
//! searches, how it bounds its work (each cap is a constant, stated once in
//! `src/caps.rs`, `src/candidates.rs` and `src/eval.rs`, and the docs
//! quote its name), and how to use it from the CLI, C and Python. The
//! measurements behind its design are lab notes, in `docs/notes/`.
//!
//! # Cargo features
//!
//! - `test-support` (off by default): the module `suites` (generated
//!   tactical test positions), `every_error_named` and
//!   `every_network_error_named` (every error, named as the wrappers' error
//!   tables name it), for tests, examples and measurements; not part of the
//!   stable interface. It turns on the core's `test-support`.

mod arena;
mod batch;
mod candidates;
mod caps;
mod clock;
mod deadline;
mod error;
mod eval;
mod evaluation;
mod limits;
mod net;
mod openings;
mod players;
mod safety;
mod score;
mod search;
mod solve;
#[cfg(feature = "test-support")]
pub mod suites;
mod table;
mod threats;

pub use arena::{play_game, MatchError};
pub use batch::{analyse_many, MoveAnalysis, OpeningError, SelfPlay, SelfPlayGame};
#[cfg(target_arch = "wasm32")]
pub use clock::set_clock;
pub use deadline::Deadline;
#[cfg(feature = "test-support")]
pub use error::every_error_named;
pub use error::{AnyError, EngineError};
pub use evaluation::{EvalSpec, EvalSpecError, Evaluation};
pub use limits::{LimitError, LimitSetting, Limits, MAX_DEPTH, MAX_THREADS};
#[cfg(feature = "test-support")]
pub use net::every_network_error_named;
pub use net::{
    BoardNetwork, Features, Network, NetworkError, MAX_DESCRIPTION, MAX_FILE_BYTES, MAX_HIDDEN,
    MAX_NETWORKS,
};
pub use openings::{random_opening, RANDOM_OPENING_MEN, RANDOM_OPENING_RADIUS};
/// Re-exported from the core, where every batch's default comes from.
pub use phutball::default_jobs;
/// The core's generator, kept at this path for the engine's users.
pub use phutball::SplitMix64;
pub use players::{BaselinePlayer, Player, RandomPlayer};
pub use safety::{is_safe, is_safe_within};
pub use score::Score;
pub use search::{Analysis, Decision, Engine};
pub use solve::{deepen_within, solve, Deepening, Solution};

/// The crate's README (its crates.io page): its example, checked as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct Readme;
