//! Step-by-step play keeps `Position` whole: over random positions and the
//! states reached from them by random legal actions, (a) every listed legal
//! move is legal and plays, (b) the text forms round-trip, (c) perft never
//! panics and agrees with the move counts, (d) ending a jump move made one
//! jump at a time equals playing its whole path.

mod random;
mod reference;

use phutball::{
    perft_within, Action, Budget, JumpInProgress, Move, Point, Position, SearchError, StepState,
};
use proptest::prelude::*;
use proptest::sample::Index;

/// Work allowed for one perft-2 check; denser positions are skipped.
const PERFT_WORK: u64 = 200_000;

/// A random position and the states reached from it by up to 8 random legal
/// actions (the first state is the position itself), with the jump path
/// under way at each state.
fn step_sequence() -> impl Strategy<Value = Vec<(StepState, Vec<Point>)>> {
    (
        random::position(),
        prop::collection::vec(any::<Index>(), 0..8),
    )
        .prop_map(|(pos, picks)| {
            let mut state = StepState::from(pos);
            let mut path = Vec::new();
            let mut states = vec![(state, path.clone())];
            for pick in picks {
                let actions = state.legal_actions();
                if actions.is_empty() {
                    break;
                }
                let action = *pick.get(&actions);
                match action {
                    Action::JumpTo(to) => {
                        if path.is_empty() {
                            path.push(state.position().ball());
                        }
                        path.push(to);
                    }
                    Action::Place(_) | Action::EndJump => path.clear(),
                }
                state = state.apply_action(action).expect("listed actions apply");
                states.push((state, path.clone()));
            }
            states
        })
}

/// The positions of a step sequence at the start of a move.
fn positions(states: &[(StepState, Vec<Point>)]) -> impl Iterator<Item = Position> + '_ {
    states.iter().filter_map(|(state, _)| match state {
        StepState::Move(pos) => Some(*pos),
        StepState::Jump(_) => None,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn every_listed_move_is_legal_and_plays(states in step_sequence()) {
        for pos in positions(&states) {
            let moves = pos.legal_moves().unwrap();
            prop_assert_eq!(pos.count_legal_moves(), Ok(moves.len() as u64));
            for m in &moves {
                prop_assert!(pos.is_legal(m), "{} is listed but not legal in {}", m, pos);
                prop_assert!(pos.play(m).is_ok(), "{} is listed but does not play in {}", m, pos);
            }
        }
    }

    #[test]
    fn text_forms_round_trip(states in step_sequence()) {
        for (state, _) in &states {
            let rules = state.position().rules();
            let text = state.to_string();
            prop_assert_eq!(StepState::parse_with_rules(&text, rules), Ok(*state), "{}", text);
            match state {
                StepState::Move(pos) => {
                    prop_assert_eq!(Position::parse_with_rules(&text, rules), Ok(*pos));
                }
                StepState::Jump(jump) => {
                    prop_assert_eq!(JumpInProgress::parse_with_rules(&text, rules), Ok(*jump));
                    prop_assert!(Position::parse_with_rules(&text, rules).is_err());
                }
            }
        }
    }

    #[test]
    fn perft_agrees_with_the_move_counts(states in step_sequence()) {
        for pos in positions(&states) {
            let budget = Budget::default().with_work_limit(PERFT_WORK);
            prop_assert_eq!(perft_within(&pos, 1, &budget), pos.count_legal_moves());
            let by_moves: Result<u64, SearchError> = pos.legal_moves().unwrap().iter().try_fold(0, |sum, m| {
                let next = pos.play(m).expect("listed moves play");
                Ok(sum + next.count_legal_moves_within(&budget)?)
            });
            match (perft_within(&pos, 2, &budget), by_moves) {
                (Ok(found), Ok(expected)) => prop_assert_eq!(found, expected, "perft 2 of {}", pos),
                (Err(SearchError::WorkLimit { .. }), _) | (_, Err(SearchError::WorkLimit { .. })) => {}
                (found, expected) => prop_assert!(false, "perft 2 of {}: {:?} vs {:?}", pos, found, expected),
            }
        }
    }

    #[test]
    fn ending_a_jump_move_equals_playing_its_path(states in step_sequence()) {
        let start_of = |i: usize| states[..i].iter().rev().find_map(|(s, _)| match s {
            StepState::Move(pos) => Some(*pos),
            StepState::Jump(_) => None,
        });
        for (i, (state, path)) in states.iter().enumerate() {
            let StepState::Jump(jump) = state else { continue };
            let start = start_of(i).expect("a jump move starts from a position");
            prop_assert_eq!(jump.start(), path[0]);
            prop_assert_eq!(jump.to_move(), start.to_move());
            let whole = start.play(&Move::Jump(path.clone()));
            prop_assert_eq!(whole, Ok(jump.end()), "{} then end", jump);
            prop_assert_eq!(state.apply_action(Action::EndJump), Ok(StepState::Move(jump.end())));
        }
    }
}
