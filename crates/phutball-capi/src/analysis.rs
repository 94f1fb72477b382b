//! Questions about a position that need a search: can the side to move
//! score, how many legal moves are there, perft.

use core::ffi::c_char;

use phutball::perft;

use crate::buffers::{copy_text, require_out, write_optional, write_out};
use crate::guard::ffi_call;
use crate::position::{position_arg, PhutballPosition};
use crate::status::PhutballStatus;

/// Writes whether the side to move can score this move (end a jump move with
/// the ball on or over the opponent's goal line).
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
        let text = found.as_ref().map(ToString::to_string).unwrap_or_default();
        // SAFETY: the caller's promises about buf, len, written and out_found.
        unsafe {
            copy_text(&text, buf, len, written)?;
            write_optional(out_found, found.is_some());
        }
        Ok(())
    })
}

/// Writes the number of legal moves: placements plus distinct jump outcomes.
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
/// grows quickly with `depth`.
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
