//! The one seeded pseudo-random generator (SplitMix64): the core's Zobrist
//! keys (built at compile time with its `const fn`s), and the engine's
//! tie-breaking, random players and generated test positions, and the
//! environments' per-game draws ([`counter_rng`]), without a dependency. It
//! depends on nothing else in the crate (the Zobrist keys in `board` use
//! it): [`SplitMix64::side`] is implemented in `board/point.rs`, with
//! [`Side`](crate::Side).

/// `SplitMix64` (Steele, Lea and Flood): one `u64` of state, good statistical
/// quality for hashing keys, games and tests, not for cryptography.
///
/// ```
/// use phutball::SplitMix64;
/// const FIRST: u64 = SplitMix64::new(0).next_u64();
/// assert_eq!(FIRST, 0xE220_A839_7B1D_CDAF);
/// let mut rng = SplitMix64::new(7);
/// assert!(rng.below(6) < 6);
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose sequence is fixed by `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub const fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound`, by multiply-shift (the bias is below 2^-32 for
    /// the bounds used here).
    ///
    /// # Panics
    /// If `bound` is 0.
    pub fn below(&mut self, bound: usize) -> usize {
        assert!(
            bound > 0,
            "SplitMix64::below(0): the bound must be positive"
        );
        let bits = self.next_u64();
        match u32::try_from(bound) {
            Ok(small) => (((bits >> 32) * u64::from(small)) >> 32) as usize,
            // 32 random bits times a bound of 2^32 or more would overflow.
            Err(_) => ((u128::from(bits) * bound as u128) >> 64) as usize,
        }
    }

    /// `true` with probability `numerator / denominator`.
    pub fn chance(&mut self, numerator: usize, denominator: usize) -> bool {
        self.below(denominator) < numerator
    }
}

/// The generator of draw `counter` of stream `stream` (a game of a batch,
/// say) from `seed`: each stream's draws are their own, so that threads can
/// make them in any order and a seed gives the same draws on any number of
/// threads.
///
/// ```
/// use phutball::counter_rng;
/// let first = counter_rng(7, 3, 1).next_u64();
/// assert_eq!(counter_rng(7, 3, 1).next_u64(), first, "the same inputs, the same draws");
/// assert_ne!(counter_rng(7, 3, 2).next_u64(), first, "another stream, other draws");
/// ```
pub fn counter_rng(seed: u64, counter: u64, stream: usize) -> SplitMix64 {
    // Odd multipliers spread counter and stream over the seed's bits;
    // SplitMix64 mixes the sum.
    let salt = counter.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (stream as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
    SplitMix64::new(seed ^ salt)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_for_bounds_past_32_bits() {
        let mut rng = SplitMix64::new(3);
        for bound in [1usize, 2, 7, u32::MAX as usize, 1 << 40, usize::MAX] {
            for _ in 0..100 {
                assert!(rng.below(bound) < bound, "bound {bound}");
            }
        }
        // Large bounds use the high bits too: not everything lands below 2^32.
        assert!((0..100).any(|_| rng.below(1 << 40) >= 1 << 32));
    }

    #[test]
    fn same_seed_same_sequence_other_seed_other_sequence() {
        let a: Vec<u64> = (0..8)
            .scan(SplitMix64::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let b: Vec<u64> = (0..8)
            .scan(SplitMix64::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let c: Vec<u64> = (0..8)
            .scan(SplitMix64::new(8), |r, _| Some(r.next_u64()))
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = SplitMix64::new(1);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            let x = rng.below(5);
            assert!(x < 5);
            seen[x] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn splitmix_reference_value() {
        // First output for seed 0 in the reference implementation (Vigna's splitmix64.c).
        assert_eq!(SplitMix64::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn counter_streams_of_one_seed_are_all_different() {
        let mut first_draws = std::collections::HashSet::new();
        for counter in 0..64 {
            for stream in 0..64 {
                first_draws.insert(counter_rng(5, counter, stream).next_u64());
            }
        }
        assert_eq!(first_draws.len(), 64 * 64);
    }
}
