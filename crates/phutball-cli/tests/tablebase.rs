//! `phutball tablebase build|stats|probe`: the counts on stdout, the file
//! written by `--out` read back by `stats` and `probe`, and the errors with
//! their exit statuses (a bad file 1, a board too large 1, a timeout 3,
//! the memory limit 4).

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};

mod common;

use common::{run_with_input, text};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_phutball"))
        .args(args)
        .output()
        .expect("the phutball binary runs")
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "phutball-tablebase-cli-{}-{name}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The value of `name` in stats output (`name value` lines).
fn stat<'a>(stdout: &'a str, name: &str) -> &'a str {
    stdout
        .lines()
        .find_map(|line| {
            line.strip_prefix(name)
                .and_then(|rest| rest.strip_prefix(' '))
        })
        .unwrap_or_else(|| panic!("no {name} in {stdout}"))
}

#[test]
fn build_prints_the_counts_and_the_start() {
    let out = run(&["tablebase", "build", "3x4"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_eq!(stat(&stdout, "board"), "3x4");
    assert_eq!(stat(&stdout, "rule"), "stop-off-board");
    assert_eq!(stat(&stdout, "states"), "12288");
    assert_eq!(stat(&stdout, "positions"), "24576");
    let count = |name| stat(&stdout, name).parse::<u64>().expect("a count");
    assert_eq!(count("wins") + count("losses") + count("draws"), 24576);
    assert_eq!(stat(&stdout, "start"), "win in 3");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("built in"), "{stderr}");
    // The other rule is another table.
    let out = run(&["tablebase", "build", "--continue-off-board", "3x5"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(stat(&text(&out.stdout), "rule"), "continue-off-board");
}

#[test]
fn a_table_written_with_out_is_read_back_by_stats_and_probe() {
    let dir = scratch_dir("out");
    let file = dir.join("3x4.tb");
    let file_arg = file.to_str().expect("a UTF-8 path");
    let built = run(&["tablebase", "build", "3x4", "--out", file_arg]);
    assert!(built.status.success(), "{}", text(&built.stderr));
    assert_eq!(fs::metadata(&file).expect("the file").len(), 32 + 12288);
    // Only the file: the temporary one was renamed into place.
    assert_eq!(fs::read_dir(&dir).expect("the dir").count(), 1);
    let stats = run(&["tablebase", "stats", "3x4", "--file", file_arg]);
    assert!(stats.status.success(), "{}", text(&stats.stderr));
    assert_eq!(text(&stats.stdout), text(&built.stdout));
    assert!(!text(&stats.stderr).contains("building"), "read, not built");
    let probe = run(&["tablebase", "probe", "--file", file_arg, "start:3x4"]);
    assert!(probe.status.success(), "{}", text(&probe.stderr));
    let line = text(&probe.stdout);
    assert!(line.starts_with("win in 3: "), "{line}");
    assert_eq!(line.trim().split(' ').count(), 3 + 3, "three moves: {line}");
    // Several positions from stdin: a finished one, and one won in one.
    let input = "start:3x4\n3/3/1@1/3 X\n# a comment\n1#1/1#1/1@1/3 O\n@2/3/3/3 O\n";
    let probe = run_with_input(&["tablebase", "probe", "--file", file_arg, "-"], input);
    assert!(probe.status.success(), "{}", text(&probe.stderr));
    let lines: Vec<String> = text(&probe.stdout).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[0].starts_with("win in 3: "));
    assert!(
        lines[1].starts_with("win in 3: "),
        "Eks to move: the same by symmetry"
    );
    assert_eq!(lines[2], "win in 1: B2-B5");
    assert_eq!(lines[3], "win in 0", "Ohs has scored");
    // The same without a file: built for the board met.
    let probe = run(&["tablebase", "probe", "1#1/1#1/1@1/3 O"]);
    assert!(probe.status.success(), "{}", text(&probe.stderr));
    assert_eq!(text(&probe.stdout), "win in 1: B2-B5\n");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_file_of_another_board_or_rule_is_refused() {
    let dir = scratch_dir("other");
    let file = dir.join("3x4.tb");
    let file_arg = file.to_str().expect("a UTF-8 path");
    assert!(run(&["tablebase", "build", "3x4", "--out", file_arg])
        .status
        .success());
    let out = run(&["tablebase", "stats", "4x4", "--file", file_arg]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("holds the 3x4 tablebase, not the 4x4 one"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&[
        "tablebase",
        "stats",
        "3x4",
        "--continue-off-board",
        "--file",
        file_arg,
    ]);
    assert_eq!(out.status.code(), Some(1));
    let out = run(&["tablebase", "probe", "--file", file_arg, "start:4x4"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("is a 4x4 position"),
        "{}",
        text(&out.stderr)
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_file_is_bad_input() {
    let dir = scratch_dir("bad");
    let file = dir.join("bad.tb");
    let file_arg = file.to_str().expect("a UTF-8 path");
    fs::write(&file, b"not a tablebase at all, just some text in a file").expect("written");
    let out = run(&["tablebase", "stats", "3x4", "--file", file_arg]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("not a tablebase file"),
        "{}",
        text(&out.stderr)
    );
    // A good file damaged: its checksum no longer matches.
    let good = dir.join("good.tb");
    let good_arg = good.to_str().expect("a UTF-8 path");
    assert!(run(&["tablebase", "build", "1x6", "--out", good_arg])
        .status
        .success());
    let mut bytes = fs::read(&good).expect("read");
    *bytes.last_mut().expect("values") ^= 1;
    fs::write(&good, bytes).expect("written");
    let out = run(&["tablebase", "probe", "--file", good_arg, "start:1x6"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("damaged"),
        "{}",
        text(&out.stderr)
    );
    // A missing file.
    let missing = dir.join("missing.tb");
    let out = run(&[
        "tablebase",
        "stats",
        "3x4",
        "--file",
        missing.to_str().expect("UTF-8"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("cannot read"),
        "{}",
        text(&out.stderr)
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_board_too_large_is_refused_before_any_work() {
    let out = run(&["tablebase", "build", "6x6"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("too many states"),
        "{}",
        text(&out.stderr)
    );
    // A size that does not parse: one `phutball:` line, status 2.
    let out = run(&["tablebase", "build", "3x"]);
    assert_eq!(out.status.code(), Some(2), "bad size");
    assert!(text(&out.stderr).starts_with("phutball: invalid value '3x'"));
}

#[test]
fn jobs_take_the_solvers_range() {
    for jobs in ["0", "257", "-1", "two"] {
        let out = run(&["tablebase", "build", &format!("--jobs={jobs}"), "1x3"]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--jobs {jobs}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "--jobs {jobs}: {stderr}");
        assert!(stderr.starts_with("phutball: invalid value"), "{stderr}");
        assert!(stderr.contains("--jobs"), "{stderr}");
    }
    let out = run(&["tablebase", "build", "--jobs", "257", "1x3"]);
    assert!(text(&out.stderr).contains("takes 1 to 256 jobs, not 257"));
    let out = run(&["tablebase", "build", "--jobs", "256", "1x3"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn a_timeout_and_the_memory_limit_have_their_statuses() {
    let dir = scratch_dir("limits");
    let file = dir.join("never.tb");
    let file_arg = file.to_str().expect("a UTF-8 path");
    let out = run(&[
        "tablebase",
        "build",
        "4x6",
        "--timeout",
        "20",
        "--out",
        file_arg,
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("timed out after 20 ms"),
        "{}",
        text(&out.stderr)
    );
    assert!(!file.exists(), "no file from a build that did not finish");
    let out = run(&["tablebase", "build", "4x5", "--memory-limit", "1M"]);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("memory limit"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["tablebase", "probe", "--memory-limit", "1K", "start:4x4"]);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    let _ = fs::remove_dir_all(&dir);
}
