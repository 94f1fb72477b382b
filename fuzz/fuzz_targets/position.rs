//! The position string (docs/rules.md, "Notation"), and the jump-in-progress
//! and step-state text forms built on it: what parses prints back to itself,
//! and its moves can be listed within a small budget.
#![no_main]

use libfuzzer_sys::fuzz_target;
use phutball::{JumpInProgress, Position, Rules, StepState};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for rules in common::rule_sets() {
        if let Ok(pos) = Position::parse_with_rules(text, rules) {
            check_position(&pos, rules);
        }
        if let Ok(jip) = JumpInProgress::parse_with_rules(text, rules) {
            let printed = jip.to_string();
            let back = JumpInProgress::parse_with_rules(&printed, rules)
                .unwrap_or_else(|e| panic!("{printed:?} does not parse back: {e}"));
            assert_eq!(back, jip, "{printed:?}");
            for action in jip.legal_actions() {
                assert!(
                    jip.apply_action(action).is_ok(),
                    "listed action {action} of {printed:?}"
                );
            }
        }
        if let Ok(state) = StepState::parse_with_rules(text, rules) {
            let printed = state.to_string();
            let back = StepState::parse_with_rules(&printed, rules)
                .unwrap_or_else(|e| panic!("{printed:?} does not parse back: {e}"));
            assert_eq!(back, state, "{printed:?}");
        }
    }
});

fn check_position(pos: &Position, rules: Rules) {
    let printed = pos.to_string();
    let back = Position::parse_with_rules(&printed, rules)
        .unwrap_or_else(|e| panic!("{printed:?} does not parse back: {e}"));
    assert_eq!(&back, pos, "{printed:?}");
    assert_eq!(back.to_string(), printed);
    assert_eq!(back.zobrist(), pos.zobrist());
    assert_eq!(pos.mirror_columns().mirror_columns(), *pos);
    assert_eq!(pos.flip_rows().flip_rows(), *pos);

    let moves = common::with_budget(|budget| pos.legal_moves_within(budget));
    let count = common::with_budget(|budget| pos.count_legal_moves_within(budget));
    if let Ok(moves) = &moves {
        if pos.is_finished() {
            assert!(moves.is_empty(), "moves from the finished {printed}");
        }
        // Every move is checked by the listing's own tests; here a sample
        // of at most 64, which keeps an input of thousands of moves fast.
        for m in moves.iter().step_by(moves.len().div_ceil(64).max(1)) {
            let after = pos
                .play(m)
                .unwrap_or_else(|e| panic!("listed move {m} of {printed} is illegal: {e}"));
            let after_text = after.to_string();
            assert_eq!(
                Position::parse_with_rules(&after_text, rules).as_ref(),
                Ok(&after),
                "{after_text:?} after {m} from {printed:?}"
            );
            let text = m.to_string();
            assert_eq!(text.parse().as_ref(), Ok(m), "move {text:?}");
        }
        if let Ok(count) = count {
            assert_eq!(count, moves.len() as u64, "moves of {printed}");
        }
    }
    if let Ok(paths) = common::with_budget(|budget| pos.jump_paths_within(budget)) {
        for path in paths.iter().step_by(paths.len().div_ceil(64).max(1)) {
            assert!(pos.is_legal(path), "jump path {path} of {printed}");
        }
    }
    for action in pos.legal_actions() {
        assert!(
            pos.apply_action(action).is_ok(),
            "listed action {action} of {printed:?}"
        );
    }
}
