//! Rule options: the choices published sources disagree on.

use crate::error::InvalidPosition;
use crate::geometry::BoardSize;
use crate::point::{Point, Side};

/// The rule options of a game. The default is the project's reading of the rules
/// (`docs/rules.md`): the move ends when the ball lands off the board, Ohs moves
/// first, the ball starts on the centre point.
///
/// ```
/// use phutball::{Position, Rules};
/// let rules = Rules { continue_off_board: true, ..Rules::default() };
/// let pos = Position::start_with(phutball::BoardSize::STANDARD, rules)?;
/// assert!(pos.rules().continue_off_board);
/// # Ok::<(), phutball::InvalidPosition>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    /// When `true`, a ball that lands on an off-board strip may jump on, back over
    /// a man on the goal line (German Wikipedia, AbstractPlay). Default `false`:
    /// the move ends there (Sensei's Library, most programs).
    pub continue_off_board: bool,
    /// Who moves first from the start position. Default Ohs.
    pub first_player: Side,
    /// Where the ball starts (a handicap moves it nearer one goal); `None` is the centre.
    pub start: Option<Point>,
}

impl Rules {
    /// Checks that the rules fit a board of `size`: the start point, if one is
    /// set, is on the board and strictly between the goal lines (not on a goal
    /// line or an off-board strip). The first player and the off-board option
    /// are valid by their types. Every way of making a [`Position`](crate::Position)
    /// or attaching rules to one calls this, so no later call meets rules that
    /// do not fit its board.
    ///
    /// ```
    /// use phutball::{BoardSize, InvalidPosition, Rules};
    /// let size = BoardSize::STANDARD;
    /// let handicap = Rules { start: Some("H8".parse()?), ..Rules::default() };
    /// assert_eq!(handicap.validate(size), Ok(()));
    /// let on_goal = Rules { start: Some("H19".parse()?), ..Rules::default() };
    /// assert_eq!(on_goal.validate(size), Err(InvalidPosition::StartNotInPlay("H19".parse()?)));
    /// let outside = Rules { start: Some("Z26".parse()?), ..Rules::default() };
    /// assert_eq!(
    ///     outside.validate(size).unwrap_err().to_string(),
    ///     "start point Z26 is outside the 15x19 board"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn validate(&self, size: BoardSize) -> Result<(), InvalidPosition> {
        match self.start {
            Some(start) => check_start_in_play(size, "start point", start),
            None => Ok(()),
        }
    }
}

/// Checks that `start` (named `what` in the error), where a move starts, is
/// on the board and strictly between the goal lines.
pub(crate) fn check_start_in_play(
    size: BoardSize,
    what: &'static str,
    start: Point,
) -> Result<(), InvalidPosition> {
    if !size.contains(start) {
        return Err(InvalidPosition::Outside {
            what,
            point: start,
            cols: size.cols(),
            rows: size.rows(),
        });
    }
    if size.scorer_at_row(start.row()).is_some() {
        return Err(InvalidPosition::StartNotInPlay(start));
    }
    Ok(())
}
