//! Playing whole games between two players.

use phutball::{Game, GameError, GameResult, Position, Side};
use thiserror::Error;

use crate::error::EngineError;
use crate::players::Player;

/// Why a game between players could not be finished; the player's or the
/// game's error is the [`source`](std::error::Error::source).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MatchError {
    /// A player could not choose a move.
    #[error("a player could not move: {0}")]
    Player(#[source] EngineError),
    /// A player chose an illegal move.
    #[error("a player chose an illegal move: {0}")]
    Illegal(#[source] GameError),
}

/// Plays a game from `start` until a goal or `move_limit` moves (a draw).
/// `after_move` is called after every move (for progress reports).
///
/// # Errors
///
/// [`MatchError::Player`] if a player cannot choose a move, [`MatchError::Illegal`]
/// if one chooses a move the game does not take.
pub fn play_game(
    start: Position,
    ohs: &mut dyn Player,
    eks: &mut dyn Player,
    move_limit: u32,
    mut after_move: impl FnMut(&Game),
) -> Result<Game, MatchError> {
    let mut game = Game::new(start).with_move_limit(Some(move_limit));
    while game.result() == GameResult::Ongoing {
        let pos = *game.position();
        let player: &mut dyn Player = match pos.to_move() {
            Side::Ohs => ohs,
            Side::Eks => eks,
        };
        let m = player.choose(&game).map_err(MatchError::Player)?;
        game.push(m).map_err(MatchError::Illegal)?;
        after_move(&game);
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use phutball::Move;

    use super::*;
    use crate::players::{BaselinePlayer, RandomPlayer};

    #[test]
    fn a_game_ends_with_a_goal_or_at_the_limit() {
        let mut a = RandomPlayer::new(1);
        let mut b = BaselinePlayer;
        let mut calls = 0;
        let game = play_game(Position::standard(), &mut a, &mut b, 30, |_| calls += 1).unwrap();
        assert_eq!(calls, game.moves().len());
        match game.result() {
            GameResult::Draw => assert_eq!(game.moves().len(), 30),
            GameResult::Win(_) => assert!(game.position().is_finished()),
            GameResult::Ongoing => panic!("play_game returned an unfinished game"),
        }
    }

    /// A player that always answers the same.
    struct Stubborn(Result<Move, EngineError>);

    impl Player for Stubborn {
        fn name(&self) -> String {
            "stubborn".to_string()
        }

        fn choose(&mut self, _: &Game) -> Result<Move, EngineError> {
            self.0.clone()
        }
    }

    #[test]
    fn a_failed_match_has_the_player_or_game_error_as_its_source() {
        let mut refuses = Stubborn(Err(EngineError::NoLegalMove));
        let e = play_game(
            Position::standard(),
            &mut refuses,
            &mut BaselinePlayer,
            9,
            |_| {},
        )
        .unwrap_err();
        assert_eq!(e, MatchError::Player(EngineError::NoLegalMove));
        let source = e.source().expect("the player's error");
        assert_eq!(
            source.downcast_ref::<EngineError>(),
            Some(&EngineError::NoLegalMove)
        );

        // The second H9 lands on the first.
        let mut repeats = Stubborn(Ok("H9".parse().unwrap()));
        let mut also = Stubborn(Ok("H9".parse().unwrap()));
        let e = play_game(Position::standard(), &mut repeats, &mut also, 9, |_| {}).unwrap_err();
        let source = e.source().expect("the game's error");
        let game_error = source.downcast_ref::<GameError>().expect("a GameError");
        assert!(
            matches!(game_error, GameError::Illegal { number: 2, .. }),
            "{game_error:?}"
        );
        // The core's chain goes on to the illegal move itself.
        assert!(source
            .source()
            .is_some_and(<dyn std::error::Error>::is::<phutball::IllegalMoveError>));
    }
}
