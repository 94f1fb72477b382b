//! Rule options: the choices published sources disagree on.

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
