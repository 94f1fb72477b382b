//! The engine handle: choosing and analysing moves with the phutball engine.

use core::ffi::c_char;
use std::sync::Arc;

use phutball::Position;
use phutball_engine::{default_jobs, Analysis, Engine, EngineError, Evaluation, Limits, Score};

use crate::budget::{budget_arg, PhutballBudget};
use crate::buffers::{
    copy_items, copy_text, free_handle, mut_arg, ref_arg, require_out, write_new_handle, write_out,
};
use crate::game::{game_arg, PhutballGame};
use crate::guard::ffi_call;
use crate::network::{network_arg, PhutballNetwork};
use crate::position::{position_arg, PhutballPosition};
use crate::status::{Failure, FfiResult, PhutballStatus};
use crate::types::{
    PhutballEvaluation, PHUTBALL_EVALUATION_AUTO, PHUTBALL_EVALUATION_HAND, PHUTBALL_EVALUATION_NET,
};

/// An engine: its search limits, seed and evaluation (by default
/// `PHUTBALL_EVALUATION_AUTO`: the built-in network on the standard board,
/// the hand evaluation elsewhere; `phutball_engine_set_evaluation` and
/// `phutball_engine_set_network` change it). An opaque handle
/// owned by the caller, made by `phutball_engine_new` and freed with
/// `phutball_engine_free`. Searching does not change it, so one engine may
/// search on several threads at once.
pub struct PhutballEngine(Engine);

/// Search limits; 0 in `time_ms`, `depth` or `nodes` means "no limit of
/// this kind", and all three 0 means one second per move. The search stops
/// at the first limit reached; with `time_ms` 0 and one thread the choice
/// depends only on the position, the limits and the seed.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PhutballEngineLimits {
    /// Time per move in milliseconds.
    pub time_ms: u32,
    /// Deepest search in plies (1 to 64; larger values are refused with
    /// `PHUTBALL_STATUS_INVALID_ARGUMENT`, as the CLI and Python refuse them).
    pub depth: u32,
    /// Most positions searched (by all threads together).
    pub nodes: u64,
    /// Threads searching each move together, sharing one table (0 or 1: one
    /// thread; larger than 64 is refused with
    /// `PHUTBALL_STATUS_INVALID_ARGUMENT`). With more than one the result
    /// depends on their timing, so it is not reproducible.
    pub threads: u32,
}

/// What kind of value `PhutballAnalysis.score` holds: the `PHUTBALL_SCORE_*` constants.
pub type PhutballScoreKind = u8;
/// Not decided: `score` is the evaluation in hundredths of a row of ball
/// progress, positive when it favours the side to move.
pub const PHUTBALL_SCORE_EVAL: PhutballScoreKind = 0;
/// The side to move wins by force: `score` is the number of moves (plies,
/// both sides counted) until its goal, 1 meaning it scores with this move.
pub const PHUTBALL_SCORE_WIN: PhutballScoreKind = 1;
/// The side to move loses by force: `score` is the number of plies until the
/// opponent's goal.
pub const PHUTBALL_SCORE_LOSS: PhutballScoreKind = 2;

/// The figures of a search (the moves themselves are written as text).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PhutballAnalysis {
    /// How to read `score`: a `PHUTBALL_SCORE_*` constant.
    pub score_kind: PhutballScoreKind,
    /// The evaluation, or the plies to the forced result.
    pub score: i32,
    /// The deepest iteration completed, in plies (0 when no search was needed).
    pub depth: u32,
    /// Positions examined.
    pub nodes: u64,
    /// Time taken, in seconds.
    pub seconds: f64,
}

/// Analyses `pos` with `engine`, within `budget` when it is `Some` (whose
/// pointer may be NULL: the defaults).
///
/// # Safety
/// `engine` and `pos` NULL or live; `budget` `None` or a pointer `budget_arg` accepts.
unsafe fn analyse(
    engine: *const PhutballEngine,
    pos: *const PhutballPosition,
    budget: Option<*const PhutballBudget>,
) -> FfiResult<Analysis> {
    // SAFETY: the caller's promises about engine and pos.
    let (engine, pos) = unsafe { (engine_arg(engine)?, position_arg(pos)?) };
    let analysis = match budget {
        None => engine.analyse(pos),
        Some(budget) => {
            // SAFETY: the caller's promise about budget.
            let call = unsafe { budget_arg(budget) };
            call.run(|budget| engine.analyse_within(pos, budget))
        }
    };
    analysis.map_err(Failure::from)
}

/// The figures of an analysis, for C.
fn figures(analysis: &Analysis) -> PhutballAnalysis {
    let (score_kind, score) = match analysis.score {
        Score::Eval(v) => (PHUTBALL_SCORE_EVAL, v),
        Score::Win { plies } => (PHUTBALL_SCORE_WIN, plies as i32),
        Score::Loss { plies } => (PHUTBALL_SCORE_LOSS, plies as i32),
    };
    PhutballAnalysis {
        score_kind,
        score,
        depth: analysis.depth,
        nodes: analysis.nodes,
        seconds: analysis.elapsed.as_secs_f64(),
    }
}

/// Writes an analysis: the figures to `*out`, the principal variation to `buf`.
///
/// # Safety
/// `out` NULL or writable; `buf` NULL or `len` writable bytes; `written` NULL or writable.
unsafe fn write_analysis(
    analysis: &Analysis,
    out: *mut PhutballAnalysis,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> FfiResult {
    let pv: Vec<String> = analysis.pv.iter().map(ToString::to_string).collect();
    let figures = figures(analysis);
    // The text first: if it does not fit, *out stays as it was.
    // SAFETY: the caller's promises about buf, len, written and out.
    unsafe {
        copy_text(&pv.join(" "), buf, len, written)?;
        write_out(out, figures, "out")
    }
}

/// Borrows the engine behind a handle argument named `engine`.
///
/// # Safety
/// `engine` must be NULL or a live handle that nothing mutates during the call.
unsafe fn engine_arg<'a>(engine: *const PhutballEngine) -> FfiResult<&'a Engine> {
    // SAFETY: the caller's promise about engine.
    Ok(&unsafe { ref_arg(engine, "engine") }?.0)
}

/// The default engine limits: no time, depth or node limit given (so one
/// second per move) and one thread. Passing NULL for the `limits` of
/// `phutball_engine_new` means the same.
#[no_mangle]
pub extern "C" fn phutball_engine_limits_default() -> PhutballEngineLimits {
    PhutballEngineLimits {
        time_ms: 0,
        depth: 0,
        nodes: 0,
        threads: 1,
    }
}

/// Makes an engine with `limits` (NULL: one second per move) and `seed`
/// (which breaks ties between equal moves) and stores a new handle in `*out`.
/// It evaluates with `PHUTBALL_EVALUATION_AUTO`: the built-in network on the
/// standard 15x19 board, the hand evaluation on every other board.
///
/// # Safety
/// `limits` must be NULL or readable; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_engine_new(
    limits: *const PhutballEngineLimits,
    seed: u64,
    out: *mut *mut PhutballEngine,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        // SAFETY: the caller's promise about limits.
        let given = unsafe { limits.as_ref() }
            .copied()
            .unwrap_or_else(|| phutball_engine_limits_default());
        // 0 is "no limit of this kind" (threads: one); any other value is
        // checked by the engine's one table of their ranges, as the CLI and
        // Python check theirs.
        let limits = Limits::checked(
            (given.time_ms > 0).then_some(u64::from(given.time_ms)),
            (given.depth > 0).then_some(u64::from(given.depth)),
            (given.nodes > 0).then_some(given.nodes),
            u64::from(given.threads.max(1)),
        )
        .map_err(|e| {
            Failure::invalid_argument(format!(
                "{}{}",
                e.named(&format!("limits.{}", e.setting.name())),
                " (0: no limit of this kind)"
            ))
        })?;
        // SAFETY: the caller's promise about out.
        unsafe { write_new_handle(out, PhutballEngine(Engine::new(limits, seed)), "out") }
    })
}

/// Makes `engine` evaluate with `network` (docs/network.md) where its search
/// evaluates, or with the hand evaluation (`PHUTBALL_EVALUATION_HAND`) when
/// `network` is NULL (`phutball_engine_set_evaluation` goes back to the
/// default). The engine keeps a reference of its own to the
/// network's weights: the caller still owns the handle and may free it at
/// once. A search of a position of a board size the network does not
/// serve then fails with `PHUTBALL_STATUS_INVALID_ARGUMENT` (`the engine's
/// network cannot judge this position: the network serves 15x19, not 9x9`),
/// never evaluated with another size's weights. The engine's limits and seed
/// are kept; its table is dropped (each search starts from an empty one
/// all the same).
///
/// # Safety
/// `engine` NULL or live, and used by no other thread during the call
/// (it is changed); `network` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn phutball_engine_set_network(
    engine: *mut PhutballEngine,
    network: *const PhutballNetwork,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about engine.
        let engine = unsafe { mut_arg(engine, "engine") }?;
        let evaluation = if network.is_null() {
            Evaluation::Hand
        } else {
            // SAFETY: not NULL, and the caller promises a live network.
            Evaluation::Net(Arc::clone(unsafe { network_arg(network) }?))
        };
        engine.0 = engine.0.clone().with_evaluation(evaluation);
        Ok(())
    })
}

/// Makes `engine` evaluate with `evaluation`: `PHUTBALL_EVALUATION_AUTO`
/// (the default of `phutball_engine_new`: the built-in network on the
/// standard 15x19 board, the hand evaluation on every other board) or
/// `PHUTBALL_EVALUATION_HAND`. A network of one's own is given with
/// `phutball_engine_set_network`; `PHUTBALL_EVALUATION_NET` or any other
/// value here is `PHUTBALL_STATUS_INVALID_ARGUMENT`, the engine unchanged.
/// The engine's limits and seed are kept.
///
/// # Safety
/// `engine` NULL or live, and used by no other thread during the call
/// (it is changed).
#[no_mangle]
pub unsafe extern "C" fn phutball_engine_set_evaluation(
    engine: *mut PhutballEngine,
    evaluation: PhutballEvaluation,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about engine.
        let engine = unsafe { mut_arg(engine, "engine") }?;
        let evaluation = match evaluation {
            PHUTBALL_EVALUATION_AUTO => Evaluation::Auto,
            PHUTBALL_EVALUATION_HAND => Evaluation::Hand,
            PHUTBALL_EVALUATION_NET => {
                return Err(Failure::invalid_argument(
                    "a network is given with phutball_engine_set_network",
                ))
            }
            other => {
                return Err(Failure::invalid_argument(format!(
                    "evaluation {other} is not a PHUTBALL_EVALUATION_* value"
                )))
            }
        };
        engine.0 = engine.0.clone().with_evaluation(evaluation);
        Ok(())
    })
}

/// Stores in `*out` the kind of evaluation `engine` uses: one of the
/// `PHUTBALL_EVALUATION_*` values (`PHUTBALL_EVALUATION_NET` for a network
/// given by `phutball_engine_set_network`, which `phutball_engine_network`
/// hands out).
///
/// # Safety
/// `engine` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_engine_evaluation(
    engine: *const PhutballEngine,
    out: *mut PhutballEvaluation,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        // SAFETY: the caller's promise about engine.
        let engine = unsafe { engine_arg(engine) }?;
        let kind = match engine.evaluation() {
            Evaluation::Auto => PHUTBALL_EVALUATION_AUTO,
            Evaluation::Hand => PHUTBALL_EVALUATION_HAND,
            Evaluation::Net(_) => PHUTBALL_EVALUATION_NET,
        };
        // SAFETY: the caller's promise about out.
        unsafe { write_out(out, kind, "out") }
    })
}

/// Stores in `*out` a new handle of the network `engine` evaluates with
/// (the caller's to free; it shares the engine's weights), or NULL when it
/// uses `PHUTBALL_EVALUATION_AUTO` or `PHUTBALL_EVALUATION_HAND`.
///
/// # Safety
/// `engine` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_engine_network(
    engine: *const PhutballEngine,
    out: *mut *mut PhutballNetwork,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        // SAFETY: the caller's promise about engine.
        let engine = unsafe { engine_arg(engine) }?;
        match engine.evaluation() {
            Evaluation::Net(network) => {
                let handle = PhutballNetwork(Arc::clone(network));
                // SAFETY: the caller's promise about out.
                unsafe { write_new_handle(out, handle, "out") }
            }
            // SAFETY: the caller's promise about out.
            Evaluation::Auto | Evaluation::Hand => unsafe {
                write_out(out, core::ptr::null_mut(), "out")
            },
        }
    })
}

/// Frees an engine handle. NULL is ignored. The handle must not be used again.
///
/// # Safety
/// `engine` must be NULL or a live handle from this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn phutball_engine_free(engine: *mut PhutballEngine) {
    // SAFETY: the caller's promise about engine.
    unsafe { free_handle(engine) }
}

/// Chooses a move for the side to move of `pos` and writes it in notation
/// into `buf` (buffer convention). `PHUTBALL_STATUS_INVALID_ARGUMENT` when the
/// position has no move to choose (the game is over, a jump move is under
/// way, or no move is legal) or is of a board size the engine's network
/// does not serve. On `PHUTBALL_STATUS_BUFFER_TOO_SMALL` the search
/// is lost: call again with a larger buffer (4096 bytes fit any move of the
/// standard board); with a time limit the second search may choose differently.
///
/// # Safety
/// `engine` and `pos` NULL or live; `buf` NULL or `len` writable bytes;
/// `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_engine_best_move(
    engine: *const PhutballEngine,
    pos: *const PhutballPosition,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(written, "written")?;
        // SAFETY: the caller's promises about engine and pos.
        let analysis = unsafe { analyse(engine, pos, None) }?;
        // SAFETY: the caller's promises about buf, len and written.
        unsafe { copy_text(&analysis.best_move.to_string(), buf, len, written) }
    })
}

/// Searches `pos` and writes the figures to `*out` and the principal
/// variation (the best move first, then the expected replies, separated by
/// single spaces) into `buf` (buffer convention; the same notes as
/// `phutball_engine_best_move`). Nothing is written to `*out` unless the
/// call succeeds.
///
/// # Safety
/// `engine` and `pos` NULL or live; `out` NULL or writable; `buf` NULL or
/// `len` writable bytes; `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_engine_analyse(
    engine: *const PhutballEngine,
    pos: *const PhutballPosition,
    out: *mut PhutballAnalysis,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        require_out(written, "written")?;
        // SAFETY: the caller's promises about engine and pos.
        let analysis = unsafe { analyse(engine, pos, None) }?;
        // SAFETY: the caller's promises about out, buf, len and written.
        unsafe { write_analysis(&analysis, out, buf, len, written) }
    })
}

/// `phutball_engine_best_move`, which the caller can stop: within `budget`
/// (NULL: the defaults, which do not stop it), the cancel token stops the
/// search with `PHUTBALL_STATUS_CANCELLED` and the timeout with
/// `PHUTBALL_STATUS_TIMED_OUT`, and no move is written. These are not the
/// engine's own limits (`PhutballEngineLimits`, given to
/// `phutball_engine_new`): those end the search with a move. The engine does
/// not use `work_limit` (its node limit bounds its work); `memory_limit`
/// bounds each of its calls into the core, and a call over it counts as
/// undecided, not as an error: a limit far below the default hides moves
/// from the engine (the jump moves first) and weakens its play.
///
/// # Safety
/// `engine` and `pos` NULL or live; `budget` NULL or readable, its `cancel`
/// NULL or a live token; `buf` NULL or `len` writable bytes; `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_engine_best_move_within(
    engine: *const PhutballEngine,
    pos: *const PhutballPosition,
    budget: *const PhutballBudget,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(written, "written")?;
        // SAFETY: the caller's promises about engine, pos and budget.
        let analysis = unsafe { analyse(engine, pos, Some(budget)) }?;
        // SAFETY: the caller's promises about buf, len and written.
        unsafe { copy_text(&analysis.best_move.to_string(), buf, len, written) }
    })
}

/// `phutball_engine_analyse`, which the caller can stop within `budget`, as
/// `phutball_engine_best_move_within`. Nothing is written to `*out` unless
/// the call succeeds.
///
/// # Safety
/// `engine` and `pos` NULL or live; `budget` NULL or readable, its `cancel`
/// NULL or a live token; `out` NULL or writable; `buf` NULL or `len` writable
/// bytes; `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_engine_analyse_within(
    engine: *const PhutballEngine,
    pos: *const PhutballPosition,
    budget: *const PhutballBudget,
    out: *mut PhutballAnalysis,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        require_out(written, "written")?;
        // SAFETY: the caller's promises about engine, pos and budget.
        let analysis = unsafe { analyse(engine, pos, Some(budget)) }?;
        // SAFETY: the caller's promises about out, buf, len and written.
        unsafe { write_analysis(&analysis, out, buf, len, written) }
    })
}

/// `phutball_engine_analyse_within` for the current position of `game`:
/// the positions the game has already been through count as a slight loss
/// for the side to move (a cycle), so the engine avoids going round in
/// circles when it has anything as good, as the CLI's `game` command does.
/// `budget` NULL: the defaults. Nothing is written to `*out` unless the call
/// succeeds; the best move is the first of the principal variation in `buf`.
///
/// # Safety
/// `engine` and `game` NULL or live; `budget` NULL or readable, its `cancel`
/// NULL or a live token; `out` NULL or writable; `buf` NULL or `len` writable
/// bytes; `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_engine_analyse_game_within(
    engine: *const PhutballEngine,
    game: *const PhutballGame,
    budget: *const PhutballBudget,
    out: *mut PhutballAnalysis,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        require_out(written, "written")?;
        // SAFETY: the caller's promises about engine, game and budget.
        let (engine, game, call) =
            unsafe { (engine_arg(engine)?, game_arg(game)?, budget_arg(budget)) };
        let analysis = call
            .run(|budget| engine.analyse_game_within(game, budget))
            .map_err(Failure::from)?;
        // SAFETY: the caller's promises about out, buf, len and written.
        unsafe { write_analysis(&analysis, out, buf, len, written) }
    })
}

/// One position's answer from `phutball_engine_analyse_many`.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PhutballBatchAnalysis {
    /// `PHUTBALL_STATUS_OK`, or why this position has no analysis, as the
    /// single-position call would say: `PHUTBALL_STATUS_INVALID_ARGUMENT`
    /// for a position with no move to choose, `PHUTBALL_STATUS_CANCELLED` or
    /// `PHUTBALL_STATUS_TIMED_OUT` when the call's budget stopped it.
    pub status: PhutballStatus,
    /// The figures (all zero unless `status` is OK).
    pub analysis: PhutballAnalysis,
    /// Where the best move's text starts in the `moves` buffer: a
    /// NUL-terminated move in notation (empty unless `status` is OK).
    pub move_offset: usize,
}

/// Analyses `count` positions with `engine`'s limits, seed and evaluation
/// on `jobs` threads (0: every core), each thread with an engine of its own, and
/// writes one `PhutballBatchAnalysis` per position to `results`, in input
/// order. The best moves go into `moves` (buffer convention, for all of
/// them at once: each NUL-terminated, at its result's `move_offset`;
/// `*moves_written` is their total size, NULs included; 4096 bytes per
/// position fit any move of the standard board). Everything is the
/// caller's: `positions` (an array of `count` live handles, read only),
/// `results` (room for `count`) and `moves` are only borrowed for the call.
///
/// `budget` (NULL: the defaults) stops the whole batch as
/// `phutball_engine_analyse_within` stops one search: the positions it cut
/// short get `PHUTBALL_STATUS_CANCELLED` or `PHUTBALL_STATUS_TIMED_OUT` in
/// their result. The call returns `PHUTBALL_STATUS_OK` when it wrote every
/// result, whatever their statuses; on any other status (a NULL argument,
/// `moves` too small: the analyses are then lost) it writes no result.
/// With `time_ms` 0 and `threads` 0 or 1 in the engine's limits, the
/// results do not depend on `jobs`.
///
/// # Safety
/// `engine` NULL or live; `positions` NULL or `count` readable pointers,
/// each NULL or live (`count` 0: `positions` may be NULL); `budget` NULL or
/// readable, its `cancel` NULL or a live token; `results` NULL or `count`
/// writable items; `moves` NULL or `moves_len` writable bytes;
/// `moves_written` NULL or writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn phutball_engine_analyse_many(
    engine: *const PhutballEngine,
    positions: *const *const PhutballPosition,
    count: usize,
    jobs: u32,
    budget: *const PhutballBudget,
    results: *mut PhutballBatchAnalysis,
    moves: *mut c_char,
    moves_len: usize,
    moves_written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(moves_written, "moves_written")?;
        if count > 0 {
            require_out(results, "results")?;
        }
        // SAFETY: the caller's promises about engine, positions and count.
        let (engine, batch) = unsafe { (engine_arg(engine)?, batch_arg(positions, count)?) };
        let jobs = match jobs {
            0 => default_jobs(),
            jobs => jobs as usize,
        };
        // SAFETY: the caller's promise about budget.
        let call = unsafe { budget_arg(budget) };
        let answers = call.run(|budget| engine.analyse_many(&batch, jobs, budget));
        let (text, items) = batch_items(&answers);
        // The moves first: if they do not fit, no result is written.
        // SAFETY: the caller's promises about moves, moves_len and moves_written.
        unsafe {
            copy_items(
                text.as_bytes(),
                moves.cast::<u8>(),
                moves_len,
                moves_written,
            )
        }?;
        // SAFETY: results is not NULL when count > 0 (checked above) and the
        // caller promises count writable items; the lists cannot overlap.
        unsafe { copy_items(&items, results, count, &mut 0) }
    })
}

/// The positions behind `count` handles at `positions`, copied.
///
/// # Safety
/// `positions` NULL or `count` readable pointers, each NULL or live
/// (`count` 0: `positions` may be NULL).
unsafe fn batch_arg(
    positions: *const *const PhutballPosition,
    count: usize,
) -> FfiResult<Vec<Position>> {
    let handles: &[*const PhutballPosition] = if count == 0 {
        &[]
    } else if positions.is_null() {
        return Err(Failure::null("positions (with a non-zero count)"));
    } else {
        // SAFETY: not NULL, and the caller promises count readable pointers.
        unsafe { core::slice::from_raw_parts(positions, count) }
    };
    handles
        .iter()
        // SAFETY: the caller promises each is NULL or live.
        .map(|&pos| unsafe { position_arg(pos) }.copied())
        .collect()
}

/// The batch's results, in order, and their best moves as one text of
/// NUL-terminated moves at the results' `move_offset`s.
fn batch_items(answers: &[Result<Analysis, EngineError>]) -> (String, Vec<PhutballBatchAnalysis>) {
    let mut text = String::new();
    let mut items = Vec::with_capacity(answers.len());
    for answer in answers {
        let move_offset = text.len();
        let item = match answer {
            Ok(analysis) => {
                text.push_str(&analysis.best_move.to_string());
                PhutballBatchAnalysis {
                    status: PhutballStatus::Ok,
                    analysis: figures(analysis),
                    move_offset,
                }
            }
            Err(e) => PhutballBatchAnalysis {
                status: Failure::from(e.clone()).status,
                analysis: PhutballAnalysis {
                    score_kind: PHUTBALL_SCORE_EVAL,
                    score: 0,
                    depth: 0,
                    nodes: 0,
                    seconds: 0.0,
                },
                move_offset,
            },
        };
        text.push('\0');
        items.push(item);
    }
    (text, items)
}
