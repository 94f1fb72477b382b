//! Strength measurements for docs/engine.md. Slow: run in release.
//!
//! ```text
//! cargo run --release -p phutball-engine --example strength -- all
//! cargo run --release -p phutball-engine --example strength -- baseline --games 100 --ms 100
//! cargo run --release -p phutball-engine --example strength -- random --games 100 --ms 100
//! cargo run --release -p phutball-engine --example strength -- tactics --count 100 --ms 1000
//! cargo run --release -p phutball-engine --example strength -- speed --ms 1000
//! cargo run --release -p phutball-engine --example strength -- threats --count 100 --ms 1000
//! cargo run --release -p phutball-engine --example strength -- threat-positions --count 100
//! cargo run --release -p phutball-engine --example strength -- five --count 100 --ms 1000
//! ```
//!
//! `threat-positions` prints the generated win-in-3, lose-in-3 and win-in-5
//! positions (`win3 POSITION`, `lose3 POSITION`, `win5 POSITION`), to give
//! to any build's `phutball best`; `threat-judge` reads such lines with the
//! move played appended (`win3 POSITION MOVE`) on stdin and counts the
//! moves that win in three (`win3`), do not lose within three (`lose3`) or
//! win within five (`win5`). `five` runs the win-in-5 suite at depth 1 and
//! at `--ms` per move.
//!
//! ```text
//! ```
//!
//! `--save DIR` writes the records of the games the engine did not win.
//!
//! Games alternate colours (the engine is Ohs in even-numbered games) and run
//! on two threads. A game that reaches the move limit is a draw.

use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use phutball::{Game, GameResult, Move, Position, Side};
use phutball_engine::suites::{
    defend_positions, lose_in_three_positions, loses_within_three, win_in_five_positions,
    win_in_three_positions, win_now_positions, wins_in_three, wins_within_five,
};
use phutball_engine::{play_game, BaselinePlayer, Engine, Limits, Player, RandomPlayer};

const MOVE_LIMIT: u32 = 300;
const THREADS: usize = 2;

struct Options {
    what: String,
    games: usize,
    count: usize,
    ms: u64,
    /// Where to write the records of drawn and lost games, if anywhere.
    save: Option<String>,
}

fn parse_options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        what: "all".to_string(),
        games: 100,
        count: 100,
        ms: 0,
        save: None,
    };
    let mut what_given = false;
    while let Some(arg) = args.next() {
        let mut number = |name: &str| -> Result<u64, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .ok_or(format!("{name} needs a number"))
        };
        match arg.as_str() {
            "--games" => options.games = number("--games")? as usize,
            "--count" => options.count = number("--count")? as usize,
            "--ms" => options.ms = number("--ms")?,
            "--save" => options.save = Some(args.next().ok_or("--save needs a directory")?),
            other if !what_given && !other.starts_with('-') => {
                options.what = other.to_string();
                what_given = true;
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(options)
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("strength: {e}");
            return ExitCode::FAILURE;
        }
    };
    let ms = |default| if options.ms == 0 { default } else { options.ms };
    let all = options.what == "all";
    let save = options.save.as_deref();
    if all || options.what == "baseline" {
        match_against("baseline", options.games, ms(100), save, |_| {
            Box::new(BaselinePlayer)
        });
    }
    if all || options.what == "random" {
        match_against("random", options.games, ms(100), save, |game| {
            Box::new(RandomPlayer::new(1000 + game as u64))
        });
    }
    if all || options.what == "tactics" {
        tactics(options.count, ms(1000));
    }
    if all || options.what == "threats" {
        threats(options.count, ms(1000));
    }
    if options.what == "threat-positions" {
        for pos in win_in_three_positions(2026, options.count) {
            println!("win3 {pos}");
        }
        for pos in lose_in_three_positions(2027, options.count) {
            println!("lose3 {pos}");
        }
        for pos in win_in_five_positions(2028, options.count) {
            println!("win5 {pos}");
        }
    }
    if options.what == "five" {
        five(options.count, ms(1000));
    }
    if options.what == "threat-judge" {
        threat_judge();
    }
    if all || options.what == "speed" {
        speed(ms(1000));
    }
    ExitCode::SUCCESS
}

/// Plays `games` games of the engine at `ms` per move against the opponent.
fn match_against(
    name: &str,
    games: usize,
    ms: u64,
    save: Option<&str>,
    opponent: impl Fn(usize) -> Box<dyn Player + Send> + Sync,
) {
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for _ in 0..THREADS {
            scope.spawn(|| loop {
                let game_index = next.fetch_add(1, Ordering::Relaxed);
                if game_index >= games {
                    break;
                }
                let mut engine =
                    Engine::new(Limits::time(Duration::from_millis(ms)), game_index as u64);
                let mut other = opponent(game_index);
                let engine_side = if game_index % 2 == 0 {
                    Side::Ohs
                } else {
                    Side::Eks
                };
                let game = if engine_side == Side::Ohs {
                    play_game(
                        Position::standard(),
                        &mut engine,
                        other.as_mut(),
                        MOVE_LIMIT,
                        |_| (),
                    )
                } else {
                    play_game(
                        Position::standard(),
                        other.as_mut(),
                        &mut engine,
                        MOVE_LIMIT,
                        |_| (),
                    )
                };
                if let (Some(dir), Ok(g)) = (save, &game) {
                    if g.result() != GameResult::Win(engine_side) {
                        let path = format!("{dir}/{name}-{game_index:03}.txt");
                        if let Err(e) = std::fs::write(&path, g.to_string()) {
                            eprintln!("cannot write {path}: {e}");
                        }
                    }
                }
                let outcome = match game.map(|g| (g.result(), g.moves().len())) {
                    Ok((GameResult::Win(side), moves)) if side == engine_side => ("win", moves),
                    Ok((GameResult::Win(_), moves)) => ("loss", moves),
                    Ok((_, moves)) => ("draw", moves),
                    Err(e) => {
                        eprintln!("game {game_index}: {e}");
                        ("error", 0)
                    }
                };
                if let Ok(mut r) = results.lock() {
                    r.push(outcome);
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_default();
    let count = |what: &str| results.iter().filter(|(o, _)| *o == what).count();
    let total_moves: usize = results.iter().map(|(_, m)| m).sum();
    println!(
        "engine ({ms} ms/move) vs {name}: {} games, {} wins, {} losses, {} draws, {} errors; \
         {:.1} moves per game on average; {:.0} s",
        results.len(),
        count("win"),
        count("loss"),
        count("draw"),
        count("error"),
        total_moves as f64 / results.len().max(1) as f64,
        started.elapsed().as_secs_f64()
    );
}

/// Win-now and defend suites at `ms` per move.
fn tactics(count: usize, ms: u64) {
    let engine = Engine::new(Limits::time(Duration::from_millis(ms)), 1);
    let wins = win_now_positions(2024, count);
    let solved_wins = wins
        .iter()
        .filter(|pos| {
            engine
                .best_move(pos)
                .ok()
                .and_then(|m| pos.play(&m).ok())
                .is_some_and(|after| after.winner() == Some(pos.to_move()))
        })
        .count();
    println!(
        "win-now suite ({ms} ms/move): {solved_wins}/{} solved",
        wins.len()
    );
    let defends = defend_positions(2025, count, 3);
    let mut solved_defends = 0;
    let mut longest = Duration::ZERO;
    for pos in &defends {
        let Ok(analysis) = engine.analyse(pos) else {
            continue;
        };
        longest = longest.max(analysis.elapsed);
        let stopped = pos.play(&analysis.best_move).is_ok_and(|after| {
            after.winner() != Some(pos.to_move().opponent()) && !after.can_score()
        });
        solved_defends += usize::from(stopped);
    }
    println!(
        "defend suite (1 to 3 saving moves, {ms} ms/move): {solved_defends}/{} solved; \
         longest think {:.3} s",
        defends.len(),
        longest.as_secs_f64()
    );
}

/// The win-in-three and lose-in-three suites at `ms` per move, judged by
/// the core's move list and can-score alone.
fn threats(count: usize, ms: u64) {
    let engine = Engine::new(Limits::time(Duration::from_millis(ms)), 1);
    let started = Instant::now();
    let wins = win_in_three_positions(2026, count);
    let losses = lose_in_three_positions(2027, count);
    println!(
        "generated {} win-in-3 and {} lose-in-3 positions in {:.1} s",
        wins.len(),
        losses.len(),
        started.elapsed().as_secs_f64()
    );
    let (solved, longest) = suite(&engine, &wins, "missed win in 3", wins_in_three);
    println!(
        "win-in-3 suite ({ms} ms/move): {solved}/{} solved; longest think {:.3} s",
        wins.len(),
        longest.as_secs_f64()
    );
    let (avoided, longest) = suite(&engine, &losses, "lost in 3", |pos, m| {
        !loses_within_three(pos, m)
    });
    println!(
        "lose-in-3 suite ({ms} ms/move): {avoided}/{} avoided; longest think {:.3} s",
        losses.len(),
        longest.as_secs_f64()
    );
}

/// How many of `positions` the engine's move passes `good` in, and its
/// longest think; each failure is printed after `failure`.
fn suite(
    engine: &Engine,
    positions: &[Position],
    failure: &str,
    good: impl Fn(&Position, &Move) -> bool,
) -> (usize, Duration) {
    let mut longest = Duration::ZERO;
    let mut passed = 0;
    for pos in positions {
        let Ok(analysis) = engine.analyse(pos) else {
            continue;
        };
        longest = longest.max(analysis.elapsed);
        if good(pos, &analysis.best_move) {
            passed += 1;
        } else {
            println!("  {failure}: {pos} (played {})", analysis.best_move);
        }
    }
    (passed, longest)
}

/// Judges the lines `win3|lose3|win5 POSITION MOVE` of stdin (see the module docs).
fn threat_judge() {
    let (mut wins, mut won, mut losses, mut avoided) = (0, 0, 0, 0);
    let (mut fives, mut won_in_five) = (0, 0);
    for line in std::io::stdin().lines().map_while(Result::ok) {
        let Some((kind, rest)) = line.split_once(' ') else {
            continue;
        };
        let Some((position, m)) = rest.rsplit_once(' ') else {
            continue;
        };
        let (Ok(pos), Ok(m)) = (position.parse::<Position>(), m.parse()) else {
            println!("unreadable: {line}");
            continue;
        };
        if kind == "win5" {
            fives += 1;
            won_in_five += usize::from(wins_within_five(&pos, &m));
        } else if kind == "win3" {
            wins += 1;
            won += usize::from(wins_in_three(&pos, &m));
        } else {
            losses += 1;
            avoided += usize::from(!loses_within_three(&pos, &m));
        }
    }
    println!(
        "win-in-3: {won}/{wins} won; lose-in-3: {avoided}/{losses} avoided; \
         win-in-5: {won_in_five}/{fives} won"
    );
}

/// The win-in-five suite at depth 1 (no time limit) and at `ms` per move,
/// judged by the core's move list and can-score alone.
fn five(count: usize, ms: u64) {
    let started = Instant::now();
    let wins = win_in_five_positions(2028, count);
    println!(
        "generated {} win-in-5 positions in {:.1} s",
        wins.len(),
        started.elapsed().as_secs_f64()
    );
    for (limits, what) in [
        (Limits::depth(1), "depth 1".to_string()),
        (
            Limits::time(Duration::from_millis(ms)),
            format!("{ms} ms/move"),
        ),
    ] {
        let engine = Engine::new(limits, 1);
        let (solved, longest) = suite(&engine, &wins, "missed win in 5", wins_within_five);
        println!(
            "win-in-5 suite ({what}): {solved}/{} solved; longest think {:.3} s",
            wins.len(),
            longest.as_secs_f64()
        );
    }
}

/// Nodes per second and depth reached from the start and a few middle games.
fn speed(ms: u64) {
    let mut positions = vec![("start".to_string(), Position::standard())];
    // Middle games: the start after 20 plies of engine-vs-baseline play.
    for seed in 0..3u64 {
        let mut engine = Engine::new(Limits::nodes(3000), seed);
        let mut baseline = BaselinePlayer;
        let mut game = Game::standard();
        for ply in 0..(16 + 4 * seed) {
            let m = if ply % 2 == 0 {
                engine.choose(&game)
            } else {
                baseline.choose(&game)
            };
            let Ok(m) = m else { break };
            if game.push(m).is_err() {
                break;
            }
            if game.position().is_finished() {
                game.pop();
                break;
            }
        }
        positions.push((format!("middle game {}", seed + 1), *game.position()));
    }
    let engine = Engine::new(Limits::time(Duration::from_millis(ms)), 1);
    for (name, pos) in positions {
        match engine.analyse(&pos) {
            Ok(a) => {
                let pv: Vec<String> = a.pv.iter().map(ToString::to_string).collect();
                println!(
                    "{name}: {pos}\n  depth {}, {} nodes in {:.3} s, {:.0} nodes/s, score {}, pv {}",
                    a.depth,
                    a.nodes,
                    a.elapsed.as_secs_f64(),
                    a.nodes_per_second(),
                    a.score,
                    pv.join(" ")
                );
            }
            Err(e) => println!("{name}: {e}"),
        }
    }
}
