//! Why the engine could not choose a move, and [`AnyError`]: any error of
//! the core or the engine.

use core::fmt::Debug;

#[cfg(feature = "test-support")]
use phutball::error_examples::variant_name;
use phutball::{
    ActionError, GameError, IllegalMoveError, InvalidPositionError, ParseError, SearchError, Side,
    TooManyOutcomesError,
};
use thiserror::Error;

use crate::net::NetworkError;

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
    /// The side to move has no legal move (the board is full and no jump is possible).
    #[error("the side to move has no legal move")]
    NoLegalMove,
    /// The caller's budget (its cancel flag or interrupt hook, not the
    /// engine's own [`Limits`](crate::Limits)) stopped the search; the
    /// core's [`SearchError`] says how, and is the error's
    /// [`source`](std::error::Error::source).
    #[error("the search was stopped: {0}")]
    Interrupted(#[source] SearchError),
    /// The engine's network cannot judge the position: it has no network
    /// of its board size ([`NetworkError::NotServed`], naming the sizes it
    /// has), checked as the search starts. The network's error is the
    /// [`source`](std::error::Error::source).
    #[error("the engine's network cannot judge this position: {0}")]
    Network(#[source] NetworkError),
}

/// Any error of the core or the engine, for code that handles them all in
/// one place: the C ABI gives each a status code and the Python module an
/// exception class, each in one function keyed on these types (the tables in
/// docs/c-api.md and docs/python.md). `From` each; its message and
/// [`source`](std::error::Error::source) are the wrapped error's.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AnyError {
    /// Text that is not valid notation.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A position that cannot exist.
    #[error(transparent)]
    InvalidPosition(#[from] InvalidPositionError),
    /// A move that is not legal.
    #[error(transparent)]
    IllegalMove(#[from] IllegalMoveError),
    /// A game record operation that failed.
    #[error(transparent)]
    Game(#[from] GameError),
    /// An action that cannot be taken.
    #[error(transparent)]
    Action(#[from] ActionError),
    /// A bounded search that gave up.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// More distinct jump outcomes than the limit.
    #[error(transparent)]
    TooManyOutcomes(#[from] TooManyOutcomesError),
    /// The engine could not choose a move.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// One value of every variant of [`EngineError`]: the search stopped once
/// for each of the core's examples of a [`SearchError`].
#[cfg(feature = "test-support")]
fn every_engine_error() -> Vec<EngineError> {
    let mut every = vec![
        EngineError::Finished { winner: Side::Ohs },
        EngineError::NoLegalMove,
        EngineError::Network(NetworkError::NotServed {
            size: phutball::BoardSize::new(9, 9).unwrap_or_default(),
            served: vec![phutball::BoardSize::STANDARD],
        }),
    ];
    let stops = phutball::error_examples::every_error().search;
    every.extend(stops.into_iter().map(EngineError::Interrupted));
    every
}

/// One value of every variant of every error [`AnyError`] holds, with its
/// name in the docs' tables (`ParseError::Empty`,
/// `EngineError::Interrupted(SearchError::TimedOut)`): test support for the
/// wrappers' error tables (see `phutball::error_examples`).
#[cfg(feature = "test-support")]
pub fn every_error_named() -> Vec<(String, AnyError)> {
    fn named<E: Debug + Into<AnyError>>(
        type_name: &'static str,
    ) -> impl Fn(E) -> (String, AnyError) {
        move |e| (variant_name(type_name, &e), e.into())
    }
    let every = phutball::error_examples::every_error();
    let mut all = vec![named("TooManyOutcomesError")(every.too_many_outcomes)];
    all.extend(every.parse.into_iter().map(named("ParseError")));
    all.extend(
        every
            .invalid_position
            .into_iter()
            .map(named("InvalidPositionError")),
    );
    all.extend(
        every
            .illegal_move
            .into_iter()
            .map(named("IllegalMoveError")),
    );
    all.extend(every.game.into_iter().map(named("GameError")));
    all.extend(every.action.into_iter().map(named("ActionError")));
    all.extend(every.search.into_iter().map(named("SearchError")));
    all.extend(every_engine_error().into_iter().map(|e| {
        let name = match &e {
            EngineError::Interrupted(stop) => format!(
                "EngineError::Interrupted({})",
                variant_name("SearchError", stop)
            ),
            e => variant_name("EngineError", e),
        };
        (name, e.into())
    }));
    all
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
    fn errors_of_the_engine_itself_have_no_source_and_wrapped_ones_have_theirs() {
        for e in every_engine_error() {
            let wraps_one = matches!(e, EngineError::Interrupted(_) | EngineError::Network(_));
            assert_eq!(e.source().is_some(), wraps_one, "{e}");
        }
    }

    #[test]
    fn any_error_keeps_the_message_and_source_of_the_error_it_holds() {
        let stop = EngineError::Interrupted(SearchError::Cancelled);
        let any = AnyError::from(stop.clone());
        assert_eq!(any.to_string(), stop.to_string());
        let source = any.source().expect("the engine error's source");
        assert_eq!(
            source.downcast_ref::<SearchError>(),
            Some(&SearchError::Cancelled)
        );
        let parse: AnyError = "I5".parse::<phutball::Point>().unwrap_err().into();
        assert!(matches!(parse, AnyError::Parse(ParseError::ColumnI { .. })));
    }

    #[test]
    fn every_error_has_its_own_name() {
        let every = every_error_named();
        let mut names: Vec<&str> = every.iter().map(|(name, _)| name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), every.len());
        assert!(names.contains(&"EngineError::Interrupted(SearchError::TimedOut)"));
    }
}
