//! A deliberately naive model of the rules, written from `docs/rules.md` alone:
//! men in a `BTreeSet` of `(column, row)` pairs, plain recursion, its own
//! notation. It shares no code with the core's bitboards or mailbox (only
//! the list of the 8 directions, `Direction::ALL`, whose offsets a unit test
//! of the core pins down), so the differential tests compare two independent
//! readings of the rules.

// Each integration test crate includes this module and uses only part of it.
#![allow(dead_code)]

use std::collections::BTreeSet;

use phutball::Direction;

/// A point as `(column, row)`: column 0 is `A`, row 0 and `rows + 1` are off the board.
pub type Pt = (i32, i32);

/// Column letters: A to Z without I.
const LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The two players.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Player {
    /// Scores at the top (rows `rows` and `rows + 1`).
    Ohs,
    /// Scores at the bottom (rows 1 and 0).
    Eks,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::Ohs => Player::Eks,
            Player::Eks => Player::Ohs,
        }
    }
}

/// What a jump move leaves behind: where the ball is and which men remain.
pub type Outcome = (Pt, BTreeSet<Pt>);

/// A position in the naive model.
// `continue_off_board` is the rule's name, not a board inside a board.
#[allow(clippy::struct_field_names)]
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Board {
    /// Number of columns.
    pub cols: i32,
    /// Number of rows from goal line to goal line.
    pub rows: i32,
    /// The men.
    pub men: BTreeSet<Pt>,
    /// The ball.
    pub ball: Pt,
    /// Who is to move.
    pub to_move: Player,
    /// Whether the ball may jump on after landing off the board.
    pub continue_off_board: bool,
}

/// A point in notation: column letter, then row number.
pub fn point_name(p: Pt) -> String {
    format!("{}{}", LETTERS[p.0 as usize] as char, p.1)
}

/// A move in notation: its points joined by `-`.
pub fn move_name(points: &[Pt]) -> String {
    points
        .iter()
        .map(|&p| point_name(p))
        .collect::<Vec<_>>()
        .join("-")
}

impl Board {
    /// Whether `p` exists on this board: within the columns, rows 0 to `rows + 1`.
    pub fn exists(&self, p: Pt) -> bool {
        (0..self.cols).contains(&p.0) && (0..=self.rows + 1).contains(&p.1)
    }

    /// Whether men may stand on `p` (rows 1 to `rows`).
    pub fn on_board(&self, p: Pt) -> bool {
        (0..self.cols).contains(&p.0) && (1..=self.rows).contains(&p.1)
    }

    /// Whether row `row` is an off-board strip.
    pub fn off_board_row(&self, row: i32) -> bool {
        row == 0 || row == self.rows + 1
    }

    /// Who has scored if a move ends with the ball on row `row`.
    pub fn scorer(&self, row: i32) -> Option<Player> {
        if row >= self.rows {
            Some(Player::Ohs)
        } else if row <= 1 {
            Some(Player::Eks)
        } else {
            None
        }
    }

    /// Who has won (the ball is on or over a goal line).
    pub fn winner(&self) -> Option<Player> {
        self.scorer(self.ball.1)
    }

    /// The single jumps from the ball's point as it stands: the landing point
    /// and the men passed over, for each direction that has one.
    pub fn single_jumps(&self) -> Vec<(Pt, Vec<Pt>)> {
        let mut out = Vec::new();
        for (dc, dr) in Direction::ALL.map(Direction::offset) {
            let mut p = (self.ball.0 + dc, self.ball.1 + dr);
            let mut jumped = Vec::new();
            while self.men.contains(&p) {
                jumped.push(p);
                p = (p.0 + dc, p.1 + dr);
            }
            if !jumped.is_empty() && self.exists(p) {
                out.push((p, jumped));
            }
        }
        out
    }

    /// The board after one jump to `landing` over `jumped` (same player to move).
    fn after_jump(&self, landing: Pt, jumped: &[Pt]) -> Board {
        let mut next = self.clone();
        for p in jumped {
            next.men.remove(p);
        }
        next.ball = landing;
        next
    }

    /// Every legal jump path, each starting at the ball's point.
    pub fn paths(&self) -> Vec<Vec<Pt>> {
        let mut out = Vec::new();
        if self.winner().is_none() {
            self.extend(&mut vec![self.ball], &mut out);
        }
        out
    }

    fn extend(&self, path: &mut Vec<Pt>, out: &mut Vec<Vec<Pt>>) {
        for (landing, jumped) in self.single_jumps() {
            path.push(landing);
            out.push(path.clone());
            if self.continue_off_board || !self.off_board_row(landing.1) {
                self.after_jump(landing, &jumped).extend(path, out);
            }
            path.pop();
        }
    }

    /// The distinct results of all jump moves.
    pub fn outcomes(&self) -> BTreeSet<Outcome> {
        self.paths()
            .iter()
            .map(|path| {
                let after = self
                    .follow(&path[1..])
                    .expect("enumerated paths follow single jumps");
                (after.ball, after.men)
            })
            .collect()
    }

    /// Whether the player to move has a jump move that ends in their goal region.
    pub fn can_score(&self) -> bool {
        let me = self.to_move;
        self.paths()
            .iter()
            .any(|path| self.scorer(path[path.len() - 1].1) == Some(me))
    }

    /// The points a man may be placed on.
    pub fn placements(&self) -> BTreeSet<Pt> {
        let mut out = BTreeSet::new();
        if self.winner().is_some() {
            return out;
        }
        for col in 0..self.cols {
            for row in 1..=self.rows {
                let p = (col, row);
                if !self.men.contains(&p) && p != self.ball {
                    out.insert(p);
                }
            }
        }
        out
    }

    /// Plays a move (one point: a placement; more: a jump path), if legal.
    /// A jump path is legal exactly when it is one of [`Board::paths`].
    pub fn play(&self, points: &[Pt]) -> Option<Board> {
        if self.winner().is_some() {
            return None;
        }
        let mut next = match points {
            [] => return None,
            [p] => {
                if !self.placements().contains(p) {
                    return None;
                }
                let mut next = self.clone();
                next.men.insert(*p);
                next
            }
            [start, landings @ ..] => {
                if *start != self.ball || !self.paths().iter().any(|path| path == points) {
                    return None;
                }
                self.follow(landings)?
            }
        };
        next.to_move = self.to_move.other();
        Some(next)
    }

    /// The board after jumping to each of `landings` in turn, each a single
    /// jump from where the ball then is (no other check; same player to move).
    pub fn follow(&self, landings: &[Pt]) -> Option<Board> {
        let mut next = self.clone();
        for &landing in landings {
            let (_, jumped) = next
                .single_jumps()
                .into_iter()
                .find(|(to, _)| *to == landing)?;
            next = next.after_jump(landing, &jumped);
        }
        Some(next)
    }

    /// The position string of `docs/rules.md`, "Notation".
    pub fn position_string(&self) -> String {
        let mut rows = Vec::new();
        for row in (1..=self.rows).rev() {
            let mut text = String::new();
            let mut vacant = 0;
            for col in 0..self.cols {
                let symbol = if (col, row) == self.ball {
                    '@'
                } else if self.men.contains(&(col, row)) {
                    '#'
                } else {
                    vacant += 1;
                    continue;
                };
                if vacant > 0 {
                    text += &vacant.to_string();
                    vacant = 0;
                }
                text.push(symbol);
            }
            if vacant > 0 {
                text += &vacant.to_string();
            }
            rows.push(text);
        }
        let side = match self.to_move {
            Player::Ohs => "O",
            Player::Eks => "X",
        };
        let mut out = format!("{} {side}", rows.join("/"));
        if self.off_board_row(self.ball.1) {
            out += &format!(" {}", point_name(self.ball));
        }
        out
    }
}
