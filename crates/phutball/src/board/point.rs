//! Points of the board and the two sides.

use core::fmt;

use crate::rng::SplitMix64;

/// Column letters, `A` to `Z` without `I` (25 columns at most).
pub(crate) const COLUMN_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The largest number of columns a board may have.
pub const MAX_COLS: u8 = 25;
/// The largest number of rows (goal line to goal line) a board may have.
pub const MAX_ROWS: u8 = 25;
/// The smallest number of rows a board may have.
pub const MIN_ROWS: u8 = 3;

/// One of the 8 directions a jump (or a line of men) may take. North is
/// towards the top row (Ohs's goal), east towards the last column.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Up a column, towards Ohs's goal.
    North,
    /// Up and right.
    NorthEast,
    /// Along a row, towards the last column.
    East,
    /// Down and right.
    SouthEast,
    /// Down a column, towards Eks's goal.
    South,
    /// Down and left.
    SouthWest,
    /// Along a row, towards column A.
    West,
    /// Up and left.
    NorthWest,
}

impl Direction {
    /// The 8 directions clockwise from north: the order in which the core
    /// lists single jumps and jump paths.
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
    ];

    /// One step as `(columns, rows)`, each -1, 0 or 1.
    ///
    /// ```
    /// use phutball::Direction;
    /// assert_eq!(Direction::North.offset(), (0, 1));
    /// assert_eq!(Direction::SouthWest.offset(), (-1, -1));
    /// ```
    pub const fn offset(self) -> (i32, i32) {
        match self {
            Direction::North => (0, 1),
            Direction::NorthEast => (1, 1),
            Direction::East => (1, 0),
            Direction::SouthEast => (1, -1),
            Direction::South => (0, -1),
            Direction::SouthWest => (-1, -1),
            Direction::West => (-1, 0),
            Direction::NorthWest => (-1, 1),
        }
    }
}

/// A point: a column (0-based, `A` is 0, `I` is skipped) and a row as written
/// in notation (`0` and `R + 1` are the off-board strips, `1` and `R` the goal lines).
///
/// A `Point` does not know the board size; [`BoardSize::contains`](crate::BoardSize::contains)
/// says whether a board has it.
///
/// ```
/// use phutball::Point;
/// let p: Point = "H10".parse()?;
/// assert_eq!((p.col(), p.row()), (7, 10));
/// assert_eq!(p.to_string(), "H10");
/// assert!("I5".parse::<Point>().is_err());
/// // Debug prints the notation too, so `assert_eq!` failures and `{:?}` of
/// // moves and sets of points read as the game does.
/// assert_eq!(format!("{p:?}"), "H10");
/// # Ok::<(), phutball::ParseError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    row: u8,
    col: u8,
}

impl Point {
    /// The point at `col` (0-based) and `row` (notation row), if any board could have it.
    pub const fn new(col: u8, row: u8) -> Option<Point> {
        if col < MAX_COLS && row <= MAX_ROWS + 1 {
            Some(Point { row, col })
        } else {
            None
        }
    }

    /// The column, 0-based (`A` = 0, `H` = 7, `J` = 8).
    pub const fn col(self) -> u8 {
        self.col
    }

    /// The row as written in notation.
    pub const fn row(self) -> u8 {
        self.row
    }

    /// The column letter.
    pub const fn column_letter(self) -> char {
        COLUMN_LETTERS[self.col as usize] as char
    }

    /// The point `d_col` columns and `d_row` rows away, if any board could have it.
    pub const fn offset(self, d_col: i32, d_row: i32) -> Option<Point> {
        let c = self.col as i32 + d_col;
        let r = self.row as i32 + d_row;
        if c < 0 || r < 0 || c >= MAX_COLS as i32 || r > MAX_ROWS as i32 + 1 {
            None
        } else {
            Some(Point {
                row: r as u8,
                col: c as u8,
            })
        }
    }

    /// The next point in `direction`, if any board could have it.
    ///
    /// ```
    /// use phutball::{Direction, Point};
    /// let h10: Point = "H10".parse()?;
    /// assert_eq!(h10.step(Direction::NorthEast), Some("J11".parse()?));
    /// assert_eq!("A1".parse::<Point>()?.step(Direction::West), None);
    /// # Ok::<(), phutball::ParseError>(())
    /// ```
    pub const fn step(self, direction: Direction) -> Option<Point> {
        let (d_col, d_row) = direction.offset();
        self.offset(d_col, d_row)
    }

    /// The index of this point in a [`Bitboard`](crate::Bitboard): `row * 32 + col`.
    pub const fn index(self) -> usize {
        self.row as usize * 32 + self.col as usize
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.column_letter(), self.row)
    }
}

impl fmt::Debug for Point {
    /// The notation, as `Display`: `H10`; a point in an off-board strip
    /// as notation writes it too (`H0`, `H20` on a 15 x 19 board).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A player: Ohs attacks the top (rows `R` and `R + 1`), Eks the bottom (rows 1 and 0).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Side {
    /// Ohs (`O`), who moves first by default and scores at the top.
    #[default]
    Ohs,
    /// Eks (`X`), who scores at the bottom.
    Eks,
}

impl Side {
    /// Both sides, Ohs first.
    pub const ALL: [Side; 2] = [Side::Ohs, Side::Eks];

    /// The other side.
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::Ohs => Side::Eks,
            Side::Eks => Side::Ohs,
        }
    }

    /// `"Ohs"` or `"Eks"`, the name every interface shows.
    ///
    /// ```
    /// assert_eq!(phutball::Side::Eks.name(), "Eks");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Side::Ohs => "Ohs",
            Side::Eks => "Eks",
        }
    }

    /// `'O'` or `'X'`.
    pub const fn char(self) -> char {
        match self {
            Side::Ohs => 'O',
            Side::Eks => 'X',
        }
    }

    /// The side for `'O'`/`'o'` or `'X'`/`'x'`.
    pub const fn from_char(c: char) -> Option<Side> {
        match c {
            'O' | 'o' => Some(Side::Ohs),
            'X' | 'x' => Some(Side::Eks),
            _ => None,
        }
    }
}

// Here rather than in rng.rs, so that the generator depends on nothing and
// the board's Zobrist keys can use it without a loop.
impl SplitMix64 {
    /// Ohs or Eks, with equal chances.
    pub fn side(&mut self) -> Side {
        if self.chance(1, 2) {
            Side::Ohs
        } else {
            Side::Eks
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

#[cfg(test)]
mod debug_tests {
    use super::*;
    use crate::rules::moves::Move;

    #[test]
    fn points_and_the_moves_holding_them_debug_in_notation() {
        let h10 = Point::new(7, 10).unwrap();
        assert_eq!(format!("{h10:?}"), "H10");
        // The strips: row 0 and row R + 1 of a 15 x 19 board.
        assert_eq!(format!("{:?}", Point::new(0, 0).unwrap()), "A0");
        assert_eq!(format!("{:?}", Point::new(14, 20).unwrap()), "P20");
        assert_eq!(format!("{:?}", Some(h10)), "Some(H10)");
        let jump: Move = "K6-G9-G11".parse().unwrap();
        assert_eq!(format!("{jump:?}"), "Jump([K6, G9, G11])");
        assert_eq!(format!("{:?}", Move::Place(h10)), "Place(H10)");
    }
}

#[cfg(test)]
mod direction_tests {
    use super::*;
    use crate::board::mailbox::{DIRECTION_OFFSETS, STRIDE};

    #[test]
    fn the_eight_directions_are_distinct_unit_steps_clockwise_from_north() {
        let offsets = Direction::ALL.map(Direction::offset);
        assert_eq!(
            offsets,
            [
                (0, 1),
                (1, 1),
                (1, 0),
                (1, -1),
                (0, -1),
                (-1, -1),
                (-1, 0),
                (-1, 1)
            ]
        );
        // The mailbox walks the same directions in the same order.
        let mailbox = [
            STRIDE,
            STRIDE + 1,
            1,
            1usize.wrapping_sub(STRIDE),
            0usize.wrapping_sub(STRIDE),
            0usize.wrapping_sub(STRIDE + 1),
            usize::MAX,
            STRIDE - 1,
        ];
        assert_eq!(DIRECTION_OFFSETS, mailbox);
        let centre = Point::new(5, 5).unwrap();
        for d in Direction::ALL {
            let (d_col, d_row) = d.offset();
            assert_eq!(centre.step(d), centre.offset(d_col, d_row));
        }
    }
}
