#![doc = include_str!("../README.md")]
//!
//! ## Source layout
//!
//! The source is in folders by idea: `board` (points, bitboards, sizes, the
//! mailbox), `rules` (rule options, positions, moves as values), `jumps` (the
//! jump walk and what is built on it), `can_score`, `step` (playing moves,
//! step-by-step play, games) and `text` (notation, diagrams, SVG, planes),
//! with the budget, the errors, the random generator, the small boards and
//! the fixture reader at the top; everything public is re-exported here.
//!
//! The modules form layers, each importing only from those below it
//! (`tests/layering.rs` fails on a loop): the random generator, then
//! `board` (value types that know no errors), then the errors, then the
//! budget and `rules`, and the other ideas above them. A method that needs
//! a higher layer is implemented there: `BoardSize::new`, which returns
//! `InvalidPositionError`, is in `error.rs`, and `SplitMix64::side` in
//! `board/point.rs`.
//!
//! An error type that one idea raises lives in that idea's module, and
//! those that several ideas raise (`ParseError`, `InvalidPositionError`,
//! `IllegalMoveError`, `TooManyOutcomesError`) live in `error.rs`; all are
//! public at the crate root, except the fixture reader's, in `fixtures`.
//!
//! ## Cargo features
//!
//! - `test-support` (off by default): the module `error_examples`, one
//!   value of every error variant and the checks of the wrappers' documented
//!   error tables, and the macro `assert_every_variant` (an example of
//!   every variant), for tests; not part of the stable interface.
//! - `fixtures` (off by default): the module `fixtures`, the reader of the
//!   project's fixture files (`tests/data`), for the tests, benchmarks,
//!   fuzz targets and the CLI's `count`, which turn it on.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod board;
mod budget;
mod can_score;
mod error;
#[cfg(feature = "test-support")]
pub mod error_examples;
#[cfg(feature = "fixtures")]
pub mod fixtures;
mod jobs;
mod jumps;
mod rng;
mod rules;
mod step;
mod text;

pub use board::bitboard::{Bitboard, Points};
pub use board::board_size::BoardSize;
pub use board::point::{Direction, Point, Side, MAX_COLS, MAX_ROWS, MIN_ROWS};
pub use budget::{Budget, Interrupt, SearchError, DEFAULT_MEMORY_LIMIT, POLL_INTERVAL};
pub use error::{
    quoted, IllegalMoveError, InvalidPositionError, ParseError, TooManyOutcomesError, QUOTE_LIMIT,
};
pub use jobs::default_jobs;
pub use jumps::jump::Jump;
pub use jumps::jump_in_progress::JumpInProgress;
pub use rng::{counter_rng, SplitMix64};
pub use rules::moves::Move;
pub use rules::options::Rules;
pub use rules::position::Position;
pub use step::actions::{Action, ActionError};
pub use step::episode::{Episode, EpisodeError, Transition};
pub use step::game::{Game, GameError, GameResult};
pub use step::perft::{perft, perft_within};
pub use step::state::StepState;
pub use text::byte_size::ByteSize;
pub use text::planes::PLANE_COUNT;
pub use text::svg::{
    svg_point_at, svg_point_centre, svg_width, SvgOptions, SvgWidthError, SVG_CELL, SVG_MARGIN,
    SVG_MAX_WIDTH,
};

/// The repository README's Rust examples, checked as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct RepositoryReadme;
