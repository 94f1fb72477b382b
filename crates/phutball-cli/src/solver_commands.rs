//! `phutball prove` and `phutball check-proof`: the solver's proofs and
//! their certificates, as files.

use std::fs;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use phutball::{Budget, Position, SearchError};
use phutball_solver::{
    prove_with_options_within, Certificate, CertificateReadError, CheckpointEvent,
    CheckpointOptions, ProgressOptions, Proof, ProveOptions, ProveProgress, SolverError, Tablebase,
};

use crate::budget::{parse_jobs, parse_nodes, BudgetFlags, TimeoutFlag, SOLVER_MEMORY_LIMIT};
use crate::error::{CliError, CliResult};
use crate::input::{positions_of, source_name, RuleArgs, STDIN};

/// Arguments of `phutball prove`.
#[derive(Args)]
pub struct ProveArgs {
    // --timeout MS (print "unknown" when it runs out; default 60000, see
    // PROVE_TIMEOUT_MS) and --memory-limit SIZE (for the search's tables
    // and the certificate; default 1G).
    #[command(flatten)]
    budget_flags: BudgetFlags,
    /// Give up (print "unknown") after N nodes of search: a bound that,
    /// unlike --timeout, gives the same answer on any machine and load.
    #[arg(long, value_name = "N", value_parser = parse_nodes)]
    nodes: Option<u64>,
    /// Write the proof's certificate to FILE (gzip-compressed if FILE ends
    /// in .gz); with several positions, to FILE for the first, FILE.2 for
    /// the second, and so on.
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
    /// A tablebase file (`phutball tablebase build --out`): where it covers
    /// the board, the exact value, draws included, at once.
    #[arg(long, value_name = "FILE")]
    tablebase: Option<PathBuf>,
    /// Save the search's state to PATH (every --checkpoint-every seconds,
    /// and when it stops: --timeout, --nodes, Ctrl-C, SIGTERM), and go on
    /// from PATH if it exists: the same command again continues the proof.
    /// One position only.
    #[arg(long, value_name = "PATH")]
    checkpoint: Option<PathBuf>,
    /// Threads (default: every core). 1: the searches for either side's
    /// win take turns on one thread; on 2 or more they run at once, each on
    /// its own thread (from 4, on half the threads each), the first proof
    /// stopping the other.
    #[arg(long, value_name = "J", value_parser = |t: &str| parse_jobs(t, ProveOptions::check_jobs))]
    jobs: Option<usize>,
    /// Seconds between two saves of --checkpoint.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = parse_seconds)]
    checkpoint_every: f64,
    /// No progress line on stderr (by default it is updated in place a few
    /// times a second on a terminal, otherwise printed every 10 s).
    #[arg(long)]
    no_progress: bool,
    /// Seconds between two progress lines when stderr is not a terminal
    /// (hidden: for the tests, which cannot wait 10 s).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, hide = true)]
    progress_every: Option<f64>,
    #[command(flatten)]
    rules: RuleArgs,
    /// A position string, `start`, `start:COLSxROWS`, or `-`: each line of
    /// standard input in turn.
    position: String,
}

/// `prove`'s `--timeout` without one: 60 s, so that it never sits silent
/// for ever (`--timeout none` for a long proof).
pub const PROVE_TIMEOUT_MS: u64 = 60_000;

/// Time between two progress lines when stderr is not a terminal (a log).
const LOG_PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// Time between two updates of the progress line on a terminal.
const TERMINAL_PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// Arguments of `phutball check-proof`.
#[derive(Args)]
pub struct CheckProofArgs {
    #[command(flatten)]
    timeout: TimeoutFlag,
    /// A certificate file (plain text, or gzip-compressed), or `-` for
    /// standard input.
    file: PathBuf,
}

/// A duration in seconds: a positive number, fractions allowed.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 1e9 => Ok(s),
        _ => Err(format!(
            "`{text}` is not a number of seconds (more than 0, e.g. 60 or 0.5)"
        )),
    }
}

/// `phutball prove`: one line per position on stdout, its figures on stderr.
pub fn prove(args: &ProveArgs, out: &mut dyn Write) -> CliResult {
    let positions = positions_of(&args.position, args.rules.rules()?)?;
    if args.checkpoint.is_some() && positions.len() != 1 {
        return Err(CliError::Input(format!(
            "--checkpoint takes one position, not {} (one checkpoint file each)",
            positions.len()
        )));
    }
    if let Some(file) = &args.certificate {
        check_writable(file)?;
    }
    let flags = prove_budget(args);
    let table = match &args.tablebase {
        Some(file) => {
            let hook = flags.deadline().hook();
            Some(crate::tablebase_commands::read_table(
                file,
                &flags.budget(&hook),
                flags.timeout,
            )?)
        }
        None => None,
    };
    // With a checkpoint, Ctrl-C and SIGTERM stop the search, which saves
    // its state before the command ends.
    let interrupted = match args.checkpoint {
        Some(_) => Some(crate::signals::stop_flag()?),
        None => None,
    };
    for (i, pos) in positions.iter().enumerate() {
        let hook = flags.deadline().hook();
        let mut budget = flags
            .budget(&hook)
            .with_work_limit(args.nodes.unwrap_or(u64::MAX));
        if let Some(flag) = interrupted {
            budget = budget.with_cancel_flag(flag);
        }
        let started = Instant::now();
        let proof = prove_one(pos, &budget, table.as_ref(), args);
        progress_line_done(args);
        let proof = proof.map_err(|e| match e {
            SolverError::Search(SearchError::Cancelled) if args.checkpoint.is_some() => {
                CliError::TimedOut(format!(
                    "{pos}: interrupted; the search's state is saved in {}: the same command goes on from it",
                    args.checkpoint.as_deref().unwrap_or(Path::new("")).display()
                ))
            }
            // The allocator refusing (the prover's thread, its tables) is
            // the memory status, as everywhere.
            SolverError::Search(SearchError::OutOfMemory { .. } | SearchError::MemoryLimit { .. }) => {
                CliError::Memory(format!("{pos}: {e}"))
            }
            _ => CliError::Input(format!("{pos}: {e}")),
        })?;
        writeln!(out, "{proof}").map_err(CliError::output)?;
        eprintln!("{}", figures(&proof, started.elapsed()));
        if let (Some(file), Some(certificate)) = (&args.certificate, &proof.certificate) {
            let file = numbered(file, i);
            write_certificate(&file, certificate)?;
            eprintln!("certificate: {}", file.display());
        }
    }
    Ok(())
}

/// `prove`'s budget flags with its defaults: `--timeout` 60000 ms
/// ([`PROVE_TIMEOUT_MS`]) and `--memory-limit` 1G.
fn prove_budget(args: &ProveArgs) -> BudgetFlags {
    args.budget_flags
        .with_default_timeout(PROVE_TIMEOUT_MS)
        .with_default_memory(SOLVER_MEMORY_LIMIT)
}

/// How often the progress line is shown, and whether in place (on a
/// terminal); `None` with `--no-progress`.
fn progress_schedule(args: &ProveArgs) -> Option<(Duration, bool)> {
    if args.no_progress {
        return None;
    }
    let terminal = std::io::stderr().is_terminal();
    let every = match (args.progress_every, terminal) {
        (Some(seconds), _) => Duration::from_secs_f64(seconds),
        (None, true) => TERMINAL_PROGRESS_EVERY,
        (None, false) => LOG_PROGRESS_EVERY,
    };
    Some((every, terminal))
}

/// Clears the progress line on a terminal before the answer's lines.
fn progress_line_done(args: &ProveArgs) {
    if progress_schedule(args).is_some_and(|(_, terminal)| terminal) {
        eprint!("\r\x1b[2K");
    }
}

/// One progress line: `progress: 12.0 s, nodes N, table entries E, O
/// wins pn/dn P/D, X wins pn/dn P/D` (each search's root proof and
/// disproof numbers; `?` before it has any).
fn progress_text(progress: &ProveProgress, to_move: phutball::Side) -> String {
    let numbers =
        |n: Option<(u32, u32)>| n.map_or("?".to_string(), |(pn, dn)| format!("{pn}/{dn}"));
    let [mine, theirs] = progress.root_numbers.map(numbers);
    format!(
        "progress: {:.1} s, nodes {}, table entries {}, {} wins pn/dn {mine}, {} wins pn/dn {theirs}",
        progress.elapsed.as_secs_f64(),
        progress.nodes,
        progress.table_entries,
        to_move.char(),
        to_move.opponent().char(),
    )
}

/// The prove of one position on `--jobs` threads, with `--checkpoint
/// PATH` its resume and saves told on stderr, and its progress.
fn prove_one(
    pos: &Position,
    budget: &Budget<'_>,
    table: Option<&Tablebase>,
    args: &ProveArgs,
) -> Result<Proof, SolverError> {
    let schedule = progress_schedule(args);
    let in_place = schedule.is_some_and(|(_, terminal)| terminal);
    // A checkpoint's line replaces the progress line on a terminal.
    let clear = if in_place { "\r\x1b[2K" } else { "" };
    let mut report = |event: &CheckpointEvent| {
        eprint!("{clear}");
        match event {
        CheckpointEvent::Resumed {
            nodes,
            table_entries,
        } => eprintln!(
            "checkpoint: resumed from {} at {nodes} nodes, {table_entries} table entries",
            args.checkpoint.as_deref().unwrap_or(Path::new("")).display()
        ),
        CheckpointEvent::Saved {
            nodes,
            table_entries,
            bytes,
            seconds,
        } => eprintln!(
            "checkpoint: saved {nodes} nodes, {table_entries} table entries, {bytes} bytes in {seconds:.3} s"
        ),
        _ => {}
    }
    };
    let to_move = pos.to_move();
    let mut show_progress = |progress: &ProveProgress| {
        let line = progress_text(progress, to_move);
        if in_place {
            eprint!("\r\x1b[2K{line}");
        } else {
            eprintln!("{line}");
        }
    };
    let jobs = args.jobs.unwrap_or_else(ProveOptions::default_jobs);
    let options = ProveOptions {
        jobs,
        tablebase: table,
        checkpoint: args.checkpoint.as_deref().map(|path| CheckpointOptions {
            path,
            every: Duration::from_secs_f64(args.checkpoint_every),
            on_event: Some(&mut report),
        }),
        progress: schedule.map(|(every, _)| ProgressOptions {
            every,
            on_progress: &mut show_progress,
        }),
    };
    prove_with_options_within(pos, budget, options)
}

/// Fails before a long search, not after it, when `file` cannot be written.
fn check_writable(file: &Path) -> CliResult {
    phutball_solver::check_writable(file).map_err(|e| cannot_write(file, &e))
}

/// The error of a certificate file that could not be written.
fn cannot_write(file: &Path, e: &std::io::Error) -> CliError {
    CliError::Input(format!("cannot write {}: {e}", file.display()))
}

/// The prove's figures for stderr: nodes, certificate size, time, and why
/// an unknown stopped.
fn figures(proof: &Proof, took: Duration) -> String {
    let mut text = format!(
        "nodes {}, table entries {}, {:.3} s",
        proof.nodes,
        proof.table_entries,
        took.as_secs_f64()
    );
    if let Some(c) = &proof.certificate {
        text += &format!(", certificate {} nodes", c.nodes.len());
    }
    match &proof.stopped {
        Some(SearchError::TimedOut) => text += ", stopped: timed out (--timeout MS)",
        Some(SearchError::WorkLimit { limit }) => {
            text += &format!(", stopped: after {limit} nodes (--nodes N)");
        }
        Some(e) => text += &format!(", stopped: {e}"),
        None if proof.exhausted => {
            text += ", no goal forced by either side in the graph searched (not a proved draw)";
        }
        None => {}
    }
    text
}

/// FILE for the first position, FILE.2, FILE.3, ... for the next ones.
fn numbered(file: &Path, i: usize) -> PathBuf {
    if i == 0 {
        return file.to_path_buf();
    }
    let mut name = file.as_os_str().to_owned();
    name.push(format!(".{}", i + 1));
    PathBuf::from(name)
}

/// Writes `certificate` to `file` (gzip for `.gz`), through a temporary
/// file renamed into place, so an interrupted write leaves no half file.
pub fn write_certificate(file: &Path, certificate: &Certificate) -> CliResult {
    certificate.save(file).map_err(|e| cannot_write(file, &e))
}

/// Reads a certificate file (`-`: standard input), plain text or gzip,
/// under `budget`: its deadline (from `--timeout MS`, `timeout`) and stop
/// end the reading.
pub fn read_certificate(
    file: &Path,
    budget: &Budget<'_>,
    timeout: TimeoutFlag,
) -> CliResult<Certificate> {
    let name = source_name(file);
    let read = if file == Path::new(STDIN) {
        Certificate::read_within(std::io::stdin().lock(), budget)
    } else {
        let opened = fs::File::open(file)
            .map_err(|e| CliError::Input(format!("cannot read {name}: {e}")))?;
        Certificate::read_within(opened, budget)
    };
    read.map_err(|e| match e {
        CertificateReadError::Stopped(SearchError::TimedOut) => {
            CliError::TimedOut(format!("{name}: reading {}", timeout.timed_out()))
        }
        e @ CertificateReadError::Stopped(
            SearchError::MemoryLimit { .. } | SearchError::OutOfMemory { .. },
        ) => CliError::Memory(format!("{name}: {e}")),
        e @ CertificateReadError::Stopped(_) => CliError::TimedOut(format!("{name}: {e}")),
        e => CliError::Input(format!("{name}: {e}")),
    })
}

/// `phutball check-proof`: `valid: ...` on stdout, or the first fault as
/// the error (exit status 1).
pub fn check_proof(args: &CheckProofArgs, out: &mut dyn Write) -> CliResult {
    let hook = args.timeout.deadline().hook();
    let budget = Budget::unlimited().with_interrupt(&hook);
    let certificate = read_certificate(&args.file, &budget, args.timeout)?;
    let checked = certificate.check(&budget).map_err(|e| match e {
        phutball_solver::CertificateError::Search(SearchError::TimedOut) => {
            CliError::TimedOut(format!(
                "{}: the check {}",
                args.file.display(),
                args.timeout.timed_out()
            ))
        }
        e => CliError::Input(format!("{}: invalid certificate: {e}", args.file.display())),
    })?;
    let root: &Position = &checked.root;
    writeln!(
        out,
        "valid: {} wins in at most {} plies from {root} ({} nodes)",
        checked.winner.char(),
        checked.plies,
        checked.nodes
    )
    .map_err(CliError::output)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `prove`'s arguments alone, as the command line gives them.
    #[derive(Parser)]
    struct Prove {
        #[command(flatten)]
        args: ProveArgs,
    }

    fn budget_of(words: &[&str]) -> BudgetFlags {
        let parsed = Prove::try_parse_from(std::iter::once("prove").chain(words.iter().copied()))
            .expect("the arguments parse");
        prove_budget(&parsed.args)
    }

    #[test]
    fn prove_gives_up_after_a_minute_unless_told_otherwise() {
        assert_eq!(PROVE_TIMEOUT_MS, 60_000);
        assert_eq!(budget_of(&["start"]).timeout.ms(), Some(60_000));
        assert_eq!(
            budget_of(&["--timeout", "500", "start"]).timeout.ms(),
            Some(500)
        );
        assert_eq!(
            budget_of(&["--timeout", "none", "start"]).timeout.ms(),
            None
        );
        assert_eq!(budget_of(&["start"]).memory_bytes(), SOLVER_MEMORY_LIMIT);
    }

    #[test]
    fn a_progress_line_names_each_searchs_numbers() {
        // A real report (ProveProgress is the solver's, non-exhaustive):
        // 7x7 reported every 1 ms until its proof, on two jobs (on one,
        // the reports wait for fixed node counts, which 7x7 ends before).
        let pos = Position::start_with("7x7".parse().unwrap(), phutball::Rules::default()).unwrap();
        let mut lines = Vec::new();
        let mut keep = |p: &ProveProgress| lines.push(progress_text(p, phutball::Side::Eks));
        let options = ProveOptions {
            progress: Some(ProgressOptions {
                every: Duration::from_millis(1),
                on_progress: &mut keep,
            }),
            jobs: 2,
            ..ProveOptions::default()
        };
        prove_with_options_within(&pos, &Budget::default(), options).unwrap();
        assert!(!lines.is_empty());
        for line in &lines {
            assert!(line.starts_with("progress: "), "{line}");
            assert!(line.contains(", X wins pn/dn "), "{line}");
            assert!(line.contains(", O wins pn/dn "), "{line}");
        }
    }
}
