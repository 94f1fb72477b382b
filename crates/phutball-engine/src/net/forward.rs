//! The network's arithmetic (docs/network.md, "Arithmetic"): one hidden
//! layer of clipped rectifiers over the sparse and dense inputs, one output, all
//! in `f32`, each sum in the order the page writes it, so that every build
//! gives the same value.

use phutball::Position;

use super::features::{dense_start, for_each_sparse};
use super::{BoardNetwork, MAX_HIDDEN};

/// The largest value a network gives, either way: well inside the
/// search's evaluations, far from its wins and losses.
pub(crate) const MAX_VALUE: i32 = 30_000;

impl BoardNetwork {
    /// The output of the network for `pos` (of its board size, not
    /// finished) with the dense inputs `dense`, before rounding. The first
    /// layer's sums live in a buffer on the stack: no allocation.
    pub(crate) fn output(&self, pos: &Position, dense: [f32; 3]) -> f32 {
        let hidden = self.b1.len();
        let mut buffer = [0f32; MAX_HIDDEN];
        let sums = &mut buffer[..hidden];
        // Each unit starts at its bias and adds the inputs in increasing
        // index, the sparse ones (a 1 times a weight is the weight) then the
        // dense ones; a row of W1 at a time, which gives every unit its
        // additions in that same order.
        sums.copy_from_slice(&self.b1);
        for_each_sparse(pos, |i| {
            let row = &self.w1[i * hidden..(i + 1) * hidden];
            for (sum, w) in sums.iter_mut().zip(row) {
                *sum += *w;
            }
        });
        let first_dense = dense_start(self.size);
        for (d, x) in dense.into_iter().enumerate() {
            let i = first_dense + d;
            let row = &self.w1[i * hidden..(i + 1) * hidden];
            for (sum, w) in sums.iter_mut().zip(row) {
                *sum += x * *w;
            }
        }
        let mut out = self.b2;
        for (sum, w) in sums.iter().zip(&self.w2) {
            out += *w * sum.clamp(0.0, 1.0);
        }
        out
    }
}

/// `out` as the engine's value: rounded to the nearest integer, halves
/// away from zero (Rust's `f32::round`), and clamped to
/// `-MAX_VALUE ..= MAX_VALUE`. An output that is not a number (finite
/// weights can still overflow a sum) is 0.
pub(crate) fn value_of(out: f32) -> i32 {
    if out.is_nan() {
        return 0;
    }
    // Within the clamp the value is exact in an i32.
    out.round().clamp(-MAX_VALUE as f32, MAX_VALUE as f32) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_round_halves_away_from_zero_and_stay_within_bounds() {
        assert_eq!(value_of(62.25), 62);
        assert_eq!(value_of(74.5), 75);
        assert_eq!(value_of(-74.5), -75);
        assert_eq!(value_of(-0.4), 0);
        assert_eq!(value_of(1e9), MAX_VALUE);
        assert_eq!(value_of(f32::NEG_INFINITY), -MAX_VALUE);
        assert_eq!(value_of(f32::NAN), 0);
    }
}
