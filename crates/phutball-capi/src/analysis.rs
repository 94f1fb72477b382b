//! Questions about a position that need a search: can the side to move
//! score, how many legal moves are there, perft; each also in a `*_within`
//! form that takes `PhutballBudget`.

use core::ffi::c_char;

use phutball::{perft, perft_within, Move, Position};

use crate::budget::{position_within, write_within, PhutballBudget};
use crate::buffers::{copy_text, require_out, write_optional, write_out};
use crate::guard::ffi_call;
use crate::position::{position_arg, PhutballPosition};
use crate::status::{FfiResult, PhutballStatus};

/// Writes a scoring jump's answer: the move in notation into `buf` (the
/// empty string when there is none), then whether there is one to
/// `*out_found` (left as it was when the text does not fit).
///
/// # Safety
/// `out_found` NULL or writable; `buf` NULL or `len` writable bytes;
/// `written` NULL or writable.
unsafe fn write_scoring_jump(
    found: Option<&Move>,
    out_found: *mut bool,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> FfiResult {
    let text = found.map(ToString::to_string).unwrap_or_default();
    // SAFETY: the caller's promises about buf, len, written and out_found.
    unsafe {
        copy_text(&text, buf, len, written)?;
        write_optional(out_found, found.is_some());
    }
    Ok(())
}

/// Writes whether the side to move can score this move (end a jump move with
/// the ball on or over the opponent's goal line).
///
/// Unbounded: on dense boards deciding it can take minutes, and nothing stops
/// it; `phutball_position_can_score_within` takes a timeout and a cancel token.
///
/// # Safety
/// `pos` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_can_score(
    pos: *const PhutballPosition,
    out: *mut bool,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about pos and out.
        unsafe { write_out(out, position_arg(pos)?.can_score(), "out") }
    })
}

/// Finds a jump move that scores for the side to move. Writes whether there is
/// one to `*out_found` and, when there is, the move in notation into `buf`
/// (buffer convention; when there is none, `buf` gets the empty string).
///
/// Unbounded, as `phutball_position_can_score`;
/// `phutball_position_scoring_jump_within` takes a budget.
///
/// # Safety
/// `pos` NULL or live; `out_found` NULL or writable; `buf` NULL or `len`
/// writable bytes; `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_scoring_jump(
    pos: *const PhutballPosition,
    out_found: *mut bool,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out_found, "out_found")?;
        // SAFETY: the caller's promise about pos.
        let found = unsafe { position_arg(pos) }?.scoring_jump();
        // SAFETY: the caller's promises about out_found, buf, len and written.
        unsafe { write_scoring_jump(found.as_ref(), out_found, buf, len, written) }
    })
}

/// Writes the number of legal moves: placements plus distinct jump outcomes.
/// Bounded by the default memory limit (256 MiB for the states it remembers:
/// `PHUTBALL_STATUS_TOO_MANY_OUTCOMES` beyond it) and nothing else;
/// `phutball_position_count_legal_moves_within` takes a budget.
///
/// # Safety
/// `pos` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_count_legal_moves(
    pos: *const PhutballPosition,
    out: *mut u64,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about pos.
        let count = unsafe { position_arg(pos) }?.count_legal_moves()?;
        // SAFETY: the caller's promise about out.
        unsafe { write_out(out, count, "out") }
    })
}

/// Writes the number of move sequences of `depth` moves from `pos`, counting a
/// jump move once per distinct resulting position and no moves from a finished
/// position (perft 1 and 2 of the standard start are 284 and 80380). The time
/// grows quickly with `depth`. Bounded by the default memory limit only;
/// `phutball_perft_within` takes a budget.
///
/// # Safety
/// `pos` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_perft(
    pos: *const PhutballPosition,
    depth: u32,
    out: *mut u64,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        // SAFETY: the caller's promise about pos.
        let count = perft(unsafe { position_arg(pos) }?, depth)?;
        // SAFETY: the caller's promise about out.
        unsafe { write_out(out, count, "out") }
    })
}

/// `phutball_position_can_score` within `budget` (NULL: the defaults, which
/// do not stop the search: give a timeout or a cancel token). Writes the
/// exact answer, or gives up with `PHUTBALL_STATUS_TIMED_OUT`,
/// `PHUTBALL_STATUS_CANCELLED` or `PHUTBALL_STATUS_WORK_LIMIT` (a landing of
/// the ball is a step of work) and writes nothing.
///
/// # Safety
/// `pos` NULL or live; `budget` NULL or readable, its `cancel` NULL or a live
/// token; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_can_score_within(
    pos: *const PhutballPosition,
    budget: *const PhutballBudget,
    out: *mut bool,
) -> PhutballStatus {
    // SAFETY: the caller's promises are write_within's.
    ffi_call(|| unsafe { write_within(pos, budget, out, Position::can_score_within) })
}

/// `phutball_position_scoring_jump` within `budget` (as
/// `phutball_position_can_score_within`). On `PHUTBALL_STATUS_BUFFER_TOO_SMALL`
/// the search is lost: call again with a larger buffer.
///
/// # Safety
/// `pos` NULL or live; `budget` NULL or readable, its `cancel` NULL or a live
/// token; `out_found` NULL or writable; `buf` NULL or `len` writable bytes;
/// `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_scoring_jump_within(
    pos: *const PhutballPosition,
    budget: *const PhutballBudget,
    out_found: *mut bool,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out_found, "out_found")?;
        require_out(written, "written")?;
        // SAFETY: the caller's promises about pos and budget.
        let found = unsafe { position_within(pos, budget, Position::scoring_jump_within) }?;
        // SAFETY: the caller's promises about out_found, buf, len and written.
        unsafe { write_scoring_jump(found.as_ref(), out_found, buf, len, written) }
    })
}

/// `phutball_position_count_legal_moves` within `budget` (NULL: the
/// defaults). A placement and a distinct jump outcome are steps of work; the
/// states remembered count against the memory limit.
///
/// # Safety
/// `pos` NULL or live; `budget` NULL or readable, its `cancel` NULL or a live
/// token; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_count_legal_moves_within(
    pos: *const PhutballPosition,
    budget: *const PhutballBudget,
    out: *mut u64,
) -> PhutballStatus {
    // SAFETY: the caller's promises are write_within's.
    ffi_call(|| unsafe { write_within(pos, budget, out, Position::count_legal_moves_within) })
}

/// `phutball_perft` within `budget` (NULL: the defaults): one budget for the
/// whole count, every position visited a step of work.
///
/// # Safety
/// `pos` NULL or live; `budget` NULL or readable, its `cancel` NULL or a live
/// token; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_perft_within(
    pos: *const PhutballPosition,
    depth: u32,
    budget: *const PhutballBudget,
    out: *mut u64,
) -> PhutballStatus {
    // SAFETY: the caller's promises are write_within's.
    ffi_call(|| unsafe { write_within(pos, budget, out, |p, b| perft_within(p, depth, b)) })
}
