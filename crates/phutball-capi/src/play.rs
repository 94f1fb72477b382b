//! Moves on a position handle: placements, legality, playing whole moves, and
//! step-by-step jumps. Moves are given in notation and parsed by the core.

use core::ffi::c_char;

use phutball::{Move, Position};

use crate::buffers::{copy_items, mut_arg, str_arg, write_out};
use crate::guard::ffi_call;
use crate::position::{position_arg, PhutballPosition};
use crate::status::{FfiResult, PhutballStatus};
use crate::types::PhutballPoint;

/// The move named `move_text` (a C string argument), parsed by the core.
///
/// # Safety
/// `move_text` must be NULL or NUL-terminated.
unsafe fn move_arg(move_text: *const c_char) -> FfiResult<Move> {
    // SAFETY: the caller's promise about move_text.
    Ok(unsafe { str_arg(move_text, "move") }?.parse::<Move>()?)
}

/// Replaces the position behind `pos` with `step(position)` if that succeeds;
/// on failure the handle is unchanged.
///
/// # Safety
/// `pos` must be NULL or a live handle used by nothing else during the call.
unsafe fn update(
    pos: *mut PhutballPosition,
    step: impl FnOnce(&Position) -> FfiResult<Position>,
) -> FfiResult {
    // SAFETY: the caller's promise about pos.
    let handle = unsafe { mut_arg(pos, "pos") }?;
    handle.0 = step(&handle.0)?;
    Ok(())
}

/// Writes the points a man may be placed on (every vacant point of rows 1 to
/// `rows`; none in a finished position), row by row from
/// row 1, left to right, into `buf` (buffer convention).
///
/// # Safety
/// `pos` NULL or live; `buf` NULL or `capacity` writable points; `count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_placements(
    pos: *const PhutballPosition,
    buf: *mut PhutballPoint,
    capacity: usize,
    count: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about pos.
        let points: Vec<PhutballPoint> = unsafe { position_arg(pos) }?
            .placement_points()
            .iter()
            .map(Into::into)
            .collect();
        // SAFETY: the caller's promises about buf, capacity and count.
        unsafe { copy_items(&points, buf, capacity, count) }
    })
}

/// Checks the move `move_text` (notation: `"H9"` places a man, `"K6-G9-G11"`
/// jumps): `PHUTBALL_STATUS_OK` if it is legal, `PHUTBALL_STATUS_ILLEGAL_MOVE`
/// with the reason as the last error if not, `PHUTBALL_STATUS_PARSE_ERROR` if
/// it is not notation.
///
/// # Safety
/// `pos` NULL or live; `move_text` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_check_move(
    pos: *const PhutballPosition,
    move_text: *const c_char,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about pos and move_text.
        let (position, m) = unsafe { (position_arg(pos)?, move_arg(move_text)?) };
        Ok(position.check_move(&m)?)
    })
}

/// Writes whether the move `move_text` is legal. Text that is not notation is
/// an error (`PHUTBALL_STATUS_PARSE_ERROR`), not a false.
///
/// # Safety
/// `pos` NULL or live; `move_text` NULL or NUL-terminated; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_is_legal(
    pos: *const PhutballPosition,
    move_text: *const c_char,
    out: *mut bool,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about pos, move_text and out.
        unsafe {
            let (position, m) = (position_arg(pos)?, move_arg(move_text)?);
            write_out(out, position.is_legal(&m), "out")
        }
    })
}

/// Plays the move `move_text` (a placement or a whole jump move) on the
/// position in place; the other side is then to move. After a jump,
/// `phutball_position_winner` tells whether it scored (an own goal loses).
/// On any error the position is unchanged.
///
/// # Safety
/// `pos` NULL or a live handle used by nothing else during the call;
/// `move_text` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_play(
    pos: *mut PhutballPosition,
    move_text: *const c_char,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about move_text.
        let m = unsafe { move_arg(move_text) }?;
        // SAFETY: the caller's promise about pos.
        unsafe { update(pos, |p| Ok(p.play(&m)?)) }
    })
}

/// Passes in place: the same board with the other side to move.
///
/// # Safety
/// `pos` NULL or a live handle used by nothing else during the call.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_end_turn(pos: *mut PhutballPosition) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about pos.
        unsafe { update(pos, |p| Ok(p.end_turn())) }
    })
}

/// Mirrors the position left to right in place (same side to move).
///
/// # Safety
/// `pos` NULL or a live handle used by nothing else during the call.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_mirror_columns(
    pos: *mut PhutballPosition,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about pos.
        unsafe { update(pos, |p| Ok(p.mirror_columns())) }
    })
}

/// Turns the position top to bottom in place and swaps the sides: Ohs's
/// chances before are Eks's after.
///
/// # Safety
/// `pos` NULL or a live handle used by nothing else during the call.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_flip_rows(pos: *mut PhutballPosition) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about pos.
        unsafe { update(pos, |p| Ok(p.flip_rows())) }
    })
}
