//! A strength ladder: two builds of the `phutball` command play each other
//! at a fixed node budget per move, from balanced random openings with
//! colours swapped, and the Elo difference of the new one is printed with
//! its 95% interval. Run by hand (`scripts/ladder.sh REV` builds REV and
//! runs this):
//!
//! ```text
//! cargo run --release -p phutball-benches --bin ladder -- --old OLD_PHUTBALL --new NEW_PHUTBALL \
//!     [--games 200] [--nodes 2000 | --time MS] [--seed 1] [--jobs 2] [--limit 300] \
//!     [--old-args "ARGS"] [--new-args "ARGS"] [--record FILE]
//! ```
//!
//! Game pair `i` starts from opening `i` (`phutball_engine::random_opening(s,
//! 0)` with `s` mixed from the seed and `i` as self-play's game seeds are:
//! four random placements within three points of the centre; before
//! 2026-12-06 it was `random_opening(seed, i)`, whose neighbouring openings
//! overlap, 177 distinct of 200 at seed 1); in its
//! first game the new build plays Ohs, in the second Eks. Each move is one
//! `best --nodes N --seed S [ARGS] POSITION` (or `--time MS`) of the build to
//! move, where ARGS are that build's `--old-args` or `--new-args` split at
//! whitespace (`--new-args "--eval net:FILE"`); the core plays it. A game
//! reaching `--limit` moves is a draw; a build that gives no legal move
//! loses. `--old` and `--new` may be one binary: with different ARGS the
//! ladder compares two settings of one build. A game whose `best` was
//! killed by a signal (Ctrl-C) is no result: it is not counted, and the
//! ladder stops.
//!
//! `--record FILE` appends each finished game to FILE as one JSON line
//! (game and pair index, the new build's side, result and plies, and the
//! options that decide the games: both paths and their SHA-256, both ARGS,
//! the budget, the seed, the limit), handed to the system as the game
//! ends. Run again with the same options, the ladder skips the games FILE
//! holds, plays the rest up to `--games`, and prints its summary over every
//! recorded game: a long ladder in several sittings, each stopped at any
//! moment (a last line cut short is dropped with a note, and its game
//! played again). FILE recorded with other options is refused, untouched.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Command, ExitCode, ExitStatus};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use phutball::{Move, Position, Side, SplitMix64};
use phutball_engine::random_opening;

// In a folder of its own, so that cargo does not take it for a binary.
#[path = "ladder/record.rs"]
mod record;

use record::{GameRecord, MatchOptions, Record};

#[derive(Debug)]
struct Options {
    old: String,
    new: String,
    /// Extra arguments of each build's `best`, split at whitespace.
    old_args: Vec<String>,
    new_args: Vec<String>,
    games: usize,
    nodes: u64,
    /// Milliseconds per move instead of the node budget, if given.
    time: Option<u64>,
    seed: u64,
    jobs: usize,
    limit: u32,
    /// The record file (`--record`), if any.
    record: Option<PathBuf>,
}

/// The seed of game pair `pair`'s opening: `seed` and `pair` mixed (as
/// `SelfPlay::game_seed` mixes a run's seed and a game's index), so that
/// the openings of neighbouring pairs have nothing in common.
fn opening_seed(seed: u64, pair: usize) -> u64 {
    SplitMix64::new(seed.wrapping_add((pair as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))).next_u64()
}

fn parse_options(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        old: String::new(),
        new: String::new(),
        old_args: Vec::new(),
        new_args: Vec::new(),
        games: 200,
        nodes: 2000,
        time: None,
        seed: 1,
        jobs: 2,
        limit: 300,
        record: None,
    };
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|e| format!("{arg}: {e}"));
        match arg.as_str() {
            "--old" => options.old = value()?,
            "--new" => options.new = value()?,
            "--old-args" => options.old_args = words(&value()?),
            "--new-args" => options.new_args = words(&value()?),
            "--games" => options.games = number(value()?)? as usize,
            "--nodes" => options.nodes = number(value()?)?,
            "--time" => options.time = Some(number(value()?)?),
            "--seed" => options.seed = number(value()?)?,
            "--jobs" => options.jobs = (number(value()?)? as usize).max(1),
            "--limit" => options.limit = number(value()?)? as u32,
            "--record" => options.record = Some(PathBuf::from(value()?)),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if options.old.is_empty() || options.new.is_empty() {
        return Err(
            "--old and --new (paths of two phutball commands, or one twice) are needed".into(),
        );
    }
    Ok(options)
}

/// `text` split at whitespace: the extra arguments of `--old-args` and `--new-args`.
fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// A build of the ladder: which (`old` or `new`), its command and the
/// extra arguments of its `best`.
struct Build<'a> {
    name: &'static str,
    program: &'a str,
    args: &'a [String],
}

/// Why a build gave no move: a failure of the build (it loses the game),
/// or its process was killed by a signal (the game is no result).
struct NoMove {
    message: String,
    interrupted: bool,
}

/// The signal that killed a process, if one did.
#[cfg(unix)]
fn killing_signal(status: ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal()
}

#[cfg(not(unix))]
fn killing_signal(_status: ExitStatus) -> Option<i32> {
    None
}

/// The move `build` chooses in `pos` within the options' budget, or why not.
fn best_move(
    build: &Build<'_>,
    pos: &Position,
    options: &Options,
    seed: u64,
) -> Result<Move, NoMove> {
    let program = build.program;
    let budget = match options.time {
        Some(ms) => ["--time".to_string(), ms.to_string()],
        None => ["--nodes".to_string(), options.nodes.to_string()],
    };
    let output = Command::new(program)
        .arg("best")
        .args(budget)
        .args(["--seed", &seed.to_string()])
        .args(build.args)
        .arg(pos.to_string())
        .output()
        .map_err(|e| NoMove {
            message: format!("{} ({program}): {e}", build.name),
            interrupted: false,
        })?;
    if let Some(signal) = killing_signal(output.status) {
        return Err(NoMove {
            message: format!("{} ({program}) was killed by signal {signal}", build.name),
            interrupted: true,
        });
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().next().unwrap_or("").trim().to_string();
    // A build that refused its arguments says why on stderr.
    let failed = if output.status.success() {
        String::new()
    } else {
        let stderr = String::from_utf8_lossy(&output.stderr);
        format!(
            " ({}: {})",
            output.status,
            stderr.lines().next().unwrap_or("").trim()
        )
    };
    line.parse::<Move>().map_err(|e| NoMove {
        message: format!("{} ({program}) on {pos}: {line:?}: {e}{failed}", build.name),
        interrupted: false,
    })
}

/// One game: the new build's half points (2 a win, 1 a draw, 0 a loss)
/// and the plies played, or why it is no result (a build was killed).
fn play(
    options: &Options,
    start: Position,
    new_side: Side,
    seed: u64,
) -> Result<(u32, u32), String> {
    let mut pos = start;
    for ply in 0..options.limit {
        let mover = pos.to_move();
        let build = if mover == new_side {
            Build {
                name: "new",
                program: &options.new,
                args: &options.new_args,
            }
        } else {
            Build {
                name: "old",
                program: &options.old,
                args: &options.old_args,
            }
        };
        let chosen = best_move(&build, &pos, options, seed + u64::from(ply)).and_then(|m| {
            pos.play(&m).map_err(|e| NoMove {
                message: e.to_string(),
                interrupted: false,
            })
        });
        match chosen {
            Ok(next) => pos = next,
            Err(e) if e.interrupted => return Err(e.message),
            Err(e) => {
                eprintln!("ladder: {}", e.message);
                return Ok((if mover == new_side { 0 } else { 2 }, ply));
            }
        }
        if let Some(winner) = pos.winner() {
            return Ok((if winner == new_side { 2 } else { 0 }, ply + 1));
        }
    }
    Ok((1, options.limit))
}

/// The Elo difference of an expected score `score` (0 < score < 1).
fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The summary line of `results` (half points of the new build, one a game).
fn summary(results: &[u32], budget: &str) -> String {
    if results.is_empty() {
        return format!("new vs old: no games at {budget}");
    }
    let n = results.len() as f64;
    let wins = results.iter().filter(|&&s| s == 2).count();
    let draws = results.iter().filter(|&&s| s == 1).count();
    let losses = results.len() - wins - draws;
    let points: Vec<f64> = results.iter().map(|&s| f64::from(s) / 2.0).collect();
    let score = points.iter().sum::<f64>() / n;
    let variance = points.iter().map(|s| (s - score).powi(2)).sum::<f64>() / n;
    let margin = 1.96 * (variance / n).sqrt();
    let clamp = |s: f64| s.clamp(0.5 / n, 1.0 - 0.5 / n);
    format!(
        "new vs old: {} games at {budget}, {wins} wins, {draws} draws, {losses} losses; \
         score {:.3}; Elo {:+.0} (95%: {:+.0} to {:+.0})",
        results.len(),
        score,
        elo(clamp(score)),
        elo(clamp(score - margin)),
        elo(clamp(score + margin)),
    )
}

/// The options a record file keeps with each game: both builds' SHA-256
/// read now.
fn match_options(options: &Options) -> Result<MatchOptions, String> {
    Ok(MatchOptions {
        old: options.old.clone(),
        old_sha256: record::sha256_file(&options.old)?,
        new: options.new.clone(),
        new_sha256: record::sha256_file(&options.new)?,
        old_args: options.old_args.clone(),
        new_args: options.new_args.clone(),
        nodes: if options.time.is_some() {
            None
        } else {
            Some(options.nodes)
        },
        time_ms: options.time,
        seed: options.seed,
        limit: options.limit,
    })
}

/// The record file, opened and checked, if `--record` was given (its notes printed).
fn open_record(options: &Options) -> Result<Option<(Record, MatchOptions)>, String> {
    let Some(path) = &options.record else {
        return Ok(None);
    };
    let match_options = match_options(options)?;
    let record = record::open(path, &match_options)?;
    for note in &record.notes {
        eprintln!("ladder: {note}");
    }
    let to_play = (0..options.games)
        .filter(|g| !record.games.contains_key(g))
        .count();
    eprintln!(
        "ladder: {}: {} games recorded, {to_play} of the first {} to play",
        path.display(),
        record.games.len(),
        options.games
    );
    Ok(Some((record, match_options)))
}

fn main() -> ExitCode {
    let options = match parse_options(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("ladder: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (record, match_options) = match open_record(&options) {
        Ok(Some((record, match_options))) => (Some(record), Some(match_options)),
        Ok(None) => (None, None),
        Err(e) => {
            eprintln!("ladder: {e}");
            return ExitCode::FAILURE;
        }
    };
    let recorded: BTreeMap<usize, u32> =
        record.as_ref().map(|r| r.games.clone()).unwrap_or_default();
    let to_play: Vec<usize> = (0..options.games)
        .filter(|g| !recorded.contains_key(g))
        .collect();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results = Mutex::new(recorded);
    let record = Mutex::new(record);
    std::thread::scope(|scope| {
        for _ in 0..options.jobs {
            scope.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    let Some(&game) = to_play.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let start = random_opening(opening_seed(options.seed, game / 2), 0);
                    let new_side = if game % 2 == 0 { Side::Ohs } else { Side::Eks };
                    let seed = options.seed.wrapping_mul(1_000_003) + game as u64 * 1000;
                    let (score, plies) = match play(&options, start, new_side, seed) {
                        Ok(played) => played,
                        Err(e) => {
                            eprintln!(
                                "ladder: game {}: {e}; not counted, the ladder stops",
                                game + 1
                            );
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    };
                    let mut record = record.lock().expect("no thread panics holding it");
                    if let (Some(record), Some(match_options)) = (record.as_mut(), &match_options) {
                        let line = GameRecord {
                            game,
                            pair: game / 2,
                            new_side: new_side.to_string(),
                            result: record::result_name(score).to_string(),
                            plies,
                            options: match_options.clone(),
                        };
                        if let Err(e) = record.append(&line) {
                            eprintln!("ladder: {e}; the ladder stops");
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    drop(record);
                    results
                        .lock()
                        .expect("no thread panics holding it")
                        .insert(game, score);
                    eprintln!("game {}: {} half points, {plies} plies", game + 1, score);
                }
            });
        }
    });
    let results: Vec<u32> = results
        .into_inner()
        .expect("no thread panicked")
        .into_values()
        .collect();
    let budget = match options.time {
        Some(ms) => format!("{ms} ms/move"),
        None => format!("{} nodes/move", options.nodes),
    };
    println!("{}", summary(&results, &budget));
    if stop.into_inner() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use std::fs::OpenOptions;
    use std::io::Write;

    use super::*;

    fn parse(args: &[&str]) -> Result<Options, String> {
        parse_options(args.iter().map(ToString::to_string))
    }

    #[test]
    fn extra_arguments_are_split_at_whitespace_and_one_binary_may_be_both_builds() {
        let options = parse(&[
            "--old",
            "bin/phutball",
            "--new",
            "bin/phutball",
            "--new-args",
            " --eval  net:a.bin ",
        ])
        .unwrap();
        assert_eq!(
            (options.old.as_str(), options.new.as_str()),
            ("bin/phutball", "bin/phutball")
        );
        assert_eq!(options.new_args, ["--eval", "net:a.bin"]);
        assert!(options.old_args.is_empty());
        assert!(parse(&["--old", "a", "--new", "b", "--old-args"])
            .unwrap_err()
            .contains("--old-args needs a value"));
        assert!(parse(&["--old", "a"]).is_err());
    }

    fn match_options(seed: u64) -> MatchOptions {
        MatchOptions {
            old: "old/phutball".into(),
            old_sha256: "aa".into(),
            new: "new/phutball".into(),
            new_sha256: "bb".into(),
            old_args: Vec::new(),
            new_args: words("--eval net"),
            nodes: None,
            time_ms: Some(1000),
            seed,
            limit: 300,
        }
    }

    fn game(game: usize, result: &str, seed: u64) -> GameRecord {
        GameRecord {
            game,
            pair: game / 2,
            new_side: if game % 2 == 0 { "O" } else { "X" }.into(),
            result: result.into(),
            plies: 40 + game as u32,
            options: match_options(seed),
        }
    }

    /// A new empty directory under the system's temporary one, for one test's files.
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("phutball-ladder-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_record_option_is_read_and_the_summary_counts_every_game() {
        let options = parse(&[
            "--old", "a", "--new", "b", "--record", "r.jsonl", "--time", "1000",
        ])
        .unwrap();
        assert_eq!(options.record, Some(PathBuf::from("r.jsonl")));
        assert_eq!(
            summary(&[2, 2, 1, 0], "1000 ms/move"),
            "new vs old: 4 games at 1000 ms/move, 2 wins, 1 draws, 1 losses; score 0.625; Elo +89 (95%: -221 to +338)"
        );
        assert_eq!(
            summary(&[], "5 nodes/move"),
            "new vs old: no games at 5 nodes/move"
        );
    }

    #[test]
    fn games_are_appended_read_back_and_a_cut_last_line_is_dropped() {
        let path = scratch("resume").join("record.jsonl");
        let mut record = record::open(&path, &match_options(1)).unwrap();
        assert!(record.games.is_empty() && record.notes.is_empty());
        record.append(&game(3, "win", 1)).unwrap();
        record.append(&game(0, "draw", 1)).unwrap();
        drop(record);
        // Killed while writing the third line: half of it, no newline.
        let whole = serde_json::to_string(&game(1, "loss", 1)).unwrap();
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(&whole.as_bytes()[..whole.len() / 2])
            .unwrap();
        drop(file);

        let mut record = record::open(&path, &match_options(1)).unwrap();
        assert_eq!(record.games, BTreeMap::from([(0, 1), (3, 2)]));
        assert_eq!(record.notes.len(), 1);
        assert!(record.notes[0].contains("cut short"), "{}", record.notes[0]);
        // The next game starts a line of its own.
        record.append(&game(1, "loss", 1)).unwrap();
        drop(record);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 3);
        assert!(text.ends_with(&format!("{whole}\n")));
        let record = record::open(&path, &match_options(1)).unwrap();
        assert_eq!(record.games, BTreeMap::from([(0, 1), (1, 0), (3, 2)]));
        assert!(record.notes.is_empty());
    }

    #[test]
    fn a_record_of_other_options_or_damaged_is_refused_and_left_untouched() {
        let dir = scratch("refused");
        let path = dir.join("record.jsonl");
        let mut record = record::open(&path, &match_options(1)).unwrap();
        record.append(&game(0, "win", 1)).unwrap();
        drop(record);
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"{\"game\": 1, \"pa").unwrap();
        drop(file);
        let before = std::fs::read(&path).unwrap();
        let refused = record::open(&path, &match_options(2)).err().unwrap();
        assert!(
            refused.contains("line 1: recorded with other options (seed: recorded 1, now 2)"),
            "{refused}"
        );
        let mut other = match_options(1);
        other.new_sha256 = "cc".into();
        other.time_ms = None;
        other.nodes = Some(4000);
        let refused = record::open(&path, &other).err().unwrap();
        assert!(
            refused.contains("new_sha256: recorded \"bb\", now \"cc\""),
            "{refused}"
        );
        assert!(
            refused.contains("time_ms: recorded 1000, now null"),
            "{refused}"
        );
        assert_eq!(
            std::fs::read(&path).unwrap(),
            before,
            "the file is left as it was"
        );

        let damaged = dir.join("damaged.jsonl");
        std::fs::write(&damaged, b"not json\n").unwrap();
        let refused = record::open(&damaged, &match_options(1)).err().unwrap();
        assert!(
            refused.contains("line 1: not a game of the ladder's record"),
            "{refused}"
        );
        let twice = serde_json::to_string(&game(0, "win", 1)).unwrap();
        std::fs::write(&damaged, format!("{twice}\n{twice}\n")).unwrap();
        let refused = record::open(&damaged, &match_options(1)).err().unwrap();
        assert!(
            refused.contains("line 2: game 1 is recorded twice"),
            "{refused}"
        );
        let bad = serde_json::to_string(&game(0, "won", 1)).unwrap();
        std::fs::write(&damaged, format!("{bad}\n")).unwrap();
        let refused = record::open(&damaged, &match_options(1)).err().unwrap();
        assert!(
            refused.contains("\"won\" is not win, draw or loss"),
            "{refused}"
        );
    }

    #[test]
    fn a_files_sha256_matches_the_standard_vectors() {
        let dir = scratch("sha256");
        let file = dir.join("bytes");
        let hex = |bytes: &[u8]| {
            std::fs::write(&file, bytes).unwrap();
            record::sha256_file(file.to_str().unwrap()).unwrap()
        };
        assert_eq!(
            hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
        assert_eq!(
            hex(&[b'a'; 1000]),
            "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"
        );
        let missing = dir.join("missing");
        let refused = record::sha256_file(missing.to_str().unwrap()).unwrap_err();
        assert!(refused.contains("missing"), "{refused}");
    }

    #[test]
    fn the_openings_of_200_pairs_hardly_repeat() {
        // Four men on 48 points make 194,580 openings: 200 drawn at random
        // repeat one about once in ten runs, never dozens as unmixed seeds
        // made (23 of 200 at seed 1).
        for seed in [0, 1, 2, 7] {
            let openings: std::collections::HashSet<String> = (0..200)
                .map(|pair| random_opening(opening_seed(seed, pair), 0).to_string())
                .collect();
            assert!(openings.len() >= 198, "seed {seed}: {}", openings.len());
        }
    }
}
