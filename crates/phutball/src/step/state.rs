//! The state of step-by-step play: the start of a move ([`Position`]) or
//! a jump move under way ([`JumpInProgress`]), and its text forms.

use core::fmt;
use core::str::FromStr;

use crate::board::point::Side;
use crate::error::ParseError;
use crate::jumps::jump_in_progress::{JumpInProgress, JUMP_MARK};
use crate::rules::options::Rules;
use crate::rules::position::Position;

/// The state of step-by-step play (the action space, reinforcement
/// learning): the start of a move, or a jump move under way.
///
/// ```
/// use phutball::{Action, Position, StepState};
/// let pos: Position = "15/15/15/15/15/15/15/15/15/7@7/7#7/7#7/15/15/15/15/15/15/15 O".parse()?;
/// let state = StepState::from(pos).apply_action(Action::JumpTo("H7".parse()?))?;
/// assert!(state.is_mid_jump());
/// assert_eq!(state.legal_actions().last(), Some(&Action::EndJump));
/// let state = state.apply_action(Action::EndJump)?;
/// assert!(!state.is_mid_jump());
/// assert_eq!(state.position(), pos.play(&"H10-H7".parse()?)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StepState {
    /// At the start of a move.
    Move(Position),
    /// In the middle of a jump move.
    Jump(JumpInProgress),
}

impl StepState {
    /// The board as it stands.
    pub fn position(&self) -> Position {
        match self {
            StepState::Move(pos) => *pos,
            StepState::Jump(jump) => jump.position(),
        }
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.position().to_move()
    }

    /// Who has won; nobody during a jump move.
    pub fn winner(&self) -> Option<Side> {
        match self {
            StepState::Move(pos) => pos.winner(),
            StepState::Jump(_) => None,
        }
    }

    /// Whether the game is over.
    pub fn is_finished(&self) -> bool {
        self.winner().is_some()
    }

    /// Whether a jump move is under way.
    pub fn is_mid_jump(&self) -> bool {
        matches!(self, StepState::Jump(_))
    }

    /// Parses a position string or a jump in progress's text form under `rules`.
    ///
    /// # Errors
    ///
    /// [`ParseError`] as [`Position::parse_with_rules`] or
    /// [`JumpInProgress::parse_with_rules`].
    pub fn parse_with_rules(text: &str, rules: Rules) -> Result<StepState, ParseError> {
        if text.contains(JUMP_MARK) {
            JumpInProgress::parse_with_rules(text, rules).map(StepState::Jump)
        } else {
            Position::parse_with_rules(text, rules).map(StepState::Move)
        }
    }
}

impl From<Position> for StepState {
    fn from(pos: Position) -> StepState {
        StepState::Move(pos)
    }
}

impl From<JumpInProgress> for StepState {
    fn from(jump: JumpInProgress) -> StepState {
        StepState::Jump(jump)
    }
}

impl fmt::Display for StepState {
    /// The position string or the jump in progress's text form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepState::Move(pos) => pos.fmt(f),
            StepState::Jump(jump) => jump.fmt(f),
        }
    }
}

impl FromStr for StepState {
    type Err = ParseError;

    /// Parses either text form under the default rules.
    fn from_str(text: &str) -> Result<StepState, ParseError> {
        StepState::parse_with_rules(text, Rules::default())
    }
}
