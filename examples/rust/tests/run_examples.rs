//! Runs the three examples and checks what they print, so that an example
//! that stops working fails `cargo test`. `cargo test` builds a package's
//! examples before it runs its tests, into `examples/` beside the folder of
//! this test's binary; a nested `cargo run` would wait on the build
//! directory's lock that the running `cargo test` holds.

use std::path::PathBuf;
use std::process::Command;

/// The output of the example `name`, which must exit successfully.
fn run_example(name: &str) -> String {
    let test_binary = std::env::current_exe().expect("the test binary's path");
    // target/<profile>/deps/run_examples-<hash> -> target/<profile>/examples/<name>
    let profile_dir = test_binary
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>");
    let example: PathBuf = profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        example.exists(),
        "{} is missing: run `cargo test -p phutball-examples`, which builds the examples first",
        example.display()
    );
    let output = Command::new(&example).output().expect("the example runs");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    assert!(
        output.status.success(),
        "{name} failed ({}):\n{stdout}{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// Asserts that `output` has a line starting with each of `starts`, in order.
fn assert_lines(name: &str, output: &str, starts: &[&str]) {
    let mut lines = output.lines();
    for start in starts {
        assert!(
            lines.any(|line| line.starts_with(start)),
            "{name}: no line starting '{start}' (in order) in:\n{output}"
        );
    }
}

#[test]
fn rules_lists_plays_and_scores() {
    let output = run_example("rules");
    assert_lines(
        "rules",
        &output,
        &[
            "jump moves: K6-G9 K6-G9-G11 K6-G9-G11-J11",
            "can score now: false",
            "after K6-G9-G11-J11: ball on J11, 0 men left, X to move",
            "scoring jump: C3-C6",
            "result: Ohs (O) wins after 7 moves",
        ],
    );
}

#[test]
fn engine_finds_a_move_and_the_goal() {
    let output = run_example("engine");
    assert_lines(
        "engine",
        &output,
        &[
            "standard start: best move ",
            "within 200 ms: a legal move",
            "can score: best move H16-H19, score win in 1",
        ],
    );
}

#[test]
fn proof_proves_and_checks_its_certificate() {
    let output = run_example("proof");
    assert_lines(
        "proof",
        &output,
        &[
            "start:5x7: win within 23 (Win { plies: 23 })",
            "line: C5 B4 ",
            "certificate: ",
        ],
    );
    assert!(
        output.contains("checked: Ohs wins within 23 plies"),
        "{output}"
    );
}
