#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod actions;
mod bitboard;
mod board_size;
mod budget;
mod can_score;
mod diagram;
mod error;
#[doc(hidden)]
pub mod error_examples;
pub mod fixtures;
mod game;
mod jumps;
mod mailbox;
mod moves;
mod notation;
mod perft;
mod planes;
mod point;
mod position;
mod reach;
mod refute;
mod rng;
mod rules;
mod searched;
mod small_board;
mod state_set;
mod step;
mod svg;
mod threats;
mod walk;
mod zobrist;

pub use actions::{Action, ActionError};
pub use bitboard::{Bitboard, Points};
pub use board_size::BoardSize;
pub use budget::{Budget, Interrupt, SearchError, DEFAULT_MEMORY_LIMIT, POLL_INTERVAL};
pub use error::{
    GameError, IllegalMoveError, InvalidPositionError, ParseError, TooManyOutcomesError,
};

/// The old name of [`InvalidPositionError`].
#[deprecated(since = "0.2.0", note = "renamed `InvalidPositionError`")]
pub type InvalidPosition = InvalidPositionError;
/// The old name of [`IllegalMoveError`].
#[deprecated(since = "0.2.0", note = "renamed `IllegalMoveError`")]
pub type IllegalMove = IllegalMoveError;
/// The old name of [`TooManyOutcomesError`].
#[deprecated(since = "0.2.0", note = "renamed `TooManyOutcomesError`")]
pub type TooManyOutcomes = TooManyOutcomesError;
pub use game::{Game, GameResult};
pub use jumps::Jump;
pub use moves::Move;
#[allow(deprecated)]
pub use notation::side_name;
pub use perft::{perft, perft_within};
pub use planes::PLANE_COUNT;
pub use point::{Direction, Point, Side, MAX_COLS, MAX_ROWS, MIN_ROWS};
pub use position::Position;
pub use rng::SplitMix64;
pub use rules::Rules;
pub use small_board::{SmallBoard, SmallPosition, SmallScratch, MAX_SMALL_POINTS};
pub use step::{JumpInProgress, StepState};
pub use svg::{svg_width, SvgOptions, SvgWidthError, SVG_CELL, SVG_MAX_WIDTH};

/// The repository README's Rust examples, checked as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct RepositoryReadme;
