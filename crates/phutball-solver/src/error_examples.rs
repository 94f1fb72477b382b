//! One value of every variant of the solver's errors that the C and Python
//! error tables list (`docs/c-api.md` and `docs/python.md`, "Which ... for
//! which solver error"), named as those tables name them, as the core's
//! `phutball::error_examples` does for the core's errors. A test here
//! matches every variant, so a new one does not compile until it has an
//! example; the wrappers' table tests then fail until their docs table has
//! its row. Test support, behind the `test-support` feature: not part of
//! the stable interface.

use core::fmt;

use phutball::error_examples::{every_error as every_core_error, variant_name};
use phutball::{BoardSize, Move, SearchError, Side};

use crate::{CertificateError, SolverError, TablebaseFileError};

/// One value of every variant of each solver error type the tables list.
#[derive(Clone, Debug)]
pub struct EverySolverError {
    /// Every [`SolverError`] variant, [`SolverError::Search`] once for
    /// each of the core's examples of a [`SearchError`].
    pub solver: Vec<SolverError>,
    /// Every [`CertificateError`] variant, [`CertificateError::Search`]
    /// once for each of the core's examples of a [`SearchError`].
    pub certificate: Vec<CertificateError>,
    /// Every [`TablebaseFileError`] variant.
    pub tablebase_file: Vec<TablebaseFileError>,
}

/// One of the solver's errors, of any of the types the tables list.
#[derive(Clone, Debug)]
pub enum SolverErrorExample {
    /// A prover's or a tablebase build's error.
    Solver(SolverError),
    /// A certificate checker's verdict.
    Certificate(CertificateError),
    /// An error reading a tablebase's bytes.
    TablebaseFile(TablebaseFileError),
}

impl fmt::Display for SolverErrorExample {
    /// The error's own message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverErrorExample::Solver(e) => e.fmt(f),
            SolverErrorExample::Certificate(e) => e.fmt(f),
            SolverErrorExample::TablebaseFile(e) => e.fmt(f),
        }
    }
}

/// A move of the examples.
fn a1() -> Move {
    Move::Place("A1".parse().expect("a point of every board"))
}

/// One value of every variant of each solver error type the tables list.
pub fn every_error() -> EverySolverError {
    let search = every_core_error().search;
    let mut solver = vec![
        SolverError::BoardTooLarge {
            cols: 9,
            rows: 9,
            points: 81,
            max: 30,
        },
        SolverError::Finished,
        SolverError::Unsound("an example".into()),
        SolverError::TooManyPlies { max: 127 },
        SolverError::Checkpoint("prove.ckpt is refused, and left as it is: an example".into()),
        SolverError::Jobs {
            what: "a tablebase build",
            requested: 0,
            max: 256,
        },
    ];
    solver.extend(search.iter().cloned().map(SolverError::Search));
    let mut certificate = certificate_errors();
    certificate.extend(search.into_iter().map(CertificateError::Search));
    EverySolverError {
        solver,
        certificate,
        tablebase_file: tablebase_file_errors(),
    }
}

/// Every [`CertificateError`] variant but `Search`.
fn certificate_errors() -> Vec<CertificateError> {
    use CertificateError as E;
    vec![
        E::Empty,
        E::OtherBoard { node: 1 },
        E::Finished { node: 1 },
        E::NotOneMove {
            node: 0,
            winner: Side::Ohs,
            count: 2,
        },
        E::IllegalMove {
            node: 0,
            mv: a1(),
            reason: "occupied".into(),
        },
        E::MissingReply { node: 0, mv: a1() },
        E::ElseDoesNotScore {
            node: 0,
            mv: a1(),
            answer: "A2-A4".parse().expect("a jump"),
        },
        E::ElseAtWinnersNode { node: 0 },
        E::PassAtWinnersNode { node: 0 },
        E::BadPassTarget {
            node: 1,
            target: 0,
            last: 2,
        },
        E::WrongPassPosition {
            node: 0,
            target: 1,
            winner: Side::Eks,
        },
        E::ZoneLeavesOut {
            node: 0,
            target: 1,
            point: "B2".parse().expect("a point"),
        },
        E::DuplicateReply { node: 0, mv: a1() },
        E::BadTarget {
            node: 0,
            mv: a1(),
            target: 0,
            last: 0,
        },
        E::NotAGoal {
            node: 0,
            mv: a1(),
            winner: Side::Eks,
        },
        E::WrongPosition {
            node: 0,
            mv: a1(),
            target: 1,
            actual: "1/@/1 O".into(),
        },
        E::Unreached { node: 2 },
    ]
}

/// Every [`TablebaseFileError`] variant.
fn tablebase_file_errors() -> Vec<TablebaseFileError> {
    use TablebaseFileError as E;
    let size = BoardSize::new(1, 3).expect("a board");
    vec![
        E::TooShort { len: 3 },
        E::BadMagic,
        E::UnsupportedVersion { version: 9 },
        E::BadBoard { cols: 9, rows: 9 },
        E::BadFlags {
            bytes: [2, 0, 0, 0],
        },
        E::WrongStateCount {
            size,
            expected: 1,
            found: 2,
        },
        E::WrongLength {
            expected: 33,
            found: 34,
        },
        E::BadChecksum {
            expected: 1,
            found: 2,
        },
        E::BadValue {
            index: 0,
            code: 255,
        },
        E::OutOfMemory { states: 1 },
    ]
}

impl SolverErrorExample {
    /// Its name in the docs' tables: `SolverError::Finished`,
    /// `CertificateError::Search(SearchError::TimedOut)`,
    /// `TablebaseFileError::BadMagic`.
    pub fn name(&self) -> String {
        let stopped = |type_name: &str, stop: &SearchError| {
            format!("{type_name}::Search({})", variant_name("SearchError", stop))
        };
        match self {
            SolverErrorExample::Solver(SolverError::Search(stop)) => stopped("SolverError", stop),
            SolverErrorExample::Certificate(CertificateError::Search(stop)) => {
                stopped("CertificateError", stop)
            }
            SolverErrorExample::Solver(e) => variant_name("SolverError", e),
            SolverErrorExample::Certificate(e) => variant_name("CertificateError", e),
            SolverErrorExample::TablebaseFile(e) => variant_name("TablebaseFileError", e),
        }
    }
}

/// Every example of [`every_error`], with its [name](SolverErrorExample::name).
pub fn every_error_named() -> Vec<(String, SolverErrorExample)> {
    let every = every_error();
    let solver = every.solver.into_iter().map(SolverErrorExample::Solver);
    let certificate = every
        .certificate
        .into_iter()
        .map(SolverErrorExample::Certificate);
    let tablebase_file = every
        .tablebase_file
        .into_iter()
        .map(SolverErrorExample::TablebaseFile);
    solver
        .chain(certificate)
        .chain(tablebase_file)
        .map(|e| (e.name(), e))
        .collect()
}

#[cfg(test)]
mod tests {
    use phutball::assert_every_variant;

    use super::*;

    #[test]
    fn there_is_an_example_of_every_variant() {
        let every = every_error();
        assert_every_variant!(every.solver, SolverError:
            Search, BoardTooLarge, Finished, Unsound, TooManyPlies, Checkpoint, Jobs);
        assert_every_variant!(every.certificate, CertificateError:
            Empty, OtherBoard, Finished, NotOneMove, IllegalMove, MissingReply, ElseDoesNotScore,
            ElseAtWinnersNode, PassAtWinnersNode, BadPassTarget, WrongPassPosition, ZoneLeavesOut,
            DuplicateReply, BadTarget, NotAGoal, WrongPosition, Unreached, Search);
        assert_every_variant!(every.tablebase_file, TablebaseFileError:
            TooShort, BadMagic, UnsupportedVersion, BadBoard, BadFlags, WrongStateCount,
            WrongLength, BadChecksum, BadValue, OutOfMemory);
    }

    #[test]
    fn every_example_has_its_own_name() {
        let every = every_error_named();
        let mut names: Vec<&str> = every.iter().map(|(name, _)| name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), every.len());
        assert!(names.contains(&"SolverError::Search(SearchError::TimedOut)"));
        assert!(names.contains(&"CertificateError::ZoneLeavesOut"));
        assert!(names.contains(&"TablebaseFileError::BadMagic"));
    }
}
