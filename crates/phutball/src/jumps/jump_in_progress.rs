//! A jump move made one jump at a time: the board between the jumps of one
//! move, the point it started from and the men removed so far, with its
//! checks and its text form.
//!
//! A [`Position`] is always at the start of a move, so its legal moves all
//! play and its string round-trips; the "jump under way" state lives here.

use core::fmt;
use core::str::FromStr;

use crate::board::bitboard::Bitboard;
use crate::board::point::{Point, Side};
use crate::error::{quoted, IllegalMoveError, InvalidPositionError, ParseError};
use crate::jumps::jump::Jump;
use crate::rules::options::{check_start_in_play, Rules};
use crate::rules::position::{check_men_on_board, Position};

/// What separates the position string from the jump's own fields.
pub(crate) const JUMP_MARK: &str = "|";
/// The words before the start point and before the removed men.
const FROM_WORDS: &str = "jump from";
const REMOVED_WORD: &str = "removed";

/// A jump move under way: the ball has made one or more jumps and the same
/// side is still to move. It jumps on ([`JumpInProgress::apply_jump`]) or
/// ends the move ([`JumpInProgress::end`]); nobody has won until it ends.
///
/// # Text form
///
/// A jump in progress is written as the position string of the board as it
/// stands, then ` | jump from ` and the point the move started from, then
/// ` removed ` and the men removed so far, in point order, separated by
/// commas (a [`StepState`](crate::StepState) is written as its position or its jump):
///
/// ```text
/// 15/15/15/15/15/15/15/15/7#7/6#8/6@8/15/15/15/15/15/15/15/15 O | jump from K6 removed J7,H8
/// ```
///
/// ```
/// use phutball::{Move, Position};
/// let pos: Position = "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O".parse()?;
/// let jump = pos.apply_jump("G9".parse()?)?;
/// assert_eq!(jump.start().to_string(), "K6");
/// assert_eq!(jump.to_move(), pos.to_move());
/// let jump = jump.apply_jump("G11".parse()?)?.apply_jump("J11".parse()?)?;
/// assert_eq!(jump.end(), pos.play(&"K6-G9-G11-J11".parse()?)?);
/// let text = jump.to_string();
/// assert!(text.ends_with(" | jump from K6 removed J7,H8,G10,H11"));
/// assert_eq!(text.parse::<phutball::JumpInProgress>()?, jump);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct JumpInProgress {
    position: Position,
    start: Point,
    removed: Bitboard,
}

impl JumpInProgress {
    pub(crate) fn new(position: Position, start: Point, removed: Bitboard) -> JumpInProgress {
        JumpInProgress {
            position,
            start,
            removed,
        }
    }

    /// A jump in progress from its parts, validated: the start point strictly
    /// between the goal lines and not under a man, the removed men on the
    /// board (rows 1 to R), at least one, and none of them on a man, the
    /// ball or the start point.
    ///
    /// # Errors
    ///
    /// [`InvalidPositionError`] for the first of these conditions the parts break.
    pub fn from_parts(
        position: Position,
        start: Point,
        removed: Bitboard,
    ) -> Result<JumpInProgress, InvalidPositionError> {
        let size = position.size();
        check_start_in_play(size, "jump start point", start)?;
        if position.men().contains(start) {
            return Err(InvalidPositionError::JumpStartOnMan(start));
        }
        check_men_on_board(size, "removed man", removed)?;
        if removed.is_empty() {
            return Err(InvalidPositionError::NothingRemoved);
        }
        let mut taken = position.men();
        // The ball may land where a man it jumped earlier stood.
        taken.insert(start);
        if let Some(p) = (removed & taken).iter().next() {
            return Err(InvalidPositionError::RemovedManPresent(p));
        }
        Ok(JumpInProgress::new(position, start, removed))
    }

    /// The board as it stands, the same side to move.
    pub fn position(&self) -> Position {
        self.position
    }

    /// The point the ball started the move from.
    pub fn start(&self) -> Point {
        self.start
    }

    /// The men the move has removed so far.
    pub fn removed(&self) -> Bitboard {
        self.removed
    }

    /// The side making the move.
    pub fn to_move(&self) -> Side {
        self.position.to_move()
    }

    /// Whether the ball may jump on: not after it has landed on an
    /// off-board strip, unless the rules allow it.
    fn may_jump_on(&self) -> bool {
        let pos = &self.position;
        pos.rules().continue_off_board || !pos.size().is_off_board_row(pos.ball().row())
    }

    /// The single jumps that continue the move, clockwise from north.
    pub fn single_jumps(&self) -> Vec<Jump> {
        if self.may_jump_on() {
            self.position.jumps_from_ball()
        } else {
            Vec::new()
        }
    }

    /// Jumps on to `to`, or says why no single jump lands there.
    ///
    /// # Errors
    ///
    /// [`IllegalMoveError`] saying why no single jump lands on `to` (or why the move
    /// cannot go on, as after landing off the board).
    pub fn apply_jump(&self, to: Point) -> Result<JumpInProgress, IllegalMoveError> {
        let size = self.position.size();
        if size.contains(to) && !self.may_jump_on() {
            return Err(IllegalMoveError::AfterOffBoard(self.position.ball()));
        }
        let (position, removed) = self.position.jump_ball(to)?;
        Ok(JumpInProgress::new(
            position,
            self.start,
            self.removed | removed,
        ))
    }

    /// Jumps on to each of `landings` in turn.
    pub(crate) fn jump_along(
        &self,
        landings: &[Point],
    ) -> Result<JumpInProgress, IllegalMoveError> {
        landings
            .iter()
            .try_fold(*self, |jump, &to| jump.apply_jump(to))
    }

    /// Ends the move: the other side is to move, and the winner, if the ball
    /// is on or over a goal line, appears.
    pub fn end(&self) -> Position {
        self.position.end_turn()
    }

    /// A text diagram of the board as [`Position::diagram`] draws it, its last
    /// line saying who is jumping, from where, and the men removed so far.
    pub fn diagram(&self) -> String {
        let board = self.position.diagram();
        let board = board.trim_end();
        let board = board.rsplit_once('\n').map_or(board, |(rows, _)| rows);
        let side = self.to_move();
        let removed: Vec<String> = self.removed.iter().map(|p| p.to_string()).collect();
        format!(
            "{board}\n{} ({side}) to move, jumping from {} (removed {})\n",
            side.name(),
            self.start,
            removed.join(", ")
        )
    }

    /// Parses the text form under `rules` (the text does not record them).
    ///
    /// # Errors
    ///
    /// [`ParseError`] saying where `text` is not a jump in progress's text form;
    /// [`ParseError::Invalid`] for one that cannot exist or that `rules` do not fit.
    pub fn parse_with_rules(text: &str, rules: Rules) -> Result<JumpInProgress, ParseError> {
        let Some((board, fields)) = text.split_once(JUMP_MARK) else {
            return Err(ParseError::Position {
                column: text.len() + 1,
                reason: format!(
                    "a jump in progress needs \"{JUMP_MARK} {FROM_WORDS} <point> {REMOVED_WORD} \
                     <points>\" after the position string"
                ),
            });
        };
        let position = Position::parse_with_rules(board.trim_end(), rules)?;
        let column = board.len() + 2;
        let bad = |reason: String| ParseError::Position { column, reason };
        let fields = fields.trim();
        let rest = fields.strip_prefix(FROM_WORDS).ok_or_else(|| {
            bad(format!(
                "expected \"{FROM_WORDS} <point>\" after \"{JUMP_MARK}\", found {}",
                quoted(fields)
            ))
        })?;
        let (start, removed) = rest
            .trim_start()
            .split_once(char::is_whitespace)
            .ok_or_else(|| {
                bad(format!(
                    "expected \"<point> {REMOVED_WORD} <points>\" after \"{FROM_WORDS}\", found {}",
                    quoted(rest)
                ))
            })?;
        let removed = removed
            .trim_start()
            .strip_prefix(REMOVED_WORD)
            .ok_or_else(|| {
                bad(format!(
                    "expected \"{REMOVED_WORD} <points>\" after the start point, found {}",
                    quoted(removed)
                ))
            })?;
        let start: Point = start.parse()?;
        let mut men = Bitboard::EMPTY;
        for p in removed.split(',') {
            let p = p.trim();
            if p.is_empty() {
                return Err(bad(format!(
                    "the removed men {} are not points separated by commas",
                    quoted(removed.trim())
                )));
            }
            men.insert(p.parse()?);
        }
        Ok(JumpInProgress::from_parts(position, start, men)?)
    }
}

impl fmt::Display for JumpInProgress {
    /// The text form (see [`JumpInProgress`]); it parses back to an
    /// equal jump in progress under the same rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {JUMP_MARK} {FROM_WORDS} {} {REMOVED_WORD} ",
            self.position, self.start
        )?;
        for (i, p) in self.removed.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl FromStr for JumpInProgress {
    type Err = ParseError;

    /// Parses the text form under the default rules.
    fn from_str(text: &str) -> Result<JumpInProgress, ParseError> {
        JumpInProgress::parse_with_rules(text, Rules::default())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::StepState;

    const SEEDS_EXAMPLE: &str = "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O";

    fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    /// The seeds' worked example after its first jump (K6 to G9).
    pub(crate) fn started() -> JumpInProgress {
        let pos: Position = SEEDS_EXAMPLE.parse().unwrap();
        pos.apply_jump(pt("G9")).unwrap()
    }

    #[test]
    fn text_form_round_trips_and_names_its_parts() {
        let jump = started();
        let text = jump.to_string();
        assert!(text.ends_with(" | jump from K6 removed J7,H8"), "{text}");
        assert_eq!(text.parse::<JumpInProgress>().unwrap(), jump);
        assert_eq!(text.parse::<StepState>().unwrap(), StepState::Jump(jump));
        assert_eq!(
            SEEDS_EXAMPLE.parse::<StepState>().unwrap(),
            StepState::Move(SEEDS_EXAMPLE.parse().unwrap())
        );
    }

    #[test]
    fn bad_text_forms_say_what_is_wrong() {
        let board = started().position().to_string();
        for (suffix, expected) in [
            ("", "needs \"| jump from"),
            (" | from K6 removed J7", "expected \"jump from <point>\""),
            (" | jump from K6", "expected \"<point> removed <points>\""),
            (" | jump from K6 gone J7", "expected \"removed <points>\""),
            (
                " | jump from K6 removed J7,,H8",
                "not points separated by commas",
            ),
            (" | jump from K6 removed J7,Z30", "invalid point"),
            (
                " | jump from Z6 removed J7",
                "jump start point Z6 is outside",
            ),
            (
                " | jump from K1 removed J7",
                "strictly between the goal lines",
            ),
            (
                " | jump from K6 removed G10",
                "removed man G10 is still on the board",
            ),
            (
                " | jump from K6 removed K6",
                "removed man K6 is still on the board",
            ),
            (
                " | jump from K6 removed J0",
                "men stand only on rows 1 to R",
            ),
            (
                " | jump from G10 removed J7",
                "the jump's start point G10 holds a man",
            ),
            (" | jump from K6 removed ", "not points separated by commas"),
        ] {
            let text = format!("{board}{suffix}");
            let err = text.parse::<JumpInProgress>().unwrap_err().to_string();
            assert!(err.contains(expected), "{text:?}: {err}");
        }
    }
}
