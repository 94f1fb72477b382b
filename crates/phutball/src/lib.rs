#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod board;
mod budget;
mod can_score;
mod error;
#[doc(hidden)]
pub mod error_examples;
pub mod fixtures;
mod jumps;
mod rng;
mod rules;
mod small_board;
mod step;
mod text;

pub use board::bitboard::{Bitboard, Points};
pub use board::board_size::BoardSize;
pub use board::point::{Direction, Point, Side, MAX_COLS, MAX_ROWS, MIN_ROWS};
pub use budget::{Budget, Interrupt, SearchError, DEFAULT_MEMORY_LIMIT, POLL_INTERVAL};
pub use error::{
    GameError, IllegalMoveError, InvalidPositionError, ParseError, TooManyOutcomesError,
};
pub use jumps::enumerate::Jump;
pub use rng::SplitMix64;
pub use rules::options::Rules;
pub use rules::position::Position;
pub use small_board::{SmallBoard, SmallPosition, SmallScratch, MAX_SMALL_POINTS};
pub use step::actions::{Action, ActionError};
pub use step::game::{Game, GameResult};
pub use step::moves::Move;
pub use step::perft::{perft, perft_within};
pub use step::state::{JumpInProgress, StepState};
#[allow(deprecated)]
pub use text::notation::side_name;
pub use text::planes::PLANE_COUNT;
pub use text::svg::{svg_width, SvgOptions, SvgWidthError, SVG_CELL, SVG_MAX_WIDTH};

/// The old name of [`InvalidPositionError`].
#[deprecated(since = "0.2.0", note = "renamed `InvalidPositionError`")]
pub type InvalidPosition = InvalidPositionError;
/// The old name of [`IllegalMoveError`].
#[deprecated(since = "0.2.0", note = "renamed `IllegalMoveError`")]
pub type IllegalMove = IllegalMoveError;
/// The old name of [`TooManyOutcomesError`].
#[deprecated(since = "0.2.0", note = "renamed `TooManyOutcomesError`")]
pub type TooManyOutcomes = TooManyOutcomesError;

/// The repository README's Rust examples, checked as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct RepositoryReadme;
