//! Reading the commands' input: position strings, the standard start and
//! files of positions, each failure bad input (exit status 1).

use std::fs;
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
