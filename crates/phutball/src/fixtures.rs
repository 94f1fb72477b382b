//! Fixture files: positions with their reference figures, one format for
//! every test, benchmark and language of the project (in the spirit of
//! shakmaty's `.perft` files).
//!
//! A record is a position string on a line of its own, followed by its
//! figures, one `key value` line each:
//!
//! ```text
//! # comment: a line that starts with "# " (or is "#" alone)
//! 15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O
//! paths 3
//! outcomes 3
//! score no
//! perft 1 283
//! ```
//!
//! - `paths N`: the legal jump moves (every path of landings);
//! - `outcomes N`: the distinct positions those jumps reach;
//! - `score yes|no|undecided`: whether the side to move can score this move;
//!   `undecided` records that no search has decided it (a comment should say
//!   how much work was tried), not anything about the position;
//! - `perft DEPTH N`: the move sequences of DEPTH moves ([`crate::perft`]),
//!   one line per depth.
//!
//! Every figure is optional; blank lines are skipped. Position strings
//! never start with a lowercase letter (their rows use digits, `#` and `@`)
//! and always hold a `/`, so a line is a comment, a figure or a position by
//! its first characters. A file of bare position strings, one a line, is a
//! fixture file whose records have no figures.
//!
//! The project's own files are in this crate's `tests/data` ([`path`]);
//! their README says where each came from. Reading a file is the caller's
//! (this crate does no I/O): `fixtures::parse(&std::fs::read_to_string(path)?)`.

use std::fmt;
use std::path::PathBuf;

use thiserror::Error;

use crate::error::quoted;
use crate::{ParseError, Position, Rules};

/// Where the project's fixture file `name` (for example `"jumps-24.fixture"`)
/// is: this crate's `tests/data`, in the source tree it was built from. For
/// the workspace's tests and benchmarks, which share these files.
pub fn path(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data")).join(name)
}

/// A `score` figure: whether the side to move can score this move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoreFigure {
    /// It can (`score yes`).
    Yes,
    /// It cannot (`score no`).
    No,
    /// No search has decided it (`score undecided`): a statement about the
    /// work done, not about the position.
    Undecided,
}

impl ScoreFigure {
    /// The answer, if one is known: `Some(true)` for [`ScoreFigure::Yes`],
    /// `Some(false)` for [`ScoreFigure::No`], `None` if undecided.
    pub fn known(self) -> Option<bool> {
        match self {
            ScoreFigure::Yes => Some(true),
            ScoreFigure::No => Some(false),
            ScoreFigure::Undecided => None,
        }
    }

    /// The figure of a decided answer (`yes` or `no`).
    pub fn from_answer(can_score: bool) -> ScoreFigure {
        if can_score {
            ScoreFigure::Yes
        } else {
            ScoreFigure::No
        }
    }

    fn word(self) -> &'static str {
        match self {
            ScoreFigure::Yes => "yes",
            ScoreFigure::No => "no",
            ScoreFigure::Undecided => "undecided",
        }
    }
}

/// One record of a fixture file: a position and the figures given for it.
///
/// `Display` writes the record back in the file format (the position line,
/// then its figures in the order `paths`, `outcomes`, `score`, `perft`), so
/// a generator can print records that [`parse`] reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// The line number (from 1) of the position line in its file.
    pub line: usize,
    /// The position.
    pub position: Position,
    /// `paths`: the number of legal jump moves.
    pub paths: Option<u64>,
    /// `outcomes`: the number of distinct positions the jumps reach.
    pub outcomes: Option<u64>,
    /// `score`: whether the side to move can score this move.
    pub score: Option<ScoreFigure>,
    /// `perft`: (depth, move sequences), in the file's order.
    pub perft: Vec<(u32, u64)>,
}

impl Fixture {
    /// A record of `position` with no figures (line 0: not from a file).
    pub fn new(position: Position) -> Fixture {
        Fixture {
            line: 0,
            position,
            paths: None,
            outcomes: None,
            score: None,
            perft: Vec::new(),
        }
    }
}

impl fmt::Display for Fixture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.position)?;
        if let Some(paths) = self.paths {
            writeln!(f, "paths {paths}")?;
        }
        if let Some(outcomes) = self.outcomes {
            writeln!(f, "outcomes {outcomes}")?;
        }
        if let Some(score) = self.score {
            writeln!(f, "score {}", score.word())?;
        }
        for (depth, count) in &self.perft {
            writeln!(f, "perft {depth} {count}")?;
        }
        Ok(())
    }
}

/// A fixture file that does not read: which line, and why.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {problem}")]
pub struct FixtureError {
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub problem: FixtureProblem,
}

/// What is wrong with a line of a fixture file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum FixtureProblem {
    /// The position string does not parse (the message is the position's own).
    #[error(transparent)]
    Position(#[from] ParseError),
    /// A line that starts like a figure (a lowercase word) but names none.
    #[error(
        "{} is neither a position string nor a figure (paths, outcomes, score, perft)",
        quoted(.text)
    )]
    UnknownFigure {
        /// The line.
        text: String,
    },
    /// A figure before the first position line.
    #[error("figure {} comes before any position", quoted(.text))]
    NoPosition {
        /// The line.
        text: String,
    },
    /// A figure whose value does not read.
    #[error("bad {key} figure {}: expected {expected}", quoted(.text))]
    BadValue {
        /// The figure's key.
        key: &'static str,
        /// The line.
        text: String,
        /// What its value should be.
        expected: &'static str,
    },
    /// The same figure twice for one position (for `perft`: the same depth).
    #[error("a second {} for the position of line {position_line}", quoted(.text))]
    Repeated {
        /// The line.
        text: String,
        /// The position line it belongs to.
        position_line: usize,
    },
}

/// The records of a fixture file, positions under the default rules.
///
/// ```
/// use phutball::fixtures::{parse, ScoreFigure};
/// let text = "# the seeds' jump\n\
///             15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O\n\
///             paths 3\nscore no\n";
/// let records = parse(text)?;
/// assert_eq!(records[0].line, 2);
/// assert_eq!(records[0].paths, Some(3));
/// assert_eq!(records[0].outcomes, None);
/// assert_eq!(records[0].score, Some(ScoreFigure::No));
/// assert_eq!(records[0].position.count_jump_paths(), 3);
/// # Ok::<(), phutball::fixtures::FixtureError>(())
/// ```
///
/// # Errors
///
/// [`FixtureError`] for the first line that does not read: its number and what is wrong.
pub fn parse(text: &str) -> Result<Vec<Fixture>, FixtureError> {
    parse_with_rules(text, Rules::default())
}

/// The records of a fixture file, positions under `rules` (the file does
/// not record them).
///
/// # Errors
///
/// [`FixtureError`] for the first line that does not read: its number and what is wrong.
pub fn parse_with_rules(text: &str, rules: Rules) -> Result<Vec<Fixture>, FixtureError> {
    let mut records: Vec<Fixture> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let at = |problem: FixtureProblem| FixtureError { line, problem };
        let trimmed = raw.trim();
        if trimmed.is_empty() || is_comment(trimmed) {
            continue;
        }
        if !trimmed.starts_with(|c: char| c.is_ascii_lowercase()) {
            let position = Position::parse_with_rules(trimmed, rules).map_err(|e| at(e.into()))?;
            records.push(Fixture {
                line,
                ..Fixture::new(position)
            });
            continue;
        }
        let Some(record) = records.last_mut() else {
            return Err(at(FixtureProblem::NoPosition {
                text: trimmed.to_string(),
            }));
        };
        read_figure(record, trimmed).map_err(at)?;
    }
    Ok(records)
}

/// `#` alone or followed by a space: never a position string, whose first
/// field holds a `/` (every board has at least 3 rows).
fn is_comment(line: &str) -> bool {
    line.strip_prefix('#')
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
}

/// Adds the figure line `text` to `record`.
fn read_figure(record: &mut Fixture, text: &str) -> Result<(), FixtureProblem> {
    let mut words = text.split_whitespace();
    let key = words.next().unwrap_or_default();
    let values: Vec<&str> = words.collect();
    let bad = |key: &'static str, expected: &'static str| FixtureProblem::BadValue {
        key,
        text: text.to_string(),
        expected,
    };
    let repeated = FixtureProblem::Repeated {
        text: text.to_string(),
        position_line: record.line,
    };
    // Whether the record already had this figure (a perft line: this depth).
    let already_given = match key {
        "paths" | "outcomes" => {
            let (key, slot) = if key == "paths" {
                ("paths", &mut record.paths)
            } else {
                ("outcomes", &mut record.outcomes)
            };
            let [value] = values.as_slice() else {
                return Err(bad(key, "one number"));
            };
            let n = value.parse::<u64>().map_err(|_| bad(key, "one number"))?;
            slot.replace(n).is_some()
        }
        "score" => {
            let score = match values.as_slice() {
                ["yes"] => ScoreFigure::Yes,
                ["no"] => ScoreFigure::No,
                ["undecided"] => ScoreFigure::Undecided,
                _ => return Err(bad("score", "yes, no or undecided")),
            };
            record.score.replace(score).is_some()
        }
        "perft" => {
            let figure = match values.as_slice() {
                [depth, count] => depth.parse::<u32>().ok().zip(count.parse::<u64>().ok()),
                _ => None,
            };
            let (depth, count) = figure.ok_or_else(|| bad("perft", "a depth and a number"))?;
            let seen = record.perft.iter().any(|&(d, _)| d == depth);
            record.perft.push((depth, count));
            seen
        }
        _ => {
            return Err(FixtureProblem::UnknownFigure {
                text: text.to_string(),
            })
        }
    };
    if already_given {
        return Err(repeated);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEEDS: &str = "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O";

    fn problem(text: &str) -> (usize, FixtureProblem) {
        let e = parse(text).expect_err(text);
        (e.line, e.problem)
    }

    #[test]
    fn a_record_reads_back_from_its_display() {
        let text = format!(
            "# a comment\n#\n\n  {SEEDS}  \nscore no\nperft 2 80000\n\
             outcomes 3\npaths 3\n# between figures\nperft 1 283\n{SEEDS}\n"
        );
        let records = parse(&text).unwrap();
        assert_eq!(records.len(), 2);
        let seeds = &records[0];
        assert_eq!(seeds.line, 4);
        assert_eq!(seeds.position, SEEDS.parse().unwrap());
        assert_eq!(
            (seeds.paths, seeds.outcomes, seeds.score),
            (Some(3), Some(3), Some(ScoreFigure::No))
        );
        assert_eq!(seeds.perft, [(2, 80000), (1, 283)]);
        assert_eq!(
            records[1],
            Fixture {
                line: 11,
                ..Fixture::new(seeds.position)
            }
        );
        let written = seeds.to_string();
        assert_eq!(
            written,
            format!("{SEEDS}\npaths 3\noutcomes 3\nscore no\nperft 2 80000\nperft 1 283\n")
        );
        let again = parse(&written).unwrap();
        assert_eq!(
            again,
            [Fixture {
                line: 1,
                ..seeds.clone()
            }]
        );
    }

    #[test]
    fn a_file_of_bare_positions_reads_as_records_without_figures() {
        let records = parse(&format!("{SEEDS}\n\n{SEEDS}\n")).unwrap();
        assert_eq!(records.iter().map(|r| r.line).collect::<Vec<_>>(), [1, 3]);
        assert!(records
            .iter()
            .all(|r| r.paths.is_none() && r.perft.is_empty()));
        assert_eq!(parse("").unwrap(), []);
    }

    #[test]
    fn a_position_line_starting_with_a_man_is_not_a_comment() {
        let records = parse("#2/3/1@1 X\npaths 0\n").unwrap();
        assert!(records[0].position.men().count() == 1);
        assert_eq!(records[0].paths, Some(0));
    }

    #[test]
    fn the_rules_apply_to_every_position() {
        let near_top = "7##6/6@8/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 X";
        let rules = Rules {
            continue_off_board: true,
            ..Rules::default()
        };
        let records = parse_with_rules(near_top, rules).unwrap();
        assert_eq!(records[0].position.count_jump_paths(), 2);
        assert_eq!(parse(near_top).unwrap()[0].position.count_jump_paths(), 1);
    }

    #[test]
    fn bad_lines_are_errors_that_name_the_line() {
        assert!(matches!(
            problem(&format!("{SEEDS}\n3/1@x/3 O\n")),
            (2, FixtureProblem::Position(_))
        ));
        assert!(matches!(
            problem("paths 3\n"),
            (1, FixtureProblem::NoPosition { .. })
        ));
        let (line, unknown) = problem(&format!("{SEEDS}\n\nnodes 3\n"));
        assert_eq!(line, 3);
        assert_eq!(
            unknown.to_string(),
            "\"nodes 3\" is neither a position string nor a figure (paths, outcomes, score, perft)"
        );
        for bad in [
            "paths",
            "paths -1",
            "paths 3 4",
            "outcomes x",
            "score",
            "score 1",
            "score yes no",
            "perft 1",
            "perft one 2",
            "perft 1 2 3",
        ] {
            let (line, p) = problem(&format!("{SEEDS}\n{bad}\n"));
            assert_eq!(line, 2, "{bad}");
            assert!(matches!(p, FixtureProblem::BadValue { .. }), "{bad}: {p:?}");
        }
        for twice in ["paths 3", "outcomes 3", "score no", "perft 1 283"] {
            let e = parse(&format!("{SEEDS}\n{twice}\n{twice}\n")).unwrap_err();
            assert_eq!(e.line, 3);
            assert_eq!(
                e.to_string(),
                format!("line 3: a second \"{twice}\" for the position of line 1")
            );
        }
        let e = parse(&format!("{SEEDS}\nscore maybe\n")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2: bad score figure \"score maybe\": expected yes, no or undecided"
        );
    }

    #[test]
    fn the_project_files_are_where_path_says() {
        assert!(path("README.md").is_file());
        assert!(path("jumps-24.fixture").is_file());
    }
}
