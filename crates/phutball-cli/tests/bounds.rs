//! The search commands' bounds: `--timeout MS` ends a search with one line
//! on stderr and exit status 3, `--memory-limit SIZE` with exit status 4;
//! `count` applies both per line and prints `?` for what it could not decide.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use phutball::fixtures::ScoreFigure;

mod common;

/// The seeds' example: ball K6, men J7 H8 G10 H11, Ohs to move (3 jumps, no score).
const SEEDS: &str = "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O";
/// Ball H10, men H11..H18: Ohs scores by jumping them all.
const CHAIN: &str = "15/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15 O";
/// `crates/phutball/tests/data/hard-32.fixture` record 13 (`score
/// undecided`): no can-score search of this project has decided it (not
/// within 6,000 million landings), so a bounded one gives up.
fn undecided() -> String {
    let record = &common::fixture("hard-32.fixture")[12];
    assert_eq!(record.score, Some(ScoreFigure::Undecided));
    record.position.to_string()
}

/// How long past its timeout a command may take to stop: generous, for a
/// debug build on a busy machine.
const GRACE: Duration = Duration::from_secs(10);

/// A 25x25 board with men on every other point (a checkerboard) and the
/// ball on a vacant point in the middle: its jumps and outcomes are far too
/// many to list (billions of paths; the outcomes' state set grows past any
/// small memory limit).
fn checkerboard() -> String {
    let n = 25;
    let rows: Vec<String> = (1..=n)
        .rev()
        .map(|row| {
            let mut text = String::new();
            let mut vacant = 0;
            for col in 0..n {
                let ch = if (row + col) % 2 == 0 {
                    Some('#')
                } else if row == 13 && col == 12 {
                    Some('@')
                } else {
                    None
                };
                match ch {
                    None => vacant += 1,
                    Some(ch) => {
                        if vacant > 0 {
                            text += &vacant.to_string();
                            vacant = 0;
                        }
                        text.push(ch);
                    }
                }
            }
            if vacant > 0 {
                text += &vacant.to_string();
            }
            text
        })
        .collect();
    rows.join("/") + " O"
}

fn run(args: &[&str]) -> (Output, Duration) {
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_phutball"))
        .args(args)
        .output()
        .expect("the phutball binary runs");
    (out, started.elapsed())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// Runs a command that must give up with `status`, saying so in one line
/// that mentions `needle`; returns its stdout.
fn gives_up(args: &[&str], status: i32, needle: &str, within: Duration) -> String {
    let (out, took) = run(args);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(status), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: not one line: {stderr}");
    assert!(lines[0].starts_with("phutball: "), "{args:?}: {stderr}");
    assert!(lines[0].contains(needle), "{args:?}: {stderr}");
    assert!(lines[0].len() < 300, "{args:?}: {stderr}");
    assert!(took < within, "{args:?} took {took:?}");
    text(&out.stdout)
}

/// A file with `text` in the system's temporary directory, unique to this run.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "phutball-cli-bounds-{}-{name}.pos",
        std::process::id()
    ));
    fs::write(&path, text).expect("the temporary directory is writable");
    path
}

#[test]
fn every_search_command_times_out_with_status_3_and_one_line() {
    let board = checkerboard();
    let undecided = undecided();
    let hard = temp_file("timeout", &format!("{undecided}\n"));
    let hard = hard.to_str().unwrap();
    for args in [
        &["jumps", "--timeout", "100", &board][..],
        &["jumps", "--outcomes", "--timeout", "100", &board],
        &["moves", "--timeout", "100", &board],
        &["perft", "--timeout", "100", &board, "2"],
        &["show", "--timeout", "100", &undecided],
    ] {
        gives_up(
            args,
            3,
            "timed out after 100 ms",
            Duration::from_millis(100) + GRACE,
        );
    }
    // count goes on with the next line, then says how many figures are "?".
    let (out, took) = run(&["count", "--score", "--timeout", "100", hard]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert_eq!(text(&out.stdout), "?\n");
    assert!(
        stderr.contains(":1: can-score: timed out after 100 ms"),
        "{stderr}"
    );
    assert!(took < Duration::from_millis(100) + GRACE, "took {took:?}");
    // A timeout of 0 gives up before any work, even on an easy position.
    for args in [
        &["jumps", "--timeout", "0", SEEDS][..],
        &["moves", "--timeout", "0", SEEDS],
        &["perft", "--timeout", "0", SEEDS, "1"],
        &["show", "--timeout", "0", SEEDS],
    ] {
        gives_up(args, 3, "timed out after 0 ms", GRACE);
    }
    let _ = fs::remove_file(hard);
}

#[test]
fn streaming_commands_print_what_they_found_before_the_timeout() {
    let board = checkerboard();
    let out = gives_up(
        &["moves", "--timeout", "300", &board],
        3,
        "moves: timed out",
        GRACE,
    );
    let moves: Vec<&str> = out.lines().collect();
    // Every vacant point but the ball's is a placement, printed first: the
    // checkerboard has 312 men (12 or 13 a row).
    let placements = 25 * 25 - 312 - 1;
    assert!(moves.len() > placements, "{} lines", moves.len());
    assert!(moves[..placements].iter().all(|m| !m.contains('-')));
    assert!(moves[placements..].iter().all(|m| m.contains('-')));
    let out = gives_up(
        &["jumps", "--timeout", "300", &board],
        3,
        "jumps: timed out",
        GRACE,
    );
    assert!(out.lines().count() > 0 && out.lines().all(|m| m.contains('-')));
}

#[test]
fn moves_streams_the_placements_then_the_jump_outcomes() {
    for pos in [
        SEEDS,
        CHAIN,
        &common::fixture_position("jumps-24.fixture", 2),
    ] {
        let (moves, _) = run(&["moves", pos]);
        assert!(moves.status.success());
        let (jumps, _) = run(&["jumps", "--outcomes", pos]);
        assert!(jumps.status.success());
        let moves = text(&moves.stdout);
        let jumps = text(&jumps.stdout);
        assert!(moves.ends_with(&jumps), "{pos}");
        let placed = &moves[..moves.len() - jumps.len()];
        assert!(placed.lines().all(|m| !m.contains('-')), "{pos}");
        assert!(jumps.lines().all(|m| m.contains('-')), "{pos}");
    }
}

#[test]
fn over_the_memory_limit_is_a_clean_error_with_status_4() {
    let board = checkerboard();
    let out = gives_up(
        &["moves", "--memory-limit", "1M", &board],
        4,
        "over the memory limit of 1 MiB",
        GRACE,
    );
    // The placements came out before the jumps ran out of memory.
    assert!(out.lines().count() >= 25 * 25 / 2, "{out}");
    gives_up(
        &["perft", "--memory-limit", "1M", &board, "2"],
        4,
        "over the memory limit of 1 MiB",
        GRACE,
    );
    gives_up(
        &["jumps", "--outcomes", "--memory-limit", "1M", &board],
        4,
        "over the memory limit",
        GRACE,
    );
    // Within the limit, the same command succeeds.
    let (out, _) = run(&["moves", "--memory-limit", "1M", SEEDS]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 15 * 19 - 4 - 1 + 3);
}

#[test]
fn count_gives_each_line_its_own_timeout() {
    // hard-32 records 1 and 2, issue 9's positions: the can-score search
    // before issue 9 ran for minutes on the first; the second can score,
    // found after 7-34 s.
    let hard_1 = common::fixture_position("hard-32.fixture", 1);
    let hard_2 = common::fixture_position("hard-32.fixture", 2);
    let file = temp_file("hard", &format!("{hard_1}\n{SEEDS}\n{hard_2}\n"));
    let file = file.to_str().unwrap();
    let (out, took) = run(&["count", "--timeout", "1000", file]);
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(took < Duration::from_secs(3) + GRACE, "took {took:?}");
    let rows: Vec<Vec<&str>> = stdout.lines().map(|l| l.split(' ').collect()).collect();
    assert_eq!(rows.len(), 3, "{stdout}");
    // The easy line is decided in full.
    assert_eq!(rows[1], ["3", "3", "0"]);
    // A hard line: each figure a number, or "?" with its reason on stderr.
    let mut unknown = 0;
    for (row, number) in [(&rows[0], 1), (&rows[2], 3)] {
        assert_eq!(row.len(), 3, "{stdout}");
        for (figure, name) in row.iter().zip(["paths", "outcomes", "can-score"]) {
            if *figure == "?" {
                unknown += 1;
                let reason = format!(":{number}: {name}: timed out after 1000 ms");
                assert!(stderr.contains(&reason), "{reason}: {stderr}");
            } else {
                figure.parse::<u64>().expect("a figure or ?");
            }
        }
        // The second can score: a decided can-score must say so.
        if number == 3 && row[2] != "?" {
            assert_eq!(row[2], "1");
        }
    }
    // Every "?" is reported; 0 only when all was decided.
    let expected = if unknown == 0 { 0 } else { 3 };
    assert_eq!(out.status.code(), Some(expected), "{stderr}");
    let _ = fs::remove_file(file);
}

#[test]
fn count_prints_a_question_mark_for_a_line_over_the_outcome_bound_and_goes_on() {
    let file = temp_file("bound", &format!("{SEEDS}\n{}\n{CHAIN}\n", checkerboard()));
    let file = file.to_str().unwrap();
    let (out, _) = run(&["count", "--outcomes", "--memory-limit", "1M", file]);
    let stderr = text(&out.stderr);
    assert_eq!(text(&out.stdout), "3\n?\n1\n", "{stderr}");
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.contains(":2: outcomes: over the memory limit of 1 MiB"),
        "{stderr}"
    );
    assert!(stderr.contains("1 figure left undecided"), "{stderr}");
    assert!(
        !stderr.contains(":1:") && !stderr.contains(":3:"),
        "{stderr}"
    );
    // All three figures: the other lines keep their exact figures.
    let (out, took) = run(&["count", "--timeout", "500", "--memory-limit", "1M", file]);
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}{stderr}");
    assert_eq!(lines[0], "3 3 0");
    assert_eq!(lines[2], "1 1 1");
    assert!(lines[1].contains('?'), "{stdout}");
    assert!(matches!(out.status.code(), Some(3 | 4)), "{stderr}");
    assert!(took < Duration::from_millis(500) + GRACE, "took {took:?}");
    let _ = fs::remove_file(file);
}

#[test]
fn show_says_whether_the_side_to_move_can_score() {
    let (out, _) = run(&["show", CHAIN]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    let last = stdout.lines().last().unwrap();
    let jump = last
        .strip_prefix("Ohs (O) can score now: ")
        .unwrap_or_else(|| panic!("{stdout}"));
    // The jump it names scores.
    let (after, _) = run(&["play", CHAIN, jump]);
    let (shown, _) = run(&["show", text(&after.stdout).trim()]);
    assert!(text(&shown.stdout).contains("Game over: Ohs (O) has won"));
    let (out, _) = run(&["show", SEEDS]);
    assert!(out.status.success());
    assert!(text(&out.stdout).ends_with("Ohs (O) to move\nOhs (O) cannot score now\n"));
    // The analysis is bounded by default (1000 ms): the board still comes out.
    let stdout = gives_up(
        &["show", &undecided()],
        3,
        "can-score: timed out after 1000 ms",
        Duration::from_secs(1) + GRACE,
    );
    assert!(
        stdout.contains("Ohs (O) to move\nOhs (O) can score now: not decided\n"),
        "{stdout}"
    );
}

#[test]
fn bad_bounds_are_rejected() {
    // A value the option refuses, a negative one included: one
    // `phutball:` line naming the option, status 2 (the argument
    // parser's, as docs/cli.md says), never clap's tip to write `-- -1`.
    for (args, says) in [
        (&["moves", "--memory-limit", "0", SEEDS][..], "--memory-limit"),
        (&["moves", "--memory-limit", "-5", SEEDS], "cannot be negative"),
        (
            &["moves", "--timeout", "-1", SEEDS],
            "--timeout takes milliseconds, a whole number 0 or more (or `none` for no limit), not -1",
        ),
        (
            &["count", "--timeout", "soon", "x.pos"],
            "--timeout takes milliseconds",
        ),
        (&["perft", "--memory-limit", "lots", SEEDS, "1"], "not a size"),
    ] {
        let (out, _) = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.starts_with("phutball: invalid value"),
            "{args:?}: {err}"
        );
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("-- -"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!text(&out.stderr).contains("panicked"), "{args:?}");
    }
}

#[test]
fn every_command_reads_memory_limit_sizes_the_same_way() {
    let file = temp_file("sizes", &format!("{SEEDS}\n"));
    let file = file.to_str().unwrap();
    // Bytes with a unit K, M or G, for the rules commands as for the solver's.
    let accepted: [&[&str]; 5] = [
        &["count", "--memory-limit", "1G", file],
        &["moves", "--memory-limit", "512M", SEEDS],
        &["perft", "--memory-limit", "2097152", SEEDS, "1"],
        &["prove", "--memory-limit", "64M", "start:1x3"],
        &["tablebase", "build", "--memory-limit", "1G", "2x3"],
    ];
    for args in accepted {
        let (out, _) = run(args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    }
    // The same refusal, in the same words, from every command: a bare
    // small number (an old MiB count) is told to take a unit; a malformed
    // or negative size is named.
    for command in [
        &["count", file][..],
        &["moves", SEEDS],
        &["prove", "start:1x3"],
        &["tablebase", "build", "2x3"],
    ] {
        for (size, says) in [
            (
                "64",
                "add a unit: 64M for 64 MiB, or 64B if bytes are meant",
            ),
            ("12Q", "unknown unit `Q` in `12Q`"),
            (
                "-1",
                "`-1` is not a size: a memory limit cannot be negative",
            ),
        ] {
            let mut args = command.to_vec();
            let last = args.len() - 1;
            args.splice(last..last, ["--memory-limit", size]);
            let (out, _) = run(&args);
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(
                stderr.starts_with("phutball: invalid value"),
                "{args:?}: {stderr}"
            );
            assert!(stderr.contains(says), "{args:?}: {stderr}");
            assert!(out.stdout.is_empty(), "{args:?}");
        }
    }
    let _ = fs::remove_file(file);
}

#[test]
fn a_very_long_malformed_position_is_quoted_short() {
    let long = "x".repeat(5000);
    let zeros = "0".repeat(5000);
    let bad = [
        format!("15/15/15 {long}"),
        format!("3/1@1/3 O A{long}"),
        format!("3/3/3 O {long}"),
        format!("{zeros}#/3/3 O"),
    ];
    for pos in &bad {
        for args in [
            &["jumps", pos.as_str()][..],
            &["moves", pos],
            &["show", pos],
            &["perft", pos, "1"],
            &["play", pos, "A1"],
        ] {
            let stdout = gives_up(args, 1, "invalid position", GRACE);
            assert!(stdout.is_empty());
        }
    }
    let file = temp_file("long", &format!("{SEEDS}\n{}\n", bad[0]));
    let stderr = gives_up(
        &["count", file.to_str().unwrap()],
        1,
        ":2: invalid position",
        GRACE,
    );
    assert!(stderr.is_empty());
    gives_up(
        &["play", SEEDS, &format!("K6-{long}")],
        1,
        "(5003 characters)",
        GRACE,
    );
    let _ = fs::remove_file(file);
}
