//! Many games of step-by-step play stepped as one batch (reinforcement
//! learning): [`VecEnv`]. Each game is a [`StepState`] of the core's action
//! space; one [`VecEnv::step`] takes one action in every game, resets the
//! finished ones to the start, and writes every game's observation (the
//! core's [`StepState::write_planes`]), legal-action mask, reward and end
//! flags into the caller's slices, on up to [`VecEnv::jobs`] threads. Each
//! game is an [`Episode`] of the core, where the step and reward rule is.
//!
//! A step or a reset is O(N) work for N games, so it needs no work limit;
//! [`VecEnv::step_within`] and [`VecEnv::reset_within`] take a [`Budget`]
//! all the same, polled every [`POLL_GAMES`] games, so that a large batch
//! can be cancelled (Ctrl-C from Python) or given a deadline.
//!
//! ```
//! use phutball::{BoardSize, Position};
//! use phutball_env::{StepBuffers, VecEnv};
//! let mut env = VecEnv::new(Position::standard(), 4, Some(200), 7, 1)?;
//! let size = BoardSize::STANDARD;
//! let (mut planes, mut masks) = (vec![0.0; 4 * size.planes_len()], vec![false; 4 * size.action_count()]);
//! env.reset(None, &mut planes, &mut masks)?;
//! let (mut rewards, mut terminated, mut truncated) = (vec![0.0; 4], vec![false; 4], vec![false; 4]);
//! let actions = env.sample_actions();
//! let finals = env.step(&actions, &mut StepBuffers {
//!     planes: &mut planes, masks: &mut masks, rewards: &mut rewards,
//!     terminated: &mut terminated, truncated: &mut truncated,
//! })?;
//! assert!(finals.is_empty(), "one placement ends no game");
//! # Ok::<(), phutball_env::VecEnvError>(())
//! ```

use std::sync::{Mutex, PoisonError};

use phutball::{Budget, Episode, Position, SearchError, Side, StepState};
use phutball_engine::{Engine, Evaluation, Limits};

use crate::blocks::{draw, merge, run_blocks, Block, Shared, BLOCK_GAMES, POLL_GAMES};
use crate::buffers::{FinalObservation, StepBuffers};
use crate::error::VecEnvError;
use crate::opponent::{Opponent, Seat};
use crate::workers::Workers;

/// The fewest games a step gives a job (a thread) of its own. A game's step (with
/// its planes and mask) takes about a microsecond, and waking the batch's
/// threads and waiting for the last of them costs some tens of
/// microseconds a step: two threads were 0.9x one at 128 games and 1.2x
/// at 256 (docs/performance.md, `random_steps --jobs`).
pub const MIN_GAMES_PER_JOB: usize = 128;

/// Mixed into the seed of [`VecEnv::sample_actions`]' generators.
const AGENT_DRAWS: u64 = 0xA5A5_5A5A_C3C3_3C3C;

/// A batch of games played step by step from one start position: each game
/// is an [`Episode`] of the core's action space; one [`VecEnv::step`] takes
/// one action in every game, resets the finished ones to the start, and
/// writes every game's observation, legal-action mask, reward and end flags
/// into the caller's slices ([`StepBuffers`]). A step splits the batch
/// between jobs (threads) only where each gets [`MIN_GAMES_PER_JOB`] games.
#[derive(Clone, Debug)]
pub struct VecEnv {
    /// Every game's start: an episode at the start position.
    start: Episode,
    games: Vec<Episode>,
    /// The jobs asked for.
    jobs: usize,
    /// The fewest games a job of a step gets.
    min_games_per_job: usize,
    /// [`VecEnv::sample_actions`]' seed, and the calls since it was set.
    sample_seed: u64,
    samples: u64,
    /// The next call's draws, where the step before made them.
    next_draws: NextDraws,
    /// The agent's side and opponent.
    seat: Seat,
    /// An engine opponent's engines, one per job (each keeps its table).
    engines: Vec<Engine>,
    /// The evaluation an engine opponent searches with.
    opponent_evaluation: Evaluation,
    /// The threads of the steps on more than one job.
    workers: Workers,
    /// The games' last states but one (or nothing yet): a step writes the
    /// next states there, so that it copies no batch.
    spare: Vec<Episode>,
}

impl VecEnv {
    /// `count` games at `start`; a game reaching `move_limit` whole moves
    /// without a goal is truncated (`None`: never); `seed` seeds
    /// [`VecEnv::sample_actions`]; a step runs at most `jobs` threads
    /// (see [`VecEnv::jobs`]; [`phutball::default_jobs`] is every core).
    ///
    /// # Errors
    ///
    /// [`VecEnvError::Config`] for no games, no jobs, a move limit of 0
    /// or a finished start; [`VecEnvError::Interrupted`] with
    /// [`SearchError::OutOfMemory`] for more games than memory holds.
    pub fn new(
        start: Position,
        count: usize,
        move_limit: Option<u32>,
        seed: u64,
        jobs: usize,
    ) -> Result<VecEnv, VecEnvError> {
        let bad = |what: &str| Err(VecEnvError::Config(what.to_string()));
        if count == 0 {
            return bad("a batch needs at least one game");
        }
        if jobs == 0 {
            return bad("jobs must be at least 1");
        }
        let start = Episode::new(start.into(), move_limit)
            .map_err(|e| VecEnvError::Config(e.to_string()))?;
        let mut games = reserved_games(count)?;
        games.resize(count, start);
        Ok(VecEnv {
            start,
            games,
            jobs,
            min_games_per_job: MIN_GAMES_PER_JOB,
            sample_seed: seed,
            samples: 0,
            next_draws: NextDraws::default(),
            seat: Seat::self_play(seed),
            engines: Vec::new(),
            opponent_evaluation: Evaluation::Auto,
            workers: Workers::default(),
            spare: Vec::new(),
        })
    }

    /// The same batch for one agent playing `agent` against `opponent`
    /// (see [`Opponent`]): every step takes the agent's action in each game
    /// and, when it passes the turn, the opponent's whole move; rewards are
    /// the agent's, and observations always show the agent to act (with an
    /// [`Opponent::External`], until [`VecEnv::step_waiting`] has answered
    /// [`VecEnv::waiting`]). Call [`VecEnv::reset`] before the first step:
    /// where the opponent moves first, it plays its opening there.
    ///
    /// # Errors
    ///
    /// [`VecEnvError::Config`] if the opponent moves first at the start and
    /// could end the game at once (a jump there, or a move limit of 1).
    pub fn with_opponent(mut self, opponent: Opponent, agent: Side) -> Result<VecEnv, VecEnvError> {
        self.seat.opponent = opponent;
        self.seat.agent = agent;
        self.seat.check_start(&self.start)?;
        self.engines = match opponent {
            // The seed breaks the engine's ties: each engine plays the same moves.
            Opponent::Engine(limits) => vec![self.opponent_engine(limits, self.seat.seed)],
            _ => Vec::new(),
        };
        if let Opponent::Engine(_) = opponent {
            // A game's step is a search then (a millisecond or more, not half
            // a microsecond): a block of games is worth a thread of its own.
            self.min_games_per_job = self.min_games_per_job.min(BLOCK_GAMES);
        }
        Ok(self)
    }

    /// The same batch with an [`Opponent::Engine`] searching with
    /// `evaluation` (the hand evaluation, a learned network:
    /// docs/network.md, or the default), before or after
    /// [`VecEnv::with_opponent`]; the other opponents do not use it. Where
    /// the engine moves first, [`VecEnv::reset`] plays its opening with it.
    ///
    /// # Errors
    ///
    /// [`VecEnvError::Network`] if `evaluation` is a network without a
    /// network for the start's board size (checked now, not at the first
    /// search of a step).
    pub fn with_opponent_evaluation(
        mut self,
        evaluation: Evaluation,
    ) -> Result<VecEnv, VecEnvError> {
        evaluation
            .check_size(self.start.state().position().size())
            .map_err(VecEnvError::Network)?;
        self.opponent_evaluation = evaluation;
        for engine in &mut self.engines {
            *engine = engine
                .clone()
                .with_evaluation(self.opponent_evaluation.clone());
        }
        Ok(self)
    }

    /// The evaluation an [`Opponent::Engine`] searches with
    /// ([`Evaluation::Auto`], the engine's default, unless
    /// [`VecEnv::with_opponent_evaluation`] gave another).
    pub fn opponent_evaluation(&self) -> &Evaluation {
        &self.opponent_evaluation
    }

    /// An engine opponent of these `limits` and `seed`, with the batch's
    /// opponent evaluation.
    fn opponent_engine(&self, limits: Limits, seed: u64) -> Engine {
        Engine::new(limits, seed).with_evaluation(self.opponent_evaluation.clone())
    }

    /// The opponent.
    pub fn opponent(&self) -> Opponent {
        self.seat.opponent
    }

    /// The agent's side (Ohs in self-play, where it plays both).
    pub fn agent_side(&self) -> Side {
        self.seat.agent
    }

    /// The games waiting for an [`Opponent::External`]'s action, in order
    /// (none for the other opponents, between steps).
    pub fn waiting(&self) -> Vec<usize> {
        let seat = &self.seat;
        (0..self.games.len())
            .filter(|&i| seat.waits(&self.games[i].state()))
            .collect()
    }

    /// The same batch with `games` (at least 1) instead of
    /// [`MIN_GAMES_PER_JOB`] as the fewest games a job of a step gets:
    /// lower on a machine with idle cores and quick thread starts, higher
    /// where the cores are busy with other work.
    #[must_use]
    pub fn with_min_games_per_job(mut self, games: usize) -> VecEnv {
        self.min_games_per_job = games.max(1);
        self
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Always false: a batch has at least one game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The jobs (threads) a step runs: those asked for, but no more than one
    /// per [`MIN_GAMES_PER_JOB`] games (or [`VecEnv::with_min_games_per_job`];
    /// and at least one).
    pub fn jobs(&self) -> usize {
        let shares = self.games.len() / self.min_games_per_job;
        self.jobs.min(shares).max(1)
    }

    /// The start position every game starts and restarts from.
    pub fn start(&self) -> Position {
        self.start.state().position()
    }

    /// The whole-move limit.
    pub fn move_limit(&self) -> Option<u32> {
        self.start.move_limit()
    }

    /// The state of each game, in order.
    pub fn states(&self) -> impl Iterator<Item = StepState> + '_ {
        self.games.iter().map(Episode::state)
    }

    /// Each game, in order (its state and the whole moves it has played).
    pub fn episodes(&self) -> &[Episode] {
        &self.games
    }

    /// Puts every game back at the start (and reseeds [`VecEnv::sample_actions`],
    /// and an opponent's generator or engine, when `seed` is given), plays
    /// a random or engine opponent's opening where it moves first, and
    /// writes the observations and masks.
    ///
    /// # Errors
    ///
    /// [`VecEnvError::Length`] if a slice does not fit the batch.
    pub fn reset(
        &mut self,
        seed: Option<u64>,
        planes: &mut [f32],
        masks: &mut [bool],
    ) -> Result<(), VecEnvError> {
        self.reset_within(seed, planes, masks, &Budget::unlimited())
    }

    /// [`VecEnv::reset`] within `budget`, polled every [`POLL_GAMES`] games.
    ///
    /// # Errors
    ///
    /// [`VecEnvError::Length`] if a slice does not fit the batch,
    /// [`VecEnvError::Interrupted`] if the budget stopped it: then no game
    /// changed (the slices may hold part of the start's observations).
    pub fn reset_within(
        &mut self,
        seed: Option<u64>,
        planes: &mut [f32],
        masks: &mut [bool],
        budget: &Budget<'_>,
    ) -> Result<(), VecEnvError> {
        let (planes_len, action_count) = self.block_sizes();
        self.check_length("planes", planes.len(), planes_len)?;
        self.check_length("masks", masks.len(), action_count)?;
        // Every game shows the same start: encode it once, copy it.
        let start = self.start.state();
        start.write_planes(false, &mut planes[..planes_len]);
        start.write_legal_action_mask(&mut masks[..action_count]);
        for i in 1..self.games.len() {
            if i % POLL_GAMES == 0 {
                if let Some(stop) = budget.interrupted() {
                    return Err(VecEnvError::Interrupted(stop));
                }
            }
            planes.copy_within(..planes_len, i * planes_len);
            masks.copy_within(..action_count, i * action_count);
        }
        let mut seat = self.seat.clone();
        if let Some(seed) = seed {
            (seat.seed, seat.steps) = (seed, 0);
        }
        // A new seed is the engine opponent's too (it breaks the engine's ties).
        let engines = match (seed, seat.opponent) {
            (Some(seed), Opponent::Engine(limits)) => {
                Some(vec![self.opponent_engine(limits, seed)])
            }
            _ => None,
        };
        let engine = engines.as_ref().unwrap_or(&self.engines).first();
        let openings = self.openings(&seat, engine, planes, masks, budget)?;
        if let Some(seed) = seed {
            (self.sample_seed, self.samples) = (seed, 0);
        }
        self.next_draws.ready = false;
        if let Some(engines) = engines {
            self.engines = engines;
        }
        match openings {
            Some(games) => self.games = games,
            None => self.games.fill(self.start),
        }
        seat.steps = seat.steps.wrapping_add(1);
        self.seat = seat;
        Ok(())
    }

    /// Where a random or engine opponent moves first, each game's start
    /// after its opening move (`None` otherwise), its observation and mask
    /// written; the budget polled every [`POLL_GAMES`] games.
    fn openings(
        &self,
        seat: &Seat,
        engine: Option<&Engine>,
        planes: &mut [f32],
        masks: &mut [bool],
        budget: &Budget<'_>,
    ) -> Result<Option<Vec<Episode>>, VecEnvError> {
        if !(seat.plays_here() && seat.waits(&self.start.state())) {
            return Ok(None);
        }
        let (planes_len, action_count) = self.block_sizes();
        let mut games = reserved_games(self.games.len())?;
        // The engine's opening is the same in every game: searched once.
        let mut shared = None;
        for i in 0..self.games.len() {
            if i % POLL_GAMES == 0 {
                if let Some(stop) = budget.interrupted() {
                    return Err(VecEnvError::Interrupted(stop));
                }
            }
            let game = if let Some(game) = shared {
                game
            } else {
                seat.opening(&self.start, engine, &mut seat.rng(i), budget, i)?
            };
            if matches!(seat.opponent, Opponent::Engine(_)) {
                shared = Some(game);
            }
            game.state()
                .write_planes(false, &mut planes[i * planes_len..][..planes_len]);
            game.state()
                .write_legal_action_mask(&mut masks[i * action_count..][..action_count]);
            games.push(game);
        }
        Ok(Some(games))
    }

    /// One legal action for every game, uniformly at random: a random
    /// player's moves, with no round trip through masks. Each game's draw is
    /// its own generator's (from the seed, the game and the calls so far), so
    /// the threads of [`VecEnv::jobs`] share the work and a seed gives the
    /// same actions on any number of jobs. A step that follows a call makes
    /// the next call's draws as it steps each game (the same draws, without
    /// a second hand-over to the threads), so random play is one hand-over a
    /// step.
    pub fn sample_actions(&mut self) -> Vec<usize> {
        let (seed, call) = self.draw_key();
        self.samples = self.samples.wrapping_add(1);
        self.next_draws.wanted = true;
        if std::mem::take(&mut self.next_draws.ready) {
            return self.next_draws.actions.clone();
        }
        let mut actions = vec![0; self.games.len()];
        let queue = Mutex::new(
            actions
                .chunks_mut(BLOCK_GAMES)
                .zip(self.games.chunks(BLOCK_GAMES))
                .enumerate(),
        );
        let jobs = self.jobs();
        self.workers.run(jobs, |_| loop {
            let block = queue.lock().unwrap_or_else(PoisonError::into_inner).next();
            let Some((block, (actions, games))) = block else {
                return;
            };
            for (i, (action, game)) in actions.iter_mut().zip(games).enumerate() {
                *action = draw(seed, call, block * BLOCK_GAMES + i, game);
            }
        });
        actions
    }

    /// The seed and call number of the next [`VecEnv::sample_actions`]'
    /// draws. Not the random opponent's generators (the seat's), which have
    /// the same seed and count steps as this counts calls.
    fn draw_key(&self) -> (u64, u64) {
        (self.sample_seed ^ AGENT_DRAWS, self.samples)
    }

    /// Takes `actions[i]` in game `i`, resets the games that ended (a goal
    /// or the move limit) and writes every game's results into `out`. It
    /// returns the last observations of the games that ended. If any action
    /// cannot be taken, no game changes and the error names the first such game.
    ///
    /// # Errors
    ///
    /// [`VecEnvError::Length`] if a slice does not fit the batch,
    /// [`VecEnvError::Action`] for an action its game cannot take.
    pub fn step(
        &mut self,
        actions: &[usize],
        out: &mut StepBuffers<'_>,
    ) -> Result<Vec<FinalObservation>, VecEnvError> {
        self.step_within(actions, out, &Budget::unlimited())
    }

    /// [`VecEnv::step`] within `budget`, which each thread polls every
    /// [`POLL_GAMES`] games.
    ///
    /// # Errors
    ///
    /// As [`VecEnv::step`], and [`VecEnvError::Interrupted`] if the budget
    /// stopped it. After any error no game has changed (`out` may hold part
    /// of the step's results).
    pub fn step_within(
        &mut self,
        actions: &[usize],
        out: &mut StepBuffers<'_>,
        budget: &Budget<'_>,
    ) -> Result<Vec<FinalObservation>, VecEnvError> {
        let (planes_len, action_count) = self.block_sizes();
        self.check_length("actions", actions.len(), 1)?;
        self.check_length("planes", out.planes.len(), planes_len)?;
        self.check_length("masks", out.masks.len(), action_count)?;
        self.check_length("rewards", out.rewards.len(), 1)?;
        self.check_length("terminated", out.terminated.len(), 1)?;
        self.check_length("truncated", out.truncated.len(), 1)?;
        let jobs = self.jobs();
        if let Some(engine) = self.engines.first() {
            // A clone has no table yet: each job's engine allocates its own
            // once, and keeps it for the steps after.
            let engine = engine.clone();
            self.engines.resize(jobs.max(self.engines.len()), engine);
        }
        // Every game's next state is written into the spare batch, which
        // becomes the batch if every action could be taken.
        let mut next = std::mem::take(&mut self.spare);
        if next.len() != self.games.len() {
            next = self.games_copy()?;
        }
        // After a sample_actions call, the next call's draws are made here.
        let draw_key = std::mem::take(&mut self.next_draws.wanted).then(|| self.draw_key());
        self.next_draws.ready = false;
        let mut draws = std::mem::take(&mut self.next_draws.actions);
        if draw_key.is_some() && draws.len() != self.games.len() {
            draws = vec![0; self.games.len()];
        }
        let blocks = Block::split(
            &self.games,
            &mut next,
            actions,
            out,
            draw_key.is_some().then_some(draws.as_mut_slice()),
            (planes_len, action_count),
        );
        let shared = Shared {
            start: &self.start,
            seat: &self.seat,
            engines: &self.engines,
            draw_key,
        };
        let results = run_blocks(&mut self.workers, blocks, &shared, jobs, budget);
        self.next_draws.actions = draws;
        let finals = match merge(results) {
            Ok(finals) => finals,
            Err(e) => {
                self.spare = next;
                return Err(e);
            }
        };
        self.next_draws.ready = draw_key.is_some();
        self.spare = std::mem::replace(&mut self.games, next);
        self.seat.steps = self.seat.steps.wrapping_add(1);
        Ok(finals)
    }

    /// An [`Opponent::External`]'s actions: `actions[k]` in the `k`-th game
    /// of [`VecEnv::waiting`]. Only those games change and only their
    /// entries of `out` are written: the observation and mask (the
    /// opponent's again mid-jump, else the agent's), and, for a game the
    /// action ended, the agent's reward and the end flags (which the
    /// agent's step had written for the other games). A game that ended
    /// restarts, waiting again if the opponent moves first. It returns the
    /// last observations of the games that ended. The budget is polled
    /// every [`POLL_GAMES`] games.
    ///
    /// # Errors
    ///
    /// As [`VecEnv::step_within`] (`actions` must have one entry per
    /// waiting game, [`VecEnvError::Config`] for a batch without an
    /// external opponent). After any error no game has changed.
    pub fn step_waiting(
        &mut self,
        actions: &[usize],
        out: &mut StepBuffers<'_>,
        budget: &Budget<'_>,
    ) -> Result<Vec<FinalObservation>, VecEnvError> {
        if self.seat.opponent != Opponent::External {
            return Err(VecEnvError::Config(
                "step_waiting is for an external opponent".to_string(),
            ));
        }
        let (planes_len, action_count) = self.block_sizes();
        let waiting = self.waiting();
        if actions.len() != waiting.len() {
            return Err(VecEnvError::Length {
                what: "actions",
                expected: waiting.len(),
                got: actions.len(),
            });
        }
        self.check_length("planes", out.planes.len(), planes_len)?;
        self.check_length("masks", out.masks.len(), action_count)?;
        for (what, len) in [
            ("rewards", out.rewards.len()),
            ("terminated", out.terminated.len()),
        ] {
            self.check_length(what, len, 1)?;
        }
        self.check_length("truncated", out.truncated.len(), 1)?;
        let mut next = self.games.clone();
        let mut finals = Vec::new();
        self.next_draws.ready = false;
        for (k, (&i, &action)) in waiting.iter().zip(actions).enumerate() {
            if k % POLL_GAMES == 0 {
                if let Some(stop) = budget.interrupted() {
                    return Err(VecEnvError::Interrupted(stop));
                }
            }
            let taken = self
                .seat
                .step_opponent(i, &self.games[i], action, &self.start)?;
            if let Some(last) = taken.last {
                out.rewards[i] = taken.reward;
                out.terminated[i] = taken.terminated;
                out.truncated[i] = taken.truncated;
                finals.push(FinalObservation {
                    game: i,
                    planes: last.planes(false),
                });
            }
            next[i] = taken.next;
            let shown = next[i].state();
            shown.write_planes(false, &mut out.planes[i * planes_len..][..planes_len]);
            shown.write_legal_action_mask(&mut out.masks[i * action_count..][..action_count]);
        }
        self.games = next;
        Ok(finals)
    }

    /// A copy of the games (see [`reserved_games`]).
    fn games_copy(&self) -> Result<Vec<Episode>, VecEnvError> {
        let mut games = reserved_games(self.games.len())?;
        games.extend_from_slice(&self.games);
        Ok(games)
    }

    /// The values of one game's planes and mask.
    fn block_sizes(&self) -> (usize, usize) {
        let size = self.start().size();
        (size.planes_len(), size.action_count())
    }

    fn check_length(
        &self,
        what: &'static str,
        got: usize,
        per_game: usize,
    ) -> Result<(), VecEnvError> {
        let expected = self.games.len() * per_game;
        if got == expected {
            Ok(())
        } else {
            Err(VecEnvError::Length {
                what,
                expected,
                got,
            })
        }
    }
}

/// The draws of the next [`VecEnv::sample_actions`] call, made by a step.
#[derive(Clone, Debug, Default)]
struct NextDraws {
    /// A call came since the last step: the next step makes the next draws.
    wanted: bool,
    /// `actions` are the next call's draws for the games as they stand.
    ready: bool,
    actions: Vec<usize>,
}

/// Room for `count` games, reserved fallibly: a count no memory holds is
/// the out-of-memory error (Python's `MemoryLimitError`), not an abort.
fn reserved_games(count: usize) -> Result<Vec<Episode>, VecEnvError> {
    let mut games = Vec::new();
    games.try_reserve_exact(count).map_err(|_| {
        VecEnvError::Interrupted(SearchError::OutOfMemory {
            what: "the batch's games",
        })
    })?;
    Ok(games)
}

#[cfg(test)]
// Rewards are exactly -1.0, 0.0 or 1.0.
#[allow(clippy::float_cmp)]
mod tests {
    use phutball::{Action, ActionError, BoardSize, EpisodeError};

    use super::*;

    #[test]
    fn more_games_than_memory_holds_is_the_out_of_memory_error() {
        let err = VecEnv::new(Position::standard(), usize::MAX, None, 1, 1).err();
        assert_eq!(
            err,
            Some(VecEnvError::Interrupted(SearchError::OutOfMemory {
                what: "the batch's games"
            }))
        );
    }

    struct Outputs {
        planes: Vec<f32>,
        masks: Vec<bool>,
        rewards: Vec<f32>,
        terminated: Vec<bool>,
        truncated: Vec<bool>,
    }

    impl Outputs {
        fn new(n: usize, size: BoardSize) -> Outputs {
            Outputs {
                planes: vec![0.0; n * size.planes_len()],
                masks: vec![false; n * size.action_count()],
                rewards: vec![0.0; n],
                terminated: vec![false; n],
                truncated: vec![false; n],
            }
        }

        fn buffers(&mut self) -> StepBuffers<'_> {
            StepBuffers {
                planes: &mut self.planes,
                masks: &mut self.masks,
                rewards: &mut self.rewards,
                terminated: &mut self.terminated,
                truncated: &mut self.truncated,
            }
        }
    }

    /// A small board, so that random games end often, by goals and by the limit.
    fn small_start() -> Position {
        Position::start_with(BoardSize::new(5, 7).unwrap(), phutball::Rules::default()).unwrap()
    }

    #[test]
    fn a_batch_steps_like_single_episodes_on_any_number_of_jobs() {
        let start = small_start();
        let size = start.size();
        // Enough games for two threads, the second with fewer than the first.
        let n = 2 * MIN_GAMES_PER_JOB + 37;
        let limit = 5;
        for jobs in [1, 2] {
            let mut env = VecEnv::new(start, n, Some(limit), 5, jobs).unwrap();
            assert_eq!(env.jobs(), jobs);
            // The reference: one core Episode a game, restarted by hand.
            let fresh = Episode::new(start.into(), Some(limit)).unwrap();
            let mut singles = vec![fresh; n];
            let mut out = Outputs::new(n, size);
            env.reset(None, &mut out.planes, &mut out.masks).unwrap();
            let (mut goals, mut limits) = (0, 0);
            for _ in 0..30 {
                let actions = env.sample_actions();
                let finals = env.step(&actions, &mut out.buffers()).unwrap();
                let mut ended = Vec::new();
                for (i, single) in singles.iter_mut().enumerate() {
                    let step = single.step(actions[i]).unwrap();
                    assert_eq!(out.rewards[i], step.reward);
                    assert_eq!(out.terminated[i], step.terminated);
                    assert_eq!(out.truncated[i], step.truncated);
                    if step.is_over() {
                        ended.push((i, step.state.planes(false)));
                        goals += usize::from(step.terminated);
                        limits += usize::from(step.truncated);
                        *single = fresh;
                    }
                    let planes = &out.planes[i * size.planes_len()..][..size.planes_len()];
                    assert_eq!(planes, single.state().planes(false).as_slice());
                    let mask = &out.masks[i * size.action_count()..][..size.action_count()];
                    assert_eq!(mask, single.state().legal_action_mask().as_slice());
                }
                let finals: Vec<(usize, Vec<f32>)> =
                    finals.into_iter().map(|f| (f.game, f.planes)).collect();
                assert_eq!(finals, ended);
                assert_eq!(env.episodes(), singles.as_slice());
            }
            assert!(goals > 0 && limits > 0, "goals {goals}, limits {limits}");
        }
    }

    #[test]
    fn a_bad_action_changes_no_game_and_names_the_game() {
        let start = small_start();
        let n = 100;
        let mut env = VecEnv::new(start, n, None, 1, 2).unwrap();
        let mut out = Outputs::new(n, start.size());
        let mut actions = env.sample_actions();
        let before: Vec<StepState> = env.states().collect();
        let end_jump = start.size().action_index(Action::EndJump).unwrap();
        actions[77] = end_jump;
        let err = env.step(&actions, &mut out.buffers()).unwrap_err();
        assert!(
            matches!(
                err,
                VecEnvError::Action {
                    game: 77,
                    source: EpisodeError::Action(ActionError::NoJumpUnderWay),
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().starts_with("game 77: action "), "{err}");
        assert!(env.states().eq(before.iter().copied()));
        actions[77] = start.size().action_count();
        let err = env.step(&actions, &mut out.buffers()).unwrap_err();
        assert!(err.to_string().contains("does not exist"), "{err}");
        let err = env.step(&actions[1..], &mut out.buffers()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "actions has 99 entries, not the 100 this batch needs"
        );
        assert!(env.states().eq(before.iter().copied()));
        // The failed steps left the batch as it was: the good actions step it.
        actions[77] = env.sample_actions()[77];
        env.step(&actions, &mut out.buffers()).unwrap();
        for (i, (state, before)) in env.states().zip(&before).enumerate() {
            let single = Episode::new(*before, None)
                .unwrap()
                .step(actions[i])
                .unwrap();
            assert_eq!(state, single.state, "game {i}");
        }
    }

    #[test]
    fn sampled_actions_are_the_seeds_on_any_number_of_jobs_and_uniform() {
        let start = small_start();
        // Enough for two jobs, and about 30 draws of each action at the start.
        let n = 1024;
        let draws = |jobs: usize, seed: u64| {
            let mut env = VecEnv::new(start, n, None, seed, jobs).unwrap();
            assert_eq!(env.jobs(), jobs);
            let mut out = Outputs::new(n, start.size());
            let mut calls = Vec::new();
            for _ in 0..3 {
                let actions = env.sample_actions();
                env.step(&actions, &mut out.buffers()).unwrap();
                calls.push(actions);
            }
            calls
        };
        let one = draws(1, 9);
        assert_eq!(one, draws(2, 9), "a seed's draws do not depend on the jobs");
        assert_ne!(one, draws(1, 10), "another seed draws otherwise");
        assert_ne!(one[0], one[1], "each call draws anew");
        // Every game is at the start at the first call: each legal action
        // should come about n / legal times.
        let legal = StepState::from(start).legal_actions().len();
        let mut counts = vec![0usize; start.size().action_count()];
        for &action in &one[0] {
            counts[action] += 1;
        }
        let expected = n as f64 / legal as f64;
        let chi_square: f64 = counts
            .iter()
            .filter(|&&c| c > 0)
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        assert_eq!(counts.iter().filter(|&&c| c > 0).count(), legal);
        // Far above the 99.9% point of chi-square with legal - 1 degrees of
        // freedom only if the draws are not uniform.
        assert!(
            chi_square < 3.0 * legal as f64 + 30.0,
            "chi-square {chi_square} over {legal} actions: {counts:?}"
        );
    }

    #[test]
    fn the_draws_a_step_makes_are_the_next_calls_own() {
        let start = small_start();
        let n = 2 * MIN_GAMES_PER_JOB + 5;
        let bad = start.size().action_count();
        for jobs in [1, 2] {
            let mut env = VecEnv::new(start, n, Some(5), 3, jobs).unwrap();
            let mut out = Outputs::new(n, start.size());
            env.reset(None, &mut out.planes, &mut out.masks).unwrap();
            // Each call's draws, from the games as they stand.
            let by_hand = |env: &VecEnv, seed: u64, call: u64| -> Vec<usize> {
                let seed = seed ^ AGENT_DRAWS;
                env.games
                    .iter()
                    .enumerate()
                    .map(|(g, e)| draw(seed, call, g, e))
                    .collect()
            };
            let (mut seed, mut call) = (3, 0);
            for round in 0..15 {
                let expected = by_hand(&env, seed, call);
                let actions = env.sample_actions();
                call += 1;
                assert_eq!(actions, expected, "jobs {jobs}, round {round}");
                match round % 5 {
                    // A step that fails, then the sampled one.
                    1 => {
                        let mut wrong = actions.clone();
                        wrong[n - 1] = bad;
                        assert!(env.step(&wrong, &mut out.buffers()).is_err());
                        env.step(&actions, &mut out.buffers()).unwrap();
                    }
                    // The sampled step, then one of other actions.
                    2 => {
                        env.step(&actions, &mut out.buffers()).unwrap();
                        let other = by_hand(&env, 77, 0);
                        env.step(&other, &mut out.buffers()).unwrap();
                    }
                    3 => env.reset(None, &mut out.planes, &mut out.masks).unwrap(),
                    4 => {
                        env.step(&actions, &mut out.buffers()).unwrap();
                        (seed, call) = (4, 0);
                        env.reset(Some(seed), &mut out.planes, &mut out.masks)
                            .unwrap();
                    }
                    _ => {
                        env.step(&actions, &mut out.buffers()).unwrap();
                    }
                }
            }
        }
    }

    #[test]
    fn a_thread_gets_at_least_its_share_of_games() {
        let start = small_start();
        for (count, asked, used) in [
            (1, 4, 1),
            (2 * MIN_GAMES_PER_JOB - 1, 4, 1),
            (2 * MIN_GAMES_PER_JOB, 4, 2),
            (2 * MIN_GAMES_PER_JOB, 1, 1),
            (5 * MIN_GAMES_PER_JOB, 4, 4),
        ] {
            let env = VecEnv::new(start, count, None, 0, asked).unwrap();
            assert_eq!(env.jobs(), used, "{count} games, {asked} threads asked");
        }
        let env = VecEnv::new(start, 300, None, 0, 4).unwrap();
        assert_eq!(env.with_min_games_per_job(100).jobs(), 3);
    }

    #[test]
    fn an_interrupted_step_or_reset_changes_no_game() {
        let start = small_start();
        let size = start.size();
        // Three polls a thread: the interrupt comes at the second.
        let n = 2 * 3 * POLL_GAMES;
        let mut env = VecEnv::new(start, n, None, 1, 2).unwrap();
        assert_eq!(env.jobs(), 2);
        let mut out = Outputs::new(n, size);
        let first = env.sample_actions();
        env.step(&first, &mut out.buffers()).unwrap();
        let before: Vec<StepState> = env.states().collect();
        let polls = std::sync::atomic::AtomicUsize::new(0);
        let second_poll = || {
            (polls.fetch_add(1, std::sync::atomic::Ordering::Relaxed) >= 1)
                .then_some(phutball::Interrupt::TimedOut)
        };
        let budget = Budget::default().with_interrupt(&second_poll);
        let actions = env.sample_actions();
        let err = env
            .step_within(&actions, &mut out.buffers(), &budget)
            .unwrap_err();
        assert_eq!(err, VecEnvError::Interrupted(SearchError::TimedOut));
        assert_eq!(err.to_string(), "timed out");
        assert!(env.states().eq(before.iter().copied()));
        let cancelled = std::sync::atomic::AtomicBool::new(true);
        let budget = Budget::default().with_cancel_flag(&cancelled);
        let err = env
            .reset_within(Some(3), &mut out.planes, &mut out.masks, &budget)
            .unwrap_err();
        assert_eq!(err, VecEnvError::Interrupted(SearchError::Cancelled));
        assert!(env.states().eq(before.iter().copied()));
        // Unbounded, the same actions step every game.
        env.step(&actions, &mut out.buffers()).unwrap();
        assert!(!env.states().eq(before.iter().copied()));
    }

    #[test]
    fn bad_configurations_say_why() {
        let start = small_start();
        for (count, limit, threads, expected) in [
            (0, None, 1, "at least one game"),
            (1, None, 0, "jobs must be at least 1"),
            (1, Some(0), 1, "move limit must be at least 1"),
        ] {
            let err = VecEnv::new(start, count, limit, 0, threads).unwrap_err();
            assert!(err.to_string().contains(expected), "{err}");
        }
        let finished: Position = "5/5/5/5/5/5/2@2 O".parse().unwrap();
        assert!(VecEnv::new(finished, 1, None, 0, 1).is_err());
    }
}
