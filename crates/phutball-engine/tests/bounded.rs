//! The engine keeps its clock on dense boards where the core's can-score
//! runs for minutes, keeps its guarantees under a time limit when the time
//! is enough to decide them, and stops when its caller cancels.
//!
//! Not performance tests: the time bounds are many times the limits, for
//! slow debug builds on a busy machine.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use phutball::fixtures::{self, ScoreFigure};
use phutball::{Budget, Interrupt, Position, SearchError};
use phutball_engine::suites::{
    defend_positions, own_goal_positions, random_position, win_now_positions,
};
use phutball_engine::{Decision, Engine, EngineError, Limits, SplitMix64};

/// Record `n` (from 1) of the core's fixture file `hard-32.fixture`, with
/// its `score` figure. Records 1 and 2 are issue 9's positions (Ohs to move;
/// the can-score search before issue 9 ran for minutes on the first, and
/// took seconds to find the second's score); record 13 is `undecided`: no
/// can-score search of this project has decided it (not within 6,000
/// million landings).
fn hard_32(n: usize) -> (Position, Option<ScoreFigure>) {
    let path = fixtures::path("hard-32.fixture");
    let text = std::fs::read_to_string(&path).expect("the hard-32 fixture reads");
    let record = &fixtures::parse(&text).expect("hard-32 parses")[n - 1];
    (record.position, record.score)
}

/// hard-32 record 13, which no search has decided.
fn undecided() -> Position {
    let (pos, score) = hard_32(13);
    assert_eq!(score, Some(ScoreFigure::Undecided));
    pos
}

fn hard_positions() -> Vec<Position> {
    vec![hard_32(1).0, hard_32(2).0, undecided()]
}

/// The two hard positions (and Eks to move in them) and random boards with
/// 150 men or more.
fn dense_positions() -> Vec<Position> {
    let mut positions = hard_positions();
    positions.extend(hard_positions().iter().map(|p| p.end_turn()));
    let mut rng = SplitMix64::new(91);
    while positions.len() < 8 {
        let side = rng.side();
        let pos = random_position(&mut rng, 220, 9, side);
        if pos.men().count() >= 150 && !pos.is_finished() {
            positions.push(pos);
        }
    }
    positions
}

#[test]
fn a_time_limit_is_kept_on_dense_boards() {
    for pos in dense_positions() {
        let started = Instant::now();
        let analysis = Engine::new(Limits::time(Duration::from_millis(100)), 1)
            .analyse(&pos)
            .unwrap_or_else(|e| panic!("{pos}: {e}"));
        let wall = started.elapsed();
        assert!(
            pos.is_legal(&analysis.best_move),
            "{pos}: {}",
            analysis.best_move
        );
        assert!(
            analysis.elapsed < Duration::from_secs(2) && wall < Duration::from_secs(2),
            "{pos}: {:?} ({:?} wall) for a 100 ms limit",
            analysis.elapsed,
            wall
        );
    }
}

#[test]
fn a_zero_time_limit_still_gives_a_legal_move() {
    for pos in [Position::standard(), hard_32(1).0] {
        let analysis = Engine::new(Limits::time(Duration::ZERO), 1)
            .analyse(&pos)
            .unwrap();
        assert!(pos.is_legal(&analysis.best_move), "{pos}");
    }
}

#[test]
fn a_huge_time_limit_is_no_overflow() {
    let pos = Position::standard();
    let analysis = Engine::new(Limits::new(Some(Duration::MAX), None, Some(500)), 1)
        .analyse(&pos)
        .unwrap();
    assert!(pos.is_legal(&analysis.best_move));
}

#[test]
fn the_hard_positions_keep_their_clock_in_a_game_too() {
    // `analyse_game`, as `phutball game` and `selfplay` use it.
    let engine = Engine::new(Limits::time(Duration::from_millis(100)), 1);
    for pos in hard_positions() {
        let game = phutball::Game::new(pos);
        let analysis = engine.analyse_game(&game).unwrap();
        assert!(pos.is_legal(&analysis.best_move));
        assert!(analysis.elapsed < Duration::from_secs(2), "{pos}");
    }
}

/// An engine with a time limit (so the root's checks run under their shares
/// of it) that is ample for the suites, and a node limit to end the search.
fn timed_engine() -> Engine {
    Engine::new(
        Limits::new(Some(Duration::from_secs(5)), None, Some(300)),
        5,
    )
}

#[test]
fn with_enough_time_it_scores_whenever_it_can() {
    for pos in win_now_positions(21, 12) {
        let analysis = timed_engine().analyse(&pos).unwrap();
        let after = pos.play(&analysis.best_move).unwrap();
        assert_eq!(after.winner(), Some(pos.to_move()), "{pos}");
        assert_eq!(analysis.decision, Decision::Scores);
    }
}

#[test]
fn with_enough_time_it_never_scores_an_own_goal() {
    for pos in own_goal_positions(22, 12) {
        let m = timed_engine().best_move(&pos).unwrap();
        let after = pos.play(&m).unwrap();
        assert_ne!(after.winner(), Some(pos.to_move().opponent()), "{pos}: {m}");
    }
}

#[test]
fn with_enough_time_it_stops_a_threat() {
    for pos in defend_positions(23, 8, 3) {
        let m = timed_engine().best_move(&pos).unwrap();
        let after = pos.play(&m).unwrap();
        assert!(
            !after.can_score(),
            "{pos}: after {m} the opponent can score"
        );
        assert_ne!(after.winner(), Some(pos.to_move().opponent()));
    }
}

/// Runs `engine` on `pos` with a cancel flag set from another thread after
/// `after`; returns the result and how long after the cancel it came.
fn cancelled(
    engine: &Engine,
    pos: &Position,
    after: Duration,
) -> (Result<phutball_engine::Analysis, EngineError>, Duration) {
    let flag = AtomicBool::new(false);
    let mut cancelled_at = None;
    let result = thread::scope(|scope| {
        let canceller = scope.spawn(|| {
            thread::sleep(after);
            flag.store(true, Ordering::Relaxed);
            Instant::now()
        });
        let result = engine.analyse_within(pos, &Budget::default().with_cancel_flag(&flag));
        cancelled_at = canceller.join().ok();
        result
    });
    let lag = cancelled_at.map_or(Duration::ZERO, |at| at.elapsed());
    (result, lag)
}

#[test]
fn a_cancel_flag_stops_a_long_search_in_the_root_checks() {
    // No time limit: the root's "can I score?" is exact, and runs for
    // ever on this position; the flag stops it.
    let engine = Engine::new(Limits::depth(64), 1);
    let (result, lag) = cancelled(&engine, &undecided(), Duration::from_millis(200));
    assert_eq!(
        result.unwrap_err(),
        EngineError::Interrupted(SearchError::Cancelled)
    );
    assert!(
        lag < Duration::from_secs(2),
        "stopped {lag:?} after the cancel"
    );
}

#[test]
fn a_cancel_flag_stops_a_long_search_in_the_tree() {
    // A block of 100 men around the ball in the middle (the first of
    // `random_position(rng, 100, 5, Ohs)` from seed 5 with the ball on rows
    // 8 to 12, no side able to score, and undecided at depth 3): its root
    // checks are quick, and 64 plies take for ever (depth 4 takes seconds).
    let pos: Position = "15/15/15/##########5/##########5/##########5/##########5/\
                         #1########5/####@1#2#5/##########5/##########5/#1########5/\
                         #1##1###7/##########5/15/15/15/15/15 O"
        .parse()
        .unwrap();
    let quick = Budget::default().with_work_limit(1 << 20);
    assert_eq!(pos.can_score_within(&quick), Ok(false));
    assert_eq!(pos.end_turn().can_score_within(&quick), Ok(false));
    for threads in [1, 2] {
        let engine = Engine::new(Limits::depth(64).with_threads(threads), 1);
        let (result, lag) = cancelled(&engine, &pos, Duration::from_millis(300));
        assert_eq!(
            result.unwrap_err(),
            EngineError::Interrupted(SearchError::Cancelled),
            "{pos}, {threads} threads"
        );
        assert!(
            lag < Duration::from_secs(2),
            "stopped {lag:?} after the cancel ({threads} threads)"
        );
    }
}

#[test]
fn the_callers_deadline_is_an_interruption_and_the_engines_is_not() {
    let pos = undecided();
    let deadline = Instant::now() + Duration::from_millis(100);
    let hook = move || (Instant::now() >= deadline).then_some(Interrupt::TimedOut);
    let result = Engine::new(Limits::depth(64), 1)
        .analyse_within(&pos, &Budget::default().with_interrupt(&hook));
    assert_eq!(
        result.unwrap_err(),
        EngineError::Interrupted(SearchError::TimedOut)
    );
    // The engine's own limit ends with a move, whatever the caller's budget.
    let far = Instant::now() + Duration::from_secs(600);
    let hook = move || (Instant::now() >= far).then_some(Interrupt::TimedOut);
    let analysis = Engine::new(Limits::time(Duration::from_millis(100)), 1)
        .analyse_within(&pos, &Budget::default().with_interrupt(&hook))
        .unwrap();
    assert!(pos.is_legal(&analysis.best_move));
}

#[test]
fn a_hook_that_answers_only_once_still_stops_the_search() {
    // A signal check consumes the signal: the hook says "cancelled" once,
    // then nothing. The engine must not read its second poll as "go on".
    let pos = undecided();
    let polls = std::sync::atomic::AtomicU32::new(0);
    let hook = || (polls.fetch_add(1, Ordering::Relaxed) == 20).then_some(Interrupt::Cancelled);
    let started = Instant::now();
    let result = Engine::new(Limits::depth(64), 1)
        .analyse_within(&pos, &Budget::default().with_interrupt(&hook));
    assert_eq!(
        result.unwrap_err(),
        EngineError::Interrupted(SearchError::Cancelled)
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}
