//! Crossing the boundary: reading C arguments (strings, handles) and writing
//! results (out-parameters, text and arrays in caller-provided buffers, new handles).
//!
//! Buffer convention, shared by every function that fills a caller's buffer:
//! the caller passes the buffer, its capacity and a pointer for the size. On
//! success the size written is stored; when the buffer is too small nothing is
//! copied, the size needed is stored and `BufferTooSmall` returned. A NULL
//! buffer with capacity 0 is a size query.

use core::ffi::{c_char, CStr};

use crate::status::{Failure, FfiResult, PhutballStatus};

/// Borrows the C string `ptr` (named `what` in messages) as UTF-8.
///
/// # Safety
/// `ptr` must be NULL or point to a NUL-terminated string that stays valid and
/// unchanged for `'a`.
pub(crate) unsafe fn str_arg<'a>(ptr: *const c_char, what: &str) -> FfiResult<&'a str> {
    if ptr.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: not NULL, and the caller promises a live NUL-terminated string.
    let bytes = unsafe { CStr::from_ptr(ptr) }.to_bytes();
    core::str::from_utf8(bytes).map_err(|e| {
        Failure::new(
            PhutballStatus::InvalidUtf8,
            format!("{what} is not valid UTF-8: {e}"),
        )
    })
}

/// Borrows the object behind a handle or input pointer.
///
/// # Safety
/// `ptr` must be NULL or point to a live, properly aligned `T` that nothing
/// mutates for `'a`.
pub(crate) unsafe fn ref_arg<'a, T>(ptr: *const T, what: &str) -> FfiResult<&'a T> {
    // SAFETY: the caller promises ptr is NULL or valid for reads for 'a.
    unsafe { ptr.as_ref() }.ok_or_else(|| Failure::null(what))
}

/// Borrows the object behind a handle mutably.
///
/// # Safety
/// `ptr` must be NULL or point to a live, properly aligned `T` that nothing
/// else reads or writes for `'a`.
pub(crate) unsafe fn mut_arg<'a, T>(ptr: *mut T, what: &str) -> FfiResult<&'a mut T> {
    // SAFETY: the caller promises ptr is NULL or valid and unaliased for 'a.
    unsafe { ptr.as_mut() }.ok_or_else(|| Failure::null(what))
}

/// Fails with `NullArgument` when a required out-parameter is NULL, so that
/// bodies can check before they do any work.
pub(crate) fn require_out<T>(ptr: *mut T, what: &str) -> FfiResult {
    if ptr.is_null() {
        Err(Failure::null(what))
    } else {
        Ok(())
    }
}

/// Stores `value` in the out-parameter `ptr`.
///
/// # Safety
/// `ptr` must be NULL or point to writable, properly aligned memory for a `T`.
pub(crate) unsafe fn write_out<T>(ptr: *mut T, value: T, what: &str) -> FfiResult {
    require_out(ptr, what)?;
    // SAFETY: not NULL, and the caller promises it is writable and aligned.
    unsafe { ptr.write(value) };
    Ok(())
}

/// Stores `value` through `ptr` when `ptr` is not NULL (an optional out-parameter).
///
/// # Safety
/// As [`write_out`].
pub(crate) unsafe fn write_optional<T>(ptr: *mut T, value: T) {
    if !ptr.is_null() {
        // SAFETY: not NULL, and the caller promises it is writable and aligned.
        unsafe { ptr.write(value) };
    }
}

/// Moves `value` to the heap and stores the new handle in `*out`. The NULL
/// check comes first, so nothing leaks when `out` is NULL.
///
/// # Safety
/// As [`write_out`] for `*mut T`.
pub(crate) unsafe fn write_new_handle<T>(out: *mut *mut T, value: T, what: &str) -> FfiResult {
    require_out(out, what)?;
    // SAFETY: the caller's promise about out is passed on.
    unsafe { write_out(out, Box::into_raw(Box::new(value)), what) }
}

/// Frees a handle made by [`write_new_handle`]; NULL is ignored.
///
/// # Safety
/// `ptr` must be NULL or a handle of type `T` from this library that has not
/// been freed.
pub(crate) unsafe fn free_handle<T>(ptr: *mut T) {
    if !ptr.is_null() {
        // SAFETY: the caller promises ptr came from Box::into_raw and is freed only once.
        drop(unsafe { Box::from_raw(ptr) });
    }
}

/// Copies `text` and a NUL into `buf` (`len` bytes) and its length without
/// the NUL into `*written`, following the buffer convention.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `written` must be NULL
/// or point to a writable `usize`.
pub(crate) unsafe fn copy_text(
    text: &str,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> FfiResult {
    require_out(written, "written")?;
    if buf.is_null() && len != 0 {
        return Err(Failure::null("buf (with a non-zero length)"));
    }
    let needed = text.len();
    // SAFETY: written is not NULL and the caller promises it is writable.
    unsafe { written.write(needed) };
    if len <= needed {
        return Err(Failure::new(
            PhutballStatus::BufferTooSmall,
            format!(
                "the buffer holds {len} bytes but {} are needed (text and NUL)",
                needed + 1
            ),
        ));
    }
    // SAFETY: buf has len > needed writable bytes, and text cannot overlap a
    // buffer the caller owns.
    unsafe {
        core::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast::<u8>(), needed);
        buf.add(needed).write(0);
    }
    Ok(())
}

/// Copies `items` into `buf` (room for `capacity` items) and their number into
/// `*count`, following the buffer convention.
///
/// # Safety
/// `buf` must be NULL or point to `capacity` writable `T`s; `count` must be
/// NULL or point to a writable `usize`.
pub(crate) unsafe fn copy_items<T: Copy>(
    items: &[T],
    buf: *mut T,
    capacity: usize,
    count: *mut usize,
) -> FfiResult {
    require_out(count, "count")?;
    if buf.is_null() && capacity != 0 {
        return Err(Failure::null("buf (with a non-zero capacity)"));
    }
    // SAFETY: count is not NULL and the caller promises it is writable.
    unsafe { count.write(items.len()) };
    if capacity < items.len() {
        return Err(Failure::new(
            PhutballStatus::BufferTooSmall,
            format!(
                "the buffer holds {capacity} items but {} are needed",
                items.len()
            ),
        ));
    }
    if !items.is_empty() {
        // SAFETY: buf is not NULL here (capacity >= len > 0) and has room for
        // capacity >= len items; the slices cannot overlap.
        unsafe { core::ptr::copy_nonoverlapping(items.as_ptr(), buf, items.len()) };
    }
    Ok(())
}

/// Borrows `len` bytes at `ptr` (named `what`); NULL with `len` 0 is empty.
///
/// # Safety
/// `ptr` must be NULL or point to `len` readable bytes that stay unchanged for `'a`.
pub(crate) unsafe fn bytes_arg<'a>(
    ptr: *const c_char,
    len: usize,
    what: &str,
) -> FfiResult<&'a [u8]> {
    if ptr.is_null() {
        return if len == 0 {
            Ok(&[])
        } else {
            Err(Failure::null(&format!("{what} (with a non-zero length)")))
        };
    }
    // SAFETY: not NULL, and the caller promises len readable bytes.
    Ok(unsafe { core::slice::from_raw_parts(ptr.cast::<u8>(), len) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_that_does_not_fit_reports_the_size_needed_and_copies_nothing() {
        let mut buf = [b'x' as c_char; 4];
        let mut written = 0;
        // SAFETY: buf has 4 writable bytes; written is a valid usize.
        let err = unsafe { copy_text("H10", buf.as_mut_ptr(), 3, &raw mut written) }.unwrap_err();
        assert_eq!(err.status, PhutballStatus::BufferTooSmall);
        assert_eq!(written, 3);
        assert_eq!(buf[0], b'x' as c_char);
        // SAFETY: as above, now with the full 4 bytes.
        unsafe { copy_text("H10", buf.as_mut_ptr(), 4, &raw mut written) }.unwrap();
        assert_eq!(buf.map(|c| c as u8), *b"H10\0");
    }

    #[test]
    fn a_null_buffer_with_a_length_is_an_error_but_a_size_query_is_not() {
        let mut written = 0;
        // SAFETY: a NULL buffer is allowed by the contract; written is valid.
        let err =
            unsafe { copy_text("abc", core::ptr::null_mut(), 8, &raw mut written) }.unwrap_err();
        assert_eq!(err.status, PhutballStatus::NullArgument);
        // SAFETY: as above.
        let err =
            unsafe { copy_text("abc", core::ptr::null_mut(), 0, &raw mut written) }.unwrap_err();
        assert_eq!((err.status, written), (PhutballStatus::BufferTooSmall, 3));
    }

    #[test]
    fn an_empty_list_fits_a_null_buffer() {
        let mut count = 99;
        // SAFETY: NULL with capacity 0 is allowed; count is valid.
        unsafe { copy_items::<u8>(&[], core::ptr::null_mut(), 0, &raw mut count) }.unwrap();
        assert_eq!(count, 0);
    }
}
