//! Step-by-step jump moves: the `PhutballJumpInProgress` handle, made by
//! starting a jump on a position, jumped on in place, and ended into a new
//! position handle. The rules of the jump are the core's
//! (`phutball::JumpInProgress`).

use core::ffi::c_char;

use phutball::{JumpInProgress, Position};

use crate::buffers::{
    copy_text, free_handle, mut_arg, ref_arg, require_out, str_arg, write_new_handle,
};
use crate::guard::ffi_call;
use crate::position::{position_arg, PhutballPosition};
use crate::status::{FfiResult, PhutballStatus};
use crate::types::{rules_arg, PhutballPoint, PhutballRules};

/// A jump move under way: the board as it stands (the same side still to
/// move), the point the move started from and the men removed so far. An
/// opaque handle owned by the caller, made by `phutball_position_begin_jump`
/// or `phutball_jump_in_progress_from_string` and freed with
/// `phutball_jump_in_progress_free`. Nobody has won until the move ends
/// (`phutball_jump_in_progress_end`).
pub struct PhutballJumpInProgress(pub(crate) JumpInProgress);

/// Borrows the jump in progress behind a handle argument named `jip`.
///
/// # Safety
/// `jip` must be NULL or a live handle that nothing mutates during the call.
unsafe fn jump_arg<'a>(jip: *const PhutballJumpInProgress) -> FfiResult<&'a JumpInProgress> {
    // SAFETY: the caller's promise about jip.
    Ok(&unsafe { ref_arg(jip, "jip") }?.0)
}

/// Stores in `*out` a new position handle holding `make(jip)`.
///
/// # Safety
/// `jip` NULL or live; `out` NULL or writable.
unsafe fn write_position(
    jip: *const PhutballJumpInProgress,
    out: *mut *mut PhutballPosition,
    make: impl FnOnce(&JumpInProgress) -> Position,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about jip.
        let position = make(unsafe { jump_arg(jip) }?);
        // SAFETY: the caller's promise about out.
        unsafe { write_new_handle(out, PhutballPosition(position), "out") }
    })
}

/// Starts a jump move on `pos` with one jump of the ball to `to`, removing the
/// men passed over, and stores a new handle in `*out`; `pos` is unchanged.
/// `PHUTBALL_STATUS_ILLEGAL_MOVE` if no single jump lands on `to` (or the game
/// is over).
///
/// # Safety
/// `pos` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_begin_jump(
    pos: *const PhutballPosition,
    to: PhutballPoint,
    out: *mut *mut PhutballJumpInProgress,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        let to = to.to_core()?;
        // SAFETY: the caller's promise about pos.
        let jump = unsafe { position_arg(pos) }?.apply_jump(to)?;
        // SAFETY: the caller's promise about out.
        unsafe { write_new_handle(out, PhutballJumpInProgress(jump), "out") }
    })
}

/// Jumps on to `to` in place. `PHUTBALL_STATUS_ILLEGAL_MOVE` (and the handle
/// unchanged) if no single jump lands there, or the ball has landed on an
/// off-board strip and the rules end the move there.
///
/// # Safety
/// `jip` NULL or a live handle used by nothing else during the call.
#[no_mangle]
pub unsafe extern "C" fn phutball_jump_in_progress_apply_jump(
    jip: *mut PhutballJumpInProgress,
    to: PhutballPoint,
) -> PhutballStatus {
    ffi_call(|| {
        let to = to.to_core()?;
        // SAFETY: the caller's promise about jip.
        let handle = unsafe { mut_arg(jip, "jip") }?;
        handle.0 = handle.0.apply_jump(to)?;
        Ok(())
    })
}

/// Ends the move: stores a new position handle in `*out` with the other side
/// to move (`phutball_position_winner` then tells whether the move scored).
/// `jip` is unchanged and still owned by the caller.
///
/// # Safety
/// `jip` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_jump_in_progress_end(
    jip: *const PhutballJumpInProgress,
    out: *mut *mut PhutballPosition,
) -> PhutballStatus {
    // SAFETY: the caller's promises about jip and out.
    unsafe { write_position(jip, out, JumpInProgress::end) }
}

/// Stores a new position handle in `*out` holding a copy of the board as it
/// stands, the same side to move (for reading the men and the ball).
///
/// # Safety
/// `jip` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_jump_in_progress_position(
    jip: *const PhutballJumpInProgress,
    out: *mut *mut PhutballPosition,
) -> PhutballStatus {
    // SAFETY: the caller's promises about jip and out.
    unsafe { write_position(jip, out, JumpInProgress::position) }
}

/// Writes the text form (the board's position string, then
/// ` | jump from <start> removed <men>`, docs/rules.md) into `buf` (buffer
/// convention). It parses back to an equal jump in progress under the same rules.
///
/// # Safety
/// `jip` NULL or live; `buf` NULL or `len` writable bytes; `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_jump_in_progress_to_string(
    jip: *const PhutballJumpInProgress,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about jip, buf, len and written.
        unsafe { copy_text(&jump_arg(jip)?.to_string(), buf, len, written) }
    })
}

/// Parses the text form under `rules` (NULL: the defaults; the text does not
/// record them) and stores a new handle in `*out`.
/// `PHUTBALL_STATUS_PARSE_ERROR` for malformed text,
/// `PHUTBALL_STATUS_INVALID_POSITION` for well-formed text describing an
/// impossible jump (a removed man still on the board, say).
///
/// # Safety
/// `text` NULL or NUL-terminated; `rules` NULL or readable; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_jump_in_progress_from_string(
    text: *const c_char,
    rules: *const PhutballRules,
    out: *mut *mut PhutballJumpInProgress,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        // SAFETY: the caller's promises about text and rules.
        let (text, rules) = unsafe { (str_arg(text, "text")?, rules_arg(rules)?) };
        let jump = JumpInProgress::parse_with_rules(text, rules)?;
        // SAFETY: the caller's promise about out.
        unsafe { write_new_handle(out, PhutballJumpInProgress(jump), "out") }
    })
}

/// Frees a jump-in-progress handle. NULL is ignored. The handle must not be used again.
///
/// # Safety
/// `jip` must be NULL or a live handle from this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn phutball_jump_in_progress_free(jip: *mut PhutballJumpInProgress) {
    // Dropping a plain value cannot panic; no guard needed.
    // SAFETY: the caller's promise about jip.
    unsafe { free_handle(jip) }
}
