//! Threats: the placements after which the side to move could score if it
//! moved again. The engine's root checks and the solver's move ordering
//! both ask for them, so they live here, next to can-score.
//!
//! A new man changes the ball's jumps only where the ball jumps over it:
//! from a point the ball can already land on (or its own point), either
//! standing next to that point, or standing on the first vacant point behind
//! a chain of men, which is then itself a landing point. So every threat
//! placement is a landing point of the side's jumps or a neighbour of one
//! (or of the ball); only those few are tried with can-score, instead of
//! every vacant point.

use core::ops::ControlFlow;

use crate::board::bitboard::Bitboard;
use crate::board::point::{Direction, Point};
use crate::budget::{Budget, SearchError};
use crate::rules::moves::Move;
use crate::rules::position::Position;

impl Position {
    /// The points where a man might give the side to move a scoring jump: the
    /// vacant landing points of its jumps and the vacant neighbours of those
    /// and of the ball (a superset of [`Position::threat_placements_within`],
    /// found by one enumeration of jump outcomes within `budget`), on the
    /// rows of [`Position::threat_rows`].
    ///
    /// # Errors
    ///
    /// [`SearchError`] when `budget` stops the enumeration first.
    pub fn threat_candidates_within(&self, budget: &Budget<'_>) -> Result<Bitboard, SearchError> {
        let rows = self.threat_rows();
        if rows == 0 {
            return Ok(Bitboard::EMPTY);
        }
        let mut landings = Bitboard::EMPTY;
        landings.insert(self.ball());
        // The visitor never stops the walk, so its flow says nothing.
        let _: ControlFlow<()> =
            self.for_each_jump_outcome_within(budget, |path: &[Point]| {
                if let Some(&last) = path.last() {
                    landings.insert(last);
                }
                ControlFlow::Continue(())
            })?;
        let mut out = landings;
        for landing in landings {
            for direction in Direction::ALL {
                if let Some(p) = landing.step(direction) {
                    out.insert(p);
                }
            }
        }
        let vacant = self.placement_points();
        Ok(Bitboard::from_points(out.iter().filter(|&p| {
            vacant.contains(p) && rows >> p.row() & 1 != 0
        })))
    }

    /// Every placement after which the side to move could score if it moved
    /// again, in board order. Each candidate of
    /// [`Position::threat_candidates_within`] is decided by a can-score
    /// search within `budget`.
    ///
    /// ```
    /// use phutball::{Budget, Position};
    /// // Ball H13, men H14 and H18, rows 15 to 17 empty: only H16 threatens
    /// // H13-H15-H17-H19.
    /// let pos: Position = "15/7#7/15/15/15/7#7/7@7/15/15/15/15/15/15/15/15/15/15/15/15 O".parse()?;
    /// let threats = pos.threat_placements_within(&Budget::default())?;
    /// assert_eq!(threats.iter().map(|p| p.to_string()).collect::<Vec<_>>(), ["H16"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`SearchError`] when `budget` stops one of the searches first (then the
    /// list would not be known to be complete).
    pub fn threat_placements_within(&self, budget: &Budget<'_>) -> Result<Vec<Point>, SearchError> {
        let mut out = Vec::new();
        for p in self.threat_candidates_within(budget)? {
            if self.threatens_after(p, budget)? {
                out.push(p);
            }
        }
        Ok(out)
    }

    /// Whether the side to move could score (moving again) after placing a
    /// man on `p`: `Ok(false)` where `p` is no legal placement.
    ///
    /// # Errors
    ///
    /// [`SearchError`] when `budget` stops the can-score search first.
    pub fn threatens_after(&self, p: Point, budget: &Budget<'_>) -> Result<bool, SearchError> {
        match self.play(&Move::Place(p)) {
            Ok(after) if !after.is_finished() => after.end_turn().can_score_within(budget),
            _ => Ok(false),
        }
    }

    /// How many more men the side to move needs, at least, before the ball can
    /// reach its goal: a run of `n` rows without men between the ball and the
    /// goal line needs `n / 2` of them (see [`Position::threat_rows`]).
    pub fn men_needed_to_score(&self) -> u32 {
        self.empty_row_runs()
            .map(|(_, len)| u32::from(len) / 2)
            .sum()
    }

    /// The rows (bit `r` for row `r`) on which one more man might let the side
    /// to move score; 0 when none can. A jump step crosses a row between its
    /// ends only over a man standing on it, and a step that lands on a row with
    /// no man beyond it cannot go on past it, so the ball never crosses two
    /// neighbouring rows without men between itself and its goal. One man
    /// fills one row: a run of four such rows leaves no threat, a run of three
    /// only its middle row, and a run of two only its own rows.
    pub fn threat_rows(&self) -> u32 {
        let mut allowed = u32::MAX;
        for (first, len) in self.empty_row_runs() {
            allowed &= match len {
                1 => u32::MAX,
                2 => 0b11 << first,
                3 => 0b10 << first,
                _ => 0,
            };
        }
        allowed
    }

    /// The runs of rows without men strictly between the ball and the goal line
    /// the side to move attacks ([`Position::empty_rows_towards_goal`]): (first
    /// row, number of rows).
    fn empty_row_runs(&self) -> impl Iterator<Item = (u8, u8)> {
        let mut empty = self.empty_rows_towards_goal();
        core::iter::from_fn(move || {
            if empty == 0 {
                return None;
            }
            let first = empty.trailing_zeros();
            let len = (empty >> first).trailing_ones();
            empty &= !(((1u64 << len) - 1) << first) as u32;
            Some((first as u8, len as u8))
        })
    }
}
