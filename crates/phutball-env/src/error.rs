//! Why a batch could not be made or stepped: [`VecEnvError`], which the
//! batch (`vec_env.rs`), its blocks (`blocks.rs`) and the opponent's
//! moves (`opponent.rs`) all give.

use phutball::{ActionError, EpisodeError, SearchError};
use phutball_engine::NetworkError;
use thiserror::Error;

/// Why a batch could not be made or stepped. A step that fails changes no game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VecEnvError {
    /// A batch of no games, no jobs, a move limit of 0, or a finished start.
    #[error("{0}")]
    Config(String),
    /// A slice of the wrong length.
    #[error("{what} has {got} entries, not the {expected} this batch needs")]
    Length {
        /// Which argument.
        what: &'static str,
        /// The length needed.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// The budget stopped the call (a deadline, a cancel flag, Ctrl-C), or
    /// the allocator refused memory (`SearchError::OutOfMemory`).
    #[error(transparent)]
    Interrupted(SearchError),
    /// An action that game `game` cannot take.
    #[error("game {game}: {}", action_message(*action, source))]
    Action {
        /// The game's index in the batch.
        game: usize,
        /// The action's index.
        action: usize,
        /// Why it cannot be taken ([`EpisodeError::Action`]: a batch
        /// restarts its games as they end, so no game is ever over).
        source: EpisodeError,
    },
    /// Game `game` waits for the opponent:
    /// [`VecEnv::step_waiting`](crate::VecEnv::step_waiting) (an external
    /// opponent) must move first, or (a random or engine opponent) the
    /// batch needs a [`VecEnv::reset`](crate::VecEnv::reset) after
    /// [`VecEnv::with_opponent`](crate::VecEnv::with_opponent).
    #[error("game {game} waits for the opponent's action: step_waiting (an external opponent) or reset first")]
    Waiting {
        /// The game's index in the batch.
        game: usize,
    },
    /// The engine opponent's evaluation is a network without a network
    /// for the batch's board size
    /// ([`VecEnv::with_opponent_evaluation`](crate::VecEnv::with_opponent_evaluation));
    /// the network's error, naming the sizes it serves, is the
    /// [`source`](std::error::Error::source).
    #[error("the engine opponent's network cannot judge this batch's board: {0}")]
    Network(#[source] NetworkError),
    /// The opponent could not move in game `game` (the engine found no
    /// move, or its move was not the episode's): a bug, reported.
    #[error("game {game}: the opponent could not move: {message}")]
    Opponent {
        /// The game's index in the batch.
        game: usize,
        /// What went wrong.
        message: String,
    },
}

/// Why an action cannot be taken, naming it unless the core's message does.
fn action_message(action: usize, source: &EpisodeError) -> String {
    match source {
        EpisodeError::Action(ActionError::OutOfRange { .. }) => source.to_string(),
        _ => format!("action {action}: {source}"),
    }
}
