//! How many jobs a batch runs at once when its caller names no number.

use std::num::NonZeroUsize;

/// The jobs (threads) a batch uses when the caller does not say: every core
/// the system reports, or 1 if it cannot tell. The core runs no threads
/// itself; the engine's batches, the environments' `VecEnv` and the
/// solver's tablebase builds all take their default from here, so "every
/// core" means the same number everywhere.
///
/// ```
/// assert!(phutball::default_jobs() >= 1);
/// ```
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}
