//! Why the engine could not choose a move.

use phutball::{SearchError, Side};
use thiserror::Error;

/// The engine was given a position it cannot move in, or its caller stopped it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The game is over.
    #[error("the game is over ({winner} has scored): there is no move to choose")]
    Finished {
        /// The side that has scored.
        winner: Side,
    },
    /// A jump move is under way (step-by-step play): the engine chooses whole moves.
    #[error("a jump move is under way: the engine chooses whole moves, end the turn first")]
    MidJump,
    /// The side to move has no legal move (the board is full and no jump is possible).
    #[error("the side to move has no legal move")]
    NoLegalMove,
    /// The caller's budget (its cancel flag or interrupt hook, not the
    /// engine's own [`Limits`](crate::Limits)) stopped the search; the
    /// core's [`SearchError`] says how, and is the error's
    /// [`source`](std::error::Error::source).
    #[error("the search was stopped: {0}")]
    Interrupted(#[source] SearchError),
}

/// One value of every variant of [`EngineError`], for the wrappers' tests of
/// their error tables (see `phutball::error_examples`): the search stopped
/// once for each of the core's examples of a [`SearchError`].
#[doc(hidden)]
pub fn every_engine_error() -> Vec<EngineError> {
    let mut every = vec![
        EngineError::Finished { winner: Side::Ohs },
        EngineError::MidJump,
        EngineError::NoLegalMove,
    ];
    let stops = phutball::error_examples::every_error().search;
    every.extend(stops.into_iter().map(EngineError::Interrupted));
    every
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;

    #[test]
    fn an_interrupted_search_has_the_core_error_as_its_source() {
        let e = EngineError::Interrupted(SearchError::TimedOut);
        assert_eq!(e.to_string(), "the search was stopped: timed out");
        let source = e.source().expect("the core's error");
        assert_eq!(
            source.downcast_ref::<SearchError>(),
            Some(&SearchError::TimedOut)
        );
    }

    #[test]
    fn errors_of_the_engine_itself_have_no_source() {
        for e in every_engine_error() {
            let is_a_stop = matches!(e, EngineError::Interrupted(_));
            assert_eq!(e.source().is_some(), is_a_stop, "{e}");
        }
    }
}
