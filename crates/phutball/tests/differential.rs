//! Differential tests: the core against the naive model in `reference/` on
//! random positions of every density and board size, under both off-board rules.

mod random;
mod reference;

use std::collections::BTreeSet;

use phutball::{Budget, Move, SearchError, TooManyOutcomesError};
use proptest::prelude::*;

use random::{
    board, board_and_move, core_move, core_position, path_names, player, reference_board,
    reference_point, reference_points,
};
use reference::{move_name, point_name, Outcome, Pt};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn position_strings_agree(board in board()) {
        let pos = core_position(&board);
        prop_assert_eq!(pos.to_string(), board.position_string());
        prop_assert_eq!(reference_board(&pos), board.clone());
        prop_assert_eq!(pos.winner().map(player), board.winner());
        prop_assert_eq!(pos.is_finished(), board.winner().is_some());
    }

    #[test]
    fn jump_paths_agree(board in board()) {
        let pos = core_position(&board);
        let expected: Vec<String> = board.paths().iter().map(|p| move_name(p)).collect();
        let mut found = path_names(&pos);
        prop_assert_eq!(found.len(), expected.len(), "number of paths in {}", board.position_string());
        prop_assert_eq!(pos.count_jump_paths(), expected.len() as u64);
        found.sort();
        let mut expected_sorted = expected.clone();
        expected_sorted.sort();
        prop_assert_eq!(found, expected_sorted, "paths of {}", board.position_string());
    }

    #[test]
    fn jump_outcomes_agree(board in board()) {
        let pos = core_position(&board);
        let expected = board.outcomes();
        prop_assert_eq!(pos.count_jump_outcomes(), Ok(expected.len() as u64));
        let representatives = pos.jump_outcomes().expect("small positions stay under the outcome limit");
        prop_assert_eq!(representatives.len(), expected.len());
        let legal: BTreeSet<Vec<Pt>> = board.paths().into_iter().collect();
        let mut reached: BTreeSet<Outcome> = BTreeSet::new();
        for m in &representatives {
            let points = reference_points(m);
            prop_assert!(legal.contains(&points), "{} is not a legal jump of {}", m, board.position_string());
            let after = board.follow(&points[1..]).expect("legal paths can be followed");
            reached.insert((after.ball, after.men));
        }
        prop_assert_eq!(reached, expected, "outcomes of {}", board.position_string());
    }

    #[test]
    fn single_jumps_agree(board in board()) {
        let pos = core_position(&board);
        let found: BTreeSet<(Pt, usize)> = pos
            .single_jumps()
            .iter()
            .map(|j| (reference_point(j.to), usize::from(j.jumped)))
            .collect();
        let expected: BTreeSet<(Pt, usize)> = if board.winner().is_some() {
            BTreeSet::new()
        } else {
            board.single_jumps().into_iter().map(|(to, over)| (to, over.len())).collect()
        };
        prop_assert_eq!(found, expected, "single jumps of {}", board.position_string());
    }

    #[test]
    fn the_outcome_bound_is_exact(board in board()) {
        let pos = core_position(&board);
        let n = board.outcomes().len();
        prop_assert_eq!(pos.count_jump_outcomes_bounded(n), Ok(n as u64));
        prop_assert_eq!(pos.jump_outcomes_bounded(n).map(|v| v.len()), Ok(n));
        if n > 0 {
            prop_assert_eq!(pos.count_jump_outcomes_bounded(n - 1), Err(TooManyOutcomesError { limit: n - 1 }));
            prop_assert!(pos.jump_outcomes_bounded(n - 1).is_err());
        }
    }

    #[test]
    fn can_score_agrees(board in board()) {
        let pos = core_position(&board);
        let expected = board.can_score();
        prop_assert_eq!(pos.can_score(), expected, "can-score of {}", board.position_string());
        match pos.scoring_jump() {
            None => prop_assert!(!expected),
            Some(m) => {
                let points = reference_points(&m);
                prop_assert!(m.is_jump());
                let after = board.play(&points);
                prop_assert!(after.is_some(), "scoring jump {} is illegal in {}", m, board.position_string());
                prop_assert_eq!(after.unwrap().winner(), Some(board.to_move));
                let end_row = points[points.len() - 1].1;
                match board.to_move {
                    reference::Player::Ohs => prop_assert!(end_row >= board.rows),
                    reference::Player::Eks => prop_assert!(end_row <= 1),
                }
            }
        }
    }

    /// A bounded can-score answers exactly what the model does, or gives
    /// up with the work limit; a bounded scoring jump is legal and scores.
    #[test]
    fn bounded_can_score_agrees(board in board(), work in prop_oneof![0u64..64, 0u64..5000]) {
        let pos = core_position(&board);
        let expected = board.can_score();
        let budget = Budget::default().with_work_limit(work);
        match pos.can_score_within(&budget) {
            Ok(found) => prop_assert_eq!(found, expected, "can-score of {}", board.position_string()),
            Err(e) => prop_assert_eq!(e, SearchError::WorkLimit { limit: work }),
        }
        match pos.scoring_jump_within(&budget) {
            Ok(None) => prop_assert!(!expected, "no scoring jump found in {}", board.position_string()),
            Ok(Some(m)) => {
                let points = reference_points(&m);
                let after = board.play(&points);
                prop_assert!(after.is_some(), "scoring jump {} is illegal in {}", m, board.position_string());
                prop_assert_eq!(after.unwrap().winner(), Some(board.to_move));
            }
            Err(e) => prop_assert_eq!(e, SearchError::WorkLimit { limit: work }),
        }
    }

    #[test]
    fn placements_agree(board in board()) {
        let pos = core_position(&board);
        let expected: BTreeSet<String> = board.placements().into_iter().map(point_name).collect();
        let found: Vec<String> = pos.placements().iter().map(Move::to_string).collect();
        prop_assert_eq!(found.len(), expected.len());
        prop_assert_eq!(found.into_iter().collect::<BTreeSet<_>>(), expected);
        prop_assert_eq!(pos.count_legal_moves(), Ok((board.placements().len() + board.outcomes().len()) as u64));
    }

    #[test]
    fn play_agrees((board, candidate) in board_and_move()) {
        let pos = core_position(&board);
        let m = core_move(&candidate);
        let expected = board.play(&candidate);
        let found = pos.play(&m);
        prop_assert_eq!(pos.is_legal(&m), expected.is_some(), "legality of {} in {}", m, board.position_string());
        match (found, expected) {
            (Ok(after), Some(expected)) => {
                prop_assert_eq!(after.to_string(), expected.position_string());
                prop_assert_eq!(after.winner().map(player), expected.winner());
                prop_assert_eq!(after.to_move(), pos.to_move().opponent());
            }
            (Err(_), None) => {}
            (found, expected) => prop_assert!(
                false,
                "{} in {}: core says {:?}, reference says {:?}",
                m, board.position_string(), found.map(|p| p.to_string()), expected.map(|b| b.position_string())
            ),
        }
    }
}
