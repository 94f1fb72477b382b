//! The engine from Rust: its best move on the standard board within a work
//! budget, the analysis behind it, and the same search on a position where
//! the side to move can score.
//!
//! Run: `cargo run --example engine` (`tests/run_examples.rs` checks what it
//! prints).

use std::time::Duration;

use phutball::Position;
use phutball_engine::{Engine, Limits};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A node budget gives the same answer on every machine and every run
    // (with the same seed); a time budget (`Limits::time`) answers within
    // its time, so its move depends on the machine's speed.
    let engine = Engine::new(Limits::nodes(20_000), 7);
    let quick = Engine::new(Limits::time(Duration::from_millis(200)), 7);

    let start = Position::standard();
    let analysis = engine.analyse(&start)?;
    assert!(start.is_legal(&analysis.best_move));
    println!(
        "standard start: best move {}, score {}, depth {}, {} nodes",
        analysis.best_move, analysis.score, analysis.depth, analysis.nodes
    );

    // Within 200 ms: a legal move, whatever the machine.
    let timed = quick.best_move(&start)?;
    assert!(start.is_legal(&timed));
    println!("within 200 ms: a legal move");

    // The ball on H16 below men on H17 and H18, Ohs (who scores at the top)
    // to move: the jump to H19, the goal line, scores, and the engine's
    // root sees it before any search.
    let near_goal: Position =
        "15/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 O".parse()?;
    let winning = engine.analyse(&near_goal)?;
    println!(
        "can score: best move {}, score {}",
        winning.best_move, winning.score
    );
    assert_eq!(Some(winning.best_move.clone()), near_goal.scoring_jump());
    Ok(())
}
