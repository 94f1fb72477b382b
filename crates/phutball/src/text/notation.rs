//! Text forms: points (`H10`), moves (`H10`, `K6-G9-G11-J11`), sides (`O`, `X`)
//! and position strings (`docs/rules.md`, "Notation"). Parsing only checks
//! form; [`Position::from_parts`] checks that the position makes sense.

use core::fmt;
use core::str::FromStr;

use crate::board::bitboard::Bitboard;
use crate::board::board_size::BoardSize;
use crate::board::point::{Point, Side, COLUMN_LETTERS, MAX_COLS, MAX_ROWS, MIN_ROWS};
use crate::error::{quoted, ParseError};
use crate::rules::moves::Move;
use crate::rules::options::Rules;
use crate::rules::position::Position;

impl FromStr for Point {
    type Err = ParseError;

    /// A column letter (`A`-`Z` without `I`, either case) and a row number.
    fn from_str(text: &str) -> Result<Point, ParseError> {
        let bad = || ParseError::Point {
            text: text.to_string(),
        };
        let mut chars = text.chars();
        let letter = chars.next().ok_or(ParseError::Empty { what: "point" })?;
        let upper = letter.to_ascii_uppercase();
        if upper == 'I' {
            return Err(ParseError::ColumnI {
                text: text.to_string(),
            });
        }
        let col = COLUMN_LETTERS
            .iter()
            .position(|&c| c as char == upper)
            .ok_or_else(bad)?;
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.len() > 2
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || (digits.len() > 1 && digits.starts_with('0'))
        {
            return Err(bad());
        }
        let row: u8 = digits.parse().map_err(|_| bad())?;
        Point::new(col as u8, row).ok_or_else(bad)
    }
}

impl FromStr for Side {
    type Err = ParseError;

    /// `O` or `X`, or the side's [name](Side::name) `Ohs` or `Eks` (any case).
    fn from_str(text: &str) -> Result<Side, ParseError> {
        let mut chars = text.chars();
        if let (Some(side), None) = (chars.next().and_then(Side::from_char), chars.next()) {
            return Ok(side);
        }
        Side::ALL
            .into_iter()
            .find(|side| side.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| ParseError::Side { text: text.into() })
    }
}

impl FromStr for Move {
    type Err = ParseError;

    /// A point (a placement) or points joined by `-` (a jump path).
    fn from_str(text: &str) -> Result<Move, ParseError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(ParseError::Empty { what: "move" });
        }
        let mut points = Vec::new();
        for part in text.split('-') {
            if part.is_empty() {
                return Err(ParseError::Move {
                    text: text.to_string(),
                    reason: "a '-' must stand between two points".to_string(),
                });
            }
            points.push(part.parse::<Point>().map_err(|e| ParseError::Move {
                text: text.to_string(),
                reason: e.to_string(),
            })?);
        }
        Ok(if points.len() == 1 {
            Move::Place(points[0])
        } else {
            Move::Jump(points)
        })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.path().iter().enumerate() {
            if i > 0 {
                f.write_str("-")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl Position {
    /// Parses a position string under `rules` (the string does not record them).
    ///
    /// `start` stands for the standard start and `start:COLSxROWS` for the
    /// start on that board, as everywhere a position is read (the CLI, C,
    /// Python): the ball where `rules` put it, their first player to move.
    ///
    /// ```
    /// use phutball::{Position, Rules};
    /// let rules = Rules { continue_off_board: true, ..Rules::default() };
    /// let pos = Position::parse_with_rules("3/1@1/3 X", rules)?;
    /// assert_eq!((pos.size().cols(), pos.size().rows()), (3, 3));
    /// assert!(Position::parse_with_rules("3/1@1/4 X", rules).is_err());
    /// # Ok::<(), phutball::ParseError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ParseError`] saying where `text` is not a position string;
    /// [`ParseError::Invalid`] for one that describes a position that cannot exist
    /// or that `rules` do not fit.
    pub fn parse_with_rules(text: &str, rules: Rules) -> Result<Position, ParseError> {
        if let Some(size) = start_shorthand(text) {
            return Ok(Position::start_with(size?, rules)?);
        }
        if let Some(meant) = misspelt_start(text) {
            return Err(ParseError::Position {
                column: 1,
                reason: format!(
                    "{} is not a position string or a start: did you mean `{meant}`?",
                    quoted(text.trim())
                ),
            });
        }
        let fields = fields_with_columns(text);
        let (rows_field, rows_column) = fields.first().copied().ok_or(ParseError::Empty {
            what: "position string",
        })?;
        let Some(&(side_field, side_column)) = fields.get(1) else {
            return Err(ParseError::Position {
                column: text.len() + 1,
                reason: "missing side to move (O or X) after the rows".to_string(),
            });
        };
        if let Some(&(extra, column)) = fields.get(3) {
            return Err(ParseError::Position {
                column,
                reason: format!(
                    "unexpected {}: a position string has at most three fields",
                    quoted(extra)
                ),
            });
        }
        let to_move = parse_side_field(side_field, side_column)?;
        let board = parse_rows_field(rows_field, rows_column)?;
        let ball = ball_point(&board, fields.get(2).copied(), rows_column)?;
        Ok(Position::from_parts(
            board.size, rules, board.men, ball, to_move,
        )?)
    }
}

/// The start shorthand `text` was probably meant to be (`strat` is
/// `start`, `Strat:9x9` is `start:9x9`): a word of letters a few typing
/// slips from `start`. A word alone is never a position string, so the
/// guess cannot hide a valid one.
fn misspelt_start(text: &str) -> Option<String> {
    let (word, size) = match text.trim().split_once(':') {
        Some((word, size)) => (word, Some(size)),
        None => (text.trim(), None),
    };
    let word = word.to_ascii_lowercase();
    // Two slips (`strat` is two substitutions; `sart` one deletion).
    let near = !word.is_empty()
        && word.bytes().all(|b| b.is_ascii_alphabetic())
        && edit_distance(&word, "start") <= 2;
    if !near || (word == "start" && text.trim().starts_with("start")) {
        return None;
    }
    Some(match size {
        Some(size) => format!("start:{size}"),
        None => "start".to_string(),
    })
}

/// Levenshtein distance of two ASCII words: the fewest insertions,
/// deletions and substitutions that turn `a` into `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let b = b.as_bytes();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.bytes().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substituted = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substituted.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

/// The board size of the start shorthand `text` (`start`, `start:COLSxROWS`),
/// or `None` if `text` is not one.
fn start_shorthand(text: &str) -> Option<Result<BoardSize, ParseError>> {
    let rest = text.trim().strip_prefix("start")?;
    if rest.is_empty() {
        return Some(Ok(BoardSize::STANDARD));
    }
    let size = rest.strip_prefix(':')?;
    Some(size.parse().map_err(|e| {
        let reason = match e {
            ParseError::Position { reason, .. } => reason,
            ParseError::Invalid(why) => why.to_string(),
            other => other.to_string(),
        };
        ParseError::Position {
            column: "start:".len() + 1,
            reason: format!("{reason} (start:COLSxROWS, e.g. start:9x9)"),
        }
    }))
}

/// The side-to-move field of a position string (`O` or `X`), found at `column`.
fn parse_side_field(field: &str, column: usize) -> Result<Side, ParseError> {
    let mut chars = field.chars();
    match (chars.next().and_then(Side::from_char), chars.next()) {
        (Some(side), None) => Ok(side),
        _ => Err(ParseError::Position {
            column,
            reason: format!("side to move must be O or X, not {}", quoted(field)),
        }),
    }
}

/// What the rows field of a position string holds.
struct RowsField {
    size: BoardSize,
    men: Bitboard,
    /// The ball, if it stands in a row (else the third field names it).
    ball: Option<Point>,
}

/// The rows field of a position string, found at `field_column`: rows from
/// the top, `/`-separated, all of one width.
fn parse_rows_field(field: &str, field_column: usize) -> Result<RowsField, ParseError> {
    let row_texts: Vec<&str> = field.split('/').collect();
    let rows = row_texts.len();
    if !(MIN_ROWS as usize..=MAX_ROWS as usize).contains(&rows) {
        return Err(ParseError::Position {
            column: field_column,
            reason: format!("{rows} rows: a board has {MIN_ROWS} to {MAX_ROWS} rows"),
        });
    }
    let mut reader = RowReader {
        men: Bitboard::EMPTY,
        ball: None,
    };
    let mut width = None;
    let mut column = field_column;
    for (i, row_text) in row_texts.iter().enumerate() {
        let row = (rows - i) as u8;
        let cols = reader.read_row(row_text, row, column)?;
        match width {
            None => width = Some(cols),
            Some(w) if w != cols => {
                return Err(ParseError::Position {
                    column,
                    reason: format!("row {row} is {cols} points wide, but row {rows} is {w}"),
                })
            }
            Some(_) => {}
        }
        column += row_text.len() + 1; // the row and its '/'
    }
    let cols = width.unwrap_or(0) as u8;
    Ok(RowsField {
        size: BoardSize::new(cols, rows as u8)?,
        men: reader.men,
        ball: reader.ball,
    })
}

/// The men and the ball of the rows read so far.
struct RowReader {
    men: Bitboard,
    ball: Option<Point>,
}

impl RowReader {
    /// Reads row `row` from `text`, found at `row_start`; returns its width.
    fn read_row(&mut self, text: &str, row: u8, row_start: usize) -> Result<usize, ParseError> {
        let mut column = row_start;
        let mut col = 0usize;
        let mut digits = String::new();
        for ch in text.chars() {
            match ch {
                '0'..='9' => digits.push(ch),
                '#' | '@' => {
                    col = col.saturating_add(vacant_count(&mut digits, column)?);
                    self.place(ch, col, row, column)?;
                    col += 1;
                }
                _ => {
                    return Err(ParseError::Position {
                        column,
                        reason: format!(
                            "unexpected {ch:?} in row {row}: rows use '#' (man), '@' (ball) and counts of vacant points"
                        ),
                    })
                }
            }
            column += ch.len_utf8();
        }
        col = col.saturating_add(vacant_count(&mut digits, column)?);
        if col == 0 {
            return Err(ParseError::Position {
                column: row_start,
                reason: format!("row {row} is empty"),
            });
        }
        if col > MAX_COLS as usize {
            return Err(ParseError::Position {
                column: row_start,
                reason: format!("row {row} is {col} points wide: at most {MAX_COLS}"),
            });
        }
        Ok(col)
    }

    /// Puts a man (`#`) or the ball (`@`), found at `column`, on column `col`
    /// of row `row`.
    fn place(&mut self, ch: char, col: usize, row: u8, column: usize) -> Result<(), ParseError> {
        let point = if col < MAX_COLS as usize {
            Point::new(col as u8, row)
        } else {
            None
        };
        let Some(point) = point else {
            return Err(ParseError::Position {
                column,
                reason: format!("row {row} is wider than {MAX_COLS} columns"),
            });
        };
        if ch == '#' {
            self.men.insert(point);
        } else if self.ball.replace(point).is_some() {
            return Err(ParseError::Position {
                column,
                reason: "a second ball '@'".to_string(),
            });
        }
        Ok(())
    }
}

/// The count of vacant points in `digits` (none if empty), which end just
/// before `end`; empties `digits`.
fn vacant_count(digits: &mut String, end: usize) -> Result<usize, ParseError> {
    if digits.is_empty() {
        return Ok(0);
    }
    if digits.starts_with('0') {
        return Err(ParseError::Position {
            column: end - digits.len(),
            reason: format!("bad count of vacant points {}", quoted(digits)),
        });
    }
    let n: usize = digits.parse().unwrap_or(usize::MAX);
    digits.clear();
    Ok(n)
}

/// The ball: the one in the rows, or the off-board point the optional third
/// field names (exactly one of the two).
fn ball_point(
    board: &RowsField,
    ball_field: Option<(&str, usize)>,
    rows_column: usize,
) -> Result<Point, ParseError> {
    let size = board.size;
    match (board.ball, ball_field) {
        (Some(_), Some((extra, column))) => Err(ParseError::Position {
            column,
            reason: format!(
                "unexpected {}: the ball '@' is already on the board",
                quoted(extra)
            ),
        }),
        (Some(ball), None) => Ok(ball),
        (None, None) => Err(ParseError::Position {
            column: rows_column,
            reason: "no ball: put '@' in a row, or name an off-board point after the side to move"
                .to_string(),
        }),
        (None, Some((text, column))) => {
            let point: Point = text.parse().map_err(|e: ParseError| ParseError::Position {
                column,
                reason: e.to_string(),
            })?;
            if !size.contains(point) || !size.is_off_board_row(point.row()) {
                return Err(ParseError::Position {
                    column,
                    reason: format!(
                        "the ball field {point} must be an off-board point (row 0 or {}) of the {size} board",
                        size.rows() + 1
                    ),
                });
            }
            Ok(point)
        }
    }
}

/// Whitespace-separated fields with their 1-based character columns.
fn fields_with_columns(text: &str) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices() {
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push((&text[s..i], s + 1));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((&text[s..], s + 1));
    }
    out
}

impl FromStr for BoardSize {
    type Err = ParseError;

    /// `COLSxROWS`, as [`BoardSize`]'s `Display` writes it: `15x19`.
    fn from_str(text: &str) -> Result<BoardSize, ParseError> {
        let bad = |reason: String| ParseError::Position { column: 1, reason };
        let (cols, rows) = text.split_once(['x', 'X']).ok_or_else(|| {
            bad(format!(
                "board size {} is not COLSxROWS, like 15x19",
                quoted(text)
            ))
        })?;
        let number = |part: &str| {
            part.parse::<u8>().map_err(|_| {
                bad(format!(
                    "board size {} is not COLSxROWS, like 15x19",
                    quoted(text)
                ))
            })
        };
        Ok(BoardSize::new(number(cols)?, number(rows)?)?)
    }
}

impl FromStr for Position {
    type Err = ParseError;

    /// Parses a position string under the default rules.
    fn from_str(text: &str) -> Result<Position, ParseError> {
        Position::parse_with_rules(text, Rules::default())
    }
}

impl fmt::Display for Position {
    /// The position string; it parses back to an equal position (under the same rules).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = self.size.rows();
        for row in (1..=rows).rev() {
            if row != rows {
                f.write_str("/")?;
            }
            let mut vacant = 0;
            for col in 0..self.size.cols() {
                let p = Point::new(col, row).expect("board points exist");
                let ch = if p == self.ball {
                    '@'
                } else if self.men.contains(p) {
                    '#'
                } else {
                    vacant += 1;
                    continue;
                };
                if vacant > 0 {
                    write!(f, "{vacant}")?;
                    vacant = 0;
                }
                write!(f, "{ch}")?;
            }
            if vacant > 0 {
                write!(f, "{vacant}")?;
            }
        }
        write!(f, " {}", self.to_move)?;
        if self.size.is_off_board_row(self.ball.row()) {
            write!(f, " {}", self.ball)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_and_start_with_a_size_read_as_the_start_position() {
        let rules = Rules {
            first_player: Side::Eks,
            ..Rules::default()
        };
        for (text, size) in [
            ("start", BoardSize::STANDARD),
            (" start ", BoardSize::STANDARD),
            ("start:5x7", BoardSize::new(5, 7).unwrap()),
            ("start:9X9", BoardSize::new(9, 9).unwrap()),
        ] {
            let pos = Position::parse_with_rules(text, rules).unwrap();
            assert_eq!(pos, Position::start_with(size, rules).unwrap(), "{text}");
        }
        assert_eq!(
            "start".parse::<Position>().unwrap(),
            Position::start_with(BoardSize::STANDARD, Rules::default()).unwrap()
        );
        for bad in ["start:", "start:9", "start:30x5", "start:5x7x", "startx"] {
            let err = bad.parse::<Position>().unwrap_err().to_string();
            assert!(
                err.contains("COLSxROWS") || err.contains("invalid position string"),
                "{bad}: {err}"
            );
        }
        for (typo, meant) in [
            ("strat", "start"),
            ("sart", "start"),
            ("Start", "start"),
            ("starts", "start"),
            ("strat:9x9", "start:9x9"),
        ] {
            let err = typo.parse::<Position>().unwrap_err().to_string();
            assert!(
                err.contains(&format!("did you mean `{meant}`?")),
                "{typo}: {err}"
            );
        }
        // Far from `start`, or not a word: no guess.
        for other in ["stop", "15/15 O", "s7"] {
            let err = other.parse::<Position>().unwrap_err().to_string();
            assert!(!err.contains("did you mean"), "{other}: {err}");
        }
        assert_eq!(edit_distance("strat", "start"), 2);
        assert_eq!(edit_distance("", "start"), 5);
        assert_eq!(edit_distance("start", "start"), 0);
        let err = "start:30x5".parse::<Position>().unwrap_err().to_string();
        assert!(
            err.contains("30x5") && err.contains("start:COLSxROWS"),
            "{err}"
        );
    }
}
