//! Single-agent play: the [`Opponent`] a batch's agent plays against, and
//! the step of one game with it ([`Seat::step_game`]). With an opponent
//! every observation is the agent's turn: when the agent's action passes the
//! turn, the opponent's whole move is played in the same step (for the
//! random and engine opponents, here, on the game's thread), and the reward
//! is the agent's.

use phutball::{counter_rng, Action, Budget, Episode, Game, Move, Side, SplitMix64, StepState};
use phutball_engine::{Engine, EngineError, Limits, Player, RandomPlayer};

use crate::error::VecEnvError;

/// Who plays the side the agent does not.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Nobody: one agent plays both sides, each reward the mover's (the default).
    SelfPlay,
    /// A uniformly random legal move (placements and distinct jump outcomes:
    /// [`RandomPlayer`]), from a generator seeded by the batch's seed, the
    /// step and the game, so that a run is the same on any number of threads.
    Random,
    /// The engine at these limits (one engine, with its table, per thread),
    /// with the engine's default evaluation or the one of
    /// [`VecEnv::with_opponent_evaluation`](crate::VecEnv::with_opponent_evaluation).
    /// A node or depth limit is deterministic; a time limit is not, and each
    /// move's search is bounded by the step's budget as well.
    Engine(Limits),
    /// The caller: a step stops at the opponent's turn and
    /// [`VecEnv::step_waiting`](crate::VecEnv::step_waiting) takes its actions.
    External,
}

/// The agent's side and its opponent, and what a game's step needs of them.
#[derive(Clone, Debug)]
pub(crate) struct Seat {
    pub opponent: Opponent,
    pub agent: Side,
    /// Mixed into the random opponent's generators; reset with the batch's seed.
    pub seed: u64,
    /// The steps taken, mixed in too (a new draw every step).
    pub steps: u64,
}

/// One game's step with its results for the agent.
pub(crate) struct GameStep {
    /// The game after the step (restarted, and the opponent's opening played,
    /// if it ended).
    pub next: Episode,
    /// The agent's reward (the mover's in self-play).
    pub reward: f32,
    pub terminated: bool,
    pub truncated: bool,
    /// The last state of a game that ended.
    pub last: Option<StepState>,
}

impl Seat {
    /// Self-play, Ohs "the agent".
    pub fn self_play(seed: u64) -> Seat {
        Seat {
            opponent: Opponent::SelfPlay,
            agent: Side::Ohs,
            seed,
            steps: 0,
        }
    }

    /// Whether the opponent's moves are played here (random, engine).
    pub fn plays_here(&self) -> bool {
        matches!(self.opponent, Opponent::Random | Opponent::Engine(_))
    }

    /// Whether `state` waits for the opponent (never in self-play).
    pub fn waits(&self, state: &StepState) -> bool {
        self.opponent != Opponent::SelfPlay && state.to_move() != self.agent
    }

    /// The random opponent's generator for game `game` in this step.
    pub fn rng(&self, game: usize) -> SplitMix64 {
        counter_rng(self.seed, self.steps, game)
    }

    /// Takes the agent's `action` in `game` (index `index`), then, if the
    /// turn passed and the game goes on, the opponent's whole move (random
    /// or engine); a game that ended restarts at `start`, with the
    /// opponent's opening if it moves first ([`Seat::opening`]).
    pub fn step_game(
        &self,
        index: usize,
        game: &Episode,
        action: usize,
        start: &Episode,
        player: Option<&Engine>,
        budget: &Budget<'_>,
    ) -> Result<GameStep, VecEnvError> {
        let mut episode = *game;
        if self.waits(&episode.state()) {
            return Err(VecEnvError::Waiting { game: index });
        }
        let mut taken = episode.step(action).map_err(|source| VecEnvError::Action {
            game: index,
            action,
            source,
        })?;
        let mut rng = self.rng(index);
        if self.plays_here() && !taken.is_over() && self.waits(&taken.state) {
            taken = self.reply(&mut episode, player, &mut rng, budget, index)?;
        }
        let over = taken.is_over();
        let next = if over {
            self.opening(start, player, &mut rng, budget, index)?
        } else {
            episode
        };
        Ok(GameStep {
            next,
            reward: taken.reward_for(self.agent_of(taken.mover)),
            terminated: taken.terminated,
            truncated: taken.truncated,
            last: over.then_some(taken.state),
        })
    }

    /// Takes an external opponent's `action` in `game` (index `index`),
    /// which waits for it; a game that ended restarts at `start`.
    pub fn step_opponent(
        &self,
        index: usize,
        game: &Episode,
        action: usize,
        start: &Episode,
    ) -> Result<GameStep, VecEnvError> {
        let mut episode = *game;
        let taken = episode.step(action).map_err(|source| VecEnvError::Action {
            game: index,
            action,
            source,
        })?;
        let over = taken.is_over();
        Ok(GameStep {
            next: if over { *start } else { episode },
            reward: taken.reward_for(self.agent),
            terminated: taken.terminated,
            truncated: taken.truncated,
            last: over.then_some(taken.state),
        })
    }

    /// The side whose reward a step reports: the agent's, or in self-play the mover's.
    fn agent_of(&self, mover: Side) -> Side {
        match self.opponent {
            Opponent::SelfPlay => mover,
            _ => self.agent,
        }
    }

    /// A new game: `start`, after the opponent's first move if it moves
    /// first and is played here. That move cannot end the game
    /// ([`Seat::check_start`]).
    pub fn opening(
        &self,
        start: &Episode,
        player: Option<&Engine>,
        rng: &mut SplitMix64,
        budget: &Budget<'_>,
        index: usize,
    ) -> Result<Episode, VecEnvError> {
        let mut game = *start;
        if self.plays_here() && self.waits(&game.state()) {
            self.reply(&mut game, player, rng, budget, index)?;
        }
        Ok(game)
    }

    /// Plays the opponent's whole move in `episode` (at the start of its
    /// turn), giving the last action's transition.
    fn reply(
        &self,
        episode: &mut Episode,
        player: Option<&Engine>,
        rng: &mut SplitMix64,
        budget: &Budget<'_>,
        index: usize,
    ) -> Result<phutball::Transition, VecEnvError> {
        let state = episode.state();
        if self.opponent == Opponent::Random && state.position().single_jumps().is_empty() {
            // No jump: the moves are the placements, one action each, so a
            // uniformly random legal action is the random player's draw
            // without listing every move (most turns of a game).
            let action =
                state
                    .random_legal_action_index(rng)
                    .ok_or_else(|| VecEnvError::Opponent {
                        game: index,
                        message: "no legal move".to_string(),
                    })?;
            return episode.step(action).map_err(|e| VecEnvError::Opponent {
                game: index,
                message: e.to_string(),
            });
        }
        let chosen = self.choose(&state, player, rng, budget, index)?;
        play_move(episode, &chosen, index)
    }

    /// The opponent's move at `state` (the start of its turn).
    fn choose(
        &self,
        state: &StepState,
        player: Option<&Engine>,
        rng: &mut SplitMix64,
        budget: &Budget<'_>,
        index: usize,
    ) -> Result<Move, VecEnvError> {
        let pos = state.position();
        let chosen = match (self.opponent, player) {
            (Opponent::Engine(_), Some(engine)) => {
                engine.analyse_within(&pos, budget).map(|a| a.best_move)
            }
            _ => RandomPlayer::new(rng.next_u64()).choose(&Game::new(pos)),
        };
        chosen.map_err(|e| match e {
            EngineError::Interrupted(stop) => VecEnvError::Interrupted(stop),
            other => VecEnvError::Opponent {
                game: index,
                message: other.to_string(),
            },
        })
    }

    /// Refuses a start from which the opponent, moving first, could end the
    /// game before the agent acts (a jump, or a move limit of 1): a restart
    /// would end again at once.
    pub fn check_start(&self, start: &Episode) -> Result<(), VecEnvError> {
        if !self.waits(&start.state()) {
            return Ok(());
        }
        let can_jump = start
            .state()
            .legal_actions()
            .iter()
            .any(|a| matches!(a, Action::JumpTo(_)));
        if can_jump || start.move_limit() == Some(1) {
            return Err(VecEnvError::Config(format!(
                "the opponent moves first ({} to move at the start), so the start must give it no jump \
                 and the move limit must be at least 2",
                start.state().to_move()
            )));
        }
        Ok(())
    }
}

/// Plays move `m` in `episode` action by action (a placement, or each jump
/// and then "end jump", which a goal makes needless), giving the last
/// action's transition.
fn play_move(
    episode: &mut Episode,
    m: &Move,
    index: usize,
) -> Result<phutball::Transition, VecEnvError> {
    let size = episode.state().position().size();
    let mut last = None;
    for action in Action::of_move(m) {
        if last.as_ref().is_some_and(phutball::Transition::is_over) {
            break;
        }
        let bad = |message: String| VecEnvError::Opponent {
            game: index,
            message,
        };
        let i = size
            .action_index(action)
            .ok_or_else(|| bad(format!("its move {m} has no action {action}")))?;
        last = Some(episode.step(i).map_err(|e| bad(e.to_string()))?);
    }
    last.ok_or_else(|| VecEnvError::Opponent {
        game: index,
        message: format!("its move {m} has no actions"),
    })
}
