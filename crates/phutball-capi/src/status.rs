//! Status codes returned by every fallible function, and the failures they stand for.

use phutball::{GameError, IllegalMove, InvalidPosition, ParseError, SearchError, TooManyOutcomes};

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
    /// memory limit, `PhutballLimits.memory_limit`, 256 MiB by default; or
    /// the distinct-outcome bound), or the allocator refused. This is the
    /// memory status: there is no separate code for the memory limit.
    TooManyOutcomes = 8,
    /// An argument out of range: a side that is neither Ohs nor Eks, a point
    /// no board has, an index past the end.
    InvalidArgument = 9,
    /// The call's timeout (`PhutballLimits.timeout_ms`) passed before it could answer.
    TimedOut = 10,
    /// The call's cancel token (`PhutballLimits.cancel`) was cancelled before it could answer.
    Cancelled = 11,
    /// The call's work limit (`PhutballLimits.work_limit`) was reached before it could answer.
    WorkLimit = 12,
    /// A bug in the library: it panicked. The panic was caught at the boundary;
    /// the handles passed to the call are unchanged.
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

impl From<ParseError> for Failure {
    fn from(e: ParseError) -> Failure {
        // A well-formed position string can still describe an impossible position.
        let status = match e {
            ParseError::Invalid(_) => PhutballStatus::InvalidPosition,
            _ => PhutballStatus::ParseError,
        };
        Failure::new(status, e.to_string())
    }
}

impl From<InvalidPosition> for Failure {
    fn from(e: InvalidPosition) -> Failure {
        Failure::new(PhutballStatus::InvalidPosition, e.to_string())
    }
}

impl From<IllegalMove> for Failure {
    fn from(e: IllegalMove) -> Failure {
        Failure::new(PhutballStatus::IllegalMove, e.to_string())
    }
}

impl From<GameError> for Failure {
    fn from(e: GameError) -> Failure {
        let status = match e {
            GameError::Illegal { .. } => PhutballStatus::IllegalMove,
            GameError::MoveLimit(_) => PhutballStatus::MoveLimit,
        };
        Failure::new(status, e.to_string())
    }
}

impl From<TooManyOutcomes> for Failure {
    fn from(e: TooManyOutcomes) -> Failure {
        Failure::new(PhutballStatus::TooManyOutcomes, e.to_string())
    }
}

impl From<SearchError> for Failure {
    fn from(e: SearchError) -> Failure {
        let status = match e {
            SearchError::TimedOut => PhutballStatus::TimedOut,
            SearchError::Cancelled => PhutballStatus::Cancelled,
            SearchError::WorkLimit { .. } => PhutballStatus::WorkLimit,
            _ => PhutballStatus::TooManyOutcomes,
        };
        Failure::new(status, e.to_string())
    }
}
