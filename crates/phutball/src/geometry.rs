//! Board sizes, and the padded mailbox layout the jump search runs on.

use core::fmt;

use crate::bitboard::Bitboard;
use crate::error::InvalidPosition;
use crate::point::{Point, MAX_COLS, MAX_ROWS, MIN_ROWS};

/// A board size: `cols` columns (1 to 25) and `rows` rows from goal line to
/// goal line (3 to 25). Rows `0` and `rows + 1` are the off-board strips.
///
/// ```
/// use phutball::BoardSize;
/// let s = BoardSize::STANDARD;
/// assert_eq!((s.cols(), s.rows()), (15, 19));
/// assert_eq!(s.centre().to_string(), "H10");
/// assert!(BoardSize::new(26, 19).is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardSize {
    cols: u8,
    rows: u8,
}

impl BoardSize {
    /// The standard board: 15 columns (A to P without I), 19 rows.
    pub const STANDARD: BoardSize = BoardSize { cols: 15, rows: 19 };

    /// A board of `cols` columns and `rows` rows, if the project supports it.
    pub const fn new(cols: u8, rows: u8) -> Result<BoardSize, InvalidPosition> {
        if cols == 0 || cols > MAX_COLS || rows < MIN_ROWS || rows > MAX_ROWS {
            Err(InvalidPosition::Size { cols, rows })
        } else {
            Ok(BoardSize { cols, rows })
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
    pub const fn centre(self) -> Point {
        match Point::new(self.cols.div_ceil(2) - 1, (self.rows + 1).div_ceil(2)) {
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

/// Zobrist tables serve both bitboard indices (< 896) and mailbox cells (< 1024).
const ZOBRIST_LEN: usize = 1024;

/// 64-bit keys for Zobrist hashing, one per bitboard index, plus one for Eks to move.
pub(crate) const ZOBRIST_POINTS: [u64; ZOBRIST_LEN] = {
    let mut keys = [0u64; ZOBRIST_LEN];
    let mut state: u64 = 0x5048_5554_4241_4c4c; // "PHUTBALL"
    let mut i = 0;
    while i < keys.len() {
        keys[i] = splitmix64(&mut state);
        i += 1;
    }
    keys
};

/// Separate keys for the ball, so a man and the ball on one point differ.
pub(crate) const ZOBRIST_BALL: [u64; ZOBRIST_LEN] = {
    let mut keys = [0u64; ZOBRIST_LEN];
    let mut state: u64 = 0x0b41_1b41_1b41_1b41;
    let mut i = 0;
    while i < keys.len() {
        keys[i] = splitmix64(&mut state);
        i += 1;
    }
    keys
};

/// Key toggled when Eks is to move.
pub(crate) const ZOBRIST_EKS: u64 = 0x9e37_79b9_7f4a_7c15;

const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Cell contents in the mailbox.
pub(crate) const EMPTY: u8 = 0;
pub(crate) const MAN: u8 = 1;
pub(crate) const OUTSIDE: u8 = 2;

/// Cell flags: the ball's move ends here under the default rule.
pub(crate) const FLAG_OFF_BOARD: u8 = 1;
/// Cell flags: Ohs has scored if a move ends here.
pub(crate) const FLAG_OHS_GOAL: u8 = 2;
/// Cell flags: Eks has scored if a move ends here.
pub(crate) const FLAG_EKS_GOAL: u8 = 4;

/// Mailbox cells: (rows + 4) strides of (cols + 1) need at most 30 x 26 + 2;
/// a power of two lets the hot loops index with `cell & MAILBOX_MASK` and no bounds check.
pub(crate) const MAILBOX_LEN: usize = 1024;
pub(crate) const MAILBOX_MASK: usize = MAILBOX_LEN - 1;
const _: () = assert!((MAX_ROWS as usize + 5) * (MAX_COLS as usize + 1) + 2 <= MAILBOX_LEN);

/// A padded array of the board for the jump search: one sentinel column
/// (shared by the left and right edges) and one sentinel row beyond each
/// off-board strip, so that a walk along a line of men stops without bounds checks.
#[derive(Clone)]
pub(crate) struct Mailbox {
    pub cells: [u8; MAILBOX_LEN],
    pub flags: [u8; MAILBOX_LEN],
    pub stride: usize,
    /// Offsets of the 8 directions: N, NE, E, SE, S, SW, W, NW.
    pub dirs: [usize; 8],
}

impl Mailbox {
    /// The mailbox of `men` on a board of `size`.
    pub fn new(size: BoardSize, men: Bitboard) -> Mailbox {
        let stride = size.cols as usize + 1;
        let mut cells = [OUTSIDE; MAILBOX_LEN];
        let mut flags = [0u8; MAILBOX_LEN];
        for row in 0..=size.rows + 1 {
            let bits = men.row_bits(row);
            let mut flag = 0;
            if size.is_off_board_row(row) {
                flag |= FLAG_OFF_BOARD;
            }
            if row >= size.rows {
                flag |= FLAG_OHS_GOAL;
            }
            if row <= 1 {
                flag |= FLAG_EKS_GOAL;
            }
            let base = (row as usize + 1) * stride + 1;
            for col in 0..size.cols as usize {
                cells[base + col] = if bits >> col & 1 != 0 { MAN } else { EMPTY };
                flags[base + col] = flag;
            }
        }
        let s = stride;
        let dirs = [
            s,
            s + 1,
            1,
            (1usize).wrapping_sub(s),
            0usize.wrapping_sub(s),
            0usize.wrapping_sub(s + 1),
            usize::MAX,
            s - 1,
        ];
        Mailbox {
            cells,
            flags,
            stride,
            dirs,
        }
    }

    /// The cell of point `p` (which must be on this board, strips included).
    #[inline]
    pub fn cell(&self, p: Point) -> usize {
        (p.row() as usize + 1) * self.stride + p.col() as usize + 1
    }

    /// The point of cell `cell`.
    #[inline]
    pub fn point(&self, cell: usize) -> Point {
        let row = cell / self.stride - 1;
        let col = cell % self.stride - 1;
        match Point::new(col as u8, row as u8) {
            Some(p) => p,
            None => unreachable!("cells of the mailbox are points of the board"),
        }
    }
}
