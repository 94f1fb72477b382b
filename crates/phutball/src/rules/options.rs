//! Rule options: the choices published sources disagree on.

use std::fmt;
use std::str::FromStr;

use crate::board::board_size::BoardSize;
use crate::board::point::{Point, Side};
use crate::error::{InvalidPositionError, ParseError};

/// The rule options of a game. The default is the project's reading of the rules
/// (`docs/rules.md`): the move ends when the ball lands off the board, Ohs moves
/// first, the ball starts on the centre point.
///
/// # Text form
///
/// The options that differ from the default, separated by spaces, in this
/// order: `continue-off-board`, `first-player=X`, `start-point=H8` (the
/// default rules are the empty text). Reading also accepts `stop-off-board`,
/// `first-player=O`, the side names (`first-player=eks`) and any order; a
/// later word overrides an earlier one. The game record's `rules` line, the
/// CLI and Python's `Rules.parse`/`str()` use this form. Reading does not
/// check the start point against a board: [`Rules::validate`] does, when the
/// rules are attached to a position.
///
/// ```
/// use phutball::Rules;
/// let rules: Rules = "start-point=H8 first-player=eks".parse()?;
/// assert_eq!(rules.to_string(), "first-player=X start-point=H8");
/// assert_eq!(rules.to_string().parse::<Rules>()?, rules);
/// assert_eq!(Rules::default().to_string(), "");
/// assert!("sideways".parse::<Rules>().is_err());
/// # Ok::<(), phutball::ParseError>(())
/// ```
///
/// ```
/// use phutball::{Position, Rules};
/// let rules = Rules { continue_off_board: true, ..Rules::default() };
/// let pos = Position::start_with(phutball::BoardSize::STANDARD, rules)?;
/// assert!(pos.rules().continue_off_board);
/// # Ok::<(), phutball::InvalidPositionError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    /// When `true`, a ball that lands on an off-board strip may jump on, back over
    /// a man on the goal line (German Wikipedia, `AbstractPlay`). Default `false`:
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
    /// use phutball::{BoardSize, InvalidPositionError, Rules};
    /// let size = BoardSize::STANDARD;
    /// let handicap = Rules { start: Some("H8".parse()?), ..Rules::default() };
    /// assert_eq!(handicap.validate(size), Ok(()));
    /// let on_goal = Rules { start: Some("H19".parse()?), ..Rules::default() };
    /// assert_eq!(on_goal.validate(size), Err(InvalidPositionError::StartNotInPlay("H19".parse()?)));
    /// let outside = Rules { start: Some("Z26".parse()?), ..Rules::default() };
    /// assert_eq!(
    ///     outside.validate(size).unwrap_err().to_string(),
    ///     "start point Z26 is outside the 15x19 board"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InvalidPositionError::Outside`] for a start point off the board,
    /// [`InvalidPositionError::StartNotInPlay`] for one on a goal line or an off-board strip.
    pub fn validate(&self, size: BoardSize) -> Result<(), InvalidPositionError> {
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
) -> Result<(), InvalidPositionError> {
    if !size.contains(start) {
        return Err(InvalidPositionError::Outside {
            what,
            point: start,
            cols: size.cols(),
            rows: size.rows(),
        });
    }
    if size.scorer_at_row(start.row()).is_some() {
        return Err(InvalidPositionError::StartNotInPlay(start));
    }
    Ok(())
}

impl fmt::Display for Rules {
    /// The [text form](Rules#text-form): the options that differ from the default.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let defaults = Rules::default();
        let mut separator = "";
        if self.continue_off_board != defaults.continue_off_board {
            f.write_str("continue-off-board")?;
            separator = " ";
        }
        if self.first_player != defaults.first_player {
            write!(f, "{separator}first-player={}", self.first_player)?;
            separator = " ";
        }
        if let Some(start) = self.start {
            write!(f, "{separator}start-point={start}")?;
        }
        Ok(())
    }
}

impl FromStr for Rules {
    type Err = ParseError;

    /// Reads the [text form](Rules#text-form); options not named keep their defaults.
    fn from_str(text: &str) -> Result<Rules, ParseError> {
        let mut rules = Rules::default();
        for option in text.split_whitespace() {
            match option.split_once('=') {
                None if option == "continue-off-board" => rules.continue_off_board = true,
                None if option == "stop-off-board" => rules.continue_off_board = false,
                Some(("first-player", side)) => rules.first_player = side.parse()?,
                Some(("start-point", point)) => rules.start = Some(point.parse()?),
                _ => {
                    return Err(ParseError::RuleOption {
                        text: option.into(),
                    })
                }
            }
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_round_trips_every_combination() {
        for continue_off_board in [false, true] {
            for first_player in Side::ALL {
                for start in [None, Some(Point::new(3, 7).unwrap())] {
                    let rules = Rules {
                        continue_off_board,
                        first_player,
                        start,
                    };
                    assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules), "{rules:?}");
                }
            }
        }
    }

    #[test]
    fn bad_words_name_themselves() {
        let err = "first-player=Q".parse::<Rules>().unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"invalid side "Q": a side is O (Ohs) or X (Eks)"#
        );
        let err = "start-point=I5".parse::<Rules>().unwrap_err();
        assert!(err.to_string().contains("no column I"), "{err}");
        let err = "continue".parse::<Rules>().unwrap_err();
        assert!(
            err.to_string()
                .starts_with(r#"unknown rule option "continue""#),
            "{err}"
        );
    }
}
