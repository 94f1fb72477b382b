//! The `phutball` command: argument parsing and printing around the core.

use std::io::{self, BufWriter, Write};
use std::num::NonZeroU32;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

mod bounds;
mod engine_commands;
mod error;
mod input;
mod solver_commands;
mod tablebase_commands;

use bounds::BoundArgs;
use clap::{CommandFactory, Parser, Subcommand};
use error::{CliError, CliResult};
use input::RuleArgs;
use phutball::{perft_within, Move, Point, Position, SearchError, SvgOptions};

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

#[derive(Subcommand)]
enum Command {
    /// Print every legal jump move of POSITION, one per line, as they are found.
    Jumps {
        /// One jump per distinct resulting position.
        #[arg(long)]
        outcomes: bool,
        #[command(flatten)]
        rules: RuleArgs,
        #[command(flatten)]
        bounds: BoundArgs,
        /// A position string (e.g. "15/15/.../7@7/... O"), `start`,
        /// `start:COLSxROWS`, or `-`: each line of standard input in turn.
        position: String,
    },
    /// Play MOVES in order from POSITION and print the resulting position string.
    Play {
        #[command(flatten)]
        rules: RuleArgs,
        /// A position string, `start`, `start:COLSxROWS`, or `-`: each line
        /// of standard input in turn.
        position: String,
        /// Moves in notation: H10 (a placement) or K6-G9-G11 (a jump).
        #[arg(required = true)]
        moves: Vec<String>,
    },
    /// Print every legal move as they are found: the placements, then one
    /// jump per distinct outcome.
    Moves {
        #[command(flatten)]
        rules: RuleArgs,
        #[command(flatten)]
        bounds: BoundArgs,
        /// A position string, `start`, `start:COLSxROWS`, or `-`: each line
        /// of standard input in turn.
        position: String,
    },
    /// Print a board diagram with coordinates, the side to move and the
    /// result, then whether the side to move can score now (with a scoring
    /// jump); that analysis stops after --timeout MS, by default 1000.
    Show {
        #[command(flatten)]
        rules: RuleArgs,
        #[command(flatten)]
        bounds: BoundArgs,
        /// A position string, `start`, `start:COLSxROWS`, or `-`: each line
        /// of standard input in turn.
        position: String,
    },
    /// Print an SVG picture of POSITION: moves as arrows (the men they
    /// remove crossed out), highlighted points, the board turned for Eks.
    Svg(SvgArgs),
    /// Count move sequences of DEPTH moves (jumps counted per distinct outcome).
    Perft {
        #[command(flatten)]
        rules: RuleArgs,
        #[command(flatten)]
        bounds: BoundArgs,
        /// A position string, `start`, `start:COLSxROWS`, or `-`: each line
        /// of standard input in turn.
        position: String,
        /// Number of moves.
        depth: u32,
    },
    /// The figures of every position in a file, one line each (`count`).
    ///
    /// The help text is the `about` attribute: its `"<paths> <outcomes> …"`
    /// would read as HTML tags in a doc comment.
    #[command(
        about = "For each position string in FILE print \"<paths> <outcomes> <can-score 0|1>\", \
                 with \"?\" for a figure not decided within the line's --timeout or the \
                 memory limit (the reason goes to stderr), then the next line; the time \
                 taken goes to stderr. Exit status 3 (4 if the memory limit caused one) \
                 when any figure is \"?\"",
        long_about = None
    )]
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
        #[command(flatten)]
        bounds: BoundArgs,
        /// A file of position strings, one per line, or a fixture file (each
        /// position line followed by its figures, which are skipped); `-`
        /// reads it from standard input.
        file: PathBuf,
    },
    /// Print the engine's move for POSITION (its analysis goes to stderr).
    Best(engine_commands::BestArgs),
    /// Print a proved result of POSITION for its side to move: `win in N:`
    /// or `loss in N:` and the line, or `unknown` (no win found and no loss
    /// within two plies by --timeout; deeper losses are not proved).
    Solve(engine_commands::SolveArgs),
    /// Prove who wins POSITION with best play (a proof-number search for a
    /// win of either side): `win in N: LINE`, `loss in N: LINE`, `draw` or
    /// `unknown`; nodes and time on stderr. --certificate FILE writes the
    /// proof for `check-proof`.
    Prove(solver_commands::ProveArgs),
    /// Check a proof certificate with the plain rules (no search): prints
    /// `valid: ...`, or the first fault with exit status 1.
    CheckProof(solver_commands::CheckProofArgs),
    /// Retrograde tablebases of tiny boards: `build SIZE` (every position's
    /// value, saved with --out FILE), `stats SIZE`, `probe POSITION`.
    Tablebase(tablebase_commands::TablebaseArgs),
    /// Analyse every position of FILE on all cores: one line each, in the
    /// file's order: best move, score, depth, nodes, can-score (0|1).
    Analyse(engine_commands::AnalyseArgs),
    /// Play an interactive game against the engine or a second person.
    Game(engine_commands::GameArgs),
    /// Play engine-against-engine games and write out the results and records.
    Selfplay(engine_commands::SelfplayArgs),
    /// Print the shell completion script for SHELL, e.g.
    /// `phutball completions bash > ~/.local/share/bash-completion/completions/phutball`.
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
}

/// `svg`'s arguments.
#[derive(clap::Args)]
struct SvgArgs {
    /// Draw this move, legal in POSITION (repeatable): H10 or K6-G9-G11.
    #[arg(long = "move", value_name = "MOVE")]
    moves: Vec<String>,
    /// Draw every jump move of POSITION (after the --move moves).
    #[arg(long)]
    jumps: bool,
    /// Shade this point (repeatable).
    #[arg(long, value_name = "POINT")]
    highlight: Vec<String>,
    /// Turn the board 180 degrees, as Eks sees it.
    #[arg(long)]
    flip: bool,
    /// The picture's width in pixels (default: 28 pixels between points).
    #[arg(long, value_name = "PX", value_parser = parse_svg_width)]
    size: Option<NonZeroU32>,
    #[command(flatten)]
    rules: RuleArgs,
    #[command(flatten)]
    bounds: BoundArgs,
    /// A position string, `start`, `start:COLSxROWS`, or `-`: each line
    /// of standard input in turn.
    position: String,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // A value its option refuses (`--nodes 0`, `--size 0`): one
        // `phutball:` line and status 1, as every bad input.
        Err(e) if e.kind() == clap::error::ErrorKind::ValueValidation => {
            return CliError::Input(clap_error_line(&e)).report();
        }
        // Usage errors, --help and --version: clap's own output and status.
        Err(e) => e.exit(),
    };
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        // One line on stderr; a reader that stopped early
        // (`phutball ... | head`) is not an error.
        Err(e) => e.report(),
    }
}

/// The first line of a clap error, without its `error: ` prefix.
fn clap_error_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let line = text.lines().next().unwrap_or_default();
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

/// `svg --size PX`: a width the core draws, 1 to [`phutball::SVG_MAX_WIDTH`].
fn parse_svg_width(text: &str) -> Result<NonZeroU32, String> {
    let px: i128 = text
        .trim()
        .parse()
        .map_err(|_| format!("--size must be a width in pixels, not {text}"))?;
    phutball::svg_width(px).map_err(|e| e.to_string())
}

/// `show`'s analysis stops after this many milliseconds unless `--timeout` says otherwise.
const SHOW_TIMEOUT_MS: u64 = 1000;

/// The positions of a POSITION argument: one, or each line of standard input for `-`.
fn positions_of(text: &str, rules: &RuleArgs) -> CliResult<Vec<Position>> {
    input::positions_of(text, rules.rules()?)
}

fn parse_move(text: &str) -> CliResult<Move> {
    text.parse::<Move>()
        .map_err(|e| CliError::Input(e.to_string()))
}

/// Prints the jump paths of `pos` (one per outcome with `outcomes`) as
/// lines of `out`, as the walk finds them, under `bounds`. A failed write
/// stops the walk and comes first (a closed pipe is why the walk stopped),
/// then the search's own error, as `what` failed.
fn print_jumps(
    out: &mut impl Write,
    pos: &Position,
    outcomes: bool,
    bounds: &BoundArgs,
    what: &str,
) -> CliResult {
    let check = bounds.deadline().hook();
    let budget = bounds.budget(&check);
    let mut failed = None;
    let print = |path: &[Point]| match writeln!(out, "{}", Move::Jump(path.to_vec())) {
        Ok(()) => ControlFlow::Continue(()),
        Err(e) => {
            failed = Some(e);
            ControlFlow::Break(())
        }
    };
    let result = if outcomes {
        pos.for_each_jump_outcome_within(&budget, print)
    } else {
        pos.for_each_jump_path_within(&budget, print)
    };
    if let Some(e) = failed {
        return Err(CliError::output(e));
    }
    result.map(drop).map_err(|e| bounds.failure(what, &e))
}
fn run(command: Command) -> CliResult {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match command {
        Command::Jumps {
            outcomes,
            rules,
            bounds,
            position,
        } => {
            let what = if outcomes {
                "jumps --outcomes"
            } else {
                "jumps"
            };
            for pos in positions_of(&position, &rules)? {
                print_jumps(&mut out, &pos, outcomes, &bounds, what)?;
            }
        }
        Command::Play {
            rules,
            position,
            moves,
        } => {
            for pos in positions_of(&position, &rules)? {
                writeln!(out, "{}", play_moves(&pos, &moves)?).map_err(CliError::output)?;
            }
        }
        Command::Moves {
            rules,
            bounds,
            position,
        } => {
            for pos in positions_of(&position, &rules)? {
                // The placements (at most one per point), then the jumps as the
                // walk finds them: nothing is kept per move.
                for m in pos.placements() {
                    writeln!(out, "{m}").map_err(CliError::output)?;
                }
                print_jumps(&mut out, &pos, true, &bounds, "moves")?;
            }
        }
        Command::Show {
            rules,
            bounds,
            position,
        } => {
            for pos in positions_of(&position, &rules)? {
                show(&mut out, &pos, &bounds)?;
            }
        }
        Command::Svg(args) => {
            for pos in positions_of(&args.position, &args.rules)? {
                svg(&mut out, &pos, &args)?;
            }
        }
        Command::Perft {
            rules,
            bounds,
            position,
            depth,
        } => {
            for pos in positions_of(&position, &rules)? {
                perft(&mut out, &pos, depth, &bounds)?;
            }
        }
        Command::Count {
            paths,
            outcomes,
            score,
            repeat,
            rules,
            bounds,
            file,
        } => {
            let figures = Figures::chosen(paths, outcomes, score);
            count(&mut out, figures, repeat, &rules, &bounds, &file)?;
        }
        Command::Best(args) => engine_commands::best(&args, &mut out)?,
        Command::Solve(args) => engine_commands::solve(&args, &mut out)?,
        Command::Prove(args) => solver_commands::prove(&args, &mut out)?,
        Command::CheckProof(args) => solver_commands::check_proof(&args, &mut out)?,
        Command::Tablebase(args) => tablebase_commands::tablebase(&args, &mut out)?,
        Command::Analyse(args) => engine_commands::analyse(&args, &mut out)?,
        Command::Game(args) => engine_commands::game(&args, &mut out)?,
        Command::Selfplay(args) => engine_commands::selfplay(&args, &mut out)?,
        Command::Completions { shell } => {
            // clap_complete panics when a write fails, so the script is
            // made in memory and written here, where a closed pipe or a
            // full disk is an error like any other.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "phutball", &mut script);
            out.write_all(&script).map_err(CliError::output)?;
        }
    }
    out.flush().map_err(CliError::output)?;
    Ok(())
}

/// `play`: `pos` after `moves`, in the notation, each legal in turn.
fn play_moves(pos: &Position, moves: &[String]) -> CliResult<Position> {
    let mut pos = *pos;
    for (i, text) in moves.iter().enumerate() {
        let m = parse_move(text)?;
        pos = pos
            .play(&m)
            .map_err(|e| format!("move {} ({text}) is illegal: {e}", i + 1))?;
    }
    Ok(pos)
}

/// `show`: the diagram of `pos`, then whether the side to move can score
/// now, decided within `bounds` (by default within [`SHOW_TIMEOUT_MS`]).
fn show(out: &mut impl Write, pos: &Position, bounds: &BoundArgs) -> CliResult {
    write!(out, "{}", pos.diagram()).map_err(CliError::output)?;
    if !pos.is_finished() {
        // The board first, while the analysis runs.
        out.flush().map_err(CliError::output)?;
        let bounds = BoundArgs {
            timeout: Some(bounds.timeout.unwrap_or(SHOW_TIMEOUT_MS)),
            ..*bounds
        };
        let check = bounds.deadline().hook();
        let side = format!("{} ({})", pos.to_move().name(), pos.to_move());
        match pos.scoring_jump_within(&bounds.budget(&check)) {
            Ok(Some(m)) => writeln!(out, "{side} can score now: {m}"),
            Ok(None) => writeln!(out, "{side} cannot score now"),
            Err(e) => {
                writeln!(out, "{side} can score now: not decided")
                    .and_then(|()| out.flush())
                    .map_err(CliError::output)?;
                return Err(bounds.failure("show: can-score", &e));
            }
        }
        .map_err(CliError::output)?;
    }
    Ok(())
}

/// `svg`: the picture of `pos` with what `args` ask for.
fn svg(out: &mut impl Write, pos: &Position, args: &SvgArgs) -> CliResult {
    let mut options = SvgOptions {
        moves: args
            .moves
            .iter()
            .map(|m| parse_move(m))
            .collect::<CliResult<_>>()?,
        highlight: args
            .highlight
            .iter()
            .map(|p| {
                p.parse::<Point>()
                    .map_err(|e| CliError::Input(e.to_string()))
            })
            .collect::<CliResult<_>>()?,
        flip: args.flip,
        width: args.size,
        ..SvgOptions::default()
    };
    if args.jumps {
        let bounds = &args.bounds;
        let check = bounds.deadline().hook();
        let paths = pos.jump_paths_within(&bounds.budget(&check));
        options
            .moves
            .extend(paths.map_err(|e| bounds.failure("svg --jumps", &e))?);
    }
    let svg = pos.svg(&options).map_err(|e| format!("svg: {e}"))?;
    write!(out, "{svg}").map_err(CliError::output)
}

/// `perft`: the count on stdout, the time on stderr.
fn perft(out: &mut impl Write, pos: &Position, depth: u32, bounds: &BoundArgs) -> CliResult {
    let check = bounds.deadline().hook();
    let started = Instant::now();
    let n = perft_within(pos, depth, &bounds.budget(&check))
        .map_err(|e| bounds.failure(&format!("perft {depth}"), &e))?;
    writeln!(out, "{n}").map_err(CliError::output)?;
    eprintln!(
        "perft {depth}: {n} in {:.3} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
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
}

impl Figures {
    fn all(self) -> bool {
        self.paths && self.outcomes && self.score
    }
}

/// One figure of one line: its value, or `?` and why.
type Figure = CliResult<u64>;

fn cell(figure: &Figure) -> String {
    figure
        .as_ref()
        .map_or_else(|_| "?".to_string(), u64::to_string)
}

/// `count`: every line of `file` under its own `--timeout` (each figure not
/// decided in the line's time, or within the memory limit, is `?`, and its
/// reason a line on stderr), printed as it is done. `--repeat` does the
/// work again for the timing; the figures come from the first pass.
fn count(
    out: &mut impl Write,
    figures: Figures,
    repeat: u32,
    rules: &RuleArgs,
    bounds: &BoundArgs,
    file: &Path,
) -> CliResult {
    let positions = input::read_positions(file, rules.rules()?)?;
    let mut total_paths = 0u64;
    let mut working = Duration::ZERO;
    // Whether the memory limit caused a `?`, and how many there were.
    let mut undecided = (false, 0usize);
    for pass in 0..repeat {
        for &(number, pos) in &positions {
            let started = Instant::now();
            let row = count_line(&pos, figures, bounds);
            working += started.elapsed();
            if let Ok(n) = row[0] {
                total_paths = total_paths.saturating_add(n);
            }
            if pass > 0 {
                continue;
            }
            for failure in row.iter().filter_map(|figure| figure.as_ref().err()) {
                eprintln!("phutball: {}:{number}: {failure}", input::source_name(file));
                undecided.0 |= matches!(failure, CliError::Memory(_));
                undecided.1 += 1;
            }
            let line = if figures.all() {
                format!("{} {} {}", cell(&row[0]), cell(&row[1]), cell(&row[2]))
            } else if figures.paths {
                cell(&row[0])
            } else if figures.outcomes {
                cell(&row[1])
            } else {
                cell(&row[2])
            };
            writeln!(out, "{line}")
                .and_then(|()| out.flush())
                .map_err(CliError::output)?;
        }
    }
    let elapsed = working.as_secs_f64();
    let what = if figures.all() {
        "paths, outcomes and can-score"
    } else if figures.paths {
        "paths"
    } else if figures.outcomes {
        "outcomes"
    } else {
        "can-score"
    };
    let mut report = format!(
        "{} positions x {repeat}: {what} in {:.3} s ({:.1} ms per pass)",
        positions.len(),
        elapsed,
        elapsed * 1000.0 / f64::from(repeat)
    );
    if figures.paths {
        report += &format!(
            ", {:.1} million paths per second",
            total_paths as f64 / elapsed / 1e6
        );
    }
    eprintln!("{report}");
    match undecided {
        (_, 0) => Ok(()),
        (memory, n) => {
            let message = format!(
                "{n} figure{} left undecided (\"?\")",
                if n == 1 { "" } else { "s" }
            );
            Err(if memory {
                CliError::Memory(message)
            } else {
                CliError::TimedOut(message)
            })
        }
    }
}

/// The figures of one line, under one deadline for the whole line (the
/// figures not asked for are `Ok(0)`).
fn count_line(pos: &Position, figures: Figures, bounds: &BoundArgs) -> [Figure; 3] {
    let check = bounds.deadline().hook();
    let budget = bounds.budget(&check);
    let skip = |wanted: bool, name: &str, f: &dyn Fn() -> Result<u64, SearchError>| -> Figure {
        if wanted {
            f().map_err(|e| bounds.failure(name, &e))
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
