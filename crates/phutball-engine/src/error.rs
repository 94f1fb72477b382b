//! Why the engine could not choose a move.

use core::fmt;

use phutball::{SearchError, Side};

/// The engine was given a position it cannot move in, or its caller stopped it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EngineError {
    /// The game is over.
    Finished {
        /// The side that has scored.
        winner: Side,
    },
    /// The side to move has no legal move (the board is full and no jump is possible).
    NoLegalMove,
    /// The caller's budget (its cancel flag or interrupt hook, not the
    /// engine's own [`Limits`](crate::Limits)) stopped the search.
    Interrupted(SearchError),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Finished { winner } => {
                write!(
                    f,
                    "the game is over ({winner} has scored): there is no move to choose"
                )
            }
            EngineError::NoLegalMove => f.write_str("the side to move has no legal move"),
            EngineError::Interrupted(e) => write!(f, "the search was stopped: {e}"),
        }
    }
}

impl std::error::Error for EngineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EngineError::Interrupted(e) => Some(e),
            _ => None,
        }
    }
}
