//! Players: anything that chooses a move. The engine is one; the baseline
//! and the random mover are the yardsticks its strength is measured against.

use phutball::Direction::{East, North, NorthEast, NorthWest, South, SouthEast, SouthWest, West};
use phutball::{Budget, Game, Move, Position, Side};

use crate::candidates::{all_moves, blocking_moves};
use crate::caps::ROOT_JUMPS;
use crate::error::EngineError;
use crate::safety::is_safe;
use crate::search::Engine;
use phutball::SplitMix64;

/// Chooses moves.
pub trait Player {
    /// A short name for reports.
    fn name(&self) -> String;
    /// A legal move in the current position of `game` (the history is
    /// there for players that want it).
    ///
    /// # Errors
    ///
    /// [`EngineError`] if the game is over, there is no legal move, or the
    /// player's search was stopped.
    fn choose(&mut self, game: &Game) -> Result<Move, EngineError>;
}

impl Player for Engine {
    fn name(&self) -> String {
        "engine".to_string()
    }

    fn choose(&mut self, game: &Game) -> Result<Move, EngineError> {
        self.analyse_game(game).map(|a| a.best_move)
    }
}

/// Checks that the side to move has a move to choose.
fn check_playable(pos: &Position) -> Result<(), EngineError> {
    match pos.winner() {
        Some(winner) => Err(EngineError::Finished { winner }),
        None => Ok(()),
    }
}

/// The baseline: scores if it can; otherwise stops the opponent's threat to
/// score if it can; otherwise places a man next to the ball on the side of
/// its own attack (straight ahead, then the forward diagonals, then beside
/// the ball), or failing all that the first legal move.
///
/// A yardstick for ordinary games, with no limits: its can-score searches
/// are the core's unbounded ones, which can run for minutes on some dense
/// boards (the [`Engine`] bounds its own).
#[derive(Copy, Clone, Debug, Default)]
pub struct BaselinePlayer;

impl Player for BaselinePlayer {
    fn name(&self) -> String {
        "baseline".to_string()
    }

    fn choose(&mut self, game: &Game) -> Result<Move, EngineError> {
        let pos = game.position();
        check_playable(pos)?;
        if let Some(m) = pos.scoring_jump() {
            return Ok(m);
        }
        let me = pos.to_move();
        if let Some(threat) = pos.end_turn().scoring_jump() {
            if let Some(m) = blocking_moves(pos, &threat, ROOT_JUMPS, &Budget::default())
                .into_iter()
                .find(|m| is_safe(pos, m))
            {
                return Ok(m);
            }
        }
        // Straight ahead towards its own goal, the forward diagonals, beside.
        let preferred = match me {
            Side::Ohs => [North, NorthEast, NorthWest, East, West],
            Side::Eks => [South, SouthEast, SouthWest, East, West],
        };
        let vacant = pos.placement_points();
        for direction in preferred {
            if let Some(p) = pos.ball().step(direction) {
                if pos.size().contains(p) && vacant.contains(p) {
                    return Ok(Move::Place(p));
                }
            }
        }
        all_moves(pos, &Budget::default())
            .into_iter()
            .next()
            .ok_or(EngineError::NoLegalMove)
    }
}

/// Plays a uniformly random legal move (placements and distinct jump outcomes).
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: SplitMix64,
}

impl RandomPlayer {
    /// A random player whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: SplitMix64::new(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, game: &Game) -> Result<Move, EngineError> {
        let pos = game.position();
        check_playable(pos)?;
        let mut moves = all_moves(pos, &Budget::default());
        if moves.is_empty() {
            return Err(EngineError::NoLegalMove);
        }
        let i = self.rng.below(moves.len());
        Ok(moves.swap_remove(i))
    }
}
