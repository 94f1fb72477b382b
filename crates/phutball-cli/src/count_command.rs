//! `phutball count`: the figures of every position of a file (jump paths,
//! distinct outcomes, whether the side to move can score), a line each,
//! each line under its own budget, and the time taken on stderr.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use phutball::{Position, SearchError};

use crate::budget::BudgetFlags;
use crate::error::{CliError, CliResult};
use crate::input::{self, RuleArgs};

/// Arguments of `phutball count`.
#[derive(Args)]
pub struct CountArgs {
    /// Print only the number of jump paths.
    #[arg(long, group = "figure")]
    paths: bool,
    /// Print only the number of distinct outcomes.
    #[arg(long, group = "figure")]
    outcomes: bool,
    /// Print only whether the side to move can score (1 or 0).
    #[arg(long, group = "figure")]
    score: bool,
    /// Do the whole file N times (the figures are printed once).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
    #[command(flatten)]
    rules: RuleArgs,
    #[command(flatten)]
    budget_flags: BudgetFlags,
    /// A file of position strings, one per line, or a fixture file (each
    /// position line followed by its figures, which are skipped); `-`
    /// reads it from standard input.
    file: PathBuf,
}

/// Which figures `count` computes and prints.
#[derive(Clone, Copy)]
struct Figures {
    paths: bool,
    outcomes: bool,
    score: bool,
}

impl Figures {
    /// The figures the `--paths`, `--outcomes` and `--score` flags choose:
    /// all three when none is given.
    fn chosen(paths: bool, outcomes: bool, score: bool) -> Figures {
        let all = !(paths || outcomes || score);
        Figures {
            paths: paths || all,
            outcomes: outcomes || all,
            score: score || all,
        }
    }

    fn all(self) -> bool {
        self.paths && self.outcomes && self.score
    }

    /// The line printed for `row`: all three figures, or the one chosen.
    fn line(self, row: &[Figure; 3]) -> String {
        if self.all() {
            format!("{} {} {}", cell(&row[0]), cell(&row[1]), cell(&row[2]))
        } else if self.paths {
            cell(&row[0])
        } else if self.outcomes {
            cell(&row[1])
        } else {
            cell(&row[2])
        }
    }

    /// What the timing line on stderr says was computed.
    fn name(self) -> &'static str {
        if self.all() {
            "paths, outcomes and can-score"
        } else if self.paths {
            "paths"
        } else if self.outcomes {
            "outcomes"
        } else {
            "can-score"
        }
    }
}

/// One figure of one line: its value, or `?` and why.
type Figure = CliResult<u64>;

fn cell(figure: &Figure) -> String {
    figure
        .as_ref()
        .map_or_else(|_| "?".to_string(), u64::to_string)
}

/// The figures left `?`: how many, and whether the memory limit caused one.
#[derive(Default)]
struct Undecided {
    count: usize,
    memory: bool,
}

impl Undecided {
    /// Success when every figure was decided, else the exit status that
    /// says why not: the memory limit's if it caused one, else the timeout's.
    fn into_result(self) -> CliResult {
        if self.count == 0 {
            return Ok(());
        }
        let n = self.count;
        let message = format!(
            "{n} figure{} left undecided (\"?\")",
            if n == 1 { "" } else { "s" }
        );
        Err(if self.memory {
            CliError::Memory(message)
        } else {
            CliError::TimedOut(message)
        })
    }
}

/// `count`: every line of the file under its own `--timeout` (each figure
/// not decided in the line's time, or within the memory limit, is `?`, and
/// its reason a line on stderr), printed as it is done. `--repeat` does the
/// work again for the timing; the figures come from the first pass.
pub fn count(args: &CountArgs, out: &mut dyn Write) -> CliResult {
    let figures = Figures::chosen(args.paths, args.outcomes, args.score);
    let file = &args.file;
    let positions = input::read_positions(file, args.rules.rules()?)?;
    let mut total_paths = 0u64;
    let mut working = Duration::ZERO;
    let mut undecided = Undecided::default();
    for pass in 0..args.repeat {
        for &(number, pos) in &positions {
            let started = Instant::now();
            let row = count_line(&pos, figures, &args.budget_flags);
            working += started.elapsed();
            if let Ok(n) = row[0] {
                total_paths = total_paths.saturating_add(n);
            }
            if pass > 0 {
                continue;
            }
            for failure in row.iter().filter_map(|figure| figure.as_ref().err()) {
                eprintln!("phutball: {}:{number}: {failure}", input::source_name(file));
                undecided.memory |= matches!(failure, CliError::Memory(_));
                undecided.count += 1;
            }
            writeln!(out, "{}", figures.line(&row))
                .and_then(|()| out.flush())
                .map_err(CliError::output)?;
        }
    }
    eprintln!(
        "{}",
        timing(figures, positions.len(), args.repeat, working, total_paths)
    );
    undecided.into_result()
}

/// The timing line on stderr: `positions` lines done `repeat` times in
/// `working`, with the paths per second when paths were counted.
fn timing(
    figures: Figures,
    positions: usize,
    repeat: u32,
    working: Duration,
    total_paths: u64,
) -> String {
    let elapsed = working.as_secs_f64();
    let mut report = format!(
        "{positions} positions x {repeat}: {} in {elapsed:.3} s ({:.1} ms per pass)",
        figures.name(),
        elapsed * 1000.0 / f64::from(repeat)
    );
    if figures.paths {
        report += &format!(
            ", {:.1} million paths per second",
            total_paths as f64 / elapsed / 1e6
        );
    }
    report
}

/// The figures of one line, under one deadline for the whole line (the
/// figures not asked for are `Ok(0)`).
fn count_line(pos: &Position, figures: Figures, budget_flags: &BudgetFlags) -> [Figure; 3] {
    let check = budget_flags.deadline().hook();
    let budget = budget_flags.budget(&check);
    let skip = |wanted: bool, name: &str, f: &dyn Fn() -> Result<u64, SearchError>| -> Figure {
        if wanted {
            f().map_err(|e| budget_flags.failure(name, &e))
        } else {
            Ok(0)
        }
    };
    [
        skip(figures.paths, "paths", &|| {
            pos.count_jump_paths_within(&budget)
        }),
        skip(figures.outcomes, "outcomes", &|| {
            pos.count_jump_outcomes_within(&budget)
        }),
        skip(figures.score, "can-score", &|| {
            pos.can_score_within(&budget).map(u64::from)
        }),
    ]
}
