//! A strength ladder: two builds of the `phutball` command play each other
//! at a fixed node budget per move, from balanced random openings with
//! colours swapped, and the Elo difference of the new one is printed with
//! its 95% interval. Run by hand (`scripts/ladder.sh REV` builds REV and
//! runs this):
//!
//! ```text
//! cargo run --release -p phutball-benches --bin ladder -- --old OLD_PHUTBALL --new NEW_PHUTBALL \
//!     [--games 200] [--nodes 2000 | --time MS] [--seed 1] [--jobs 2] [--limit 300]
//! ```
//!
//! Game pair `i` starts from opening `i` (four random placements within three
//! points of the centre, seeded from `--seed` and `i`); in its first game the
//! new build plays Ohs, in the second Eks. Each move is one `best --nodes N
//! --seed S POSITION` (or `--time MS`) of the build to move; the core plays it. A game
//! reaching `--limit` moves is a draw; a build that gives no legal move loses.

use std::process::{Command, ExitCode};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use phutball::{Move, Position, Side, SplitMix64};

struct Options {
    old: String,
    new: String,
    games: usize,
    nodes: u64,
    /// Milliseconds per move instead of the node budget, if given.
    time: Option<u64>,
    seed: u64,
    jobs: usize,
    limit: u32,
}

fn parse_options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        old: String::new(),
        new: String::new(),
        games: 200,
        nodes: 2000,
        time: None,
        seed: 1,
        jobs: 2,
        limit: 300,
    };
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|e| format!("{arg}: {e}"));
        match arg.as_str() {
            "--old" => options.old = value()?,
            "--new" => options.new = value()?,
            "--games" => options.games = number(value()?)? as usize,
            "--nodes" => options.nodes = number(value()?)?,
            "--time" => options.time = Some(number(value()?)?),
            "--seed" => options.seed = number(value()?)?,
            "--jobs" => options.jobs = (number(value()?)? as usize).max(1),
            "--limit" => options.limit = number(value()?)? as u32,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if options.old.is_empty() || options.new.is_empty() {
        return Err("--old and --new (paths of two phutball commands) are needed".into());
    }
    Ok(options)
}

/// Opening `index`: the start with four random placements near the centre.
fn opening(seed: u64, index: usize) -> Position {
    let mut rng = SplitMix64::new(seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut pos = Position::standard();
    let centre = pos.ball();
    let mut placed = 0;
    while placed < 4 {
        let d_col = rng.below(7) as i32 - 3;
        let d_row = rng.below(7) as i32 - 3;
        let Some(p) = centre.offset(d_col, d_row) else {
            continue;
        };
        if let Ok(next) = pos.play(&Move::Place(p)) {
            pos = next;
            placed += 1;
        }
    }
    pos
}

/// The move `program` chooses in `pos` within the options' budget, or why not.
fn best_move(program: &str, pos: &Position, options: &Options, seed: u64) -> Result<Move, String> {
    let budget = match options.time {
        Some(ms) => ["--time".to_string(), ms.to_string()],
        None => ["--nodes".to_string(), options.nodes.to_string()],
    };
    let output = Command::new(program)
        .arg("best")
        .args(budget)
        .args(["--seed", &seed.to_string()])
        .arg(pos.to_string())
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().next().unwrap_or("").trim().to_string();
    line.parse::<Move>()
        .map_err(|e| format!("{program} on {pos}: {line:?}: {e}"))
}

/// One game, in half points for the new build: 2 a win, 1 a draw, 0 a loss.
fn play(options: &Options, start: Position, new_side: Side, seed: u64) -> u32 {
    let mut pos = start;
    for ply in 0..options.limit {
        let mover = pos.to_move();
        let program = if mover == new_side {
            &options.new
        } else {
            &options.old
        };
        let chosen = best_move(program, &pos, options, seed + u64::from(ply))
            .and_then(|m| pos.play(&m).map_err(|e| e.to_string()));
        match chosen {
            Ok(next) => pos = next,
            Err(e) => {
                eprintln!("ladder: {e}");
                return if mover == new_side { 0 } else { 2 };
            }
        }
        if let Some(winner) = pos.winner() {
            return if winner == new_side { 2 } else { 0 };
        }
    }
    1
}

/// The Elo difference of an expected score `score` (0 < score < 1).
fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("ladder: {e}");
            return ExitCode::FAILURE;
        }
    };
    let next = AtomicUsize::new(0);
    let results = Mutex::new(vec![0u32; options.games]);
    std::thread::scope(|scope| {
        for _ in 0..options.jobs {
            scope.spawn(|| loop {
                let game = next.fetch_add(1, Ordering::Relaxed);
                if game >= options.games {
                    break;
                }
                let start = opening(options.seed, game / 2);
                let new_side = if game % 2 == 0 { Side::Ohs } else { Side::Eks };
                let seed = options.seed.wrapping_mul(1_000_003) + game as u64 * 1000;
                let score = play(&options, start, new_side, seed);
                results.lock().expect("no thread panics holding it")[game] = score;
                eprintln!("game {}: {} half points", game + 1, score);
            });
        }
    });
    let results = results.into_inner().expect("no thread panicked");
    let n = results.len() as f64;
    let wins = results.iter().filter(|&&s| s == 2).count();
    let draws = results.iter().filter(|&&s| s == 1).count();
    let losses = results.len() - wins - draws;
    let points: Vec<f64> = results.iter().map(|&s| f64::from(s) / 2.0).collect();
    let score = points.iter().sum::<f64>() / n;
    let variance = points.iter().map(|s| (s - score).powi(2)).sum::<f64>() / n;
    let margin = 1.96 * (variance / n).sqrt();
    let clamp = |s: f64| s.clamp(0.5 / n, 1.0 - 0.5 / n);
    let budget = match options.time {
        Some(ms) => format!("{ms} ms/move"),
        None => format!("{} nodes/move", options.nodes),
    };
    println!(
        "new vs old: {} games at {budget}, {wins} wins, {draws} draws, {losses} losses; \
         score {:.3}; Elo {:+.0} (95%: {:+.0} to {:+.0})",
        results.len(),
        score,
        elo(clamp(score)),
        elo(clamp(score - margin)),
        elo(clamp(score + margin)),
    );
    ExitCode::SUCCESS
}
