//! The fuzz target of the entry points that take text (fuzz/, the `capi`
//! target; docs/fuzzing.md): here, in the C ABI crate, so that its `unsafe`
//! calls stay in the one crate allowed them. Built only with the `fuzzing`
//! feature, which the fuzz workspace's copy of this crate turns on.
//!
//! Each call is made as C would make it: the input up to its first NUL byte
//! as a NUL-terminated string (and its first line, and the rest, for a
//! position and a move), the whole input as the certificate's bytes. No
//! call may panic (`PHUTBALL_STATUS_PANIC`); a failed call leaves a
//! last-error message; what parses prints back to an equal value.
// The fuzzer's checks are assertions: a failed one is what it reports.
#![allow(clippy::missing_panics_doc)]

use std::ffi::{c_char, CString};
use std::ptr;

use crate::budget::{phutball_budget_default, PhutballBudget};
use crate::game::{phutball_game_free, phutball_game_parse, phutball_game_to_string, PhutballGame};
use crate::jump_in_progress::{
    phutball_jump_in_progress_free, phutball_jump_in_progress_from_string,
    phutball_jump_in_progress_to_string, PhutballJumpInProgress,
};
use crate::last_error::phutball_last_error_message;
use crate::play::{
    phutball_position_check_move, phutball_position_is_legal, phutball_position_play,
};
use crate::position::{
    phutball_position_clone, phutball_position_equal, phutball_position_free,
    phutball_position_parse, phutball_position_to_string, PhutballPosition,
};
use crate::prove::{phutball_check_proof, PhutballCheckedProof};
use crate::status::PhutballStatus;
use crate::types::{
    phutball_point_parse, phutball_point_to_string, phutball_rules_default, PhutballPoint,
    PhutballRules, PHUTBALL_SIDE_EKS,
};

/// One fuzz input through every entry point that takes text (see the
/// module's documentation). Panics (the fuzzer's finding) when a call breaks
/// its contract.
pub fn text_entry_points(data: &[u8]) {
    let text_bytes = data.split(|&b| b == 0).next().unwrap_or_default();
    let whole = CString::new(text_bytes).expect("no NUL before the first NUL");
    let (first, rest) = match text_bytes.iter().position(|&b| b == b'\n') {
        Some(i) => (&text_bytes[..i], &text_bytes[i + 1..]),
        None => (text_bytes, &b""[..]),
    };
    let first = CString::new(first).expect("no NUL");
    let rest = CString::new(rest).expect("no NUL");

    point(&whole);
    let mut other_rules = phutball_rules_default();
    other_rules.continue_off_board = true;
    other_rules.first_player = PHUTBALL_SIDE_EKS;
    for rules in [ptr::null(), &raw const other_rules] {
        position_and_move(&first, &rest, rules);
        position_and_move(&whole, &rest, rules);
        jump_in_progress(&whole, rules);
    }
    game(&whole);
    certificate(data);
}

/// The status of a call: never a panic, and a failure leaves a message.
fn checked(status: PhutballStatus, what: &str) -> PhutballStatus {
    assert_ne!(status, PhutballStatus::Panic, "{what}: {}", last_error());
    if status != PhutballStatus::Ok {
        let message = last_error();
        assert!(
            !message.is_empty(),
            "{what} failed ({status:?}) with no message"
        );
    }
    status
}

/// Text through the buffer convention: a size query, then the text.
fn text_of(what: &str, write: impl Fn(*mut c_char, usize, *mut usize) -> PhutballStatus) -> String {
    let mut needed = 0usize;
    let status = write(ptr::null_mut(), 0, &raw mut needed);
    assert!(
        matches!(status, PhutballStatus::BufferTooSmall | PhutballStatus::Ok),
        "{what}: size query gave {status:?}"
    );
    let mut buf = vec![0 as c_char; needed + 1];
    let mut written = 0usize;
    let status = write(buf.as_mut_ptr(), buf.len(), &raw mut written);
    assert_eq!(status, PhutballStatus::Ok, "{what}");
    assert_eq!(written, needed, "{what}");
    assert_eq!(buf[written], 0, "{what}: no NUL");
    let bytes: Vec<u8> = buf[..written].iter().map(|&c| c as u8).collect();
    String::from_utf8(bytes).unwrap_or_else(|e| panic!("{what} is not UTF-8: {e}"))
}

fn last_error() -> String {
    // SAFETY: the buffer pointers come from text_of, live for the call.
    text_of("the last error", |buf, len, written| unsafe {
        phutball_last_error_message(buf, len, written)
    })
}

fn point(text: &CString) {
    let mut p = PhutballPoint { col: 0, row: 0 };
    // SAFETY: a NUL-terminated string and a writable point.
    let status = unsafe { phutball_point_parse(text.as_ptr(), &raw mut p) };
    if checked(status, "phutball_point_parse") != PhutballStatus::Ok {
        return;
    }
    // SAFETY: the buffer pointers come from text_of, live for the call.
    let printed = text_of("phutball_point_to_string", |buf, len, written| unsafe {
        phutball_point_to_string(p, buf, len, written)
    });
    let again = CString::new(printed.clone()).expect("no NUL in a point");
    let mut back = PhutballPoint { col: 0, row: 0 };
    // SAFETY: a NUL-terminated string and a writable point.
    let status = unsafe { phutball_point_parse(again.as_ptr(), &raw mut back) };
    assert_eq!(status, PhutballStatus::Ok, "{printed:?}");
    assert_eq!((back.col, back.row), (p.col, p.row), "{printed:?}");
}

/// Parses a position; if it parses, prints it back and tries `move_text` on it.
fn position_and_move(text: &CString, move_text: &CString, rules: *const PhutballRules) {
    let mut pos: *mut PhutballPosition = ptr::null_mut();
    // SAFETY: a NUL-terminated string, rules NULL or live, a writable handle slot.
    let status = unsafe { phutball_position_parse(text.as_ptr(), rules, &raw mut pos) };
    if checked(status, "phutball_position_parse") != PhutballStatus::Ok {
        assert!(pos.is_null(), "a failed parse wrote a handle");
        return;
    }
    // SAFETY: pos is a live handle; the buffer pointers come from text_of.
    let printed = text_of("phutball_position_to_string", |buf, len, written| unsafe {
        phutball_position_to_string(pos, buf, len, written)
    });
    let again = CString::new(printed.clone()).expect("no NUL in a position string");
    let mut back: *mut PhutballPosition = ptr::null_mut();
    // SAFETY: as above.
    let status = unsafe { phutball_position_parse(again.as_ptr(), rules, &raw mut back) };
    assert_eq!(status, PhutballStatus::Ok, "{printed:?}: {}", last_error());
    let mut equal = false;
    // SAFETY: two live handles and a writable bool.
    let status = unsafe { phutball_position_equal(pos, back, &raw mut equal) };
    assert_eq!(status, PhutballStatus::Ok);
    assert!(equal, "{printed:?} parses back to another position");

    let mut legal = false;
    // SAFETY: a live handle, a NUL-terminated string, a writable bool.
    let is_legal = checked(
        // SAFETY: pointers to live values of this function, NUL-terminated strings.
        unsafe { phutball_position_is_legal(pos, move_text.as_ptr(), &raw mut legal) },
        "phutball_position_is_legal",
    );
    // SAFETY: a live handle and a NUL-terminated string.
    let check = checked(
        // SAFETY: pointers to live values of this function, NUL-terminated strings.
        unsafe { phutball_position_check_move(pos, move_text.as_ptr()) },
        "phutball_position_check_move",
    );
    let mut copy: *mut PhutballPosition = ptr::null_mut();
    // SAFETY: a live handle and a writable handle slot.
    let status = unsafe { phutball_position_clone(pos, &raw mut copy) };
    assert_eq!(status, PhutballStatus::Ok);
    // SAFETY: a live handle of ours alone, and a NUL-terminated string.
    let play = checked(
        // SAFETY: pointers to live values of this function, NUL-terminated strings.
        unsafe { phutball_position_play(copy, move_text.as_ptr()) },
        "phutball_position_play",
    );
    assert_eq!(
        check, play,
        "check_move and play disagree on {move_text:?} from {printed:?}"
    );
    if is_legal == PhutballStatus::Ok {
        assert_eq!(
            legal,
            play == PhutballStatus::Ok,
            "{move_text:?} from {printed:?}"
        );
    } else {
        assert_eq!(is_legal, play, "{move_text:?} from {printed:?}");
    }
    if play != PhutballStatus::Ok {
        // SAFETY: two live handles and a writable bool.
        let status = unsafe { phutball_position_equal(pos, copy, &raw mut equal) };
        assert_eq!(status, PhutballStatus::Ok);
        assert!(equal, "a failed play changed the position");
    }
    // SAFETY: each a live handle of ours, freed once.
    unsafe {
        phutball_position_free(copy);
        phutball_position_free(back);
        phutball_position_free(pos);
    }
}

fn jump_in_progress(text: &CString, rules: *const PhutballRules) {
    let mut jip: *mut PhutballJumpInProgress = ptr::null_mut();
    // SAFETY: a NUL-terminated string, rules NULL or live, a writable handle slot.
    let status =
        // SAFETY: pointers to live values of this function, NUL-terminated strings.
        unsafe { phutball_jump_in_progress_from_string(text.as_ptr(), rules, &raw mut jip) };
    if checked(status, "phutball_jump_in_progress_from_string") != PhutballStatus::Ok {
        return;
    }
    // SAFETY: jip is a live handle; the buffer pointers come from text_of.
    let printed = text_of(
        "phutball_jump_in_progress_to_string",
        // SAFETY: pointers to live values of this function, NUL-terminated strings.
        |buf, len, written| unsafe { phutball_jump_in_progress_to_string(jip, buf, len, written) },
    );
    let again = CString::new(printed.clone()).expect("no NUL in the text form");
    let mut back: *mut PhutballJumpInProgress = ptr::null_mut();
    // SAFETY: as above.
    let status =
        // SAFETY: pointers to live values of this function, NUL-terminated strings.
        unsafe { phutball_jump_in_progress_from_string(again.as_ptr(), rules, &raw mut back) };
    assert_eq!(status, PhutballStatus::Ok, "{printed:?}: {}", last_error());
    // SAFETY: back is a live handle; the buffer pointers come from text_of.
    let reprinted = text_of(
        "phutball_jump_in_progress_to_string",
        // SAFETY: pointers to live values of this function, NUL-terminated strings.
        |buf, len, written| unsafe { phutball_jump_in_progress_to_string(back, buf, len, written) },
    );
    assert_eq!(reprinted, printed);
    // SAFETY: each a live handle of ours, freed once.
    unsafe {
        phutball_jump_in_progress_free(back);
        phutball_jump_in_progress_free(jip);
    }
}

fn game(text: &CString) {
    let mut game: *mut PhutballGame = ptr::null_mut();
    // SAFETY: a NUL-terminated string and a writable handle slot.
    let status = unsafe { phutball_game_parse(text.as_ptr(), &raw mut game) };
    if checked(status, "phutball_game_parse") != PhutballStatus::Ok {
        return;
    }
    // SAFETY: game is a live handle; the buffer pointers come from text_of.
    let record = text_of("phutball_game_to_string", |buf, len, written| unsafe {
        phutball_game_to_string(game, buf, len, written)
    });
    let again = CString::new(record.clone()).expect("no NUL in a record");
    let mut back: *mut PhutballGame = ptr::null_mut();
    // SAFETY: as above.
    let status = unsafe { phutball_game_parse(again.as_ptr(), &raw mut back) };
    assert_eq!(status, PhutballStatus::Ok, "{record:?}: {}", last_error());
    // SAFETY: back is a live handle; the buffer pointers come from text_of.
    let reprinted = text_of("phutball_game_to_string", |buf, len, written| unsafe {
        phutball_game_to_string(back, buf, len, written)
    });
    assert_eq!(reprinted, record);
    // SAFETY: each a live handle of ours, freed once.
    unsafe {
        phutball_game_free(back);
        phutball_game_free(game);
    }
}

fn certificate(data: &[u8]) {
    let budget = PhutballBudget {
        timeout_ms: 2_000,
        work_limit: 2_000,
        memory_limit: 16 << 20,
        ..phutball_budget_default()
    };
    let mut proof = PhutballCheckedProof {
        winner: 0,
        plies: 0,
        nodes: 0,
    };
    let mut root: *mut PhutballPosition = ptr::null_mut();
    // SAFETY: data.len() readable bytes, a live budget, writable out-parameters.
    let status = unsafe {
        phutball_check_proof(
            data.as_ptr().cast::<c_char>(),
            data.len(),
            &raw const budget,
            &raw mut proof,
            &raw mut root,
        )
    };
    if checked(status, "phutball_check_proof") == PhutballStatus::Ok {
        assert!(!root.is_null(), "an accepted certificate without a root");
        assert!(proof.nodes >= 1 && proof.plies >= 1, "{proof:?}");
    } else {
        assert!(root.is_null(), "a refused certificate wrote a root");
    }
    // SAFETY: NULL or a live handle of ours, freed once.
    unsafe { phutball_position_free(root) };
}
