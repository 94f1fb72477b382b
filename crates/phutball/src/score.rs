//! Can the side to move score this move? Deciding it is NP-complete in
//! general, so it is a search: a cheap relaxation first proves most "no"
//! answers, then a depth-first search over distinct states, goal-bound
//! directions first, finds a scoring path or exhausts the states. When that
//! search runs long, a stronger relaxation ([`refute`](crate::refute)) tries once to prove
//! that the goal is out of reach, or to find a scoring path, before the
//! search goes on.

use core::ops::ControlFlow;

use crate::budget::{Budget, Meter, SearchError};
use crate::geometry::{Mailbox, FLAG_EKS_GOAL, FLAG_OHS_GOAL};
use crate::moves::Move;
use crate::point::{Point, Side};
use crate::position::Position;
use crate::reach::Reach;
use crate::refute::{refute, Refutation};
use crate::search::{walk, Order, CLOCKWISE, DEDUP_INTERNAL, NORTH_FIRST, SOUTH_FIRST};

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
        let _ = self.score_search::<true>(&meter, |path| found = Some(Move::Jump(path.to_vec())));
        found
    }

    /// [`Position::scoring_jump`] within `budget` (a landing is a step of
    /// work): `Ok(None)` only when it is proved that no jump scores.
    pub fn scoring_jump_within(&self, budget: &Budget<'_>) -> Result<Option<Move>, SearchError> {
        let meter = Meter::start(budget)?;
        let mut found = None;
        self.score_search::<true>(&meter, |path| found = Some(Move::Jump(path.to_vec())))?;
        Ok(found)
    }

    /// Whether the side to move can score this move.
    ///
    /// Unbounded: deciding it can take minutes on dense boards;
    /// [`Position::can_score_within`] takes a budget.
    pub fn can_score(&self) -> bool {
        let meter = Meter::unlimited();
        self.score_search::<false>(&meter, |_| ()).unwrap_or(false)
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
    pub fn can_score_within(&self, budget: &Budget<'_>) -> Result<bool, SearchError> {
        self.score_search::<false>(&Meter::start(budget)?, |_| ())
    }

    fn score_search<const TRACK: bool>(
        &self,
        meter: &Meter<'_>,
        mut on_goal: impl FnMut(&[Point]),
    ) -> Result<bool, SearchError> {
        if self.is_finished() {
            return Ok(false);
        }
        let (goal_flag, order) = match self.to_move {
            Side::Ohs => (FLAG_OHS_GOAL, &NORTH_FIRST),
            Side::Eks => (FLAG_EKS_GOAL, &SOUTH_FIRST),
        };
        // A depth-first search's time varies wildly with its order of
        // directions on dense boards; one that runs long restarts with the
        // other order, with twice the budget each time, until one finishes
        // or the caller's budget runs out.
        let mut budget = FIRST_BUDGET;
        let mut first = true;
        loop {
            for order in [order, &CLOCKWISE] {
                if let Some(found) = self.search_for_goal::<TRACK>(
                    goal_flag,
                    order,
                    budget,
                    first,
                    meter,
                    &mut on_goal,
                )? {
                    return Ok(found);
                }
                first = false;
            }
            budget = budget.saturating_mul(2);
        }
    }

    /// The search for a scoring path in one order of directions: `None` if
    /// it gave up after `max_landings` landings. With `try_refute`, positions
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
                match self.refute(goal_flag, order) {
                    Refutation::CannotScore { .. } => refuted = true,
                    Refutation::Scores(points) => {
                        on_goal(&points);
                        found = true;
                    }
                    Refutation::Unknown => return ControlFlow::Continue(()),
                }
                ControlFlow::Break(())
            },
        );
        let stats = result?;
        if gave_up {
            return Ok(None);
        }
        Ok(Some(found || !refuted && stats.stopped))
    }

    /// [`refute`] for this position. Kept out of the search's visitor, which
    /// runs on every landing.
    #[cold]
    #[inline(never)]
    fn refute(&self, goal_flag: u8, order: &Order) -> Refutation {
        let mb = Mailbox::new(self.size, self.men, !self.rules.continue_off_board);
        let start = mb.cell(self.ball);
        let reach = Reach::compute(&mb, goal_flag, self.rules.continue_off_board);
        refute(&mb, start, goal_flag, &reach.alive, &order.offsets)
    }
}

/// Landings the search for a scoring path makes before it tries [`refute`].
const LANDINGS_BEFORE_REFUTING: u64 = 2000;

/// Landings the first search makes before a restart in another order (about
/// 3 ms; `score-16` needs at most 17,368).
const FIRST_BUDGET: u64 = 100_000;
