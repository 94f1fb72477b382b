//! Tablebases from C: building one (`phutball_tablebase_build_within`),
//! probing it, its counts, and its file format as bytes. The tables are the
//! solver crate's; these functions only read the arguments and write the
//! answers.

use core::ffi::c_char;

use phutball::BoardSize;
use phutball_solver::{Tablebase, TablebaseFileError, Value};

use crate::budget::{budget_arg, PhutballBudget};
use crate::buffers::{
    bytes_arg, copy_items, copy_text, free_handle, ref_arg, require_out, write_new_handle,
    write_out,
};
use crate::guard::ffi_call;
use crate::position::{position_arg, PhutballPosition};
use crate::proof_result::{result_and_plies, PhutballProofResult};
use crate::status::{solver_failure, tablebase_file_failure, Failure, FfiResult, PhutballStatus};

/// The exact value of every position of a tiny board (at most 32 points)
/// under one off-board rule. An opaque handle owned by the caller, made by
/// `phutball_tablebase_build_within` or `phutball_tablebase_from_bytes` and
/// freed with `phutball_tablebase_free`. Read-only: several threads may
/// probe one table at once.
pub struct PhutballTablebase(Tablebase);

/// A position's exact value for its side to move, from a tablebase.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PhutballValue {
    /// `PHUTBALL_PROOF_WIN`, `PHUTBALL_PROOF_LOSS` or `PHUTBALL_PROOF_DRAW`.
    pub result: PhutballProofResult,
    /// Plies to the forced goal of a win (the fewest) or a loss (the most);
    /// 0 for a draw and for a finished position.
    pub plies: u32,
}

/// The counts of a tablebase's positions (either side to move, not over).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PhutballTablebaseStats {
    /// Positions not over, both sides to move.
    pub positions: u64,
    /// Positions won by the side to move.
    pub wins: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// Positions neither side can force a goal from.
    pub draws: u64,
    /// The longest win, in plies (0 if there is none).
    pub longest_win: u32,
    /// The longest loss, in plies (0 if there is none).
    pub longest_loss: u32,
    /// States stored: positions with Ohs to move, not over (each stands for
    /// its mirror image with Eks to move too).
    pub states: u64,
}

fn value_to_c(value: Value) -> PhutballValue {
    let (result, plies) = result_and_plies(value);
    PhutballValue { result, plies }
}

/// Borrows the table behind a handle argument named `table`.
///
/// # Safety
/// `table` must be NULL or a live tablebase.
pub(crate) unsafe fn table_arg<'a>(table: *const PhutballTablebase) -> FfiResult<&'a Tablebase> {
    // SAFETY: the caller's promise about table.
    Ok(&unsafe { ref_arg(table, "table") }?.0)
}

/// A failure for a position the table does not cover.
fn not_covered(table: &Tablebase, pos: &phutball::Position) -> Failure {
    let rule = |c: bool| if c { " continue-off-board" } else { "" };
    Failure::invalid_argument(format!(
        "the tablebase is for {}{} boards, the position is {}{}",
        table.size(),
        rule(table.continue_off_board()),
        pos.size(),
        rule(pos.rules().continue_off_board)
    ))
}

/// Builds the tablebase of a `cols` x `rows` board (at most 32 points)
/// under the continue-off-board rule when `continue_off_board` is true, on
/// `jobs` threads (0: every core, at most 256; otherwise 1 to 256,
/// `PHUTBALL_STATUS_INVALID_ARGUMENT` past it; the values do not depend on
/// it), and stores a new handle in `*out`.
///
/// Within `budget` (NULL: the defaults): the table and the build must fit
/// `memory_limit` (default 256 MiB: a 5x5 board needs more), else
/// `PHUTBALL_STATUS_TOO_MANY_OUTCOMES`; the timeout, the cancel token and the
/// work limit (states gone through) give up with their statuses.
/// `PHUTBALL_STATUS_INVALID_POSITION` for a size no board has,
/// `PHUTBALL_STATUS_INVALID_ARGUMENT` for more than 32 points.
///
/// # Safety
/// `budget` NULL or readable, its `cancel` NULL or a live token; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_tablebase_build_within(
    cols: u8,
    rows: u8,
    continue_off_board: bool,
    jobs: u32,
    budget: *const PhutballBudget,
    out: *mut *mut PhutballTablebase,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        let size = BoardSize::new(cols, rows)?;
        // Checked here, so that the message names this function's argument.
        let jobs = match jobs {
            0 => Tablebase::default_jobs(),
            n => Tablebase::check_jobs(n as usize)
                .map_err(|e| Failure::invalid_argument(format!("jobs: {e}")))?,
        };
        // SAFETY: the caller's promise about budget.
        let call = unsafe { budget_arg(budget) };
        let table = call
            .run(|budget| {
                Tablebase::build_with_jobs_within(
                    size,
                    continue_off_board,
                    jobs,
                    budget,
                    &mut |_| {},
                )
            })
            .map_err(|e| solver_failure(&e))?;
        // SAFETY: the caller's promise about out.
        unsafe { write_new_handle(out, PhutballTablebase(table), "out") }
    })
}

/// Reads a table from `len` bytes of its file format (what
/// `phutball_tablebase_to_bytes` writes, and the CLI's `phutball tablebase
/// build --out`) and stores a new handle in `*out`.
/// `PHUTBALL_STATUS_INVALID_TABLEBASE` saying what is wrong for bytes that
/// are not one (damaged, truncated, another version or board).
///
/// # Safety
/// `bytes` NULL or `len` readable bytes; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_tablebase_from_bytes(
    bytes: *const u8,
    len: usize,
    out: *mut *mut PhutballTablebase,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        // SAFETY: the caller's promise about bytes and len.
        let bytes = unsafe { bytes_arg(bytes.cast::<c_char>(), len, "bytes") }?;
        let table = Tablebase::from_bytes(bytes)
            .map_err(|e: TablebaseFileError| tablebase_file_failure(&e))?;
        // SAFETY: the caller's promise about out.
        unsafe { write_new_handle(out, PhutballTablebase(table), "out") }
    })
}

/// Writes the table's file format into `buf` (room for `capacity` bytes)
/// and its size into `*count` (buffer convention for arrays: NULL with
/// capacity 0 asks for the size, which is 32 bytes plus one per state).
///
/// # Safety
/// `table` NULL or live; `buf` NULL or `capacity` writable bytes; `count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_tablebase_to_bytes(
    table: *const PhutballTablebase,
    buf: *mut u8,
    capacity: usize,
    count: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(count, "count")?;
        // SAFETY: the caller's promise about table.
        let bytes = unsafe { table_arg(table) }?.to_bytes();
        // SAFETY: the caller's promises about buf, capacity and count.
        unsafe { copy_items(&bytes, buf, capacity, count) }
    })
}

/// Writes the value of `pos` for its side to move. A finished position is
/// a win or a loss in 0 plies. `PHUTBALL_STATUS_INVALID_ARGUMENT` when the
/// table does not cover it (another board size or off-board rule).
///
/// # Safety
/// `table` and `pos` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_tablebase_probe(
    table: *const PhutballTablebase,
    pos: *const PhutballPosition,
    out: *mut PhutballValue,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about table and pos.
        let (table, pos) = unsafe { (table_arg(table)?, position_arg(pos)?) };
        let value = table.probe(pos).ok_or_else(|| not_covered(table, pos))?;
        // SAFETY: the caller's promise about out.
        unsafe { write_out(out, value_to_c(value), "out") }
    })
}

/// Writes a move of `pos` that keeps its value (the shortest win, else a
/// drawing move, else the loss that holds out longest) in notation into
/// `buf` (buffer convention). `PHUTBALL_STATUS_INVALID_ARGUMENT` when the
/// game is over or the table does not cover the position.
///
/// # Safety
/// `table` and `pos` NULL or live; `buf` NULL or `len` writable bytes;
/// `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_tablebase_best_move(
    table: *const PhutballTablebase,
    pos: *const PhutballPosition,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(written, "written")?;
        // SAFETY: the caller's promises about table and pos.
        let (table, pos) = unsafe { (table_arg(table)?, position_arg(pos)?) };
        if !table.covers(pos) {
            return Err(not_covered(table, pos));
        }
        let best = table.best_move(pos).ok_or_else(|| {
            Failure::invalid_argument("the game is over: there is no move to choose")
        })?;
        // SAFETY: the caller's promises about buf, len and written.
        unsafe { copy_text(&best.to_string(), buf, len, written) }
    })
}

/// Writes the table's counts, and its board and rule: `*out_cols`,
/// `*out_rows` and `*out_continue_off_board` may each be NULL when not wanted.
///
/// # Safety
/// `table` NULL or live; `out` NULL or writable; the others NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_tablebase_stats(
    table: *const PhutballTablebase,
    out: *mut PhutballTablebaseStats,
    out_cols: *mut u8,
    out_rows: *mut u8,
    out_continue_off_board: *mut bool,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        // SAFETY: the caller's promise about table.
        let table = unsafe { table_arg(table) }?;
        let s = table.stats();
        let stats = PhutballTablebaseStats {
            positions: s.positions,
            wins: s.wins,
            losses: s.losses,
            draws: s.draws,
            longest_win: s.longest_win,
            longest_loss: s.longest_loss,
            states: table.states(),
        };
        // SAFETY: the caller's promises about the out-parameters.
        unsafe {
            write_out(out, stats, "out")?;
            crate::buffers::write_optional(out_cols, table.size().cols());
            crate::buffers::write_optional(out_rows, table.size().rows());
            crate::buffers::write_optional(out_continue_off_board, table.continue_off_board());
        }
        Ok(())
    })
}

/// Frees a tablebase handle. NULL is ignored. The handle must not be used again.
///
/// # Safety
/// `table` must be NULL or a live tablebase from this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn phutball_tablebase_free(table: *mut PhutballTablebase) {
    // SAFETY: the caller's promise about table.
    unsafe { free_handle(table) }
}
