//! Search behaviour: limits, determinism, analysis output and errors.

use std::time::{Duration, Instant};

use phutball::{Position, Side};
use phutball_engine::suites::random_position;
use phutball_engine::{Analysis, Engine, EngineError, Evaluation, Limits, Score, SplitMix64};

fn middle_game() -> Position {
    "15/15/15/15/15/15/10#4/9@5/7####4/10#4/7#7/15/15/15/15/15/15/15/15 O"
        .parse()
        .unwrap()
}

/// The principal variation starts with the best move and is a line of legal moves.
fn assert_pv_is_a_legal_line(pos: &Position, analysis: &Analysis) {
    assert_eq!(analysis.pv.first(), Some(&analysis.best_move));
    let mut p = *pos;
    for m in &analysis.pv {
        p = p
            .play(m)
            .unwrap_or_else(|e| panic!("{pos}: pv move {m}: {e}"));
    }
}

#[test]
fn same_seed_and_node_limit_give_the_same_analysis() {
    let mut rng = SplitMix64::new(3);
    let mut positions = vec![Position::standard(), middle_game()];
    positions.push(random_position(&mut rng, 30, 4, Side::Eks));
    for pos in positions {
        let a = Engine::new(Limits::nodes(1500), 42).analyse(&pos).unwrap();
        let b = Engine::new(Limits::nodes(1500), 42).analyse(&pos).unwrap();
        assert_eq!(
            (&a.best_move, a.score, a.depth, a.nodes, &a.pv),
            (&b.best_move, b.score, b.depth, b.nodes, &b.pv),
            "{pos}"
        );
    }
}

#[test]
fn the_seed_breaks_ties_at_the_start() {
    // At the start every move is symmetric to others, by the hand
    // evaluation (a network's weights are not mirror images): different
    // seeds should not all choose the same one.
    let moves: std::collections::BTreeSet<String> = (0..8)
        .map(|seed| {
            Engine::new(Limits::depth(1), seed)
                .with_evaluation(Evaluation::Hand)
                .best_move(&Position::standard())
                .unwrap()
                .to_string()
        })
        .collect();
    assert!(moves.len() > 1, "all seeds chose {moves:?}");
}

#[test]
fn the_node_limit_is_respected() {
    // The root filter (one can-score per legal move, about 300 here) always
    // runs; the search after it stops at the limit.
    let analysis = Engine::new(Limits::nodes(2000), 1)
        .analyse(&middle_game())
        .unwrap();
    assert!(analysis.nodes <= 2000 + 400, "{} nodes", analysis.nodes);
    assert!(analysis.depth >= 1);
}

#[test]
fn two_threads_share_the_node_limit() {
    // The limit counts the nodes of both threads; each may pass it by the
    // nodes of one call before it looks.
    let one = Engine::new(Limits::nodes(2000), 1)
        .analyse(&middle_game())
        .unwrap();
    let two = Engine::new(Limits::nodes(2000).with_threads(2), 1)
        .analyse(&middle_game())
        .unwrap();
    assert!(two.nodes <= 2000 + 800, "{} nodes", two.nodes);
    assert!(middle_game().is_legal(&two.best_move));
    assert!(
        two.nodes.abs_diff(one.nodes) < 800,
        "{} and {}",
        one.nodes,
        two.nodes
    );
}

#[test]
fn two_threads_reach_the_depth_with_a_legal_line() {
    for pos in test_positions() {
        let analysis = Engine::new(Limits::depth(3).with_threads(2), 2)
            .analyse(&pos)
            .unwrap();
        // A forced result ends the iterations early.
        let decided = matches!(analysis.score, Score::Win { .. } | Score::Loss { .. });
        assert!(analysis.depth == 3 || decided, "{pos}: {analysis:?}");
        assert_pv_is_a_legal_line(&pos, &analysis);
    }
}

/// The search tests' positions: the start, the middle game and a random one.
fn test_positions() -> [Position; 3] {
    let mut rng = SplitMix64::new(3);
    [
        Position::standard(),
        middle_game(),
        random_position(&mut rng, 30, 4, Side::Eks),
    ]
}

#[test]
fn an_engine_kept_between_positions_answers_as_a_fresh_one() {
    // One engine (one table, kept and cleared between calls) goes through
    // the positions twice, each after a different one; the second visit of
    // a position would find its own entries if the table were not emptied,
    // and search fewer nodes.
    for limits in [Limits::depth(2), Limits::nodes(800)] {
        let kept = Engine::new(limits, 5);
        let positions = test_positions();
        for pos in positions.iter().chain(positions.iter().rev()) {
            let reused = kept.analyse(pos).unwrap();
            let fresh = Engine::new(limits, 5).analyse(pos).unwrap();
            assert_eq!(
                (
                    &reused.best_move,
                    reused.score,
                    reused.depth,
                    reused.nodes,
                    &reused.pv
                ),
                (
                    &fresh.best_move,
                    fresh.score,
                    fresh.depth,
                    fresh.nodes,
                    &fresh.pv
                ),
                "{pos} with {limits:?}"
            );
        }
    }
}

#[test]
fn an_engine_kept_between_positions_with_two_threads_plays_legal_lines() {
    let kept = Engine::new(Limits::depth(2).with_threads(2), 2);
    let positions = test_positions();
    for pos in positions.iter().chain(positions.iter().rev()) {
        let analysis = kept.analyse(pos).unwrap();
        let decided = matches!(analysis.score, Score::Win { .. } | Score::Loss { .. });
        assert!(analysis.depth == 2 || decided, "{pos}: {analysis:?}");
        assert!(pos.is_legal(&analysis.best_move), "{pos}: {analysis:?}");
        assert_pv_is_a_legal_line(pos, &analysis);
    }
}

#[test]
fn the_depth_limit_is_respected_and_deeper_searches_see_more() {
    let shallow = Engine::new(Limits::depth(1), 1)
        .analyse(&middle_game())
        .unwrap();
    let deeper = Engine::new(Limits::depth(2), 1)
        .analyse(&middle_game())
        .unwrap();
    assert_eq!(shallow.depth, 1);
    assert_eq!(deeper.depth, 2);
    assert!(deeper.nodes > shallow.nodes);
}

#[test]
fn a_time_limit_stops_the_search() {
    // Not a performance test: only that a short limit does not run on for
    // long (the bound is generous for slow debug builds).
    let started = Instant::now();
    let analysis = Engine::new(Limits::time(Duration::from_millis(50)), 1)
        .analyse(&middle_game())
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(analysis.depth < phutball_engine::MAX_DEPTH);
}

#[test]
fn a_dense_board_search_keeps_its_node_limit_and_plays_a_legal_move() {
    let mut rng = SplitMix64::new(9);
    let pos = random_position(&mut rng, 200, 9, Side::Ohs);
    assert!(pos.men().count() > 150);
    assert!(!pos.is_finished(), "seed 9 gives a game in progress: {pos}");
    let analysis = Engine::new(Limits::nodes(200), 1).analyse(&pos).unwrap();
    assert!(pos.is_legal(&analysis.best_move));
    assert!(analysis.nodes <= 200, "{} nodes searched", analysis.nodes);
}

#[test]
fn the_principal_variation_is_a_legal_line_starting_with_the_best_move() {
    for pos in [Position::standard(), middle_game()] {
        let analysis = Engine::new(Limits::depth(3), 2).analyse(&pos).unwrap();
        assert_pv_is_a_legal_line(&pos, &analysis);
    }
}

#[test]
fn a_forced_win_is_reported_as_one() {
    // Ball H10, men H11 and H13..H18: Ohs places H12 and threatens H10-H19?
    // Simpler and exact: Ohs to move can score now.
    let pos: Position = "15/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15 O"
        .parse()
        .unwrap();
    let analysis = Engine::new(Limits::depth(3), 1).analyse(&pos).unwrap();
    assert_eq!(analysis.score, Score::Win { plies: 1 });
}

#[test]
fn finished_positions_are_errors() {
    let done: Position = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 O H0"
        .parse()
        .unwrap();
    let engine = Engine::new(Limits::depth(1), 1);
    assert_eq!(
        engine.analyse(&done).unwrap_err(),
        EngineError::Finished { winner: Side::Eks }
    );
}

#[test]
fn with_no_depth_finished_it_plays_the_best_evaluated_move_not_the_first() {
    // Ohs to move (scoring at the top), an Eks man below-left of the ball:
    // the root order's first move is the jump H10-F8, two rows towards
    // Ohs's own goal, which the engine at 100 nodes used to play.
    let pos = Position::standard()
        .play(&"E13".parse().unwrap())
        .unwrap()
        .play(&"G9".parse().unwrap())
        .unwrap();
    let backwards: phutball::Move = "H10-F8".parse().unwrap();
    let mut chosen = Vec::new();
    for nodes in [1, 100] {
        let analysis = Engine::new(Limits::nodes(nodes), 5).analyse(&pos).unwrap();
        assert_eq!(analysis.depth, 0, "no depth finishes at {nodes} nodes");
        assert_ne!(analysis.best_move, backwards, "at {nodes} nodes");
        chosen.push(analysis.best_move);
    }
    assert_eq!(chosen[0], chosen[1], "both are the best evaluated move");
}
