//! The rules from Rust: a position read from its text form, its jump moves
//! listed, one played, and a small game played to its goal.
//!
//! Run: `cargo run --example rules` (`tests/run_examples.rs` checks what it
//! prints).

use phutball::{Game, GameResult, Move, Position};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The seeds' worked example (docs/rules.md): the ball on K6, men on
    // J7, H8, G10 and H11, Ohs to move.
    let pos: Position =
        "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O".parse()?;
    let paths: Vec<String> = pos.jump_paths()?.iter().map(Move::to_string).collect();
    println!("jump moves: {}", paths.join(" "));
    println!("can score now: {}", pos.can_score());

    // A move is a value: parsed, checked, then played into a new position.
    let jump: Move = "K6-G9-G11-J11".parse()?;
    let after = pos.play(&jump)?;
    println!(
        "after {jump}: ball on {}, {} men left, {} to move",
        after.ball(),
        after.men().count(),
        after.to_move()
    );

    // A game on the 5x5 board: the prover's winning line for the side that
    // starts (docs/solved-boards.md), played move by move until it scores.
    let mut game = Game::new("start:5x5".parse()?);
    for text in ["B4", "A5", "B3", "A3", "C4", "C5"] {
        game.push(text.parse()?)?;
    }
    let goal = game
        .position()
        .scoring_jump()
        .ok_or("the line should end in a goal")?;
    println!("scoring jump: {goal}");
    game.push(goal)?;
    match game.result() {
        GameResult::Win(side) => println!(
            "result: {side:?} ({side}) wins after {} moves",
            game.moves().len()
        ),
        other => return Err(format!("the game should be won, not {other}").into()),
    }
    Ok(())
}
