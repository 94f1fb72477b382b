//! One game of step-by-step play as a reinforcement-learning episode: the
//! step, reward and end rule, stated once. The environments (`VecEnv`,
//! Python's `PettingZoo` and Gymnasium envs) step [`Episode`]s and keep only
//! their own bookkeeping.

use core::fmt;

use thiserror::Error;

use crate::board::point::Side;
use crate::step::actions::ActionError;
use crate::step::state::StepState;

/// One game played action by action from a start, with a limit on whole
/// moves: [`Episode::step`] takes one action (see [`crate::Action`] for the
/// action space) and says what it gave ([`Transition`]).
///
/// The rule: a placement or "end jump" passes the turn and counts one whole
/// move; a jump keeps the turn. A goal ends the episode (`terminated`), +1
/// to the side that scores and -1 to the other (an own goal scores for the
/// opponent). Reaching the move limit without a goal ends it too
/// (`truncated`, a draw, reward 0). An ended episode takes no more actions.
///
/// ```
/// use phutball::{Episode, Position, Side};
/// let start: Position = "7/7/7/7/3#3/3@3/7 O".parse()?;
/// let mut episode = Episode::new(start.into(), Some(10))?;
/// let jump = start.size().action_index("jump to D4".parse()?).unwrap();
/// let end = start.size().action_index("end jump".parse()?).unwrap();
/// let t = episode.step(jump)?;
/// assert_eq!((t.reward, t.terminated, episode.moves()), (0.0, false, 0));
/// let t = episode.step(end)?;
/// assert_eq!(episode.moves(), 1);
/// assert_eq!(t.mover, Side::Ohs);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Episode {
    state: StepState,
    moves: u32,
    move_limit: Option<u32>,
    over: bool,
}

/// What one action of an [`Episode`] gave.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Transition {
    /// The state after the action.
    pub state: StepState,
    /// The side that took the action.
    pub mover: Side,
    /// The mover's reward: +1 if it scored, -1 for an own goal, 0 otherwise.
    pub reward: f32,
    /// Whether the action ended the game with a goal.
    pub terminated: bool,
    /// Whether the game reached the move limit without a goal.
    pub truncated: bool,
}

impl Transition {
    /// Whether the episode ended: a goal or the move limit.
    pub const fn is_over(&self) -> bool {
        self.terminated || self.truncated
    }

    /// The reward of `side` for this action: +1 if it won with it, -1 if
    /// its opponent did, 0 otherwise (also for a truncation). The one
    /// statement of a side's reward: the environments (`VecEnv`, the Python
    /// envs) read it here.
    pub fn reward_for(&self, side: Side) -> f32 {
        if side == self.mover {
            self.reward
        } else {
            // 0.0 - r, not -r: a reward of 0 stays +0.0 for the opponent
            // too, not the -0.0 that a batch's reward array would show.
            0.0 - self.reward
        }
    }
}

impl fmt::Display for Transition {
    /// One line: `mover O, reward 0, ongoing, state STATE`, with
    /// `terminated` (a goal) or `truncated` (the move limit) for an end, and
    /// the state's text form (a position string or a jump in progress).
    ///
    /// ```
    /// use phutball::{Episode, Position};
    /// let start: Position = "7/7/7/7/3#3/3@3/7 O".parse()?;
    /// let mut episode = Episode::new(start.into(), Some(1))?;
    /// let t = episode.step(start.size().action_index("place E2".parse()?).unwrap())?;
    /// assert_eq!(t.to_string(), "mover O, reward 0, truncated, state 7/7/7/7/3#3/3@#2/7 X");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = if self.terminated {
            "terminated"
        } else if self.truncated {
            "truncated"
        } else {
            "ongoing"
        };
        write!(
            f,
            "mover {}, reward {}, {status}, state {}",
            self.mover, self.reward, self.state
        )
    }
}

/// Why an episode cannot be made or stepped. A failed step changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EpisodeError {
    /// The start is already won: no side could act.
    #[error("the start position is already finished: no game could be played")]
    FinishedStart,
    /// A move limit of 0.
    #[error("the move limit must be at least 1 (or none)")]
    ZeroMoveLimit,
    /// A step after the episode ended.
    #[error("the episode is over ({why}): reset it to play again")]
    Over {
        /// "a goal was scored" or "the move limit was reached".
        why: &'static str,
    },
    /// The action cannot be taken in this state.
    #[error(transparent)]
    Action(#[from] ActionError),
}

impl Episode {
    /// An episode from `start`, truncated after `move_limit` whole moves
    /// (`None`: never).
    ///
    /// # Errors
    ///
    /// [`EpisodeError::FinishedStart`] for a start already won,
    /// [`EpisodeError::ZeroMoveLimit`] for a limit of 0.
    pub fn new(start: StepState, move_limit: Option<u32>) -> Result<Episode, EpisodeError> {
        if move_limit == Some(0) {
            return Err(EpisodeError::ZeroMoveLimit);
        }
        if start.is_finished() {
            return Err(EpisodeError::FinishedStart);
        }
        Ok(Episode {
            state: start,
            moves: 0,
            move_limit,
            over: false,
        })
    }

    /// An episode resumed at `state` after `moves` whole moves (a saved
    /// episode read back: Python's pickling), truncated after `move_limit`.
    /// It is over if `state` is won or `moves` has reached the limit.
    ///
    /// # Errors
    ///
    /// [`EpisodeError::ZeroMoveLimit`] for a limit of 0.
    pub fn resume(
        state: StepState,
        moves: u32,
        move_limit: Option<u32>,
    ) -> Result<Episode, EpisodeError> {
        if move_limit == Some(0) {
            return Err(EpisodeError::ZeroMoveLimit);
        }
        Ok(Episode {
            state,
            moves,
            move_limit,
            over: state.is_finished() || move_limit.is_some_and(|l| moves >= l),
        })
    }

    /// The state now.
    pub const fn state(&self) -> StepState {
        self.state
    }

    /// The whole moves played (actions that passed the turn).
    pub const fn moves(&self) -> u32 {
        self.moves
    }

    /// The move limit (`None`: none).
    pub const fn move_limit(&self) -> Option<u32> {
        self.move_limit
    }

    /// Whether the episode has ended (a goal or the move limit).
    pub const fn is_over(&self) -> bool {
        self.over
    }

    /// Takes the action of index `action` and says what it gave. An episode
    /// that ends stays at its last state, and [`Episode::is_over`].
    ///
    /// # Errors
    ///
    /// [`EpisodeError::Over`] once the episode has ended,
    /// [`EpisodeError::Action`] for an action that cannot be taken; the
    /// episode is unchanged.
    pub fn step(&mut self, action: usize) -> Result<Transition, EpisodeError> {
        if self.over {
            let why = if self.state.is_finished() {
                "a goal was scored"
            } else {
                "the move limit was reached"
            };
            return Err(EpisodeError::Over { why });
        }
        let state = self.state.apply_action_index(action)?;
        let mover = self.state.to_move();
        let whole_moves = self.moves + u32::from(state.to_move() != mover);
        let winner = state.winner();
        let truncated = winner.is_none() && self.move_limit.is_some_and(|l| whole_moves >= l);
        let reward = match winner {
            Some(side) if side == mover => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
        self.state = state;
        self.moves = whole_moves;
        self.over = winner.is_some() || truncated;
        Ok(Transition {
            state,
            mover,
            reward,
            terminated: winner.is_some(),
            truncated,
        })
    }
}

#[cfg(test)]
// Rewards are exactly -1.0, 0.0 or 1.0.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;
    use crate::{Action, Position, SplitMix64};

    fn index(state: StepState, action: &str) -> usize {
        let action: Action = action.parse().unwrap();
        state.position().size().action_index(action).unwrap()
    }

    #[test]
    fn a_goal_terminates_with_plus_one_to_the_scorer() {
        // Ohs attack the top: the ball jumps over a man on the top row into the goal strip.
        let start: StepState = "2#2/2@2/5/5/5/5/5 O".parse::<Position>().unwrap().into();
        let mut episode = Episode::new(start, None).unwrap();
        // Nobody has won until the jump move ends.
        let t = episode.step(index(start, "jump to C8")).unwrap();
        assert!(!t.is_over() && t.state.is_mid_jump());
        let t = episode.step(index(t.state, "end jump")).unwrap();
        assert!(t.terminated && !t.truncated && t.is_over());
        assert_eq!(t.state.winner(), Some(Side::Ohs));
        assert_eq!(
            (t.reward, t.reward_for(Side::Ohs), t.reward_for(Side::Eks)),
            (1.0, 1.0, -1.0)
        );
        assert!(episode.is_over());
        let err = episode.step(index(t.state, "place A1")).unwrap_err();
        assert_eq!(
            err,
            EpisodeError::Over {
                why: "a goal was scored"
            }
        );
    }

    #[test]
    fn the_move_limit_truncates_and_jumps_do_not_count() {
        let start: StepState = "7/7/7/7/3#3/3@3/7 O".parse::<Position>().unwrap().into();
        let mut episode = Episode::new(start, Some(2)).unwrap();
        let t = episode.step(index(start, "jump to D4")).unwrap();
        assert_eq!((episode.moves(), t.is_over()), (0, false));
        let t = episode.step(index(t.state, "end jump")).unwrap();
        assert_eq!(
            (episode.moves(), t.is_over(), t.mover),
            (1, false, Side::Ohs)
        );
        let t = episode.step(index(t.state, "place A1")).unwrap();
        assert!(t.truncated && !t.terminated);
        assert_eq!(
            (t.reward, t.reward_for(Side::Ohs), t.mover),
            (0.0, 0.0, Side::Eks)
        );
        // The non-mover's 0 is +0.0, as the mover's is (a reward array
        // would print -0.0 otherwise).
        assert!(t.reward_for(Side::Ohs).is_sign_positive());
        assert!(t.reward_for(Side::Eks).is_sign_positive());
        let err = episode.step(index(t.state, "place B1")).unwrap_err();
        assert!(
            err.to_string().contains("the move limit was reached"),
            "{err}"
        );
    }

    #[test]
    fn a_bad_action_changes_nothing() {
        let start: StepState = Position::standard().into();
        let mut episode = Episode::new(start, Some(5)).unwrap();
        let before = episode;
        assert!(matches!(
            episode.step(usize::MAX),
            Err(EpisodeError::Action(ActionError::OutOfRange { .. }))
        ));
        let end = index(start, "end jump");
        assert!(matches!(
            episode.step(end),
            Err(EpisodeError::Action(ActionError::NoJumpUnderWay))
        ));
        assert_eq!(episode, before);
    }

    #[test]
    fn a_resumed_episode_is_the_one_it_was_saved_from() {
        let start: StepState = "7/7/7/7/3#3/3@3/7 O".parse::<Position>().unwrap().into();
        let mut rng = SplitMix64::new(11);
        let mut episode = Episode::new(start, Some(6)).unwrap();
        while !episode.is_over() {
            let again = Episode::resume(episode.state(), episode.moves(), episode.move_limit());
            assert_eq!(again, Ok(episode));
            let action = episode.state().random_legal_action_index(&mut rng).unwrap();
            episode.step(action).unwrap();
        }
        let again = Episode::resume(episode.state(), episode.moves(), episode.move_limit());
        assert_eq!(again, Ok(episode));
        assert_eq!(
            Episode::resume(start, 0, Some(0)),
            Err(EpisodeError::ZeroMoveLimit)
        );
    }

    #[test]
    fn bad_starts_say_why() {
        let won: StepState = "5/5/5/5/5/5/2@2 O".parse::<Position>().unwrap().into();
        assert_eq!(Episode::new(won, None), Err(EpisodeError::FinishedStart));
        let start: StepState = Position::standard().into();
        assert_eq!(
            Episode::new(start, Some(0)),
            Err(EpisodeError::ZeroMoveLimit)
        );
    }

    #[test]
    fn random_play_keeps_the_reward_rule() {
        // Every step: the reward is +-1 exactly when a goal ends the game,
        // the scorer is the winner, and moves count the turn passing.
        let mut rng = SplitMix64::new(3);
        let start: StepState = "7/7/7/7/7/3@3/7/7/7 O".parse::<Position>().unwrap().into();
        for _ in 0..50 {
            let mut episode = Episode::new(start, Some(40)).unwrap();
            while !episode.is_over() {
                let before = episode.state();
                let action = before.random_legal_action_index(&mut rng).unwrap();
                let t = episode.step(action).unwrap();
                assert_eq!(t.terminated, t.state.is_finished());
                assert_eq!(t.reward != 0.0, t.terminated);
                if let Some(winner) = t.state.winner() {
                    assert_eq!(t.reward_for(winner), 1.0);
                }
                assert_eq!(t.mover, before.to_move());
            }
        }
    }
}
