//! Zones: the points whose contents a move, or the list of jump moves,
//! depends on. A man added on a point outside a move's zone leaves the move
//! as legal as it was, with the same outcome; one added outside the jump
//! zone leaves the ball the same jumps. A prover uses this to answer a whole
//! class of placements with one proof (relevance zones).

use crate::board::bitboard::Bitboard;
use crate::board::point::{Direction, Point};
use crate::jumps::jump::unit_step;
use crate::rules::moves::Move;
use crate::rules::position::Position;

impl Position {
    /// The points whose contents decide whether `m` is legal here and what
    /// it leads to: the placement's point, or, for each jump of a jump
    /// move, the points it passes over and the one it lands on. A man put
    /// on any other point (of a position with the same ball and side to
    /// move) leaves `m` exactly as legal, with the same resulting position
    /// but for that man. The move need not be legal: its path is read as
    /// it stands.
    ///
    /// ```
    /// use phutball::{Move, Position};
    /// let pos: Position = "15/15/15/15/15/15/15/15/15/7@7/7#7/7#7/15/15/15/15/15/15/15 O".parse()?;
    /// let m: Move = "H10-H7".parse()?;
    /// let zone = pos.move_zone(&m);
    /// let names: Vec<String> = zone.iter().map(|p| p.to_string()).collect();
    /// assert_eq!(names, ["H7", "H8", "H9"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn move_zone(&self, m: &Move) -> Bitboard {
        let mut zone = Bitboard::EMPTY;
        match m {
            Move::Place(p) => zone.insert(*p),
            Move::Jump(path) => {
                for hop in path.windows(2) {
                    let (from, to) = (hop[0], hop[1]);
                    let Some((dc, dr)) = unit_step(from, to) else {
                        // Not a line: illegal whatever the men, read nothing more.
                        continue;
                    };
                    let mut k = 1;
                    while let Some(p) = from.offset(dc * k, dr * k) {
                        zone.insert(p);
                        if p == to {
                            break;
                        }
                        k += 1;
                    }
                }
            }
        }
        zone & self.size().board_points()
    }

    /// A set of points holding every point whose contents decide which
    /// jump moves the ball has here (so which outcomes they give): a man
    /// put on a point outside it leaves the same jump moves with the same
    /// outcomes. From every point the ball could reach by jumping, each of
    /// the 8 lines is read up to the first point without a man of this
    /// position; the men of a line may have been jumped before, so a man
    /// beyond the first of a line is a possible landing too.
    ///
    /// ```
    /// use phutball::Position;
    /// let pos: Position = "15/15/15/15/15/15/15/15/15/7@7/7#7/7#7/15/15/15/15/15/15/15 O".parse()?;
    /// let zone = pos.jump_zone();
    /// // The 8 neighbours of the ball, the second man below it, the landing H7
    /// // and the neighbours of H7 and of H8 (a landing once H8 is jumped).
    /// assert!(zone.contains("H7".parse()?) && zone.contains("G11".parse()?));
    /// assert!(!zone.contains("A1".parse()?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn jump_zone(&self) -> Bitboard {
        let men = self.men();
        let board = self.size();
        let mut zone = Bitboard::EMPTY;
        let mut starts = Bitboard::from_point(self.ball());
        let mut todo: Vec<Point> = vec![self.ball()];
        while let Some(from) = todo.pop() {
            for direction in Direction::ALL {
                let mut run = 0u32;
                let mut next = from.step(direction);
                while let Some(p) = next.filter(|&p| board.contains(p)) {
                    zone.insert(p);
                    let man = men.contains(p);
                    // A landing: the first point without a man, or (once the
                    // men before it are jumped) a man past the first.
                    if run > 0 && !starts.contains(p) {
                        starts.insert(p);
                        todo.push(p);
                    }
                    if !man {
                        break;
                    }
                    run += 1;
                    next = p.step(direction);
                }
            }
        }
        zone & board.board_points()
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::position::Position;

    #[test]
    fn a_lone_ball_reads_its_neighbours_only() {
        let pos: Position = "5/5/2@2/5/5 O".parse().unwrap();
        assert_eq!(pos.jump_zone().count(), 8);
    }
}
