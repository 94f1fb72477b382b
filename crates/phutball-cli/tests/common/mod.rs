//! The core's fixture files and running the binary with input, shared by
//! the CLI's test files.

// Each test file includes this module and uses only part of it.
#![allow(dead_code)]

use std::io::{ErrorKind, Write};
use std::process::{Command, Output, Stdio};

use phutball::fixtures::{self, Fixture};

/// Runs `phutball ARGS` with `input` on its standard input.
pub fn run_with_input(args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_phutball"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the phutball binary runs");
    let written = child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_ref());
    // A command that refuses its arguments exits without reading its
    // input: the pipe it closed is not the test's failure.
    if let Err(e) = written {
        assert_eq!(e.kind(), ErrorKind::BrokenPipe, "input is written: {e}");
    }
    child.wait_with_output().expect("the command ends")
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// The records of the core's fixture file `name` (`crates/phutball/tests/data`).
pub fn fixture(name: &str) -> Vec<Fixture> {
    let path = fixtures::path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    fixtures::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The position string of record `n` (from 1) of the fixture file `name`.
pub fn fixture_position(name: &str, n: usize) -> String {
    fixture(name)[n - 1].position.to_string()
}
