//! The board: points and sides, sets of points (bitboards), board sizes,
//! and the padded mailbox and Zobrist keys the searches run on.

pub(crate) mod bitboard;
pub(crate) mod board_size;
pub(crate) mod mailbox;
pub(crate) mod point;
pub(crate) mod zobrist;
