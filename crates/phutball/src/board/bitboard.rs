//! A set of points, one `u32` of column bits per row.

use core::fmt;
use core::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};

use crate::board::point::{Point, MAX_ROWS};

/// Rows stored: 0 ..= `MAX_ROWS + 1`, padded to an even count.
const STORED_ROWS: usize = MAX_ROWS as usize + 3;

/// A set of [`Point`]s of any board up to 25 x 25: row `r` is the `u32` whose
/// bit `c` stands for column `c`. The layout does not depend on the board size,
/// so a bitboard can be iterated without knowing it.
///
/// ```
/// use phutball::{Bitboard, Point};
/// let a = Bitboard::from_points(["H8".parse::<Point>()?, "H9".parse()?]);
/// let b = Bitboard::from_point("H9".parse()?);
/// assert_eq!((a & b).count(), 1);
/// assert_eq!((a - b).iter().map(|p| p.to_string()).collect::<Vec<_>>(), ["H8"]);
/// assert_eq!(format!("{a:?}"), "Bitboard {H8, H9}");
/// # Ok::<(), phutball::ParseError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard {
    rows: [u32; STORED_ROWS],
}

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard {
        rows: [0; STORED_ROWS],
    };

    /// The set holding only `p`.
    pub const fn from_point(p: Point) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        b.rows[p.row() as usize] = 1 << p.col();
        b
    }

    /// The set of the given points.
    pub fn from_points<I: IntoIterator<Item = Point>>(points: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for p in points {
            b.insert(p);
        }
        b
    }

    /// The points with columns `0..cols` and rows `first_row..=last_row`.
    pub const fn rectangle(cols: u8, first_row: u8, last_row: u8) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        let mask = if cols >= 32 {
            u32::MAX
        } else {
            (1u32 << cols) - 1
        };
        let mut r = first_row as usize;
        while r <= last_row as usize && r < STORED_ROWS {
            b.rows[r] = mask;
            r += 1;
        }
        b
    }

    /// The column bits of row `row` (0 for rows no board has): bit `c` for
    /// column `c` (A is 0).
    ///
    /// ```
    /// use phutball::{Bitboard, Point};
    /// let mut men = Bitboard::EMPTY;
    /// men.insert("A3".parse::<Point>()?);
    /// men.insert("C3".parse::<Point>()?);
    /// assert_eq!(men.row_bits(3), 0b101);
    /// assert_eq!(men.row_bits(4), 0);
    /// assert_eq!(men.row_bits(200), 0);
    /// # Ok::<(), phutball::ParseError>(())
    /// ```
    pub const fn row_bits(self, row: u8) -> u32 {
        if (row as usize) < STORED_ROWS {
            self.rows[row as usize]
        } else {
            0
        }
    }

    /// Whether `p` is in the set.
    pub const fn contains(self, p: Point) -> bool {
        self.rows[p.row() as usize] >> p.col() & 1 != 0
    }

    /// Adds `p`.
    pub fn insert(&mut self, p: Point) {
        self.rows[p.row() as usize] |= 1 << p.col();
    }

    /// Removes `p`.
    pub fn remove(&mut self, p: Point) {
        self.rows[p.row() as usize] &= !(1 << p.col());
    }

    /// Adds `p` if absent, removes it if present.
    ///
    /// ```
    /// use phutball::{Bitboard, Point};
    /// let h10: Point = "H10".parse()?;
    /// let mut men = Bitboard::EMPTY;
    /// men.toggle(h10);
    /// assert!(men.contains(h10));
    /// men.toggle(h10);
    /// assert!(men.is_empty());
    /// # Ok::<(), phutball::ParseError>(())
    /// ```
    pub fn toggle(&mut self, p: Point) {
        self.rows[p.row() as usize] ^= 1 << p.col();
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.rows.iter().all(|&r| r == 0)
    }

    /// The number of points in the set.
    pub fn count(self) -> u32 {
        self.rows.iter().map(|r| r.count_ones()).sum()
    }

    /// The points in the set, row by row from row 0, left to right.
    pub fn iter(self) -> Points {
        Points {
            board: self,
            row: 0,
        }
    }
}

impl fmt::Debug for Bitboard {
    /// The points in notation, in [`Bitboard::iter`]'s order: `Bitboard {H8, H9}`
    /// (the 28 row words would say little).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Bitboard ")?;
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Iterator over the points of a [`Bitboard`].
#[derive(Clone, Debug)]
pub struct Points {
    board: Bitboard,
    row: usize,
}

impl Iterator for Points {
    type Item = Point;

    fn next(&mut self) -> Option<Point> {
        while self.row < STORED_ROWS {
            let bits = &mut self.board.rows[self.row];
            if *bits != 0 {
                let col = bits.trailing_zeros();
                *bits &= *bits - 1;
                return Point::new(col as u8, self.row as u8);
            }
            self.row += 1;
        }
        None
    }
}

impl IntoIterator for Bitboard {
    type Item = Point;
    type IntoIter = Points;
    fn into_iter(self) -> Points {
        self.iter()
    }
}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Bitboard {
        Bitboard::from_points(iter)
    }
}

macro_rules! binary_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            fn $method(mut self, rhs: Bitboard) -> Bitboard {
                self.$assign_method(rhs);
                self
            }
        }
        impl $assign_trait for Bitboard {
            fn $assign_method(&mut self, rhs: Bitboard) {
                for (a, b) in self.rows.iter_mut().zip(rhs.rows) {
                    *a = *a $op b;
                }
            }
        }
    };
}

binary_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binary_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binary_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference: the points of `self` not in `rhs`.
    fn sub(mut self, rhs: Bitboard) -> Bitboard {
        self -= rhs;
        self
    }
}

impl SubAssign for Bitboard {
    fn sub_assign(&mut self, rhs: Bitboard) {
        for (a, b) in self.rows.iter_mut().zip(rhs.rows) {
            *a &= !b;
        }
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement within all 25 x 27 points any board could have.
    fn not(self) -> Bitboard {
        let all = Bitboard::rectangle(crate::board::point::MAX_COLS, 0, MAX_ROWS + 1);
        all - self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_lists_the_points_in_notation() {
        assert_eq!(format!("{:?}", Bitboard::EMPTY), "Bitboard {}");
        let men = Bitboard::from_points([Point::new(2, 3).unwrap(), Point::new(0, 3).unwrap()]);
        assert_eq!(format!("{men:?}"), "Bitboard {A3, C3}");
        assert_eq!(format!("{men:#?}"), "Bitboard {\n    A3,\n    C3,\n}");
    }
}
