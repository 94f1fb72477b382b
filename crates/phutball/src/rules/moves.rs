//! Moves as values: placements and jump paths, and the landings of a path.

use crate::board::point::Point;
use crate::error::IllegalMoveError;

/// A move: put a man on a vacant point, or jump the ball along a path.
///
/// ```
/// use phutball::{Move, Position};
/// let pos = Position::standard();
/// let m: Move = "H9".parse()?;
/// let next = pos.play(&m)?;
/// assert!(next.has_man("H9".parse()?));
/// assert_eq!(next.play(&"H10-H8".parse()?)?.ball().to_string(), "H8");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Place a man on this point.
    Place(Point),
    /// Jump the ball: its starting point, then each landing point in order.
    Jump(Vec<Point>),
}

impl Move {
    /// The points of the move: the placement point, or the jump path.
    pub fn path(&self) -> &[Point] {
        match self {
            Move::Place(p) => core::slice::from_ref(p),
            Move::Jump(path) => path,
        }
    }

    /// Whether this is a jump move.
    pub fn is_jump(&self) -> bool {
        matches!(self, Move::Jump(_))
    }
}

/// The landing points of the jump `path`, checked to start at the ball on
/// `ball` and to have at least one landing.
pub(crate) fn landings_from(ball: Point, path: &[Point]) -> Result<&[Point], IllegalMoveError> {
    let (&start, landings) = path.split_first().ok_or(IllegalMoveError::EmptyJump)?;
    if landings.is_empty() {
        return Err(IllegalMoveError::EmptyJump);
    }
    if start != ball {
        return Err(IllegalMoveError::NotFromBall { ball, start });
    }
    Ok(landings)
}
