//! The wrapper around every entry point: no panic crosses into C, and a
//! failure becomes a status code plus a last-error message.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::last_error::set_last_error;
use crate::status::{FfiResult, PhutballStatus};

/// Runs the body of an entry point. A failure is stored as the thread's last
/// error and its status returned; a panic is caught and reported as
/// `PhutballStatus::Panic`.
pub(crate) fn ffi_call(body: impl FnOnce() -> FfiResult) -> PhutballStatus {
    // AssertUnwindSafe: bodies compute new values first and write them to the
    // caller's handles and out-parameters only at the end, so a panic leaves
    // nothing half-updated.
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => PhutballStatus::Ok,
        Ok(Err(failure)) => {
            set_last_error(failure.message);
            failure.status
        }
        Err(payload) => {
            set_last_error(format!(
                "internal error (a bug in phutball, please report it): {}",
                panic_message(payload.as_ref())
            ));
            PhutballStatus::Panic
        }
    }
}

fn panic_message(payload: &(dyn Any + Send)) -> &str {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s
    } else {
        "panic with a non-text payload"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::last_error::phutball_last_error_message;
    use crate::status::Failure;

    fn last_message() -> String {
        let mut buf = [0 as core::ffi::c_char; 256];
        let mut written = 0usize;
        // SAFETY: buf has 256 writable bytes and written is a valid usize.
        let status =
            unsafe { phutball_last_error_message(buf.as_mut_ptr(), buf.len(), &raw mut written) };
        assert_eq!(status, PhutballStatus::Ok);
        let bytes: Vec<u8> = buf[..written].iter().map(|&c| c as u8).collect();
        String::from_utf8(bytes).expect("messages are UTF-8")
    }

    #[test]
    fn a_panic_becomes_the_panic_status_with_its_message() {
        let status = ffi_call(|| panic!("boom at the boundary"));
        assert_eq!(status, PhutballStatus::Panic);
        assert!(last_message().contains("boom at the boundary"));
    }

    #[test]
    fn a_failure_keeps_its_status_and_message_and_success_keeps_it_too() {
        let status = ffi_call(|| Err(Failure::invalid_argument("side 7 is neither Ohs nor Eks")));
        assert_eq!(status, PhutballStatus::InvalidArgument);
        assert_eq!(ffi_call(|| Ok(())), PhutballStatus::Ok);
        assert_eq!(last_message(), "side 7 is neither Ohs nor Eks");
    }
}
