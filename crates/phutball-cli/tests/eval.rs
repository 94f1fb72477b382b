//! `--eval auto|hand|net|net:FILE` on every command that searches (`best`,
//! `analyse`, `game`, `selfplay`): a weights file is read and used, a bad
//! value is a usage error (status 2), a file that cannot be used is bad
//! input naming it (status 1), and so is a board its network does not serve.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};

use phutball::{BoardSize, Position};
use phutball_engine::{BoardNetwork, Network};

mod common;

use common::{run_with_input, text};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_phutball"))
        .args(args)
        .output()
        .expect("the phutball binary runs")
}

/// A scratch file `name` holding `bytes`, and its path as an argument.
fn scratch_file(name: &str, bytes: &[u8]) -> String {
    let path: PathBuf =
        std::env::temp_dir().join(format!("phutball-eval-{}-{name}", std::process::id()));
    fs::write(&path, bytes).expect("scratch file");
    path.to_str().expect("a UTF-8 temporary path").to_string()
}

/// A network of `size` whose weights follow a simple pattern (not all
/// zero, so that moves differ in value).
fn network(size: BoardSize) -> Network {
    let hidden = 4;
    let inputs = BoardNetwork::input_count(size);
    let layer = BoardNetwork {
        size,
        w1: (0..inputs * hidden)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) / 200.0)
            .collect(),
        b1: vec![0.25; hidden],
        w2: vec![40.0, -30.0, 20.0, 10.0],
        b2: 0.0,
    };
    Network::new("the CLI's tests", vec![layer]).expect("a valid network")
}

fn standard_weights(name: &str) -> String {
    scratch_file(name, &network(BoardSize::STANDARD).to_bytes())
}

/// `--eval net:FILE` for `file`.
fn net(file: &str) -> String {
    format!("net:{file}")
}

#[test]
fn every_searching_command_takes_a_network() {
    let file = standard_weights("every.phbnet");
    let eval = net(&file);
    let out = run(&["best", "--nodes", "300", "--eval", &eval, "start"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let first = text(&out.stdout);
    let m = first.lines().next().expect("a move");
    assert!(
        Position::standard().is_legal(&m.parse().expect("a move")),
        "{m}"
    );

    let positions = scratch_file("every.txt", b"start\nstart\n");
    let out = run(&[
        "analyse", "--nodes", "200", "--jobs", "2", "--eval", &eval, &positions,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 2);

    let out = run(&[
        "selfplay", "--games", "2", "--nodes", "100", "--limit", "6", "--jobs", "2", "--eval",
        &eval,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("2 games:"),
        "{}",
        text(&out.stdout)
    );

    let out = run_with_input(
        ["game", "--engine", "none", "--time", "50", "--eval", &eval].as_slice(),
        "hint\nquit\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("Hint: best "),
        "{}",
        text(&out.stdout)
    );
}

/// The first line of `best`'s analysis up to its depth (move and score)
/// with `--eval` given as `eval` (none with `None`), of `pos`.
fn best_choice(eval: Option<&str>, pos: &str) -> String {
    let mut args = vec!["best", "--nodes", "4000"];
    if let Some(eval) = eval {
        args.extend(["--eval", eval]);
    }
    args.push(pos);
    let out = run(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let line = text(&out.stderr);
    line.split(", depth").next().unwrap_or_default().to_string()
}

/// A standard-board position where the two evaluations' 4,000-node
/// searches part (hand: H9-H7 at +1.00, the network: J9 at -0.15, with the
/// network of 2026-12-06).
const PARTING: &str = "15/15/15/15/15/15/15/15/7#7/6##7/7@7/7#7/15/15/15/15/15/15/15 X";

#[test]
fn auto_is_the_default_the_network_on_the_standard_board_and_hand_elsewhere() {
    let default = best_choice(None, PARTING);
    assert_eq!(default, best_choice(Some("auto"), PARTING));
    assert_eq!(default, best_choice(Some("net"), PARTING));
    assert_ne!(default, best_choice(Some("hand"), PARTING));
    // 9x9: the network serves no such board, so the default is hand.
    let small = "9/9/9/4#4/3#@4/4#4/9/9/9 O";
    assert_eq!(best_choice(None, small), best_choice(Some("hand"), small));
    let refused = run(&["best", "--nodes", "300", "--eval", "net", small]);
    assert_eq!(refused.status.code(), Some(1));
}

#[test]
fn net_alone_is_the_built_in_network_which_plays_otherwise_than_hand() {
    let (net, hand) = (
        best_choice(Some("net"), PARTING),
        best_choice(Some("hand"), PARTING),
    );
    assert!(
        net.starts_with("best ") && net.contains(", score "),
        "{net}"
    );
    assert_ne!(net, hand);
}

#[test]
fn a_value_that_names_no_evaluation_is_a_usage_error() {
    for (value, message) in [
        ("net:", "net: needs a file name: net:FILE"),
        (
            "neural",
            "unknown evaluation \"neural\": auto, hand, net or net:FILE",
        ),
    ] {
        for command in [
            &["best", "start"][..],
            &["analyse", "-"],
            &["selfplay", "--games", "1"],
            &["game"],
        ] {
            let mut args = command.to_vec();
            args.extend(["--eval", value]);
            let out = run(&args);
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(stderr.contains(message), "{args:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
        }
    }
}

#[test]
fn a_file_that_cannot_be_used_is_bad_input_naming_it() {
    let mut damaged = network(BoardSize::STANDARD).to_bytes();
    damaged[200] ^= 0x40;
    let damaged = scratch_file("damaged.phbnet", &damaged);
    let missing = scratch_file("missing.phbnet", b"");
    fs::remove_file(&missing).unwrap();
    let not_weights = scratch_file("positions.txt", b"start\n");
    let mut short = network(BoardSize::STANDARD).to_bytes();
    short.truncate(1000);
    let short = scratch_file("short.phbnet", &short);
    for (file, message) in [
        (damaged.as_str(), "the weights file is damaged: checksum "),
        (missing.as_str(), "cannot read "),
        (not_weights.as_str(), "not a phutball weights file"),
        (short.as_str(), "the weights file is truncated"),
        // An endless stream: read up to the limit and one byte, no more.
        (
            "/dev/zero",
            "the weights file is too large: over the limit of 64 MiB",
        ),
    ] {
        let out = run(&["best", "--nodes", "10", "--eval", &net(file), "start"]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{file}: {stderr}");
        assert!(
            stderr.starts_with(&format!("phutball: {file}: ")) || message == "cannot read ",
            "{stderr}"
        );
        assert!(stderr.contains(message), "{file}: {stderr}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_board_the_network_does_not_serve_is_refused() {
    let file = scratch_file("small.phbnet", &network("5x7".parse().unwrap()).to_bytes());
    let eval = net(&file);
    let out = run(&["best", "--nodes", "100", "--eval", &eval, "start"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("the network serves 5x7, not 15x19"),
        "{}",
        text(&out.stderr)
    );
    // Its own board is fine.
    let out = run(&["best", "--nodes", "100", "--eval", &eval, "start:5x7"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Self-play and the game refuse before they start.
    let out = run(&["selfplay", "--games", "1", "--nodes", "50", "--eval", &eval]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "phutball: --eval: the network serves 5x7, not 15x19\n"
    );
    let openings = scratch_file("openings.txt", b"start:5x7\nstart\n");
    let out = run(&[
        "selfplay",
        "--games",
        "1",
        "--nodes",
        "50",
        "--eval",
        &eval,
        "--openings",
        &openings,
    ]);
    assert_eq!(
        text(&out.stderr),
        format!("phutball: {openings}:2: --eval: the network serves 5x7, not 15x19\n")
    );
    let out = run_with_input(["game", "--eval", &eval].as_slice(), "quit\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("--eval: the network serves 5x7, not 15x19"),
        "{}",
        text(&out.stderr)
    );
}
