//! The board as text for people: a diagram with coordinates, goal lines,
//! strips, and who is to move or has won.

use crate::board::point::{Point, COLUMN_LETTERS};
use crate::rules::position::Position;

impl Position {
    /// A text diagram of the board with coordinates, the side to move and the result.
    /// `#` is a man, `@` the ball, `+` a vacant point on a goal line, `.` any
    /// other vacant point, and `-` the off-board strips.
    // The expect states an invariant (sizes and rules are validated), no input breaks it.
    #[allow(clippy::missing_panics_doc)]
    pub fn diagram(&self) -> String {
        let cols = self.size.cols();
        let rows = self.size.rows();
        let mut header = String::from("    ");
        for c in 0..cols {
            header.push(' ');
            header.push(COLUMN_LETTERS[c as usize] as char);
        }
        let mut out = header.clone();
        out.push('\n');
        for row in (0..=rows + 1).rev() {
            out.push_str(&format!("{row:>3} "));
            for col in 0..cols {
                let p = Point::new(col, row).expect("board points exist");
                let ch = if p == self.ball {
                    '@'
                } else if self.men.contains(p) {
                    '#'
                } else if self.size.is_off_board_row(row) {
                    '-'
                } else if row == 1 || row == rows {
                    '+'
                } else {
                    '.'
                };
                out.push(' ');
                out.push(ch);
            }
            out.push_str(&format!(" {row:<3}"));
            let note = if row == rows + 1 {
                "  Ohs (O) scores on or over row "
            } else if row == 0 {
                "  Eks (X) scores on or below row "
            } else {
                ""
            };
            if !note.is_empty() {
                out.push_str(note);
                out.push_str(&(if row == 0 { 1 } else { rows }).to_string());
            }
            out = out.trim_end().to_string();
            out.push('\n');
        }
        out.push_str(&header);
        out.push('\n');
        match self.winner() {
            Some(side) => out.push_str(&format!("Game over: {} ({}) has won\n", side.name(), side)),
            None => out.push_str(&format!(
                "{} ({}) to move\n",
                self.to_move.name(),
                self.to_move
            )),
        }
        out
    }
}
