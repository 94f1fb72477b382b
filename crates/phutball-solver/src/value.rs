//! The game-theoretic value of a position for its side to move.

use core::fmt;

/// What best play gives the side to move. Plies count moves of both sides,
/// the deciding move included: `Win { plies: 1 }` scores now, `Loss { plies: 2 }`
/// lets the opponent score whatever it plays. A finished position is
/// `Win { plies: 0 }` or `Loss { plies: 0 }` for the side whose turn it would be.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move forces a goal within `plies` plies.
    Win {
        /// Plies to the goal.
        plies: u32,
    },
    /// The opponent forces a goal within `plies` plies whatever the side to
    /// move does.
    Loss {
        /// Plies to the opponent's goal.
        plies: u32,
    },
    /// Neither side can force a goal: with best play the game goes on for ever.
    Draw,
}

impl Value {
    /// The value one ply earlier: the value of a move leading to a position
    /// of value `self`, for the side that made it.
    #[must_use]
    pub const fn parent(self) -> Value {
        match self {
            Value::Win { plies } => Value::Loss { plies: plies + 1 },
            Value::Loss { plies } => Value::Win { plies: plies + 1 },
            Value::Draw => Value::Draw,
        }
    }

    /// Whether a move to a position of value `child` (for its side to
    /// move, the opponent) keeps `self`, the value before it: a win stays
    /// a win (in any number of plies, not only the fewest), a draw is not
    /// lost, and a loss holds out its longest (`child.parent()` is the same
    /// loss). [`crate::Tablebase::best_move`]'s move always keeps it; the
    /// exact-accuracy figure of `phutball.rl` counts by this rule.
    #[must_use]
    pub const fn is_kept_by(self, child: Value) -> bool {
        match (self, child.parent()) {
            (Value::Win { .. }, after) => matches!(after, Value::Win { .. }),
            (Value::Draw, after) => !matches!(after, Value::Loss { .. }),
            (Value::Loss { plies }, after) => match after {
                Value::Loss { plies: held } => held >= plies,
                Value::Win { .. } | Value::Draw => true,
            },
        }
    }
}

impl fmt::Display for Value {
    /// `win in N`, `loss in N` or `draw`, as the CLI prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win { plies } => write!(f, "win in {plies}"),
            Value::Loss { plies } => write!(f, "loss in {plies}"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parent_swaps_the_side_and_adds_a_ply() {
        assert_eq!(Value::Loss { plies: 0 }.parent(), Value::Win { plies: 1 });
        assert_eq!(Value::Win { plies: 1 }.parent(), Value::Loss { plies: 2 });
        assert_eq!(Value::Draw.parent(), Value::Draw);
        assert_eq!(Value::Loss { plies: 4 }.to_string(), "loss in 4");
    }

    #[test]
    fn kept_values() {
        let win = |plies| Value::Win { plies };
        let loss = |plies| Value::Loss { plies };
        // A win in 3 is kept by a move to a loss for the opponent, of any length.
        assert!(win(3).is_kept_by(loss(2)));
        assert!(win(3).is_kept_by(loss(6)));
        assert!(!win(3).is_kept_by(Value::Draw));
        assert!(!win(3).is_kept_by(win(1)));
        assert!(Value::Draw.is_kept_by(Value::Draw));
        assert!(!Value::Draw.is_kept_by(win(5)));
        // A loss in 4: the opponent must be left a win in 3, not sooner.
        assert!(loss(4).is_kept_by(win(3)));
        assert!(!loss(4).is_kept_by(win(1)));
        assert!(!loss(4).is_kept_by(win(0)));
    }
}
