//! The README's first screen, as a new user copies it: every `phutball`
//! command of its shell blocks runs, and what its comment promises it
//! prints, it prints (the Python blocks: `tests/python/test_readme.py`; the
//! C block: `tests/c/run.sh`; the Rust block: the core's doctest).

use std::process::Command;

/// The `phutball ...` lines of the README's shell blocks, comments cut off:
/// (the words, the promise after `#`).
fn readme_commands() -> Vec<(Vec<String>, String)> {
    let readme = include_str!("../../../README.md");
    let mut commands = Vec::new();
    let mut in_shell = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_shell = !in_shell && line == "```sh";
            continue;
        }
        if in_shell && line.starts_with("phutball ") {
            let (command, promise) = split_comment(line);
            commands.push((words(command), promise.trim().to_string()));
        }
    }
    commands
}

/// The line before and after an unquoted `#`.
fn split_comment(line: &str) -> (&str, &str) {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return (&line[..i], &line[i + 1..]),
            _ => {}
        }
    }
    (line, "")
}

/// Shell words: split at spaces outside double quotes, the quotes dropped.
fn words(command: &str) -> Vec<String> {
    let (mut words, mut word, mut quoted) = (Vec::new(), String::new(), false);
    for c in command.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

#[test]
fn every_phutball_command_of_the_readme_runs_and_prints_what_it_says() {
    let commands = readme_commands();
    assert!(
        commands.len() >= 2,
        "the README lost its commands: {commands:?}"
    );
    for (words, promise) in commands {
        let out = Command::new(env!("CARGO_BIN_EXE_phutball"))
            .args(&words[1..])
            .output()
            .expect("the phutball binary runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{words:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // A promise of comma-separated moves: each is printed.
        if promise.contains("K6-") {
            for expected in promise.split(", ") {
                assert!(
                    stdout.lines().any(|l| l.trim() == expected),
                    "{words:?}: {expected} not in {stdout}"
                );
            }
        }
    }
}

#[test]
fn shell_words_keep_quoted_spaces_and_comments_are_cut() {
    let (command, promise) = split_comment(r#"phutball jumps "a # b" --x   # K6-G9"#);
    assert_eq!(words(command), ["phutball", "jumps", "a # b", "--x"]);
    assert_eq!(promise.trim(), "K6-G9");
}
