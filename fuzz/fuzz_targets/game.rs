//! The game record (the format on `phutball::Game`): what parses prints
//! back to an equal game, and replaying its moves gives the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use phutball::{Game, GameResult};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(game) = text.parse::<Game>() else {
        return;
    };
    let record = game.to_string();
    let back = record
        .parse::<Game>()
        .unwrap_or_else(|e| panic!("{record:?} does not parse back: {e}"));
    assert_eq!(back, game, "{record:?}");
    assert_eq!(back.to_string(), record);

    // Replay: the same moves from the same start give the same game.
    let mut replay = Game::new(*game.start()).with_move_limit(game.move_limit());
    for m in game.moves() {
        replay
            .push(m.clone())
            .unwrap_or_else(|e| panic!("{m} does not replay in {record:?}: {e}"));
    }
    assert_eq!(replay, game, "{record:?}");
    assert_eq!(game.positions().len(), game.moves().len() + 1);
    for (before, (m, after)) in game
        .positions()
        .iter()
        .zip(game.moves().iter().zip(&game.positions()[1..]))
    {
        assert_eq!(before.play(m).as_ref(), Ok(after), "{m} in {record:?}");
    }
    // Only the last position may be finished, and the result says so.
    let moves = game.moves().len();
    for pos in &game.positions()[..moves] {
        assert!(!pos.is_finished(), "a move after the goal in {record:?}");
    }
    let expected = match game.position().winner() {
        Some(side) => GameResult::Win(side),
        None if game.move_limit().is_some_and(|l| moves >= l as usize) => GameResult::Draw,
        None => GameResult::Ongoing,
    };
    assert_eq!(game.result(), expected, "{record:?}");
    while replay.pop().is_some() {}
    assert_eq!(replay.position(), game.start());
    assert!(replay.moves().is_empty());
});
