//! A move in notation (`H10`, `K6-G9-G11`) and an action (`place H5`,
//! `jump to H5`, `end jump`), applied to a position.
//!
//! The input is a position string, a newline, then the move; without a
//! newline it is the move alone, played from the standard start.
#![no_main]

use libfuzzer_sys::fuzz_target;
use phutball::{Action, Move, Position};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (board, move_text) = text.split_once('\n').unwrap_or(("start", text));
    for rules in common::rule_sets() {
        let Ok(pos) = Position::parse_with_rules(board, rules) else {
            continue;
        };
        if let Ok(m) = move_text.parse::<Move>() {
            check_move(&pos, &m);
        }
        if let Ok(action) = move_text.parse::<Action>() {
            let printed = action.to_string();
            assert_eq!(printed.parse(), Ok(action), "{printed:?}");
            let legal = pos.legal_actions().contains(&action);
            assert_eq!(
                pos.apply_action(action).is_ok(),
                legal,
                "action {action} of {pos}"
            );
        }
    }
});

fn check_move(pos: &Position, m: &Move) {
    let printed = m.to_string();
    assert_eq!(printed.parse().as_ref(), Ok(m), "{printed:?}");
    let played = pos.play(m);
    assert_eq!(pos.is_legal(m), played.is_ok(), "{m} from {pos}");
    assert_eq!(pos.check_move(m).is_ok(), played.is_ok(), "{m} from {pos}");
    let Ok(after) = played else {
        return;
    };
    assert!(!pos.is_finished(), "{m} played from the finished {pos}");
    assert_eq!(after.size(), pos.size());
    assert_eq!(after.rules(), pos.rules());
    assert_ne!(after.to_move(), pos.to_move(), "{m} from {pos}");
    // A legal move's outcome is among the listed moves' outcomes (a
    // placement's among the placements, a jump's among the jumps).
    if let Ok(moves) = common::with_budget(|budget| pos.legal_moves_within(budget)) {
        let found = moves
            .iter()
            .filter(|listed| matches!(listed, Move::Place(_)) == matches!(m, Move::Place(_)))
            .any(|listed| pos.play(listed).as_ref() == Ok(&after));
        assert!(
            found,
            "{m} from {pos} gives {after}, no listed move's outcome"
        );
    }
}
