//! One value of every variant of the core's errors, and the helpers the
//! wrappers' tests use to check their documented error tables (the C status
//! and the Python class of each error) against their mapping functions.
//! Test support, behind the `test-support` feature: not part of the stable
//! interface.

use core::fmt::Debug;

use crate::{
    ActionError, GameError, IllegalMoveError, InvalidPositionError, ParseError, Point, SearchError,
    Side, TooManyOutcomesError,
};

/// One value of every variant of each core error type.
#[derive(Clone, Debug)]
pub struct EveryError {
    /// Every [`ParseError`] variant.
    pub parse: Vec<ParseError>,
    /// Every [`InvalidPositionError`] variant.
    pub invalid_position: Vec<InvalidPositionError>,
    /// Every [`IllegalMoveError`] variant.
    pub illegal_move: Vec<IllegalMoveError>,
    /// Every [`GameError`] variant.
    pub game: Vec<GameError>,
    /// Every [`ActionError`] variant.
    pub action: Vec<ActionError>,
    /// Every [`SearchError`] variant.
    pub search: Vec<SearchError>,
    /// A [`TooManyOutcomesError`].
    pub too_many_outcomes: TooManyOutcomesError,
}

fn point(text: &str) -> Point {
    text.parse()
        .expect("a point of the standard board's notation")
}

/// The standard board's size, which the examples' messages name.
const COLS: u8 = 15;
/// The standard board's rows.
const ROWS: u8 = 19;
/// The text of an example's `reason` or `what`.
const WHAT: &str = "an example";

/// A point outside every board.
fn far() -> Point {
    point("Z26")
}

/// One value of every variant of each core error type.
pub fn every_error() -> EveryError {
    let too_many_outcomes = TooManyOutcomesError { limit: 1 };
    EveryError {
        parse: parse_errors(),
        invalid_position: invalid_position_errors(),
        illegal_move: illegal_move_errors(),
        game: vec![
            GameError::Illegal {
                number: 1,
                notation: "H11".into(),
                source: IllegalMoveError::Occupied(point("H11")),
            },
            GameError::MoveLimit(1),
        ],
        action: vec![
            ActionError::OutOfRange {
                index: 601,
                cols: COLS,
                rows: ROWS,
                last: 600,
            },
            ActionError::NoJumpUnderWay,
            ActionError::Illegal(IllegalMoveError::Occupied(point("H11"))),
        ],
        search: vec![
            SearchError::WorkLimit { limit: 5 },
            SearchError::TimedOut,
            SearchError::Cancelled,
            SearchError::MemoryLimit {
                limit: 1,
                what: WHAT,
            },
            SearchError::OutOfMemory { what: WHAT },
            SearchError::TooManyOutcomes(too_many_outcomes),
        ],
        too_many_outcomes,
    }
}

/// Every [`ParseError`] variant.
fn parse_errors() -> Vec<ParseError> {
    vec![
        ParseError::Empty { what: "move" },
        ParseError::Point { text: "?".into() },
        ParseError::ColumnI { text: "I5".into() },
        ParseError::PointOutside {
            point: far(),
            cols: COLS,
            rows: ROWS,
        },
        ParseError::Side { text: "Q".into() },
        ParseError::RuleOption {
            text: "continue".into(),
        },
        ParseError::Action { text: "fly".into() },
        ParseError::Move {
            text: "-".into(),
            reason: WHAT.into(),
        },
        ParseError::Position {
            column: 1,
            reason: WHAT.into(),
        },
        ParseError::Invalid(InvalidPositionError::BallOnMan(point("H10"))),
        ParseError::Record {
            line: 1,
            reason: WHAT.into(),
        },
        ParseError::Size {
            text: "12Q".into(),
            reason: WHAT.into(),
        },
    ]
}

/// Every [`InvalidPositionError`] variant.
fn invalid_position_errors() -> Vec<InvalidPositionError> {
    let h10 = point("H10");
    vec![
        InvalidPositionError::Size { cols: 0, rows: 0 },
        InvalidPositionError::Outside {
            what: "ball",
            point: far(),
            cols: COLS,
            rows: ROWS,
        },
        InvalidPositionError::ManOffBoard(point("H20")),
        InvalidPositionError::BallOnMan(h10),
        InvalidPositionError::StartNotInPlay(point("H19")),
        InvalidPositionError::JumpStartOnMan(h10),
        InvalidPositionError::NothingRemoved,
        InvalidPositionError::RemovedManPresent(h10),
    ]
}

/// Every [`IllegalMoveError`] variant.
fn illegal_move_errors() -> Vec<IllegalMoveError> {
    let (h10, h11) = (point("H10"), point("H11"));
    vec![
        IllegalMoveError::GameOver { winner: Side::Eks },
        IllegalMoveError::Outside {
            point: far(),
            cols: COLS,
            rows: ROWS,
        },
        IllegalMoveError::PlaceOffBoard(point("H20")),
        IllegalMoveError::Occupied(h11),
        IllegalMoveError::OnBall(h10),
        IllegalMoveError::NotFromBall {
            ball: h10,
            start: h11,
        },
        IllegalMoveError::EmptyJump,
        IllegalMoveError::NotALine {
            from: h10,
            to: point("J13"),
        },
        IllegalMoveError::Gap {
            from: h10,
            to: point("H13"),
            gap: point("H12"),
        },
        IllegalMoveError::LandsOnMan { from: h10, to: h11 },
        IllegalMoveError::NoManJumped { from: h10, to: h11 },
        IllegalMoveError::AfterOffBoard(point("H20")),
        IllegalMoveError::JumpInProgress,
    ]
}

/// `ParseError::Empty` for `("ParseError", &ParseError::Empty { .. })`: the
/// type's name and the variant's, as the docs' tables name an error (the
/// variant is the first word of the `Debug` form; a struct has none).
pub fn variant_name(type_name: &str, error: &impl Debug) -> String {
    let debug = format!("{error:?}");
    let variant: String = debug
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    if variant == type_name {
        variant
    } else {
        format!("{type_name}::{variant}")
    }
}

/// The first two cells, without backticks, of the rows of the first table
/// after the line `heading` of a Markdown text; `None` without that heading.
pub fn markdown_table(markdown: &str, heading: &str) -> Option<Vec<(String, String)>> {
    let (_, section) = markdown.split_once(&format!("\n{heading}\n"))?;
    let cell = |c: &str| c.trim().replace('`', "");
    Some(
        section
            .lines()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .skip(2) // the header and the |---| line
            .map(|row| {
                let mut cells = row.split('|').skip(1);
                let first = cells.next().map(cell).unwrap_or_default();
                (first, cells.next().map(cell).unwrap_or_default())
            })
            .collect(),
    )
}

/// Checks that the table under `heading` in `markdown` (the text of the
/// file `path`, which the caller reads: the core does no I/O) has exactly
/// the rows `mapped` (the error's name, then what a wrapper maps it to), in
/// any order.
///
/// # Panics
///
/// Without the heading, or naming the first row that differs.
pub fn assert_docs_table(path: &str, markdown: &str, heading: &str, mapped: &[(String, String)]) {
    let documented = markdown_table(markdown, heading)
        .unwrap_or_else(|| panic!("{path} has no heading {heading:?}"));
    for row in mapped {
        assert!(documented.contains(row), "{path} lacks the row {row:?}");
    }
    for row in &documented {
        assert!(
            mapped.contains(row),
            "{path} has a row no error maps to: {row:?}"
        );
    }
}

/// Checks that `examples` hold every variant of `$type`, by a match that
/// lists them all, each with a message: a new variant does not compile
/// until it is listed there (in the crate that defines `$type`, where its
/// `non_exhaustive` does not apply), and the test fails until it has an
/// example. The core's and the solver's example tests use it.
///
/// # Panics
///
/// Naming the first variant without an example, or an example with an
/// empty message.
#[macro_export]
macro_rules! assert_every_variant {
    ($examples:expr, $type:ident: $($variant:ident),+ $(,)?) => {{
        let seen: Vec<&str> = $examples
            .iter()
            .map(|e| match e {
                $($type::$variant { .. } => stringify!($variant),)+
            })
            .collect();
        for variant in [$(stringify!($variant)),+] {
            assert!(
                seen.contains(&variant),
                "no example of {}::{variant}",
                stringify!($type)
            );
        }
        for e in $examples.iter() {
            assert!(!e.to_string().is_empty());
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_is_an_example_of_every_variant() {
        let every = every_error();
        assert_every_variant!(every.parse, ParseError:
            Empty, Point, ColumnI, PointOutside, Side, RuleOption, Action, Move, Position, Invalid, Record,
            Size);
        assert_every_variant!(every.invalid_position, InvalidPositionError:
            Size, Outside, ManOffBoard, BallOnMan, StartNotInPlay, JumpStartOnMan, NothingRemoved,
            RemovedManPresent);
        assert_every_variant!(every.illegal_move, IllegalMoveError:
            GameOver, Outside, PlaceOffBoard, Occupied, OnBall, NotFromBall, EmptyJump,
            NotALine, Gap, LandsOnMan, NoManJumped, AfterOffBoard, JumpInProgress);
        assert_every_variant!(every.game, GameError: Illegal, MoveLimit);
        assert_every_variant!(every.action, ActionError: OutOfRange, NoJumpUnderWay, Illegal);
        assert_every_variant!(every.search, SearchError:
            WorkLimit, TimedOut, Cancelled, MemoryLimit, OutOfMemory, TooManyOutcomes);
    }

    #[test]
    fn variants_are_named_by_type_and_variant() {
        let every = every_error();
        assert_eq!(
            variant_name("ParseError", &every.parse[2]),
            "ParseError::ColumnI"
        );
        assert_eq!(
            variant_name("TooManyOutcomesError", &every.too_many_outcomes),
            "TooManyOutcomesError"
        );
    }

    #[test]
    fn markdown_tables_are_read_below_their_heading() {
        let text = "# A\n\n| x | y |\n|---|---|\n| `a` | 1 |\n\n### B\n\nText.\n\n| k | v | note |\n|---|---|---|\n| `ParseError::Empty` | `PARSE` | n |\n| `b` | the `c` |\n\nAfter.\n| z | z |\n";
        assert_eq!(
            markdown_table(text, "### B").unwrap(),
            [
                ("ParseError::Empty".to_string(), "PARSE".to_string()),
                ("b".to_string(), "the c".to_string())
            ]
        );
        assert_eq!(markdown_table(text, "### C"), None);
    }
}
