//! Jump enumeration: single jumps, every jump path, one path per distinct
//! outcome, and counts of each.

use core::ops::ControlFlow;

use crate::board::bitboard::Bitboard;
use crate::board::point::{Direction, Point};
use crate::budget::{Budget, Meter, SearchError};
use crate::error::{IllegalMoveError, TooManyOutcomesError};
use crate::jumps::jump::{unit_step, Jump};
use crate::jumps::jump_in_progress::JumpInProgress;
use crate::jumps::walk::{walk, WalkStats, CLOCKWISE, DEDUP_ALL, DEDUP_NONE};
use crate::rules::moves::Move;
use crate::rules::position::Position;

impl Position {
    /// Whether a jump move may start here: the game is not finished (a
    /// ball on a goal line or an off-board strip has scored).
    pub(crate) fn ball_may_jump(&self) -> bool {
        !self.is_finished()
    }

    /// The single jumps the ball can make now, clockwise from north: the
    /// first jumps of a jump move (none once the game is over). A jump move
    /// under way has [`JumpInProgress::single_jumps`].
    ///
    /// ```
    /// use phutball::Position;
    /// let pos: Position = "15/15/15/15/15/15/15/15/15/7@7/7#7/7#7/15/15/15/15/15/15/15 O".parse()?;
    /// let jumps = pos.single_jumps();
    /// assert_eq!(jumps.len(), 1);
    /// assert_eq!((jumps[0].to.to_string(), jumps[0].jumped), ("H7".to_string(), 2));
    /// # Ok::<(), phutball::ParseError>(())
    /// ```
    pub fn single_jumps(&self) -> Vec<Jump> {
        if self.ball_may_jump() {
            self.jumps_from_ball()
        } else {
            Vec::new()
        }
    }

    /// The single jumps from the ball's point, whoever has scored. It steps
    /// along the men's bitboard, so it costs the men next to the ball, not a
    /// pass over the board (step-by-step play calls it at every step).
    pub(crate) fn jumps_from_ball(&self) -> Vec<Jump> {
        let mut out = Vec::new();
        for direction in Direction::ALL {
            let mut landing = self.ball.step(direction);
            let mut jumped = 0u8;
            while let Some(p) = landing.filter(|&p| self.men.contains(p)) {
                landing = p.step(direction);
                jumped += 1;
            }
            if let Some(to) = landing.filter(|&p| jumped > 0 && self.size.contains(p)) {
                out.push(Jump {
                    from: self.ball,
                    to,
                    jumped,
                });
            }
        }
        out
    }

    /// Starts a jump move with one jump of the ball to `to`, removing the
    /// men passed over. The turn is kept: the [`JumpInProgress`] jumps on or
    /// ends the move. This is step-by-step play; [`Position::play`] makes
    /// whole moves. Errors if no single jump lands on `to`.
    ///
    /// ```
    /// use phutball::Position;
    /// let pos: Position = "15/15/15/15/15/15/15/15/15/7@7/7#7/7#7/15/15/15/15/15/15/15 O".parse()?;
    /// let jump = pos.apply_jump("H7".parse()?)?;
    /// assert_eq!(jump.removed().count(), 2);
    /// assert_eq!(jump.end(), pos.play(&"H10-H7".parse()?)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`IllegalMoveError`] saying why no single jump from the ball lands on `to`
    /// (or that the game is over).
    pub fn apply_jump(&self, to: Point) -> Result<JumpInProgress, IllegalMoveError> {
        if let Some(winner) = self.winner() {
            return Err(IllegalMoveError::GameOver { winner });
        }
        let (position, removed) = self.jump_ball(to)?;
        Ok(JumpInProgress::new(position, self.ball, removed))
    }

    /// One jump of the ball to `to` (the side to move unchanged) and the men
    /// it removed; checks the geometry only, not whether the ball may jump.
    pub(crate) fn jump_ball(&self, to: Point) -> Result<(Position, Bitboard), IllegalMoveError> {
        if !self.size.contains(to) {
            return Err(IllegalMoveError::Outside {
                point: to,
                cols: self.size.cols(),
                rows: self.size.rows(),
            });
        }
        let from = self.ball;
        let (dc, dr) = unit_step(from, to).ok_or(IllegalMoveError::NotALine { from, to })?;
        let distance = (i32::from(to.col()) - i32::from(from.col()))
            .abs()
            .max((i32::from(to.row()) - i32::from(from.row())).abs());
        if distance < 2 {
            return Err(if self.men.contains(to) {
                IllegalMoveError::LandsOnMan { from, to }
            } else {
                IllegalMoveError::NoManJumped { from, to }
            });
        }
        let mut next = *self;
        let mut removed = Bitboard::EMPTY;
        for k in 1..distance {
            let p = from
                .offset(dc * k, dr * k)
                .expect("points between two board points exist");
            if !self.men.contains(p) {
                return Err(IllegalMoveError::Gap { from, to, gap: p });
            }
            next.remove_man(p);
            removed.insert(p);
        }
        if self.men.contains(to) {
            return Err(IllegalMoveError::LandsOnMan { from, to });
        }
        next.move_ball(to);
        Ok((next, removed))
    }

    /// Calls `visit` with every legal jump path (start point first, then each
    /// landing), in depth-first order; every non-empty prefix of a legal path
    /// is a path. `visit` may stop the walk by returning `ControlFlow::Break`.
    /// Nothing is allocated per path. Unbounded: dense positions have
    /// billions of paths; [`Position::for_each_jump_path_within`] takes a budget.
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use phutball::Position;
    /// let pos: Position = "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O".parse()?;
    /// let mut longest = Vec::new();
    /// pos.for_each_jump_path(|path| {
    ///     if path.len() > longest.len() { longest = path.to_vec(); }
    ///     ControlFlow::Continue(())
    /// });
    /// assert_eq!(longest.len(), 4); // K6-G9-G11-J11
    /// # Ok::<(), phutball::ParseError>(())
    /// ```
    pub fn for_each_jump_path<F>(&self, visit: F) -> ControlFlow<()>
    where
        F: FnMut(&[Point]) -> ControlFlow<()>,
    {
        // An unlimited budget has nothing to run out of.
        self.for_each_jump_path_within(&Budget::unlimited(), visit)
            .unwrap_or(ControlFlow::Break(()))
    }

    /// [`Position::for_each_jump_path`] within `budget` (a landing is a step
    /// of work): `Ok` with whether `visit` stopped the walk, or why it gave up.
    ///
    /// # Errors
    ///
    /// [`SearchError`] when `budget` stops the search first: its deadline, work
    /// or memory limit, its cancel flag or interrupt hook, or the allocator.
    pub fn for_each_jump_path_within<F>(
        &self,
        budget: &Budget<'_>,
        mut visit: F,
    ) -> Result<ControlFlow<()>, SearchError>
    where
        F: FnMut(&[Point]) -> ControlFlow<()>,
    {
        let meter = Meter::start(budget)?;
        let stats =
            walk::<DEDUP_NONE, true, _>(self, &CLOCKWISE, usize::MAX, None, &meter, |path, _| {
                visit(path)
            })?;
        Ok(flow(stats))
    }

    /// Every legal jump path as a [`Move`], within the default [`Budget`]
    /// (its memory limit counts the list). Dense positions have millions:
    /// prefer [`Position::for_each_jump_path`] or [`Position::count_jump_paths`].
    ///
    /// # Errors
    ///
    /// [`SearchError`] when the default [`Budget`](crate::Budget)'s memory limit is
    /// reached or the allocator refuses (it has no time or work limit).
    pub fn jump_paths(&self) -> Result<Vec<Move>, SearchError> {
        self.jump_paths_within(&Budget::default())
    }

    /// [`Position::jump_paths`] within `budget`.
    ///
    /// # Errors
    ///
    /// [`SearchError`] when `budget` stops the search first: its deadline, work
    /// or memory limit, its cancel flag or interrupt hook, or the allocator.
    pub fn jump_paths_within(&self, budget: &Budget<'_>) -> Result<Vec<Move>, SearchError> {
        self.jump_paths_up_to(usize::MAX, budget)
    }

    /// The first `n` jump paths of [`Position::jump_paths`] (in the order of
    /// [`Position::for_each_jump_path`]) within `budget`: the walk stops there.
    ///
    /// # Errors
    ///
    /// [`SearchError`] when `budget` stops the search first: its deadline, work
    /// or memory limit, its cancel flag or interrupt hook, or the allocator.
    pub fn jump_paths_up_to(
        &self,
        n: usize,
        budget: &Budget<'_>,
    ) -> Result<Vec<Move>, SearchError> {
        let meter = Meter::start(budget)?;
        let mut out = Vec::new();
        if n == 0 {
            return Ok(out);
        }
        let mut failed = None;
        walk::<DEDUP_NONE, true, _>(self, &CLOCKWISE, usize::MAX, None, &meter, |path, _| {
            collect(&meter, &mut out, n, path, &mut failed)
        })?;
        failed.map_or(Ok(out), Err)
    }

    /// The number of legal jump paths, counted without building any.
    /// Unbounded: [`Position::count_jump_paths_within`] takes a budget.
    pub fn count_jump_paths(&self) -> u64 {
        let meter = Meter::unlimited();
        // An unlimited budget has nothing to run out of.
        crate::jumps::walk::count_paths(self, &meter).unwrap_or(u64::MAX)
    }

    /// [`Position::count_jump_paths`] within `budget` (a landing the walk
    /// goes on from is a step of work; it uses no memory to speak of).
    ///
    /// # Errors
    ///
    /// [`SearchError`] when `budget` stops the search first: its deadline, work
    /// or memory limit, its cancel flag or interrupt hook, or the allocator.
    pub fn count_jump_paths_within(&self, budget: &Budget<'_>) -> Result<u64, SearchError> {
        crate::jumps::walk::count_paths(self, &Meter::start(budget)?)
    }

    /// Calls `visit` once per distinct resulting position (ball point plus
    /// remaining men) with the first path found that reaches it. States seen
    /// before are not searched again, so this is much faster than visiting
    /// every path. Errors once more than `limit` outcomes would be kept.
    ///
    /// # Errors
    ///
    /// [`TooManyOutcomesError`](crate::TooManyOutcomesError) once more than `limit` outcomes
    /// would be kept (also when the allocator refuses).
    pub fn for_each_jump_outcome_bounded<F>(
        &self,
        limit: usize,
        mut visit: F,
    ) -> Result<ControlFlow<()>, TooManyOutcomesError>
    where
        F: FnMut(&[Point]) -> ControlFlow<()>,
    {
        let meter = Meter::unlimited();
        walk::<DEDUP_ALL, true, _>(self, &CLOCKWISE, limit, None, &meter, |path, _| visit(path))
            .map(flow)
            .map_err(|e| outcome_limit(&e, limit))
    }

    /// [`Position::for_each_jump_outcome_within`] with the default [`Budget`].
    ///
    /// # Errors
    ///
    /// [`SearchError`] when the default [`Budget`](crate::Budget)'s memory limit is
    /// reached or the allocator refuses (it has no time or work limit).
    pub fn for_each_jump_outcome<F>(&self, visit: F) -> Result<ControlFlow<()>, SearchError>
    where
        F: FnMut(&[Point]) -> ControlFlow<()>,
    {
        self.for_each_jump_outcome_within(&Budget::default(), visit)
    }

    /// Calls `visit` once per distinct resulting position, as
    /// [`Position::for_each_jump_outcome_bounded`] does, within `budget`: a
    /// distinct outcome is a step of work, and the states remembered count
    /// against its memory limit. Streams: nothing is kept per outcome but
    /// its state's fingerprint (16 bytes and a slot).
    ///
    /// # Errors
    ///
    /// [`SearchError`] when `budget` stops the search first: its deadline, work
    /// or memory limit, its cancel flag or interrupt hook, or the allocator.
    pub fn for_each_jump_outcome_within<F>(
        &self,
        budget: &Budget<'_>,
        mut visit: F,
    ) -> Result<ControlFlow<()>, SearchError>
    where
        F: FnMut(&[Point]) -> ControlFlow<()>,
    {
        let meter = Meter::start(budget)?;
        walk::<DEDUP_ALL, true, _>(self, &CLOCKWISE, usize::MAX, None, &meter, |path, _| {
            visit(path)
        })
        .map(flow)
    }

    /// One jump move per distinct resulting position, with a representative
    /// path, within the default [`Budget`] (its memory limit counts the list).
    ///
    /// ```
    /// use phutball::Position;
    /// let pos: Position = "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O".parse()?;
    /// let moves: Vec<String> = pos.jump_outcomes()?.iter().map(|m| m.to_string()).collect();
    /// assert_eq!(moves, ["K6-G9", "K6-G9-G11", "K6-G9-G11-J11"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`SearchError`] when the default [`Budget`](crate::Budget)'s memory limit is
    /// reached or the allocator refuses (it has no time or work limit).
    pub fn jump_outcomes(&self) -> Result<Vec<Move>, SearchError> {
        self.jump_outcomes_within(&Budget::default())
    }

    /// [`Position::jump_outcomes`] within `budget`.
    ///
    /// # Errors
    ///
    /// [`SearchError`] when `budget` stops the search first: its deadline, work
    /// or memory limit, its cancel flag or interrupt hook, or the allocator.
    pub fn jump_outcomes_within(&self, budget: &Budget<'_>) -> Result<Vec<Move>, SearchError> {
        self.jump_outcomes_up_to(usize::MAX, budget)
    }

    /// The first `n` moves of [`Position::jump_outcomes`] within `budget`:
    /// the walk stops there.
    ///
    /// # Errors
    ///
    /// [`SearchError`] when `budget` stops the search first: its deadline, work
    /// or memory limit, its cancel flag or interrupt hook, or the allocator.
    pub fn jump_outcomes_up_to(
        &self,
        n: usize,
        budget: &Budget<'_>,
    ) -> Result<Vec<Move>, SearchError> {
        let meter = Meter::start(budget)?;
        let mut out = Vec::new();
        self.jump_outcomes_metered(&meter, &mut out, n)?;
        Ok(out)
    }

    /// Appends one jump move per distinct outcome to `out`, on `meter`,
    /// until `out` holds `n` moves.
    pub(crate) fn jump_outcomes_metered(
        &self,
        meter: &Meter<'_>,
        out: &mut Vec<Move>,
        n: usize,
    ) -> Result<(), SearchError> {
        if out.len() >= n {
            return Ok(());
        }
        let mut failed = None;
        walk::<DEDUP_ALL, true, _>(self, &CLOCKWISE, usize::MAX, None, meter, |path, _| {
            collect(meter, out, n, path, &mut failed)
        })?;
        failed.map_or(Ok(()), Err)
    }

    /// [`Position::jump_outcomes`] keeping at most `limit` outcomes in
    /// memory, with no other bound.
    ///
    /// # Errors
    ///
    /// [`TooManyOutcomesError`](crate::TooManyOutcomesError) once more than `limit` outcomes
    /// would be kept (also when the allocator refuses).
    pub fn jump_outcomes_bounded(&self, limit: usize) -> Result<Vec<Move>, TooManyOutcomesError> {
        let mut out = Vec::new();
        let _ = self.for_each_jump_outcome_bounded(limit, |path| {
            out.push(Move::Jump(path.to_vec()));
            ControlFlow::Continue(())
        })?;
        Ok(out)
    }

    /// The number of distinct positions the side to move can reach by
    /// jumping, within the default [`Budget`].
    ///
    /// # Errors
    ///
    /// [`SearchError`] when the default [`Budget`](crate::Budget)'s memory limit is
    /// reached or the allocator refuses (it has no time or work limit).
    pub fn count_jump_outcomes(&self) -> Result<u64, SearchError> {
        self.count_jump_outcomes_within(&Budget::default())
    }

    /// [`Position::count_jump_outcomes`] within `budget`.
    ///
    /// # Errors
    ///
    /// [`SearchError`] when `budget` stops the search first: its deadline, work
    /// or memory limit, its cancel flag or interrupt hook, or the allocator.
    pub fn count_jump_outcomes_within(&self, budget: &Budget<'_>) -> Result<u64, SearchError> {
        self.count_jump_outcomes_metered(&Meter::start(budget)?)
    }

    pub(crate) fn count_jump_outcomes_metered(
        &self,
        meter: &Meter<'_>,
    ) -> Result<u64, SearchError> {
        let stats =
            walk::<DEDUP_ALL, false, _>(self, &CLOCKWISE, usize::MAX, None, meter, |_, _| {
                ControlFlow::Continue(())
            })?;
        Ok(stats.landings)
    }

    /// [`Position::count_jump_outcomes`] keeping at most `limit` outcomes in
    /// memory, with no other bound.
    ///
    /// # Errors
    ///
    /// [`TooManyOutcomesError`](crate::TooManyOutcomesError) once more than `limit` outcomes
    /// would be kept (also when the allocator refuses).
    pub fn count_jump_outcomes_bounded(&self, limit: usize) -> Result<u64, TooManyOutcomesError> {
        let meter = Meter::unlimited();
        walk::<DEDUP_ALL, false, _>(self, &CLOCKWISE, limit, None, &meter, |_, _| {
            ControlFlow::Continue(())
        })
        .map(|stats| stats.landings)
        .map_err(|e| outcome_limit(&e, limit))
    }
}

/// Whether the visitor stopped the walk.
fn flow(stats: WalkStats) -> ControlFlow<()> {
    if stats.stopped {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    }
}

/// The outcome-limited forms have no budget but the limit: the only other
/// failure is the allocator's refusal, reported as the limit reached.
fn outcome_limit(e: &SearchError, limit: usize) -> TooManyOutcomesError {
    match e {
        SearchError::TooManyOutcomes(e) => *e,
        _ => TooManyOutcomesError { limit },
    }
}

/// A visitor's body that appends `path` to `out` as a jump move, on
/// `meter`'s memory, and stops the walk once `out` holds `n` moves; a
/// failure is kept in `failed` and stops the walk too.
fn collect(
    meter: &Meter<'_>,
    out: &mut Vec<Move>,
    n: usize,
    path: &[Point],
    failed: &mut Option<SearchError>,
) -> ControlFlow<()> {
    match jump_move(path).and_then(|m| {
        // The path's heap block, rounded to an allocator's granularity.
        let bytes = core::mem::size_of_val(path).next_multiple_of(16);
        meter.push(out, m, bytes, "the list of moves")
    }) {
        Ok(()) if out.len() >= n => ControlFlow::Break(()),
        Ok(()) => ControlFlow::Continue(()),
        Err(e) => {
            *failed = Some(e);
            ControlFlow::Break(())
        }
    }
}

/// `path` as a jump move, its points allocated with `try_reserve`.
fn jump_move(path: &[Point]) -> Result<Move, SearchError> {
    let mut points = Vec::new();
    points
        .try_reserve_exact(path.len())
        .map_err(|_| SearchError::OutOfMemory {
            what: "the list of moves",
        })?;
    points.extend_from_slice(path);
    Ok(Move::Jump(points))
}
