//! Exact Phutball: who wins from here, with best play.
//!
//! - [`Tablebase`]: the value of every position of a tiny board, computed
//!   by retrograde analysis (wins, losses with the loser's longest
//!   resistance, and draws).
//! - [`prove_within`]: a depth-first proof-number search that proves wins and
//!   losses of any length on any board, within a caller's [`Budget`](phutball::Budget).
//! - [`Certificate`]: a proof as a graph anyone can check with the core's
//!   plain rules ([`Certificate::check`]); its text format is in
//!   `docs/certificates.md`.
//!
//! The crate does no I/O: files are the callers' (the CLI, C, Python).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod certificate;
mod error;
mod frontier;
mod prover;
mod tablebase;
mod value;

pub use certificate::{
    Certificate, CertificateError, CertificateNode, CertificateParseError, CheckedProof, Target,
    CERTIFICATE_VERSION,
};
pub use error::SolverError;
pub use frontier::{combine_within, frontier_within};
pub use prover::{prove_with_tablebase_within, prove_within, Proof, AUTO_TABLEBASE_POINTS};
pub use tablebase::{
    BuildProgress, BuildStep, Tablebase, TablebaseFileError, TablebaseStats, MAX_BUILD_THREADS,
    MAX_TABLEBASE_POINTS,
};
pub use value::Value;
