//! A step of [`VecEnv`](crate::VecEnv) cut into blocks of games that the
//! batch's threads take in turn: [`Block::split`], [`run_blocks`],
//! [`merge`]. Each block steps its games by the seat's rule (the core's
//! `Episode::step`, and the opponent's reply), writes their observations
//! into its slices of the caller's buffers and, after a
//! [`VecEnv::sample_actions`](crate::VecEnv::sample_actions) call, draws
//! the next call's actions.

use std::sync::{Mutex, OnceLock, PoisonError};

use phutball::{counter_rng, Budget, Episode, SearchError};
use phutball_engine::Engine;

use crate::buffers::{FinalObservation, StepBuffers};
use crate::error::VecEnvError;
use crate::opponent::Seat;
use crate::workers::Workers;
/// The games a step or a reset does between two polls of its budget: about
/// half a millisecond of work.
pub const POLL_GAMES: usize = 1024;

/// The games a thread of a step takes at a time (a divisor of [`POLL_GAMES`]):
/// a few tens of microseconds of work.
pub(crate) const BLOCK_GAMES: usize = 64;

/// Draw `call` of [`VecEnv::sample_actions`](crate::VecEnv::sample_actions)
/// in game `game`, from `seed`.
pub(crate) fn draw(seed: u64, call: u64, game: usize, episode: &Episode) -> usize {
    let mut rng = counter_rng(seed, call, game);
    // A game is never finished between steps, and an unfinished state
    // always has an action (a vacant point, or "end jump"); 0 is never used.
    episode
        .state()
        .random_legal_action_index(&mut rng)
        .unwrap_or(0)
}

/// Runs `blocks` on up to `jobs` of `workers`' threads, each taking the
/// next block until none is left (a thread that starts late, the machine
/// busy, takes fewer). Each thread's answer: the games that ended, and the
/// error that stopped it.
pub(crate) fn run_blocks(
    workers: &mut Workers,
    blocks: Vec<Block<'_>>,
    shared: &Shared<'_>,
    jobs: usize,
    budget: &Budget<'_>,
) -> Vec<(Vec<FinalObservation>, Option<VecEnvError>)> {
    let queue = Mutex::new(blocks.into_iter());
    // The first interrupt any thread sees; the others stop at their next block.
    let stop = OnceLock::new();
    // Job `job` has engine `job` of an engine opponent (its own table).
    workers.run(
        jobs,
        |job: usize| -> (Vec<FinalObservation>, Option<VecEnvError>) {
            let mut finals = Vec::new();
            let engine = shared.engines.get(job);
            loop {
                let block = queue.lock().unwrap_or_else(PoisonError::into_inner).next();
                let Some(block) = block else {
                    return (finals, None);
                };
                if let Err(e) = block.run(shared, engine, budget, &stop, &mut finals) {
                    return (finals, Some(e));
                }
            }
        },
    )
}

/// The threads' answers as the step's: an interrupt if any thread saw one,
/// else the first bad game's error, else the games that ended in game order.
pub(crate) fn merge(
    results: Vec<(Vec<FinalObservation>, Option<VecEnvError>)>,
) -> Result<Vec<FinalObservation>, VecEnvError> {
    let mut finals = Vec::new();
    let mut first_error: Option<VecEnvError> = None;
    for (done, error) in results {
        finals.extend(done);
        first_error = match (first_error, error) {
            // Every thread that saw the interrupt reports the same one.
            (Some(e @ VecEnvError::Interrupted(_)), _)
            | (_, Some(e @ VecEnvError::Interrupted(_))) => Some(e),
            // Blocks are taken in order and a thread stops at its first bad
            // action, so the lowest game with an error is the first bad game.
            (Some(a), Some(b)) => Some(if failed_game(&b) < failed_game(&a) {
                b
            } else {
                a
            }),
            (a, b) => a.or(b),
        };
    }
    if let Some(error) = first_error {
        return Err(error);
    }
    finals.sort_unstable_by_key(|last| last.game);
    Ok(finals)
}

/// The game of a failed step's error (none for an interrupt).
fn failed_game(error: &VecEnvError) -> Option<usize> {
    match error {
        VecEnvError::Action { game, .. } => Some(*game),
        _ => None,
    }
}

/// What every block of a step reads: the start, the seat, the engines.
pub(crate) struct Shared<'a> {
    pub(crate) start: &'a Episode,
    pub(crate) seat: &'a Seat,
    pub(crate) engines: &'a [Engine],
    /// The seed and call of the draws to make for the next
    /// [`VecEnv::sample_actions`](crate::VecEnv::sample_actions), if any.
    pub(crate) draw_key: Option<(u64, u64)>,
}

/// [`BLOCK_GAMES`] games of a step, from game `first` on: the slices of the
/// batch one thread steps at a time.
pub(crate) struct Block<'a> {
    first: usize,
    games: &'a [Episode],
    next: &'a mut [Episode],
    actions: &'a [usize],
    out: StepBuffers<'a>,
    /// Where the next call's draws go, if the step makes them.
    draws: Option<&'a mut [usize]>,
}

impl<'a> Block<'a> {
    /// The batch cut into blocks: `games` (read) and `next` (written), the
    /// actions and the outputs, [`BLOCK_GAMES`] games a block.
    pub(crate) fn split(
        games: &'a [Episode],
        next: &'a mut [Episode],
        actions: &'a [usize],
        out: &'a mut StepBuffers<'_>,
        draws: Option<&'a mut [usize]>,
        (planes_len, action_count): (usize, usize),
    ) -> Vec<Block<'a>> {
        let mut draws = draws.map(|draws| draws.chunks_mut(BLOCK_GAMES));
        let mut planes = out.planes.chunks_mut(BLOCK_GAMES * planes_len);
        let mut masks = out.masks.chunks_mut(BLOCK_GAMES * action_count);
        let mut rewards = out.rewards.chunks_mut(BLOCK_GAMES);
        let mut terminated = out.terminated.chunks_mut(BLOCK_GAMES);
        let mut truncated = out.truncated.chunks_mut(BLOCK_GAMES);
        next.chunks_mut(BLOCK_GAMES)
            .zip(games.chunks(BLOCK_GAMES))
            .zip(actions.chunks(BLOCK_GAMES))
            .enumerate()
            // The lengths were checked: every output has a chunk for each block.
            .map_while(|(i, ((next, games), actions))| {
                Some(Block {
                    first: i * BLOCK_GAMES,
                    games,
                    next,
                    actions,
                    out: StepBuffers {
                        planes: planes.next()?,
                        masks: masks.next()?,
                        rewards: rewards.next()?,
                        terminated: terminated.next()?,
                        truncated: truncated.next()?,
                    },
                    draws: draws.as_mut().and_then(Iterator::next),
                })
            })
            .collect()
    }
}

impl Block<'_> {
    /// Steps the block's games (the rule is [`Episode::step`]'s), restarting
    /// those that ended from `start` and adding them to `finals`. It stops
    /// if another thread saw an interrupt (`stop`), and polls `budget` if
    /// its first game is a multiple of [`POLL_GAMES`] (setting `stop` for
    /// every thread if the budget says to stop).
    fn run(
        mut self,
        shared: &Shared<'_>,
        engine: Option<&Engine>,
        budget: &Budget<'_>,
        stop: &OnceLock<SearchError>,
        finals: &mut Vec<FinalObservation>,
    ) -> Result<(), VecEnvError> {
        let polled = if self.first % POLL_GAMES == 0 {
            budget.interrupted()
        } else {
            None
        };
        if let Some(interrupt) = stop.get().cloned().or(polled) {
            return Err(VecEnvError::Interrupted(
                stop.get_or_init(|| interrupt).clone(),
            ));
        }
        let board = shared.start.state().position().size();
        let (planes_len, action_count) = (board.planes_len(), board.action_count());
        for (i, (game, &action)) in self.games.iter().zip(self.actions).enumerate() {
            let index = self.first + i;
            let taken = shared
                .seat
                .step_game(index, game, action, shared.start, engine, budget)?;
            self.out.rewards[i] = taken.reward;
            self.out.terminated[i] = taken.terminated;
            self.out.truncated[i] = taken.truncated;
            if let Some(last) = taken.last {
                finals.push(FinalObservation {
                    game: index,
                    planes: last.planes(false),
                });
            }
            self.next[i] = taken.next;
            if let (Some(draws), Some((seed, call))) = (self.draws.as_deref_mut(), shared.draw_key)
            {
                draws[i] = draw(seed, call, index, &self.next[i]);
            }
            let shown = self.next[i].state();
            shown.write_planes(false, &mut self.out.planes[i * planes_len..][..planes_len]);
            shown.write_legal_action_mask(&mut self.out.masks[i * action_count..][..action_count]);
        }
        Ok(())
    }
}
