//! Board sizes: how many columns and rows, and which rows are goal lines
//! and off-board strips. The constructors that return an error,
//! `BoardSize::new` and `TryFrom<(i64, i64)>`, are in `error.rs`, next to
//! [`InvalidPositionError::Size`](crate::InvalidPositionError::Size): the
//! board's value types are below the errors (lib.rs, "Source layout").

use core::fmt;

use crate::board::bitboard::Bitboard;
use crate::board::point::{Point, MAX_COLS, MAX_ROWS, MIN_ROWS};

/// A board size: `cols` columns (1 to 25) and `rows` rows from goal line to
/// goal line (3 to 25). Rows `0` and `rows + 1` are the off-board strips.
///
/// ```
/// use phutball::BoardSize;
/// let s = BoardSize::STANDARD;
/// assert_eq!((s.cols(), s.rows()), (15, 19));
/// assert_eq!(s.centre().to_string(), "H10");
/// assert!(BoardSize::new(26, 19).is_err());
/// assert_eq!("15x19".parse::<BoardSize>()?, s);
/// assert!("26x19".parse::<BoardSize>().is_err());
/// # Ok::<(), phutball::ParseError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardSize {
    cols: u8,
    rows: u8,
}

impl BoardSize {
    /// The standard board: 15 columns (A to P without I), 19 rows.
    pub const STANDARD: BoardSize = BoardSize { cols: 15, rows: 19 };

    /// A board of `cols` columns and `rows` rows, if the project supports
    /// it: what [`BoardSize::new`] checks, without its error.
    pub(crate) const fn checked(cols: u8, rows: u8) -> Option<BoardSize> {
        if cols == 0 || cols > MAX_COLS || rows < MIN_ROWS || rows > MAX_ROWS {
            None
        } else {
            Some(BoardSize { cols, rows })
        }
    }

    /// Number of columns.
    pub const fn cols(self) -> u8 {
        self.cols
    }

    /// Number of rows between and including the goal lines.
    pub const fn rows(self) -> u8 {
        self.rows
    }

    /// Whether `p` exists on this board, off-board strips included.
    pub const fn contains(self, p: Point) -> bool {
        p.col() < self.cols && p.row() <= self.rows + 1
    }

    /// Whether `p` is a point men may stand on (rows `1..=rows`).
    pub const fn is_on_board(self, p: Point) -> bool {
        p.col() < self.cols && p.row() >= 1 && p.row() <= self.rows
    }

    /// The default start point of the ball: the centre, rounded up.
    // The expect states an invariant (sizes and rules are validated), no input breaks it.
    #[allow(clippy::missing_panics_doc)]
    pub const fn centre(self) -> Point {
        // Column (C + 1) / 2 rounded up, counted from 1: index C / 2.
        match Point::new(self.cols / 2, (self.rows + 1).div_ceil(2)) {
            Some(p) => p,
            None => panic!("board sizes are validated"),
        }
    }

    /// The points men may stand on.
    pub const fn board_points(self) -> Bitboard {
        Bitboard::rectangle(self.cols, 1, self.rows)
    }

    /// Number of points men may stand on.
    pub const fn num_board_points(self) -> u32 {
        self.cols as u32 * self.rows as u32
    }

    /// The side that scores when the ball ends a move on row `row`, if any.
    pub const fn scorer_at_row(self, row: u8) -> Option<crate::Side> {
        if row >= self.rows {
            Some(crate::Side::Ohs)
        } else if row <= 1 {
            Some(crate::Side::Eks)
        } else {
            None
        }
    }

    /// Whether row `row` is an off-board strip.
    pub const fn is_off_board_row(self, row: u8) -> bool {
        row == 0 || row == self.rows + 1
    }
}

impl Default for BoardSize {
    fn default() -> Self {
        BoardSize::STANDARD
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.cols, self.rows)
    }
}
