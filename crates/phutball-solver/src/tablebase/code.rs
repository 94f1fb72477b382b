//! A value as one byte, in memory and in files: `0` not (yet) decided (a
//! draw once the build is done), `2n - 1` a win in `n` plies, `2n` a loss
//! in `n` plies, for `n` from 1 to [`MAX_PLIES`]; `255` is no value. A
//! byte a state keeps the table as small as the states are many.

use crate::value::Value;

/// Undecided while building; a draw in a finished table.
pub(crate) const DRAW: u8 = 0;

/// The longest win or loss a byte holds.
pub const MAX_PLIES: u32 = 127;

/// A win in `plies` (1 to [`MAX_PLIES`]).
#[inline(always)]
pub(crate) const fn win(plies: u32) -> u8 {
    (2 * plies - 1) as u8
}

/// A loss in `plies` (1 to [`MAX_PLIES`]).
#[inline(always)]
pub(crate) const fn loss(plies: u32) -> u8 {
    (2 * plies) as u8
}

/// The plies of a decided code (0 for [`DRAW`]).
#[inline(always)]
pub(crate) const fn plies(code: u8) -> u32 {
    (code as u32).div_ceil(2)
}

/// Whether `code` is a win.
#[inline(always)]
pub(crate) const fn is_win(code: u8) -> bool {
    code & 1 == 1
}

/// Whether `code` is a value (not 255).
#[inline(always)]
pub(crate) const fn is_valid(code: u8) -> bool {
    code != u8::MAX
}

/// The value of a valid code in a finished table.
pub(crate) fn value(code: u8) -> Value {
    match code {
        DRAW => Value::Draw,
        c if is_win(c) => Value::Win { plies: plies(c) },
        c => Value::Loss { plies: plies(c) },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for plies in 1..=MAX_PLIES {
            assert_eq!(value(win(plies)), Value::Win { plies });
            assert_eq!(value(loss(plies)), Value::Loss { plies });
            assert!(is_valid(win(plies)) && is_valid(loss(plies)));
        }
        assert_eq!(value(DRAW), Value::Draw);
        assert_eq!(loss(MAX_PLIES), 254);
        assert!(!is_valid(255));
    }
}
