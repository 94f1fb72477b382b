//! The core's fixture files, shared by the CLI's test files.

// Each test file includes this module and uses only part of it.
#![allow(dead_code)]

use phutball::fixtures::{self, Fixture};

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
