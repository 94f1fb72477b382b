//! A reader that stops early (`phutball ... | head -1`) is not an error, for
//! every command: exit status 0 and no error line on stderr.
//!
//! `CLOSED_OUTPUT_FAULT=1` injects a fault (scripts/inject-faults.sh): the
//! command run is `seq 1 100000`, which reports its broken pipe, so these
//! checks must fail.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// A crowded position (record 1 of crates/phutball/tests/data/jumps-24.fixture):
/// many placements, thousands of jumps, and a `perft 2` that takes a while.
fn crowded() -> String {
    common::fixture_position("jumps-24.fixture", 1)
}

mod common;

/// `phutball ARGS`, or the fault's stand-in.
fn command(args: &[&str]) -> Command {
    if std::env::var_os("CLOSED_OUTPUT_FAULT").is_some_and(|v| v == "1") {
        let mut seq = Command::new("seq");
        seq.args(["1", "100000"]);
        return seq;
    }
    let mut phutball = Command::new(env!("CARGO_BIN_EXE_phutball"));
    phutball.args(args);
    phutball
}

/// Runs `phutball ARGS` with stdin, stdout and stderr pipes.
fn spawn(args: &[&str]) -> Child {
    command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the phutball binary runs")
}

/// Waits for `child` and checks it ended as if its whole output was read.
fn ends_quietly(child: Child, args: &[&str]) {
    let out = child.wait_with_output().expect("the child ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    assert!(
        !stderr.lines().any(|l| l.starts_with("phutball:")),
        "{args:?} reported an error: {stderr}"
    );
    assert!(
        !stderr.to_lowercase().contains("pipe"),
        "{args:?}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
}

/// `phutball ARGS | head -1`: reads the first line, then closes stdout.
fn head_1(args: &[&str]) {
    let mut child = spawn(args);
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().expect("stdout is piped"))
        .read_line(&mut first)
        .expect("a first line");
    assert!(first.ends_with('\n'), "{args:?}: {first:?}");
    drop(child.stdout.take());
    ends_quietly(child, args);
}

/// `phutball ARGS | true`: stdout is closed before the command writes
/// (for commands that think before their first line).
fn closed_at_once(args: &[&str]) {
    let mut child = spawn(args);
    drop(child.stdout.take());
    ends_quietly(child, args);
}

#[test]
fn selfplay_piped_into_head_exits_0_quietly() {
    // Each game's line is flushed as it is done, so the second write meets
    // the closed pipe while the command still runs.
    head_1(&["selfplay", "--games", "2", "--time", "10", "--limit", "20"]);
    head_1(&["selfplay", "--games", "3", "--time", "10", "--limit", "6"]);
}

#[test]
fn jumps_and_moves_piped_into_head_exit_0_quietly() {
    let crowded = crowded();
    head_1(&["jumps", &crowded]);
    head_1(&["jumps", "--outcomes", &crowded]);
    head_1(&["moves", &crowded]);
}

#[test]
fn best_and_perft_with_stdout_closed_exit_0_quietly() {
    let crowded = crowded();
    closed_at_once(&["best", "--time", "300", &crowded]);
    closed_at_once(&["perft", &crowded, "2"]);
}

#[test]
fn game_with_stdout_closed_exits_0_quietly() {
    use std::io::Write;
    let args = ["game", "--engine", "none"];
    let mut child = spawn(&args);
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().expect("stdout is piped"))
        .read_line(&mut first)
        .expect("the greeting");
    // The game now waits for a move; its answer meets the closed pipe.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin is piped");
    // The game may already have ended (and closed its stdin): ignore that.
    let _ = stdin.write_all(b"H10\nH11\nquit\n");
    drop(stdin);
    ends_quietly(child, &args);
}

/// `phutball ARGS` writing into a pipe whose reader is gone before it
/// starts: its first write meets EPIPE, however little it writes. (A
/// completion script, 25-41 KB, fits in a 64 KiB pipe buffer: a reader
/// that stops after a line never made it meet the closed pipe.) Returns
/// what it writes to a reader, to show that it writes.
fn closed_before_start(args: &[&str]) -> usize {
    let written = command(args)
        .output()
        .expect("the phutball binary runs")
        .stdout
        .len();
    // A pipe whose one reader, `true`, has ended.
    let mut reader = Command::new("true")
        .stdin(Stdio::piped())
        .spawn()
        .expect("true runs");
    let writer = reader.stdin.take().expect("stdin is piped");
    reader.wait().expect("true ends");
    let child = command(args)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the phutball binary runs");
    ends_quietly(child, args);
    written
}

#[test]
fn completions_into_a_closed_pipe_exit_0_quietly() {
    for shell in ["bash", "fish", "zsh", "elvish", "powershell"] {
        let written = closed_before_start(&["completions", shell]);
        assert!(
            written > 0,
            "{shell}: writes nothing, so meets no closed pipe"
        );
    }
}

#[test]
fn completions_to_a_full_disk_say_so_in_one_line() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full opens for writing");
    for shell in ["bash", "zsh"] {
        let out = Command::new(env!("CARGO_BIN_EXE_phutball"))
            .args(["completions", shell])
            .stdout(full.try_clone().expect("the handle clones"))
            .stderr(Stdio::piped())
            .output()
            .expect("the phutball binary runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{shell}: {stderr}");
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{shell}: {stderr}");
        assert!(
            lines[0].starts_with("phutball: cannot write the output"),
            "{shell}: {stderr}"
        );
    }
}
