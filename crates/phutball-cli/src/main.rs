//! The `phutball` command: its arguments, and the dispatch to each
//! command's file.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

mod budget;
mod core_commands;
mod count_command;
mod engine_commands;
mod error;
mod input;
mod signals;
mod solver_commands;
mod tablebase_commands;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use error::{CliError, CliResult};

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
    Jumps(core_commands::JumpsArgs),
    /// Play MOVES in order from POSITION and print the resulting position string.
    Play(core_commands::PlayArgs),
    /// Print every legal move as they are found: the placements, then one
    /// jump per distinct outcome.
    Moves(core_commands::PositionArgs),
    /// Print a board diagram with coordinates, the side to move and the
    /// result, then whether the side to move can score now (with a scoring
    /// jump); that analysis stops after --timeout MS, by default 1000.
    Show(core_commands::PositionArgs),
    /// Print an SVG picture of POSITION: moves as arrows (the men they
    /// remove crossed out), highlighted points, the board turned for Eks.
    Svg(core_commands::SvgArgs),
    /// Count move sequences of DEPTH moves (jumps counted per distinct outcome).
    Perft(core_commands::PerftArgs),
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
    Count(count_command::CountArgs),
    /// Print the engine's move for POSITION (its analysis goes to stderr).
    Best(engine_commands::BestArgs),
    /// Print a proved result of POSITION for its side to move: `win in N:`
    /// or `loss in N:` and the line, N exact (the shortest win in plies),
    /// `win within N:` or `loss within N:` when the prover found it (N its
    /// proof's longest line, a bound), or `unknown` (nothing proved by
    /// --timeout, 10000 ms by default; `none`: no limit).
    Solve(engine_commands::SolveArgs),
    /// Prove who wins POSITION with best play (a proof-number search for a
    /// win of either side): `win within N: LINE` or `loss within N: LINE`
    /// (N the proof's longest line in plies: a bound, not the shortest
    /// win), `win in N` / `loss in N` only where N is exact (a tablebase's),
    /// `draw` or `unknown`; nodes and time on stderr, progress every 10 s
    /// (on a terminal, one line updated in place). Gives up after
    /// --timeout, 60000 ms by default (`--timeout none`: no limit).
    /// --certificate FILE writes the proof for `check-proof`.
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

/// The command line's grammar: [`Cli`]'s, with every option's value
/// allowed to look like a negative number, so that `--timeout -5` reaches
/// the option's parser (and its message) rather than clap's tip to write
/// `-- -5`, which does not work for an option.
fn cli_command() -> clap::Command {
    fn negative_values(command: clap::Command) -> clap::Command {
        command
            .mut_args(|arg| {
                if arg.get_long().is_some() && arg.get_action().takes_values() {
                    arg.allow_negative_numbers(true)
                } else {
                    arg
                }
            })
            .mut_subcommands(negative_values)
    }
    negative_values(Cli::command())
}

fn main() -> ExitCode {
    let parsed = cli_command()
        .try_get_matches()
        .and_then(|mut matches| Cli::from_arg_matches_mut(&mut matches));
    let cli = match parsed {
        Ok(cli) => cli,
        // A value its option refuses (`--nodes 0`, `--timeout abc`): one
        // `phutball:` line and status 2, the argument parser's.
        Err(e) if e.kind() == clap::error::ErrorKind::ValueValidation => {
            return CliError::Usage(clap_error_line(&e)).report();
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

/// Runs `command` in its file, with stdout buffered and flushed at the end.
fn run(command: Command) -> CliResult {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match command {
        Command::Jumps(args) => core_commands::jumps(&args, &mut out)?,
        Command::Play(args) => core_commands::play(&args, &mut out)?,
        Command::Moves(args) => core_commands::moves(&args, &mut out)?,
        Command::Show(args) => core_commands::show(&args, &mut out)?,
        Command::Svg(args) => core_commands::svg(&args, &mut out)?,
        Command::Perft(args) => core_commands::perft(&args, &mut out)?,
        Command::Count(args) => count_command::count(&args, &mut out)?,
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
            clap_complete::generate(shell, &mut cli_command(), "phutball", &mut script);
            out.write_all(&script).map_err(CliError::output)?;
        }
    }
    out.flush().map_err(CliError::output)?;
    Ok(())
}
