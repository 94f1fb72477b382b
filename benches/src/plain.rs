//! The baseline: a plain mailbox (array of points) depth-first path counter,
//! the simplest fast way to count jump paths. It knows only the standard
//! board and the default off-board rule. The core must count at least as fast.

use phutball::{BoardSize, Point, Position};

const WIDTH: usize = 17; // A..P without I, and a sentinel column each side
const HEIGHT: usize = 23; // rows -1 ..= 21
const MAN: u8 = 1;
const OUTSIDE: u8 = 2;

/// A standard-board position as a padded array.
#[derive(Clone)]
pub struct PlainBoard {
    cells: [u8; WIDTH * HEIGHT],
    ball: usize,
}

fn cell(col: usize, row: usize) -> usize {
    (row + 1) * WIDTH + col + 1
}

impl PlainBoard {
    /// The board of a standard-board position, if it is one.
    pub fn new(pos: &Position) -> Option<PlainBoard> {
        if pos.size() != BoardSize::STANDARD || pos.is_finished() {
            return None;
        }
        let mut cells = [OUTSIDE; WIDTH * HEIGHT];
        for row in 0..=20 {
            for col in 0..15 {
                let p = Point::new(col as u8, row as u8)?;
                cells[cell(col, row)] = if pos.men().contains(p) { MAN } else { 0 };
            }
        }
        let ball = cell(pos.ball().col() as usize, pos.ball().row() as usize);
        Some(PlainBoard { cells, ball })
    }

    /// The number of jump paths.
    pub fn count_paths(&mut self) -> u64 {
        let ball = self.ball;
        count(&mut self.cells, ball)
    }
}

const DIRECTIONS: [isize; 8] = [
    WIDTH as isize,
    WIDTH as isize + 1,
    1,
    1 - WIDTH as isize,
    -(WIDTH as isize),
    -(WIDTH as isize) - 1,
    -1,
    WIDTH as isize - 1,
];

fn count(cells: &mut [u8; WIDTH * HEIGHT], ball: usize) -> u64 {
    let mut paths = 0;
    for d in DIRECTIONS {
        let first = ball.wrapping_add_signed(d);
        if cells[first] != MAN {
            continue;
        }
        let mut landing = first;
        while cells[landing] == MAN {
            landing = landing.wrapping_add_signed(d);
        }
        if cells[landing] == OUTSIDE {
            continue;
        }
        paths += 1;
        let row = landing / WIDTH - 1;
        if row == 0 || row == 20 {
            continue; // the move ends off the board
        }
        let mut c = first;
        while c != landing {
            cells[c] = 0;
            c = c.wrapping_add_signed(d);
        }
        paths += count(cells, landing);
        let mut c = first;
        while c != landing {
            cells[c] = MAN;
            c = c.wrapping_add_signed(d);
        }
    }
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_baseline_counts_the_reference_paths() {
        for record in crate::fixture(crate::JUMPS_24) {
            let paths = PlainBoard::new(&record.position).unwrap().count_paths();
            assert_eq!(Some(paths), record.paths, "line {}", record.line);
        }
    }
}
