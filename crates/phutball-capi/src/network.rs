//! Learned evaluations from C (docs/network.md): a network read from the
//! bytes of its weights file, or the one built in, written back,
//! described, asked which board sizes it serves, and given to an engine
//! (`phutball_engine_set_network`, in `engine.rs`). The weights file is the
//! engine's format, read and checked by `phutball_engine::Network`; these
//! functions only read the arguments and write the answers. Like the
//! tablebase's, the files are the caller's: the library does no I/O.

use core::ffi::c_char;
use std::sync::Arc;

use phutball::{BoardSize, Budget};
use phutball_engine::Network;

use crate::buffers::{
    bytes_arg, copy_items, copy_text, free_handle, ref_arg, require_out, write_new_handle,
    write_out,
};
use crate::guard::ffi_call;
use crate::position::{position_arg, PhutballPosition};
use crate::status::{network_failure, FfiResult, PhutballStatus};

/// A learned evaluation: a small value network for each board size it
/// serves, and a description of how it was made, read from a weights file
/// (docs/network.md). An opaque handle owned by the caller, made by
/// `phutball_network_from_bytes` or `phutball_network_built_in` and freed
/// with `phutball_network_free`.
/// Read-only: several threads may use one network at once. An engine given
/// it (`phutball_engine_set_network`) shares its weights, so the handle may
/// be freed while the engine searches with them.
pub struct PhutballNetwork(pub(crate) Arc<Network>);

/// Borrows the network behind a handle argument named `network`.
///
/// # Safety
/// `network` must be NULL or a live network.
pub(crate) unsafe fn network_arg<'a>(
    network: *const PhutballNetwork,
) -> FfiResult<&'a Arc<Network>> {
    // SAFETY: the caller's promise about network.
    Ok(&unsafe { ref_arg(network, "network") }?.0)
}

/// Reads a network from `len` bytes of its weights file (a `.phbnet` file,
/// as `python -m phutball.train` writes it, or what
/// `phutball_network_to_bytes` writes) and stores a new handle in `*out`.
/// `PHUTBALL_STATUS_INVALID_NETWORK`, with a message saying what is wrong,
/// for bytes that are not one: a wrong magic, version or checksum (a
/// damaged file), truncated, bytes after the checksum, a size or count out
/// of range, two networks for one board size, a weight that is not finite,
/// more than 64 MiB. A caller reading a file needs at most 64 MiB and one
/// byte of it (67108865 bytes): more is refused whatever it holds.
///
/// # Safety
/// `bytes` NULL or `len` readable bytes; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_network_from_bytes(
    bytes: *const u8,
    len: usize,
    out: *mut *mut PhutballNetwork,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        // SAFETY: the caller's promise about bytes and len.
        let bytes = unsafe { bytes_arg(bytes.cast::<c_char>(), len, "bytes") }?;
        let network = Network::from_bytes(bytes).map_err(|e| network_failure(&e))?;
        // SAFETY: the caller's promise about out.
        unsafe { write_new_handle(out, PhutballNetwork(Arc::new(network)), "out") }
    })
}

/// Stores in `*out` a new handle of the network built into the library
/// (`crates/phutball-engine/networks/standard.phbnet`: the standard 15x19
/// board's, docs/network.md, "The shipped network"; `--eval net` of the
/// command line), without a file to read. The handle is the caller's, freed
/// with `phutball_network_free`; every handle shares the one copy of the
/// weights, read once. `PHUTBALL_STATUS_INVALID_NETWORK` only were the
/// embedded bytes damaged (the library's tests read them).
///
/// # Safety
/// `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_network_built_in(
    out: *mut *mut PhutballNetwork,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        let network = Network::built_in().map_err(|e| network_failure(&e))?;
        // SAFETY: the caller's promise about out.
        unsafe { write_new_handle(out, PhutballNetwork(network), "out") }
    })
}

/// Writes the network's weights file into `buf` (room for `capacity`
/// bytes) and its size into `*count` (buffer convention for arrays: NULL
/// with capacity 0 asks for the size). `phutball_network_from_bytes` reads
/// it back as it is; a file read in is written out byte for byte.
///
/// # Safety
/// `network` NULL or live; `buf` NULL or `capacity` writable bytes; `count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_network_to_bytes(
    network: *const PhutballNetwork,
    buf: *mut u8,
    capacity: usize,
    count: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(count, "count")?;
        // SAFETY: the caller's promise about network.
        let bytes = unsafe { network_arg(network) }?.to_bytes();
        // SAFETY: the caller's promises about buf, capacity and count.
        unsafe { copy_items(&bytes, buf, capacity, count) }
    })
}

/// Writes the network's description (how it was made: the trainer's
/// command, seed, generation; at most 4096 bytes of UTF-8, possibly empty)
/// into `buf` (buffer convention for text). A NUL inside it, which the
/// format allows, ends it for C's string functions; `*written` is its whole
/// length.
///
/// # Safety
/// `network` NULL or live; `buf` NULL or `len` writable bytes; `written` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_network_description(
    network: *const PhutballNetwork,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(written, "written")?;
        // SAFETY: the caller's promise about network.
        let network = unsafe { network_arg(network) }?;
        // SAFETY: the caller's promises about buf, len and written.
        unsafe { copy_text(network.description(), buf, len, written) }
    })
}

/// Writes to `*out` whether the network has a network for boards of `cols`
/// columns and `rows` rows: an engine with it searches only positions of
/// the sizes it serves. `PHUTBALL_STATUS_INVALID_POSITION` for a size no
/// board has.
///
/// # Safety
/// `network` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_network_serves(
    network: *const PhutballNetwork,
    cols: u8,
    rows: u8,
    out: *mut bool,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        // SAFETY: the caller's promise about network.
        let network = unsafe { network_arg(network) }?;
        let size = BoardSize::new(cols, rows)?;
        // SAFETY: the caller's promise about out.
        unsafe { write_out(out, network.serves(size), "out") }
    })
}

/// Writes the network's value of `pos` for its side to move to `*out`, in
/// hundredths of a row (-30000 to 30000): what an engine with it uses where
/// the hand evaluation would be. `PHUTBALL_STATUS_INVALID_ARGUMENT` for a
/// position of a board size it does not serve (the message names the sizes
/// it serves) or one where the game is over.
///
/// # Safety
/// `network` and `pos` NULL or live; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_network_evaluate(
    network: *const PhutballNetwork,
    pos: *const PhutballPosition,
    out: *mut i32,
) -> PhutballStatus {
    ffi_call(|| {
        require_out(out, "out")?;
        // SAFETY: the caller's promises about network and pos.
        let (network, pos) = unsafe { (network_arg(network)?, position_arg(pos)?) };
        let value = network
            .evaluate(pos, &Budget::default())
            .map_err(|e| network_failure(&e))?;
        // SAFETY: the caller's promise about out.
        unsafe { write_out(out, value, "out") }
    })
}

/// Frees a network handle. NULL is ignored. The handle must not be used
/// again; an engine given the network keeps its weights.
///
/// # Safety
/// `network` must be NULL or a live network from this library, not freed before.
#[no_mangle]
pub unsafe extern "C" fn phutball_network_free(network: *mut PhutballNetwork) {
    // SAFETY: the caller's promise about network.
    unsafe { free_handle(network) }
}
