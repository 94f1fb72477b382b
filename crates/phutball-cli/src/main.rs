//! The `phutball` command: argument parsing and printing around the core.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

mod engine_commands;

use clap::{Args, Parser, Subcommand};
use phutball::{perft, Move, Position, Rules};

#[derive(Parser)]
#[command(
    name = "phutball",
    version,
    about = "Philosopher's Football: positions, jumps, moves and counts"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, Clone, Copy)]
struct RuleArgs {
    /// Let the ball jump on after landing off the board (default: the move ends there).
    #[arg(long)]
    continue_off_board: bool,
}

impl RuleArgs {
    fn rules(self) -> Rules {
        Rules {
            continue_off_board: self.continue_off_board,
            ..Rules::default()
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Print every legal jump move of POSITION, one per line.
    Jumps {
        /// One jump per distinct resulting position.
        #[arg(long)]
        outcomes: bool,
        #[command(flatten)]
        rules: RuleArgs,
        /// A position string, e.g. "15/15/.../7@7/... O".
        position: String,
    },
    /// Play MOVES in order from POSITION and print the resulting position string.
    Play {
        #[command(flatten)]
        rules: RuleArgs,
        /// A position string.
        position: String,
        /// Moves in notation: H10 (a placement) or K6-G9-G11 (a jump).
        #[arg(required = true)]
        moves: Vec<String>,
    },
    /// Print every legal move: the placements, then one jump per distinct outcome.
    Moves {
        #[command(flatten)]
        rules: RuleArgs,
        /// A position string.
        position: String,
    },
    /// Print a board diagram with coordinates, the side to move and the result.
    Show {
        #[command(flatten)]
        rules: RuleArgs,
        /// A position string.
        position: String,
    },
    /// Count move sequences of DEPTH moves (jumps counted per distinct outcome).
    Perft {
        #[command(flatten)]
        rules: RuleArgs,
        /// A position string.
        position: String,
        /// Number of moves.
        depth: u32,
    },
    /// For each position string in FILE print "<paths> <outcomes> <can-score 0|1>";
    /// the time taken goes to stderr.
    Count {
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
        /// A file of position strings, one per line.
        file: PathBuf,
    },
    /// Print the engine's move for POSITION (its analysis goes to stderr).
    Best(engine_commands::BestArgs),
    /// Play an interactive game against the engine or a second person.
    Game(engine_commands::GameArgs),
    /// Play engine-against-engine games and write out the results and records.
    Selfplay(engine_commands::SelfplayArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stopped early (`phutball jumps ... | head`) is not an error.
        Err(message) if message == BROKEN_PIPE => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("phutball: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Stands for a closed standard output in the `String` errors.
const BROKEN_PIPE: &str = "standard output was closed";

/// The error message for a failed write to standard output.
fn output_error(e: io::Error) -> String {
    if e.kind() == io::ErrorKind::BrokenPipe {
        BROKEN_PIPE.to_string()
    } else {
        format!("cannot write the output: {e}")
    }
}

type CliResult = Result<(), String>;

fn parse_position(text: &str, rules: RuleArgs) -> Result<Position, String> {
    Position::parse_with_rules(text, rules.rules()).map_err(|e| e.to_string())
}

fn parse_move(text: &str) -> Result<Move, String> {
    text.parse::<Move>().map_err(|e| e.to_string())
}

fn run(command: Command) -> CliResult {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match command {
        Command::Jumps {
            outcomes,
            rules,
            position,
        } => {
            let pos = parse_position(&position, rules)?;
            let mut failed = None;
            let mut print = |path: &[phutball::Point]| {
                if let Err(e) = writeln!(out, "{}", Move::Jump(path.to_vec())) {
                    failed = Some(e);
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            };
            if outcomes {
                let _ = pos
                    .for_each_jump_outcome(&mut print)
                    .map_err(|e| e.to_string())?;
            } else {
                let _ = pos.for_each_jump_path(&mut print);
            }
            if let Some(e) = failed {
                return Err(output_error(e));
            }
        }
        Command::Play {
            rules,
            position,
            moves,
        } => {
            let mut pos = parse_position(&position, rules)?;
            for (i, text) in moves.iter().enumerate() {
                let m = parse_move(text)?;
                pos = pos
                    .play(&m)
                    .map_err(|e| format!("move {} ({text}) is illegal: {e}", i + 1))?;
            }
            writeln!(out, "{pos}").map_err(output_error)?;
        }
        Command::Moves { rules, position } => {
            let pos = parse_position(&position, rules)?;
            for m in pos.legal_moves().map_err(|e| e.to_string())? {
                writeln!(out, "{m}").map_err(output_error)?;
            }
        }
        Command::Show { rules, position } => {
            let pos = parse_position(&position, rules)?;
            write!(out, "{}", pos.diagram()).map_err(output_error)?;
        }
        Command::Perft {
            rules,
            position,
            depth,
        } => {
            let pos = parse_position(&position, rules)?;
            let started = Instant::now();
            let n = perft(&pos, depth).map_err(|e| e.to_string())?;
            writeln!(out, "{n}").map_err(output_error)?;
            eprintln!(
                "perft {depth}: {n} in {:.3} s",
                started.elapsed().as_secs_f64()
            );
        }
        Command::Count {
            paths,
            outcomes,
            score,
            repeat,
            rules,
            file,
        } => count(&mut out, paths, outcomes, score, repeat, rules, &file)?,
        Command::Best(args) => engine_commands::best(args, &mut out)?,
        Command::Game(args) => engine_commands::game(args, &mut out)?,
        Command::Selfplay(args) => engine_commands::selfplay(args, &mut out)?,
    }
    out.flush().map_err(output_error)
}

fn count(
    out: &mut impl Write,
    paths: bool,
    outcomes: bool,
    score: bool,
    repeat: u32,
    rules: RuleArgs,
    file: &PathBuf,
) -> CliResult {
    let text =
        fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let pos = parse_position(line, rules)
            .map_err(|e| format!("{}:{}: {e}", file.display(), i + 1))?;
        positions.push(pos);
    }
    let all = !(paths || outcomes || score);
    let mut rows = vec![(0u64, 0u64, false); positions.len()];
    let mut total_paths = 0u64;
    let started = Instant::now();
    for _ in 0..repeat {
        for (pos, row) in positions.iter().zip(rows.iter_mut()) {
            if all || paths {
                row.0 = pos.count_jump_paths();
                total_paths = total_paths.saturating_add(row.0);
            }
            if all || outcomes {
                row.1 = pos.count_jump_outcomes().map_err(|e| e.to_string())?;
            }
            if all || score {
                row.2 = pos.can_score();
            }
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    for (p, o, s) in &rows {
        let line = if paths {
            p.to_string()
        } else if outcomes {
            o.to_string()
        } else if score {
            u8::from(*s).to_string()
        } else {
            format!("{p} {o} {}", u8::from(*s))
        };
        writeln!(out, "{line}").map_err(output_error)?;
    }
    let what = if paths {
        "paths"
    } else if outcomes {
        "outcomes"
    } else if score {
        "can-score"
    } else {
        "paths, outcomes and can-score"
    };
    let mut report = format!(
        "{} positions x {repeat}: {what} in {:.3} s ({:.1} ms per pass)",
        positions.len(),
        elapsed,
        elapsed * 1000.0 / repeat as f64
    );
    if all || paths {
        report += &format!(
            ", {:.1} million paths per second",
            total_paths as f64 / elapsed / 1e6
        );
    }
    eprintln!("{report}");
    Ok(())
}
