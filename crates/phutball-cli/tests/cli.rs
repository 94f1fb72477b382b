//! The `phutball` command's contract: what each subcommand prints on stdout,
//! that timings go to stderr, and that bad input gives a one-line error and a
//! non-zero exit status, never a panic.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{fixture, fixture_position};
use phutball::fixtures::{self, Fixture, ScoreFigure};

mod common;

const START: &str = "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O";
/// The seeds' example: ball K6, men J7 H8 G10 H11, Ohs to move.
const SEEDS: &str = "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O";
/// Ball G18, men H19 J19, Eks to move: G18-J20 ends the move unless the
/// ball may jump on off the board (then G18-J20-J18 too).
const NEAR_TOP: &str = "7##6/6@8/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 X";

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_phutball"))
        .args(args)
        .output()
        .expect("the phutball binary runs")
}

/// Runs a command that must succeed, and returns its stdout.
fn stdout_of(args: &[&str]) -> String {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// Runs a command that must fail with a one-line error, and returns that line.
fn error_of(args: &[&str]) -> String {
    let out = run(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert_eq!(out.status.code(), Some(1), "{args:?}: {:?}", out.status);
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    let stderr = String::from_utf8(out.stderr).expect("stderr is UTF-8");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    assert!(!stderr.contains("RUST_BACKTRACE"), "{args:?}: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: not one line: {stderr}");
    assert!(lines[0].starts_with("phutball: "), "{args:?}: {stderr}");
    lines[0].to_string()
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

fn sorted(text: &str) -> Vec<&str> {
    let mut v = lines(text);
    v.sort_unstable();
    v
}

/// A file with `text` in the system's temporary directory, unique to this run.
fn temp_file(text: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let path =
        std::env::temp_dir().join(format!("phutball-cli-test-{}-{n}.pos", std::process::id()));
    fs::write(&path, text).expect("the temporary directory is writable");
    path
}

/// The first `n` records of a fixture file as a file of bare position
/// strings, and the lines `count` prints for them: `<paths> <outcomes>
/// <can-score 1|0>`, from the records' figures.
fn first_records(name: &str, n: usize) -> (PathBuf, String) {
    let records: Vec<Fixture> = fixture(name).into_iter().take(n).collect();
    let positions: String = records
        .iter()
        .map(|r| format!("{}\n", r.position))
        .collect();
    (temp_file(&positions), count_lines(&records))
}

/// What `count` prints for `records`, from their figures.
fn count_lines(records: &[Fixture]) -> String {
    records
        .iter()
        .map(|r| {
            let score = match r.score.and_then(ScoreFigure::known) {
                Some(can) => u8::from(can),
                None => panic!("line {}: no decided score figure", r.line),
            };
            format!("{} {} {score}\n", r.paths.unwrap(), r.outcomes.unwrap())
        })
        .collect()
}

#[test]
fn jumps_prints_every_path() {
    let out = stdout_of(&["jumps", SEEDS]);
    assert_eq!(sorted(&out), ["K6-G9", "K6-G9-G11", "K6-G9-G11-J11"]);
    assert_eq!(stdout_of(&["jumps", START]), "");
}

#[test]
fn jumps_with_outcomes_prints_one_path_per_outcome() {
    let out = stdout_of(&["jumps", "--outcomes", SEEDS]);
    assert_eq!(sorted(&out), ["K6-G9", "K6-G9-G11", "K6-G9-G11-J11"]);
    // Record 2 of jumps-24: 5104 paths reach 3267 distinct positions.
    let record = &fixture("jumps-24.fixture")[1];
    let pos = record.position.to_string();
    let paths = stdout_of(&["jumps", &pos]);
    let outcomes = stdout_of(&["jumps", "--outcomes", &pos]);
    assert_eq!(Some(lines(&paths).len() as u64), record.paths);
    assert_eq!(Some(lines(&outcomes).len() as u64), record.outcomes);
    // Every outcome path is one of the paths.
    let all: std::collections::HashSet<&str> = lines(&paths).into_iter().collect();
    assert!(lines(&outcomes).iter().all(|p| all.contains(p)));
}

#[test]
fn jumps_off_the_board_follow_the_rule_option() {
    assert_eq!(lines(&stdout_of(&["jumps", NEAR_TOP])), ["G18-J20"]);
    let out = stdout_of(&["jumps", "--continue-off-board", NEAR_TOP]);
    assert_eq!(sorted(&out), ["G18-J20", "G18-J20-J18"]);
    let out = stdout_of(&["jumps", "--outcomes", "--continue-off-board", NEAR_TOP]);
    assert_eq!(sorted(&out), ["G18-J20", "G18-J20-J18"]);
}

#[test]
fn play_prints_the_resulting_position() {
    // Ohs places H9, Eks jumps it: ball H8, no men, Ohs to move.
    let expected = "15/15/15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15 O\n";
    assert_eq!(stdout_of(&["play", START, "H9", "H10-H8"]), expected);
    assert_eq!(
        stdout_of(&["play", SEEDS, "K6-G9-G11-J11"]),
        "15/15/15/15/15/15/15/15/8@6/15/15/15/15/15/15/15/15/15/15 X\n"
    );
    // A jump off the top ends the game; the ball's point is the third field.
    assert_eq!(
        stdout_of(&["play", NEAR_TOP, "G18-J20"]),
        "8#6/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 O J20\n"
    );
}

#[test]
fn moves_lists_placements_then_jumps() {
    let out = stdout_of(&["moves", START]);
    assert_eq!(lines(&out).len(), 284);
    assert!(lines(&out).iter().all(|m| !m.contains('-')));
    let out = stdout_of(&["moves", SEEDS]);
    let moves = lines(&out);
    assert_eq!(moves.len(), 15 * 19 - 4 - 1 + 3);
    let mut jumps: Vec<&str> = moves[moves.len() - 3..].to_vec();
    jumps.sort_unstable();
    assert_eq!(jumps, ["K6-G9", "K6-G9-G11", "K6-G9-G11-J11"]);
    assert!(!moves.contains(&"K6") && !moves.contains(&"J7"));
    // A finished position has no moves.
    let over = stdout_of(&["play", NEAR_TOP, "G18-J20"]);
    assert_eq!(stdout_of(&["moves", over.trim()]), "");
}

#[test]
fn show_draws_the_board() {
    let out = stdout_of(&["show", START]);
    assert!(out.contains("A B C D E F G H J K L M N O P"), "{out}");
    assert!(out.contains("Ohs (O) to move"), "{out}");
    // Rows 0 to 20 and the two column headers.
    assert!(lines(&out).len() >= 21 + 2, "{out}");
    let row_10 = lines(&out)
        .into_iter()
        .find(|l| l.trim_start().starts_with("10 "))
        .unwrap();
    assert!(row_10.contains('@'), "{row_10}");
    let over = stdout_of(&["play", NEAR_TOP, "G18-J20"]);
    let out = stdout_of(&["show", over.trim()]);
    assert!(out.contains("Game over: Ohs (O) has won"), "{out}");
}

#[test]
fn a_misspelt_start_gets_a_suggestion() {
    for (typo, meant) in [("strat", "start"), ("strat:9x9", "start:9x9")] {
        let err = error_of(&["show", typo]);
        assert!(err.contains(&format!("did you mean `{meant}`?")), "{err}");
    }
    // Not a near miss: the position string's own fault, no guess.
    let err = error_of(&["show", "15/15"]);
    assert!(!err.contains("did you mean"), "{err}");
}

#[test]
fn svg_prints_the_cores_picture_of_the_options() {
    let pos: phutball::Position = SEEDS.parse().unwrap();
    let mut moves = vec!["H9".parse().unwrap()];
    moves.extend(pos.jump_paths().unwrap());
    let options = phutball::SvgOptions {
        moves,
        highlight: vec!["A1".parse().unwrap()],
        flip: true,
        width: std::num::NonZeroU32::new(300),
        ..phutball::SvgOptions::default()
    };
    let args = [
        "svg",
        "--move",
        "H9",
        "--jumps",
        "--highlight",
        "A1",
        "--flip",
        "--size",
        "300",
        SEEDS,
    ];
    assert_eq!(stdout_of(&args), pos.svg(&options).unwrap());
    let plain = stdout_of(&["svg", SEEDS]);
    assert!(
        plain.starts_with("<svg ") && plain.ends_with("</svg>\n"),
        "{plain}"
    );
    let error = error_of(&["svg", "--move", "A1-Z9", SEEDS]);
    assert!(
        error.contains("a jump must start at the ball on K6, not at A1"),
        "{error}"
    );
    let error = error_of(&["svg", "--highlight", "Q3", SEEDS]);
    assert!(
        error.contains("Q3 is not a point of the 15x19 board"),
        "{error}"
    );
    assert!(!run(&["svg", "--size", "0", SEEDS]).status.success());
}

#[test]
fn perft_prints_the_count_and_times_on_stderr() {
    let out = run(&["perft", START, "2"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "80380\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("perft 2"));
    assert_eq!(stdout_of(&["perft", START, "1"]), "284\n");
    assert_eq!(stdout_of(&["perft", START, "0"]), "1\n");
    assert_eq!(stdout_of(&["perft", SEEDS, "1"]), "283\n");
}

#[test]
fn count_prints_the_expected_figures() {
    let (file, expected) = first_records("jumps-24.fixture", 6);
    let file = file.to_str().unwrap();
    let out = run(&["count", file]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("6 positions x 1"), "{stderr}");
    assert!(
        !stderr.contains('\n') || lines(&stderr).len() == 1,
        "{stderr}"
    );

    let field = |n: usize| -> String {
        expected
            .lines()
            .map(|l| l.split_whitespace().nth(n).unwrap().to_string() + "\n")
            .collect()
    };
    assert_eq!(stdout_of(&["count", "--paths", file]), field(0));
    assert_eq!(stdout_of(&["count", "--outcomes", file]), field(1));
    assert_eq!(stdout_of(&["count", "--score", file]), field(2));
    // Repeating does the work again but prints the figures once.
    let out = run(&["count", "--repeat", "3", "--outcomes", file]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), field(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("6 positions x 3"));
    let _ = fs::remove_file(file);
}

#[test]
fn count_finds_scores_and_proves_their_absence() {
    let (file, expected) = first_records("score-16.fixture", 16);
    let file = file.to_str().unwrap();
    let scores: String = expected
        .lines()
        .map(|l| l.split_whitespace().nth(2).unwrap().to_string() + "\n")
        .collect();
    assert_eq!(stdout_of(&["count", "--score", file]), scores);
    let _ = fs::remove_file(file);
}

/// `count` reads the fixture format too (the README's benchmark commands
/// point at the fixture files): the figure lines and comments are skipped,
/// and the figures printed, and the stderr line numbers, are those of the
/// position lines.
#[test]
fn count_reads_fixture_files_and_prints_what_it_prints_for_bare_positions() {
    let records: Vec<Fixture> = fixture("jumps-24.fixture").into_iter().take(6).collect();
    let mut text = String::from("# the first six records of jumps-24\n");
    for record in &records {
        text += &format!("\n{record}");
    }
    let written = temp_file(&text);
    let written = written.to_str().unwrap();
    let (bare, expected) = first_records("jumps-24.fixture", 6);
    let bare = bare.to_str().unwrap();
    for figures in [&[][..], &["--paths"], &["--outcomes"], &["--score"]] {
        let args = |file| [&["count"][..], figures, &[file]].concat();
        assert_eq!(
            stdout_of(&args(written)),
            stdout_of(&args(bare)),
            "{figures:?}"
        );
    }
    assert_eq!(stdout_of(&["count", written]), expected);
    assert_eq!(fixtures::parse(&text).unwrap().len(), 6);

    // The project's file itself, as the README's commands run it.
    let score_16 = fixtures::path("score-16.fixture");
    let scores: String = fixture("score-16.fixture")
        .iter()
        .map(|r| {
            format!(
                "{}\n",
                u8::from(r.score.and_then(ScoreFigure::known).unwrap())
            )
        })
        .collect();
    assert_eq!(
        stdout_of(&["count", "--score", score_16.to_str().unwrap()]),
        scores
    );

    // A bad figure line is a one-line error naming the file and the line.
    let bad = temp_file(&format!("{SEEDS}\npaths 3\nscore perhaps\n"));
    let e = error_of(&["count", bad.to_str().unwrap()]);
    assert!(
        e.ends_with(":3: bad score figure \"score perhaps\": expected yes, no or undecided"),
        "{e}"
    );
    let unknown = temp_file(&format!("{SEEDS}\nhello world\n"));
    let e = error_of(&["count", unknown.to_str().unwrap()]);
    assert!(
        e.contains(":2: \"hello world\" is neither a position string nor a figure"),
        "{e}"
    );
    for file in [
        written,
        bare,
        bad.to_str().unwrap(),
        unknown.to_str().unwrap(),
    ] {
        let _ = fs::remove_file(file);
    }
}

/// Each record of a fixture file is one line of output, and an error names
/// the line of the file.
#[test]
fn count_on_a_fixture_names_the_position_line() {
    let file = temp_file(&format!(
        "# two records\n{SEEDS}\npaths 3\n\n{SEEDS}\nscore no\n"
    ));
    let file = file.to_str().unwrap();
    assert_eq!(stdout_of(&["count", file]), "3 3 0\n3 3 0\n");
    let e = error_of(&["count", &format!("{file}x")]);
    assert!(e.contains("cannot read"), "{e}");
    let bad = temp_file(&format!("# a bad position\n{SEEDS}\npaths 3\n3/1@x/3 O\n"));
    let e = error_of(&["count", bad.to_str().unwrap()]);
    assert!(e.contains(":4: "), "{e}");
    let _ = fs::remove_file(file);
    let _ = fs::remove_file(bad);
}

#[test]
fn count_skips_blank_lines_and_follows_the_rule_option() {
    let file = temp_file(&format!("\n{NEAR_TOP}\n\n{SEEDS}\n"));
    let file = file.to_str().unwrap();
    assert_eq!(stdout_of(&["count", file]), "1 1 0\n3 3 0\n");
    assert_eq!(
        stdout_of(&["count", "--continue-off-board", file]),
        "2 2 0\n3 3 0\n"
    );
    let _ = fs::remove_file(file);
}

#[test]
fn malformed_positions_are_one_line_errors() {
    for bad in [
        "",
        "15/15 O",
        "3/1@1/4 X",
        "3/@1@/3 O",
        "3/3/3 O",
        "3/1@1/3 Q",
        "3/1@x/3 O",
        "99999999999999999999/1@1/3 O",
    ] {
        for command in [
            &["jumps", bad][..],
            &["moves", bad],
            &["show", bad],
            &["perft", bad, "1"],
        ] {
            let e = error_of(command);
            assert!(e.contains("position"), "{command:?}: {e}");
        }
    }
}

#[test]
fn bad_moves_are_one_line_errors() {
    let e = error_of(&["play", START, "I5"]);
    assert!(e.contains("I5") && e.contains("column I"), "{e}");
    let e = error_of(&["play", START, "Z99"]);
    assert!(e.contains("Z99"), "{e}");
    let e = error_of(&["play", START, "H10"]);
    assert!(
        e.contains("illegal") && e.contains("the ball is there"),
        "{e}"
    );
    let e = error_of(&["play", SEEDS, "J7"]);
    assert!(e.contains("a man is already there"), "{e}");
    let e = error_of(&["play", SEEDS, "K6-G9-J9-G7"]);
    assert!(e.contains("move 1") && e.contains("H9 holds no man"), "{e}");
    let e = error_of(&["play", START, "H9", "H9"]);
    assert!(e.contains("move 2"), "{e}");
    let e = error_of(&["play", START, "Q10"]);
    assert!(e.contains("Q10"), "{e}");
    let e = error_of(&["play", NEAR_TOP, "G18-J20", "A5"]);
    assert!(e.contains("game is over"), "{e}");
    let e = error_of(&["play", NEAR_TOP, "G18-J20-J18"]);
    assert!(e.contains("off the board"), "{e}");
    let e = error_of(&["play", START, "H10--H8"]);
    assert!(e.contains("H10--H8"), "{e}");
}

#[test]
fn bad_count_files_are_one_line_errors() {
    let missing = std::env::temp_dir().join("phutball-cli-test-no-such-file.pos");
    let e = error_of(&["count", missing.to_str().unwrap()]);
    assert!(e.contains("cannot read"), "{e}");
    let file = temp_file(&format!("{SEEDS}\n3/1@x/3 O\n"));
    let e = error_of(&["count", file.to_str().unwrap()]);
    assert!(e.contains(":2:"), "{e}");
    let _ = fs::remove_file(file);
}

#[test]
fn bad_arguments_are_rejected_without_a_panic() {
    for args in [
        &["count", "--repeat", "0", "x.pos"][..],
        &["count", "--paths", "--outcomes", "x.pos"],
        &["perft", START, "-1"],
        &["perft", START, "deep"],
        &["play", START],
        &["fly"],
        &[],
    ] {
        let out = run(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn finished_positions_have_no_moves_and_empty_files_no_lines() {
    // Eks has scored (the ball is on row 1): no move is legal, so every list is
    // empty and perft counts only the empty sequence.
    let finished = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/7@7 X";
    assert!(stdout_of(&["show", finished]).contains("Eks (X) has won"));
    assert_eq!(stdout_of(&["moves", finished]), "");
    assert_eq!(stdout_of(&["jumps", finished]), "");
    assert_eq!(stdout_of(&["perft", finished, "3"]), "0\n");
    assert_eq!(stdout_of(&["perft", finished, "0"]), "1\n");
    let e = error_of(&["play", finished, "H9"]);
    assert!(e.contains("game is over"), "{e}");
    let empty = temp_file("");
    assert_eq!(stdout_of(&["count", empty.to_str().unwrap()]), "");
    let _ = fs::remove_file(empty);
    let e = error_of(&["count", std::env::temp_dir().to_str().unwrap()]);
    assert!(e.contains("cannot read"), "{e}");
}

#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let line = fixture_position("jumps-24.fixture", 1);
    let mut child = Command::new(env!("CARGO_BIN_EXE_phutball"))
        .args(["jumps", &line])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{:?}", output.status);
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Every command that reads positions takes every rule option, each value
/// read by the core; a bad value is one line naming the option, status 1.
#[test]
fn every_rule_option_is_accepted_and_bad_values_are_one_line() {
    /// `command`, then `options`, then `position` and what the command needs after it.
    fn args<'a>(command: &'a str, options: &[&'a str], position: &'a str) -> Vec<&'a str> {
        let mut args = vec![command];
        args.extend(options);
        args.push(position);
        match command {
            "perft" => args.push("1"),
            "play" => args.push("H9"),
            "best" => args.extend(["--nodes", "10"]),
            _ => {}
        }
        args
    }
    let commands = ["jumps", "moves", "show", "perft", "play", "best"];
    let rule_options: [&[&str]; 3] = [
        &["--continue-off-board"],
        &["--first-player", "eks"],
        &["--start-point", "H8"],
    ];
    for options in rule_options {
        for command in commands {
            stdout_of(&args(command, options, SEEDS));
        }
    }
    let all = [
        "--continue-off-board",
        "--first-player",
        "X",
        "--start-point",
        "H8",
    ];
    let jumps = stdout_of(&args("jumps", &all, NEAR_TOP));
    assert_eq!(sorted(&jumps), ["G18-J20", "G18-J20-J18"]);

    let cases: [(&[&str], &str); 5] = [
        (
            &["--first-player", "Q"],
            r#"--first-player: invalid side "Q""#,
        ),
        (&["--first-player", ""], "--first-player: invalid side"),
        (
            &["--start-point", "I5"],
            "--start-point: invalid point \"I5\"",
        ),
        (
            &["--start-point", "Z26"],
            "start point Z26 is outside the 15x19 board",
        ),
        (
            &["--start-point", "H19"],
            "start point H19 must lie strictly between the goal lines",
        ),
    ];
    for (options, expected) in cases {
        for command in commands {
            let args = args(command, options, START);
            let line = error_of(&args);
            assert!(line.contains(expected), "{args:?}: {line}");
        }
    }
}
