//! The engine's subcommands: `best` (one move for a position), `analyse`
//! (the engine's view of every position of a file, on all cores), `game`
//! (an interactive game against the engine or a second person) and
//! `selfplay` (engine against engine on all cores, with game records
//! written out).

use std::fs::{self, OpenOptions};
use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use phutball::{Budget, Game, GameResult, Move, Position, Rules, Side};
use phutball_engine::{
    default_jobs, Decision, Engine, EvalSpec, Evaluation, LimitSetting, Limits, Network,
    OpeningError, SelfPlay, SelfPlayGame, MAX_FILE_BYTES,
};

use crate::budget::{
    any_jobs, engine_setting, parse_jobs, parse_nodes, parse_search_jobs, TimeoutFlag,
};
use crate::error::{CliError, CliResult};
use crate::input::{
    at_line, parse_position, positions_of, read_positions, standard_start, RuleArgs,
};

/// The engine's limits per move: `--time`, `--depth`, `--nodes`.
#[derive(Args)]
pub struct LimitArgs {
    /// Time per move in milliseconds (when no --depth or --nodes is given
    /// the default is 1000, for selfplay 100). Kept on every position, dense boards included: a legal
    /// move comes within a few milliseconds of it; checks the time did not
    /// let the engine decide are treated as "don't know" (see docs/engine.md).
    #[arg(long, value_name = "MS", value_parser = parse_time_ms)]
    time: Option<u64>,
    /// Deepest search, in plies. Without --time the search is NOT bounded in
    /// time: the checks at the root (can it score, which moves let the
    /// opponent score) are exact and can take minutes on dense boards; add
    /// --time to bound it.
    #[arg(long, value_name = "N", value_parser = parse_depth)]
    depth: Option<u32>,
    /// Most positions to search (with no --time the result is reproducible,
    /// and, as with --depth, not bounded in time).
    #[arg(long, value_name = "N", value_parser = parse_nodes)]
    nodes: Option<u64>,
}

/// `--time MS`: at least 1 (leave it out for no time limit).
fn parse_time_ms(text: &str) -> Result<u64, String> {
    engine_setting(text, LimitSetting::TimeMs, "--time")
}

/// `--depth N`: 1 to 64.
fn parse_depth(text: &str) -> Result<u32, String> {
    // Within the table's range a depth fits a u32 (at most 64).
    engine_setting(text, LimitSetting::Depth, "--depth").map(|d| d as u32)
}

/// `--threads N`: 1 to 64.
fn parse_threads(text: &str) -> Result<u32, String> {
    // Within the table's range a thread count fits a u32 (at most 64).
    engine_setting(text, LimitSetting::Threads, "--threads").map(|t| t as u32)
}

impl LimitArgs {
    /// The limits given, or `default_time` per move when none is.
    fn limits_or(&self, default_time: Duration) -> Limits {
        match (self.time, self.depth, self.nodes) {
            (None, None, None) => Limits::time(default_time),
            (time, depth, nodes) => Limits::new(time.map(Duration::from_millis), depth, nodes),
        }
    }

    /// The limits given, or the engine's default when none is.
    fn limits(&self) -> Limits {
        Limits::new(self.time.map(Duration::from_millis), self.depth, self.nodes)
    }
}

/// `--eval auto|hand|net|net:FILE`: the evaluation of the engine's search.
#[derive(Args)]
pub struct EvalArg {
    /// The engine's evaluation: `auto` (the default: the network built in
    /// on the standard 15x19 board it serves, the hand evaluation on every
    /// other), `hand` (the hand-written terms), `net` (the network built
    /// in, on 15x19 only) or `net:FILE`, the learned network of a weights
    /// file (docs/network.md; its board sizes only).
    #[arg(long = "eval", default_value = "auto", value_name = "auto|hand|net|net:FILE",
          value_parser = |t: &str| t.parse::<EvalSpec>().map_err(|e| e.to_string()))]
    spec: EvalSpec,
}

impl EvalArg {
    /// The evaluation named, its weights file read (at most
    /// [`MAX_FILE_BYTES`] and one more byte) and checked: a file that
    /// cannot be read or is refused is bad input naming it.
    fn evaluation(&self) -> CliResult<Evaluation> {
        match &self.spec {
            EvalSpec::NetFile(file) => {
                let bytes = read_weights(file)?;
                let network = Network::from_bytes(&bytes)
                    .map_err(|e| CliError::Input(format!("{}: {e}", file.display())))?;
                Ok(Evaluation::Net(Arc::new(network)))
            }
            EvalSpec::Auto => Ok(Evaluation::Auto),
            EvalSpec::Hand => Ok(Evaluation::Hand),
            EvalSpec::BuiltIn => Network::built_in()
                .map(Evaluation::Net)
                .map_err(|e| CliError::Input(format!("the built-in network: {e}"))),
        }
    }
}

/// The bytes of the weights file `file`: at most [`MAX_FILE_BYTES`] and one
/// more, so that a file too large (or an endless stream) is refused by
/// [`Network::from_bytes`] without being read whole.
fn read_weights(file: &Path) -> CliResult<Vec<u8>> {
    let cannot = |e: io::Error| CliError::Input(format!("cannot read {}: {e}", file.display()));
    let mut bytes = Vec::new();
    fs::File::open(file)
        .map_err(cannot)?
        .take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    Ok(bytes)
}

/// Arguments of `phutball best`.
#[derive(Args)]
pub struct BestArgs {
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    eval: EvalArg,
    /// Seed for breaking ties between equal moves.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    #[command(flatten)]
    jobs: SearchJobsArg,
    #[command(flatten)]
    rules: RuleArgs,
    /// A position string (e.g. "15/15/.../7@7/... O"), `start`,
    /// `start:COLSxROWS`, or `-`: each line of standard input in turn.
    position: String,
}

/// Arguments of `phutball solve`.
#[derive(Args)]
pub struct SolveArgs {
    // --timeout MS: give up (print "unknown") after MS, by default 10000.
    #[command(flatten)]
    timeout: TimeoutFlag,
    #[command(flatten)]
    rules: RuleArgs,
    /// A position string, `start`, `start:COLSxROWS`, or `-`: each line of
    /// standard input in turn.
    position: String,
}

/// Arguments of `phutball analyse`.
#[derive(Args)]
pub struct AnalyseArgs {
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    eval: EvalArg,
    /// Positions analysed at once, each on a thread (default: every core).
    #[arg(long, value_name = "J", value_parser = |t: &str| parse_jobs(t, any_jobs))]
    jobs: Option<usize>,
    /// Seed for breaking ties between equal moves.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    #[command(flatten)]
    rules: RuleArgs,
    /// A file of position strings, one a line, or a fixture file.
    file: PathBuf,
}

/// Arguments of `phutball game`.
#[derive(Args)]
pub struct GameArgs {
    /// The side the engine plays, or `none` for two people at one terminal.
    #[arg(long, default_value = "X", value_name = "O|X|none", value_parser = parse_engine_side)]
    engine: EngineSide,
    /// Engine time per move in milliseconds.
    #[arg(long, default_value_t = 1000, value_name = "MS", value_parser = parse_time_ms)]
    time: u64,
    #[command(flatten)]
    eval: EvalArg,
    /// Seed for the engine's tie-breaking.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Start from this position (a position string or `start:COLSxROWS`)
    /// instead of the standard start.
    #[arg(long, value_name = "POSITION")]
    start: Option<String>,
    /// Resume the game saved in FILE (by `save FILE`): its start, rules
    /// and moves.
    #[arg(long, value_name = "FILE",
          conflicts_with_all = ["start", "continue_off_board", "first_player", "start_point"])]
    load: Option<PathBuf>,
    #[command(flatten)]
    jobs: SearchJobsArg,
    #[command(flatten)]
    rules: RuleArgs,
}

/// Arguments of `phutball selfplay`.
#[derive(Args)]
pub struct SelfplayArgs {
    /// Number of games.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    eval: EvalArg,
    /// Games played at once, each on a thread (default: every core). With
    /// --nodes or --depth, no --time and one --threads the games do not
    /// depend on it.
    #[arg(long, value_name = "J", value_parser = |t: &str| parse_jobs(t, any_jobs))]
    jobs: Option<usize>,
    /// Write each game record to DIR/game-sSEED-NUMBER.txt (game-s1-0001.txt,
    /// ... for --seed 1; DIR created if missing). Never overwrites: a run that would is refused
    /// before it starts.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Append one JSON line per game to FILE (created if missing): game
    /// number, run and game seeds, opening, moves, each move's search score,
    /// depth and nodes, result, plies, seconds.
    #[arg(long, value_name = "FILE")]
    jsonl: Option<PathBuf>,
    /// A file of start positions, one position string a line, used in turn.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Each game from an opening of its own: the standard start with four
    /// random men within three points of the ball (game i's from its seed;
    /// the standard rules only).
    #[arg(long, conflicts_with = "openings")]
    random_openings: bool,
    /// A game that reaches this many moves is a draw.
    #[arg(long, default_value_t = 300, value_name = "MOVES")]
    limit: u32,
    /// Seed of the run: game i's engines are seeded from S and i alone.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    rules: RuleArgs,
}

/// `--jobs J` of `best` and `game`: the threads searching each move
/// (`--threads`, its name before, still works for now).
#[derive(Args)]
pub struct SearchJobsArg {
    /// Threads searching each move together, sharing one table (with more
    /// than one the search depends on their timing: not reproducible, even
    /// with --nodes or --depth).
    #[arg(
        long = "jobs",
        alias = "threads",
        default_value_t = 1,
        value_name = "J",
        value_parser = parse_search_jobs
    )]
    jobs: u32,
}

/// Selfplay's `--threads`: the threads searching each move of a game
/// (its `--jobs` are the games played at once).
#[derive(Args)]
pub struct ThreadsArg {
    /// Threads searching each move together, sharing one table (with more
    /// than one the search depends on their timing: not reproducible, even
    /// with --nodes or --depth).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = parse_threads)]
    threads: u32,
}

#[derive(Copy, Clone, PartialEq, Eq)]
pub enum EngineSide {
    Plays(Side),
    Nobody,
}

fn parse_engine_side(text: &str) -> Result<EngineSide, String> {
    match text {
        "none" => Ok(EngineSide::Nobody),
        _ => text
            .parse::<Side>()
            .map(EngineSide::Plays)
            .map_err(|_| format!("expected O, X or none, not {text:?}")),
    }
}

/// `phutball best`: the chosen move on stdout, the analysis on stderr.
pub fn best(args: &BestArgs, out: &mut dyn Write) -> CliResult {
    let limits = args.limits.limits().with_threads(args.jobs.jobs);
    let engine = Engine::new(limits, args.seed).with_evaluation(args.eval.evaluation()?);
    for pos in positions_of(&args.position, args.rules.rules()?)? {
        let analysis = engine
            .analyse(&pos)
            .map_err(|e| CliError::Input(e.to_string()))?;
        writeln!(out, "{}", analysis.best_move).map_err(CliError::output)?;
        eprintln!("{analysis}");
    }
    Ok(())
}

/// `solve`'s search stops after this many milliseconds unless `--timeout` says otherwise.
const SOLVE_TIMEOUT_MS: u64 = 10_000;

/// `phutball solve`: one line per position: `win in N: LINE`,
/// `loss in N: LINE` (the moves in notation, the side to move's first) or
/// `unknown`.
pub fn solve(args: &SolveArgs, out: &mut dyn Write) -> CliResult {
    // `--timeout none`: the longest wait a Duration holds.
    let timeout = args
        .timeout
        .or(SOLVE_TIMEOUT_MS)
        .ms()
        .map_or(Duration::MAX, Duration::from_millis);
    for pos in positions_of(&args.position, args.rules.rules()?)? {
        let solution = phutball_engine::solve(&pos, timeout, &Budget::default())
            .map_err(|e| CliError::Input(e.to_string()))?;
        writeln!(out, "{solution}").map_err(CliError::output)?;
    }
    Ok(())
}

/// `phutball game`: reads moves and commands from stdin, shows the board
/// after every move on stdout.
pub fn game(args: &GameArgs, out: &mut dyn Write) -> CliResult {
    let rules = args.rules.rules()?;
    let game = match (&args.load, &args.start) {
        (Some(file), _) => load_game(file)?,
        (None, Some(text)) => Game::new(parse_position(text, rules)?),
        (None, None) => Game::new(standard_start(rules)?),
    };
    let limits = Limits::time(Duration::from_millis(args.time)).with_threads(args.jobs.jobs);
    let engine = Engine::new(limits, args.seed).with_evaluation(args.eval.evaluation()?);
    engine
        .evaluation()
        .check_size(game.position().size())
        .map_err(|e| CliError::Input(format!("--eval: {e}")))?;
    let mut session = Session {
        game,
        engine,
        engine_side: args.engine,
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    session.play(&mut input, out)
}

/// The game record saved in `file`, every move checked.
fn load_game(file: &Path) -> CliResult<Game> {
    let text = fs::read_to_string(file)
        .map_err(|e| CliError::Input(format!("cannot read {}: {e}", file.display())))?;
    text.parse()
        .map_err(|e| CliError::Input(format!("{}: {e}", file.display())))
}

struct Session {
    game: Game,
    engine: Engine,
    engine_side: EngineSide,
}

impl Session {
    fn engine_to_move(&self) -> bool {
        self.game.result() == GameResult::Ongoing
            && self.engine_side == EngineSide::Plays(self.game.position().to_move())
    }

    /// The game loop: a failed write is [`CliError::output`] (by `?`), a
    /// failed read bad I/O.
    fn play(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> CliResult {
        writeln!(
            out,
            "Moves in notation (H9, H10-H8-J7); commands: undo, hint, save FILE, quit, help."
        )?;
        write!(out, "{}", self.game.position().diagram())?;
        loop {
            if self.engine_to_move() {
                self.engine_moves(out)?;
                continue;
            }
            match self.game.result() {
                GameResult::Ongoing => {
                    write!(out, "{} to move> ", self.game.position().to_move())?;
                }
                result => write!(out, "Game over: {result}. undo, save FILE or quit> ")?,
            }
            out.flush()?;
            let mut bytes = Vec::new();
            let read = input
                .read_until(b'\n', &mut bytes)
                .map_err(|e| CliError::Input(format!("cannot read the input: {e}")))?;
            if read == 0 {
                writeln!(out)?;
                return Ok(());
            }
            // One unreadable line must not end the game (and lose it).
            let Ok(line) = String::from_utf8(bytes) else {
                writeln!(
                    out,
                    "That line was not UTF-8 text; it was ignored. Type help for help."
                )?;
                continue;
            };
            let line = line.trim();
            let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            match word {
                "" => {}
                "quit" | "exit" => return Ok(()),
                "help" => writeln!(
                    out,
                    "Type a move in notation: a placement such as H9, or a jump such as \
                     H10-H8-J7 (the ball's point, then each landing point).\n\
                     undo: take back your last move; hint: ask the engine; \
                     save FILE: write the game record; quit: leave."
                )?,
                "undo" => self.undo(out)?,
                "hint" => self.hint(out)?,
                "save" => self.save(rest.trim(), out)?,
                _ => self.human_moves(line, out)?,
            }
        }
    }

    fn human_moves(&mut self, text: &str, out: &mut dyn Write) -> io::Result<()> {
        if self.game.result() != GameResult::Ongoing {
            return writeln!(out, "The game is over: {}.", self.game.result());
        }
        let m = match text.parse::<Move>() {
            Ok(m) => m,
            Err(e) => {
                return writeln!(
                    out,
                    "Not a move or command: {text:?} ({e}). Type help for help."
                )
            }
        };
        if let Err(e) = self.game.position().play(&m) {
            writeln!(out, "Illegal move {m}: {e}.")
        } else {
            self.push(&m, out)?;
            Ok(())
        }
    }

    fn push(&mut self, m: &Move, out: &mut dyn Write) -> io::Result<()> {
        let mover = self.game.position().to_move();
        if let Err(e) = self.game.push(m.clone()) {
            return writeln!(out, "Cannot play {m}: {e}.");
        }
        writeln!(out, "{mover} plays {m}")?;
        write!(out, "{}", self.game.position().diagram())
    }

    fn engine_moves(&mut self, out: &mut dyn Write) -> io::Result<()> {
        // Show the person's move before the engine thinks (up to --time ms).
        out.flush()?;
        match self.engine.analyse_game(&self.game) {
            Ok(analysis) => {
                writeln!(out, "Engine: {analysis}")?;
                self.push(&analysis.best_move, out)
            }
            Err(e) => {
                // Only a position without moves gets here; hand it to the user.
                self.engine_side = EngineSide::Nobody;
                writeln!(
                    out,
                    "The engine cannot move ({e}); you play both sides now."
                )
            }
        }
    }

    fn undo(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.game.moves().is_empty() {
            return writeln!(out, "Nothing to undo.");
        }
        // Against the engine, take back the engine's reply too, so that it is
        // the person's turn again.
        let mut taken = Vec::new();
        while let Some(m) = self.game.pop() {
            taken.push(m.to_string());
            let person_to_move = self.engine_side
                != EngineSide::Plays(self.game.position().to_move())
                || self.game.moves().is_empty();
            if person_to_move {
                break;
            }
        }
        writeln!(out, "Took back {}.", taken.join(", "))?;
        write!(out, "{}", self.game.position().diagram())
    }

    fn hint(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.game.result() != GameResult::Ongoing {
            return writeln!(out, "The game is over: {}.", self.game.result());
        }
        out.flush()?;
        match self.engine.analyse_game(&self.game) {
            Ok(analysis) => writeln!(out, "Hint: {analysis}"),
            Err(e) => writeln!(out, "No hint: {e}."),
        }
    }

    fn save(&self, file: &str, out: &mut dyn Write) -> io::Result<()> {
        if file.is_empty() {
            return writeln!(out, "save needs a file name: save FILE");
        }
        match fs::write(file, self.game.to_string()) {
            Ok(()) => writeln!(out, "Saved {} moves to {file}.", self.game.moves().len()),
            Err(e) => writeln!(out, "Cannot save to {file}: {e}."),
        }
    }
}

/// `phutball analyse`: one line per position of the file, in its order:
/// the best move, the score, the depth, the nodes and whether the side to
/// move can score (`1` when the engine found a scoring move). A position
/// the engine cannot analyse (a finished game) gets `error: why` in its
/// place, and the exit status is 1.
pub fn analyse(args: &AnalyseArgs, out: &mut dyn Write) -> CliResult {
    let engine =
        Engine::new(args.limits.limits(), args.seed).with_evaluation(args.eval.evaluation()?);
    let records = read_positions(&args.file, args.rules.rules()?)?;
    let positions: Vec<Position> = records.iter().map(|(_, pos)| *pos).collect();
    let jobs = args.jobs.unwrap_or_else(default_jobs);
    let started = Instant::now();
    let results = engine.analyse_many(&positions, jobs, &Budget::default());
    let mut failed = 0;
    for ((line, _), result) in records.iter().zip(&results) {
        let text = match result {
            Ok(a) => format!(
                "{} score {} depth {} nodes {} can-score {}",
                a.best_move,
                a.score,
                a.depth,
                a.nodes,
                u8::from(a.decision == Decision::Scores)
            ),
            Err(e) => {
                failed += 1;
                eprintln!("{}:{line}: {e}", args.file.display());
                format!("error: {e}")
            }
        };
        writeln!(out, "{text}").map_err(CliError::output)?;
    }
    out.flush().map_err(CliError::output)?;
    eprintln!(
        "{} positions on {jobs} threads in {:.3} s",
        positions.len(),
        started.elapsed().as_secs_f64()
    );
    if failed > 0 {
        return Err(CliError::Input(format!(
            "{failed} of {} positions could not be analysed",
            positions.len()
        )));
    }
    Ok(())
}

/// `phutball selfplay`: engine against engine on `--jobs` threads; a
/// progress bar on stderr when it is a terminal (one line per game
/// otherwise), the results on stdout in game order.
pub fn selfplay(args: &SelfplayArgs, out: &mut dyn Write) -> CliResult {
    let rules = args.rules.rules()?;
    // Each opening's line in the file, to name it when it is refused.
    let (lines, openings): (Vec<usize>, Vec<Position>) = match &args.openings {
        Some(file) => read_positions(file, rules)?.into_iter().unzip(),
        None => (Vec::new(), vec![standard_start(rules)?]),
    };
    let limits = args
        .limits
        .limits_or(SelfPlay::DEFAULT_MOVE_TIME)
        .with_threads(args.threads.threads);
    let evaluation = args.eval.evaluation()?;
    let run = if args.random_openings {
        if rules != Rules::default() {
            return Err(CliError::Input(
                "--random-openings: the random openings are of the standard rules (no rule options)"
                    .to_string(),
            ));
        }
        SelfPlay::random_openings(limits, args.seed, args.limit).with_evaluation(evaluation)
    } else {
        SelfPlay::new(openings, limits, args.seed, args.limit)
            .and_then(|run| run.with_evaluation(evaluation))
    }
    .map_err(|e| opening_error(args.openings.as_deref(), &lines, &e))?;
    let games = args.games as usize;
    let mut jsonl = open_outputs(args)?;
    let jobs = args.jobs.unwrap_or_else(default_jobs);
    let mut progress = Progress::new(args.games);
    let mut tally = [0u32; 3];
    let started = Instant::now();
    let mut report = |played: &SelfPlayGame| -> CliResult {
        if let Some(dir) = &args.out {
            write_record(dir, args.seed, played)?;
        }
        if let (Some(file), Some(jsonl_file)) = (&mut jsonl, &args.jsonl) {
            writeln!(file, "{}", json_line(args.seed, played))
                .map_err(|e| format!("cannot write {}: {e}", jsonl_file.display()))?;
        }
        writeln!(out, "{played}")
            .and_then(|()| out.flush())
            .map_err(CliError::output)
    };
    // Games finish in any order: the progress sees them so, their lines
    // and files go out in game order.
    let played = run.play_in_order(
        0..games,
        jobs,
        &Budget::default(),
        |index, result| {
            if let Ok(played) = result {
                tally[match played.game.result() {
                    GameResult::Win(Side::Ohs) => 0,
                    GameResult::Win(Side::Eks) => 1,
                    _ => 2,
                }] += 1;
                progress.game_done(index, &played.game, &tally);
            }
        },
        |index, result| {
            let played = result.map_err(|e| CliError::Input(format!("game {}: {e}", index + 1)))?;
            report(&played)
        },
    );
    progress.finish();
    played?;
    writeln!(
        out,
        "{} games: O won {}, X won {}, {} drawn ({:.1} s)",
        args.games,
        tally[0],
        tally[1],
        tally[2],
        started.elapsed().as_secs_f64()
    )
    .map_err(CliError::output)?;
    if let Some(dir) = &args.out {
        writeln!(out, "records written to {}", dir.display()).map_err(CliError::output)?;
    }
    Ok(())
}

/// Selfplay's outputs, before any game is played: `--out` created and
/// checked to hold none of the run's records (refused now rather than after
/// an hour), and the `--jsonl` file opened.
fn open_outputs(args: &SelfplayArgs) -> CliResult<Option<fs::File>> {
    if let Some(dir) = &args.out {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        if let Some(taken) = (0..args.games as usize)
            .map(|i| record_path(dir, args.seed, i))
            .find(|path| path.exists())
        {
            return Err(CliError::Input(format!(
                "{} exists: selfplay never overwrites a record (choose another --seed or --out)",
                taken.display()
            )));
        }
    }
    Ok(match &args.jsonl {
        Some(file) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(file)
                .map_err(|e| format!("cannot open {}: {e}", file.display()))?,
        ),
        None => None,
    })
}

/// `SelfPlay`'s refusal of the openings read from `file` (`lines[i]` is
/// opening `i`'s line), said of the file: its line, or that it has none.
fn opening_error(file: Option<&Path>, lines: &[usize], error: &OpeningError) -> CliError {
    match (file, error) {
        (Some(file), OpeningError::Empty) => {
            CliError::Input(format!("{}: no positions", file.display()))
        }
        (Some(file), OpeningError::Finished { index, .. }) if *index < lines.len() => at_line(
            file,
            lines[*index],
            &"the game is already over in this position",
        ),
        (Some(file), OpeningError::NotServed { index, source }) if *index < lines.len() => {
            at_line(file, lines[*index], &format!("--eval: {source}"))
        }
        (None, OpeningError::NotServed { source, .. }) => {
            CliError::Input(format!("--eval: {source}"))
        }
        _ => CliError::Input(error.to_string()),
    }
}

/// Where game `index` (from 0) of the run seeded `seed` is written: named
/// by both, so that runs with other seeds never write over it.
fn record_path(dir: &Path, seed: u64, index: usize) -> PathBuf {
    dir.join(format!("game-s{seed}-{:04}.txt", index + 1))
}

fn write_record(dir: &Path, seed: u64, played: &SelfPlayGame) -> CliResult {
    let path = record_path(dir, seed, played.index);
    let text = format!(
        "; selfplay game {} of run seed {seed} (game seed {}): {}\n{}",
        played.index + 1,
        played.seed,
        played.game.result(),
        played.game
    );
    // create_new: a file that appeared since the check is not overwritten either.
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .and_then(|mut file| file.write_all(text.as_bytes()))
        .map_err(|e| CliError::Input(format!("cannot write {}: {e}", path.display())))
}

/// One game as a JSON object on one line: beside its moves, each move's
/// score (as `best` prints it: `+0.25`, `win in 3`), depth and nodes.
fn json_line(run_seed: u64, played: &SelfPlayGame) -> String {
    let game = &played.game;
    let list = |items: Vec<String>| items.join(",");
    let moves = list(
        game.moves()
            .iter()
            .map(|m| json_string(&m.to_string()))
            .collect(),
    );
    let analyses = &played.analyses;
    let scores = list(
        analyses
            .iter()
            .map(|a| json_string(&a.score.to_string()))
            .collect(),
    );
    let depths = list(analyses.iter().map(|a| a.depth.to_string()).collect());
    let nodes = list(analyses.iter().map(|a| a.nodes.to_string()).collect());
    format!(
        "{{\"game\":{},\"run_seed\":{run_seed},\"seed\":{},\"opening\":{},\"moves\":[{moves}],\"scores\":[{scores}],\"depths\":[{depths}],\"nodes\":[{nodes}],\"result\":{},\"plies\":{},\"time\":{:.3}}}",
        played.index + 1,
        played.seed,
        json_string(&game.start().to_string()),
        json_string(&game.result().to_string()),
        game.moves().len(),
        played.elapsed.as_secs_f64()
    )
}

/// `text` as a JSON string literal.
fn json_string(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            c if u32::from(c) < 0x20 => quoted.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// The progress display on stderr: a bar of the games done on a terminal,
/// one line per game otherwise.
struct Progress {
    games: u32,
    done: u32,
    terminal: bool,
}

impl Progress {
    fn new(games: u32) -> Progress {
        Progress {
            games,
            done: 0,
            terminal: io::stderr().is_terminal(),
        }
    }

    /// Game `index` (from 0) has finished as `record`.
    fn game_done(&mut self, index: usize, record: &Game, tally: &[u32; 3]) {
        self.done += 1;
        if self.terminal {
            const WIDTH: u32 = 30;
            let filled = (u64::from(self.done.min(self.games)) * u64::from(WIDTH)
                / u64::from(self.games)) as usize;
            eprint!(
                "\r[{}{}] {}/{} games: O {} X {} draws {}  ",
                "#".repeat(filled),
                ".".repeat(WIDTH as usize - filled),
                self.done,
                self.games,
                tally[0],
                tally[1],
                tally[2]
            );
        } else {
            eprintln!(
                "selfplay: game {}/{} done: {} in {} moves",
                index + 1,
                self.games,
                record.result(),
                record.moves().len()
            );
        }
    }

    fn finish(&self) {
        if self.terminal {
            eprintln!();
        }
    }
}
