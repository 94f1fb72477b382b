//! The error types several ideas raise: text that does not parse, positions
//! that cannot exist, illegal moves, and too many jump outcomes (an error
//! one idea raises lives with it). Every message says what was wrong and,
//! for text, where.

use thiserror::Error;

use crate::board::board_size::BoardSize;
use crate::board::point::{Point, Side};

/// How many characters of a bad field an error message quotes.
pub const QUOTE_LIMIT: usize = 60;

/// `text` quoted as `{:?}` quotes it, but cut after [`QUOTE_LIMIT`]
/// characters (then `...` and the field's length), so that an error about
/// a huge input stays one short line. Every message of this crate and the
/// crates built on it quotes its input through this.
///
/// ```
/// assert_eq!(phutball::quoted("I5"), "\"I5\"");
/// let long = "A".repeat(1000);
/// assert_eq!(phutball::quoted(&long), format!("{:?}... (1000 characters)", &long[..60]));
/// ```
pub fn quoted(text: &str) -> String {
    match cut_to_quote(text) {
        None => format!("{text:?}"),
        Some((start, chars)) => format!("{start:?}... ({chars} characters)"),
    }
}

/// `text` between backticks, cut as [`quoted`] cuts it (the size messages'
/// quotes, which the CLI's `--memory-limit` has always written so).
pub(crate) fn backticked(text: &str) -> String {
    match cut_to_quote(text) {
        None => format!("`{text}`"),
        Some((start, chars)) => format!("`{start}...` ({chars} characters)"),
    }
}

/// The first [`QUOTE_LIMIT`] characters of `text` and its length in
/// characters, when it is longer than that.
fn cut_to_quote(text: &str) -> Option<(&str, usize)> {
    let (cut, _) = text.char_indices().nth(QUOTE_LIMIT)?;
    Some((&text[..cut], text.chars().count()))
}

/// Text that is not valid notation (a point, a move, a position string, a
/// game record or a memory limit's size).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// The text is empty.
    #[error("empty {what}")]
    Empty {
        /// What was expected.
        what: &'static str,
    },
    /// A point is not a column letter followed by a row number.
    #[error(
        "invalid point {}: expected a column letter A-Z (no I) and a row number, like H10",
        quoted(.text)
    )]
    Point {
        /// The offending text.
        text: String,
    },
    /// `I` is not a column letter.
    #[error(
        "invalid point {}: there is no column I (columns skip from H to J)",
        quoted(.text)
    )]
    ColumnI {
        /// The offending text.
        text: String,
    },
    /// A point the board does not have.
    #[error("point {point} is not on a {cols}x{rows} board")]
    PointOutside {
        /// The point.
        point: Point,
        /// Board columns.
        cols: u8,
        /// Board rows.
        rows: u8,
    },
    /// A move is neither a point nor points joined by `-`.
    #[error("invalid move {}: {reason}", quoted(.text))]
    Move {
        /// The offending text.
        text: String,
        /// Why.
        reason: String,
    },
    /// A side is not `O`/`X` (or `Ohs`/`Eks`).
    #[error("invalid side {}: a side is O (Ohs) or X (Eks)", quoted(.text))]
    Side {
        /// The offending text.
        text: String,
    },
    /// A word of a rules text ([`Rules`](crate::Rules)) is no rule option.
    #[error(
        "unknown rule option {}: the options are continue-off-board, stop-off-board, \
         first-player=O|X and start-point=POINT",
        quoted(.text)
    )]
    RuleOption {
        /// The offending word.
        text: String,
    },
    /// An action is not `place <point>`, `jump to <point>` or `end jump`.
    #[error("invalid action {}: expected \"place <point>\", \"jump to <point>\" or \"end jump\"", quoted(.text))]
    Action {
        /// The offending text.
        text: String,
    },
    /// A position string is malformed.
    #[error("invalid position string at character {column}: {reason}")]
    Position {
        /// 1-based character position in the string.
        column: usize,
        /// Why.
        reason: String,
    },
    /// A position string parses but describes an impossible position.
    #[error("invalid position: {0}")]
    Invalid(#[from] InvalidPositionError),
    /// A game record is malformed.
    #[error("game record line {line}: {reason}")]
    Record {
        /// 1-based line number.
        line: usize,
        /// Why.
        reason: String,
    },
    /// A size of memory ([`ByteSize`](crate::ByteSize)) is not a positive
    /// number of bytes with a known unit.
    #[error("{reason}")]
    Size {
        /// The offending text.
        text: String,
        /// Why, quoting the text (the whole message: the wording the
        /// CLI's `--memory-limit` has always used).
        reason: String,
    },
}

/// A position that breaks the rules of the board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum InvalidPositionError {
    /// The size is not supported (the limits are [`MAX_COLS`](crate::MAX_COLS),
    /// [`MIN_ROWS`](crate::MIN_ROWS) and [`MAX_ROWS`](crate::MAX_ROWS)).
    #[error(
        "board size {cols}x{rows} is not supported (columns 1-{max_cols}, rows {min_rows}-{max_rows})",
        max_cols = crate::MAX_COLS,
        min_rows = crate::MIN_ROWS,
        max_rows = crate::MAX_ROWS
    )]
    Size {
        /// Requested columns (any integer an interface was given).
        cols: i64,
        /// Requested rows.
        rows: i64,
    },
    /// A point is outside the board.
    #[error("{what} {point} is outside the {cols}x{rows} board")]
    Outside {
        /// What was placed ("ball", "man", "start point").
        what: &'static str,
        /// The point.
        point: Point,
        /// Board columns.
        cols: u8,
        /// Board rows.
        rows: u8,
    },
    /// A man on an off-board strip.
    #[error("man on {0}: men stand only on rows 1 to R, not on the off-board strips")]
    ManOffBoard(Point),
    /// The ball on a man.
    #[error("the ball is on {0}, which holds a man")]
    BallOnMan(Point),
    /// A start point on a goal line or off the board (the game would be over before it began).
    #[error("start point {0} must lie strictly between the goal lines")]
    StartNotInPlay(Point),
    /// A jump in progress whose start point holds a man (men are only removed during a jump).
    #[error("the jump's start point {0} holds a man")]
    JumpStartOnMan(Point),
    /// A jump in progress that has removed no man (every jump removes one).
    #[error("a jump in progress must have removed at least one man")]
    NothingRemoved,
    /// A removed man that is still on the board or on the start point.
    #[error("removed man {0} is still on the board (or on the start point)")]
    RemovedManPresent(Point),
}

// The size check's constructors live with the error they return, so that
// board/ does not import this module (which imports Point and Side).
impl BoardSize {
    /// A board of `cols` columns and `rows` rows, if the project supports it.
    ///
    /// # Errors
    ///
    /// [`InvalidPositionError::Size`] if `cols` or `rows` is outside the supported range.
    pub const fn new(cols: u8, rows: u8) -> Result<BoardSize, InvalidPositionError> {
        match BoardSize::checked(cols, rows) {
            Some(size) => Ok(size),
            None => Err(InvalidPositionError::Size {
                cols: cols as i64,
                rows: rows as i64,
            }),
        }
    }
}

impl TryFrom<(i64, i64)> for BoardSize {
    type Error = InvalidPositionError;

    /// A board of `(cols, rows)` given as any integers (a wrapper's arguments),
    /// with [`BoardSize::new`]'s error for sizes no board has.
    ///
    /// ```
    /// use phutball::BoardSize;
    /// assert_eq!(BoardSize::try_from((15, 19)), Ok(BoardSize::STANDARD));
    /// assert_eq!(
    ///     BoardSize::try_from((300, 19)).unwrap_err().to_string(),
    ///     "board size 300x19 is not supported (columns 1-25, rows 3-25)"
    /// );
    /// ```
    fn try_from((cols, rows): (i64, i64)) -> Result<BoardSize, InvalidPositionError> {
        match (u8::try_from(cols), u8::try_from(rows)) {
            (Ok(c), Ok(r)) => BoardSize::new(c, r),
            _ => Err(InvalidPositionError::Size { cols, rows }),
        }
    }
}

/// A move that is not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum IllegalMoveError {
    /// The game is over: the ball is on or over a goal line.
    #[error("the game is over ({winner} has scored): no move is legal")]
    GameOver {
        /// Who scored.
        winner: Side,
    },
    /// A point the board does not have.
    #[error("{point} is not a point of the {cols}x{rows} board")]
    Outside {
        /// The point.
        point: Point,
        /// Board columns.
        cols: u8,
        /// Board rows.
        rows: u8,
    },
    /// A placement on an off-board strip.
    #[error("cannot place a man on {0}: it is off the board")]
    PlaceOffBoard(Point),
    /// A placement on a man.
    #[error("cannot place a man on {0}: a man is already there")]
    Occupied(Point),
    /// A placement on the ball.
    #[error("cannot place a man on {0}: the ball is there")]
    OnBall(Point),
    /// A jump path that does not start at the ball.
    #[error("a jump must start at the ball on {ball}, not at {start}")]
    NotFromBall {
        /// Where the ball is.
        ball: Point,
        /// Where the path starts.
        start: Point,
    },
    /// A jump path of fewer than two points.
    #[error("a jump move needs the ball's point and at least one landing point")]
    EmptyJump,
    /// A step that is not along one of the 8 lines.
    #[error("{from}-{to} is not a jump: the points are not on one line")]
    NotALine {
        /// From.
        from: Point,
        /// To.
        to: Point,
    },
    /// A step whose in-between points are not all men.
    #[error("{from}-{to} is not a jump: {gap} holds no man")]
    Gap {
        /// From.
        from: Point,
        /// To.
        to: Point,
        /// The first in-between point that holds no man.
        gap: Point,
    },
    /// A step onto a man.
    #[error("{from}-{to} is not a jump: the ball would land on a man at {to}")]
    LandsOnMan {
        /// From.
        from: Point,
        /// To.
        to: Point,
    },
    /// A step of length one.
    #[error("{from}-{to} is not a jump: the ball must pass over at least one man")]
    NoManJumped {
        /// From.
        from: Point,
        /// To.
        to: Point,
    },
    /// A jump after the ball has landed off the board.
    #[error("the ball landed off the board on {0}: the move ends there")]
    AfterOffBoard(Point),
    /// A placement while a step-by-step jump move is under way.
    #[error("a jump move is under way: jump on or end the turn")]
    JumpInProgress,
}

/// The distinct-outcome search stopped because it would need more than its limit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Error)]
#[error("more than {limit} distinct jump outcomes: the search stopped at its memory bound")]
pub struct TooManyOutcomesError {
    /// The limit that was reached.
    pub limit: usize,
}
