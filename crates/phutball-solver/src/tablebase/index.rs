//! States and their indices: which positions the table stores, and where.
//!
//! Only positions with Ohs to move are stored: a position with Eks to move
//! has the value of the same position turned top to bottom with the sides
//! swapped ([`phutball::Position::flip_rows`]), so storing both would
//! double the table and the work. Only positions not over are stored: the
//! ball is on a row strictly between the goal lines (a finished position's
//! value is the rules', `Win { plies: 0 }` or `Loss { plies: 0 }`).
//!
//! A state is the ball's point `b` (one of `cols * (rows - 2)`) and any set
//! of men on the other `P - 1` points (`P = cols * rows`); its index is
//! `slot(b) * 2^(P-1)` plus the men mask with the ball's bit squeezed out.

use phutball::{BoardSize, Position, Side};

use crate::error::SolverError;
use crate::small_board::{SmallBoard, SmallPosition};

/// The most points a tablebase's board may have: 32 points would take
/// 24 x 2^31 bytes (51 GiB) already, so this bound is about indices that
/// fit a `u64` with room to spare, not about what fits in memory (the
/// budget's memory limit decides that).
pub const MAX_TABLEBASE_POINTS: u32 = 32;

/// The states of one board under one off-board rule, and the map between
/// states, positions and indices.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub(crate) board: SmallBoard,
    /// Columns: the men-mask bits of one row.
    cols: u8,
    /// Bits of a men mask without the ball: `P - 1`.
    men_bits: u32,
    /// The number of states: `cols * (rows - 2) * 2^(P-1)`.
    states: u64,
}

impl Layout {
    /// The layout of `size` under `continue_off_board`.
    pub(crate) fn new(size: BoardSize, continue_off_board: bool) -> Result<Layout, SolverError> {
        let points = size.num_board_points();
        let too_large = SolverError::BoardTooLarge {
            cols: size.cols(),
            rows: size.rows(),
            points,
            max: MAX_TABLEBASE_POINTS,
        };
        if points > MAX_TABLEBASE_POINTS {
            return Err(too_large);
        }
        let board = SmallBoard::new(size, continue_off_board).ok_or(too_large)?;
        Ok(Layout {
            board,
            cols: size.cols(),
            men_bits: points - 1,
            states: Layout::count(size),
        })
    }

    /// The number of states of a board of `size` (at most [`MAX_TABLEBASE_POINTS`]).
    pub(crate) fn count(size: BoardSize) -> u64 {
        let balls = u64::from(size.cols()) * u64::from(size.rows() - 2);
        balls << (size.num_board_points() - 1)
    }

    /// The number of states.
    pub(crate) fn states(&self) -> u64 {
        self.states
    }

    /// The index of the state with the ball on `ball` (a cell strictly
    /// between the goal lines) and `men` (not on the ball), Ohs to move.
    #[inline(always)]
    pub(crate) fn index(&self, state: SmallPosition) -> usize {
        let bit = u32::from(state.ball - self.cols);
        let slot = bit - u32::from(self.cols);
        let low = (1u64 << bit) - 1;
        let men = (state.men & low) | ((state.men >> 1) & !low);
        ((u64::from(slot) << self.men_bits) | men) as usize
    }

    /// The state of `index` (below [`Layout::states`]).
    #[inline(always)]
    pub(crate) fn state(&self, index: usize) -> SmallPosition {
        let index = index as u64;
        let slot = (index >> self.men_bits) as u32;
        let squeezed = index & ((1u64 << self.men_bits) - 1);
        let bit = slot + u32::from(self.cols);
        let low = (1u64 << bit) - 1;
        SmallPosition {
            ball: (bit + u32::from(self.cols)) as u8,
            men: (squeezed & low) | ((squeezed & !low) << 1),
        }
    }

    /// The index of a position the other side (Eks) is to move in, reached
    /// by a move from a state (or leading to one): the same position
    /// turned top to bottom, so that Ohs is to move. `None` if it is over.
    #[inline(always)]
    pub(crate) fn index_of_turned(&self, position: SmallPosition) -> Option<usize> {
        if self.board.winner_at(position.ball).is_some() {
            return None;
        }
        Some(self.index(self.board.flip_rows(position)))
    }

    /// The state of `pos` with Ohs to move (turned top to bottom if Eks is
    /// to move), or `None` if `pos` is over or not of this board and rule.
    pub(crate) fn state_of(&self, pos: &Position) -> Option<SmallPosition> {
        let small = self.board.encode(pos)?;
        if self.board.winner_at(small.ball).is_some() {
            return None;
        }
        Some(match pos.to_move() {
            Side::Ohs => small,
            Side::Eks => self.board.flip_rows(small),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_and_states_are_inverse_and_cover_the_range() {
        for (cols, rows) in [(1, 3), (1, 7), (3, 3), (2, 5), (4, 4)] {
            let size = BoardSize::new(cols, rows).unwrap();
            let layout = Layout::new(size, false).unwrap();
            let states = layout.states() as usize;
            for index in 0..states {
                let state = layout.state(index);
                assert!(layout.board.winner_at(state.ball).is_none(), "{state:?}");
                let ball = layout.board.point(state.ball).unwrap();
                assert_eq!(state.men >> layout.board.bit(ball).unwrap() & 1, 0);
                assert_eq!(state.men & !layout.board.board_mask(), 0);
                assert_eq!(layout.index(state), index, "{cols}x{rows} {state:?}");
            }
        }
    }

    #[test]
    fn boards_past_the_largest_are_refused() {
        let size = BoardSize::new(5, 7).unwrap();
        assert_eq!(
            Layout::new(size, false).unwrap_err(),
            SolverError::BoardTooLarge {
                cols: 5,
                rows: 7,
                points: 35,
                max: MAX_TABLEBASE_POINTS
            }
        );
        assert_eq!(Layout::count(BoardSize::new(1, 3).unwrap()), 4);
        assert_eq!(Layout::count(BoardSize::new(4, 4).unwrap()), 8 << 15);
    }
}
