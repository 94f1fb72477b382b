//! `prove` and `check-proof`: results, certificate files (plain and gzip)
//! that check, damaged ones that do not, and bad arguments.

use std::fs;
use std::path::PathBuf;

mod common;

use common::{run_with_input, text};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("phutball-solver-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> std::process::Output {
    run_with_input(args, "")
}

#[test]
fn prove_prints_wins_and_losses_and_writes_certificates_that_check() {
    let dir = temp_dir("prove");
    let file = dir.join("1x3.txt");
    let out = run(&[
        "prove",
        "--certificate",
        file.to_str().unwrap(),
        "start:1x3",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("win in 3: "),
        "{}",
        text(&out.stdout)
    );
    assert!(
        text(&out.stderr).contains("certificate 2 nodes"),
        "{}",
        text(&out.stderr)
    );
    let checked = run(&["check-proof", file.to_str().unwrap()]);
    assert!(checked.status.success(), "{}", text(&checked.stderr));
    assert_eq!(
        text(&checked.stdout),
        "valid: O wins in at most 3 plies from 1/@/1 O (2 nodes)\n"
    );
    // Several positions from stdin: FILE, FILE.2; a lost one and gzip.
    let gz = dir.join("two.txt.gz");
    let out = run_with_input(
        &["prove", "--certificate", gz.to_str().unwrap(), "-"],
        "start:7x7\n#/@/1 X\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    // 7x7 is past the tablebases: its distance is the proof's bound; the
    // 1x3 position's is the table's, exact.
    assert!(lines[0].starts_with("win within 17: "), "{stdout}");
    assert_eq!(lines[1], "loss in 2: A1 A2-A4", "{stdout}");
    assert_eq!(fs::read(&gz).unwrap()[..2], [0x1f, 0x8b]);
    for f in [gz.clone(), dir.join("two.txt.gz.2")] {
        let checked = run(&["check-proof", f.to_str().unwrap()]);
        assert!(
            checked.status.success(),
            "{}: {}",
            f.display(),
            text(&checked.stderr)
        );
    }
    let checked = run(&["check-proof", dir.join("two.txt.gz.2").to_str().unwrap()]);
    assert_eq!(
        text(&checked.stdout),
        "valid: O wins in at most 2 plies from #/@/1 X (1 nodes)\n"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn damaged_certificates_are_rejected_with_the_fault() {
    let dir = temp_dir("damaged");
    let file = dir.join("7x7.txt");
    let out = run(&[
        "prove",
        "--certificate",
        file.to_str().unwrap(),
        "start:7x7",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let good = fs::read_to_string(&file).unwrap();
    // A reply dropped: the first `reply` line that leads to a node.
    let reply = good
        .lines()
        .find(|l| l.starts_with("reply ") && !l.ends_with(" goal"))
        .unwrap();
    let cases = [
        (
            good.replacen(&format!("{reply}\n"), "", 1),
            "is not covered",
        ),
        // Another point: a placement that leads elsewhere, or one on a man.
        (
            good.replacen("move D5 ", "move C5 ", 1),
            "not node|is not legal here",
        ),
        (good[..good.len() / 2].to_string(), "not a certificate"),
        (good.replacen("winner O", "winner X", 1), "use `reply`"),
    ];
    let mut cases: Vec<(Vec<u8>, &str)> = cases
        .into_iter()
        .map(|(t, n)| (t.into_bytes(), n))
        .collect();
    cases.push((b"\x1f\x8bjunk".to_vec(), "gzip"));
    for (i, (bad, needle)) in cases.iter().enumerate() {
        let path = dir.join(format!("bad{i}.txt"));
        fs::write(&path, bad).unwrap();
        let out = run(&["check-proof", path.to_str().unwrap()]);
        assert_eq!(
            out.status.code(),
            Some(1),
            "case {i}: {}",
            text(&out.stdout)
        );
        let stderr = text(&out.stderr);
        assert!(stderr.starts_with("phutball: "), "case {i}: {stderr}");
        assert!(
            needle.split('|').any(|n| stderr.contains(n)),
            "case {i}: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "case {i}: {stderr}");
    }
    let missing = run(&["check-proof", dir.join("none.txt").to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(1));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_timeout_is_unknown_and_bad_arguments_are_refused() {
    let out = run(&["prove", "--timeout", "200", "start:11x11"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "unknown\n");
    assert!(
        text(&out.stderr).contains("stopped: timed out"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["prove", "--nodes", "1000", "start:11x11"]);
    assert_eq!(text(&out.stdout), "unknown\n");
    assert!(
        text(&out.stderr).contains("stopped: after 1000 nodes (--nodes N)"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["prove", "--nodes", "100000", "start:7x7"]);
    assert!(
        text(&out.stdout).starts_with("win within 17: "),
        "{}",
        text(&out.stdout)
    );
    // A value an option refuses: one `phutball:` line, status 2.
    assert_eq!(
        run(&["prove", "--nodes", "0", "start:7x7"]).status.code(),
        Some(2)
    );
    for bad in ["0", "12Q", "lots"] {
        let out = run(&["prove", "--memory-limit", bad, "start:1x3"]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
    let out = run(&["prove", "--memory-limit", "64K", "start:1x3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // A limit too small for the certificate is reported as given, not as
    // the share of it the certificate gets.
    for tiny in ["1", "1000"] {
        let out = run(&["prove", "--memory-limit", &format!("{tiny}B"), "start:5x5"]);
        let said = format!("memory limit of {tiny} bytes reached");
        assert!(text(&out.stderr).contains(&said), "{}", text(&out.stderr));
    }
    let over = run(&["prove", "1/1/@ O"]);
    assert_eq!(over.status.code(), Some(1), "{}", text(&over.stdout));
    assert!(
        text(&over.stderr).contains("game is over"),
        "{}",
        text(&over.stderr)
    );
    let junk = run(&["prove", "I5"]);
    assert_eq!(junk.status.code(), Some(1));
}

#[test]
fn prove_with_a_tablebase_gives_its_exact_distance_and_a_certificate() {
    let dir = temp_dir("table");
    let table = dir.join("1x12.tb");
    let built = run(&[
        "tablebase",
        "build",
        "1x12",
        "--out",
        table.to_str().unwrap(),
    ]);
    assert!(built.status.success(), "{}", text(&built.stderr));
    let probe = run(&[
        "tablebase",
        "probe",
        "--file",
        table.to_str().unwrap(),
        "start:1x12",
    ]);
    let exact = text(&probe.stdout);
    let file = dir.join("1x12.txt");
    let out = run(&[
        "prove",
        "--tablebase",
        table.to_str().unwrap(),
        "--certificate",
        file.to_str().unwrap(),
        "start:1x12",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The same value and distance as the table's own probe.
    let value = |line: &str| line.split(':').next().unwrap().to_string();
    assert_eq!(value(&text(&out.stdout)), value(&exact), "{exact}");
    let checked = run(&["check-proof", file.to_str().unwrap()]);
    assert!(checked.status.success(), "{}", text(&checked.stderr));
    // A table of another board is not used: the search answers, with its bound.
    let other = run(&["prove", "--tablebase", table.to_str().unwrap(), "start:5x5"]);
    assert!(
        text(&other.stdout).starts_with("win within "),
        "{}",
        text(&other.stdout)
    );
    let bad = dir.join("bad.tb");
    fs::write(&bad, b"not a table").unwrap();
    let out = run(&["prove", "--tablebase", bad.to_str().unwrap(), "start:1x12"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn prove_says_whether_its_distance_is_exact() {
    // Issue 35's example: the search alone said `loss in 6`; the loser
    // holds out only 4 plies, which the tablebase knows.
    for pos in ["2#/2#/1#@/3 X", "start:4x5"] {
        let proved = text(&run(&["prove", pos]).stdout);
        let from_table = text(&run(&["tablebase", "probe", pos]).stdout);
        let verdict = |line: &str| line.split(':').next().unwrap().to_string();
        assert_eq!(
            verdict(&proved),
            verdict(&from_table),
            "{pos}: {proved} / {from_table}"
        );
        assert!(!proved.contains("within"), "{pos}: {proved}");
    }
    assert!(text(&run(&["prove", "2#/2#/1#@/3 X"]).stdout).starts_with("loss in 4: "));
    // Past 20 points: the proof's bound, said as one.
    let bound = text(&run(&["prove", "start:5x5"]).stdout);
    assert!(bound.starts_with("win within "), "{bound}");
}

/// The lines of `stderr` that report progress.
fn progress_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("progress: "))
        .collect()
}

#[test]
fn prove_reports_its_progress_on_a_log_and_says_its_default_timeout() {
    // Not a terminal (a pipe): one line per interval, here 0.2 s (the
    // hidden --progress-every; 10 s by default).
    let out = run(&[
        "prove",
        "--timeout",
        "1500",
        "--progress-every",
        "0.2",
        "start:11x11",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    let lines = progress_lines(&stderr);
    assert!(lines.len() >= 2, "{stderr}");
    for line in &lines {
        // Nodes, table entries, both searches' root numbers, time.
        for part in [
            " s, nodes ",
            ", table entries ",
            ", O wins pn/dn ",
            ", X wins pn/dn ",
        ] {
            assert!(line.contains(part), "{line}");
        }
        assert!(!line.contains('\r'), "{line}");
    }
    let nodes = |line: &str| -> u64 {
        let rest = line.split(", nodes ").nth(1).unwrap();
        rest.split(',').next().unwrap().parse().unwrap()
    };
    assert!(nodes(lines[0]) < nodes(lines[lines.len() - 1]), "{stderr}");
    // The figures line still comes last, after the progress.
    assert!(
        stderr.lines().last().unwrap().starts_with("nodes "),
        "{stderr}"
    );
    // At the documented interval a short run prints none, and
    // --no-progress none at any interval.
    let out = run(&["prove", "--timeout", "300", "start:11x11"]);
    assert!(progress_lines(&text(&out.stderr)).is_empty());
    let out = run(&[
        "prove",
        "--no-progress",
        "--progress-every",
        "0.05",
        "--timeout",
        "300",
        "start:11x11",
    ]);
    assert!(progress_lines(&text(&out.stderr)).is_empty());
    // The default timeout is in the help; `none` is taken.
    let help = text(&run(&["prove", "--help"]).stdout);
    assert!(help.contains("60000 ms by default"), "{help}");
    assert!(help.contains("`--timeout none`: no limit"), "{help}");
    assert!(help.contains("a bound, not the shortest win"), "{help}");
    let solve_help = text(&run(&["solve", "--help"]).stdout);
    assert!(solve_help.contains("10000 ms by default"), "{solve_help}");
    assert!(
        solve_help.contains("N exact (the shortest win"),
        "{solve_help}"
    );
    let out = run(&["prove", "--timeout", "none", "start:5x5"]);
    assert!(
        text(&out.stdout).starts_with("win within 7: "),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn an_unwritable_certificate_is_refused_before_the_search() {
    let dir = temp_dir("unwritable");
    let missing = dir.join("no/such/folder/13x13.txt.gz");
    // 13x13 would search for the whole timeout: the refusal comes first.
    let started = std::time::Instant::now();
    let out = run(&[
        "prove",
        "--certificate",
        missing.to_str().unwrap(),
        "--timeout",
        "20000",
        "start:13x13",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("cannot write"),
        "{}",
        text(&out.stderr)
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    let _ = fs::remove_dir_all(&dir);
}
