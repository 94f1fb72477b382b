//! Why a solver call gave no answer.

use phutball::SearchError;
use thiserror::Error;

/// Why a tablebase build, a proof search or a check stopped without an answer.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SolverError {
    /// The caller's budget stopped it (time, work, memory, cancel), or the
    /// allocator refused memory.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The board is too large for a tablebase.
    #[error("a tablebase of a {cols}x{rows} board has too many states ({points} points; at most {max} are supported)")]
    BoardTooLarge {
        /// Columns.
        cols: u8,
        /// Rows.
        rows: u8,
        /// Points of the board.
        points: u32,
        /// The most points a tablebase supports.
        max: u32,
    },
    /// The position is finished: there is nothing to prove.
    #[error("the game is over: there is nothing to prove")]
    Finished,
    /// A proof the prover built failed its own check: a bug, reported
    /// rather than claimed.
    #[error("internal error, the proof was not claimed: {0}")]
    Unsound(String),
    /// A tablebase's wins or losses reach the most plies a value byte holds
    /// (longer ones may follow: the build cannot store them).
    #[error("a tablebase's wins or losses reach {max} plies, the most a value byte holds")]
    TooManyPlies {
        /// The most plies a tablebase value holds.
        max: u32,
    },
    /// A prove's checkpoint could not be read (refused: damaged, truncated,
    /// foreign) or saved; the file is as it was.
    #[error("checkpoint: {0}")]
    Checkpoint(String),
    /// A tablebase build asked for no jobs (build threads) or for more than
    /// it takes.
    #[error("{what} takes 1 to {max} jobs, not {requested}")]
    Jobs {
        /// What takes them: `a tablebase build` or `a prove`.
        what: &'static str,
        /// The jobs asked for.
        requested: usize,
        /// [`MAX_BUILD_JOBS`](crate::MAX_BUILD_JOBS) or
        /// [`MAX_PROVE_JOBS`](crate::MAX_PROVE_JOBS).
        max: usize,
    },
}
