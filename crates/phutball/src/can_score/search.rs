//! Can the side to move score this move? Deciding it is NP-complete in
//! general, so it is a search, in three parts (after a free check: two
//! neighbouring rows without men between the ball and the goal mean "no",
//! see `goal_cut_off`):
//!
//! 1. A cheap relaxation ([`Reach`]: men never removed, any of them maybe
//!    missing) proves most "no" answers at once.
//! 2. A quick depth-first search over distinct states, goal-bound directions
//!    first, for up to [`QUICK_LANDINGS`] landings; after
//!    [`LANDINGS_BEFORE_REFUTING`] it tries a stronger relaxation
//!    ([`refute`](crate::refute)) once. This decides every position of
//!    `tests/data/score-16.fixture`.
//! 3. A layered depth-first search: at each state, the landings nearest the
//!    goal in the relaxation (fewest relaxed jumps) first. It remembers the
//!    states it has proved cannot reach the goal (recorded only once searched
//!    through, so the memory is kept across its restarts), and restarts with
//!    twice the landings in another order of directions, trying the stronger
//!    relaxation again before each round with a budget growing with its own.
//!    This decides 29 of the 32 positions of `tests/data/hard-32.fixture`.
//!
//! Every landing, and every state of the stronger relaxation, is a step of
//! work on the caller's [`Budget`].

use core::ops::ControlFlow;

use crate::board::mailbox::{Mailbox, FLAG_EKS_GOAL, FLAG_OHS_GOAL};
use crate::board::mailbox::{MAILBOX_LEN, MAILBOX_MASK, OUTSIDE, STRIP_STOP};
use crate::board::point::{Point, Side};
use crate::board::zobrist::FINGERPRINT_BALL;
use crate::budget::{Budget, Meter, SearchError};
use crate::can_score::refute::{refute, Refutation};
use crate::jumps::reach::Reach;
use crate::jumps::searched::DeadCache;
use crate::jumps::walk::{
    fingerprint_run, walk, Order, CLOCKWISE, DEDUP_INTERNAL, NORTH_FIRST, SOUTH_FIRST,
};
use crate::rules::moves::Move;
use crate::rules::position::Position;

impl Position {
    /// A jump move that ends with the ball on or over the opponent's goal line,
    /// if the side to move has one.
    ///
    /// ```
    /// use phutball::Position;
    /// // Ohs to move, ball N18, man O19: N18-P20 scores.
    /// let pos: Position = "13#1/12@2/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 O".parse()?;
    /// assert_eq!(pos.scoring_jump().unwrap().to_string(), "N18-P20");
    /// assert!(!pos.end_turn().can_score());
    /// # Ok::<(), phutball::ParseError>(())
    /// ```
    ///
    /// Unbounded: deciding it can take minutes on dense boards;
    /// [`Position::scoring_jump_within`] takes a budget.
    pub fn scoring_jump(&self) -> Option<Move> {
        let meter = Meter::unlimited();
        let mut found = None;
        // An unlimited budget has nothing to run out of.
        let _ = self.score_search::<true>(&meter, FIRST_BUDGET, |path| {
            found = Some(Move::Jump(path.to_vec()));
        });
        found
    }

    /// [`Position::scoring_jump`] within `budget` (a landing is a step of
    /// work): `Ok(None)` only when it is proved that no jump scores.
    ///
    /// # Errors
    ///
    /// [`SearchError`] when `budget` stops the search first: its deadline, work
    /// or memory limit, its cancel flag or interrupt hook, or the allocator.
    pub fn scoring_jump_within(&self, budget: &Budget<'_>) -> Result<Option<Move>, SearchError> {
        let meter = Meter::start(budget)?;
        let mut found = None;
        self.score_search::<true>(&meter, FIRST_BUDGET, |path| {
            found = Some(Move::Jump(path.to_vec()));
        })?;
        Ok(found)
    }

    /// Whether the side to move can score this move.
    ///
    /// Unbounded: deciding it can take minutes on dense boards;
    /// [`Position::can_score_within`] takes a budget.
    pub fn can_score(&self) -> bool {
        let meter = Meter::unlimited();
        self.score_search::<false>(&meter, FIRST_BUDGET, |_| ())
            .unwrap_or(false)
    }

    /// [`Position::can_score`] within `budget` (a landing is a step of
    /// work): the exact answer, or why it gave up.
    ///
    /// ```
    /// use phutball::{Budget, Position, SearchError};
    /// let pos: Position = "13#1/12@2/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 O".parse()?;
    /// assert_eq!(pos.can_score_within(&Budget::default()), Ok(true));
    /// assert_eq!(
    ///     pos.can_score_within(&Budget::default().with_work_limit(0)),
    ///     Err(SearchError::WorkLimit { limit: 0 }),
    /// );
    /// # Ok::<(), phutball::ParseError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`SearchError`] when `budget` stops the search first: its deadline, work
    /// or memory limit, its cancel flag or interrupt hook, or the allocator.
    pub fn can_score_within(&self, budget: &Budget<'_>) -> Result<bool, SearchError> {
        self.score_search::<false>(&Meter::start(budget)?, FIRST_BUDGET, |_| ())
    }

    /// Whether two neighbouring rows without men lie strictly between the
    /// ball and the goal line of the side to move (see
    /// [`Position::empty_rows_towards_goal`]): then it cannot score. Most
    /// positions of a game are decided so, without building the search's
    /// board (most of a can-score's cost).
    fn goal_cut_off(&self) -> bool {
        let empty = self.empty_rows_towards_goal();
        empty & empty >> 1 != 0
    }

    /// The search, whose first run makes `first_budget` landings.
    fn score_search<const TRACK: bool>(
        &self,
        meter: &Meter<'_>,
        first_budget: u64,
        mut on_goal: impl FnMut(&[Point]),
    ) -> Result<bool, SearchError> {
        if self.is_finished() || !self.ball_may_jump() || self.goal_cut_off() {
            return Ok(false);
        }
        let (goal_flag, order) = match self.to_move {
            Side::Ohs => (FLAG_OHS_GOAL, &NORTH_FIRST),
            Side::Eks => (FLAG_EKS_GOAL, &SOUTH_FIRST),
        };
        if let Some(found) = self.search_for_goal::<TRACK>(
            goal_flag,
            order,
            first_budget.min(QUICK_LANDINGS),
            true,
            meter,
            &mut on_goal,
        )? {
            return Ok(found);
        }
        // Built only now: the quick search (which decides most positions)
        // builds its own.
        let mb = Mailbox::new(self.size, self.men, !self.rules.continue_off_board);
        let start = mb.cell(self.ball);
        let mut layers = [0; MAILBOX_LEN];
        let reach =
            Reach::compute_with_layers(&mb, goal_flag, self.rules.continue_off_board, &mut layers);
        if !reach.alive.contains(start) {
            return Ok(false);
        }
        let mut search = GoalSearch::<TRACK, _> {
            meter,
            mb,
            goal_flag,
            may_jump_from_strip: self.rules.continue_off_board,
            order,
            dead: DeadCache::new(DEAD_MAX_SLOTS, meter)?,
            // All equal until computed: direction order alone.
            layers,
            points: Vec::with_capacity(if TRACK {
                self.men.count() as usize + 2
            } else {
                0
            }),
            landings: 0,
            max_landings: 0,
            // The quick search has tried it.
            refute_at: u64::MAX,
            next_event: 0,
            position: self,
            on_goal: &mut on_goal,
        };
        let result = search.run(start, &reach, first_budget);
        meter.release(search.dead.bytes());
        result
    }
    /// The quick search for a scoring path, in one order of directions:
    /// `None` if it gave up after `max_landings` landings. It is the search
    /// of the first issue, kept as the first try because it is the fastest
    /// on positions it decides soon (all of `score-16`'s); its memory of
    /// searched states is recorded on the way down, so it cannot be kept. With `try_refute`, positions
    /// that can score mostly reach the goal within a few hundred landings
    /// (all of `score-16`'s within 1,700), so one still searching after
    /// [`LANDINGS_BEFORE_REFUTING`] is worth one try of the stronger
    /// relaxation, which proves most such positions cannot score or finds a
    /// scoring path.
    fn search_for_goal<const TRACK: bool>(
        &self,
        goal_flag: u8,
        order: &'static Order,
        max_landings: u64,
        try_refute: bool,
        meter: &Meter<'_>,
        on_goal: &mut impl FnMut(&[Point]),
    ) -> Result<Option<bool>, SearchError> {
        let mut landings = 0;
        let mut refuted = false;
        let mut found = false;
        let mut gave_up = false;
        let mut stopped = None;
        let result = walk::<DEDUP_INTERNAL, TRACK, _>(
            self,
            order,
            usize::MAX,
            Some(goal_flag),
            meter,
            |path, flags| {
                if flags & goal_flag != 0 {
                    on_goal(path);
                    return ControlFlow::Break(());
                }
                landings += 1;
                if landings == max_landings {
                    gave_up = true;
                    return ControlFlow::Break(());
                }
                if !try_refute || landings != LANDINGS_BEFORE_REFUTING {
                    return ControlFlow::Continue(());
                }
                match self.refute(goal_flag, order, FIRST_REFUTE_STATES, meter) {
                    Refutation::CannotScore { .. } => refuted = true,
                    Refutation::Scores(points) => {
                        on_goal(&points);
                        found = true;
                    }
                    Refutation::Unknown => return ControlFlow::Continue(()),
                    Refutation::Stopped(e) => {
                        stopped = Some(e);
                        return ControlFlow::Break(());
                    }
                }
                ControlFlow::Break(())
            },
        );
        let stats = result?;
        if let Some(e) = stopped {
            return Err(e);
        }
        if gave_up {
            return Ok(None);
        }
        Ok(Some(found || !refuted && stats.stopped))
    }

    /// [`refute`] for this position. Kept out of the search's visitor, which
    /// runs on every landing.
    #[cold]
    #[inline(never)]
    fn refute(
        &self,
        goal_flag: u8,
        order: &Order,
        state_budget: usize,
        meter: &Meter<'_>,
    ) -> Refutation {
        let mb = Mailbox::new(self.size, self.men, !self.rules.continue_off_board);
        let start = mb.cell(self.ball);
        let reach = Reach::compute(&mb, goal_flag, self.rules.continue_off_board);
        refute(
            &mb,
            start,
            goal_flag,
            &reach.alive,
            &order.offsets,
            state_budget,
            meter,
        )
    }
}

/// The most slots of the memory of dead states (16 MiB).
const DEAD_MAX_SLOTS: usize = 1 << 20;

/// Why a run of [`GoalSearch`] stopped before it was done.
enum Stop {
    /// Its landings ran out: restart.
    GaveUp,
    /// [`refute`] settled it.
    Answer(bool),
    /// The caller's budget ran out.
    Budget(SearchError),
}

/// The depth-first search for a scoring path.
struct GoalSearch<'p, 'm, 'b, const TRACK: bool, F> {
    meter: &'m Meter<'b>,
    mb: Mailbox,
    goal_flag: u8,
    may_jump_from_strip: bool,
    /// The order of directions among landings of one layer.
    order: &'static Order,
    /// States proved not to reach the goal, kept across restarts.
    dead: DeadCache,
    /// Each cell's layer in the root's relaxation (the fewest jumps from it
    /// to the goal there): landings nearer the goal are searched first.
    layers: [u8; MAILBOX_LEN],
    points: Vec<Point>,
    landings: u64,
    max_landings: u64,
    /// The landing count of this run at which to try [`refute`] (`u64::MAX`: never).
    refute_at: u64,
    /// The smaller of `max_landings` and `refute_at`: one test a landing.
    next_event: u64,
    position: &'p Position,
    on_goal: &'p mut F,
}

impl<const TRACK: bool, F: FnMut(&[Point])> GoalSearch<'_, '_, '_, TRACK, F> {
    /// Restarts with twice the landings each time, alternating the order
    /// of directions, until a run finishes or the caller's budget runs out.
    fn run(&mut self, start: usize, reach: &Reach, first_budget: u64) -> Result<bool, SearchError> {
        let first_order = self.order;
        let mut max_landings = first_budget.max(1);
        let mut round = 0;
        loop {
            if round > 0 {
                // The exact search has run long: the relaxation again, with
                // a budget growing with the search's.
                let states = (max_landings / LANDINGS_PER_REFUTE_STATE)
                    .min(MAX_REFUTE_STATES as u64) as usize;
                match self.try_refute(states) {
                    Ok(()) => {}
                    Err(Stop::Answer(found)) => return Ok(found),
                    Err(Stop::Budget(e)) => return Err(e),
                    Err(Stop::GaveUp) => unreachable!("refute gives up with Unknown"),
                }
            }
            round += 1;
            for order in [first_order, &CLOCKWISE] {
                self.order = order;
                self.landings = 0;
                self.max_landings = max_landings;
                self.next_event = max_landings.min(self.refute_at);
                self.points.clear();
                if TRACK {
                    self.points.push(self.mb.point(start));
                }
                let pending = order.neighbours[self.mb.neighbourhood(start)];
                match self.search(start, pending, 0, reach, 0) {
                    Ok(found) | Err(Stop::Answer(found)) => return Ok(found),
                    Err(Stop::Budget(e)) => return Err(e),
                    Err(Stop::GaveUp) => {}
                }
                self.refute_at = u64::MAX;
            }
            max_landings = max_landings.saturating_mul(2);
        }
    }

    /// Whether the goal can be reached from `ball` with the men of the
    /// mailbox; `removed` fingerprints the men removed.
    fn search(
        &mut self,
        ball: usize,
        pending: u8,
        removed: u128,
        reach: &Reach,
        depth: usize,
    ) -> Result<bool, Stop> {
        let Some((children, count)) = self.landings_nearest_first(ball, pending, reach)? else {
            return Ok(true);
        };
        let children = &children[..count];
        for &child in children {
            let dir = (child >> 21 & 7) as usize;
            let around = (child >> 10) as u8;
            let landing = (child & 0x3ff) as usize;
            let d = self.order.offsets[dir];
            let first = ball.wrapping_add(d) & MAILBOX_MASK;
            let child_removed = fingerprint_run(removed, first, landing, d);
            let key = child_removed ^ FINGERPRINT_BALL[landing];
            if self.dead.contains(key) {
                continue;
            }
            if TRACK {
                self.points.push(self.mb.point(landing));
            }
            self.mb.set_run(first, landing, d, false);
            let result = if depth < GOAL_RECOMPUTE_DEPTH
                && reach.support.intersects_run(first, landing, d)
            {
                self.search_with_new_reach(landing, around, child_removed, depth + 1)
            } else {
                self.search(landing, around, child_removed, reach, depth + 1)
            };
            self.mb.set_run(first, landing, d, true);
            if result? {
                return Ok(true);
            }
            self.dead.record(key, self.meter);
            if TRACK {
                self.points.pop();
            }
        }
        Ok(false)
    }

    /// The landings of the jumps in `pending` from `ball` worth searching
    /// below (not a leaf, not pruned by `reach`), each packed as (layer,
    /// direction, directions with a man around, landing) so that sorting
    /// orders them: nearest the goal first, then in direction order; and
    /// how many there are. `None` when a landing is on the goal (the path
    /// has gone to `on_goal`).
    #[inline(always)]
    fn landings_nearest_first(
        &mut self,
        ball: usize,
        mut pending: u8,
        reach: &Reach,
    ) -> Result<Option<([u32; 8], usize)>, Stop> {
        let mut children = [0u32; 8];
        let mut count = 0;
        while pending != 0 {
            let dir = pending.trailing_zeros() as usize;
            pending &= pending - 1;
            let d = self.order.offsets[dir];
            let (landing, contents) = self.mb.landing(ball, d);
            if contents == OUTSIDE {
                continue;
            }
            self.meter.tick().map_err(Stop::Budget)?;
            self.landings += 1;
            if self.flags_goal(landing) {
                if TRACK {
                    self.points.push(self.mb.point(landing));
                }
                (self.on_goal)(&self.points);
                return Ok(None);
            }
            if self.landings >= self.next_event {
                self.event()?;
            }
            if contents == STRIP_STOP || !reach.alive.contains(landing) {
                continue;
            }
            // The men removed lie behind the landing, so only the way back
            // changes: with no other man around it, the landing is a leaf,
            // cheaper to visit again than to remember.
            let around = self.order.neighbours[self.mb.neighbourhood(landing)]
                & !(1 << self.order.opposite[dir]);
            if around == 0 {
                continue;
            }
            // Insertion sort: nearest the goal first, then in direction order.
            let key = u32::from(self.layers[landing]) << 24
                | (dir as u32) << 21
                | u32::from(around) << 10
                | landing as u32;
            let mut i = count;
            while i > 0 && children[i - 1] > key {
                children[i] = children[i - 1];
                i -= 1;
            }
            children[i] = key;
            count += 1;
        }
        Ok(Some((children, count)))
    }

    /// The run's landings ran out, or it is time to try [`refute`].
    #[cold]
    #[inline(never)]
    fn event(&mut self) -> Result<(), Stop> {
        if self.landings >= self.max_landings {
            return Err(Stop::GaveUp);
        }
        self.refute_at = u64::MAX;
        self.next_event = self.max_landings;
        self.try_refute(FIRST_REFUTE_STATES)
    }

    #[inline(always)]
    fn flags_goal(&self, cell: usize) -> bool {
        self.mb.flags[cell] & self.goal_flag != 0
    }

    /// Men that `reach` relied on are gone: recomputes it before going on.
    #[inline(never)]
    fn search_with_new_reach(
        &mut self,
        ball: usize,
        pending: u8,
        removed: u128,
        depth: usize,
    ) -> Result<bool, Stop> {
        let reach = Reach::compute(&self.mb, self.goal_flag, self.may_jump_from_strip);
        if !reach.alive.contains(ball) {
            return Ok(false);
        }
        self.search(ball, pending, removed, &reach, depth)
    }

    /// Tries [`refute`] on the root position.
    #[cold]
    #[inline(never)]
    fn try_refute(&mut self, state_budget: usize) -> Result<(), Stop> {
        match self
            .position
            .refute(self.goal_flag, self.order, state_budget, self.meter)
        {
            Refutation::CannotScore { .. } => Err(Stop::Answer(false)),
            Refutation::Scores(points) => {
                (self.on_goal)(&points);
                Err(Stop::Answer(true))
            }
            Refutation::Unknown => Ok(()),
            Refutation::Stopped(e) => Err(Stop::Budget(e)),
        }
    }
}

/// Below this depth of the current path, removing a man the relaxation
/// relied on near the goal recomputes it. Deeper, the cost outweighs what
/// it prunes: with no bound, `score-16` took 1.9 ms a pass instead of 0.7,
/// and `hard-32` decided no more.
const GOAL_RECOMPUTE_DEPTH: usize = 4;

/// Relaxed states of the first try of [`refute`].
const FIRST_REFUTE_STATES: usize = 512;

/// After the first round of the exact search, [`refute`] is tried again
/// before each round with one relaxed state per this many landings the
/// round's runs may make.
const LANDINGS_PER_REFUTE_STATE: u64 = 32;

/// The most relaxed states of a try of [`refute`].
const MAX_REFUTE_STATES: usize = 1 << 22;

/// Landings of the quick search before the layered one (`score-16` needs
/// at most 17,408).
const QUICK_LANDINGS: u64 = 20_000;

/// Landings the search for a scoring path makes before it tries [`refute`].
const LANDINGS_BEFORE_REFUTING: u64 = 2000;

/// Landings the first search makes before a restart in another order (about
/// 3 ms; `score-16` needs at most 17,368).
const FIRST_BUDGET: u64 = 100_000;

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use crate::budget::Meter;
    use crate::can_score::refute::tests::{exact_can_score, position};
    use crate::Budget;

    /// Landings allowed to one search of the proptest: 100 times the most
    /// seen in 200,000 random cases (198,548), so a search that stops
    /// being bounded fails here rather than running on.
    const SEARCH_WORK_LIMIT: u64 = 20_000_000;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// With a first run of a few landings the search restarts many
        /// times, keeping what it proved dead: it still answers exactly
        /// (where the every-state search can tell within its limit), and a
        /// scoring path it reports is legal and scores.
        #[test]
        fn restarts_keep_the_answer_exact(pos in position(), first_budget in 1u64..64) {
            let expected = exact_can_score(&pos);
            let budget = Budget::unlimited().with_work_limit(SEARCH_WORK_LIMIT);
            let answer = pos.score_search::<false>(&Meter::start(&budget)?, first_budget, |_| ());
            let mut path = None;
            let tracked = pos.score_search::<true>(&Meter::start(&budget)?, first_budget, |p| path = Some(p.to_vec()));
            prop_assert_eq!(&answer, &tracked, "{}", pos);
            let found = tracked.map_err(|e| TestCaseError::fail(format!("{e} in {pos}")))?;
            if let Some(expected) = expected {
                prop_assert_eq!(found, expected, "{}", pos);
            }
            prop_assert_eq!(path.is_some(), found);
            if let Some(path) = path {
                let after = pos.play(&crate::Move::Jump(path.clone()));
                prop_assert!(after.is_ok(), "{:?} is illegal in {}", path, pos);
                prop_assert_eq!(after.unwrap().winner(), Some(pos.to_move()), "{:?} in {}", path, pos);
            }
        }

        /// A goal cut off by two rows without men is never reached, as the
        /// every-state search finds (where it can tell within its limit).
        #[test]
        fn a_goal_cut_off_cannot_be_reached(pos in position()) {
            if pos.goal_cut_off() {
                prop_assert_ne!(exact_can_score(&pos), Some(true), "{}", pos);
            }
        }
    }

    #[test]
    fn two_rows_without_men_cut_off_the_goal() {
        // Ohs, ball H10, men H11 and H13: rows 14 to 18 are empty.
        let cut: crate::Position = "15/15/15/15/15/15/7#7/15/7#7/7@7/15/15/15/15/15/15/15/15/15 O"
            .parse()
            .unwrap();
        assert!(cut.goal_cut_off());
        // Men on every other row from H11 to H17 (and H18): Ohs jumps to H19.
        let open: crate::Position =
            "15/7#7/7#7/15/7#7/15/7#7/15/7#7/7@7/15/15/15/15/15/15/15/15/15 O"
                .parse()
                .unwrap();
        assert!(!open.goal_cut_off());
        assert!(open.can_score());
        // For Eks the rows below the ball count: none has a man.
        assert!(open.end_turn().goal_cut_off());
    }
}
