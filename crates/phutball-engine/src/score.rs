//! Search scores: an evaluation in hundredths of a row, or a forced result.

use core::fmt;

/// The internal value of a win on the move; wins further away are worth less
/// by one per ply, so the search prefers the quickest win and the slowest loss.
pub(crate) const WIN: i32 = 1_000_000;
/// Values beyond this are forced results (at most 1000 plies away).
pub(crate) const DECIDED: i32 = WIN - 1000;
/// Above every value, for the initial alpha-beta window.
pub(crate) const INFINITY: i32 = WIN + 1;

/// The internal value of a win for the side to move `plies` moves from now
/// (1: it scores with this move).
#[inline]
pub(crate) fn win_in(plies: u32) -> i32 {
    WIN - i32::try_from(plies).unwrap_or(i32::MAX)
}

/// The internal value of a loss for the side to move `plies` moves from now
/// (2: whatever it plays, the opponent scores next).
#[inline]
pub(crate) fn loss_in(plies: u32) -> i32 {
    -win_in(plies)
}

/// How good a position is for the side to move, as found by the search.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// The side to move wins: the ball reaches its goal at the end of the
    /// `plies`-th move from now (1: it scores with this move).
    Win {
        /// Moves (of either side) until the goal, this one included.
        plies: u32,
    },
    /// The side to move loses by force after `plies` moves (2: whatever it
    /// plays, the opponent scores next).
    Loss {
        /// Moves (of either side) until the opponent's goal.
        plies: u32,
    },
    /// Not decided within the search: the evaluation, in hundredths of a row
    /// of ball progress (positive favours the side to move).
    Eval(i32),
}

impl Score {
    pub(crate) fn from_internal(value: i32) -> Score {
        if value >= DECIDED {
            Score::Win {
                plies: (WIN - value) as u32,
            }
        } else if value <= -DECIDED {
            Score::Loss {
                plies: (WIN + value) as u32,
            }
        } else {
            Score::Eval(value)
        }
    }
}

impl fmt::Display for Score {
    /// `win in 3`, `loss in 2`, or the evaluation in rows with a sign: `+0.75`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Win { plies } => write!(f, "win in {plies}"),
            Score::Loss { plies } => write!(f, "loss in {plies}"),
            Score::Eval(v) => {
                let sign = if v < 0 { '-' } else { '+' };
                let v = v.unsigned_abs();
                write!(f, "{sign}{}.{:02}", v / 100, v % 100)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_values_map_to_results() {
        assert_eq!(Score::from_internal(win_in(1)), Score::Win { plies: 1 });
        assert_eq!(Score::from_internal(loss_in(2)), Score::Loss { plies: 2 });
        assert_eq!(Score::from_internal(-37), Score::Eval(-37));
    }

    #[test]
    fn display_is_readable() {
        assert_eq!(Score::Eval(-37).to_string(), "-0.37");
        assert_eq!(Score::Eval(250).to_string(), "+2.50");
        assert_eq!(Score::Win { plies: 3 }.to_string(), "win in 3");
        assert_eq!(Score::Loss { plies: 2 }.to_string(), "loss in 2");
    }
}
