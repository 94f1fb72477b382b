//! Positions: men, ball, side to move, rules.

use core::fmt;
use core::hash::{Hash, Hasher};

use crate::board::bitboard::Bitboard;
use crate::board::board_size::BoardSize;
use crate::board::point::{Point, Side};
use crate::board::zobrist::{ZOBRIST_BALL, ZOBRIST_EKS, ZOBRIST_POINTS};
use crate::error::InvalidPositionError;
use crate::rules::options::Rules;

/// A position: the board size, the men, the ball, the side to move and the
/// rules in force, at the start of a move. Positions are small `Copy` values;
/// playing a move returns a new one. A jump move made one jump at a time is a
/// [`JumpInProgress`](crate::JumpInProgress) until it ends.
///
/// ```
/// use phutball::{Position, Side};
/// let pos = Position::standard();
/// assert_eq!(pos.ball().to_string(), "H10");
/// assert_eq!(pos.to_move(), Side::Ohs);
/// assert_eq!(pos.men().count(), 0);
/// assert_eq!(pos.to_string(), "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O");
/// // Debug: the position string and the rules it does not record.
/// assert_eq!(
///     format!("{:?}", Position::start_with("3x3".parse()?, Default::default())?),
///     "Position { text: \"3/1@1/3 O\", rules: Rules { continue_off_board: false, first_player: Ohs, start: None }, .. }"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) size: BoardSize,
    pub(crate) rules: Rules,
    pub(crate) men: Bitboard,
    pub(crate) ball: Point,
    pub(crate) to_move: Side,
    pub(crate) hash: u64,
}

impl Position {
    /// The standard start: 15 x 19 board, ball on H10, Ohs to move, default rules.
    pub fn standard() -> Position {
        match Position::start_with(BoardSize::STANDARD, Rules::default()) {
            Ok(p) => p,
            Err(_) => unreachable!("the standard start is valid"),
        }
    }

    /// The start position of a board of `size` under `rules`: no men, the ball on
    /// `rules.start` (or the centre), `rules.first_player` to move.
    ///
    /// # Errors
    ///
    /// [`InvalidPositionError`] if `rules` do not fit the board ([`Rules::validate`]).
    pub fn start_with(size: BoardSize, rules: Rules) -> Result<Position, InvalidPositionError> {
        rules.validate(size)?;
        let ball = rules.start.unwrap_or_else(|| size.centre());
        Position::from_parts(size, rules, Bitboard::EMPTY, ball, rules.first_player)
    }

    /// A position from its parts, validated: the rules fit the board
    /// ([`Rules::validate`]), every man on the board (rows 1..=R), the ball on
    /// the board or an off-board strip, and not on a man.
    ///
    /// ```
    /// use phutball::{Bitboard, BoardSize, Position, Rules, Side};
    /// let men: Bitboard = ["J7", "H8", "G10", "H11"].iter().map(|s| s.parse().unwrap()).collect();
    /// let pos = Position::from_parts(BoardSize::STANDARD, Rules::default(), men, "K6".parse()?, Side::Ohs)?;
    /// assert_eq!(pos.count_jump_paths(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InvalidPositionError`] for the first of these conditions the parts break.
    pub fn from_parts(
        size: BoardSize,
        rules: Rules,
        men: Bitboard,
        ball: Point,
        to_move: Side,
    ) -> Result<Position, InvalidPositionError> {
        rules.validate(size)?;
        check_men_on_board(size, "man", men)?;
        if !size.contains(ball) {
            return Err(InvalidPositionError::Outside {
                what: "ball",
                point: ball,
                cols: size.cols(),
                rows: size.rows(),
            });
        }
        if men.contains(ball) {
            return Err(InvalidPositionError::BallOnMan(ball));
        }
        let mut hash = ZOBRIST_BALL[ball.index()];
        for p in men {
            hash ^= ZOBRIST_POINTS[p.index()];
        }
        if to_move == Side::Eks {
            hash ^= ZOBRIST_EKS;
        }
        Ok(Position {
            size,
            rules,
            men,
            ball,
            to_move,
            hash,
        })
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The same position under other rules, if they fit its board
    /// ([`Rules::validate`]: a start point outside the board or not strictly
    /// between the goal lines is an error).
    ///
    /// ```
    /// use phutball::{Position, Rules};
    /// let rules = Rules { continue_off_board: true, ..Rules::default() };
    /// assert!(Position::standard().with_rules(rules)?.rules().continue_off_board);
    /// let bad = Rules { start: Some("Z26".parse()?), ..Rules::default() };
    /// assert!(Position::standard().with_rules(bad).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InvalidPositionError`] if `rules` do not fit the board ([`Rules::validate`]).
    pub fn with_rules(mut self, rules: Rules) -> Result<Position, InvalidPositionError> {
        rules.validate(self.size)?;
        self.rules = rules;
        Ok(self)
    }

    /// The men on the board.
    pub fn men(&self) -> Bitboard {
        self.men
    }

    /// The ball's point.
    pub fn ball(&self) -> Point {
        self.ball
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// A Zobrist hash of men, ball and side to move (not the rules), for
    /// transposition tables. Equal positions have equal hashes.
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    /// The [`zobrist`](Position::zobrist) hash of the position after a man
    /// is placed on `p` (the other side then to move), without building it:
    /// for a search that probes a table before it builds a child. `p` need
    /// not be vacant (the hash is then of no position).
    ///
    /// ```
    /// use phutball::{Move, Point, Position};
    /// let pos: Position = "start".parse()?;
    /// let p: Point = "H11".parse()?;
    /// assert_eq!(pos.zobrist_after_placement(p), pos.play(&Move::Place(p))?.zobrist());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn zobrist_after_placement(&self, p: Point) -> u64 {
        self.hash ^ ZOBRIST_POINTS[p.index()] ^ ZOBRIST_EKS
    }

    /// Who has won: the side whose goal the ball is on or over when the move
    /// has ended, if any. A position with a winner is finished and has no
    /// legal moves.
    pub fn winner(&self) -> Option<Side> {
        self.size.scorer_at_row(self.ball.row())
    }

    /// Whether the game is over (the ball is on or over a goal line).
    pub fn is_finished(&self) -> bool {
        self.winner().is_some()
    }

    /// Whether a man stands on `p`.
    pub fn has_man(&self, p: Point) -> bool {
        self.size.contains(p) && self.men.contains(p)
    }

    /// The vacant points men may be placed on (none in a finished position).
    pub fn placement_points(&self) -> Bitboard {
        if self.is_finished() {
            return Bitboard::EMPTY;
        }
        let mut free = self.size.board_points() - self.men;
        free.remove(self.ball);
        free
    }

    /// The rows strictly between the ball and the goal line of the side to
    /// move that hold no man, as bits (bit `r` for row `r`). A jump step
    /// crosses a row between its ends only over a man on it, so the ball
    /// never gets past two neighbouring such rows: then the side to move
    /// cannot score, and a run of `n` of them needs `n / 2` more men first.
    ///
    /// ```
    /// use phutball::Position;
    ///
    /// // Ohs (attacking row 19), ball on H10, men on H11 and H13: rows 12
    /// // and 14 to 18 are empty.
    /// let pos: Position = "15/15/15/15/15/15/7#7/15/7#7/7@7/15/15/15/15/15/15/15/15/15 O".parse()?;
    /// assert_eq!(pos.empty_rows_towards_goal(), 1 << 12 | 0b11111 << 14);
    /// # Ok::<(), phutball::ParseError>(())
    /// ```
    pub fn empty_rows_towards_goal(&self) -> u32 {
        let ball = self.ball.row();
        let (first, last) = match self.to_move {
            Side::Ohs => (ball + 1, self.size.rows() - 1),
            Side::Eks => (2, ball.saturating_sub(1)),
        };
        (first..=last)
            .filter(|&row| self.men.row_bits(row) == 0)
            .fold(0, |rows, row| rows | 1 << row)
    }

    /// The same board with the other side to move: a "pass", for asking what
    /// the opponent could do here (threat detection).
    #[must_use]
    pub fn end_turn(mut self) -> Position {
        self.to_move = self.to_move.opponent();
        self.hash ^= ZOBRIST_EKS;
        self
    }

    pub(crate) fn add_man(&mut self, p: Point) {
        self.men.insert(p);
        self.hash ^= ZOBRIST_POINTS[p.index()];
    }

    pub(crate) fn remove_man(&mut self, p: Point) {
        self.men.remove(p);
        self.hash ^= ZOBRIST_POINTS[p.index()];
    }

    pub(crate) fn move_ball(&mut self, to: Point) {
        self.hash ^= ZOBRIST_BALL[self.ball.index()] ^ ZOBRIST_BALL[to.index()];
        self.ball = to;
    }

    /// The position mirrored left to right (same side to move).
    #[must_use]
    // The expect states an invariant (sizes and rules are validated), no input breaks it.
    #[allow(clippy::missing_panics_doc)]
    pub fn mirror_columns(&self) -> Position {
        let cols = self.size.cols();
        let flip =
            |p: Point| Point::new(cols - 1 - p.col(), p.row()).expect("mirrored point exists");
        let men = self.men.iter().map(flip).collect();
        let mut rules = self.rules;
        rules.start = rules.start.map(flip);
        Position::from_parts(self.size, rules, men, flip(self.ball), self.to_move)
            .expect("mirroring keeps a position valid")
    }

    /// The position turned top to bottom with the sides swapped: Ohs's
    /// chances here are Eks's there.
    #[must_use]
    // The expect states an invariant (sizes and rules are validated), no input breaks it.
    #[allow(clippy::missing_panics_doc)]
    pub fn flip_rows(&self) -> Position {
        let rows = self.size.rows();
        let flip =
            |p: Point| Point::new(p.col(), rows + 1 - p.row()).expect("flipped point exists");
        let men = self.men.iter().map(flip).collect();
        let mut rules = self.rules;
        rules.start = rules.start.map(flip);
        rules.first_player = rules.first_player.opponent();
        Position::from_parts(
            self.size,
            rules,
            men,
            flip(self.ball),
            self.to_move.opponent(),
        )
        .expect("flipping keeps a position valid")
    }
}

/// Checks that every one of `men` (named `what` in the error) stands on the
/// board, rows 1 to R.
pub(crate) fn check_men_on_board(
    size: BoardSize,
    what: &'static str,
    men: Bitboard,
) -> Result<(), InvalidPositionError> {
    match (men - size.board_points()).iter().next() {
        None => Ok(()),
        Some(p) if size.contains(p) => Err(InvalidPositionError::ManOffBoard(p)),
        Some(p) => Err(InvalidPositionError::Outside {
            what,
            point: p,
            cols: size.cols(),
            rows: size.rows(),
        }),
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::standard()
    }
}

impl fmt::Debug for Position {
    /// The position string and the rules: the parts, which the string
    /// holds in notation, and not the hash (a function of them).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("text", &self.to_string())
            .field("rules", &self.rules)
            .finish_non_exhaustive()
    }
}

impl Hash for Position {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}
