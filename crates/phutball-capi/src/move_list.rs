//! Lists of moves built within `PhutballBudget` (legal moves, jump outcomes,
//! jump paths), held in a handle the caller reads and frees.

use core::ffi::c_char;

use phutball::{Budget, Move, Position, SearchError};

use crate::budget::{position_within, PhutballBudget};
use crate::buffers::{
    copy_items, copy_text, free_handle, ref_arg, require_out, write_new_handle, write_out,
};
use crate::guard::ffi_call;
use crate::position::PhutballPosition;
use crate::status::{Failure, FfiResult, PhutballStatus};
use crate::types::PhutballPoint;

/// A list of moves, made by `phutball_position_legal_moves_within`,
/// `phutball_position_jump_outcomes_within` or
/// `phutball_position_jump_paths_within`. An opaque handle owned by the
/// caller, freed with `phutball_move_list_free`; it does not depend on the
/// position it was made from. Read-only: several threads may read one list.
pub struct PhutballMoveList(Vec<Move>);

/// Builds a list with `build` within `budget` and stores a new handle in `*out`.
///
/// # Safety
/// `pos` NULL or live; `budget` NULL or readable, its `cancel` NULL or a live
/// token; `out` NULL or writable.
unsafe fn make_list(
    pos: *const PhutballPosition,
    budget: *const PhutballBudget,
    out: *mut *mut PhutballMoveList,
    build: impl FnOnce(&Position, &Budget<'_>) -> Result<Vec<Move>, SearchError>,
) -> FfiResult {
    require_out(out, "out")?;
    // SAFETY: the caller's promises about pos and budget.
    let moves = unsafe { position_within(pos, budget, build) }?;
    // SAFETY: the caller's promise about out.
    unsafe { write_new_handle(out, PhutballMoveList(moves), "out") }
}

/// Stores in `*out` a new list of every legal move of the side to move: the
/// placements (row by row from row 1, left to right), then one jump move per
/// distinct outcome. Within `budget` (NULL: the defaults): the list itself
/// and the states remembered count against the memory limit (default
/// 256 MiB; `PHUTBALL_STATUS_TOO_MANY_OUTCOMES` beyond it), a placement and
/// a distinct outcome are steps of work.
///
/// # Safety
/// `pos` NULL or live; `budget` NULL or readable, its `cancel` NULL or a live
/// token; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_legal_moves_within(
    pos: *const PhutballPosition,
    budget: *const PhutballBudget,
    out: *mut *mut PhutballMoveList,
) -> PhutballStatus {
    // SAFETY: the caller's promises are make_list's.
    ffi_call(|| unsafe { make_list(pos, budget, out, Position::legal_moves_within) })
}

/// Stores in `*out` a new list of one jump move per distinct outcome, each
/// with the first path found that reaches it, within `budget` as
/// `phutball_position_legal_moves_within`.
///
/// # Safety
/// As `phutball_position_legal_moves_within`.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_jump_outcomes_within(
    pos: *const PhutballPosition,
    budget: *const PhutballBudget,
    out: *mut *mut PhutballMoveList,
) -> PhutballStatus {
    // SAFETY: the caller's promises are make_list's.
    ffi_call(|| unsafe { make_list(pos, budget, out, Position::jump_outcomes_within) })
}

/// Stores in `*out` a new list of every legal jump path (as
/// `phutball_position_for_each_jump_path` visits them), within `budget`:
/// a landing is a step of work and the list counts against the memory limit.
/// Dense positions have millions of paths: the walk streams them instead.
///
/// # Safety
/// As `phutball_position_legal_moves_within`.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_jump_paths_within(
    pos: *const PhutballPosition,
    budget: *const PhutballBudget,
    out: *mut *mut PhutballMoveList,
) -> PhutballStatus {
    // SAFETY: the caller's promises are make_list's.
    ffi_call(|| unsafe { make_list(pos, budget, out, Position::jump_paths_within) })
}

/// Borrows the list behind a handle argument named `list`.
///
/// # Safety
/// `list` must be NULL or a live list.
unsafe fn list_arg<'a>(list: *const PhutballMoveList) -> FfiResult<&'a [Move]> {
    // SAFETY: the caller's promise about list.
    Ok(&unsafe { ref_arg(list, "list") }?.0)
}

/// The move at `index`, or an invalid argument.
///
/// # Safety
/// As [`list_arg`].
unsafe fn item<'a>(list: *const PhutballMoveList, index: usize) -> FfiResult<&'a Move> {
    // SAFETY: the caller's promise about list.
    let moves = unsafe { list_arg(list) }?;
    moves.get(index).ok_or_else(|| {
        Failure::invalid_argument(format!(
            "index {index} is past the end of a list of {} moves",
            moves.len()
        ))
    })
}

/// Writes the number of moves in the list.
///
/// # Safety
/// `list` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_move_list_len(
    list: *const PhutballMoveList,
    out: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about list and out.
        unsafe { write_out(out, list_arg(list)?.len(), "out") }
    })
}

/// Writes move `index` (from 0) in notation (`"H9"`, `"K6-G9-G11"`) into
/// `buf` (buffer convention). `PHUTBALL_STATUS_INVALID_ARGUMENT` for an index
/// past the end.
///
/// # Safety
/// `list` NULL or live; `buf` NULL or `len` writable bytes; `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_move_list_get(
    list: *const PhutballMoveList,
    index: usize,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about list, buf, len and written.
        unsafe { copy_text(&item(list, index)?.to_string(), buf, len, written) }
    })
}

/// Writes the points of move `index` into `buf` (room for `capacity` points)
/// and their number into `*count` (buffer convention): one point for a
/// placement, the ball's start then each landing (two or more) for a jump.
///
/// # Safety
/// `list` NULL or live; `buf` NULL or `capacity` writable points; `count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_move_list_points(
    list: *const PhutballMoveList,
    index: usize,
    buf: *mut PhutballPoint,
    capacity: usize,
    count: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about list.
        let points: Vec<PhutballPoint> = unsafe { item(list, index) }?
            .path()
            .iter()
            .map(|&p| p.into())
            .collect();
        // SAFETY: the caller's promises about buf, capacity and count.
        unsafe { copy_items(&points, buf, capacity, count) }
    })
}

/// Frees a move list. NULL is ignored. The handle must not be used again.
///
/// # Safety
/// `list` must be NULL or a live list from this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn phutball_move_list_free(list: *mut PhutballMoveList) {
    // SAFETY: the caller's promise about list.
    unsafe { free_handle(list) }
}
