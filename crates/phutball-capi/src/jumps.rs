//! Jump moves: visiting every path or one path per distinct outcome, counting
//! them (each also in a `*_within` form that takes `PhutballBudget`), and
//! writing a path in notation.

use core::ffi::{c_char, c_void};
use core::ops::ControlFlow;

use phutball::{Move, Point, Position};

use crate::budget::{budget_arg, write_within, PhutballBudget};
use crate::buffers::{copy_text, ref_arg, write_optional, write_out};
use crate::guard::ffi_call;
use crate::position::{position_arg, PhutballPosition};
use crate::status::{Failure, FfiResult, PhutballStatus};
use crate::types::PhutballPoint;

/// Called once per jump path with `user_data` as given, and the path: the
/// ball's starting point then each landing point (`len` >= 2 points). The
/// points are valid only during the call; copy them to keep them. Return true
/// to go on, false to stop the walk. The visitor runs on the calling thread; it
/// may call other functions of this library but must not free or change the
/// position being walked.
pub type PhutballPathVisitor = Option<
    unsafe extern "C" fn(user_data: *mut c_void, path: *const PhutballPoint, len: usize) -> bool,
>;

/// Which walk of the core to run.
#[derive(Copy, Clone)]
enum Walk {
    Paths,
    Outcomes,
}

/// Runs a walk over `pos`, handing each path to the C visitor: within
/// `budget` when it is `Some` (whose pointer may be NULL: the defaults), else
/// as the functions without a budget always did.
///
/// # Safety
/// `pos` NULL or live; `budget` `None` or a pointer `budget_arg` accepts;
/// `visitor` a function that honours its contract with `user_data`;
/// `out_stopped` NULL or writable.
unsafe fn visit(
    walk: Walk,
    pos: *const PhutballPosition,
    budget: Option<*const PhutballBudget>,
    visitor: PhutballPathVisitor,
    user_data: *mut c_void,
    out_stopped: *mut bool,
) -> FfiResult {
    // A copy: the walk does not depend on the handle staying alive.
    // SAFETY: the caller's promise about pos.
    let position = *unsafe { position_arg(pos) }?;
    let visitor = visitor.ok_or_else(|| Failure::null("visitor"))?;
    let mut points: Vec<PhutballPoint> = Vec::new();
    let mut call = |path: &[Point]| {
        points.clear();
        points.extend(path.iter().map(|&p| PhutballPoint::from(p)));
        // SAFETY: points is a live array of path.len() points for the whole
        // call; user_data is passed back untouched as the caller asked.
        if unsafe { visitor(user_data, points.as_ptr(), points.len()) } {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    };
    let flow = match budget {
        None => match walk {
            Walk::Paths => position.for_each_jump_path(&mut call),
            Walk::Outcomes => position.for_each_jump_outcome(&mut call)?,
        },
        Some(budget) => {
            // SAFETY: the caller's promise about budget.
            let within = unsafe { budget_arg(budget) };
            within.run(|budget| match walk {
                Walk::Paths => position.for_each_jump_path_within(budget, &mut call),
                Walk::Outcomes => position.for_each_jump_outcome_within(budget, &mut call),
            })?
        }
    };
    // SAFETY: the caller's promise about out_stopped.
    unsafe { write_optional(out_stopped, flow.is_break()) };
    Ok(())
}

/// Calls `visitor` with every legal jump path of the side to move, depth
/// first; every non-empty prefix of a legal path is a path, so each is
/// visited. Dense positions have millions of paths. If `out_stopped` is not
/// NULL, it is set to whether the visitor stopped the walk. Unbounded but
/// for the visitor, which can stop it; `phutball_position_for_each_jump_path_within`
/// takes a budget.
///
/// # Safety
/// `pos` NULL or live; `visitor` NULL or a function honouring
/// `PhutballPathVisitor`'s contract with `user_data`; `out_stopped` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_for_each_jump_path(
    pos: *const PhutballPosition,
    visitor: PhutballPathVisitor,
    user_data: *mut c_void,
    out_stopped: *mut bool,
) -> PhutballStatus {
    // SAFETY: the caller's promises are visit's.
    ffi_call(|| unsafe { visit(Walk::Paths, pos, None, visitor, user_data, out_stopped) })
}

/// Calls `visitor` once per distinct position the side to move can reach by
/// jumping (ball point plus remaining men), with the first path found that
/// reaches it. Much faster than visiting every path.
/// `PHUTBALL_STATUS_TOO_MANY_OUTCOMES` if the states it remembers would
/// exceed the default memory limit (256 MiB); nothing else bounds it but the
/// visitor. `phutball_position_for_each_jump_outcome_within` takes a budget.
///
/// # Safety
/// As `phutball_position_for_each_jump_path`.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_for_each_jump_outcome(
    pos: *const PhutballPosition,
    visitor: PhutballPathVisitor,
    user_data: *mut c_void,
    out_stopped: *mut bool,
) -> PhutballStatus {
    // SAFETY: the caller's promises are visit's.
    ffi_call(|| unsafe { visit(Walk::Outcomes, pos, None, visitor, user_data, out_stopped) })
}

/// Writes the number of legal jump paths, counted without building any.
/// Unbounded: on dense boards it can take minutes, and nothing stops it;
/// `phutball_position_count_jump_paths_within` takes a budget.
///
/// # Safety
/// `pos` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_count_jump_paths(
    pos: *const PhutballPosition,
    out: *mut u64,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about pos and out.
        unsafe { write_out(out, position_arg(pos)?.count_jump_paths(), "out") }
    })
}

/// Writes the number of distinct positions the side to move can reach by
/// jumping. Bounded by the default memory limit only
/// (`PHUTBALL_STATUS_TOO_MANY_OUTCOMES` beyond it);
/// `phutball_position_count_jump_outcomes_within` takes a budget.
///
/// # Safety
/// `pos` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_count_jump_outcomes(
    pos: *const PhutballPosition,
    out: *mut u64,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about pos.
        let count = unsafe { position_arg(pos) }?.count_jump_outcomes()?;
        // SAFETY: the caller's promise about out.
        unsafe { write_out(out, count, "out") }
    })
}

/// `phutball_position_for_each_jump_path` within `budget` (NULL: the
/// defaults; a landing is a step of work). When it gives up
/// (`PHUTBALL_STATUS_TIMED_OUT`, `_CANCELLED`, `_WORK_LIMIT`) the visitor may
/// already have seen some paths, and `*out_stopped` is not written.
///
/// # Safety
/// As `phutball_position_for_each_jump_path`; `budget` NULL or readable, its
/// `cancel` NULL or a live token.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_for_each_jump_path_within(
    pos: *const PhutballPosition,
    budget: *const PhutballBudget,
    visitor: PhutballPathVisitor,
    user_data: *mut c_void,
    out_stopped: *mut bool,
) -> PhutballStatus {
    // SAFETY: the caller's promises are visit's.
    ffi_call(|| unsafe {
        visit(
            Walk::Paths,
            pos,
            Some(budget),
            visitor,
            user_data,
            out_stopped,
        )
    })
}

/// `phutball_position_for_each_jump_outcome` within `budget` (NULL: the
/// defaults; a distinct outcome is a step of work, and the states remembered,
/// 16 bytes and a slot each, count against the memory limit). When it gives
/// up the visitor may already have seen some outcomes, and `*out_stopped` is
/// not written.
///
/// # Safety
/// As `phutball_position_for_each_jump_path_within`.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_for_each_jump_outcome_within(
    pos: *const PhutballPosition,
    budget: *const PhutballBudget,
    visitor: PhutballPathVisitor,
    user_data: *mut c_void,
    out_stopped: *mut bool,
) -> PhutballStatus {
    // SAFETY: the caller's promises are visit's.
    ffi_call(|| unsafe {
        visit(
            Walk::Outcomes,
            pos,
            Some(budget),
            visitor,
            user_data,
            out_stopped,
        )
    })
}

/// `phutball_position_count_jump_paths` within `budget` (NULL: the defaults,
/// which do not stop it; a landing the walk goes on from is a step of work).
///
/// # Safety
/// `pos` NULL or live; `budget` NULL or readable, its `cancel` NULL or a live
/// token; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_count_jump_paths_within(
    pos: *const PhutballPosition,
    budget: *const PhutballBudget,
    out: *mut u64,
) -> PhutballStatus {
    // SAFETY: the caller's promises are write_within's.
    ffi_call(|| unsafe { write_within(pos, budget, out, Position::count_jump_paths_within) })
}

/// `phutball_position_count_jump_outcomes` within `budget` (NULL: the
/// defaults; a distinct outcome is a step of work, and the states remembered
/// count against the memory limit).
///
/// # Safety
/// `pos` NULL or live; `budget` NULL or readable, its `cancel` NULL or a live
/// token; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_position_count_jump_outcomes_within(
    pos: *const PhutballPosition,
    budget: *const PhutballBudget,
    out: *mut u64,
) -> PhutballStatus {
    // SAFETY: the caller's promises are write_within's.
    ffi_call(|| unsafe { write_within(pos, budget, out, Position::count_jump_outcomes_within) })
}

/// Writes the `len` points of `path` in notation, joined by `-`
/// (`"K6-G9-G11-J11"`; one point gives `"H10"`), into `buf` (buffer convention).
/// This formats only: it does not check that the path is a legal jump.
///
/// # Safety
/// `path` NULL or `len` readable points; `buf` NULL or `buf_len` writable
/// bytes; `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_path_to_string(
    path: *const PhutballPoint,
    len: usize,
    buf: *mut c_char,
    buf_len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about path (checked for NULL just now).
        let first = unsafe { ref_arg(path, "path") }?;
        if len == 0 {
            return Err(Failure::invalid_argument("a path needs at least one point"));
        }
        // SAFETY: path is not NULL and the caller promises len readable points.
        let points = unsafe { core::slice::from_raw_parts(first, len) };
        let points = points
            .iter()
            .map(|p| p.to_core())
            .collect::<FfiResult<Vec<Point>>>()?;
        let text = Move::Jump(points).to_string();
        // SAFETY: the caller's promises about buf, buf_len and written.
        unsafe { copy_text(&text, buf, buf_len, written) }
    })
}
