//! The per-thread last error message, and how C reads it.

use core::cell::RefCell;
use core::ffi::c_char;

use crate::buffers::copy_text;
use crate::status::PhutballStatus;

thread_local! {
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Keeps `message` as the calling thread's last error.
pub(crate) fn set_last_error(message: String) {
    // During thread teardown the slot may be gone; the status code still reports the failure.
    let _ = LAST_ERROR.try_with(|slot| {
        if let Ok(mut slot) = slot.try_borrow_mut() {
            *slot = message;
        }
    });
}

fn last_error() -> String {
    LAST_ERROR
        .try_with(|slot| slot.try_borrow().map(|s| s.clone()).unwrap_or_default())
        .unwrap_or_default()
}

/// Copies the calling thread's last error message into `buf` (`len` bytes),
/// NUL-terminated, and writes its length (without the NUL) to `*written`.
///
/// The message is the one stored by the most recent call on this thread that
/// did not return `PHUTBALL_STATUS_OK`; successful calls leave it alone, and it
/// is the empty string before any failure. This function never replaces it.
///
/// Returns `PHUTBALL_STATUS_BUFFER_TOO_SMALL` (with the length needed in
/// `*written`) when `len` is not larger than the message, and
/// `PHUTBALL_STATUS_NULL_ARGUMENT` when `written` is NULL, or `buf` is NULL
/// while `len` is not 0. Pass `buf = NULL, len = 0` to ask for the length.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `written` must be NULL
/// or point to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn phutball_last_error_message(
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    let message = last_error();
    // SAFETY: the caller's promises about buf, len and written are this function's.
    match unsafe { copy_text(&message, buf, len, written) } {
        Ok(()) => PhutballStatus::Ok,
        Err(failure) => failure.status,
    }
}

/// A short English name of a status code, such as `"illegal move"`: a static,
/// NUL-terminated string that must not be freed. Unknown codes give `"unknown status"`.
#[no_mangle]
pub extern "C" fn phutball_status_name(status: u32) -> *const c_char {
    PhutballStatus::name(status).as_ptr().cast()
}
