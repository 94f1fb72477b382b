//! The network's inputs (docs/network.md, "Inputs"): the position seen from
//! the side to move, whose goal is "up". Each man and the ball is a sparse
//! feature (a 1) at its square index in the mover's frame; the three dense
//! features are the hand evaluation's terms divided by 100.

use phutball::{BoardSize, Budget, Position, Side};

use super::NetworkError;
use crate::eval::{terms, Terms};

/// The number of inputs of a network for `size`: `2 * C * R + 3`.
pub(crate) fn input_count(size: BoardSize) -> usize {
    dense_start(size) + 3
}

/// The index of the first dense input for `size`: `2 * C * R`.
pub(crate) fn dense_start(size: BoardSize) -> usize {
    2 * usize::from(size.cols()) * usize::from(size.rows())
}

/// Calls `f` with the index of every sparse feature of `pos` (not
/// finished: its ball stands on the board), in increasing order: the men's
/// square indices in the mover's frame, row by row from the mover's own
/// goal line, then `C * R` plus the ball's. No allocation: the network's
/// first layer adds each row of weights as it comes.
pub(crate) fn for_each_sparse(pos: &Position, mut f: impl FnMut(usize)) {
    let size = pos.size();
    let (cols, rows) = (usize::from(size.cols()), size.rows());
    // Row `row` of the board is row `frame(row)` of the mover's frame.
    let flipped = pos.to_move() == Side::Eks;
    let frame = |row: u8| if flipped { rows + 1 - row } else { row };
    let men = pos.men();
    for frame_row in 1..=rows {
        let mut bits = men.row_bits(frame(frame_row));
        let first = usize::from(frame_row - 1) * cols;
        while bits != 0 {
            f(first + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
    let ball = pos.ball();
    // A position in play has its ball strictly between the goal lines.
    if (1..=rows).contains(&ball.row()) {
        let frame_row = usize::from(frame(ball.row()) - 1);
        f(cols * usize::from(rows) + frame_row * cols + usize::from(ball.col()));
    }
}

/// The dense inputs: the three terms divided by 100.
pub(crate) fn dense(terms: Terms) -> [f32; 3] {
    // The terms are a few thousand at most: exact in an f32.
    [terms.here, terms.my_gain, terms.their_gain].map(|t| t as f32 / 100.0)
}

/// The inputs of the network for one position (docs/network.md, "Inputs"):
/// the indices of its sparse features, in increasing order, and its three
/// dense features. Made by [`Network::features`](crate::Network::features).
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    sparse: Vec<u32>,
    dense: [f32; 3],
}

impl Features {
    /// The features of `pos` (not finished), the jumps of its dense terms
    /// looked for within `budget` (and the evaluation's own caps).
    pub(crate) fn of(pos: &Position, budget: &Budget<'_>) -> Result<Features, NetworkError> {
        if let Some(winner) = pos.winner() {
            return Err(NetworkError::Finished { winner });
        }
        let mut sparse = Vec::with_capacity(pos.men().count() as usize + 1);
        // Indices are below 2 * 25 * 25.
        for_each_sparse(pos, |i| sparse.push(i as u32));
        Ok(Features {
            sparse,
            dense: dense(terms(pos, budget)),
        })
    }

    /// The indices of the sparse features present (each a 1), in
    /// increasing order: a square index (`0 .. C * R`) for every man, then
    /// `C * R` plus the ball's.
    pub fn sparse(&self) -> &[u32] {
        &self.sparse
    }

    /// The dense features, inputs `2 * C * R` to `2 * C * R + 2`: the
    /// ball's progress, the mover's jump gain and the opponent's, each in
    /// rows (the hand evaluation's terms divided by 100).
    pub fn dense(&self) -> [f32; 3] {
        self.dense
    }
}

#[cfg(test)]
// The dense features are exact: small integers divided by 100.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    /// A 5x7 board: ball C4 (the centre row), men C5 and B3. Ohs to move
    /// can jump C4-C6 (two rows up), Eks to move C4-A2 (two rows down).
    fn two_jumps(side: char) -> Position {
        format!("5/5/2#2/2@2/1#3/5/5 {side}").parse().unwrap()
    }

    #[test]
    fn the_sparse_features_are_square_indices_in_the_movers_frame() {
        // Ohs's frame is the board's: C5 is (5 - 1) * 5 + 2 = 22, B3 is
        // (3 - 1) * 5 + 1 = 11, the ball on C4 is 35 + (4 - 1) * 5 + 2 = 52.
        let ohs = Features::of(&two_jumps('O'), &Budget::default()).unwrap();
        assert_eq!(ohs.sparse(), [11, 22, 52]);
        // Eks's frame turns the rows over (row' = 8 - row): C5 is on row'
        // 3, 2 * 5 + 2 = 12; B3 on row' 5, 4 * 5 + 1 = 21; C4 stays on row' 4.
        let eks = Features::of(&two_jumps('X'), &Budget::default()).unwrap();
        assert_eq!(eks.sparse(), [12, 21, 52]);
    }

    #[test]
    fn the_dense_features_are_the_terms_in_rows() {
        // Ball on the centre row: here = 0. The mover's best jump gains two
        // rows (C6 for Ohs, A2 for Eks), and so would the opponent's.
        for side in ['O', 'X'] {
            let features = Features::of(&two_jumps(side), &Budget::default()).unwrap();
            assert_eq!(features.dense(), [0.0, 2.0, 2.0], "{side}");
        }
        // Ball on H15, no men, Ohs to move: five rows up, no jumps.
        let pos: Position = "15/15/15/15/7@7/15/15/15/15/15/15/15/15/15/15/15/15/15/15 O"
            .parse()
            .unwrap();
        let features = Features::of(&pos, &Budget::default()).unwrap();
        assert_eq!(features.dense(), [5.0, 0.0, 0.0]);
        assert_eq!(features.sparse(), [285 + 14 * 15 + 7]);
        let eks = Features::of(&pos.end_turn(), &Budget::default()).unwrap();
        assert_eq!(eks.dense(), [-5.0, 0.0, 0.0]);
        assert_eq!(eks.sparse(), [285 + 4 * 15 + 7]);
    }

    #[test]
    fn a_position_turned_over_with_the_sides_swapped_has_the_same_features() {
        // flip_rows turns the board top to bottom and gives the move to the
        // other side: the mover sees the same board in its own frame.
        let positions = [
            two_jumps('O'),
            two_jumps('X'),
            "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O"
                .parse()
                .unwrap(),
        ];
        for pos in positions {
            let turned = pos.flip_rows();
            assert_eq!(turned.to_move(), pos.to_move().opponent());
            assert_eq!(
                Features::of(&turned, &Budget::default()),
                Features::of(&pos, &Budget::default()),
                "{pos}"
            );
        }
    }

    #[test]
    fn a_finished_position_has_no_features() {
        let pos: Position = "5/5/5/5/5/5/2@2 O".parse().unwrap();
        assert_eq!(
            Features::of(&pos, &Budget::default()),
            Err(NetworkError::Finished { winner: Side::Eks })
        );
    }

    #[test]
    fn the_inputs_number_two_per_point_and_three() {
        assert_eq!(input_count(BoardSize::STANDARD), 573);
        assert_eq!(dense_start("5x7".parse().unwrap()), 70);
    }
}
