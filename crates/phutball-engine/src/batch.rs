//! All cores, in batches: analysis of many positions and self-play of many
//! games over a number of threads. Each thread has an engine of its own (and
//! so a table of its own); results come back in input order, and with node
//! or depth limits (no time limit) and one thread per search
//! ([`Limits::threads`](crate::Limits::threads)) they do not depend on the
//! thread count.

use core::cell::RefCell;
use core::fmt;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use phutball::{Budget, Game, Move, Position, SearchError, Side, SplitMix64};
use thiserror::Error;

use crate::arena::{play_game, MatchError};
use crate::clock::Instant;
use crate::error::EngineError;
use crate::evaluation::Evaluation;
use crate::limits::Limits;
use crate::net::NetworkError;
use crate::openings::random_opening;
use crate::players::Player;
use crate::score::Score;
use crate::search::{Analysis, Decision, Engine};

/// Runs `work(state, i)` for every `i` in `0..count` on up to `jobs` threads
/// (each with a `state` of its own from `new_state`), and calls `done(i,
/// &result)` on the calling thread as results arrive (in any order). When
/// `done` answers `false` no further item is started. The results that were
/// computed come back in input order.
fn run_parallel<S, T: Send>(
    count: usize,
    jobs: usize,
    new_state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> T + Sync,
    mut done: impl FnMut(usize, &T) -> bool,
) -> Vec<Option<T>> {
    let next = AtomicUsize::new(0);
    let give_up = AtomicBool::new(false);
    let mut results: Vec<Option<T>> = (0..count).map(|_| None).collect();
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        let mut started = 0;
        for _ in 0..jobs.clamp(1, count.max(1)) {
            let sender = sender.clone();
            let (next, give_up, new_state, work) = (&next, &give_up, &new_state, &work);
            // A worker the system cannot start (no memory for its stack
            // under an address-space limit) is left out; with none, this
            // thread does the work below.
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                let mut state = new_state();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count || give_up.load(Ordering::Relaxed) {
                        break;
                    }
                    // The receiver outlives every worker (same scope).
                    if sender.send((i, work(&mut state, i))).is_err() {
                        break;
                    }
                }
            });
            started += usize::from(spawned.is_ok());
        }
        // Only the workers hold senders now: the loop ends with the last one.
        drop(sender);
        if started == 0 {
            let mut state = new_state();
            for (i, slot) in results.iter_mut().enumerate() {
                let result = work(&mut state, i);
                let more = done(i, &result);
                *slot = Some(result);
                if !more {
                    break;
                }
            }
            return;
        }
        for (i, result) in receiver {
            if !done(i, &result) {
                give_up.store(true, Ordering::Relaxed);
            }
            results[i] = Some(result);
        }
    });
    results
}

/// Analyses every position of `positions` with an engine of these `limits`
/// and `seed`, on `jobs` threads; the results are in input order. `stop`
/// stops every search as [`Engine::analyse_within`] does (the positions not
/// reached then are [`EngineError::Interrupted`] too).
///
/// ```
/// use phutball::{Budget, Position};
/// use phutball_engine::{analyse_many, Engine, Limits};
/// let positions = [Position::standard(), Position::standard().end_turn()];
/// let results = analyse_many(&positions, Limits::nodes(300), 1, 2, &Budget::default());
/// let one = Engine::new(Limits::nodes(300), 1).analyse(&positions[1])?;
/// assert_eq!(results[1].as_ref().unwrap().best_move, one.best_move);
/// # Ok::<(), phutball_engine::EngineError>(())
/// ```
pub fn analyse_many(
    positions: &[Position],
    limits: Limits,
    seed: u64,
    jobs: usize,
    stop: &Budget<'_>,
) -> Vec<Result<Analysis, EngineError>> {
    Engine::new(limits, seed).analyse_many(positions, jobs, stop)
}

impl Engine {
    /// [`analyse_many`] with this engine's settings (its limits, seed and
    /// [evaluation](Engine::with_evaluation)): every position of
    /// `positions` analysed on `jobs` threads, each with a clone of this
    /// engine; the results are in input order.
    pub fn analyse_many(
        &self,
        positions: &[Position],
        jobs: usize,
        stop: &Budget<'_>,
    ) -> Vec<Result<Analysis, EngineError>> {
        run_parallel(
            positions.len(),
            jobs,
            || self.clone(),
            |engine, i| engine.analyse_within(&positions[i], stop),
            |_, _| true,
        )
        .into_iter()
        .map(|r| r.unwrap_or(Err(EngineError::Interrupted(SearchError::Cancelled))))
        .collect()
    }
}

/// The settings of a self-play run: engine against engine from the
/// openings in turn (game `i` from `openings[i % len]`, made by
/// [`SelfPlay::new`], which checks the openings), or from random openings
/// (game `i` from [`random_opening`]`(seed, i)`, made by
/// [`SelfPlay::random_openings`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlay {
    openings: Openings,
    limits: Limits,
    seed: u64,
    move_limit: u32,
    evaluation: Evaluation,
}

/// Where a self-play run's games start.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Openings {
    /// The start positions, used in turn: at least one, none finished.
    Given(Vec<Position>),
    /// Game `i` from `random_opening(seed, i)`, with the run's seed.
    Random,
}

/// Openings a self-play run cannot start from ([`SelfPlay::new`]); the
/// wrappers report it as it is (Python's `ValueError`, the CLI's error
/// naming the file's line).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum OpeningError {
    /// There are no openings at all.
    #[error("openings must hold at least one position")]
    Empty,
    /// An opening in which the game is already over.
    #[error("openings[{index}]: the game is already over in this position ({winner} has scored)")]
    Finished {
        /// Its index in the openings, from 0.
        index: usize,
        /// The side that has scored.
        winner: Side,
    },
    /// An opening of a board size the evaluation's network does not serve
    /// ([`SelfPlay::with_evaluation`]).
    #[error("openings[{index}]: {source}")]
    NotServed {
        /// Its index in the openings, from 0.
        index: usize,
        /// The network's refusal, naming the sizes it serves.
        source: NetworkError,
    },
}

/// An engine as a player its caller can stop: each move's search ends
/// with `stop` too. Each move's analysis goes to `analyses` (shared by the
/// game's two players, so they are in the order of the moves).
struct Stoppable<'a> {
    engine: Engine,
    stop: &'a Budget<'a>,
    analyses: &'a RefCell<Vec<MoveAnalysis>>,
}

impl Player for Stoppable<'_> {
    fn name(&self) -> String {
        "engine".to_string()
    }

    fn choose(&mut self, game: &Game) -> Result<Move, EngineError> {
        let analysis = self.engine.analyse_game_within(game, self.stop)?;
        self.analyses
            .borrow_mut()
            .push(MoveAnalysis::from(&analysis));
        Ok(analysis.best_move)
    }
}

/// What the engine's search said of one move of a self-play game: its
/// [`Analysis`] without the move (the game's), the principal variation and
/// the time, so that a game with node or depth limits is the same on any
/// machine. The score is from the view of the side that made the move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveAnalysis {
    /// The move's value for the side that made it ([`Analysis::score`]).
    pub score: Score,
    /// The deepest iteration completed, in plies (0 if no search was needed).
    pub depth: u32,
    /// Positions examined.
    pub nodes: u64,
    /// How the move was chosen.
    pub decision: Decision,
}

impl From<&Analysis> for MoveAnalysis {
    fn from(analysis: &Analysis) -> MoveAnalysis {
        MoveAnalysis {
            score: analysis.score,
            depth: analysis.depth,
            nodes: analysis.nodes,
            decision: analysis.decision,
        }
    }
}

/// One finished self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlayGame {
    /// Its index in the run, from 0.
    pub index: usize,
    /// Its seed ([`SelfPlay::game_seed`]): Ohs's engine has this seed, Eks's the next.
    pub seed: u64,
    /// The record: start, moves, result.
    pub game: Game,
    /// The search behind each move, one per move of `game` in its order.
    pub analyses: Vec<MoveAnalysis>,
    /// Time taken.
    pub elapsed: Duration,
}

impl fmt::Display for SelfPlayGame {
    /// The line the CLI's `selfplay` prints for it: `game N: RESULT in M
    /// moves`, numbered from 1 (`N` is `index + 1`); no time, so that runs
    /// with any number of jobs print the same.
    ///
    /// ```
    /// use std::time::Duration;
    /// use phutball::{Game, Position};
    /// use phutball_engine::SelfPlayGame;
    /// // Ball H10 and men H11..H18: Ohs jumps to its goal line.
    /// let pos: Position = "15/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15 O".parse()?;
    /// let mut game = Game::new(pos);
    /// game.push("H10-H19".parse()?)?;
    /// let played = SelfPlayGame { index: 0, seed: 7, game, analyses: Vec::new(), elapsed: Duration::from_millis(3) };
    /// assert_eq!(played.to_string(), "game 1: O wins in 1 moves");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}: {} in {} moves",
            self.index + 1,
            self.game.result(),
            self.game.moves().len()
        )
    }
}

impl SelfPlay {
    /// The time per move of self-play when the caller gives no limit (the
    /// CLI's and Python's default).
    pub const DEFAULT_MOVE_TIME: Duration = Duration::from_millis(100);

    /// Self-play from `openings` (used in turn) with these limits, the
    /// run's seed (game `i` is seeded from it and `i`,
    /// [`SelfPlay::game_seed`]) and move limit (a game that reaches it is a
    /// draw).
    ///
    /// # Errors
    ///
    /// [`OpeningError::Empty`] without openings, [`OpeningError::Finished`]
    /// naming the first opening whose game is already over.
    pub fn new(
        openings: Vec<Position>,
        limits: Limits,
        seed: u64,
        move_limit: u32,
    ) -> Result<SelfPlay, OpeningError> {
        if openings.is_empty() {
            return Err(OpeningError::Empty);
        }
        if let Some((index, winner)) = openings
            .iter()
            .enumerate()
            .find_map(|(i, pos)| pos.winner().map(|winner| (i, winner)))
        {
            return Err(OpeningError::Finished { index, winner });
        }
        Ok(SelfPlay {
            openings: Openings::Given(openings),
            limits,
            seed,
            move_limit,
            evaluation: Evaluation::Auto,
        })
    }

    /// This run with `evaluation` for both engines of every game
    /// ([`Evaluation::Auto`] by default).
    ///
    /// # Errors
    ///
    /// [`OpeningError::NotServed`] naming the first opening of a board size
    /// the evaluation's network does not serve.
    pub fn with_evaluation(self, evaluation: Evaluation) -> Result<SelfPlay, OpeningError> {
        // Random openings are all of the standard board: the first stands for them.
        let starts = match &self.openings {
            Openings::Given(openings) => openings.as_slice(),
            Openings::Random => &[Position::standard()],
        };
        for (index, opening) in starts.iter().enumerate() {
            evaluation
                .check_size(opening.size())
                .map_err(|source| OpeningError::NotServed { index, source })?;
        }
        Ok(SelfPlay { evaluation, ..self })
    }

    /// The engines' evaluation.
    pub fn evaluation(&self) -> &Evaluation {
        &self.evaluation
    }

    /// Self-play as [`SelfPlay::new`] does, with game `i` from
    /// [`random_opening`]`(seed, i)` (`seed` is the run's): every game from
    /// an opening of its own, the same in every run with this seed.
    pub fn random_openings(limits: Limits, seed: u64, move_limit: u32) -> SelfPlay {
        SelfPlay {
            openings: Openings::Random,
            limits,
            seed,
            move_limit,
            evaluation: Evaluation::Auto,
        }
    }

    /// The start positions given to [`SelfPlay::new`], used in turn; none
    /// with [`SelfPlay::random_openings`].
    pub fn openings(&self) -> &[Position] {
        match &self.openings {
            Openings::Given(openings) => openings,
            Openings::Random => &[],
        }
    }

    /// The start of game `index`: `openings[index % len]`, or
    /// [`random_opening`]`(seed, index)` with random openings.
    pub fn opening(&self, index: usize) -> Position {
        match &self.openings {
            // `new` refused empty openings.
            Openings::Given(openings) => openings[index % openings.len()],
            Openings::Random => random_opening(self.game_seed(index), 0),
        }
    }

    /// Each move's limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The run's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The move limit: a game that reaches this many moves is a draw.
    pub fn move_limit(&self) -> u32 {
        self.move_limit
    }

    /// The seed of game `index`: output `index` of the core's generator
    /// seeded with the run's seed. It depends on nothing else (not on the
    /// thread count), and games of runs with other seeds get other seeds.
    pub fn game_seed(&self, index: usize) -> u64 {
        const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
        SplitMix64::new(
            self.seed
                .wrapping_add((index as u64).wrapping_mul(GOLDEN_GAMMA)),
        )
        .next_u64()
    }

    /// Plays game `index` (see [`SelfPlay::play`]): [`play_game`] from
    /// [`SelfPlay::opening`] between two engines seeded from
    /// [`SelfPlay::game_seed`], each move's analysis kept.
    ///
    /// # Errors
    ///
    /// [`MatchError::Player`] if an engine cannot move (`stop` stopped it),
    /// [`MatchError::Illegal`] if the game refuses an engine's move.
    pub fn play_one(&self, index: usize, stop: &Budget<'_>) -> Result<SelfPlayGame, MatchError> {
        let started = Instant::now();
        let seed = self.game_seed(index);
        let analyses = RefCell::new(Vec::new());
        let engine = |seed| Stoppable {
            engine: Engine::new(self.limits, seed).with_evaluation(self.evaluation.clone()),
            stop,
            analyses: &analyses,
        };
        let (mut ohs, mut eks) = (engine(seed), engine(seed.wrapping_add(1)));
        let game = play_game(
            self.opening(index),
            &mut ohs,
            &mut eks,
            self.move_limit,
            |_| {},
        )?;
        Ok(SelfPlayGame {
            index,
            seed,
            game,
            analyses: analyses.into_inner(),
            elapsed: started.elapsed(),
        })
    }

    /// Plays games `0..games` on `jobs` threads: [`SelfPlay::play_range`]
    /// of `0..games`.
    pub fn play(
        &self,
        games: usize,
        jobs: usize,
        stop: &Budget<'_>,
        done: impl FnMut(usize, &Result<SelfPlayGame, MatchError>) -> bool,
    ) -> Vec<Result<SelfPlayGame, MatchError>> {
        self.play_range(0..games, jobs, stop, done)
    }

    /// Plays the games of `indices` (game `i` as in a run of every game, so
    /// a run split into ranges plays the same games as one run) on `jobs`
    /// threads and returns them in index
    /// order; `done` sees each game's index and the game (or its error) as
    /// it finishes, and ends
    /// the run by answering `false` (the games under way are stopped, and
    /// those not started are left out: the list then ends early). `stop`
    /// stops every search as [`Engine::analyse_within`] does. Without a time
    /// limit, and with one thread per search, every game is determined by
    /// the settings and its index alone.
    pub fn play_range(
        &self,
        indices: Range<usize>,
        jobs: usize,
        stop: &Budget<'_>,
        mut done: impl FnMut(usize, &Result<SelfPlayGame, MatchError>) -> bool,
    ) -> Vec<Result<SelfPlayGame, MatchError>> {
        let (first, games) = (indices.start, indices.len());
        // The caller's stop, and ours for when `done` ends the run.
        let ended = AtomicBool::new(false);
        let callers = || stop.interrupt();
        let both = Budget::default()
            .with_memory_limit(stop.memory_limit())
            .with_cancel_flag(&ended)
            .with_interrupt(&callers);
        let results = run_parallel(
            games,
            jobs,
            || (),
            |(), i| self.play_one(first + i, &both),
            |i, result| {
                let go_on = done(first + i, result);
                if !go_on {
                    ended.store(true, Ordering::Relaxed);
                }
                go_on
            },
        );
        let mut played = Vec::with_capacity(games);
        for result in results {
            match result {
                Some(result) => played.push(result),
                None => break,
            }
        }
        played
    }

    /// Plays the games of `indices` as [`SelfPlay::play_range`] does, and
    /// hands each game's index and the game (or its error) to `on_game` in
    /// index order, as soon
    /// as it and every game before it have finished: what a report that
    /// writes the games out in order needs, whatever order they finish in.
    /// `finished` sees each game as it finishes, in any order (for
    /// progress). The first error `on_game` returns ends the run (the games
    /// under way are stopped, none more is started) and is the answer.
    ///
    /// # Errors
    ///
    /// The first error of `on_game`.
    pub fn play_in_order<E>(
        &self,
        indices: Range<usize>,
        jobs: usize,
        stop: &Budget<'_>,
        mut finished: impl FnMut(usize, &Result<SelfPlayGame, MatchError>),
        mut on_game: impl FnMut(usize, Result<SelfPlayGame, MatchError>) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut waiting = BTreeMap::new();
        let mut next = indices.start;
        let mut failure = None;
        self.play_range(indices, jobs, stop, |index, result| {
            // The games still under way when the run ended are stopped
            // ones: not handed over.
            if failure.is_some() {
                return false;
            }
            finished(index, result);
            waiting.insert(index, result.clone());
            while let Some(result) = waiting.remove(&next) {
                next += 1;
                if let Err(e) = on_game(next - 1, result) {
                    failure = Some(e);
                    return false;
                }
            }
            true
        });
        failure.map_or(Ok(()), Err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_board() -> Position {
        "7/7/7/7/3@3/7/7/7/7 O".parse().expect("a position")
    }

    #[test]
    fn results_come_back_in_input_order_whatever_the_thread_count() {
        let squares = run_parallel(
            50,
            3,
            || 0u32,
            |calls, i| {
                *calls += 1;
                i * i
            },
            |_, _| true,
        );
        let squares: Vec<usize> = squares.into_iter().map(Option::unwrap).collect();
        assert_eq!(squares, (0..50).map(|i| i * i).collect::<Vec<_>>());
    }

    #[test]
    fn a_run_given_up_starts_nothing_more() {
        let mut seen = 0;
        let slow = |(): &mut (), i| {
            std::thread::sleep(Duration::from_millis(1));
            i
        };
        let results = run_parallel(
            1000,
            2,
            || (),
            slow,
            |_, _| {
                seen += 1;
                seen < 3
            },
        );
        let computed = results.iter().filter(|r| r.is_some()).count();
        // The workers may have started a few more meanwhile, not the rest.
        assert!((3..100).contains(&computed), "{computed}");
    }

    #[test]
    fn batch_analysis_matches_one_engine_per_position() {
        let positions: Vec<Position> = ["D4", "D6", "C5"]
            .iter()
            .map(|m| small_board().play(&m.parse().unwrap()).unwrap())
            .chain([small_board()])
            .collect();
        let limits = Limits::nodes(400);
        let batch = analyse_many(&positions, limits, 5, 2, &Budget::default());
        assert_eq!(batch.len(), positions.len());
        for (pos, result) in positions.iter().zip(&batch) {
            let alone = Engine::new(limits, 5).analyse(pos).unwrap();
            let result = result.as_ref().unwrap();
            assert_eq!(
                (&result.best_move, result.nodes),
                (&alone.best_move, alone.nodes)
            );
        }
    }

    #[test]
    fn a_finished_position_is_an_error_in_its_place() {
        let won: Position = "7/7/7/7/7/7/7/7/3@3 X".parse().unwrap();
        let results = analyse_many(
            &[small_board(), won],
            Limits::nodes(100),
            1,
            2,
            &Budget::default(),
        );
        assert!(results[0].is_ok());
        assert!(matches!(results[1], Err(EngineError::Finished { .. })));
    }

    #[test]
    fn a_cancelled_batch_stops() {
        let cancel = AtomicBool::new(true);
        let results = analyse_many(
            &[small_board(); 4],
            Limits::nodes(100),
            1,
            2,
            &Budget::default().with_cancel_flag(&cancel),
        );
        assert!(results
            .iter()
            .all(|r| matches!(r, Err(EngineError::Interrupted(SearchError::Cancelled)))));
    }

    #[test]
    fn self_play_does_not_depend_on_the_thread_count() {
        let run = SelfPlay::new(vec![small_board()], Limits::nodes(300), 9, 30).unwrap();
        let games = |jobs| -> Vec<(Game, Vec<MoveAnalysis>)> {
            run.play(4, jobs, &Budget::default(), |_, _| true)
                .into_iter()
                .map(|g| g.map(|g| (g.game, g.analyses)).unwrap())
                .collect()
        };
        let one = games(1);
        assert_eq!(one.len(), 4);
        assert_eq!(one, games(2));
        // Different games get different seeds, so not all games are alike.
        let seeds: std::collections::HashSet<u64> = (0..4).map(|i| run.game_seed(i)).collect();
        assert_eq!(seeds.len(), 4);
    }

    #[test]
    fn a_range_of_games_is_those_games_of_the_whole_run() {
        let run = SelfPlay::new(vec![small_board()], Limits::nodes(200), 4, 20).unwrap();
        let whole = run.play(5, 2, &Budget::default(), |_, _| true);
        let mut seen = Vec::new();
        let part = run.play_range(2..5, 2, &Budget::default(), |i, _| {
            seen.push(i);
            true
        });
        seen.sort_unstable();
        assert_eq!(seen, [2, 3, 4]);
        let part: Vec<SelfPlayGame> = part.into_iter().map(Result::unwrap).collect();
        let whole: Vec<SelfPlayGame> = whole.into_iter().map(Result::unwrap).collect();
        assert_eq!(part.iter().map(|g| g.index).collect::<Vec<_>>(), [2, 3, 4]);
        for (a, b) in part.iter().zip(&whole[2..]) {
            assert_eq!((a.seed, &a.game), (b.seed, &b.game));
        }
    }

    #[test]
    fn self_play_refuses_no_openings_and_a_finished_one_by_its_index() {
        let won: Position = "7/7/7/7/7/7/7/7/3@3 X".parse().unwrap();
        let new = |openings| SelfPlay::new(openings, Limits::nodes(10), 1, 10);
        assert_eq!(new(vec![]), Err(OpeningError::Empty));
        let refused = new(vec![small_board(), won]).unwrap_err();
        assert!(
            matches!(refused, OpeningError::Finished { index: 1, .. }),
            "{refused:?}"
        );
        assert!(
            refused.to_string().starts_with("openings[1]: "),
            "{refused}"
        );
    }

    #[test]
    fn a_self_play_game_is_the_two_engines_game() {
        let run = SelfPlay::new(vec![small_board()], Limits::nodes(200), 3, 24).unwrap();
        let played = run.play_one(1, &Budget::default()).unwrap();
        // The same game played move by move: Ohs's engine has the game's
        // seed, Eks's the next.
        let seed = run.game_seed(1);
        let engines = [
            Engine::new(run.limits(), seed),
            Engine::new(run.limits(), seed + 1),
        ];
        let mut game = Game::new(small_board()).with_move_limit(Some(24));
        let mut searches = Vec::new();
        while game.result() == phutball::GameResult::Ongoing {
            let engine = &engines[usize::from(game.position().to_move() == Side::Eks)];
            let analysis = engine.analyse_game(&game).unwrap();
            searches.push(MoveAnalysis::from(&analysis));
            game.push(analysis.best_move).unwrap();
        }
        assert_eq!((played.index, played.seed, &played.game), (1, seed, &game));
        assert_eq!(played.analyses, searches);
    }

    #[test]
    fn each_move_of_a_self_play_game_has_its_search() {
        let run = SelfPlay::new(vec![small_board()], Limits::nodes(300), 5, 40).unwrap();
        let played: Vec<SelfPlayGame> = run
            .play(6, 2, &Budget::default(), |_, _| true)
            .into_iter()
            .map(Result::unwrap)
            .collect();
        let mut decisive = 0;
        for one in &played {
            assert_eq!(one.analyses.len(), one.game.moves().len());
            for a in &one.analyses {
                // A move the search chose on its evaluation was searched
                // (a proved result may come from the root's checks, at
                // depth 0).
                if let (Decision::Searched, Score::Eval(_)) = (a.decision, a.score) {
                    assert!(a.depth > 0 && a.nodes > 0, "{a:?}");
                }
                // A side that can score does, at once.
                assert_eq!(
                    a.decision == Decision::Scores,
                    a.score == Score::Win { plies: 1 }
                );
            }
            if let phutball::GameResult::Win(winner) = one.game.result() {
                decisive += 1;
                // The winner's last move scored, and its search said so.
                let last = one.analyses.last().unwrap();
                let plies = one.game.moves().len();
                assert_eq!(one.game.positions()[plies - 1].to_move(), winner);
                assert_eq!(
                    (last.decision, last.score),
                    (Decision::Scores, Score::Win { plies: 1 })
                );
                // Whoever was shown a loss in n lost (no search claims a
                // forced result that the game did not have).
                for (ply, a) in one.analyses.iter().enumerate() {
                    let mover = one.game.positions()[ply].to_move();
                    match a.score {
                        Score::Win { .. } => assert_eq!(mover, winner, "ply {ply}: {a:?}"),
                        Score::Loss { .. } => assert_ne!(mover, winner, "ply {ply}: {a:?}"),
                        Score::Eval(_) => {}
                    }
                }
            }
        }
        assert!(decisive > 0, "no game was decided");
    }

    #[test]
    fn random_openings_give_game_i_opening_i() {
        let run = SelfPlay::random_openings(Limits::nodes(100), 8, 6);
        assert!(run.openings().is_empty());
        let played = run.play_range(3..6, 2, &Budget::default(), |_, _| true);
        for (i, one) in (3..6).zip(played) {
            let one = one.unwrap();
            assert_eq!(*one.game.start(), random_opening(run.game_seed(i), 0));
            assert_eq!(run.opening(i), *one.game.start());
        }
        let given = SelfPlay::new(
            vec![small_board(), Position::standard()],
            Limits::nodes(10),
            1,
            5,
        )
        .unwrap();
        assert_eq!(
            (given.opening(2), given.opening(3)),
            (small_board(), Position::standard())
        );
    }

    #[test]
    fn games_come_in_order_as_they_finish_and_an_error_ends_the_run() {
        let run = SelfPlay::new(vec![small_board()], Limits::nodes(100), 2, 16).unwrap();
        let (mut finished, mut in_order) = (0, Vec::new());
        let all = run.play_in_order(
            3..9,
            3,
            &Budget::default(),
            |_, _| finished += 1,
            |index, game| {
                assert_eq!(game.unwrap().index, index);
                in_order.push(index);
                Ok::<(), ()>(())
            },
        );
        assert_eq!((all, finished), (Ok(()), 6));
        assert_eq!(in_order, [3, 4, 5, 6, 7, 8]);
        // The second game handed over ends the run with the error.
        let mut seen = Vec::new();
        let ended = run.play_in_order(
            0..50,
            2,
            &Budget::default(),
            |_, _| {},
            |index, _| {
                seen.push(index);
                if seen.len() == 2 {
                    Err("enough")
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!((ended, seen), (Err("enough"), vec![0, 1]));
    }

    #[test]
    fn self_play_ends_when_told() {
        let run = SelfPlay::new(vec![small_board()], Limits::nodes(100), 1, 10).unwrap();
        let mut seen = 0;
        let played = run.play(50, 2, &Budget::default(), |_, _| {
            seen += 1;
            false
        });
        assert!(played.len() < 50, "{}", played.len());
    }
}
