//! The game handle: a start position, the moves played, undo, the result, a
//! move limit and the text game record.

use core::ffi::c_char;

use phutball::{Game, GameResult, Move, Side};

use crate::buffers::{
    copy_text, free_handle, mut_arg, ref_arg, require_out, str_arg, write_new_handle,
    write_optional, write_out,
};
use crate::guard::ffi_call;
use crate::position::{position_arg, PhutballPosition};
use crate::status::{Failure, FfiResult, PhutballStatus};
use crate::types::{
    PhutballGameResult, PHUTBALL_RESULT_DRAW, PHUTBALL_RESULT_EKS_WON, PHUTBALL_RESULT_OHS_WON,
    PHUTBALL_RESULT_ONGOING,
};

/// A game: its start position, the moves played and the positions they lead
/// to, an optional move limit. An opaque handle owned by the caller, freed with
/// `phutball_game_free`.
pub struct PhutballGame(Game);

/// # Safety
/// `game` must be NULL or a live handle that nothing mutates during the call.
pub(crate) unsafe fn game_arg<'a>(game: *const PhutballGame) -> FfiResult<&'a Game> {
    // SAFETY: the caller's promise about game.
    Ok(&unsafe { ref_arg(game, "game") }?.0)
}

/// Starts a game from a copy of `start`, with no move limit, and stores a new
/// handle in `*out`. The game does not keep `start`: free it when you like.
///
/// # Safety
/// `start` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_game_new(
    start: *const PhutballPosition,
    out: *mut *mut PhutballGame,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about start.
        let start = *unsafe { position_arg(start) }?;
        // SAFETY: the caller's promise about out.
        unsafe { write_new_handle(out, PhutballGame(Game::new(start)), "out") }
    })
}

/// Reads a game record (the core's text format: a `start <position>` line,
/// optional `rules` and `limit` lines, then one move per line; every move is
/// checked) and stores a new handle in `*out`. `PHUTBALL_STATUS_PARSE_ERROR`
/// with the line number in the message for a bad record.
///
/// # Safety
/// `record` NULL or NUL-terminated; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_game_parse(
    record: *const c_char,
    out: *mut *mut PhutballGame,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        // SAFETY: the caller's promise about record.
        let game: Game = unsafe { str_arg(record, "record") }?.parse()?;
        // SAFETY: the caller's promise about out.
        unsafe { write_new_handle(out, PhutballGame(game), "out") }
    })
}

/// Frees a game handle. NULL is ignored. The handle must not be used again.
///
/// # Safety
/// `game` must be NULL or a live handle from this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn phutball_game_free(game: *mut PhutballGame) {
    // SAFETY: the caller's promise about game.
    unsafe { free_handle(game) }
}

/// Sets the move limit: after `limit` moves without a goal the game is a draw
/// and takes no more moves.
///
/// # Safety
/// `game` NULL or a live handle used by nothing else during the call.
#[no_mangle]
pub unsafe extern "C" fn phutball_game_set_move_limit(
    game: *mut PhutballGame,
    limit: u32,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about game.
        let handle = unsafe { mut_arg(game, "game") }?;
        handle.0 = handle.0.clone().with_move_limit(Some(limit));
        Ok(())
    })
}

/// Removes the move limit.
///
/// # Safety
/// `game` NULL or a live handle used by nothing else during the call.
#[no_mangle]
pub unsafe extern "C" fn phutball_game_clear_move_limit(game: *mut PhutballGame) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about game.
        let handle = unsafe { mut_arg(game, "game") }?;
        handle.0 = handle.0.clone().with_move_limit(None);
        Ok(())
    })
}

/// Plays the move `move_text` (notation). On error the game is unchanged:
/// `PHUTBALL_STATUS_PARSE_ERROR` for text that is not notation,
/// `PHUTBALL_STATUS_ILLEGAL_MOVE` for an illegal move (the message gives the
/// move number and the reason), `PHUTBALL_STATUS_MOVE_LIMIT` once the game is drawn.
///
/// # Safety
/// `game` NULL or a live handle used by nothing else during the call;
/// `move_text` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn phutball_game_push(
    game: *mut PhutballGame,
    move_text: *const c_char,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about game and move_text.
        let (handle, text) = unsafe { (mut_arg(game, "game")?, str_arg(move_text, "move")?) };
        let m: Move = text.parse()?;
        Ok(handle.0.push(m)?)
    })
}

/// Takes back the last move, if any; `*out_popped` (may be NULL) says whether
/// there was one.
///
/// # Safety
/// `game` NULL or a live handle used by nothing else during the call;
/// `out_popped` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_game_pop(
    game: *mut PhutballGame,
    out_popped: *mut bool,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about game.
        let popped = unsafe { mut_arg(game, "game") }?.0.pop().is_some();
        // SAFETY: the caller's promise about out_popped.
        unsafe { write_optional(out_popped, popped) };
        Ok(())
    })
}

/// Writes the number of moves played.
///
/// # Safety
/// `game` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_game_move_count(
    game: *const PhutballGame,
    out: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about game and out.
        unsafe { write_out(out, game_arg(game)?.moves().len(), "out") }
    })
}

/// Writes move number `index` (0-based) in notation into `buf` (buffer
/// convention). `PHUTBALL_STATUS_INVALID_ARGUMENT` when `index` is past the end.
///
/// # Safety
/// `game` NULL or live; `buf` NULL or `len` writable bytes; `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_game_move(
    game: *const PhutballGame,
    index: usize,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about game.
        let moves = unsafe { game_arg(game) }?.moves();
        let m = moves.get(index).ok_or_else(|| {
            Failure::invalid_argument(format!(
                "move index {index} is past the end: the game has {} moves",
                moves.len()
            ))
        })?;
        // SAFETY: the caller's promises about buf, len and written.
        unsafe { copy_text(&m.to_string(), buf, len, written) }
    })
}

/// Stores a new position handle holding a copy of the current position in
/// `*out` (the caller frees it with `phutball_position_free`).
///
/// # Safety
/// `game` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_game_position(
    game: *const PhutballGame,
    out: *mut *mut PhutballPosition,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about game.
        let position = *unsafe { game_arg(game) }?.position();
        // SAFETY: the caller's promise about out.
        unsafe { write_new_handle(out, PhutballPosition(position), "out") }
    })
}

/// Writes how the game stands: a `PHUTBALL_RESULT_*` value.
///
/// # Safety
/// `game` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_game_result(
    game: *const PhutballGame,
    out: *mut PhutballGameResult,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about game.
        let result = match unsafe { game_arg(game) }?.result() {
            GameResult::Ongoing => PHUTBALL_RESULT_ONGOING,
            GameResult::Win(Side::Ohs) => PHUTBALL_RESULT_OHS_WON,
            GameResult::Win(Side::Eks) => PHUTBALL_RESULT_EKS_WON,
            GameResult::Draw => PHUTBALL_RESULT_DRAW,
        };
        // SAFETY: the caller's promise about out.
        unsafe { write_out(out, result, "out") }
    })
}

/// Writes the game record (multi-line text; `phutball_game_parse` reads it
/// back to an equal game) into `buf` (buffer convention).
///
/// # Safety
/// `game` NULL or live; `buf` NULL or `len` writable bytes; `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_game_to_string(
    game: *const PhutballGame,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promises about game, buf, len and written.
        unsafe { copy_text(&game_arg(game)?.to_string(), buf, len, written) }
    })
}
