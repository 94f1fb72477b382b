//! Board sizes, and the padded mailbox layout the jump search runs on.

use core::fmt;

use crate::bitboard::Bitboard;
use crate::error::InvalidPosition;
use crate::point::{Direction, Point, MAX_COLS, MAX_ROWS, MIN_ROWS};
use crate::rng::SplitMix64;

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

    /// A board of `cols` columns and `rows` rows, if the project supports it.
    ///
    /// # Errors
    ///
    /// [`InvalidPosition::Size`] if `cols` or `rows` is outside the supported range.
    pub const fn new(cols: u8, rows: u8) -> Result<BoardSize, InvalidPosition> {
        if cols == 0 || cols > MAX_COLS || rows < MIN_ROWS || rows > MAX_ROWS {
            Err(InvalidPosition::Size {
                cols: cols as i64,
                rows: rows as i64,
            })
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

impl TryFrom<(i64, i64)> for BoardSize {
    type Error = InvalidPosition;

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
    fn try_from((cols, rows): (i64, i64)) -> Result<BoardSize, InvalidPosition> {
        match (u8::try_from(cols), u8::try_from(rows)) {
            (Ok(c), Ok(r)) => BoardSize::new(c, r),
            _ => Err(InvalidPosition::Size { cols, rows }),
        }
    }
}

/// Tables are `static`, not `const`: a `const` array is copied into every
/// function that indexes it in unoptimised builds, overflowing the stack of the
/// recursive walk.
/// Zobrist tables serve both bitboard indices (< 896) and mailbox cells (< 1024).
const ZOBRIST_LEN: usize = 1024;

/// 64-bit keys for Zobrist hashing, one per bitboard index, plus one for Eks to move.
pub(crate) static ZOBRIST_POINTS: [u64; ZOBRIST_LEN] = {
    let mut keys = [0u64; ZOBRIST_LEN];
    let mut rng = SplitMix64::new(0x5048_5554_4241_4c4c); // "PHUTBALL"
    let mut i = 0;
    while i < keys.len() {
        keys[i] = rng.next_u64();
        i += 1;
    }
    keys
};

/// Separate keys for the ball, so a man and the ball on one point differ.
pub(crate) static ZOBRIST_BALL: [u64; ZOBRIST_LEN] = {
    let mut keys = [0u64; ZOBRIST_LEN];
    let mut rng = SplitMix64::new(0x0b41_1b41_1b41_1b41);
    let mut i = 0;
    while i < keys.len() {
        keys[i] = rng.next_u64();
        i += 1;
    }
    keys
};

/// 128-bit keys per mailbox cell for the men and the ball, to fingerprint
/// search states: two distinct states of one search share a fingerprint with
/// probability about n^2 / 2^128 (below 10^-24 at the default outcome limit).
pub(crate) static FINGERPRINT_MEN: [u128; ZOBRIST_LEN] = wide_keys(0x4d45_4e4d_454e_4d45);
pub(crate) static FINGERPRINT_BALL: [u128; ZOBRIST_LEN] = wide_keys(0x4241_4c4c_4241_4c4c);

const fn wide_keys(seed: u64) -> [u128; ZOBRIST_LEN] {
    let mut keys = [0u128; ZOBRIST_LEN];
    let mut rng = SplitMix64::new(seed);
    let mut i = 0;
    while i < keys.len() {
        let high = rng.next_u64() as u128;
        keys[i] = high << 64 | rng.next_u64() as u128;
        i += 1;
    }
    keys
}

/// Key toggled when Eks is to move.
pub(crate) const ZOBRIST_EKS: u64 = 0x9e37_79b9_7f4a_7c15;

/// Cell contents in the mailbox.
pub(crate) const EMPTY: u8 = 0;
pub(crate) const MAN: u8 = 1;
pub(crate) const OUTSIDE: u8 = 2;
/// A vacant point of an off-board strip where, under the default rule, the move ends.
pub(crate) const STRIP_STOP: u8 = 3;

/// Cell flags: the point is on an off-board strip.
pub(crate) const FLAG_OFF_BOARD: u8 = 1;
/// Cell flags: Ohs has scored if a move ends here.
pub(crate) const FLAG_OHS_GOAL: u8 = 2;
/// Cell flags: Eks has scored if a move ends here.
pub(crate) const FLAG_EKS_GOAL: u8 = 4;

/// Mailbox rows are 32 cells wide (column `c` at offset `c + 1`, the rest
/// sentinels), so a cell splits into row and column with a shift and a mask.
pub(crate) const STRIDE: usize = 32;
/// Rows -1 ..= 27 fit in 29 strides; a power of two lets the hot loops index
/// with `cell & MAILBOX_MASK` and no bounds check.
pub(crate) const MAILBOX_LEN: usize = 1024;
pub(crate) const MAILBOX_MASK: usize = MAILBOX_LEN - 1;
const _: () =
    assert!((MAX_ROWS as usize + 4) * STRIDE <= MAILBOX_LEN && MAX_COLS as usize + 2 <= STRIDE);

/// Mailbox offsets of [`Direction::ALL`] (clockwise from north), as
/// wrapping `usize` steps: the hot loops add them to a cell and mask.
pub(crate) const DIRECTION_OFFSETS: [usize; 8] = {
    let mut offsets = [0usize; 8];
    let mut i = 0;
    while i < 8 {
        let (d_col, d_row) = Direction::ALL[i].offset();
        offsets[i] = (d_row as isize * STRIDE as isize + d_col as isize) as usize;
        i += 1;
    }
    offsets
};

/// A padded array of the board for the jump search: sentinel columns on both
/// sides and a sentinel row beyond each off-board strip, so that a walk along
/// a line of men stops without bounds checks; plus the men as one `u32` per
/// mailbox row, to read all 8 neighbours of a cell at once.
#[derive(Clone)]
pub(crate) struct Mailbox {
    pub cells: [u8; MAILBOX_LEN],
    pub flags: [u8; MAILBOX_LEN],
    /// Bit `c & 31` of `man_bits[c >> 5]` is set when cell `c` holds a man.
    pub man_bits: [u32; MAILBOX_LEN / STRIDE],
}

impl Mailbox {
    /// The mailbox of `men` on a board of `size`. When `stop_on_strips`, the
    /// vacant strip cells are marked [`STRIP_STOP`] (the default off-board rule).
    pub fn new(size: BoardSize, men: Bitboard, stop_on_strips: bool) -> Mailbox {
        let mut cells = [OUTSIDE; MAILBOX_LEN];
        let mut flags = [0u8; MAILBOX_LEN];
        let mut man_bits = [0u32; MAILBOX_LEN / STRIDE];
        for row in 0..=size.rows + 1 {
            let bits = men.row_bits(row);
            let mut flag = 0;
            let strip = size.is_off_board_row(row);
            if strip {
                flag |= FLAG_OFF_BOARD;
            }
            if row >= size.rows {
                flag |= FLAG_OHS_GOAL;
            }
            if row <= 1 {
                flag |= FLAG_EKS_GOAL;
            }
            let vacant = if strip && stop_on_strips {
                STRIP_STOP
            } else {
                EMPTY
            };
            let base = (row as usize + 1) * STRIDE + 1;
            man_bits[row as usize + 1] = bits << 1;
            for col in 0..size.cols as usize {
                cells[base + col] = if bits >> col & 1 != 0 { MAN } else { vacant };
                flags[base + col] = flag;
            }
        }
        Mailbox {
            cells,
            flags,
            man_bits,
        }
    }

    /// The cell of point `p` (which must be on this board, strips included).
    #[inline]
    // A method of the layout, though it is fixed today: callers need not know.
    #[allow(clippy::unused_self)]
    pub fn cell(&self, p: Point) -> usize {
        (p.row() as usize + 1) * STRIDE + p.col() as usize + 1
    }

    /// The point of cell `cell`.
    #[inline]
    // A method of the layout, though it is fixed today: callers need not know.
    #[allow(clippy::unused_self)]
    pub fn point(&self, cell: usize) -> Point {
        let row = (cell / STRIDE).wrapping_sub(1);
        let col = (cell % STRIDE).wrapping_sub(1);
        match Point::new(col as u8, row as u8) {
            Some(p) => p,
            None => unreachable!("cells of the mailbox are points of the board"),
        }
    }

    /// Removes (or puts back) the man on `cell`.
    #[inline(always)]
    pub fn set_man(&mut self, cell: usize, man: bool) {
        let cell = cell & MAILBOX_MASK;
        self.cells[cell] = if man { MAN } else { EMPTY };
        let bit = 1u32 << (cell % STRIDE);
        let row = &mut self.man_bits[cell / STRIDE];
        *row = if man { *row | bit } else { *row & !bit };
    }

    /// The 3 x 3 neighbourhood of `cell` as 9 bits: NW N NE (bits 0-2),
    /// W - E (bits 3-5), SW S SE (bits 6-8); set where a man stands.
    #[inline(always)]
    pub fn neighbourhood(&self, cell: usize) -> usize {
        let row = (cell / STRIDE) & (MAILBOX_LEN / STRIDE - 1);
        let shift = (cell % STRIDE).wrapping_sub(1) & 31;
        let above = (self.man_bits[(row + 1) & 31] >> shift) & 7;
        let level = (self.man_bits[row] >> shift) & 5;
        let below = (self.man_bits[row.wrapping_sub(1) & 31] >> shift) & 7;
        (above | level << 3 | below << 6) as usize
    }
}
