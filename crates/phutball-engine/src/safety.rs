//! The engine's one test of a move's safety, used by its search, the
//! baseline player and the tactical suites.

use phutball::{Budget, Move, Position, SearchError};

/// Whether `m` is safe in `pos`: legal, not an own goal, and leaving the
/// opponent no way to score at once. An illegal move is not safe.
///
/// Unbounded: the opponent's can-score search can take minutes on dense
/// boards; [`is_safe_within`] takes a budget.
///
/// ```
/// use phutball::{Move, Position};
/// use phutball_engine::is_safe;
/// // Ball H17 under a man on H18, X to move: the jump H17-H19 is an own
/// // goal, and a placement far away leaves O that jump.
/// let pos: Position = "15/7#7/7@7/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 X".parse()?;
/// assert!(!is_safe(&pos, &"H17-H19".parse::<Move>()?));
/// assert!(!is_safe(&pos, &"A1".parse::<Move>()?));
/// assert!(!is_safe(&pos, &"H16".parse::<Move>()?), "illegal: not a move");
/// // From the start, with the ball far from both goals, A1 is safe.
/// let start: Position = "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 X".parse()?;
/// assert!(is_safe(&start, &"A1".parse::<Move>()?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn is_safe(pos: &Position, m: &Move) -> bool {
    is_safe_within(pos, m, &Budget::default()) == Ok(true)
}

/// [`is_safe`] within `budget` (the opponent's can-score search is the
/// only part that can run long). `Err` when the budget ran out first.
///
/// # Errors
///
/// [`SearchError`] when `budget` stops the opponent's can-score search first.
pub fn is_safe_within(pos: &Position, m: &Move, budget: &Budget<'_>) -> Result<bool, SearchError> {
    let Ok(after) = pos.play(m) else {
        return Ok(false);
    };
    if after.winner() == Some(pos.to_move().opponent()) {
        return Ok(false);
    }
    after.can_score_within(budget).map(|can| !can)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_too_small_to_decide_is_an_error() {
        let pos: Position = "15/7#7/7@7/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 X"
            .parse()
            .unwrap();
        let m: Move = "A1".parse().unwrap();
        let none = Budget::default().with_work_limit(0);
        assert!(is_safe_within(&pos, &m, &none).is_err());
        assert_eq!(is_safe_within(&pos, &m, &Budget::default()), Ok(false));
        // An illegal move (the ball's point) is decided at once, whatever the budget.
        assert_eq!(
            is_safe_within(&pos, &"H17".parse().unwrap(), &none),
            Ok(false)
        );
    }
}
