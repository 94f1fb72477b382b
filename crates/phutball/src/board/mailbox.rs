//! The padded mailbox layout the jump walk runs on: a board as an array of
//! cells with sentinels around it, cell flags for goals and strips, and the
//! men as one bit row per board row.

use crate::board::bitboard::Bitboard;
use crate::board::board_size::BoardSize;
use crate::board::point::{Direction, Point, MAX_COLS, MAX_ROWS};

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
        for row in 0..=size.rows() + 1 {
            let bits = men.row_bits(row);
            let mut flag = 0;
            let strip = size.is_off_board_row(row);
            if strip {
                flag |= FLAG_OFF_BOARD;
            }
            if row >= size.rows() {
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
            // Whole rows at once, then the men bit by bit: the per-cell loop
            // was most of the cost of a can-score on a sparse board.
            let cols = size.cols() as usize;
            let row_cells = &mut cells[base..base + cols];
            row_cells.fill(vacant);
            flags[base..base + cols].fill(flag);
            let mut rest = bits;
            while rest != 0 {
                row_cells[rest.trailing_zeros() as usize] = MAN;
                rest &= rest - 1;
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

    /// Where a jump from `ball` in direction `d` (a mailbox offset) lands,
    /// and what is there: the first cell past the run of men that starts
    /// next to `ball` (which must hold a man); [`OUTSIDE`] if no jump.
    #[inline(always)]
    pub fn landing(&self, ball: usize, d: usize) -> (usize, u8) {
        let mut landing = ball.wrapping_add(d).wrapping_add(d) & MAILBOX_MASK;
        let mut contents = self.cells[landing];
        while contents == MAN {
            landing = landing.wrapping_add(d) & MAILBOX_MASK;
            contents = self.cells[landing];
        }
        (landing, contents)
    }

    /// Removes (or puts back) the men jumped from `first` (next to the
    /// ball) up to `landing`, in direction `d`.
    #[inline(always)]
    pub fn set_run(&mut self, first: usize, landing: usize, d: usize, man: bool) {
        let mut c = first;
        while c != landing {
            self.set_man(c, man);
            c = c.wrapping_add(d) & MAILBOX_MASK;
        }
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
