//! Games: a start position, the moves played, undo, the result, a move
//! limit, and the plain-text game record.
//!
//! The record format is described on [`Game`].

use core::fmt;
use core::str::FromStr;

use thiserror::Error;

use crate::board::point::Side;
use crate::error::{quoted, IllegalMoveError, ParseError};
use crate::rules::moves::Move;
use crate::rules::options::Rules;
use crate::rules::position::Position;

/// A game record operation that failed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameError {
    /// The move is illegal.
    #[error("move {number} ({notation}): {source}")]
    Illegal {
        /// 1-based move number.
        number: usize,
        /// The move as written.
        notation: String,
        /// Why.
        source: IllegalMoveError,
    },
    /// The game has reached its move limit (a draw).
    #[error("the game is drawn: the move limit of {0} moves has been reached")]
    MoveLimit(u32),
}

/// How a game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Still being played.
    Ongoing,
    /// This side has scored.
    Win(Side),
    /// The move limit was reached without a goal.
    Draw,
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Ongoing => f.write_str("*"),
            GameResult::Win(Side::Ohs) => f.write_str("O wins"),
            GameResult::Win(Side::Eks) => f.write_str("X wins"),
            GameResult::Draw => f.write_str("draw"),
        }
    }
}

/// A game: the start position, the moves and the positions they lead to.
///
/// # The game record format
///
/// A game record is UTF-8 text, one item per line:
///
/// ```text
/// ; Comments run from ';' to the end of the line; blank lines are ignored.
/// start 15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O
/// rules continue-off-board   ; optional: rule options (see below)
/// limit 200                  ; optional: the move limit (a draw when reached)
/// H9                         ; then one move per line, in notation
/// H10-H8
/// ```
///
/// The `start` line comes first and is required; `rules` and `limit` lines
/// may follow it, before the first move. A `rules` line holds the [`Rules`]
/// in their [text form](Rules#text-form) (any of `continue-off-board`,
/// `first-player=X` and `start-point=H8`: the options that differ from the
/// defaults); they must fit the board of
/// the `start` line ([`Rules::validate`], an error naming the `rules` line).
/// Keywords are lower case.
/// Writing a game and reading it back gives an equal game.
///
/// ```
/// use phutball::{Game, GameResult, Side};
/// let mut game = Game::standard();
/// game.push("H9".parse()?)?;
/// game.push("H11".parse()?)?;
/// assert_eq!(game.moves().len(), 2);
/// assert_eq!(game.pop().map(|m| m.to_string()), Some("H11".to_string()));
/// assert_eq!(game.result(), GameResult::Ongoing);
/// let record = game.to_string();
/// assert_eq!(record.parse::<Game>()?, game);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
    move_limit: Option<u32>,
}

impl Game {
    /// A game from `start`, with no move limit.
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
            move_limit: None,
        }
    }

    /// A game from the standard start.
    pub fn standard() -> Game {
        Game::new(Position::standard())
    }

    /// The same game with a move limit: after `limit` moves without a goal it is a draw.
    #[must_use]
    pub fn with_move_limit(mut self, limit: Option<u32>) -> Game {
        self.move_limit = limit;
        self
    }

    /// The move limit, if any.
    pub fn move_limit(&self) -> Option<u32> {
        self.move_limit
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The start position and the position after each move.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The rules of the game.
    pub fn rules(&self) -> Rules {
        self.start().rules()
    }

    /// The result so far.
    pub fn result(&self) -> GameResult {
        if let Some(side) = self.position().winner() {
            GameResult::Win(side)
        } else if self
            .move_limit
            .is_some_and(|limit| self.moves.len() >= limit as usize)
        {
            GameResult::Draw
        } else {
            GameResult::Ongoing
        }
    }

    /// Plays `m`, or says why it cannot be played (the game is unchanged then).
    ///
    /// # Errors
    ///
    /// [`GameError::MoveLimit`] once the game is drawn at its move limit,
    /// [`GameError::Illegal`] (with the move's number) if `m` is not legal now.
    pub fn push(&mut self, m: Move) -> Result<(), GameError> {
        if self.result() == GameResult::Draw {
            return Err(GameError::MoveLimit(self.move_limit.unwrap_or(0)));
        }
        let next = self
            .position()
            .play(&m)
            .map_err(|source| GameError::Illegal {
                number: self.moves.len() + 1,
                notation: m.to_string(),
                source,
            })?;
        self.positions.push(next);
        self.moves.push(m);
        Ok(())
    }

    /// Takes back the last move, if any.
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }
}

impl fmt::Display for Game {
    /// The game record (see the module docs).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "start {}", self.start())?;
        let rules = self.rules();
        if rules != Rules::default() {
            writeln!(f, "rules {rules}")?;
        }
        if let Some(limit) = self.move_limit {
            writeln!(f, "limit {limit}")?;
        }
        for m in &self.moves {
            writeln!(f, "{m}")?;
        }
        Ok(())
    }
}

impl FromStr for Game {
    type Err = ParseError;

    /// Reads a game record (see the module docs); every move is checked.
    fn from_str(text: &str) -> Result<Game, ParseError> {
        let RecordLines {
            start,
            rules,
            rules_line,
            limit,
            moves,
        } = RecordLines::read(text)?;
        let Some((start_text, start_line)) = start else {
            return Err(ParseError::Record {
                line: text.lines().count().max(1),
                reason: "no 'start <position>' line".into(),
            });
        };
        // The start string first, then the rules: an error names the line at fault.
        let start = Position::parse_with_rules(&start_text, Rules::default())
            .map_err(|e| ParseError::Record {
                line: start_line,
                reason: e.to_string(),
            })?
            .with_rules(rules)
            .map_err(|e| ParseError::Record {
                line: rules_line.unwrap_or(start_line),
                reason: e.to_string(),
            })?;
        let mut game = Game::new(start).with_move_limit(limit);
        for (m, line) in moves {
            game.push(m).map_err(|e| ParseError::Record {
                line,
                reason: e.to_string(),
            })?;
        }
        Ok(game)
    }
}

/// The lines of a game record, each read on its own: what the record says,
/// not yet checked as a game.
#[derive(Default)]
struct RecordLines {
    /// The start position's text and its line.
    start: Option<(String, usize)>,
    /// The rules of all the `rules` lines.
    rules: Rules,
    /// The last `rules` line.
    rules_line: Option<usize>,
    limit: Option<u32>,
    /// The moves with their lines.
    moves: Vec<(Move, usize)>,
}

impl RecordLines {
    fn read(text: &str) -> Result<RecordLines, ParseError> {
        let mut record = RecordLines::default();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split(';').next().unwrap_or("").trim();
            if !line.is_empty() {
                record.read_line(line, i + 1)?;
            }
        }
        Ok(record)
    }

    /// Reads `line` (comment and blanks stripped, not empty), line
    /// `line_number` of the record.
    fn read_line(&mut self, line: &str, line_number: usize) -> Result<(), ParseError> {
        let err = |reason: String| ParseError::Record {
            line: line_number,
            reason,
        };
        let (keyword, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match keyword {
            "start" => {
                if self.start.is_some() {
                    return Err(err("a second start line".into()));
                }
                self.start = Some((rest.to_string(), line_number));
            }
            "rules" | "limit" if self.start.is_none() => {
                return Err(err(format!("'{keyword}' before the start line")));
            }
            "rules" | "limit" if !self.moves.is_empty() => {
                return Err(err(format!("'{keyword}' after the first move")));
            }
            "rules" => {
                self.rules_line = Some(line_number);
                // Words of a later `rules` line add to (or override) an earlier one's.
                self.rules = format!("{} {rest}", self.rules)
                    .parse()
                    .map_err(|e: ParseError| err(e.to_string()))?;
            }
            "limit" => {
                self.limit = Some(rest.parse::<u32>().map_err(|_| {
                    err(format!(
                        "the move limit must be a whole number, not {}",
                        quoted(rest)
                    ))
                })?);
            }
            _ if self.start.is_none() => {
                return Err(err(
                    "the record must begin with a 'start <position>' line".into()
                ));
            }
            _ => {
                let m = line.parse::<Move>().map_err(|e| err(e.to_string()))?;
                self.moves.push((m, line_number));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::board_size::BoardSize;

    #[test]
    fn records_keep_every_rule_option() {
        let rules = Rules {
            continue_off_board: true,
            first_player: Side::Eks,
            start: Some("H8".parse().unwrap()),
        };
        let mut game = Game::new(Position::start_with(BoardSize::STANDARD, rules).unwrap())
            .with_move_limit(Some(9));
        game.push("H7".parse().unwrap()).unwrap();
        let record = game.to_string();
        assert!(
            record.contains("rules continue-off-board first-player=X start-point=H8"),
            "{record}"
        );
        assert_eq!(record.parse::<Game>().unwrap(), game);
    }

    #[test]
    fn bad_rule_options_name_the_line() {
        let err = "start 3/1@1/3 O\nrules first-player=Q\n"
            .parse::<Game>()
            .unwrap_err();
        assert_eq!(
            err,
            ParseError::Record {
                line: 2,
                reason: "invalid side \"Q\": a side is O (Ohs) or X (Eks)".into()
            }
        );
    }
}
