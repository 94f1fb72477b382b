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
//! - [`SmallBoard`]: the move generator of boards of at most 64 points
//!   (men as a `u64`) that the tablebases are built with.
//!
//! The crate's I/O is its own files, shared by the CLI, C and Python: the
//! prover's checkpoint file ([`prove_with_options_within`], one atomic save
//! and one checked read), [`Certificate::save`] and [`Tablebase::save`],
//! each replaced atomically ([`write_atomically`]).
//!
//! ```
//! use phutball::{BoardSize, Budget, Position};
//! use phutball_solver::{prove_within, Certificate, Tablebase, Value};
//! // 1x3: Ohs places a man and, whatever Eks replies, scores.
//! let pos: Position = "1/@/1 O".parse()?;
//! let proof = prove_within(&pos, &Budget::default())?;
//! assert_eq!(proof.value, Some(Value::Win { plies: 3 }));
//!
//! // The certificate survives its text form and checks with the plain rules.
//! let text = proof.certificate.expect("a proof comes with its certificate").to_string();
//! assert_eq!(text.parse::<Certificate>()?.check(&Budget::default())?.plies, 3);
//!
//! // A tablebase of the 1x3 board agrees.
//! let table = Tablebase::build_within(BoardSize::new(1, 3)?, false, &Budget::default(), &mut |_| {})?;
//! assert_eq!(table.probe(&pos), Some(Value::Win { plies: 3 }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The reference (the search, the tablebase file, the limits, the CLI, C
//! and Python faces) is `docs/solver.md`.
//!
//! # Cargo features
//!
//! - `test-support` (off by default): the module `error_examples`, one
//!   value of every error variant the C and Python error tables list, named
//!   as they name it, for the wrappers' table tests; not part of the stable
//!   interface. It turns on the core's `test-support`.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod atomic_file;
mod certificate;
mod error;
#[cfg(feature = "test-support")]
pub mod error_examples;
mod frontier;
mod prover;
mod small_board;
mod tablebase;
mod value;

pub use atomic_file::{check_writable, write_atomically};
pub use certificate::{
    Certificate, CertificateError, CertificateNode, CertificateParseError, CertificateReadError,
    CheckedProof, PassAnswer, Target, CERTIFICATE_VERSION, MAX_CERTIFICATE_LINE,
};
pub use error::SolverError;
pub use frontier::{combine_within, frontier_within};
pub use prover::{
    prove_with_options_within, prove_with_tablebase_within, prove_within, CheckpointError,
    CheckpointEvent, CheckpointOptions, ProgressOptions, Proof, ProveOptions, ProveProgress,
    ProverState, AUTO_TABLEBASE_POINTS, CHECKPOINT_VERSION, MAX_PROVE_JOBS,
};
pub use small_board::{SmallBoard, SmallPosition, SmallScratch, MAX_SMALL_POINTS};
pub use tablebase::{
    BuildProgress, BuildStep, Tablebase, TablebaseFileError, TablebaseReadError, TablebaseStats,
    MAX_BUILD_JOBS, MAX_TABLEBASE_POINTS,
};
pub use value::Value;
