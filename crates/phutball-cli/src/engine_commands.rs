//! The engine's subcommands: `best` (one move for a position), `game` (an
//! interactive game against the engine or a second person) and `selfplay`
//! (engine against engine, with game records written out).

use std::fs;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use phutball::{Game, GameResult, Move, Position, Rules, Side};
use phutball_engine::{play_game, Analysis, Engine, Limits, MAX_THREADS};

use crate::error::{CliError, CliResult};
use crate::input::{at_line, parse_position, read_positions, standard_start, RuleArgs};

/// Arguments of `phutball best`.
#[derive(Args)]
pub struct BestArgs {
    /// Time per move in milliseconds (default 1000 when no --depth or --nodes
    /// is given). Kept on every position, dense boards included: a legal
    /// move comes within a few milliseconds of it; checks the time did not
    /// let the engine decide are treated as "don't know" (see docs/engine.md).
    #[arg(long, value_name = "MS")]
    time: Option<u64>,
    /// Deepest search, in plies. Without --time the search is NOT bounded in
    /// time: the checks at the root (can it score, which moves let the
    /// opponent score) are exact and can take minutes on dense boards; add
    /// --time to bound it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Most positions to search (with no --time the result is reproducible,
    /// and, as with --depth, not bounded in time).
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Seed for breaking ties between equal moves.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    rules: RuleArgs,
    /// A position string, e.g. "15/15/.../7@7/... O".
    position: String,
}

/// Arguments of `phutball game`.
#[derive(Args)]
pub struct GameArgs {
    /// The side the engine plays, or `none` for two people at one terminal.
    #[arg(long, default_value = "X", value_name = "O|X|none", value_parser = parse_engine_side)]
    engine: EngineSide,
    /// Engine time per move in milliseconds.
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    time: u64,
    /// Seed for the engine's tie-breaking.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Start from this position string instead of the standard start.
    #[arg(long, value_name = "POSITION")]
    start: Option<String>,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    rules: RuleArgs,
}

/// Arguments of `phutball selfplay`.
#[derive(Args)]
pub struct SelfplayArgs {
    /// Number of games.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Time per move in milliseconds.
    #[arg(long, default_value_t = 100, value_name = "MS")]
    time: u64,
    /// Write each game record to DIR/game-0001.txt, ... (created if missing).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// A file of start positions, one position string a line, used in turn.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// A game that reaches this many moves is a draw.
    #[arg(long, default_value_t = 300, value_name = "MOVES")]
    limit: u32,
    /// Seed of the first game (game i uses seeds derived from S + i).
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    rules: RuleArgs,
}

/// The engine's `--threads`, shared by its commands.
#[derive(Args)]
pub struct ThreadsArg {
    /// Threads searching each move together, sharing one table (with more
    /// than one the search depends on their timing: not reproducible, even
    /// with --nodes or --depth).
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_THREADS)))]
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

/// One line about a search, for stderr or the game transcript.
fn describe(analysis: &Analysis) -> String {
    let pv: Vec<String> = analysis.pv.iter().map(Move::to_string).collect();
    format!(
        "score {}, depth {}, {} nodes in {:.3} s ({:.0} nodes/s), pv {}",
        analysis.score,
        analysis.depth,
        analysis.nodes,
        analysis.elapsed.as_secs_f64(),
        analysis.nodes_per_second(),
        pv.join(" ")
    )
}

/// `phutball best`: the chosen move on stdout, the analysis on stderr.
pub fn best(args: BestArgs, out: &mut dyn Write) -> CliResult {
    let pos = parse_position(&args.position, args.rules.rules()?)?;
    let limits = Limits::new(args.time.map(Duration::from_millis), args.depth, args.nodes)
        .with_threads(args.threads.threads);
    let analysis = Engine::new(limits, args.seed)
        .analyse(&pos)
        .map_err(|e| CliError::Input(e.to_string()))?;
    writeln!(out, "{}", analysis.best_move).map_err(CliError::output)?;
    eprintln!("{}", describe(&analysis));
    Ok(())
}

/// `phutball game`: reads moves and commands from stdin, shows the board
/// after every move on stdout.
pub fn game(args: GameArgs, out: &mut dyn Write) -> CliResult {
    let rules = args.rules.rules()?;
    let start = match &args.start {
        Some(text) => parse_position(text, rules)?,
        None => standard_start(rules)?,
    };
    let limits = Limits::time(Duration::from_millis(args.time)).with_threads(args.threads.threads);
    let engine = Engine::new(limits, args.seed);
    let mut session = Session {
        game: Game::new(start),
        engine,
        engine_side: args.engine,
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    session.play(&mut input, out)
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
        match self.game.position().play(&m) {
            Err(e) => writeln!(out, "Illegal move {m}: {e}."),
            Ok(_) => {
                self.push(m, out)?;
                Ok(())
            }
        }
    }

    fn push(&mut self, m: Move, out: &mut dyn Write) -> io::Result<()> {
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
                writeln!(out, "Engine: {}", describe(&analysis))?;
                self.push(analysis.best_move, out)
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
            Ok(analysis) => writeln!(
                out,
                "Hint: {} ({})",
                analysis.best_move,
                describe(&analysis)
            ),
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

/// `phutball selfplay`: engine against engine; a progress bar on stderr when
/// it is a terminal (one line per game otherwise), the results on stdout.
pub fn selfplay(args: SelfplayArgs, out: &mut dyn Write) -> CliResult {
    let rules = args.rules.rules()?;
    let openings = match &args.openings {
        Some(file) => read_openings(file, rules)?,
        None => vec![standard_start(rules)?],
    };
    if let Some(dir) = &args.out {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let limits = Limits::time(Duration::from_millis(args.time)).with_threads(args.threads.threads);
    let mut progress = Progress::new(args.games);
    let mut tally = [0u32; 3];
    let started = Instant::now();
    for i in 0..args.games {
        let start = openings[i as usize % openings.len()];
        let seed = args.seed.wrapping_add(u64::from(i)).wrapping_mul(2);
        let mut ohs = Engine::new(limits, seed);
        let mut eks = Engine::new(limits, seed + 1);
        let game = play_game(start, &mut ohs, &mut eks, args.limit, |g| {
            progress.show(i, g.moves().len(), &tally)
        })
        .map_err(|e| format!("game {}: {e}", i + 1))?;
        let result = game.result();
        tally[match result {
            GameResult::Win(Side::Ohs) => 0,
            GameResult::Win(Side::Eks) => 1,
            _ => 2,
        }] += 1;
        progress.game_done(i, &game, &tally);
        if let Some(dir) = &args.out {
            write_record(dir, i + 1, &game)?;
        }
        writeln!(
            out,
            "game {}: {} in {} moves",
            i + 1,
            result,
            game.moves().len()
        )
        .and_then(|()| out.flush())
        .map_err(CliError::output)?;
    }
    progress.finish();
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

fn read_openings(file: &Path, rules: Rules) -> CliResult<Vec<Position>> {
    let mut openings = Vec::new();
    for (number, pos) in read_positions(file, rules)? {
        if pos.is_finished() {
            let why = "the game is already over in this position";
            return Err(at_line(file, number, &why));
        }
        openings.push(pos);
    }
    if openings.is_empty() {
        return Err(CliError::Input(format!("{}: no positions", file.display())));
    }
    Ok(openings)
}

fn write_record(dir: &Path, number: u32, game: &Game) -> CliResult {
    let path = dir.join(format!("game-{number:04}.txt"));
    let text = format!("; selfplay game {number}: {}\n{game}", game.result());
    fs::write(&path, text)
        .map_err(|e| CliError::Input(format!("cannot write {}: {e}", path.display())))
}

/// The progress display on stderr.
struct Progress {
    games: u32,
    terminal: bool,
}

impl Progress {
    fn new(games: u32) -> Progress {
        Progress {
            games,
            terminal: io::stderr().is_terminal(),
        }
    }

    fn show(&mut self, game: u32, moves: usize, tally: &[u32; 3]) {
        if !self.terminal {
            return;
        }
        const WIDTH: u32 = 30;
        let filled =
            (u64::from(game.min(self.games)) * u64::from(WIDTH) / u64::from(self.games)) as usize;
        eprint!(
            "\r[{}{}] game {}/{} move {:<4} O {} X {} draws {}  ",
            "#".repeat(filled),
            ".".repeat(WIDTH as usize - filled),
            (game + 1).min(self.games),
            self.games,
            moves,
            tally[0],
            tally[1],
            tally[2]
        );
    }

    fn game_done(&mut self, game: u32, record: &Game, tally: &[u32; 3]) {
        if self.terminal {
            self.show(game + 1, record.moves().len(), tally);
        } else {
            eprintln!(
                "selfplay: game {}/{} done: {} in {} moves",
                game + 1,
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
