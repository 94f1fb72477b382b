//! `prove --checkpoint`: a proof killed with SIGKILL at random moments goes
//! on from its last save to the same winner, with a certificate that
//! checks; a damaged, truncated or foreign checkpoint is refused and left
//! as it was.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::Duration;

mod common;

use common::{run_with_input, text};

/// A start that takes the test build a second or two and tens of
/// thousands of nodes: long enough to be killed mid-search many times.
const BOARD: &str = "start:3x13";

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("phutball-ckpt-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> std::process::Output {
    run_with_input(args, "")
}

/// The figure `name` of a prove's stderr line `nodes N, ...`.
fn nodes_of(stderr: &str) -> u64 {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("nodes "))
        .unwrap_or_else(|| panic!("no figures line in {stderr}"));
    line["nodes ".len()..]
        .split(',')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {line}"))
}

/// The winner a prove's stdout names: `win` or `loss` for the side to move.
fn outcome(stdout: &str) -> &str {
    stdout.split_whitespace().next().unwrap_or("")
}

/// A small deterministic generator (SplitMix64): the kill times.
fn next_random(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One attempt: runs the proof with a checkpoint, killing it with SIGKILL
/// after each of `delays` from its start, then lets it finish. `None`
/// when it finished before its last kill (the machine was quicker than
/// planned); else its stdout, stderr and how many runs resumed.
fn killed_and_resumed(args: &[&str], delays: &[Duration]) -> Option<(String, String, usize)> {
    let mut resumes = 0;
    for (k, delay) in delays.iter().chain([&Duration::MAX]).enumerate() {
        let mut child = Command::new(env!("CARGO_BIN_EXE_phutball"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        if *delay != Duration::MAX {
            sleep(*delay);
            let _ = child.kill(); // SIGKILL
        }
        let out = child.wait_with_output().unwrap();
        let stderr = text(&out.stderr);
        resumes += usize::from(stderr.contains("checkpoint: resumed"));
        assert!(
            !stderr.contains("refused"),
            "a save cut by SIGKILL left a file that is refused: {stderr}"
        );
        if out.status.success() {
            return (k == delays.len()).then(|| (text(&out.stdout), stderr, resumes));
        }
        assert_eq!(
            out.status.code(),
            None,
            "not killed, not finished: {stderr}"
        );
    }
    None
}

#[test]
fn a_proof_killed_at_random_moments_resumes_to_the_same_winner() {
    let dir = temp_dir("kill");
    // The uninterrupted run: the same command, its own checkpoint file.
    // One job: a search that pauses at fixed nodes (and saves there when a
    // save is due), so every run goes the same way and the counts compare.
    let started = std::time::Instant::now();
    let fresh = dir.join("uninterrupted.ckpt");
    let reference = run(&[
        "prove",
        "--jobs",
        "1",
        "--checkpoint",
        fresh.to_str().unwrap(),
        "--checkpoint-every",
        "0.01",
        BOARD,
    ]);
    let took = started.elapsed();
    assert!(reference.status.success(), "{}", text(&reference.stderr));
    let reference_nodes = nodes_of(&text(&reference.stderr));

    let ckpt = dir.join("proof.ckpt");
    let certificate = dir.join("proof.txt");
    let args = [
        "prove",
        "--jobs",
        "1",
        "--checkpoint",
        ckpt.to_str().unwrap(),
        "--checkpoint-every",
        "0.01",
        "--certificate",
        certificate.to_str().unwrap(),
        BOARD,
    ];
    let mut random = 7;
    let mut finished = None;
    for _attempt in 0..3 {
        let _ = fs::remove_file(&ckpt);
        // Ten kills, each 2% to 10% of one whole run's time after its
        // start: before, between and during saves, about 60% of the proof.
        let delays: Vec<Duration> = (0..10)
            .map(|_| took.mul_f64(0.02 + (next_random(&mut random) % 1000) as f64 / 1000.0 * 0.08))
            .collect();
        finished = killed_and_resumed(&args, &delays);
        if finished.is_some() {
            break;
        }
    }
    let (stdout, stderr, resumes) =
        finished.expect("three attempts finished before their 10th kill");
    assert!(resumes >= 5, "only {resumes} runs resumed: {stderr}");
    assert_eq!(
        outcome(&stdout),
        outcome(&text(&reference.stdout)),
        "{stdout}"
    );
    let nodes = nodes_of(&stderr);
    eprintln!("{nodes} nodes after 10 kills and {resumes} resumes, {reference_nodes} in one run");
    assert!(
        nodes * 10 <= reference_nodes * 12,
        "{nodes} nodes after 10 kills, {reference_nodes} in one run"
    );
    let checked = run(&["check-proof", certificate.to_str().unwrap()]);
    assert!(checked.status.success(), "{}", text(&checked.stderr));
    assert!(text(&checked.stdout).starts_with("valid: O wins"));
    let _ = fs::remove_dir_all(&dir);
}

/// Runs `prove --checkpoint FILE` of `position` and checks that it is
/// refused with `why` in its message, and that FILE is as it was.
fn assert_refused(file: &Path, position: &str, why: &str) {
    let before = fs::read(file).unwrap();
    let out = run(&[
        "prove",
        "--checkpoint",
        file.to_str().unwrap(),
        "--checkpoint-every",
        "0.01",
        position,
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("is refused, and left as it is"), "{stderr}");
    assert!(stderr.contains(why), "wanted `{why}` in: {stderr}");
    assert!(stderr.len() < 1000, "{} bytes of message", stderr.len());
    assert_eq!(
        fs::read(file).unwrap(),
        before,
        "{} was changed",
        file.display()
    );
}

#[test]
fn damaged_truncated_and_foreign_checkpoints_are_refused_and_kept() {
    let dir = temp_dir("damaged");
    let good = dir.join("good.ckpt");
    // A saved state: a node budget stops the search, which saves it.
    let out = run(&[
        "prove",
        "--checkpoint",
        good.to_str().unwrap(),
        "--nodes",
        "3000",
        BOARD,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("checkpoint: saved 3000 nodes"),
        "{}",
        text(&out.stderr)
    );
    let bytes = fs::read(&good).unwrap();
    let copy = |name: &str, content: &[u8]| {
        let f = dir.join(name);
        fs::write(&f, content).unwrap();
        f
    };
    // A flipped bit anywhere: the magic, the version, the identity, the
    // counters, the entries, the checksum.
    let mut random = 11;
    let mut offsets = vec![
        0,
        8,
        12,
        16,
        40,
        bytes.len() / 2,
        bytes.len() - 9,
        bytes.len() - 1,
    ];
    offsets.extend((0..24).map(|_| (next_random(&mut random) % bytes.len() as u64) as usize));
    for offset in offsets {
        let bit = (next_random(&mut random) % 8) as u8;
        let mut damaged = bytes.clone();
        damaged[offset] ^= 1 << bit;
        let file = copy("flipped.ckpt", &damaged);
        let why = match offset {
            0..=7 => "not a phutball prover checkpoint",
            8..=11 => "format version",
            _ => "",
        };
        assert_refused(&file, BOARD, why);
    }
    // Truncated at any length.
    for cut in [0, 5, 20, bytes.len() / 3, bytes.len() - 1] {
        let file = copy("cut.ckpt", &bytes[..cut]);
        assert_refused(&file, BOARD, if cut < 8 { "truncated" } else { "" });
    }
    let file = copy("cut.ckpt", &bytes[..bytes.len() - 1]);
    assert_refused(&file, BOARD, "truncated");
    // Bytes after the checksum.
    let mut longer = bytes.clone();
    longer.push(0);
    assert_refused(&copy("long.ckpt", &longer), BOARD, "after its checksum");
    // Another position, other rules.
    assert_refused(
        &good,
        "start:3x11",
        "the checkpoint is for `3/3/3/3/3/3/1@1/",
    );
    let out = run(&[
        "prove",
        "--checkpoint",
        good.to_str().unwrap(),
        "--continue-off-board",
        BOARD,
    ]);
    assert!(text(&out.stderr).contains("not `"), "{}", text(&out.stderr));
    assert_eq!(fs::read(&good).unwrap(), bytes);
    // The good file still resumes.
    let out = run(&[
        "prove",
        "--checkpoint",
        good.to_str().unwrap(),
        "--nodes",
        "10",
        BOARD,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("resumed from"),
        "{}",
        text(&out.stderr)
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn checkpoint_arguments_are_checked_before_the_search() {
    let dir = temp_dir("arguments");
    let missing = dir.join("no/such/folder/p.ckpt");
    let out = run(&["prove", "--checkpoint", missing.to_str().unwrap(), BOARD]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("cannot write"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&[
        "prove",
        "--checkpoint",
        dir.join("p.ckpt").to_str().unwrap(),
        "--certificate",
        missing.to_str().unwrap(),
        BOARD,
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("cannot write"),
        "{}",
        text(&out.stderr)
    );
    for bad in ["0", "abc", "2000"] {
        let out = run(&["prove", "--jobs", bad, BOARD]);
        assert!(!out.status.success(), "--jobs {bad}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("--jobs"),
            "{}",
            text(&out.stderr)
        );
    }
    for bad in ["0", "abc", "nan", "inf", "1e12"] {
        let out = run(&[
            "prove",
            "--checkpoint",
            "x.ckpt",
            "--checkpoint-every",
            bad,
            BOARD,
        ]);
        assert!(!out.status.success(), "{bad}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains("not a number of seconds"));
    }
    let out = run_with_input(
        &[
            "prove",
            "--checkpoint",
            dir.join("p.ckpt").to_str().unwrap(),
            "-",
        ],
        "start:3x5\nstart:3x7\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("--checkpoint takes one position, not 2"));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_saves_the_state_and_the_same_command_goes_on() {
    let dir = temp_dir("sigterm");
    let ckpt = dir.join("p.ckpt");
    let child = Command::new(env!("CARGO_BIN_EXE_phutball"))
        .args([
            "prove",
            "--checkpoint",
            ckpt.to_str().unwrap(),
            "start:3x17",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    sleep(Duration::from_millis(700));
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("interrupted; the search's state is saved in"),
        "{stderr}"
    );
    let saved: u64 = stderr
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("checkpoint: saved "))
        .and_then(|l| l.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no save: {stderr}"));
    assert!(saved > 0);
    let out = run(&[
        "prove",
        "--checkpoint",
        ckpt.to_str().unwrap(),
        "--nodes",
        "100",
        "start:3x17",
    ]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("resumed from {} at {saved} nodes", ckpt.display())),
        "{stderr}"
    );
    let _ = fs::remove_dir_all(&dir);
}
