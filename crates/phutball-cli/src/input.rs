//! Reading the commands' input: position strings, the start shorthand
//! (`start`, `start:COLSxROWS`), positions from standard input (`-`) and
//! files of positions, each failure bad input (exit status 1).

use std::fs;
use std::io::{self, Read};
use std::path::Path;

use clap::Args;
use phutball::{fixtures, BoardSize, Position, Rules};

use crate::error::{CliError, CliResult};

/// The rule options every command that reads or starts positions takes:
/// the [`Rules`] fields, each value read by the core.
#[derive(Args, Clone, Default)]
pub struct RuleArgs {
    /// Let the ball jump on after landing off the board (default: the move ends there).
    #[arg(long)]
    continue_off_board: bool,
    /// Who moves first from the start position: O or X (or Ohs, Eks). Default O.
    #[arg(long, value_name = "SIDE")]
    first_player: Option<String>,
    /// Where the ball starts (a handicap), e.g. H8; strictly between the
    /// goal lines. Default: the centre point.
    #[arg(long, value_name = "POINT")]
    start_point: Option<String>,
}

impl RuleArgs {
    /// The rules these options give; a bad value is bad input naming its option.
    /// (Whether a start point fits the board is checked when a position is made.)
    pub fn rules(&self) -> CliResult<Rules> {
        let bad = |option: &str, e: phutball::ParseError| CliError::Input(format!("{option}: {e}"));
        let first_player = match &self.first_player {
            Some(text) => text.parse().map_err(|e| bad("--first-player", e))?,
            None => Rules::default().first_player,
        };
        let start = match &self.start_point {
            Some(text) => Some(text.parse().map_err(|e| bad("--start-point", e))?),
            None => None,
        };
        Ok(Rules {
            continue_off_board: self.continue_off_board,
            first_player,
            start,
        })
    }
}

/// What stands for standard input where a position or a file is expected.
pub const STDIN: &str = "-";

/// Reads a position under `rules`: a position string, or `start` (the
/// standard start) or `start:COLSxROWS` (the start on that board), which the
/// core's parser reads.
pub fn parse_position(text: &str, rules: Rules) -> CliResult<Position> {
    Position::parse_with_rules(text, rules).map_err(|e| CliError::Input(e.to_string()))
}

/// Whether `line` is the start shorthand, which a fixture file would read
/// as a figure line (figures start with a lowercase word).
fn is_start_shorthand(line: &str) -> bool {
    line == "start" || line.starts_with("start:")
}

/// The positions a POSITION argument stands for: itself, or with `-` each
/// line of standard input (blank lines and `# ` comments skipped; a bad
/// line is `standard input:LINE: why`).
pub fn positions_of(text: &str, rules: Rules) -> CliResult<Vec<Position>> {
    if text != STDIN {
        return Ok(vec![parse_position(text, rules)?]);
    }
    let input = read_text(Path::new(STDIN))?;
    let mut positions = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line == "#" || line.starts_with("# ") {
            continue;
        }
        positions
            .push(parse_position(line, rules).map_err(|e| at_line(Path::new(STDIN), i + 1, &e))?);
    }
    Ok(positions)
}

/// The text of `file`, or of standard input for `-`.
fn read_text(file: &Path) -> CliResult<String> {
    let mut text = String::new();
    if file == Path::new(STDIN) {
        io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| CliError::Input(format!("cannot read the standard input: {e}")))?;
    } else {
        text = fs::read_to_string(file)
            .map_err(|e| CliError::Input(format!("cannot read {}: {e}", file.display())))?;
    }
    Ok(text)
}

/// The standard start under `rules`.
pub fn standard_start(rules: Rules) -> CliResult<Position> {
    Position::start_with(BoardSize::STANDARD, rules).map_err(|e| CliError::Input(e.to_string()))
}

/// The positions of `file`, each with its line number: a fixture file
/// (`phutball::fixtures`: position lines, each followed by its figures,
/// which are skipped) or, the same to its reader, one position string a
/// line; blank lines and `# ` comments are skipped, a line `start` or
/// `start:COLSxROWS` is that start; `-` is standard input. A bad line is
/// `FILE:LINE: why`.
pub fn read_positions(file: &Path, rules: Rules) -> CliResult<Vec<(usize, Position)>> {
    let mut text = String::new();
    // The start shorthand becomes its position string, line for line, so
    // that the fixture reader's line numbers stay right.
    for (i, line) in read_text(file)?.lines().enumerate() {
        if is_start_shorthand(line.trim()) {
            let start = parse_position(line.trim(), rules).map_err(|e| at_line(file, i + 1, &e))?;
            text += &start.to_string();
        } else {
            text += line;
        }
        text.push('\n');
    }
    let records =
        fixtures::parse_with_rules(&text, rules).map_err(|e| at_line(file, e.line, &e.problem))?;
    Ok(records.into_iter().map(|r| (r.line, r.position)).collect())
}

/// `why`, said of line `number` of `file` (of the standard input for `-`).
pub fn at_line(file: &Path, number: usize, why: &dyn std::fmt::Display) -> CliError {
    CliError::Input(format!("{}:{number}: {why}", source_name(file)))
}

/// How messages name `file`: `standard input` for `-`.
pub fn source_name(file: &Path) -> String {
    if file == Path::new(STDIN) {
        "standard input".to_string()
    } else {
        file.display().to_string()
    }
}
