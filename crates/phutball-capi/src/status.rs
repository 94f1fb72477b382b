//! Status codes returned by every fallible function, and the failures they stand for.

use phutball::{ActionError, GameError, ParseError, SearchError};
use phutball_engine::{AnyError, EngineError, NetworkError};
use phutball_solver::{CertificateError, SolverError, TablebaseFileError};

/// What a call did. Every fallible function returns one; anything but
/// `PHUTBALL_STATUS_OK` means the call changed nothing the caller can see
/// (no handle, no out-parameter except a size on `PHUTBALL_STATUS_BUFFER_TOO_SMALL`)
/// and stored a message for `phutball_last_error_message`.
#[repr(u32)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PhutballStatus {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL.
    NullArgument = 1,
    /// A string argument was not valid UTF-8.
    InvalidUtf8 = 2,
    /// Text was not valid notation: a point, a move, a position string or a game record.
    ParseError = 3,
    /// A board or position that cannot exist: an unsupported size, the ball on
    /// a man, a man off the board, a start point on or beyond a goal line.
    InvalidPosition = 4,
    /// A move that is not legal in the position (the message says why).
    IllegalMove = 5,
    /// The game has reached its move limit: it is drawn and takes no more moves.
    MoveLimit = 6,
    /// The caller's buffer is too small; the size needed has been written.
    BufferTooSmall = 7,
    /// A search or a list would need more memory than its bound allows (the
    /// memory limit, `PhutballBudget.memory_limit`, 256 MiB by default; or
    /// the distinct-outcome bound), or the allocator refused. This is the
    /// memory status: there is no separate code for the memory limit.
    TooManyOutcomes = 8,
    /// An argument out of range: a side that is neither Ohs nor Eks, a point
    /// no board has, an index past the end.
    InvalidArgument = 9,
    /// The call's timeout (`PhutballBudget.timeout_ms`) passed before it could answer.
    TimedOut = 10,
    /// The call's cancel token (`PhutballBudget.cancel`) was cancelled before it could answer.
    Cancelled = 11,
    /// The call's work limit (`PhutballBudget.work_limit`) was reached before it could answer.
    WorkLimit = 12,
    /// A proof certificate that does not prove what it claims (an illegal
    /// move, a reply of the loser left unanswered, a line that does not end
    /// in the winner's goal, ...): the message is the checker's, naming the
    /// node.
    InvalidCertificate = 13,
    /// Bytes that are not a tablebase file this library reads (damaged,
    /// truncated, another version or board): the message says what is wrong.
    InvalidTablebase = 14,
    /// Bytes that are not a weights file of a network this library reads
    /// (damaged: its checksum; truncated, another version, a weight that is
    /// not finite, ...): the message says what is wrong.
    InvalidNetwork = 15,
    /// A bug in the library: it panicked, or a proof the prover built failed
    /// its own check (it is reported, never claimed). A panic is caught at
    /// the boundary; the handles passed to the call are unchanged.
    Panic = 100,
}

impl PhutballStatus {
    /// A short name for the status, NUL-terminated for C.
    pub(crate) fn name(status: u32) -> &'static str {
        match status {
            0 => "ok\0",
            1 => "null argument\0",
            2 => "invalid UTF-8\0",
            3 => "parse error\0",
            4 => "invalid position\0",
            5 => "illegal move\0",
            6 => "move limit reached\0",
            7 => "buffer too small\0",
            8 => "too many outcomes\0",
            9 => "invalid argument\0",
            10 => "timed out\0",
            11 => "cancelled\0",
            12 => "work limit reached\0",
            13 => "invalid certificate\0",
            14 => "invalid tablebase\0",
            15 => "invalid network\0",
            100 => "internal error (panic)\0",
            _ => "unknown status\0",
        }
    }
}

/// A failed call: the status to return and the message to keep as the last error.
#[derive(Debug)]
pub(crate) struct Failure {
    pub status: PhutballStatus,
    pub message: String,
}

/// The result of the body of an entry point.
pub(crate) type FfiResult<T = ()> = Result<T, Failure>;

impl Failure {
    pub(crate) fn new(status: PhutballStatus, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
    }

    /// A NULL pointer where `what` was required.
    pub(crate) fn null(what: &str) -> Failure {
        Failure::new(
            PhutballStatus::NullArgument,
            format!("{what} must not be NULL"),
        )
    }

    pub(crate) fn invalid_argument(message: impl Into<String>) -> Failure {
        Failure::new(PhutballStatus::InvalidArgument, message)
    }
}

/// Any core or engine error as a failure (so `?` works on them): the status
/// of [`status_of`] and the core's own message.
impl<E: Into<AnyError>> From<E> for Failure {
    fn from(e: E) -> Failure {
        let error = e.into();
        Failure::new(status_of(&error), error.to_string())
    }
}

/// The status of each core and engine error: the table in docs/c-api.md
/// ("Which status for which error"), checked against it by a test. The
/// core's enums are matched exhaustively where they allow it, so a new
/// variant cannot compile without a status.
// One arm per row of the docs table, in its order: merging arms with the
// same status would hide rows.
#[allow(clippy::match_same_arms)]
fn status_of(error: &AnyError) -> PhutballStatus {
    use PhutballStatus as S;
    match error {
        // A well-formed position string can still describe an impossible position.
        AnyError::Parse(ParseError::Invalid(_)) => S::InvalidPosition,
        AnyError::Parse(
            ParseError::Empty { .. }
            | ParseError::Point { .. }
            | ParseError::ColumnI { .. }
            | ParseError::PointOutside { .. }
            | ParseError::Side { .. }
            | ParseError::RuleOption { .. }
            | ParseError::Action { .. }
            | ParseError::Move { .. }
            | ParseError::Position { .. }
            | ParseError::Record { .. }
            | ParseError::Size { .. },
        ) => S::ParseError,
        AnyError::InvalidPosition(_) => S::InvalidPosition,
        AnyError::IllegalMove(_) => S::IllegalMove,
        AnyError::Game(GameError::Illegal { .. }) => S::IllegalMove,
        AnyError::Game(GameError::MoveLimit(_)) => S::MoveLimit,
        // An index no board has is an argument out of range, as in the rest of the ABI.
        AnyError::Action(ActionError::OutOfRange { .. }) => S::InvalidArgument,
        AnyError::Action(ActionError::NoJumpUnderWay | ActionError::Illegal(_)) => S::IllegalMove,
        AnyError::Search(SearchError::TimedOut) => S::TimedOut,
        AnyError::Search(SearchError::Cancelled) => S::Cancelled,
        AnyError::Search(SearchError::WorkLimit { .. }) => S::WorkLimit,
        // The memory status: the memory limit, the allocator and the outcome
        // bound share it (docs/c-api.md, "Bounded work").
        AnyError::Search(_) | AnyError::TooManyOutcomes(_) => S::TooManyOutcomes,
        // The caller's budget stopping the engine keeps its own statuses.
        AnyError::Engine(EngineError::Interrupted(stop)) => {
            status_of(&AnyError::Search(stop.clone()))
        }
        // A position the engine cannot move in.
        AnyError::Engine(_) => S::InvalidArgument,
    }
}

/// A solver error as a failure: the table in docs/c-api.md ("Which status
/// for which solver error"), checked against it by a test. The caller's
/// budget keeps the statuses of the core's [`SearchError`]s.
// One arm per row of the docs table: merging arms with the same status would hide rows.
#[allow(clippy::match_same_arms)]
pub(crate) fn solver_failure(error: &SolverError) -> Failure {
    use PhutballStatus as S;
    let status = match error {
        SolverError::Search(stop) => return Failure::from(stop.clone()),
        // The board is fine, only too large for a table of every position.
        SolverError::BoardTooLarge { .. } => S::InvalidArgument,
        // A position with nothing to prove, as the engine's finished game.
        SolverError::Finished => S::InvalidArgument,
        // A proof that failed its own check: a bug, reported as one.
        SolverError::Unsound(_) => S::Panic,
        // The board's values outgrow the table's format: too large a board.
        SolverError::TooManyPlies { .. } => S::InvalidArgument,
        // A checkpoint file refused (damaged, foreign) or not writable (no
        // C call takes one yet): the message says which and names the file.
        SolverError::Checkpoint(_) => S::InvalidArgument,
        // A job count out of the build's range.
        SolverError::Jobs { .. } => S::InvalidArgument,
        // A variant added later (the enum is non-exhaustive).
        _ => S::InvalidArgument,
    };
    Failure::new(status, error.to_string())
}

/// A checker's verdict as a failure: `InvalidCertificate` with the checker's
/// message, or the status of the limit that stopped the check.
pub(crate) fn certificate_failure(error: &CertificateError) -> Failure {
    let status = match error {
        CertificateError::Search(stop) => Failure::from(stop.clone()).status,
        _ => PhutballStatus::InvalidCertificate,
    };
    Failure::new(status, error.to_string())
}

/// An error reading a tablebase's bytes as a failure (the same table):
/// `InvalidTablebase`, or the memory status when the allocator refused.
pub(crate) fn tablebase_file_failure(error: &TablebaseFileError) -> Failure {
    let status = match error {
        TablebaseFileError::OutOfMemory { .. } => PhutballStatus::TooManyOutcomes,
        _ => PhutballStatus::InvalidTablebase,
    };
    Failure::new(status, error.to_string())
}

/// A network's error as a failure: the table in docs/c-api.md ("Which
/// status for which network error"), checked against it by a test.
/// `InvalidNetwork` for weights refused; `InvalidArgument` for a position
/// the network cannot judge, as for a tablebase that does not cover one.
pub(crate) fn network_failure(error: &NetworkError) -> Failure {
    use PhutballStatus as S;
    let status = match error {
        // A position of a board size it has no network for, or a finished
        // game: the position is the argument it cannot take.
        NetworkError::NotServed { .. } | NetworkError::Finished { .. } => S::InvalidArgument,
        // The weights file or network refused (every other variant, and
        // any the engine adds later: the enum is non-exhaustive).
        _ => S::InvalidNetwork,
    };
    Failure::new(status, error.to_string())
}

#[cfg(test)]
mod tests {
    use phutball::error_examples::assert_docs_table;
    use phutball_engine::{every_error_named, every_network_error_named};
    use phutball_solver::error_examples::{
        every_error_named as every_solver_error_named, SolverErrorExample,
    };

    use super::*;

    /// `PHUTBALL_STATUS_PARSE_ERROR` for `ParseError`: cbindgen's name.
    fn c_name(status: PhutballStatus) -> String {
        let mut name = String::from("PHUTBALL_STATUS");
        for c in format!("{status:?}").chars() {
            if c.is_ascii_uppercase() {
                name.push('_');
            }
            name.push(c.to_ascii_uppercase());
        }
        name
    }

    #[test]
    fn the_status_table_in_the_docs_is_the_mapping() {
        let every: Vec<(String, AnyError)> = every_error_named();
        let mapped: Vec<(String, String)> = every
            .into_iter()
            .map(|(name, e)| (name, c_name(status_of(&e))))
            .collect();
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/c-api.md");
        let markdown = std::fs::read_to_string(path).unwrap();
        let heading = "### Which status for which error";
        assert_docs_table("docs/c-api.md", &markdown, heading, &mapped);
    }

    /// The failure of any of the solver's errors the docs table lists.
    fn example_failure(error: &SolverErrorExample) -> Failure {
        match error {
            SolverErrorExample::Solver(e) => solver_failure(e),
            SolverErrorExample::Certificate(e) => certificate_failure(e),
            SolverErrorExample::TablebaseFile(e) => tablebase_file_failure(e),
        }
    }

    /// Every solver error variant (the solver's examples: a new variant
    /// has one, or the solver's own test fails) needs its row in the docs
    /// table, so its status is chosen, not left to a default arm unseen.
    #[test]
    fn the_solver_status_table_in_the_docs_is_the_mapping() {
        let failures = every_solver_error_named()
            .into_iter()
            .map(|(name, e)| (name, example_failure(&e), e.to_string()));
        assert_failure_table("### Which status for which solver error", failures);
    }

    /// Checks `failures` (an error's name, its failure and its own message)
    /// against the docs table under `heading`: each failure keeps its
    /// error's message, and the table's rows are the names and statuses.
    fn assert_failure_table(
        heading: &str,
        failures: impl Iterator<Item = (String, Failure, String)>,
    ) {
        let mapped: Vec<(String, String)> = failures
            .map(|(name, failure, message)| {
                assert_eq!(failure.message, message, "{name} keeps its own message");
                (name, c_name(failure.status))
            })
            .collect();
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/c-api.md");
        let markdown = std::fs::read_to_string(path).unwrap();
        assert_docs_table("docs/c-api.md", &markdown, heading, &mapped);
    }

    /// Every network error variant (the engine's examples: a new variant
    /// has one, or the engine's own test fails) needs its row in the docs
    /// table, so its status is chosen, not left to the default arm unseen.
    #[test]
    fn the_network_status_table_in_the_docs_is_the_mapping() {
        let failures = every_network_error_named()
            .into_iter()
            .map(|(name, e)| (name, network_failure(&e), e.to_string()));
        assert_failure_table("### Which status for which network error", failures);
    }

    #[test]
    fn a_failure_keeps_the_core_message() {
        let e = EngineError::Interrupted(SearchError::Cancelled);
        let failure = Failure::from(e.clone());
        assert_eq!(failure.status, PhutballStatus::Cancelled);
        assert_eq!(failure.message, e.to_string());
    }
}
