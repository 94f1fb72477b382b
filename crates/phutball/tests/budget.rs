//! Bounded work: every `_within` call answers exactly what the unbounded
//! call does, or says why it gave up (work, memory, cancel, interrupt);
//! never a wrong answer, never a panic.

mod random;
mod reference;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use phutball::{
    perft, perft_within, Budget, Interrupt, Move, Position, SearchError, POLL_INTERVAL,
};
use proptest::prelude::*;

use random::position;

/// A list of moves as one line of text.
// By value: `Result::map(show)` hands the list over.
#[allow(clippy::needless_pass_by_value)]
fn show(moves: Vec<Move>) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every bounded call's answer as text, or its error: one value to compare.
fn answers(pos: &Position, budget: &Budget<'_>) -> Vec<Result<String, SearchError>> {
    vec![
        pos.count_jump_paths_within(budget).map(|n| n.to_string()),
        pos.jump_paths_within(budget).map(show),
        pos.count_jump_outcomes_within(budget)
            .map(|n| n.to_string()),
        pos.jump_outcomes_within(budget).map(show),
        pos.legal_moves_within(budget).map(show),
        pos.count_legal_moves_within(budget).map(|n| n.to_string()),
        pos.can_score_within(budget).map(|b| b.to_string()),
        pos.scoring_jump_within(budget)
            .map(|m| m.is_some().to_string()),
        perft_within(pos, 2, budget).map(|n| n.to_string()),
    ]
}

/// The unbounded answers, in the order of [`answers`].
fn unbounded(pos: &Position) -> Vec<String> {
    vec![
        pos.count_jump_paths().to_string(),
        show(pos.jump_paths().unwrap()),
        pos.count_jump_outcomes().unwrap().to_string(),
        show(pos.jump_outcomes().unwrap()),
        show(pos.legal_moves().unwrap()),
        pos.count_legal_moves().unwrap().to_string(),
        pos.can_score().to_string(),
        pos.scoring_jump().is_some().to_string(),
        perft(pos, 2).unwrap().to_string(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any work limit: the exact answer or `WorkLimit`, never another answer.
    #[test]
    fn a_work_limit_gives_the_exact_answer_or_gives_up(pos in position(), steps in 0u64..400) {
        let expected = unbounded(&pos);
        let budget = Budget::default().with_work_limit(steps);
        for (got, want) in answers(&pos, &budget).into_iter().zip(&expected) {
            match got {
                Ok(got) => prop_assert_eq!(&got, want),
                Err(e) => prop_assert_eq!(e, SearchError::WorkLimit { limit: steps }),
            }
        }
    }

    /// Any memory limit: the exact answer or `MemoryLimit`.
    #[test]
    fn a_memory_limit_gives_the_exact_answer_or_gives_up(pos in position(), bytes in 0usize..100_000) {
        let expected = unbounded(&pos);
        let budget = Budget::default().with_memory_limit(bytes);
        for (got, want) in answers(&pos, &budget).into_iter().zip(&expected) {
            match got {
                Ok(got) => prop_assert_eq!(&got, want),
                Err(e) => prop_assert!(
                    matches!(e, SearchError::MemoryLimit { limit, .. } if limit == bytes),
                    "{e:?}"
                ),
            }
        }
    }

    /// Counting distinct outcomes is one step of work per outcome: a limit
    /// of exactly that many is enough, one fewer is not.
    #[test]
    fn the_work_of_counting_outcomes_is_the_number_of_outcomes(pos in position()) {
        let n = pos.count_jump_outcomes().unwrap();
        prop_assert_eq!(pos.count_jump_outcomes_within(&Budget::default().with_work_limit(n)), Ok(n));
        if n > 0 {
            prop_assert_eq!(
                pos.count_jump_outcomes_within(&Budget::default().with_work_limit(n - 1)),
                Err(SearchError::WorkLimit { limit: n - 1 })
            );
        }
    }

    /// The first `n` moves are the first `n` of the whole list.
    #[test]
    fn the_first_n_moves_begin_the_whole_lists(pos in position(), n in 0usize..40) {
        let budget = Budget::default();
        let prefix = |all: Vec<Move>| all.into_iter().take(n).collect::<Vec<_>>();
        prop_assert_eq!(pos.jump_paths_up_to(n, &budget)?, prefix(pos.jump_paths()?));
        prop_assert_eq!(pos.jump_outcomes_up_to(n, &budget)?, prefix(pos.jump_outcomes()?));
        prop_assert_eq!(pos.legal_moves_up_to(n, &budget)?, prefix(pos.legal_moves()?));
    }

    /// A scoring jump found within a budget is legal and scores for the mover.
    #[test]
    fn a_bounded_scoring_jump_is_legal_and_scores(pos in position(), steps in 0u64..200) {
        if let Ok(Some(m)) = pos.scoring_jump_within(&Budget::default().with_work_limit(steps)) {
            let after = pos.play(&m).unwrap();
            prop_assert_eq!(after.winner(), Some(pos.to_move()));
        }
    }
}

#[test]
fn a_cancel_flag_set_before_the_call_stops_every_call() {
    let pos: Position = "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O"
        .parse()
        .unwrap();
    let flag = AtomicBool::new(true);
    let budget = Budget::default().with_cancel_flag(&flag);
    for answer in answers(&pos, &budget) {
        assert_eq!(answer, Err(SearchError::Cancelled));
    }
    flag.store(false, Ordering::Relaxed);
    let answers: Vec<String> = answers(&pos, &budget)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(answers, unbounded(&pos));
}

/// A 25x25 board with a man on every point whose row and column are both
/// odd, the ball in the middle: astronomically many diagonal jump paths.
fn lattice() -> Position {
    let rows: Vec<String> = (0..25)
        .map(|r| {
            let mut text = String::new();
            let mut vacant = 0;
            for c in 0..25 {
                let cell = match (r, c) {
                    (12, 12) => '@',
                    _ if r % 2 == 1 && c % 2 == 1 => '#',
                    _ => {
                        vacant += 1;
                        continue;
                    }
                };
                if vacant > 0 {
                    text += &vacant.to_string();
                    vacant = 0;
                }
                text.push(cell);
            }
            if vacant > 0 {
                text += &vacant.to_string();
            }
            text
        })
        .collect();
    (rows.join("/") + " O").parse().unwrap()
}

#[test]
fn an_interrupt_hook_stops_a_long_count_at_its_poll() {
    let pos = lattice();
    let polls = AtomicUsize::new(0);
    // Time is up at the third poll.
    let hook = || (polls.fetch_add(1, Ordering::Relaxed) >= 2).then_some(Interrupt::TimedOut);
    let budget = Budget::default().with_interrupt(&hook);
    assert_eq!(
        pos.count_jump_paths_within(&budget),
        Err(SearchError::TimedOut)
    );
    assert_eq!(polls.load(Ordering::Relaxed), 3);
    let polls = AtomicUsize::new(0);
    let hook = || (polls.fetch_add(1, Ordering::Relaxed) >= 2).then_some(Interrupt::Cancelled);
    let budget = Budget::default().with_interrupt(&hook);
    assert_eq!(
        pos.jump_outcomes_within(&budget),
        Err(SearchError::Cancelled)
    );
    assert_eq!(pos.can_score_within(&budget), Err(SearchError::Cancelled));
}

#[test]
fn the_callers_stop_is_an_interrupt_the_flag_first_then_the_hook() {
    let timed_out = || Some(Interrupt::TimedOut);
    let set = AtomicBool::new(true);
    let clear = AtomicBool::new(false);
    let hooked = Budget::default().with_interrupt(&timed_out);
    assert_eq!(Budget::default().interrupt(), None);
    assert_eq!(hooked.interrupt(), Some(Interrupt::TimedOut));
    assert_eq!(
        hooked.with_cancel_flag(&clear).interrupt(),
        Some(Interrupt::TimedOut)
    );
    // A set flag is a cancel, whatever the hook says.
    assert_eq!(
        hooked.with_cancel_flag(&set).interrupt(),
        Some(Interrupt::Cancelled)
    );
    // A hook that passes another budget's stop on keeps its kind.
    let outer = hooked;
    let passed_on = move || outer.interrupt();
    let inner = Budget::default().with_interrupt(&passed_on);
    assert_eq!(inner.interrupt(), Some(Interrupt::TimedOut));
    assert_eq!(inner.interrupted(), Some(SearchError::TimedOut));
    // The limits are not the caller's stop.
    assert_eq!(
        Budget::default()
            .with_work_limit(0)
            .with_memory_limit(0)
            .interrupt(),
        None
    );
}

#[test]
fn a_cancel_flag_set_from_another_thread_stops_a_running_count() {
    let pos = lattice();
    let flag = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let search =
            scope.spawn(|| pos.count_jump_paths_within(&Budget::default().with_cancel_flag(&flag)));
        std::thread::sleep(std::time::Duration::from_millis(20));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(search.join().unwrap(), Err(SearchError::Cancelled));
    });
}

#[test]
fn lists_too_large_for_the_memory_limit_are_errors() {
    let pos = lattice();
    let limit = 4 << 20;
    let budget = Budget::default().with_memory_limit(limit);
    for answer in [
        pos.jump_outcomes_within(&budget).map(|v| v.len()),
        pos.jump_paths_within(&budget).map(|v| v.len()),
        pos.legal_moves_within(&budget).map(|v| v.len()),
        pos.count_jump_outcomes_within(&budget).map(|n| n as usize),
        perft_within(&pos, 2, &budget).map(|n| n as usize),
    ] {
        match answer {
            Err(SearchError::MemoryLimit { limit: l, what }) => {
                assert_eq!(l, limit);
                assert!(!what.is_empty());
            }
            other => panic!("expected the memory limit, got {other:?}"),
        }
    }
}

#[test]
fn the_poll_interval_bounds_the_work_between_checks() {
    // A work limit just past one poll interval: the call stops at the limit,
    // not at the next poll.
    let pos = lattice();
    let limit = POLL_INTERVAL + 7;
    assert_eq!(
        pos.count_jump_outcomes_within(&Budget::default().with_work_limit(limit)),
        Err(SearchError::WorkLimit { limit })
    );
}
