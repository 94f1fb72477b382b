//! The engine's subcommands: `best` prints a legal (and, where it matters,
//! the right) move first on stdout; `game` is driven through stdin; `selfplay`
//! writes results and records and keeps its progress display off a non-terminal
//! stderr, plays the same games on any number of threads and never overwrites
//! a record; `analyse` answers in the file's order.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use phutball::{Game, GameResult, Position};

mod common;

use common::{run_with_input, text};

const START: &str = "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O";
/// Ball H10, men H11..H18: Ohs scores with H10-H19.
const CHAIN: &str = "15/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15 O";
/// Ball H3, man H2, Ohs to move: H3-H1 is an own goal.
const OWN_GOAL: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/7@7/7#7/15 O";
/// Dense boards on which the core's unbounded can-score ran for minutes
/// before issue 9 (the first) or seconds (the second, where Ohs can score):
/// records 1 and 2 of hard-32.
fn hard() -> [String; 2] {
    [1, 2].map(|n| common::fixture_position("hard-32.fixture", n))
}

fn phutball() -> Command {
    Command::new(env!("CARGO_BIN_EXE_phutball"))
}

fn run(args: &[&str]) -> Output {
    phutball()
        .args(args)
        .output()
        .expect("the phutball binary runs")
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("phutball-engine-cli-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn best_prints_a_legal_move_first_and_diagnostics_on_stderr() {
    let out = run(&["best", "--nodes", "400", START]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let first = stdout.lines().next().expect("a line");
    let pos: Position = START.parse().unwrap();
    assert!(pos.is_legal(&first.parse().expect("a move")), "{first}");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("depth") && stderr.contains("nodes"),
        "{stderr}"
    );
}

#[test]
fn best_scores_when_it_can_and_avoids_an_own_goal() {
    let out = run(&["best", "--depth", "2", CHAIN]);
    assert_eq!(text(&out.stdout).lines().next(), Some("H10-H19"));
    let out = run(&["best", "--depth", "2", OWN_GOAL]);
    let m = text(&out.stdout);
    let pos: Position = OWN_GOAL.parse().unwrap();
    let after = pos.play(&m.trim().parse().unwrap()).unwrap();
    assert_eq!(after.winner(), None, "{m} ends the game");
}

#[test]
fn best_searches_with_two_threads() {
    let out = run(&["best", "--depth", "3", "--threads", "2", START]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let first = text(&out.stdout).lines().next().expect("a line").to_owned();
    let pos: Position = START.parse().unwrap();
    assert!(pos.is_legal(&first.parse().expect("a move")), "{first}");
    assert!(
        text(&out.stderr).contains("depth 3"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["best", "--depth", "2", "--jobs", "2", CHAIN]);
    assert_eq!(text(&out.stdout).lines().next(), Some("H10-H19"));
    // stderr is the analysis's Display, the line Rust users print.
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("best H10-H19 (scores now), score win in 1, depth 0, 1 nodes in "),
        "{stderr}"
    );
    assert!(
        stderr.trim_end().ends_with("nodes/s), pv H10-H19"),
        "{stderr}"
    );
}

#[test]
fn best_takes_jobs_and_still_its_old_threads() {
    // With one thread and a node limit the move is reproducible: the same
    // whichever name sets the thread count.
    let jobs = run(&["best", "--nodes", "800", "--jobs", "1", START]);
    let threads = run(&["best", "--nodes", "800", "--threads", "1", START]);
    assert!(jobs.status.success(), "{}", text(&jobs.stderr));
    assert_eq!(text(&jobs.stdout), text(&threads.stdout));
    for flag in ["--jobs", "--threads"] {
        let out = run(&["best", "--depth", "2", flag, "2", START]);
        assert!(out.status.success(), "{flag}: {}", text(&out.stderr));
        let first = text(&out.stdout).lines().next().expect("a line").to_owned();
        let pos: Position = START.parse().unwrap();
        assert!(
            pos.is_legal(&first.parse().expect("a move")),
            "{flag}: {first}"
        );
    }
    // --threads is kept for a release, out of the help.
    let help = text(&run(&["best", "--help"]).stdout);
    assert!(help.contains("--jobs <J>"), "{help}");
    assert!(!help.contains("--threads"), "{help}");
}

#[test]
fn best_keeps_its_time_limit_on_dense_boards() {
    // Not a performance test: the bound is a hundred times the limit.
    for position in hard() {
        let started = Instant::now();
        let out = run(&["best", "--time", "100", &position]);
        let took = started.elapsed();
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let first = stdout.lines().next().expect("a line");
        let pos: Position = position.parse().unwrap();
        assert!(pos.is_legal(&first.parse().expect("a move")), "{first}");
        assert!(took < Duration::from_secs(10), "{took:?} for --time 100");
    }
}

#[test]
fn best_is_reproducible_with_a_node_limit_and_seed() {
    let a = run(&["best", "--nodes", "800", "--seed", "9", START]);
    let b = run(&["best", "--nodes", "800", "--seed", "9", START]);
    assert_eq!(text(&a.stdout), text(&b.stdout));
}

#[test]
fn best_rejects_bad_input_with_one_line() {
    for args in [
        vec!["best", "15/15 O"],
        vec!["best", "--depth", "0", START],
        vec!["best", "--time", "x", START],
        vec!["best", "--threads", "0", START],
        vec!["best", "--jobs", "65", START],
        // A finished position: the ball is on Eks's strip.
        vec![
            "best",
            "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 O H0",
        ],
    ] {
        let out = run(&args);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(out.stdout.is_empty(), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let out = run(&[
        "best",
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 O H0",
    ]);
    assert!(text(&out.stderr).contains("game is over"));
}

#[test]
fn game_against_the_engine_through_stdin() {
    let dir = scratch_dir("game");
    let record = dir.join("game.txt");
    // H9; an unknown point; hint; undo (takes back the engine's reply and
    // H9); H11; save; quit.
    let input = format!("H9\nI5\nhint\nundo\nH11\nsave {}\nquit\n", record.display());
    let out = run_with_input(&["game", "--engine", "X", "--time", "30"], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("O plays H9"), "{stdout}");
    assert!(stdout.contains("Not a move or command: \"I5\""), "{stdout}");
    assert!(stdout.contains("Hint: best "), "{stdout}");
    assert!(stdout.contains("Took back "), "{stdout}");
    assert!(stdout.contains("O plays H11"), "{stdout}");
    // The board is shown at the start, after every move and after undo.
    assert_eq!(stdout.matches("to move\n").count(), 6, "{stdout}");
    let saved: Game = fs::read_to_string(&record).unwrap().parse().unwrap();
    assert_eq!(saved.moves()[0].to_string(), "H11");
    assert_eq!(saved.moves().len(), 2, "H11 and the engine's reply");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn game_reports_an_illegal_move_and_goes_on() {
    // Two people; H9 twice: the second is illegal (a man is there).
    let out = run_with_input(&["game", "--engine", "none"], "H9\nH9\nH10-H8\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Illegal move H9: cannot place a man on H9: a man is already there"),
        "{stdout}"
    );
    assert!(stdout.contains("X plays H10-H8"), "{stdout}");
}

#[test]
fn game_ignores_a_line_that_is_not_utf8_and_goes_on() {
    let dir = scratch_dir("utf8");
    let record = dir.join("game.txt");
    let mut input = b"H9\n\xff\xfe\nH10-H8\n".to_vec();
    input.extend_from_slice(format!("save {}\nquit\n", record.display()).as_bytes());
    let out = run_with_input(&["game", "--engine", "none"], input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("not UTF-8"), "{stdout}");
    assert!(stdout.contains("X plays H10-H8"), "{stdout}");
    let saved: Game = fs::read_to_string(&record).unwrap().parse().unwrap();
    assert_eq!(saved.moves().len(), 2, "H9 and H10-H8 are saved");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn game_ends_with_the_result_and_eof_leaves_cleanly() {
    // Ohs scores at once from the chain position.
    let out = run_with_input(
        &["game", "--engine", "none", "--start", CHAIN],
        "H10-H19\nH5\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("Game over: O wins"), "{stdout}");
    assert!(stdout.contains("The game is over"), "{stdout}");
}

#[test]
fn game_rejects_a_bad_engine_side() {
    let out = run_with_input(&["game", "--engine", "Q"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("expected O, X or none"));
}

#[test]
fn selfplay_writes_results_and_records_without_a_progress_bar() {
    let dir = scratch_dir("selfplay");
    let openings = dir.join("openings.txt");
    // A short board keeps the games short.
    fs::write(&openings, "7/7/7/7/3@3/7/7/7/7 O\n").unwrap();
    let records = dir.join("games");
    let out = run(&[
        "selfplay",
        "--games",
        "2",
        "--time",
        "20",
        "--limit",
        "40",
        "--openings",
        openings.to_str().unwrap(),
        "--out",
        records.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("2 games: O won"), "{stdout}");
    let stderr = text(&out.stderr);
    // stderr is a pipe here: plain lines, no carriage-return bar.
    assert!(!stderr.contains('\r'), "{stderr:?}");
    assert_eq!(
        stderr.lines().filter(|l| l.contains("done")).count(),
        2,
        "{stderr}"
    );
    for n in 1..=2 {
        let path = records.join(format!("game-s1-{n:04}.txt"));
        let game: Game = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .parse()
            .unwrap();
        assert_eq!(game.start().to_string(), "7/7/7/7/3@3/7/7/7/7 O");
        assert_ne!(game.result(), GameResult::Ongoing);
        let line = format!(
            "game {n}: {} in {} moves",
            game.result(),
            game.moves().len()
        );
        assert!(stdout.contains(&line), "{line} not in {stdout}");
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn selfplay_rejects_a_bad_openings_file() {
    let dir = scratch_dir("badopenings");
    let openings = dir.join("openings.txt");
    fs::write(&openings, "7/7 O\n").unwrap();
    let out = run(&[
        "selfplay",
        "--games",
        "1",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("openings.txt:1"),
        "{}",
        text(&out.stderr)
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn selfplay_names_the_line_of_a_finished_opening() {
    let dir = scratch_dir("finishedopening");
    let openings = dir.join("openings.txt");
    // Line 3 (after a comment) is a game Eks has already won.
    fs::write(
        &openings,
        "7/7/7/7/3@3/7/7/7/7 O\n# won\n7/7/7/7/7/7/7/7/3@3 X\n",
    )
    .unwrap();
    let out = run(&[
        "selfplay",
        "--games",
        "1",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("openings.txt:3: the game is already over"),
        "{stderr}"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn game_and_selfplay_start_with_the_rule_options() {
    // Eks moves first from a ball on H8; the record keeps the rules.
    let dir = scratch_dir("rules");
    let record = dir.join("game.txt");
    let input = format!("H9\nsave {}\nquit\n", record.display());
    let out = run_with_input(
        &[
            "game",
            "--engine",
            "none",
            "--first-player",
            "X",
            "--start-point",
            "H8",
        ],
        input,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let saved = fs::read_to_string(&record).unwrap();
    assert!(
        saved.contains("rules first-player=X start-point=H8"),
        "{saved}"
    );
    let game: Game = saved.parse().unwrap();
    assert_eq!(game.positions()[0].ball().to_string(), "H8");
    assert_eq!(game.positions()[0].to_move(), phutball::Side::Eks);

    let records = dir.join("games");
    let out = run(&[
        "selfplay",
        "--games",
        "1",
        "--time",
        "5",
        "--limit",
        "2",
        "--first-player",
        "eks",
        "--start-point",
        "H8",
        "--out",
        records.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let saved = fs::read_to_string(records.join("game-s1-0001.txt")).unwrap();
    assert!(
        saved.contains("rules first-player=X start-point=H8"),
        "{saved}"
    );

    for (args, expected) in [
        (
            &["game", "--first-player", "nobody"][..],
            "--first-player: invalid side",
        ),
        (
            &["selfplay", "--games", "1", "--start-point", "H20"][..],
            "start point H20",
        ),
    ] {
        let out = run_with_input(args, "");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
    }
    let _ = fs::remove_dir_all(&dir);
}

/// The short board of the self-play tests: short games.
const SMALL: &str = "7/7/7/7/3@3/7/7/7/7 O";

/// Runs `selfplay` of 4 short games at 300 nodes a move from SMALL with
/// `extra` arguments, and returns its stdout.
fn selfplay_small(dir: &std::path::Path, extra: &[&str]) -> Output {
    let openings = dir.join("openings.txt");
    fs::write(&openings, format!("{SMALL}\n")).unwrap();
    let mut args = vec![
        "selfplay",
        "--games",
        "4",
        "--nodes",
        "300",
        "--limit",
        "30",
        "--openings",
        openings.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

/// The JSON lines of `file`, without their "time" field (the only one
/// that may differ between two runs).
fn games_without_times(file: &std::path::Path) -> Vec<String> {
    fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|line| line.split(",\"time\":").next().unwrap().to_string())
        .collect()
}

#[test]
fn selfplay_plays_the_same_games_on_one_thread_and_on_two() {
    let dir = scratch_dir("selfplay_jobs");
    let mut runs = Vec::new();
    for jobs in ["1", "2"] {
        let jsonl = dir.join(format!("jobs{jobs}.jsonl"));
        let out = selfplay_small(
            &dir,
            &[
                "--seed",
                "7",
                "--jobs",
                jobs,
                "--jsonl",
                jsonl.to_str().unwrap(),
            ],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        runs.push(games_without_times(&jsonl));
    }
    assert_eq!(runs[0].len(), 4);
    assert_eq!(runs[0], runs[1]);
    // In game order, each with its opening and its moves.
    for (n, line) in runs[0].iter().enumerate() {
        assert!(
            line.starts_with(&format!("{{\"game\":{},\"run_seed\":7,", n + 1)),
            "{line}"
        );
        assert!(line.contains(&format!("\"opening\":\"{SMALL}\"")), "{line}");
        assert!(line.contains("\"moves\":[\""), "{line}");
        // One score, depth and node count per move, beside the moves.
        let list = |key: &str| -> Vec<String> {
            let rest = line.split(&format!("\"{key}\":[")).nth(1).unwrap();
            let items = rest.split(']').next().unwrap();
            items.split(',').map(str::to_string).collect()
        };
        let plies: usize = line.split("\"plies\":").nth(1).unwrap().parse().unwrap();
        for key in ["moves", "scores", "depths", "nodes"] {
            assert_eq!(list(key).len(), plies, "{key}: {line}");
        }
        // The last move of a won game scored, and its search said so.
        if !line.contains("\"result\":\"draw\"") {
            assert_eq!(list("scores").last().unwrap(), "\"win in 1\"", "{line}");
        }
        assert!(
            list("depths").iter().any(|d| d.parse::<u32>().unwrap() > 0),
            "{line}"
        );
    }
    // Another seed, other games.
    let other = dir.join("seed8.jsonl");
    let out = selfplay_small(&dir, &["--seed", "8", "--jsonl", other.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_ne!(games_without_times(&other), runs[0]);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn selfplay_random_openings_give_each_game_its_own() {
    let dir = scratch_dir("selfplay_random");
    let jsonl = dir.join("random.jsonl");
    let out = run(&[
        "selfplay",
        "--games",
        "3",
        "--nodes",
        "50",
        "--limit",
        "4",
        "--seed",
        "6",
        "--random-openings",
        "--jsonl",
        jsonl.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let openings: Vec<String> = games_without_times(&jsonl)
        .iter()
        .map(|line| {
            let seed: u64 = line
                .split("\"seed\":")
                .nth(1)
                .unwrap()
                .split(',')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            let opening = line
                .split("\"opening\":\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            // Game i's opening comes from its seed alone.
            assert_eq!(
                opening,
                phutball_engine::random_opening(seed, 0).to_string()
            );
            opening.to_string()
        })
        .collect();
    assert_eq!(openings.len(), 3);
    assert!(openings[0] != openings[1] && openings[1] != openings[2] && openings[0] != openings[2]);
    for (args, expected) in [
        (&["--openings", "x.txt"][..], "cannot be used with"),
        (&["--first-player", "X"][..], "the standard rules"),
    ] {
        let mut all = vec![
            "selfplay",
            "--games",
            "1",
            "--nodes",
            "10",
            "--random-openings",
        ];
        all.extend_from_slice(args);
        let out = run(&all);
        assert!(!out.status.success(), "{args:?}");
        assert!(
            text(&out.stderr).contains(expected),
            "{}",
            text(&out.stderr)
        );
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn selfplay_runs_sharing_a_folder_never_overwrite_each_other() {
    let dir = scratch_dir("selfplay_collide");
    let records = dir.join("games");
    let out_dir = records.to_str().unwrap();
    for seed in ["1", "2"] {
        let out = selfplay_small(&dir, &["--seed", seed, "--jobs", "2", "--out", out_dir]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let files = || {
        let mut names: Vec<(String, String)> = fs::read_dir(&records)
            .unwrap()
            .map(|e| {
                let path = e.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                (name, fs::read_to_string(&path).unwrap())
            })
            .collect();
        names.sort();
        names
    };
    let before = files();
    assert_eq!(
        before.len(),
        8,
        "{:?}",
        before.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    // The same seed again is refused before it plays, and nothing changes.
    let out = selfplay_small(&dir, &["--seed", "2", "--out", out_dir]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("never overwrites"),
        "{}",
        text(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    assert_eq!(files(), before);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn analyse_answers_in_the_order_of_the_file() {
    let dir = scratch_dir("analyse_order");
    let small: Position = SMALL.parse().unwrap();
    let mut positions: Vec<String> = ["D6", "C4", "E5", "D3", "B2", "F7"]
        .iter()
        .map(|m| small.play(&m.parse().unwrap()).unwrap().to_string())
        .collect();
    positions.push(CHAIN.to_string());
    let file = dir.join("positions.txt");
    fs::write(&file, positions.join("\n") + "\n").unwrap();
    let all = run(&[
        "analyse",
        "--nodes",
        "400",
        "--jobs",
        "2",
        file.to_str().unwrap(),
    ]);
    assert!(all.status.success(), "{}", text(&all.stderr));
    let lines: Vec<String> = text(&all.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), positions.len());
    // Each line is what the position gets when it is analysed alone.
    for (i, pos) in positions.iter().enumerate() {
        let one = dir.join(format!("one{i}.txt"));
        fs::write(&one, format!("{pos}\n")).unwrap();
        let alone = run(&[
            "analyse",
            "--nodes",
            "400",
            "--jobs",
            "1",
            one.to_str().unwrap(),
        ]);
        assert_eq!(
            text(&alone.stdout).trim_end(),
            lines[i],
            "position {}",
            i + 1
        );
    }
    assert_eq!(
        lines.last().unwrap(),
        "H10-H19 score win in 1 depth 0 nodes 1 can-score 1"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn analyse_reports_a_finished_position_in_its_place() {
    let dir = scratch_dir("analyse_finished");
    let file = dir.join("positions.txt");
    fs::write(&file, format!("{SMALL}\n7/7/7/7/7/7/7/7/3@3 X\n{SMALL}\n")).unwrap();
    let out = run(&["analyse", "--nodes", "100", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines[1].starts_with("error: the game is over"), "{stdout}");
    assert_eq!(lines[0], lines[2]);
    assert!(
        text(&out.stderr).contains("positions.txt:2:"),
        "{}",
        text(&out.stderr)
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn solve_prints_a_proved_win_or_loss_and_its_line_or_unknown() {
    // Issue 15's position: Ohs wins in three with G19, H18, H19 or J19.
    let issue = "15/15/7#7/15/7#2#4/15/7#2#4/5#1@7/15/5#9/7#7/7#7/7#7/15/15/15/15/15/15 O";
    let eks_chain = CHAIN.replace(" O", " X");
    // Middle game 3 of docs/engine.md: a win in five by the threat J19.
    let five = "15/9@5/9#5/15/15/15/11#3/15/6#4#3/15/7#7/15/15/15/15/15/15/15/15 O";
    let input = format!("{CHAIN}\n{issue}\n{eks_chain}\n{START}\n{five}\n");
    let out = run_with_input(&["solve", "--timeout", "300", "-"], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "win in 1: H10-H19");
    let (kind, line) = lines[1].split_once(": ").expect("a result and a line");
    assert_eq!(kind, "win in 3");
    let first = line.split(' ').next().unwrap();
    assert!(["G19", "H18", "H19", "J19"].contains(&first), "{first}");
    assert!(lines[2].starts_with("loss in 2: "), "{}", lines[2]);
    assert_eq!(lines[3], "unknown");
    // Five plies found by the deepening search bound the win: a shorter
    // one is not ruled out (`win in 3` above is: no scoring jump now).
    assert!(lines[4].starts_with("win within 5: J19"), "{}", lines[4]);
    assert_eq!(lines.len(), 5);
    let finished = run(&[
        "solve",
        "7@7/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 X",
    ]);
    assert!(!finished.status.success());
    // Wins of any length: 1x3 (exact: no win in one), the 7x7 start (the
    // deepening search's win within 7 when its fifth of the time
    // suffices, else the prover's bound, 17) and the 9x9 start (the
    // prover's). Bounds say `within`.
    let out = run_with_input(
        &["solve", "--timeout", "5000", "-"],
        "start:1x3\nstart:7x7\nstart:9x9\n",
    );
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("win in 3: "), "{stdout}");
    assert!(
        lines[1].starts_with("win within 7: D6") || lines[1].starts_with("win within 17: "),
        "{stdout}"
    );
    assert!(lines[2].starts_with("win within 23: "), "{stdout}");
}

/// The engine's settings and the picture's width are checked by the one
/// table C and Python use (`phutball_engine::LimitSetting`,
/// `phutball::svg_width`): a value they refuse is refused here too, with
/// one `phutball:` line naming the option and exit status 1.
#[test]
fn values_c_and_python_refuse_are_refused_with_one_line() {
    for (args, says) in [
        (
            &["best", "--nodes", "0", "start"][..],
            "--nodes must be at least 1, not 0",
        ),
        (
            &["best", "--time", "0", "start"],
            "--time must be at least 1, not 0",
        ),
        (
            &["best", "--depth", "65", "start"],
            "--depth must be from 1 to 64, not 65",
        ),
        (
            &["best", "--jobs", "65", "start"],
            "--jobs must be from 1 to 64, not 65",
        ),
        // `--threads`, best's name for --jobs before, is checked as --jobs.
        (
            &["best", "--threads", "65", "start"],
            "--jobs must be from 1 to 64, not 65",
        ),
        (
            &["selfplay", "--games", "1", "--nodes", "0"],
            "--nodes must be at least 1, not 0",
        ),
        (&["game", "--time", "0"], "--time must be at least 1, not 0"),
        (
            &["svg", "--size", "4294967295", "start"],
            "width must be from 1 to 65536 pixels, not 4294967295",
        ),
        (
            &["svg", "--size", "0", "start"],
            "width must be from 1 to 65536 pixels, not 0",
        ),
        // Not a number, or a negative one: said so, not only the range.
        (
            &["best", "--time", "abc", "start"],
            "--time must be a whole number at least 1, not abc",
        ),
        (
            &["best", "--nodes", "-5", "start"],
            "--nodes must be a whole number at least 1, not -5",
        ),
        (
            &["solve", "--timeout", "-5", "start"],
            "--timeout takes milliseconds, a whole number 0 or more (or `none` for no limit), not -5",
        ),
        (
            &["analyse", "--jobs", "-2", "x.txt"],
            "--jobs must be a whole number, at least 1, not -2",
        ),
    ] {
        let out = run(args);
        // The argument parser's status (docs/cli.md), in one line.
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("phutball: ") && err.contains(says),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // The ends of the ranges still work.
    let out = run(&[
        "best", "--nodes", "1", "--depth", "64", "--time", "1", "start",
    ]);
    assert!(out.status.success());
    let out = run(&["svg", "--size", "65536", "start"]);
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("width=\"65536\""));
}
