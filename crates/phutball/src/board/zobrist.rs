//! Zobrist keys: the fixed random keys behind [`Position::zobrist`]'s 64-bit
//! hash, and the 128-bit fingerprints of the jump walk's search states.
//! Built at compile time from fixed seeds, so hashes are the same on every
//! run and machine.
//!
//! [`Position::zobrist`]: crate::Position::zobrist

use crate::board::mailbox::MAILBOX_LEN;
use crate::rng::SplitMix64;

// Tables are `static`, not `const`: a `const` array is copied into every
// function that indexes it in unoptimised builds, overflowing the stack of the
// recursive walk.

/// Zobrist tables serve both bitboard indices (< 896) and mailbox cells (< 1024).
const ZOBRIST_LEN: usize = 1024;
const _: () = assert!(ZOBRIST_LEN >= MAILBOX_LEN);

/// 64-bit keys for Zobrist hashing, one per bitboard index, plus one for Eks to move.
pub(crate) static ZOBRIST_POINTS: [u64; ZOBRIST_LEN] = {
    let mut keys = [0u64; ZOBRIST_LEN];
    let mut rng = SplitMix64::new(0x5048_5554_4241_4c4c); // "PHUTBALL"
    let mut i = 0;
    while i < keys.len() {
        keys[i] = rng.next_u64();
        i += 1;
    }
    keys
};

/// Separate keys for the ball, so a man and the ball on one point differ.
pub(crate) static ZOBRIST_BALL: [u64; ZOBRIST_LEN] = {
    let mut keys = [0u64; ZOBRIST_LEN];
    let mut rng = SplitMix64::new(0x0b41_1b41_1b41_1b41);
    let mut i = 0;
    while i < keys.len() {
        keys[i] = rng.next_u64();
        i += 1;
    }
    keys
};

/// 128-bit keys per mailbox cell for the men and the ball, to fingerprint
/// search states: two distinct states of one search share a fingerprint with
/// probability about n^2 / 2^128 (below 10^-24 for 2^24 states).
pub(crate) static FINGERPRINT_MEN: [u128; ZOBRIST_LEN] = wide_keys(0x4d45_4e4d_454e_4d45);
pub(crate) static FINGERPRINT_BALL: [u128; ZOBRIST_LEN] = wide_keys(0x4241_4c4c_4241_4c4c);

const fn wide_keys(seed: u64) -> [u128; ZOBRIST_LEN] {
    let mut keys = [0u128; ZOBRIST_LEN];
    let mut rng = SplitMix64::new(seed);
    let mut i = 0;
    while i < keys.len() {
        let high = rng.next_u64() as u128;
        keys[i] = high << 64 | rng.next_u64() as u128;
        i += 1;
    }
    keys
}

/// Key toggled when Eks is to move.
pub(crate) const ZOBRIST_EKS: u64 = 0x9e37_79b9_7f4a_7c15;
