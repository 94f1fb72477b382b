//! Reading the commands' input: position strings, the standard start and
//! files of positions, each failure bad input (exit status 1).

use std::fs;
use std::path::Path;

use phutball::{fixtures, BoardSize, Position, Rules};

use crate::error::{CliError, CliResult};

/// Reads a position string under `rules`.
pub fn parse_position(text: &str, rules: Rules) -> CliResult<Position> {
    Position::parse_with_rules(text, rules).map_err(|e| CliError::Input(e.to_string()))
}

/// The standard start under `rules`.
pub fn standard_start(rules: Rules) -> CliResult<Position> {
    Position::start_with(BoardSize::STANDARD, rules).map_err(|e| CliError::Input(e.to_string()))
}

/// The positions of `file`, each with its line number: a fixture file
/// (`phutball::fixtures`: position lines, each followed by its figures,
/// which are skipped) or, the same to its reader, one position string a
/// line; blank lines and `# ` comments are skipped. A bad line is
/// `FILE:LINE: why`.
pub fn read_positions(file: &Path, rules: Rules) -> CliResult<Vec<(usize, Position)>> {
    let text = fs::read_to_string(file)
        .map_err(|e| CliError::Input(format!("cannot read {}: {e}", file.display())))?;
    let records =
        fixtures::parse_with_rules(&text, rules).map_err(|e| at_line(file, e.line, &e.problem))?;
    Ok(records.into_iter().map(|r| (r.line, r.position)).collect())
}

/// `why`, said of line `number` of `file`.
pub fn at_line(file: &Path, number: usize, why: &dyn std::fmt::Display) -> CliError {
    CliError::Input(format!("{}:{number}: {why}", file.display()))
}
