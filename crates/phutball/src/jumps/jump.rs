//! One jump of the ball: from its point over a line of men to the vacant
//! point behind them, and the line it runs along.

use crate::board::point::Point;

/// One jump of the ball: from its point over a line of one or more men to the
/// first vacant point behind them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Jump {
    /// Where the ball starts.
    pub from: Point,
    /// Where it lands.
    pub to: Point,
    /// How many men it passes over (and removes).
    pub jumped: u8,
}

impl Jump {
    /// The men this jump removes, nearest the start first.
    pub fn jumped_points(&self) -> impl Iterator<Item = Point> {
        let (dc, dr) = unit_step(self.from, self.to).unwrap_or((0, 0));
        let from = self.from;
        (1..=i32::from(self.jumped)).filter_map(move |k| from.offset(dc * k, dr * k))
    }
}

/// The unit step from `a` towards `b` if they lie on one of the 8 lines.
pub(crate) fn unit_step(a: Point, b: Point) -> Option<(i32, i32)> {
    let dc = i32::from(b.col()) - i32::from(a.col());
    let dr = i32::from(b.row()) - i32::from(a.row());
    if (dc, dr) == (0, 0) || (dc != 0 && dr != 0 && dc.abs() != dr.abs()) {
        return None;
    }
    Some((dc.signum(), dr.signum()))
}
