//! Proofs from C: the solver's prover (`phutball_prove_within`), the proof
//! handle and what it holds, and the checker of certificates
//! (`phutball_check_proof`). The prover and the checker are the solver
//! crate's; these functions only read the arguments and write the answers.

use core::ffi::c_char;
use std::sync::OnceLock;

use phutball::Move;
use phutball_solver::{
    prove_with_options_within, prove_with_tablebase_within, prove_within, Certificate, Proof,
    ProveOptions,
};

use crate::budget::{budget_arg, PhutballBudget};
use crate::buffers::{
    bytes_arg, copy_text, free_handle, ref_arg, require_out, write_new_handle, write_out,
};
use crate::guard::ffi_call;
use crate::position::{position_arg, PhutballPosition};
// The constants stay reachable as `prove::PHUTBALL_PROOF_*`, where they were.
use crate::proof_result::result_and_plies;
pub use crate::proof_result::{
    PhutballProofResult, PHUTBALL_PROOF_DRAW, PHUTBALL_PROOF_LOSS, PHUTBALL_PROOF_UNKNOWN,
    PHUTBALL_PROOF_WIN,
};
use crate::status::{certificate_failure, solver_failure, Failure, FfiResult, PhutballStatus};
use crate::tablebase::{table_arg, PhutballTablebase};
use crate::types::{side_to_c, PhutballSide};

/// What `phutball_prove_within` found: the result, the proved line, the
/// figures and the certificate. An opaque handle owned by the caller, freed
/// with `phutball_proof_free`; it does not depend on the position it was
/// made from. Read-only: several threads may read one proof at once.
pub struct PhutballProof {
    proof: Proof,
    /// The certificate's text, made when it is first asked for.
    certificate_text: OnceLock<String>,
}

/// The figures of a proof (the line and the certificate are text: see
/// `phutball_proof_line` and `phutball_proof_certificate`).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PhutballProofSummary {
    /// A `PHUTBALL_PROOF_*` constant.
    pub result: PhutballProofResult,
    /// Plies (both sides' moves, the goal included) to the forced goal of a
    /// win or a loss; 0 otherwise. Exact when `exact` is true, else a bound:
    /// the winner wins within it.
    pub plies: u32,
    /// Whether `plies` is exact (the shortest win, the longest loss: a
    /// tablebase's answer, or a win in 1 or a loss in 2) rather than the
    /// proof's bound; true for a draw, false for an unknown result.
    pub exact: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Positions remembered in the prover's tables at the end.
    pub table_entries: u64,
    /// Why the search stopped without a proof: `PHUTBALL_STATUS_TIMED_OUT`,
    /// `PHUTBALL_STATUS_WORK_LIMIT` or `PHUTBALL_STATUS_TOO_MANY_OUTCOMES`
    /// (the memory limit); `PHUTBALL_STATUS_OK` when no limit stopped it.
    pub stopped: PhutballStatus,
    /// Both searches ended without proving a goal: neither side forces one
    /// in the graph searched (not claimed as a draw).
    pub exhausted: bool,
    /// Nodes of the certificate; 0 when there is none (an unknown result or a draw).
    pub certificate_nodes: u64,
}

/// What `phutball_check_proof` found a valid certificate to prove.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PhutballCheckedProof {
    /// The side that forces a goal from the root: `PHUTBALL_SIDE_OHS` or `PHUTBALL_SIDE_EKS`.
    pub winner: PhutballSide,
    /// The longest line of the proof, in plies (the loser's longest
    /// resistance against the certificate's moves).
    pub plies: u32,
    /// Nodes of the certificate.
    pub nodes: u64,
}

impl PhutballProof {
    fn summary(&self) -> PhutballProofSummary {
        let p = &self.proof;
        let (result, plies) = p
            .value
            .map_or((PHUTBALL_PROOF_UNKNOWN, 0), result_and_plies);
        PhutballProofSummary {
            result,
            plies,
            exact: p.exact,
            nodes: p.nodes,
            table_entries: p.table_entries as u64,
            stopped: p
                .stopped
                .clone()
                .map_or(PhutballStatus::Ok, |e| Failure::from(e).status),
            exhausted: p.exhausted,
            certificate_nodes: p.certificate.as_ref().map_or(0, |c| c.nodes.len() as u64),
        }
    }
}

/// Stores a new handle of `proof` in `*out`.
///
/// # Safety
/// `out` must be writable (checked non-NULL by the caller).
unsafe fn write_proof(out: *mut *mut PhutballProof, proof: Proof) -> FfiResult<()> {
    let handle = PhutballProof {
        proof,
        certificate_text: OnceLock::new(),
    };
    // SAFETY: the caller's promise about out.
    unsafe { write_new_handle(out, handle, "out") }
}

/// Borrows the proof behind a handle argument named `proof`.
///
/// # Safety
/// `proof` must be NULL or a live proof.
unsafe fn proof_arg<'a>(proof: *const PhutballProof) -> FfiResult<&'a PhutballProof> {
    // SAFETY: the caller's promise about proof.
    unsafe { ref_arg(proof, "proof") }
}

/// Proves who wins `pos` with best play and stores a new proof handle in
/// `*out`: a win or a loss of the side to move with its line and a
/// certificate the solver has checked, or an unknown result. On boards of
/// at most 20 points the solver builds a tablebase first: the answer is
/// then exact, and may be a draw.
///
/// Within `budget` (NULL: the defaults): `work_limit` counts the prover's
/// nodes, `memory_limit` bounds its tables (half of it) and the certificate
/// (the other half), `timeout_ms` and `cancel` stop it. Unlike the other
/// `*_within` functions, a limit that runs out is no failure: the call
/// returns `PHUTBALL_STATUS_OK` with a proof whose result is
/// `PHUTBALL_PROOF_UNKNOWN` and whose `stopped` names the limit. Only a
/// cancel fails (`PHUTBALL_STATUS_CANCELLED`, nothing written).
/// `PHUTBALL_STATUS_INVALID_ARGUMENT` for a finished position (nothing to
/// prove). The search runs on a thread of its own (with a large stack);
/// the call returns when it ends.
///
/// # Safety
/// `pos` NULL or live; `budget` NULL or readable, its `cancel` NULL or a
/// live token; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_prove_within(
    pos: *const PhutballPosition,
    budget: *const PhutballBudget,
    out: *mut *mut PhutballProof,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        // SAFETY: the caller's promises about pos and budget.
        let (pos, call) = unsafe { (position_arg(pos)?, budget_arg(budget)) };
        let proof = call
            .run(|budget| prove_within(pos, budget))
            .map_err(|e| solver_failure(&e))?;
        // SAFETY: the caller's promise about out.
        unsafe { write_proof(out, proof) }
    })
}

/// `phutball_prove_within` with the caller's tablebase: where `table`
/// covers `pos` (its board size and off-board rule) the answer comes from it
/// at once, exact, and may be `PHUTBALL_PROOF_DRAW` (a draw has no
/// certificate); a win or a loss comes with a certificate built from the
/// table's shortest wins, checked. With `table` NULL, or one that does not
/// cover `pos`, only the search runs, whatever the board (not even the
/// tablebase `phutball_prove_within` builds itself for boards of at most 20
/// points). Statuses and budget as `phutball_prove_within`.
///
/// # Safety
/// `pos` NULL or live; `table` NULL or a live tablebase; `budget` NULL or
/// readable, its `cancel` NULL or a live token; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_prove_with_tablebase_within(
    pos: *const PhutballPosition,
    table: *const PhutballTablebase,
    budget: *const PhutballBudget,
    out: *mut *mut PhutballProof,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        // SAFETY: the caller's promises about pos, table and budget.
        let (pos, table, call) = unsafe {
            (
                position_arg(pos)?,
                if table.is_null() {
                    None
                } else {
                    Some(table_arg(table)?)
                },
                budget_arg(budget),
            )
        };
        let proof = call
            .run(|budget| prove_with_tablebase_within(pos, budget, table))
            .map_err(|e| solver_failure(&e))?;
        // SAFETY: the caller's promise about out.
        unsafe { write_proof(out, proof) }
    })
}

/// `phutball_prove_within` on `jobs` threads (0: every core; 1 is
/// `phutball_prove_within`'s search; from 2 the searches for either
/// side's win run at once, each on its own threads, the first proof
/// stopping the other; `docs/solver.md`). The result is the same
/// kind of proof, its certificate checked; the nodes and the certificate
/// may differ from one job count to another.
/// `PHUTBALL_STATUS_INVALID_ARGUMENT` for more than 1024 jobs
/// (`MAX_PROVE_JOBS`), as for a finished position; otherwise statuses and
/// budget as `phutball_prove_within`.
///
/// # Safety
/// `pos` NULL or live; `budget` NULL or readable, its `cancel` NULL or a
/// live token; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_prove_with_jobs_within(
    pos: *const PhutballPosition,
    jobs: u32,
    budget: *const PhutballBudget,
    out: *mut *mut PhutballProof,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        // SAFETY: the caller's promises about pos and budget.
        let (pos, call) = unsafe { (position_arg(pos)?, budget_arg(budget)) };
        let jobs = match jobs {
            0 => ProveOptions::default_jobs(),
            j => usize::try_from(j).unwrap_or(usize::MAX),
        };
        let options = ProveOptions {
            jobs,
            ..ProveOptions::default()
        };
        let proof = call
            .run(|budget| prove_with_options_within(pos, budget, options))
            .map_err(|e| solver_failure(&e))?;
        // SAFETY: the caller's promise about out.
        unsafe { write_proof(out, proof) }
    })
}

/// Writes the proof's figures: its result, plies, nodes, why it stopped.
///
/// # Safety
/// `proof` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_proof_summary(
    proof: *const PhutballProof,
    out: *mut PhutballProofSummary,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about proof and out.
        unsafe { write_out(out, proof_arg(proof)?.summary(), "out") }
    })
}

/// Writes the proved line into `buf` (buffer convention): the side to
/// move's move first, then the longest resistance within the proof, moves
/// in notation separated by single spaces (`"A3 A1 A2-A4"`). Empty when
/// nothing is proved.
///
/// # Safety
/// `proof` NULL or live; `buf` NULL or `len` writable bytes; `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_proof_line(
    proof: *const PhutballProof,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about proof.
        let line = moves_text(&unsafe { proof_arg(proof) }?.proof.line);
        // SAFETY: the caller's promises about buf, len and written.
        unsafe { copy_text(&line, buf, len, written) }
    })
}

/// Writes the proof's certificate in its text format (docs/certificates.md,
/// which `phutball_check_proof` and `phutball check-proof` read) into `buf`
/// (buffer convention; ask for the size first: a certificate can take
/// megabytes). `PHUTBALL_STATUS_INVALID_ARGUMENT` when the proof has none
/// (an unknown result or a draw).
///
/// # Safety
/// `proof` NULL or live; `buf` NULL or `len` writable bytes; `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_proof_certificate(
    proof: *const PhutballProof,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(written, "written")?;
        // SAFETY: the caller's promise about proof.
        let handle = unsafe { proof_arg(proof) }?;
        let certificate = handle.proof.certificate.as_ref().ok_or_else(|| {
            Failure::invalid_argument(
                "the proof has no certificate: only a win or a loss has one, not an unknown result or a draw",
            )
        })?;
        let text = handle
            .certificate_text
            .get_or_init(|| certificate.to_string());
        // SAFETY: the caller's promises about buf, len and written.
        unsafe { copy_text(text, buf, len, written) }
    })
}

/// Frees a proof handle. NULL is ignored. The handle must not be used again.
///
/// # Safety
/// `proof` must be NULL or a live proof from this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn phutball_proof_free(proof: *mut PhutballProof) {
    // SAFETY: the caller's promise about proof.
    unsafe { free_handle(proof) }
}

/// Checks a certificate given as text (`len` bytes of UTF-8, NUL not needed;
/// NULL with `len` 0 is the empty text) with the core's plain rules, and on
/// success writes what it proves to `*out` and, when `root` is not NULL, a
/// new handle of its root position to `*root` (compare it with the position
/// you meant: a valid certificate proves a win from its own root).
///
/// `PHUTBALL_STATUS_PARSE_ERROR` for text that is not a certificate (the
/// message names the line; as in a game record, an impossible position in
/// it is a parse error too), `PHUTBALL_STATUS_INVALID_CERTIFICATE`
/// for one that does not prove what it claims (the checker's message, naming
/// the node). Within `budget` (NULL: the defaults): the timeout, the cancel
/// token and the memory limit (of each node's move enumeration) stop the
/// check with their statuses.
///
/// # Safety
/// `text` NULL or `len` readable bytes; `budget` NULL or readable, its
/// `cancel` NULL or a live token; `out` NULL or writable; `root` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_check_proof(
    text: *const c_char,
    len: usize,
    budget: *const PhutballBudget,
    out: *mut PhutballCheckedProof,
    root: *mut *mut PhutballPosition,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        // SAFETY: the caller's promise about text and len.
        let text = unsafe { bytes_arg(text, len, "text") }?;
        let text = core::str::from_utf8(text).map_err(|e| {
            Failure::new(
                PhutballStatus::InvalidUtf8,
                format!("text is not valid UTF-8: {e}"),
            )
        })?;
        let certificate = parse_certificate(text)?;
        // SAFETY: the caller's promise about budget.
        let call = unsafe { budget_arg(budget) };
        let checked = call
            .run(|budget| certificate.check(budget))
            .map_err(|e| certificate_failure(&e))?;
        let answer = PhutballCheckedProof {
            winner: side_to_c(checked.winner),
            plies: checked.plies,
            nodes: checked.nodes as u64,
        };
        // SAFETY: the caller's promises about out and root.
        unsafe {
            write_out(out, answer, "out")?;
            if !root.is_null() {
                write_new_handle(root, PhutballPosition(checked.root), "root")?;
            }
        }
        Ok(())
    })
}

/// A certificate's text as a certificate: anything wrong in it, even an
/// impossible position, is a parse error naming the line (as in a game record).
pub(crate) fn parse_certificate(text: &str) -> FfiResult<Certificate> {
    text.parse::<Certificate>().map_err(|e| {
        Failure::new(
            PhutballStatus::ParseError,
            format!("not a certificate: {e}"),
        )
    })
}

/// Moves in notation, separated by single spaces.
fn moves_text(moves: &[Move]) -> String {
    let moves: Vec<String> = moves.iter().map(ToString::to_string).collect();
    moves.join(" ")
}

#[cfg(test)]
mod tests {
    use super::parse_certificate;

    #[test]
    fn a_48_mb_field_gives_a_message_under_a_kilobyte() {
        let huge = "A".repeat(48_000_000);
        let text =
            format!("phutball-proof 1\nrules\nwinner O\nnode 0 #/@/# O\nmove {huge} goal\nend\n");
        let failure = parse_certificate(&text).unwrap_err();
        assert!(
            failure.message.len() < 1000,
            "{} bytes",
            failure.message.len()
        );
        assert!(
            failure.message.contains("(48000000 characters)"),
            "{}",
            failure.message
        );
    }
}
