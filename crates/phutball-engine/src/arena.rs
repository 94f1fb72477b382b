//! Playing whole games between two players.

use core::fmt;

use phutball::{Game, GameError, GameResult, Position, Side};

use crate::error::EngineError;
use crate::players::Player;

/// Why a game between players could not be finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchError {
    /// A player could not choose a move.
    Player(EngineError),
    /// A player chose an illegal move.
    Illegal(GameError),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Player(e) => write!(f, "a player could not move: {e}"),
            MatchError::Illegal(e) => write!(f, "a player chose an illegal move: {e}"),
        }
    }
}

impl std::error::Error for MatchError {}

/// Plays a game from `start` until a goal or `move_limit` moves (a draw).
/// `after_move` is called after every move (for progress reports).
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
}
