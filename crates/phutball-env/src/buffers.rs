//! What a step writes and gives back: the caller's slices
//! ([`StepBuffers`]) and the last observations of the games that ended
//! ([`FinalObservation`]), shared by the batch (`vec_env.rs`) and its
//! blocks (`blocks.rs`).

/// Where [`VecEnv::step`](crate::VecEnv::step) writes, one entry (or one
/// block) per game, in game order.
#[derive(Debug)]
pub struct StepBuffers<'a> {
    /// The observations: [`phutball::BoardSize::planes_len`] values a game.
    pub planes: &'a mut [f32],
    /// The legal-action masks: [`phutball::BoardSize::action_count`] flags
    /// a game.
    pub masks: &'a mut [bool],
    /// The reward of the side that took the action: +1 if it scored, -1 for
    /// an own goal, 0 otherwise; with an [`Opponent`](crate::Opponent), the
    /// agent's: +1 if it won in the step, -1 if it lost (an own goal, or
    /// the opponent's goal in its reply).
    pub rewards: &'a mut [f32],
    /// Whether the action ended the game with a goal.
    pub terminated: &'a mut [bool],
    /// Whether the game reached the move limit without a goal.
    pub truncated: &'a mut [bool],
}

/// A game that ended in a step (and was reset): its index and its last
/// observation.
#[derive(Clone, Debug, PartialEq)]
pub struct FinalObservation {
    /// The game's index in the batch.
    pub game: usize,
    /// [`StepState::planes`](phutball::StepState::planes) of its last state.
    pub planes: Vec<f32>,
}
