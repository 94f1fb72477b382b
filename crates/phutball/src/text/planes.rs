//! The board as planes of numbers for neural networks: the observation of
//! step-by-step play, shared by the Python `planes()` and the batched games.
//!
//! The layout is in the docs of [`StepState::planes`].

use crate::board::board_size::BoardSize;
use crate::board::point::Side;
use crate::step::state::StepState;

/// The number of channels of [`StepState::planes`].
pub const PLANE_COUNT: usize = 5;

impl BoardSize {
    /// The number of values of [`StepState::planes`] on this board:
    /// `PLANE_COUNT * (rows + 2) * cols`.
    pub fn planes_len(self) -> usize {
        PLANE_COUNT * (self.rows() as usize + 2) * self.cols() as usize
    }
}

impl StepState {
    /// The planes of this state: for a board of `C` columns and `R` rows,
    /// [`PLANE_COUNT`] planes of `R + 2` rows (the strips included, row 0
    /// first) by `C` columns, channel-major, each value 0 or 1:
    ///
    /// | channel | ones where |
    /// |---|---|
    /// | 0 | a man stands |
    /// | 1 | the ball is |
    /// | 2 | everywhere when Ohs is to move |
    /// | 3 | everywhere during a jump move |
    /// | 4 | a man may stand (rows 1 to R) |
    ///
    /// With `relative` the board is turned top to bottom when Eks is to
    /// move, so the side to move always attacks the top (channel 2 still
    /// says who is to move).
    pub fn planes(&self, relative: bool) -> Vec<f32> {
        let mut planes = vec![0.0; self.position().size().planes_len()];
        self.write_planes(relative, &mut planes);
        planes
    }

    /// [`StepState::planes`] written into `out`, without allocating.
    ///
    /// # Panics
    /// If `out` does not have [`BoardSize::planes_len`] values.
    pub fn write_planes(&self, relative: bool, out: &mut [f32]) {
        let pos = self.position();
        let size = pos.size();
        assert_eq!(
            out.len(),
            size.planes_len(),
            "the planes of this board have {} values",
            size.planes_len()
        );
        let (cols, rows) = (size.cols() as usize, size.rows() as usize);
        let plane = (rows + 2) * cols;
        let turned = relative && pos.to_move() == Side::Eks;
        // The row of the planes that shows board row `row`.
        let shown = |row: usize| if turned { rows + 1 - row } else { row };
        // Each value is written once: a batch writes megabytes a step.
        let (men, rest) = out.split_at_mut(plane);
        for row in 0..rows + 2 {
            let bits = pos.men().row_bits(row as u8);
            let values = &mut men[shown(row) * cols..][..cols];
            for (col, value) in values.iter_mut().enumerate() {
                *value = ((bits >> col) & 1) as f32;
            }
        }
        let (ball, rest) = rest.split_at_mut(plane);
        ball.fill(0.0);
        let b = pos.ball();
        ball[shown(b.row() as usize) * cols + b.col() as usize] = 1.0;
        let (ohs, rest) = rest.split_at_mut(plane);
        ohs.fill(f32::from(u8::from(pos.to_move() == Side::Ohs)));
        let (jump, board) = rest.split_at_mut(plane);
        jump.fill(f32::from(u8::from(self.is_mid_jump())));
        // Rows 1 to R, the same turned or not; the strips are not the board.
        board.fill(1.0);
        board[..cols].fill(0.0);
        board[plane - cols..].fill(0.0);
    }
}

#[cfg(test)]
// Plane values are exactly 0.0 or 1.0, and sums of them small integers.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;
    use crate::rules::position::Position;

    #[test]
    fn planes_mark_men_ball_side_jump_and_board() {
        let pos: Position = "3/3/1#1/1@1/3 X".parse().unwrap();
        let size = pos.size();
        assert_eq!(size.planes_len(), 5 * 7 * 3);
        let plane = 21;
        let planes = StepState::from(pos).planes(false);
        let value =
            |channel: usize, row: usize, col: usize| planes[channel * plane + row * 3 + col];
        let sum = |planes: &[f32], channel: usize| -> f32 {
            planes[channel * plane..(channel + 1) * plane].iter().sum()
        };
        assert_eq!((value(0, 3, 1), sum(&planes, 0)), (1.0, 1.0), "the man");
        assert_eq!((value(1, 2, 1), sum(&planes, 1)), (1.0, 1.0), "the ball");
        assert_eq!(sum(&planes, 2), 0.0, "Eks to move");
        assert_eq!(sum(&planes, 3), 0.0, "no jump");
        assert_eq!(sum(&planes, 4), 15.0);
        assert_eq!(value(4, 0, 0) + value(4, 6, 2), 0.0, "the strips");
        let turned = StepState::from(pos).planes(true);
        assert_eq!(
            turned[plane + 4 * 3 + 1],
            1.0,
            "the ball on row 4 when turned"
        );
        assert_eq!(turned[plane + 2 * 3 + 1], 0.0, "not on row 2");
        assert_eq!(turned[3 * 3 + 1], 1.0, "the man on the middle row stays");
        let jump = StepState::from(pos.apply_jump("B4".parse().unwrap()).unwrap());
        assert_eq!(sum(&jump.planes(false), 3), 21.0);
    }
}
