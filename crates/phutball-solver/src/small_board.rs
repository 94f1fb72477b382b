//! Small boards as `u64` masks: the children and the parents of positions
//! of boards of at most 64 points, for exhaustive analysis (retrograde
//! tablebases), where [`Position`]'s general move lists cost too much per
//! state (a list of moves allocated, then each move played). The moves are
//! the core's own: this crate's `tests/small_board.rs` checks the children against
//! [`Position::legal_moves_within`] and [`Position::play`] on random
//! positions of random small boards, under both off-board rules, and the
//! parents against the children.

use core::ops::ControlFlow;

use phutball::{
    Bitboard, BoardSize, Direction, Point, Position, Rules, Side, TooManyOutcomesError,
};

/// The most points (columns x rows) a [`SmallBoard`] may have: its men are
/// the bits of a `u64`.
pub const MAX_SMALL_POINTS: u32 = 64;

/// A position of a [`SmallBoard`] without its side to move (the moves do
/// not depend on it): the ball's cell and the men as bits.
///
/// - `ball`: the cell `row * cols + col`, rows 0 to `R + 1` (the
///   off-board strips included), columns from 0;
/// - `men`: bit `(row - 1) * cols + col` for a man on row `row` (1 to `R`).
///
/// ```
/// use phutball::BoardSize;
/// use phutball_solver::SmallBoard;
/// let board = SmallBoard::new(BoardSize::new(3, 4)?, false).expect("12 points");
/// let pos = board.encode(&"3/1#1/1@1/3 O".parse()?).expect("a 3x4 position");
/// assert_eq!(pos.ball, 2 * 3 + 1); // B2: row 2, column 1
/// assert_eq!(pos.men, 1 << (2 * 3 + 1)); // B3: bit (3 - 1) * 3 + 1
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SmallPosition {
    /// The ball's cell: `row * cols + col`, rows 0 to `R + 1`.
    pub ball: u8,
    /// The men: bit `(row - 1) * cols + col`.
    pub men: u64,
}

/// One direction from one cell: the step between cells and how many cells
/// of the grid (strips included) lie that way.
#[derive(Copy, Clone, Debug, Default)]
struct Ray {
    step: i16,
    len: u8,
}

/// A board of at most [`MAX_SMALL_POINTS`] points under one off-board rule,
/// with what its walks need precomputed: the rays of every cell, the
/// neighbours of every cell as men bits, and the tables that flip a
/// position top to bottom.
///
/// ```
/// use core::ops::ControlFlow;
/// use phutball::{BoardSize, Position};
/// use phutball_solver::{SmallBoard, SmallScratch};
///
/// // 1x5: ball on A3, men on A4 and A2, Ohs to move.
/// let board = SmallBoard::new(BoardSize::new(1, 5)?, false).expect("5 points");
/// let pos: Position = "1/#/@/#/1 O".parse()?;
/// let small = board.encode(&pos).expect("a 1x5 position");
/// let mut scratch = SmallScratch::default();
/// let mut children = Vec::new();
/// board.for_each_child(small, &mut scratch, |child| {
///     children.push(board.decode(child, pos.to_move().opponent()).expect("a position"));
///     ControlFlow::Continue(())
/// })?;
/// // Two placements (A1, A5) and two jumps (A3-A5, A3-A1).
/// assert_eq!(children.len(), 4);
/// for m in pos.legal_moves()? {
///     assert!(children.contains(&pos.play(&m)?));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct SmallBoard {
    size: BoardSize,
    continue_off_board: bool,
    cols: u8,
    rows: u8,
    /// Rays of cell `c` in direction `d` (clockwise from north) at `c * 8 + d`.
    rays: Vec<Ray>,
    /// Per cell: the men bits of its (up to 8) neighbours.
    neighbours: Vec<u64>,
    /// Per cell: its own men bit, 0 on a strip (no man stands there).
    cell_bits: Vec<u64>,
    /// Per byte of a men mask: the flipped bits of each byte value.
    flip_bytes: Vec<[u64; 256]>,
}

impl SmallBoard {
    /// The small board of `size` under the off-board rule
    /// `continue_off_board` ([`Rules::continue_off_board`]), or `None` if
    /// it has more than [`MAX_SMALL_POINTS`] points.
    pub fn new(size: BoardSize, continue_off_board: bool) -> Option<SmallBoard> {
        if size.num_board_points() > MAX_SMALL_POINTS {
            return None;
        }
        let (cols, rows) = (size.cols(), size.rows());
        let cells = usize::from(rows + 2) * usize::from(cols);
        let mut rays = vec![Ray::default(); cells * 8];
        let mut neighbours = vec![0u64; cells];
        let cell_bits: Vec<u64> = (0..cells)
            .map(|cell| {
                let row = cell / usize::from(cols);
                if (1..=usize::from(rows)).contains(&row) {
                    1 << (cell - usize::from(cols))
                } else {
                    0
                }
            })
            .collect();
        for cell in 0..cells {
            let (col, row) = (
                (cell % usize::from(cols)) as i32,
                (cell / usize::from(cols)) as i32,
            );
            for (d, direction) in Direction::ALL.iter().enumerate() {
                let (dc, dr) = direction.offset();
                let mut len = 0u8;
                let (mut c, mut r) = (col + dc, row + dr);
                while c >= 0 && c < i32::from(cols) && r >= 0 && r <= i32::from(rows) + 1 {
                    if len == 0 && (1..=i32::from(rows)).contains(&r) {
                        neighbours[cell] |= 1 << ((r - 1) * i32::from(cols) + c);
                    }
                    len += 1;
                    c += dc;
                    r += dr;
                }
                rays[cell * 8 + d] = Ray {
                    step: (dr * i32::from(cols) + dc) as i16,
                    len,
                };
            }
        }
        let points = size.num_board_points();
        let mut flip_bytes = vec![[0u64; 256]; points.div_ceil(8) as usize];
        for (byte, table) in flip_bytes.iter_mut().enumerate() {
            for (value, flipped) in table.iter_mut().enumerate() {
                for bit in 0..8 {
                    let index = byte as u32 * 8 + bit;
                    if value >> bit & 1 != 0 && index < points {
                        let (row, col) = (index / u32::from(cols), index % u32::from(cols));
                        *flipped |= 1 << ((u32::from(rows) - 1 - row) * u32::from(cols) + col);
                    }
                }
            }
        }
        Some(SmallBoard {
            size,
            continue_off_board,
            cols,
            rows,
            rays,
            neighbours,
            cell_bits,
            flip_bytes,
        })
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The off-board rule ([`Rules::continue_off_board`]).
    pub fn continue_off_board(&self) -> bool {
        self.continue_off_board
    }

    /// The number of points men may stand on: the bits of a men mask.
    pub fn points(&self) -> u32 {
        self.size.num_board_points()
    }

    /// Every point men may stand on, as a men mask.
    pub fn board_mask(&self) -> u64 {
        u64::MAX >> (64 - self.points())
    }

    /// The number of cells a ball may be on (the strips included).
    pub fn cells(&self) -> u8 {
        (self.rows + 2) * self.cols
    }

    /// The cell of `p`, if this board has it (the strips included).
    pub fn cell(&self, p: Point) -> Option<u8> {
        self.size.contains(p).then(|| p.row() * self.cols + p.col())
    }

    /// The point of cell `cell`, if this board has it.
    pub fn point(&self, cell: u8) -> Option<Point> {
        (cell < self.cells())
            .then(|| Point::new(cell % self.cols, cell / self.cols))
            .flatten()
    }

    /// The men-mask bit of `p`, if men may stand there (rows 1 to `R`).
    pub fn bit(&self, p: Point) -> Option<u32> {
        self.size
            .is_on_board(p)
            .then(|| u32::from(p.row() - 1) * u32::from(self.cols) + u32::from(p.col()))
    }

    /// The row of cell `cell` (0 and `R + 1` are the strips).
    #[inline(always)]
    pub fn row_of(&self, cell: u8) -> u8 {
        cell / self.cols
    }

    /// `pos` as a small position, if it is on this board under this
    /// off-board rule (its other rule options do not change its moves).
    pub fn encode(&self, pos: &Position) -> Option<SmallPosition> {
        if pos.size() != self.size || pos.rules().continue_off_board != self.continue_off_board {
            return None;
        }
        let men = pos
            .men()
            .iter()
            .filter_map(|p| self.bit(p))
            .fold(0u64, |men, bit| men | 1 << bit);
        Some(SmallPosition {
            ball: self.cell(pos.ball())?,
            men,
        })
    }

    /// The position of `small` with `to_move` to move, under the default
    /// rules but this board's off-board rule; `None` if the ball is not on
    /// this board, a man is not on a point of it, or the ball is on a man.
    pub fn decode(&self, small: SmallPosition, to_move: Side) -> Option<Position> {
        if small.men & !self.board_mask() != 0 {
            return None;
        }
        let ball = self.point(small.ball)?;
        let men: Bitboard = (0..self.points())
            .filter(|bit| small.men >> bit & 1 != 0)
            .filter_map(|bit| {
                Point::new(
                    (bit % u32::from(self.cols)) as u8,
                    (bit / u32::from(self.cols)) as u8 + 1,
                )
            })
            .collect();
        let rules = Rules {
            continue_off_board: self.continue_off_board,
            ..Rules::default()
        };
        Position::from_parts(self.size, rules, men, ball, to_move).ok()
    }

    /// Who has won when a move ends with the ball on `cell`: the side whose
    /// goal it is on or over ([`Position::winner`]).
    #[inline(always)]
    pub fn winner_at(&self, cell: u8) -> Option<Side> {
        self.size.scorer_at_row(self.row_of(cell))
    }

    /// The position turned top to bottom (row `r` becomes row `R + 1 - r`),
    /// as [`Position::flip_rows`] turns it: with the sides swapped, its
    /// value is the same.
    ///
    /// ```
    /// use phutball::{BoardSize, Position};
    /// use phutball_solver::SmallBoard;
    /// let board = SmallBoard::new(BoardSize::new(3, 4)?, false).expect("12 points");
    /// let pos: Position = "#2/3/1@#/3 O".parse()?;
    /// let small = board.encode(&pos).expect("a 3x4 position");
    /// assert_eq!(board.flip_rows(small), board.encode(&pos.flip_rows()).expect("a 3x4 position"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn flip_rows(&self, small: SmallPosition) -> SmallPosition {
        SmallPosition {
            ball: self.flip_cell(small.ball),
            men: self.flip_men(small.men),
        }
    }

    /// Cell `cell` turned top to bottom.
    #[inline(always)]
    pub fn flip_cell(&self, cell: u8) -> u8 {
        let row = self.row_of(cell);
        (self.rows + 1 - row) * self.cols + cell % self.cols
    }

    /// The men `men` turned top to bottom.
    #[inline(always)]
    pub fn flip_men(&self, men: u64) -> u64 {
        let mut flipped = 0;
        for (byte, table) in self.flip_bytes.iter().enumerate() {
            flipped |= table[(men >> (byte * 8)) as usize & 0xff];
        }
        flipped
    }

    /// The points a man may be placed on: every vacant point but the
    /// ball's, none once the game is over.
    #[inline(always)]
    pub fn placements(&self, small: SmallPosition) -> u64 {
        if self.winner_at(small.ball).is_some() {
            return 0;
        }
        let ball_bit = self.ball_bit(small.ball);
        self.board_mask() & !small.men & !ball_bit
    }

    /// The men-mask bit of the ball's cell (0 on a strip).
    #[inline(always)]
    fn ball_bit(&self, cell: u8) -> u64 {
        let row = self.row_of(cell);
        if row == 0 || row > self.rows {
            0
        } else {
            1 << (cell - self.cols)
        }
    }

    /// Calls `visit` with every child of `small`: the placements (in bit
    /// order), then one position per distinct jump outcome
    /// ([`SmallBoard::for_each_jump_outcome`]). None once the game is over.
    ///
    /// # Errors
    ///
    /// [`TooManyOutcomesError`] when the jumps have more distinct outcomes
    /// than `scratch`'s limit.
    pub fn for_each_child<F>(
        &self,
        small: SmallPosition,
        scratch: &mut SmallScratch,
        mut visit: F,
    ) -> Result<ControlFlow<()>, TooManyOutcomesError>
    where
        F: FnMut(SmallPosition) -> ControlFlow<()>,
    {
        let mut free = self.placements(small);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let child = SmallPosition {
                ball: small.ball,
                men: small.men | bit,
            };
            if visit(child).is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        self.for_each_jump_outcome(small, scratch, visit)
    }

    /// Calls `visit` once per distinct position a jump move of `small`
    /// reaches (ball cell and men), as
    /// [`Position::for_each_jump_outcome_within`] does: every non-empty
    /// prefix of a jump sequence is a move, a man is jumped once, a run of
    /// men to a side edge blocks, and a ball landing on a strip stops there
    /// unless [`SmallBoard::continue_off_board`]. States seen before are
    /// not searched again. None once the game is over.
    ///
    /// # Errors
    ///
    /// [`TooManyOutcomesError`] when there are more distinct outcomes than
    /// `scratch`'s limit.
    pub fn for_each_jump_outcome<F>(
        &self,
        small: SmallPosition,
        scratch: &mut SmallScratch,
        mut visit: F,
    ) -> Result<ControlFlow<()>, TooManyOutcomesError>
    where
        F: FnMut(SmallPosition) -> ControlFlow<()>,
    {
        if self.winner_at(small.ball).is_some() || small.men & self.neighbour_mask(small.ball) == 0
        {
            return Ok(ControlFlow::Continue(()));
        }
        scratch.begin();
        self.jumps(small.ball, small.men, scratch, &mut visit)
    }

    /// The men bits next to `cell`.
    #[inline(always)]
    fn neighbour_mask(&self, cell: u8) -> u64 {
        self.neighbours[usize::from(cell)]
    }

    /// Whether a ball that has landed on `cell` may jump on.
    #[inline(always)]
    fn may_jump_on(&self, cell: u8) -> bool {
        self.continue_off_board || !self.size.is_off_board_row(self.row_of(cell))
    }

    /// The forward walk: the jumps from the ball on `ball` among `men`.
    fn jumps<F>(
        &self,
        ball: u8,
        men: u64,
        scratch: &mut SmallScratch,
        visit: &mut F,
    ) -> Result<ControlFlow<()>, TooManyOutcomesError>
    where
        F: FnMut(SmallPosition) -> ControlFlow<()>,
    {
        if men & self.neighbour_mask(ball) == 0 {
            return Ok(ControlFlow::Continue(()));
        }
        for d in 0..8 {
            let ray = self.rays[usize::from(ball) * 8 + d];
            let mut cell = i32::from(ball);
            let mut run = 0u64;
            let mut landing = None;
            for _ in 0..ray.len {
                cell += i32::from(ray.step);
                let bit = self.cell_bits[cell as usize];
                if men & bit == 0 {
                    landing = Some(cell as u8);
                    break;
                }
                run |= bit;
            }
            // No man next to the ball, or a run of men to the edge.
            let Some(landing) = landing.filter(|_| run != 0) else {
                continue;
            };
            let after = men & !run;
            if !scratch.insert(landing, after)? {
                continue;
            }
            let child = SmallPosition {
                ball: landing,
                men: after,
            };
            if visit(child).is_break()
                || (self.may_jump_on(landing)
                    && self.jumps(landing, after, scratch, visit)?.is_break())
            {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Calls `visit` once per parent of `small`: every position not over,
    /// with a move (a placement or a jump move) that leads to `small`. A
    /// placement's parent has one man fewer on any point and the ball where
    /// it is; a jump move's parent is found by undoing jumps from the ball's
    /// cell (putting back the men jumped), each distinct parent once. The
    /// parents of a finished position are those of the move that ended the
    /// game.
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use phutball::{BoardSize, Position};
    /// use phutball_solver::{SmallBoard, SmallScratch};
    ///
    /// // 1x5, ball on A5 (Ohs has scored), men on A2.
    /// let board = SmallBoard::new(BoardSize::new(1, 5)?, false).expect("5 points");
    /// let scored = board.encode(&"@/1/1/#/1 X".parse()?).expect("a 1x5 position");
    /// let mut parents = Vec::new();
    /// board.for_each_parent(scored, &mut SmallScratch::default(), |parent| {
    ///     parents.push(board.decode(parent, phutball::Side::Ohs).expect("a position").to_string());
    ///     ControlFlow::Continue(())
    /// })?;
    /// // Only A3-A5 over A4 (a jump from A1 would have removed the man on A2).
    /// assert_eq!(parents, ["1/#/@/#/1 O"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`TooManyOutcomesError`] when undoing jumps reaches more distinct
    /// positions than `scratch`'s limit.
    pub fn for_each_parent<F>(
        &self,
        small: SmallPosition,
        scratch: &mut SmallScratch,
        mut visit: F,
    ) -> Result<ControlFlow<()>, TooManyOutcomesError>
    where
        F: FnMut(SmallPosition) -> ControlFlow<()>,
    {
        if self.winner_at(small.ball).is_none() {
            let mut men = small.men;
            while men != 0 {
                let bit = men & men.wrapping_neg();
                men ^= bit;
                let parent = SmallPosition {
                    ball: small.ball,
                    men: small.men ^ bit,
                };
                if visit(parent).is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
        }
        scratch.begin();
        self.unjumps(small.ball, small.men, scratch, &mut visit)
    }

    /// The reverse walk: the jumps that could have ended with the ball on
    /// `ball` among `men`. The ball came from a vacant cell `k >= 2` cells
    /// away in some direction, over `k - 1` vacant points (the men it
    /// removed, put back); an origin not over is a parent, and an origin
    /// the ball may jump on from was perhaps itself the landing of an
    /// earlier jump.
    fn unjumps<F>(
        &self,
        ball: u8,
        men: u64,
        scratch: &mut SmallScratch,
        visit: &mut F,
    ) -> Result<ControlFlow<()>, TooManyOutcomesError>
    where
        F: FnMut(SmallPosition) -> ControlFlow<()>,
    {
        for d in 0..8 {
            let ray = self.rays[usize::from(ball) * 8 + d];
            let mut cell = i32::from(ball);
            let mut run = 0u64;
            for _ in 0..ray.len {
                cell += i32::from(ray.step);
                let bit = self.cell_bits[cell as usize];
                if men & bit != 0 {
                    // A man: neither a man jumped (those are gone) nor the origin.
                    break;
                }
                if run != 0 {
                    let origin = cell as u8;
                    let before = men | run;
                    if scratch.insert(origin, before)? {
                        let parent = SmallPosition {
                            ball: origin,
                            men: before,
                        };
                        if (self.winner_at(origin).is_none() && visit(parent).is_break())
                            || (self.may_jump_on(origin)
                                && self.unjumps(origin, before, scratch, visit)?.is_break())
                        {
                            return Ok(ControlFlow::Break(()));
                        }
                    }
                }
                if bit == 0 {
                    // A strip holds no man to have been jumped.
                    break;
                }
                run |= bit;
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

/// The reusable memory of [`SmallBoard`]'s walks: the set of positions a
/// walk has reached, so that each is visited and searched below once. One
/// per thread, kept between calls (a call empties it in constant time).
#[derive(Clone, Debug)]
pub struct SmallScratch {
    /// Open addressing; a slot is used in the walk whose generation it holds.
    slots: Vec<Slot>,
    /// Positions in the current walk.
    len: usize,
    generation: u32,
    limit: usize,
    /// Whether the allocator refused the current walk more room.
    refused: bool,
}

/// One slot of [`SmallScratch`]: the whole key, so that a probe reads one
/// place.
#[derive(Copy, Clone, Debug, Default)]
struct Slot {
    men: u64,
    generation: u32,
    ball: u8,
}

impl Default for SmallScratch {
    /// A scratch set of at most 2^20 positions per walk (64 MiB at most).
    fn default() -> Self {
        SmallScratch::new(1 << 20)
    }
}

impl SmallScratch {
    /// A scratch set of at most `limit` positions per walk: it holds at
    /// most 64 bytes per position (16-byte slots, at most 4 a position).
    pub fn new(limit: usize) -> SmallScratch {
        SmallScratch {
            slots: Vec::new(),
            len: 0,
            generation: 0,
            limit: limit.min(u32::MAX as usize / 4),
            refused: false,
        }
    }

    /// Whether the last walk stopped because the allocator refused the set
    /// more room (an address-space limit, a machine out of memory), not at
    /// [`SmallScratch::limit`]: both are a [`TooManyOutcomesError`].
    pub fn refused(&self) -> bool {
        self.refused
    }

    /// The most positions a walk may reach.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Empties the set for a new walk.
    fn begin(&mut self) {
        self.len = 0;
        self.refused = false;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }

    /// Adds the position (`ball`, `men`); whether it was new.
    #[inline(always)]
    fn insert(&mut self, ball: u8, men: u64) -> Result<bool, TooManyOutcomesError> {
        if self.len * 2 >= self.slots.len() {
            self.grow()?;
        }
        let mask = self.slots.len() - 1;
        let mut slot = hash(ball, men, self.slots.len().trailing_zeros());
        loop {
            let found = self.slots[slot];
            if found.generation != self.generation {
                break;
            }
            if found.men == men && found.ball == ball {
                return Ok(false);
            }
            slot = (slot + 1) & mask;
        }
        if self.len >= self.limit {
            return Err(TooManyOutcomesError { limit: self.limit });
        }
        self.slots[slot] = Slot {
            men,
            generation: self.generation,
            ball,
        };
        self.len += 1;
        Ok(true)
    }

    /// Doubles the table (at least 64 slots) and puts the positions back.
    #[cold]
    fn grow(&mut self) -> Result<(), TooManyOutcomesError> {
        let slots = (self.slots.len() * 2).max(64);
        let mut table = Vec::new();
        if table.try_reserve_exact(slots).is_err() {
            self.refused = true;
            return Err(TooManyOutcomesError { limit: self.limit });
        }
        table.resize(slots, Slot::default());
        if self.generation == 0 {
            self.generation = 1;
        }
        let bits = slots.trailing_zeros();
        for old in &self.slots {
            if old.generation != self.generation {
                continue;
            }
            let mut slot = hash(old.ball, old.men, bits);
            while table[slot].generation == self.generation {
                slot = (slot + 1) & (slots - 1);
            }
            table[slot] = *old;
        }
        self.slots = table;
        Ok(())
    }
}

/// The slot of (`ball`, `men`) in a table of `2^bits` slots.
#[inline(always)]
fn hash(ball: u8, men: u64, bits: u32) -> usize {
    let h = (men ^ u64::from(ball).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_mul(0xBF58_476D_1CE4_E5B9);
    (h >> (64 - bits)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_past_64_points_are_refused() {
        assert!(SmallBoard::new(BoardSize::new(8, 8).unwrap(), false).is_some());
        assert!(SmallBoard::new(BoardSize::new(5, 13).unwrap(), false).is_none());
    }

    #[test]
    fn the_scratch_limit_is_an_error() {
        // 1x7, ball A4, men on A5 and A6 and A2 and A3... the jumps: A4-A7 (over A5, A6) and A4-A1.
        let board = SmallBoard::new(BoardSize::new(1, 7).unwrap(), false).unwrap();
        let pos = board.encode(&"1/#/#/@/#/#/1 O".parse().unwrap()).unwrap();
        let mut scratch = SmallScratch::new(1);
        let err = board
            .for_each_jump_outcome(pos, &mut scratch, |_| ControlFlow::Continue(()))
            .unwrap_err();
        assert_eq!(err, TooManyOutcomesError { limit: 1 });
        let mut scratch = SmallScratch::new(2);
        let mut n = 0;
        let flow = board
            .for_each_jump_outcome(pos, &mut scratch, |_| {
                n += 1;
                ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!((flow, n), (ControlFlow::Continue(()), 2));
    }

    #[test]
    fn a_visitor_stops_the_walk() {
        let board = SmallBoard::new(BoardSize::new(1, 7).unwrap(), false).unwrap();
        let pos = board.encode(&"1/#/#/@/#/#/1 O".parse().unwrap()).unwrap();
        let mut n = 0;
        let flow = board
            .for_each_child(pos, &mut SmallScratch::default(), |_| {
                n += 1;
                ControlFlow::Break(())
            })
            .unwrap();
        assert_eq!((flow, n), (ControlFlow::Break(()), 1));
    }

    #[test]
    fn the_generation_wraps_and_the_table_grows() {
        let mut scratch = SmallScratch::new(1000);
        scratch.generation = u32::MAX;
        scratch.begin();
        assert_eq!(scratch.generation, 1);
        assert_eq!(scratch.insert(3, 7), Ok(true));
        scratch.generation = u32::MAX - 1;
        scratch.begin();
        assert_eq!(
            scratch.insert(3, 7),
            Ok(true),
            "an old generation's slot is free"
        );
        scratch.begin();
        for men in 0..500 {
            assert_eq!(scratch.insert(3, men), Ok(true));
        }
        for men in 0..500 {
            assert_eq!(scratch.insert(3, men), Ok(false));
        }
        scratch.begin();
        assert_eq!(scratch.insert(3, 7), Ok(true));
    }
}
