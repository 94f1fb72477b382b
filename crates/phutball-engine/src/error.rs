//! Why the engine could not choose a move.

use core::fmt;

use phutball::Side;

/// The engine was given a position it cannot move in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The game is over.
    Finished {
        /// The side that has scored.
        winner: Side,
    },
    /// A jump move is under way (step-by-step play): the engine chooses whole moves.
    MidJump,
    /// The side to move has no legal move (the board is full and no jump is possible).
    NoLegalMove,
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
            EngineError::MidJump => f.write_str(
                "a jump move is under way: the engine chooses whole moves, end the turn first",
            ),
            EngineError::NoLegalMove => f.write_str("the side to move has no legal move"),
        }
    }
}

impl std::error::Error for EngineError {}
