//! The C entry points that take text, called as C would
//! (crates/phutball-capi/src/fuzzing.rs holds the calls and checks, so that
//! their `unsafe` stays in the C ABI crate).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| phutball_capi::fuzzing::text_entry_points(data));
