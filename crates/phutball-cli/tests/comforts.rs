//! The command line's comforts: the start shorthand (`start`,
//! `start:COLSxROWS`) wherever a position is, `-` for positions from
//! standard input, `game --load` resuming a saved game, and shell
//! completions.

use std::fs;
use std::path::PathBuf;

use phutball::{BoardSize, Game, Position, Rules};

mod common;

use common::{run_with_input, text};

/// Stdout of `phutball ARGS` with `input` on stdin; the command must succeed.
fn stdout_with(args: &[&str], input: &str) -> String {
    let out = run_with_input(args, input);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// The one-line error of `phutball ARGS` with `input` on stdin (exit status 1).
fn error_with(args: &[&str], input: &str) -> String {
    let out = run_with_input(args, input);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{args:?}: {}",
        text(&out.stderr)
    );
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

fn start_string(cols: u8, rows: u8) -> String {
    Position::start_with(BoardSize::new(cols, rows).unwrap(), Rules::default())
        .unwrap()
        .to_string()
}

#[test]
fn start_and_start_with_a_size_stand_for_the_start_position() {
    let standard = start_string(15, 19);
    let small = start_string(5, 7);
    for args in [
        ["show", "start", ""],
        ["moves", "start", ""],
        ["perft", "start:5x7", "2"],
        ["play", "start:5x7", "C3"],
        ["svg", "start", ""],
    ] {
        let args: Vec<&str> = args.into_iter().filter(|a| !a.is_empty()).collect();
        let spelled: Vec<&str> = args
            .iter()
            .map(|&a| match a {
                "start" => standard.as_str(),
                "start:5x7" => small.as_str(),
                a => a,
            })
            .collect();
        assert_eq!(
            stdout_with(&args, ""),
            stdout_with(&spelled, ""),
            "{args:?}"
        );
    }
    // The rule options apply to the shorthand as to a position string.
    let eks_first = stdout_with(&["play", "start", "--first-player", "X", "H9"], "");
    assert!(eks_first.trim_end().ends_with(" O"), "{eks_first}");
    let error = error_with(&["show", "start:30x5"], "");
    assert!(
        error.contains("30x5") && error.contains("start:COLSxROWS"),
        "{error}"
    );
}

#[test]
fn a_dash_reads_one_position_a_line_from_standard_input() {
    let small = start_string(5, 7);
    let input = format!("# two positions\nstart\n\n{small}\n");
    // The command runs on each line in turn, as if run once per line.
    let from_stdin = stdout_with(&["perft", "-", "2"], &input);
    let one_by_one =
        stdout_with(&["perft", "start", "2"], "") + &stdout_with(&["perft", &small, "2"], "");
    assert_eq!(from_stdin, one_by_one);
    assert_eq!(from_stdin.lines().count(), 2, "{from_stdin}");
    let played = stdout_with(&["play", "-", "C3"], &format!("{small}\n{small}\n"));
    assert_eq!(played.lines().count(), 2, "{played}");
    // Files of positions too: `count -`, where `start` also works.
    let counted = stdout_with(&["count", "-"], "start\nstart:5x7\n");
    assert_eq!(counted, "0 0 0\n0 0 0\n");
    let error = error_with(&["moves", "-"], "start\nnot a position\n");
    assert!(error.starts_with("phutball: standard input:2: "), "{error}");
    let error = error_with(&["count", "-"], "start:1x1\n");
    assert!(error.starts_with("phutball: standard input:1: "), "{error}");
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("phutball-comforts-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn game_load_resumes_a_saved_game() {
    let dir = scratch_dir("load");
    let first = dir.join("first.txt");
    let second = dir.join("second.txt");
    let out = run_with_input(
        &[
            "game",
            "--engine",
            "none",
            "--start",
            "start:7x9",
            "--first-player",
            "X",
        ],
        format!("D4\nsave {}\nquit\n", first.display()),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Resumed: the saved move is there (undo takes it back), the board and
    // rules are the record's, and play goes on from it.
    let stdout = stdout_with(
        &[
            "game",
            "--engine",
            "none",
            "--load",
            first.to_str().unwrap(),
        ],
        &format!("D6\nsave {}\nquit\n", second.display()),
    );
    assert!(
        stdout.contains("O to move>"),
        "Eks moved first and played D4: {stdout}"
    );
    assert!(stdout.contains("O plays D6"), "{stdout}");
    let resumed: Game = fs::read_to_string(&second).unwrap().parse().unwrap();
    let moves: Vec<String> = resumed.moves().iter().map(ToString::to_string).collect();
    assert_eq!(moves, ["D4", "D6"]);
    assert_eq!(resumed.start().size(), BoardSize::new(7, 9).unwrap());

    fs::write(dir.join("bad.txt"), "start 15/15 O\n").unwrap();
    let bad = dir.join("bad.txt");
    let error = error_with(&["game", "--load", bad.to_str().unwrap()], "");
    assert!(error.contains("bad.txt"), "{error}");
    let missing = dir.join("missing.txt");
    let error = error_with(&["game", "--load", missing.to_str().unwrap()], "");
    assert!(error.contains("cannot read"), "{error}");
    // --load takes the rules from the record: --start is refused with it.
    let out = run_with_input(&["game", "--load", "x", "--start", "start"], "");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn completions_are_printed_for_each_shell() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef phutball"),
        ("fish", "complete -c phutball"),
    ] {
        let script = stdout_with(&["completions", shell], "");
        assert!(script.contains(marker), "{shell}: {script}");
        // Every subcommand and the new options are offered.
        for word in ["selfplay", "completions", "load"] {
            assert!(script.contains(word), "{shell} lacks {word}");
        }
    }
    let out = run_with_input(&["completions", "tcsh"], "");
    assert_eq!(out.status.code(), Some(2));
}
