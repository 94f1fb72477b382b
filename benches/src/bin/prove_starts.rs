//! The prover against the engine's deepening solve on start positions of
//! small boards: for each board, `phutball_solver::prove_within` (time,
//! nodes searched, nodes per second, certificate nodes) and, with the same
//! timeout, the deepening loop of commit 060cfd8's `solve` (the engine one
//! ply deeper at a time until it proves a win; `phutball_engine::solve`
//! now calls the prover after it, and `phutball_engine::deepen_within` is
//! that loop on its own) and today's `phutball_engine::solve`. The loop
//! runs this build's engine: from e44ada9 on, the engine's root tries the
//! prover too, so for 060cfd8's own figures pass `--old-cli BINARY`, a CLI
//! built at 060cfd8 (`git worktree add /tmp/old 060cfd8`, then `cargo build
//! --release -p phutball-cli` there), whose `BINARY solve --timeout MS
//! start:CxR` is timed too, a process per run. Run by hand:
//!
//! ```text
//! cargo run --release -p phutball-benches --bin prove_starts -- \
//!     [--timeout MS] [--repeat N] [--old-cli BINARY] [BOARD ...]
//! ```
//!
//! BOARD is `CxR` (default: 5x5 7x7 7x9 9x9); `--timeout` defaults to
//! 10000 ms per solve, `--repeat` to 3. Prints a Markdown table, one row
//! per board and method, with each run's time; the prover's node count
//! and certificate are those of its first run (a run is deterministic but
//! for where a timeout stops it), its nodes per second those of its
//! fastest run (the time includes reading back and checking the
//! certificate).

use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use phutball::{BoardSize, Budget, Position, Rules};
use phutball_engine::{deepen_within, solve, Deadline, Solution};
use phutball_solver::prove_within;

const USAGE: &str =
    "usage: prove_starts [--timeout MS] [--repeat N] [--old-cli BINARY] [BOARD ...]";

/// The prover's memory limit: the CLI's default.
const MEMORY_LIMIT: usize = 1 << 30;

struct Options {
    timeout: Duration,
    repeat: usize,
    old_cli: Option<String>,
    boards: Vec<String>,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        timeout: Duration::from_secs(10),
        repeat: 3,
        old_cli: None,
        boards: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| format!("{arg} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--timeout" => {
                let ms: u64 = value()?
                    .parse()
                    .map_err(|_| format!("--timeout takes milliseconds\n{USAGE}"))?;
                options.timeout = Duration::from_millis(ms);
            }
            "--repeat" => {
                options.repeat = value()?
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--repeat takes a count of at least 1\n{USAGE}"))?;
            }
            "--old-cli" => options.old_cli = Some(value()?),
            "-h" | "--help" => return Err(USAGE.to_string()),
            board if !board.starts_with('-') => options.boards.push(board.to_string()),
            other => return Err(format!("unknown option {other}\n{USAGE}")),
        }
    }
    if options.boards.is_empty() {
        options.boards = ["5x5", "7x7", "7x9", "9x9"].map(String::from).to_vec();
    }
    Ok(options)
}

/// A result as a short text: `win in N`, `loss in N`, `draw`, `unknown`.
fn solution_text(solution: &Solution) -> String {
    match solution {
        Solution::Win { plies, .. } => format!("win in {plies}"),
        Solution::Loss { plies, .. } => format!("loss in {plies}"),
        Solution::Draw => "draw".to_string(),
        Solution::Unknown => "unknown".to_string(),
    }
}

fn seconds(times: &[Duration]) -> String {
    let texts: Vec<String> = times
        .iter()
        .map(|t| format!("{:.3}", t.as_secs_f64()))
        .collect();
    format!("{} s", texts.join(", "))
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Times every method on the start position of `board` and prints its rows.
fn bench_board(board: &str, options: &Options) -> Result<(), String> {
    let size: BoardSize = board
        .parse()
        .map_err(|e| format!("{board}: {e} (a board is CxR, e.g. 9x9)"))?;
    let pos = Position::start_with(size, Rules::default()).map_err(|e| e.to_string())?;
    bench_prover(board, &pos, options)?;
    bench_deepening(board, &pos, options)?;
    bench_solve(board, &pos, options)?;
    if let Some(cli) = &options.old_cli {
        bench_old_cli(board, cli, options)?;
    }
    Ok(())
}

/// The prover's row: `prove_within` with the timeout as its deadline.
fn bench_prover(board: &str, pos: &Position, options: &Options) -> Result<(), String> {
    let mut times = Vec::new();
    let mut first = None;
    for _ in 0..options.repeat {
        let hook = Deadline::after(options.timeout).hook();
        let budget = Budget::default()
            .with_memory_limit(MEMORY_LIMIT)
            .with_interrupt(&hook);
        let started = Instant::now();
        let proof = prove_within(pos, &budget).map_err(|e| format!("{board}: {e}"))?;
        times.push(started.elapsed());
        first.get_or_insert(proof);
    }
    let proof = first.expect("at least one run");
    let value = proof
        .value
        .map_or_else(|| "unknown".to_string(), |v| v.to_string());
    let best = times.iter().min().expect("at least one run").as_secs_f64();
    let certificate = proof
        .certificate
        .as_ref()
        .map_or_else(|| "-".to_string(), |c| thousands(c.nodes.len() as u64));
    println!(
        "| {board} | prover (`prove_within`) | {value} | {} | {} nodes, {} nodes/s (fastest run), certificate {certificate} nodes |",
        seconds(&times),
        thousands(proof.nodes),
        thousands((proof.nodes as f64 / best.max(1e-9)).round() as u64),
    );
    Ok(())
}

/// The row of 060cfd8's deepening loop (`deepen_within`, on its own).
fn bench_deepening(board: &str, pos: &Position, options: &Options) -> Result<(), String> {
    let mut times = Vec::new();
    let mut result = String::new();
    for _ in 0..options.repeat {
        let started = Instant::now();
        let found = deepen_within(pos, options.timeout, &Budget::default())
            .map_err(|e| format!("{board}: {e}"))?;
        times.push(started.elapsed());
        let solution = found.solution.unwrap_or(Solution::Unknown);
        result = format!(
            "{} (depth {} started)",
            solution_text(&solution),
            found.depth
        );
    }
    println!(
        "| {board} | 060cfd8's deepening loop, this build's engine | {result} | {} | |",
        seconds(&times)
    );
    Ok(())
}

/// The row of today's `phutball_engine::solve`.
fn bench_solve(board: &str, pos: &Position, options: &Options) -> Result<(), String> {
    let mut times = Vec::new();
    let mut result = String::new();
    for _ in 0..options.repeat {
        let started = Instant::now();
        let solution =
            solve(pos, options.timeout, &Budget::default()).map_err(|e| format!("{board}: {e}"))?;
        times.push(started.elapsed());
        result = solution_text(&solution);
    }
    println!(
        "| {board} | `phutball_engine::solve` (this build) | {result} | {} | |",
        seconds(&times)
    );
    Ok(())
}

/// The row of an old CLI's `solve`, a process per run.
fn bench_old_cli(board: &str, cli: &str, options: &Options) -> Result<(), String> {
    let mut times = Vec::new();
    let mut result = String::new();
    for _ in 0..options.repeat {
        let started = Instant::now();
        let out = Command::new(cli)
            .args(["solve", "--timeout"])
            .arg(options.timeout.as_millis().to_string())
            .arg(format!("start:{board}"))
            .output()
            .map_err(|e| format!("{cli}: {e}"))?;
        times.push(started.elapsed());
        let stdout = String::from_utf8_lossy(&out.stdout);
        result = stdout
            .split(':')
            .next()
            .unwrap_or_default()
            .trim()
            .to_string();
    }
    println!(
        "| {board} | `{cli} solve --timeout {}` | {result} | {} | a process each |",
        options.timeout.as_millis(),
        seconds(&times)
    );
    Ok(())
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    println!(
        "timeout {} ms per solve, {} runs each",
        options.timeout.as_millis(),
        options.repeat
    );
    println!();
    println!("| board | method | result | time (each run) | figures |");
    println!("|---|---|---|---|---|");
    for board in &options.boards {
        if let Err(e) = bench_board(board, &options) {
            eprintln!("prove_starts: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
