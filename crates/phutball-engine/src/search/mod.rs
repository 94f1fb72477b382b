//! The search: iterative-deepening negamax alpha-beta with a transposition
//! table, a threat-aware horizon, and the root filter that gives the
//! engine's guarantees.
//!
//! This module holds its interface ([`Engine`], [`Analysis`], [`Decision`]);
//! the search itself is in parts:
//!
//! - `root`: the root's decision pipeline, phase by phase, with its moves
//!   and safety filter (`root_filter`) and its threat checks
//!   (`root_threats`);
//! - `deepening`: iterative deepening over the root moves;
//! - `tree`: the alpha-beta search below the root;
//! - `threads`: the helper threads of a threaded search;
//! - `hooks`: the clock and the budgets that hold its calls into the core
//!   to the caps (the caps themselves are the crate's `caps`);
//! - `state`: what the threads of one search share, and what each keeps.

mod deepening;
mod hooks;
mod root;
mod root_filter;
mod root_threats;
mod state;
mod threads;
mod tree;

use core::fmt;
use std::collections::HashSet;
use std::sync::OnceLock;
use std::time::Duration;

use phutball::{Budget, Game, Move, Position};

use crate::error::EngineError;
use crate::evaluation::Evaluation;
use crate::limits::Limits;
use crate::score::Score;
use crate::table::{Table, TableCache};
use state::{Search, Shared, Team};

/// Size of the transposition table: 2^18 slots of 24 bytes (6 MiB).
const TABLE_BITS: u32 = 18;

/// How the move was chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// It scores now (found by the core's can-score search; no search needed).
    Scores,
    /// It is the only move not known to lose at once: every other move lets
    /// the opponent score at once or is an own goal (or, with a time limit
    /// too short to decide it, is not known to be safe).
    OnlyMove,
    /// Every move loses at once; this one is the least bad.
    AllMovesLose,
    /// Chosen by the search (or by the root's threat checks: a proved win
    /// in three or five plies).
    Searched,
}

/// The result of a search: the move, its score and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The move to play.
    pub best_move: Move,
    /// Its value for the side to move.
    pub score: Score,
    /// The deepest iteration completed, in plies (0 if no search was needed).
    pub depth: u32,
    /// Positions examined.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The expected continuation, starting with the best move.
    pub pv: Vec<Move>,
    /// How the move was chosen.
    pub decision: Decision,
}

impl Analysis {
    /// Positions examined per second.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

impl fmt::Display for Decision {
    /// `scores now`, `only move`, `all moves lose` or `searched`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Decision::Scores => "scores now",
            Decision::OnlyMove => "only move",
            Decision::AllMovesLose => "all moves lose",
            Decision::Searched => "searched",
        })
    }
}

impl fmt::Display for Analysis {
    /// One line, the one the CLI's `best`, `game` and `hint` print: the
    /// move (with the [decision](Decision) unless it was searched), the
    /// score, depth, nodes, time and speed, and the pv in notation.
    ///
    /// ```
    /// use std::time::Duration;
    /// use phutball_engine::{Analysis, Decision, Score};
    /// let analysis = Analysis {
    ///     best_move: "H9".parse()?,
    ///     score: Score::Eval(75),
    ///     depth: 4,
    ///     nodes: 1500,
    ///     elapsed: Duration::from_millis(20),
    ///     pv: vec!["H9".parse()?, "H11".parse()?],
    ///     decision: Decision::Searched,
    /// };
    /// assert_eq!(
    ///     analysis.to_string(),
    ///     "best H9, score +0.75, depth 4, 1500 nodes in 0.020 s (75000 nodes/s), pv H9 H11"
    /// );
    /// let only = Analysis { decision: Decision::OnlyMove, ..analysis };
    /// assert!(only.to_string().starts_with("best H9 (only move), score +0.75,"));
    /// # Ok::<(), phutball::ParseError>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "best {}", self.best_move)?;
        if self.decision != Decision::Searched {
            write!(f, " ({})", self.decision)?;
        }
        write!(
            f,
            ", score {}, depth {}, {} nodes in {:.3} s ({:.0} nodes/s), pv",
            self.score,
            self.depth,
            self.nodes,
            self.elapsed.as_secs_f64(),
            self.nodes_per_second()
        )?;
        for m in &self.pv {
            write!(f, " {m}")?;
        }
        Ok(())
    }
}

/// A Phutball engine: limits, a seed, and the search.
///
/// ```
/// use phutball::Position;
/// use phutball_engine::{Engine, Limits};
/// // Ball H10, men H11..H18 and H19 (a chain to the top goal line): Ohs scores.
/// let pos: Position = "15/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15 O".parse()?;
/// let mut engine = Engine::new(Limits::nodes(1000), 1);
/// let analysis = engine.analyse(&pos)?;
/// assert!(pos.play(&analysis.best_move)?.winner() == Some(phutball::Side::Ohs));
/// assert_eq!(analysis.score.to_string(), "win in 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// The engine keeps its transposition table between searches (each starts
/// from an empty one all the same, so results do not depend on earlier
/// searches): a second call costs no allocation. A clone starts without one.
///
/// It evaluates with [`Evaluation::Auto`] (the built-in network on the
/// standard board, the hand evaluation elsewhere) unless
/// [`Engine::with_evaluation`] gives it another.
pub struct Engine {
    limits: Limits,
    seed: u64,
    evaluation: Evaluation,
    tables: TableCache,
}

impl Clone for Engine {
    fn clone(&self) -> Engine {
        Engine::new(self.limits, self.seed).with_evaluation(self.evaluation.clone())
    }
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("limits", &self.limits)
            .field("seed", &self.seed)
            .field("evaluation", &self.evaluation)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// An engine with these limits; `seed` breaks ties between equal moves.
    pub fn new(limits: Limits, seed: u64) -> Engine {
        Engine {
            limits,
            seed,
            evaluation: Evaluation::Auto,
            tables: TableCache::default(),
        }
    }

    /// This engine with `evaluation` where its search evaluates
    /// ([`Evaluation::Auto`] by default: the built-in network on the
    /// standard board, the hand evaluation elsewhere). A search of a board size the
    /// evaluation's network does not serve is refused with
    /// [`EngineError::Network`] as it starts. The guarantees
    /// ([`Engine::analyse`]) come from the root's checks: they hold with
    /// any evaluation.
    #[must_use]
    pub fn with_evaluation(self, evaluation: Evaluation) -> Engine {
        Engine { evaluation, ..self }
    }

    /// The evaluation its search uses.
    pub fn evaluation(&self) -> &Evaluation {
        &self.evaluation
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The move to play.
    ///
    /// # Errors
    ///
    /// [`EngineError::Finished`] if the game is over, [`EngineError::NoLegalMove`]
    /// if the side to move has no legal move, [`EngineError::Network`] as
    /// in [`Engine::analyse`].
    pub fn best_move(&self, pos: &Position) -> Result<Move, EngineError> {
        self.analyse(pos).map(|a| a.best_move)
    }

    /// Searches `pos` and reports the best move, its score, the depth
    /// reached, the nodes searched and the principal variation.
    ///
    /// Guarantees: it plays a scoring move whenever one exists; it never
    /// plays an own goal while another move exists; if some move leaves the
    /// opponent unable to score next move, it plays such a move. Without a
    /// time limit they always hold (and the root's checks are not bounded
    /// in time); with one, whenever the time was enough for the core to
    /// decide the checks they rest on (see the crate docs, "Bounded work").
    ///
    /// # Errors
    ///
    /// [`EngineError::Finished`] if the game is over, [`EngineError::NoLegalMove`]
    /// if the side to move has no legal move, [`EngineError::Network`] if
    /// its [evaluation](Engine::with_evaluation) has no network of the
    /// position's board size.
    pub fn analyse(&self, pos: &Position) -> Result<Analysis, EngineError> {
        self.analyse_within(pos, &Budget::default())
    }

    /// [`Engine::analyse`], which the caller can stop: when `stop`'s cancel
    /// flag is set or its interrupt hook answers, the search ends with
    /// [`EngineError::Interrupted`] (within about a millisecond: the core's
    /// searches poll them too). The engine's own [`Limits`] still end it
    /// with a move, as in [`Engine::analyse`]. `stop`'s memory limit bounds
    /// each call into the core; its work limit is not used (the engine sets
    /// its own work caps, see the crate docs). The first answer of `stop`'s
    /// hook is remembered for the rest of the search, so a one-shot check
    /// (a consumed signal) stops it as surely as a deadline.
    ///
    /// # Errors
    ///
    /// [`EngineError::Finished`] if the game is over, [`EngineError::NoLegalMove`]
    /// if the side to move has no legal move, [`EngineError::Network`] as
    /// in [`Engine::analyse`], [`EngineError::Interrupted`] when `stop`
    /// stopped the search.
    pub fn analyse_within(
        &self,
        pos: &Position,
        stop: &Budget<'_>,
    ) -> Result<Analysis, EngineError> {
        self.analyse_with_history(pos, &[], stop)
    }

    /// [`Engine::analyse`] for the current position of `game`: positions
    /// the game has already been through count as a slight loss (a cycle)
    /// for the side to move now, so the engine avoids going round in
    /// circles when it has anything as good.
    ///
    /// # Errors
    ///
    /// [`EngineError::Finished`] if the game is over, [`EngineError::NoLegalMove`]
    /// if the side to move has no legal move, [`EngineError::Network`] as
    /// in [`Engine::analyse`].
    pub fn analyse_game(&self, game: &Game) -> Result<Analysis, EngineError> {
        self.analyse_game_within(game, &Budget::default())
    }

    /// [`Engine::analyse_game`], which the caller can stop as [`Engine::analyse_within`].
    ///
    /// # Errors
    ///
    /// [`EngineError::Finished`] if the game is over, [`EngineError::NoLegalMove`]
    /// if the side to move has no legal move, [`EngineError::Network`] as
    /// in [`Engine::analyse`], [`EngineError::Interrupted`] when `stop`
    /// stopped the search.
    pub fn analyse_game_within(
        &self,
        game: &Game,
        stop: &Budget<'_>,
    ) -> Result<Analysis, EngineError> {
        let positions = game.positions();
        let earlier = &positions[..positions.len().saturating_sub(1)];
        self.analyse_with_history(game.position(), earlier, stop)
    }
    fn analyse_with_history(
        &self,
        pos: &Position,
        history: &[Position],
        caller: &Budget<'_>,
    ) -> Result<Analysis, EngineError> {
        self.tables.with_table(TABLE_BITS, |table| {
            self.analyse_with_table(pos, history, caller, table)
        })
    }

    /// The search of `pos` after `history`, with `table` (empty) and the
    /// caller's stop: the search's shared state, then the root's phases.
    fn analyse_with_table(
        &self,
        pos: &Position,
        history: &[Position],
        caller: &Budget<'_>,
        table: &Table,
    ) -> Result<Analysis, EngineError> {
        let first_stop = OnceLock::new();
        let sticky = || hooks::first_stop(caller, &first_stop);
        let stop = &Budget::default()
            .with_memory_limit(caller.memory_limit())
            .with_interrupt(&sticky);
        if let Some(e) = stop.interrupted() {
            return Err(EngineError::Interrupted(e));
        }
        if let Some(winner) = pos.winner() {
            return Err(EngineError::Finished { winner });
        }
        let evaluator = self
            .evaluation
            .evaluator(pos.size())
            .map_err(EngineError::Network)?;
        let team = Team::default();
        let history: HashSet<u64> = history.iter().map(Position::zobrist).collect();
        let shared = Shared::new(self.limits, pos.to_move(), stop, table, &team, &history)
            .with_evaluator(evaluator);
        Search::new(shared).decide(pos, self.seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_from_the_history_is_avoided_when_an_equal_move_exists() {
        // At the start every move has a mirror image of equal value (by the
        // hand evaluation: a network's weights are not mirror images), so
        // marking the chosen move's result as seen must change the choice.
        let start = Position::standard();
        let engine = Engine::new(Limits::depth(2), 3).with_evaluation(Evaluation::Hand);
        let first = engine.analyse(&start).unwrap().best_move;
        let seen = start.play(&first).unwrap();
        let again = engine
            .analyse_with_history(&start, &[seen], &Budget::default())
            .unwrap();
        assert_ne!(again.best_move, first);
        assert!(!again.best_move.is_jump());
    }
}
