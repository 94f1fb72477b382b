//! Playing moves: legality, play, and the lists and counts of legal moves.

use crate::board::point::Point;
use crate::budget::{Budget, Meter, SearchError};
use crate::error::IllegalMoveError;
use crate::jumps::jump_in_progress::JumpInProgress;
use crate::rules::moves::{landings_from, Move};
use crate::rules::position::Position;

impl Position {
    /// Checks that `m` is legal here, saying why not.
    ///
    /// # Errors
    ///
    /// [`IllegalMoveError`] saying why `m` is not legal here, as [`Position::play`].
    pub fn check_move(&self, m: &Move) -> Result<(), IllegalMoveError> {
        self.play(m).map(|_| ())
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: &Move) -> bool {
        self.check_move(m).is_ok()
    }

    /// Plays `m` and returns the new position with the other side to move, or
    /// says why `m` is illegal. After a jump, [`Position::winner`] tells whether
    /// it scored (for either side: an own goal loses).
    ///
    /// # Errors
    ///
    /// [`IllegalMoveError`] saying why `m` is not legal here: the game is over, a point
    /// is off the board or taken, or a jump of the path is not a jump.
    pub fn play(&self, m: &Move) -> Result<Position, IllegalMoveError> {
        if let Some(winner) = self.winner() {
            return Err(IllegalMoveError::GameOver { winner });
        }
        match m {
            Move::Place(p) => {
                let p = *p;
                if !self.size.contains(p) {
                    return Err(IllegalMoveError::Outside {
                        point: p,
                        cols: self.size.cols(),
                        rows: self.size.rows(),
                    });
                }
                if !self.size.is_on_board(p) {
                    return Err(IllegalMoveError::PlaceOffBoard(p));
                }
                if self.men.contains(p) {
                    return Err(IllegalMoveError::Occupied(p));
                }
                if self.ball == p {
                    return Err(IllegalMoveError::OnBall(p));
                }
                let mut next = *self;
                next.add_man(p);
                Ok(next.end_turn())
            }
            Move::Jump(path) => self.play_jump_path(path),
        }
    }

    /// Plays the jump move along `path` (the ball's point, then each landing).
    pub(crate) fn play_jump_path(&self, path: &[Point]) -> Result<Position, IllegalMoveError> {
        Ok(self.jump_along(path)?.end())
    }

    /// The jump move along `path` made jump by jump, not yet ended: its
    /// [`JumpInProgress::removed`] are the men the move removes.
    pub(crate) fn jump_along(&self, path: &[Point]) -> Result<JumpInProgress, IllegalMoveError> {
        let landings = landings_from(self.ball, path)?;
        let (first, rest) = landings.split_first().ok_or(IllegalMoveError::EmptyJump)?;
        self.apply_jump(*first)?.jump_along(rest)
    }

    /// Every placement, in row order from row 1, left to right.
    pub fn placements(&self) -> Vec<Move> {
        self.placement_points().iter().map(Move::Place).collect()
    }

    /// Every legal move: the placements, then one jump move per distinct
    /// outcome, within the default [`Budget`] (its memory limit counts the list).
    ///
    /// # Errors
    ///
    /// [`SearchError`] when the default [`Budget`](crate::Budget)'s memory limit is
    /// reached or the allocator refuses (it has no time or work limit).
    pub fn legal_moves(&self) -> Result<Vec<Move>, SearchError> {
        self.legal_moves_within(&Budget::default())
    }

    /// [`Position::legal_moves`] within `budget`.
    ///
    /// # Errors
    ///
    /// [`SearchError`] when `budget` stops the search first: its deadline, work
    /// or memory limit, its cancel flag or interrupt hook, or the allocator.
    pub fn legal_moves_within(&self, budget: &Budget<'_>) -> Result<Vec<Move>, SearchError> {
        self.legal_moves_up_to(usize::MAX, budget)
    }

    /// The first `n` moves of [`Position::legal_moves`] within `budget`:
    /// the search stops there.
    ///
    /// # Errors
    ///
    /// [`SearchError`] when `budget` stops the search first: its deadline, work
    /// or memory limit, its cancel flag or interrupt hook, or the allocator.
    pub fn legal_moves_up_to(
        &self,
        n: usize,
        budget: &Budget<'_>,
    ) -> Result<Vec<Move>, SearchError> {
        let meter = Meter::start(budget)?;
        let mut moves = Vec::new();
        for p in self.placement_points().iter().take(n) {
            meter.tick()?;
            meter.push(&mut moves, Move::Place(p), 0, "the list of moves")?;
        }
        self.jump_outcomes_metered(&meter, &mut moves, n)?;
        Ok(moves)
    }

    /// The number of legal moves (placements plus distinct jump outcomes),
    /// within the default [`Budget`].
    ///
    /// # Errors
    ///
    /// [`SearchError`] when the default [`Budget`](crate::Budget)'s memory limit is
    /// reached or the allocator refuses (it has no time or work limit).
    pub fn count_legal_moves(&self) -> Result<u64, SearchError> {
        self.count_legal_moves_within(&Budget::default())
    }

    /// [`Position::count_legal_moves`] within `budget`.
    ///
    /// # Errors
    ///
    /// [`SearchError`] when `budget` stops the search first: its deadline, work
    /// or memory limit, its cancel flag or interrupt hook, or the allocator.
    pub fn count_legal_moves_within(&self, budget: &Budget<'_>) -> Result<u64, SearchError> {
        self.count_legal_moves_metered(&Meter::start(budget)?)
    }

    pub(crate) fn count_legal_moves_metered(&self, meter: &Meter<'_>) -> Result<u64, SearchError> {
        Ok(u64::from(self.placement_points().count()) + self.count_jump_outcomes_metered(meter)?)
    }
}
