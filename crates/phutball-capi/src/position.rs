//! The position handle: making, copying and freeing it, its text forms, and
//! reading what it holds.

use core::ffi::c_char;

use phutball::{BoardSize, Position};

use crate::buffers::{
    copy_items, copy_text, free_handle, mut_arg, ref_arg, require_out, str_arg, write_new_handle,
    write_out,
};
use crate::guard::ffi_call;
use crate::status::PhutballStatus;
use crate::types::{
    rules_arg, side_to_c, PhutballPoint, PhutballRules, PhutballSide, PHUTBALL_SIDE_NONE,
};

/// A position: board size, rules, men, ball, side to move. An opaque handle
/// owned by the caller, made by `phutball_position_*` constructors and freed
/// with `phutball_position_free`.
pub struct PhutballPosition(pub(crate) Position);

/// Borrows the position behind a handle argument named `pos`.
///
/// # Safety
/// `pos` must be NULL or a live handle that nothing mutates during the call.
pub(crate) unsafe fn position_arg<'a>(
    pos: *const PhutballPosition,
) -> crate::status::FfiResult<&'a Position> {
    // SAFETY: the caller's promise about pos.
    Ok(&unsafe { ref_arg(pos, "pos") }?.0)
}

/// Makes the standard start position (15 x 19, ball on H10, Ohs to move,
/// default rules) and stores a new handle in `*out`.
///
/// # Safety
/// `out` must be NULL or point to a writable `PhutballPosition *`.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_standard(
    out: *mut *mut PhutballPosition,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about out.
        unsafe { write_new_handle(out, PhutballPosition(Position::standard()), "out") }
    })
}

/// Makes the start position of a board of `cols` columns (1 to 25) and `rows`
/// rows (3 to 25) under `rules` (NULL: the defaults): no men, the ball on the
/// rules' start point or the centre, the rules' first player to move.
/// `PHUTBALL_STATUS_INVALID_POSITION` for an unsupported size or a start point
/// outside the board or not strictly between the goal lines.
///
/// # Safety
/// `rules` must be NULL or readable; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_new(
    cols: u8,
    rows: u8,
    rules: *const PhutballRules,
    out: *mut *mut PhutballPosition,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about rules.
        let rules = unsafe { rules_arg(rules) }?;
        let position = Position::start_with(BoardSize::new(cols, rows)?, rules)?;
        // SAFETY: the caller's promise about out.
        unsafe { write_new_handle(out, PhutballPosition(position), "out") }
    })
}

/// Parses a position string (docs/rules.md, "Notation") under `rules` (NULL:
/// the defaults; the string does not record them) and stores a new handle in
/// `*out`; `start` is the standard start and `start:COLSxROWS` the start on
/// that board. `PHUTBALL_STATUS_PARSE_ERROR` for malformed text,
/// `PHUTBALL_STATUS_INVALID_POSITION` for a well-formed string describing an
/// impossible position.
///
/// # Safety
/// `text` must be NULL or NUL-terminated; `rules` NULL or readable; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_parse(
    text: *const c_char,
    rules: *const PhutballRules,
    out: *mut *mut PhutballPosition,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        // SAFETY: the caller's promises about text and rules.
        let (text, rules) = unsafe { (str_arg(text, "text")?, rules_arg(rules)?) };
        let position = Position::parse_with_rules(text, rules)?;
        // SAFETY: the caller's promise about out.
        unsafe { write_new_handle(out, PhutballPosition(position), "out") }
    })
}

/// Stores a new handle holding a copy of `pos` in `*out`.
///
/// # Safety
/// `pos` must be NULL or a live handle; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_clone(
    pos: *const PhutballPosition,
    out: *mut *mut PhutballPosition,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about pos.
        let position = *unsafe { position_arg(pos) }?;
        // SAFETY: the caller's promise about out.
        unsafe { write_new_handle(out, PhutballPosition(position), "out") }
    })
}

/// Frees a position handle. NULL is ignored. The handle must not be used again.
///
/// # Safety
/// `pos` must be NULL or a live handle from this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_free(pos: *mut PhutballPosition) {
    // Dropping a plain value cannot panic; no guard needed.
    // SAFETY: the caller's promise about pos.
    unsafe { free_handle(pos) }
}

/// Writes the position string into `buf` (buffer convention). It parses back
/// to an equal position under the same rules.
///
/// # Safety
/// `pos` NULL or live; `buf` NULL or `len` writable bytes; `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_to_string(
    pos: *const PhutballPosition,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about pos, buf, len and written.
        unsafe { copy_text(&position_arg(pos)?.to_string(), buf, len, written) }
    })
}

/// Writes a multi-line text diagram of the board (coordinates, `#` men, `@`
/// the ball, the side to move or the result) into `buf` (buffer convention).
///
/// # Safety
/// `pos` NULL or live; `buf` NULL or `len` writable bytes; `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_diagram(
    pos: *const PhutballPosition,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about pos, buf, len and written.
        unsafe { copy_text(&position_arg(pos)?.diagram(), buf, len, written) }
    })
}

/// Writes the board's number of columns and rows (goal line to goal line).
///
/// # Safety
/// `pos` NULL or live; `out_cols` and `out_rows` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_size(
    pos: *const PhutballPosition,
    out_cols: *mut u8,
    out_rows: *mut u8,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out_rows, "out_rows")?;
        // SAFETY: the caller's promises about pos, out_cols and out_rows.
        unsafe {
            let size = position_arg(pos)?.size();
            write_out(out_cols, size.cols(), "out_cols")?;
            write_out(out_rows, size.rows(), "out_rows")
        }
    })
}

/// Writes the rules in force.
///
/// # Safety
/// `pos` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_rules(
    pos: *const PhutballPosition,
    out: *mut PhutballRules,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about pos and out.
        unsafe { write_out(out, position_arg(pos)?.rules().into(), "out") }
    })
}

/// Puts the same position under other rules (NULL: the defaults).
/// `PHUTBALL_STATUS_INVALID_POSITION` (and the position unchanged) for a start
/// point outside the board or not strictly between the goal lines.
///
/// # Safety
/// `pos` NULL or a live handle not used elsewhere during the call; `rules` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_set_rules(
    pos: *mut PhutballPosition,
    rules: *const PhutballRules,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about pos and rules.
        let (handle, rules) = unsafe { (mut_arg(pos, "pos")?, rules_arg(rules)?) };
        handle.0 = handle.0.with_rules(rules)?;
        Ok(())
    })
}

/// Writes the ball's point.
///
/// # Safety
/// `pos` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_ball(
    pos: *const PhutballPosition,
    out: *mut PhutballPoint,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about pos and out.
        unsafe { write_out(out, position_arg(pos)?.ball().into(), "out") }
    })
}

/// Writes the side to move (`PHUTBALL_SIDE_OHS` or `PHUTBALL_SIDE_EKS`).
///
/// # Safety
/// `pos` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_to_move(
    pos: *const PhutballPosition,
    out: *mut PhutballSide,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about pos and out.
        unsafe { write_out(out, side_to_c(position_arg(pos)?.to_move()), "out") }
    })
}

/// Writes who has won (the side whose goal the ball is on or over), or
/// `PHUTBALL_SIDE_NONE` while the game goes on.
///
/// # Safety
/// `pos` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_winner(
    pos: *const PhutballPosition,
    out: *mut PhutballSide,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about pos.
        let winner = unsafe { position_arg(pos) }?.winner();
        let side = winner.map_or(PHUTBALL_SIDE_NONE, side_to_c);
        // SAFETY: the caller's promise about out.
        unsafe { write_out(out, side, "out") }
    })
}

/// Writes the men's points, row by row from row 1, left to right, into `buf`
/// (room for `capacity` points) and their number into `*count` (buffer convention).
///
/// # Safety
/// `pos` NULL or live; `buf` NULL or `capacity` writable points; `count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_men(
    pos: *const PhutballPosition,
    buf: *mut PhutballPoint,
    capacity: usize,
    count: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about pos.
        let men: Vec<PhutballPoint> = unsafe { position_arg(pos) }?
            .men()
            .iter()
            .map(Into::into)
            .collect();
        // SAFETY: the caller's promises about buf, capacity and count.
        unsafe { copy_items(&men, buf, capacity, count) }
    })
}

/// Writes whether a man stands on `point` (false for points outside the board).
///
/// # Safety
/// `pos` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_has_man(
    pos: *const PhutballPosition,
    point: PhutballPoint,
    out: *mut bool,
) -> PhutballStatus {
    ffi_call(|| {
        let point = point.to_core()?;
        // SAFETY: the caller's promises about pos and out.
        unsafe { write_out(out, position_arg(pos)?.has_man(point), "out") }
    })
}

/// Writes a 64-bit Zobrist hash of men, ball and side to move (not the rules):
/// equal positions have equal hashes.
///
/// # Safety
/// `pos` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_zobrist(
    pos: *const PhutballPosition,
    out: *mut u64,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about pos and out.
        unsafe { write_out(out, position_arg(pos)?.zobrist(), "out") }
    })
}

/// Writes whether two positions are equal (board, rules, men, ball, side to move).
///
/// # Safety
/// `a` and `b` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_equal(
    a: *const PhutballPosition,
    b: *const PhutballPosition,
    out: *mut bool,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about a, b and out.
        unsafe {
            let a = &ref_arg(a, "a")?.0;
            let b = &ref_arg(b, "b")?.0;
            write_out(out, a == b, "out")
        }
    })
}
