//! `phutball tablebase build|stats|probe`: retrograde tablebases of tiny
//! boards, built in memory or read from a file written by `build --out`.
//!
//! The CLI has no Ctrl-C handler (as `best` and `solve`): an interrupted
//! build just ends the process, and since `--out` writes a temporary file
//! and renames it into place once the build is done, no half-written table
//! is ever left under FILE.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use phutball::{BoardSize, Budget, Move, Position, SearchError};
use phutball_solver::{
    BuildProgress, BuildStep, SolverError, Tablebase, TablebaseFileError, TablebaseReadError,
    TablebaseStats, Value,
};

use crate::budget::{parse_jobs, size_text, BudgetFlags, TimeoutFlag, SOLVER_MEMORY_LIMIT};
use crate::error::{CliError, CliResult};
use crate::input::{positions_of, RuleArgs};

/// Arguments of `phutball tablebase`.
#[derive(Args)]
pub struct TablebaseArgs {
    #[command(subcommand)]
    command: TablebaseCommand,
}

#[derive(Subcommand)]
enum TablebaseCommand {
    /// Compute the value of every position of a board (win in N, loss in
    /// N, draw) and print its counts; --out FILE saves the table. Progress
    /// goes to stderr.
    Build(BuildArgs),
    /// Print the counts of wins, losses and draws of a board, and the
    /// longest win and loss: from FILE (--file), else built.
    Stats(StatsArgs),
    /// Print the value of POSITION for its side to move, `win in N: LINE`,
    /// `loss in N: LINE` or `draw`, from FILE (--file), else from a table
    /// built for its board.
    Probe(ProbeArgs),
}

/// What bounds a build: time, memory (default 1G), jobs.
#[derive(Args)]
struct BuildLimits {
    #[command(flatten)]
    budget_flags: BudgetFlags,
    /// Jobs (build threads), 1 to 256 (default: every core).
    #[arg(long, value_name = "J", value_parser = |t: &str| parse_jobs(t, Tablebase::check_jobs))]
    jobs: Option<usize>,
}

impl BuildLimits {
    /// `--timeout` and `--memory-limit`, the memory limit 1G by default.
    fn budget_flags(&self) -> BudgetFlags {
        self.budget_flags.with_default_memory(SOLVER_MEMORY_LIMIT)
    }
}

/// Arguments of `phutball tablebase build`.
#[derive(Args)]
struct BuildArgs {
    /// The board, `COLSxROWS` as in `start:COLSxROWS` (e.g. 3x5).
    #[arg(value_parser = parse_size)]
    size: BoardSize,
    /// Write the table to FILE (through a temporary file renamed into place).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// The values under the continue-off-board rule (default: the move
    /// ends when the ball lands off the board).
    #[arg(long)]
    continue_off_board: bool,
    #[command(flatten)]
    limits: BuildLimits,
}

/// Arguments of `phutball tablebase stats`.
#[derive(Args)]
struct StatsArgs {
    /// The board, `COLSxROWS`.
    #[arg(value_parser = parse_size)]
    size: BoardSize,
    /// Read the table from FILE (written by `build --out`) instead of
    /// building it; it must be of SIZE and the rule asked for.
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// The continue-off-board rule's table.
    #[arg(long)]
    continue_off_board: bool,
    #[command(flatten)]
    limits: BuildLimits,
}

/// Arguments of `phutball tablebase probe`.
#[derive(Args)]
struct ProbeArgs {
    /// Read the table from FILE (written by `build --out`) instead of
    /// building one for each board met.
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Print at most N moves of a draw's line (wins and losses print all).
    #[arg(long, value_name = "N", default_value_t = 0)]
    draw_line: usize,
    #[command(flatten)]
    limits: BuildLimits,
    #[command(flatten)]
    rules: RuleArgs,
    /// A position string, `start`, `start:COLSxROWS`, or `-`: each line of
    /// standard input in turn.
    position: String,
}

/// A board size argument: `COLSxROWS`.
fn parse_size(text: &str) -> Result<BoardSize, String> {
    text.parse::<BoardSize>()
        .map_err(|e| format!("{e} (a board is COLSxROWS, e.g. 3x5)"))
}

/// `phutball tablebase ...`.
pub fn tablebase(args: &TablebaseArgs, out: &mut dyn Write) -> CliResult {
    match &args.command {
        TablebaseCommand::Build(args) => {
            let table = build(args.size, args.continue_off_board, &args.limits)?;
            if let Some(file) = &args.out {
                write_table(file, &table)?;
                eprintln!("tablebase: wrote {}", file.display());
            }
            print_stats(out, &table)
        }
        TablebaseCommand::Stats(args) => {
            let table = match &args.file {
                Some(file) => {
                    let flags = args.limits.budget_flags();
                    let hook = flags.deadline().hook();
                    let table = read_table(file, &flags.budget(&hook), flags.timeout)?;
                    if table.size() != args.size
                        || table.continue_off_board() != args.continue_off_board
                    {
                        return Err(CliError::Input(format!(
                            "{} holds the {} tablebase, not the {} one",
                            file.display(),
                            describe(table.size(), table.continue_off_board()),
                            describe(args.size, args.continue_off_board)
                        )));
                    }
                    table
                }
                None => build(args.size, args.continue_off_board, &args.limits)?,
            };
            print_stats(out, &table)
        }
        TablebaseCommand::Probe(args) => probe(args, out),
    }
}

/// A board and rule in words: `3x4` or `3x4 continue-off-board`.
fn describe(size: BoardSize, continue_off_board: bool) -> String {
    if continue_off_board {
        format!("{size} continue-off-board")
    } else {
        size.to_string()
    }
}

/// Builds the table of `size` under `limits`, with progress on stderr.
fn build(size: BoardSize, continue_off_board: bool, limits: &BuildLimits) -> CliResult<Tablebase> {
    let what = format!("tablebase {}", describe(size, continue_off_board));
    let needed = Tablebase::memory_needed(size);
    if let (Some(bytes), Some(states)) = (needed, Tablebase::states_of(size)) {
        eprintln!(
            "{what}: building, {states} states, {} of memory",
            size_text(bytes)
        );
    }
    let flags = limits.budget_flags();
    let hook = flags.deadline().hook();
    let budget = flags.budget(&hook);
    let jobs = limits.jobs.unwrap_or_else(Tablebase::default_jobs);
    let started = Instant::now();
    let mut display = Progress::new(&what);
    let built =
        Tablebase::build_with_jobs_within(size, continue_off_board, jobs, &budget, &mut |p| {
            display.show(p);
        });
    display.finish();
    let table = built.map_err(|e| failure(&what, &e, &flags, needed))?;
    let took = started.elapsed().as_secs_f64();
    let threads = display.threads;
    let capped = if threads < jobs {
        format!(" of {jobs} asked: the cores or the memory hold no more")
    } else {
        String::new()
    };
    eprintln!(
        "{what}: built in {took:.2} s ({:.0} states/s, {threads} thread{}{capped})",
        table.states() as f64 / took.max(1e-9),
        if threads == 1 { "" } else { "s" }
    );
    Ok(table)
}

/// Why a build gave up, in words, with its exit status: 3 for time (and
/// work, cancel), 4 for memory (the limit's or the system's, told apart),
/// 1 for a board too large.
fn failure(what: &str, e: &SolverError, flags: &BudgetFlags, needed: Option<usize>) -> CliError {
    match e {
        SolverError::Search(SearchError::TimedOut) => {
            CliError::TimedOut(format!("{what}: {}", flags.timeout.timed_out()))
        }
        SolverError::Search(SearchError::OutOfMemory { .. }) => CliError::Memory(format!(
            "{what}: {e}: the system refused memory below --memory-limit (an address-space \
             limit, ulimit -v, or a machine short of memory)"
        )),
        SolverError::Search(SearchError::MemoryLimit { .. } | SearchError::TooManyOutcomes(_)) => {
            let needs = needed.map_or_else(String::new, |b| {
                format!(", the table alone needs {}", size_text(b))
            });
            CliError::Memory(format!(
                "{what}: {e} (--memory-limit is {}{needs}; --memory-limit SIZE raises it)",
                size_text(flags.memory_bytes())
            ))
        }
        SolverError::Search(_) => CliError::TimedOut(format!("{what}: {e}")),
        _ => CliError::Input(format!("{what}: {e}")),
    }
}

/// The counts of `table` on `out`, one `name value` a line.
fn print_stats(out: &mut dyn Write, table: &Tablebase) -> CliResult {
    let TablebaseStats {
        positions,
        wins,
        losses,
        draws,
        longest_win,
        longest_loss,
    } = table.stats();
    let rule = if table.continue_off_board() {
        "continue-off-board"
    } else {
        "stop-off-board"
    };
    writeln!(
        out,
        "board {}\nrule {rule}\nstates {}\npositions {positions}\nwins {wins}\nlosses {losses}\n\
         draws {draws}\nlongest win {longest_win}\nlongest loss {longest_loss}\nstart {}",
        table.size(),
        table.states(),
        table.start_value()
    )
    .map_err(CliError::output)
}

/// `phutball tablebase probe`: one line per position.
fn probe(args: &ProbeArgs, out: &mut dyn Write) -> CliResult {
    let rules = args.rules.rules()?;
    let positions = positions_of(&args.position, rules)?;
    let flags = args.limits.budget_flags();
    let hook = flags.deadline().hook();
    let file_table = match &args.file {
        Some(file) => Some(read_table(file, &flags.budget(&hook), flags.timeout)?),
        None => None,
    };
    let mut built: HashMap<BoardSize, Tablebase> = HashMap::new();
    for pos in &positions {
        let table = if let (Some(table), Some(file)) = (&file_table, &args.file) {
            if !table.covers(pos) {
                return Err(CliError::Input(format!(
                    "{} holds the {} tablebase; {pos} is a {} position",
                    file.display(),
                    describe(table.size(), table.continue_off_board()),
                    describe(pos.size(), rules.continue_off_board)
                )));
            }
            table
        } else {
            if let Entry::Vacant(slot) = built.entry(pos.size()) {
                slot.insert(build(pos.size(), rules.continue_off_board, &args.limits)?);
            }
            &built[&pos.size()]
        };
        let value = table
            .probe(pos)
            .ok_or_else(|| CliError::Input(format!("{pos}: not covered by the tablebase")))?;
        writeln!(out, "{}", value_line(table, pos, value, args.draw_line))
            .map_err(CliError::output)?;
    }
    Ok(())
}

/// `win in N: LINE`, `loss in N: LINE` (`win in 0` once the game is over)
/// or `draw`, with up to `draw_line` moves of a draw's line.
fn value_line(table: &Tablebase, pos: &Position, value: Value, draw_line: usize) -> String {
    let plies = match value {
        Value::Win { plies } | Value::Loss { plies } => plies as usize,
        Value::Draw => draw_line,
    };
    let line: Vec<String> = table.line(pos, plies).iter().map(Move::to_string).collect();
    if line.is_empty() {
        value.to_string()
    } else {
        format!("{value}: {}", line.join(" "))
    }
}

/// Reads a table file under `budget`: a table larger than its memory
/// limit is refused before its values are read, and its deadline (from
/// `--timeout MS`, `timeout`) and stop end the reading.
pub fn read_table(file: &Path, budget: &Budget<'_>, timeout: TimeoutFlag) -> CliResult<Tablebase> {
    let name = file.display();
    let opened =
        fs::File::open(file).map_err(|e| CliError::Input(format!("cannot read {name}: {e}")))?;
    Tablebase::read_within(opened, budget).map_err(|e| match e {
        TablebaseReadError::Stopped(SearchError::TimedOut) => {
            CliError::TimedOut(format!("{name}: reading {}", timeout.timed_out()))
        }
        TablebaseReadError::Stopped(SearchError::MemoryLimit { .. }) => CliError::Memory(format!(
            "{name}: the table is over the memory limit of {} (--memory-limit raises it)",
            size_text(budget.memory_limit())
        )),
        e @ TablebaseReadError::Stopped(SearchError::Cancelled | SearchError::WorkLimit { .. }) => {
            CliError::TimedOut(format!("{name}: {e}"))
        }
        e @ (TablebaseReadError::Stopped(_)
        | TablebaseReadError::File(TablebaseFileError::OutOfMemory { .. })) => {
            CliError::Memory(format!("{name}: {e}"))
        }
        e => CliError::Input(format!("{name}: {e}")),
    })
}

/// Writes `table` to `file` through a temporary file renamed into place,
/// so that an interrupted write leaves no half table.
fn write_table(file: &Path, table: &Tablebase) -> CliResult {
    table
        .save(file)
        .map_err(|e| CliError::Input(format!("cannot write {}: {e}", file.display())))
}

/// The build's progress on stderr: a bar redrawn every 100 ms on a
/// terminal, else a line every 10 seconds.
struct Progress<'a> {
    what: &'a str,
    terminal: bool,
    started: Instant,
    last: Option<Instant>,
    drawn: bool,
    /// The threads the build runs on, as it last said.
    threads: usize,
}

impl<'a> Progress<'a> {
    fn new(what: &'a str) -> Progress<'a> {
        Progress {
            what,
            terminal: io::stderr().is_terminal(),
            started: Instant::now(),
            last: None,
            drawn: false,
            threads: 1,
        }
    }

    fn show(&mut self, p: &BuildProgress) {
        self.threads = p.threads;
        let every = if self.terminal {
            Duration::from_millis(100)
        } else {
            Duration::from_secs(10)
        };
        let now = Instant::now();
        let due = self
            .last
            .map_or(now.duration_since(self.started) >= every, |last| {
                now.duration_since(last) >= every
            });
        if !due {
            return;
        }
        self.last = Some(now);
        let step = match p.step {
            BuildStep::Scan => "scan",
            BuildStep::Mark => "parents",
            BuildStep::Evaluate => "checks",
            _ => "step",
        };
        let share = p.done as f64 / p.states.max(1) as f64;
        let decided = p.resolved as f64 / p.states.max(1) as f64;
        let text = format!(
            "round {} {step} {:3.0}%, {:.1}% decided ({} this round), {:.0} s",
            p.round,
            share * 100.0,
            decided * 100.0,
            p.resolved_this_round,
            now.duration_since(self.started).as_secs_f64()
        );
        if self.terminal {
            const WIDTH: usize = 24;
            let filled = ((share * WIDTH as f64) as usize).min(WIDTH);
            eprint!(
                "\r{}: [{}{}] {text}   ",
                self.what,
                "#".repeat(filled),
                ".".repeat(WIDTH - filled)
            );
            self.drawn = true;
        } else {
            eprintln!("{}: {text}", self.what);
        }
    }

    /// Ends the bar's line.
    fn finish(&self) {
        if self.drawn {
            eprintln!();
        }
    }
}
