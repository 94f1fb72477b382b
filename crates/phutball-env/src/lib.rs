//! Phutball for reinforcement learning: [`VecEnv`] steps many games as one
//! batch on threads, writing observations, legal-action masks, rewards and
//! end flags into the caller's buffers. Each game is the core's
//! [`phutball::Episode`], which states the step and reward rule; this crate
//! adds the batching, the automatic restarts and the threads.
//!
//! ```
//! use phutball::{BoardSize, Position};
//! use phutball_env::{StepBuffers, VecEnv};
//! let size = BoardSize::new(9, 11)?;
//! let start = Position::start_with(size, phutball::Rules::default())?;
//! let mut env = VecEnv::new(start, 8, Some(50), 1, phutball::default_jobs())?;
//! let mut planes = vec![0.0; 8 * size.planes_len()];
//! let mut masks = vec![false; 8 * size.action_count()];
//! env.reset(None, &mut planes, &mut masks)?;
//! let (mut rewards, mut terminated, mut truncated) = ([0.0; 8], [false; 8], [false; 8]);
//! for _ in 0..100 {
//!     let actions = env.sample_actions();
//!     env.step(&actions, &mut StepBuffers {
//!         planes: &mut planes, masks: &mut masks, rewards: &mut rewards,
//!         terminated: &mut terminated, truncated: &mut truncated,
//!     })?;
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The Python package binds it as `phutball.VecEnv` (docs/python.md).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod blocks;
mod buffers;
mod error;
mod opponent;
mod vec_env;
mod workers;

pub use blocks::POLL_GAMES;
pub use buffers::{FinalObservation, StepBuffers};
pub use error::VecEnvError;
pub use opponent::Opponent;
pub use vec_env::{VecEnv, MIN_GAMES_PER_JOB};

/// The crate's README (its crates.io page): its example, checked as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct Readme;
