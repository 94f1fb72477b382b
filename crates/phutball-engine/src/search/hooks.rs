//! The clock's hooks and the budgets that hold the search's calls into the
//! core to the caps (each stated once, in `caps.rs`): the root checks'
//! shares of the move's time, the caller's stop, the capped hooks.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use phutball::{Budget, Interrupt, SearchError};

use super::state::{Search, Shared};
use crate::caps::{
    CLOCK_SAMPLE, FILTER_SHARE, NODE_SCORE_WORK, PV_TIME, ROOT_FIRST_WORK, SCORING_SHARE,
};
use crate::deadline::Deadline;
use crate::error::EngineError;
use crate::limits::Limits;

/// The caps of the root's first checks for one move.
pub(super) struct RootCaps {
    /// The end of the root's "can I score?" ([`SCORING_SHARE`]).
    pub(super) scoring: Deadline,
    /// The end of all the root's checks ([`FILTER_SHARE`]).
    pub(super) filter: Deadline,
    /// The safety filter's first work per move ([`ROOT_FIRST_WORK`]).
    pub(super) first_work: u64,
}

impl RootCaps {
    /// With a time limit every root check has its share of the move's
    /// time and grows its work cap while the share lasts; without one
    /// they are exact (only the caller's stop ends them).
    pub(super) fn new(limits: Limits) -> RootCaps {
        RootCaps {
            scoring: Deadline::after_opt(share(limits, SCORING_SHARE)),
            filter: Deadline::after_opt(share(limits, FILTER_SHARE)),
            first_work: if limits.time.is_some() {
                ROOT_FIRST_WORK
            } else {
                u64::MAX
            },
        }
    }
}

/// `percent` of the move's time, if it has a time limit.
fn share(limits: Limits, percent: u32) -> Option<Duration> {
    limits.time.map(|t| (t / 100).saturating_mul(percent))
}

/// The caller's stop, as the search's hooks poll it: its first answer,
/// remembered in `first`. The search polls the caller again after a call
/// into the core gave up, to tell the caller's stop from its own limits; a
/// hook which answers once (a signal check consumes the signal) must not
/// read as "don't know" the second time.
pub(super) fn first_stop(caller: &Budget<'_>, first: &OnceLock<Interrupt>) -> Option<Interrupt> {
    if let Some(&stop) = first.get() {
        return Some(stop);
    }
    let stop = caller.interrupt()?;
    Some(*first.get_or_init(|| stop))
}

/// An interrupt hook that answers as `inner` for its first `max_polls`
/// polls (counted in `polls`) and [`Interrupt::TimedOut`] after them: a cap
/// on the work of a whole check made of many calls into the core.
pub(super) fn capped<'a>(
    polls: &'a AtomicU32,
    max_polls: u32,
    inner: impl Fn() -> Option<Interrupt> + Sync + 'a,
) -> impl Fn() -> Option<Interrupt> + Sync + 'a {
    move || {
        if polls.fetch_add(1, Ordering::Relaxed) >= max_polls {
            return Some(Interrupt::TimedOut);
        }
        inner()
    }
}

impl<'s> Shared<'s> {
    /// The interrupt hook of the core's calls within a search: the caller's
    /// cancel flag and hook (its stop) at every poll, then `deadline` (the
    /// engine's own clock) at one poll in [`CLOCK_SAMPLE`], counted in the
    /// team's polls. The core polls once as each call starts, and a search
    /// makes several calls per node, so reading the clock at each would
    /// cost a few percent of the search's speed; one in eight still sees
    /// the deadline within some 8000 steps of a long call (well under a
    /// millisecond), and the search reads the clock itself at every node.
    pub(super) fn clock(self, deadline: Deadline) -> impl Fn() -> Option<Interrupt> + Sync + 's {
        let (stop, polls) = (self.stop, &self.team.polls);
        move || match stop.interrupt() {
            Some(stop) => Some(stop),
            None if polls.fetch_add(1, Ordering::Relaxed) % CLOCK_SAMPLE == 0 => deadline.check(),
            None => None,
        }
    }

    /// A budget of at most `work` steps, the caller's memory limit, and `hook`.
    pub(super) fn budget(
        self,
        work: u64,
        hook: &(dyn Fn() -> Option<Interrupt> + Sync),
    ) -> Budget<'_> {
        Budget::default()
            .with_memory_limit(self.stop.memory_limit())
            .with_work_limit(work)
            .with_interrupt(hook)
    }
}

impl Search<'_> {
    /// A root check: `f` within `work` steps, the caller's stop and
    /// `deadline`. `Ok(None)` when it gave up ("don't know"); an error only
    /// when the caller stopped the search.
    pub(super) fn root_call<T>(
        &self,
        work: u64,
        deadline: Deadline,
        f: impl FnOnce(&Budget<'_>) -> Result<T, SearchError>,
    ) -> Result<Option<T>, EngineError> {
        let hook = self.shared.clock(deadline);
        self.root_answer(f(&self.shared.budget(work, &hook)))
    }

    /// [`Search::root_call`] for a check of many calls into the core, each
    /// capped at [`NODE_SCORE_WORK`] steps, the whole check at `max_polls`
    /// polls of its budget (a call polls once as it starts and once every
    /// [`phutball::POLL_INTERVAL`] steps): a bound on its work that does not
    /// depend on the clock, so that a search without a time limit stays
    /// reproducible.
    pub(super) fn root_call_capped<T>(
        &self,
        max_polls: u32,
        deadline: Deadline,
        f: impl FnOnce(&Budget<'_>) -> Result<T, SearchError>,
    ) -> Result<Option<T>, EngineError> {
        let polls = AtomicU32::new(0);
        let hook = capped(&polls, max_polls, self.shared.clock(deadline));
        self.root_answer(f(&self.shared.budget(NODE_SCORE_WORK, &hook)))
    }

    /// A root check's answer: `Ok(None)` when it gave up ("don't know"),
    /// an error only when the caller stopped the search.
    fn root_answer<T>(&self, answer: Result<T, SearchError>) -> Result<Option<T>, EngineError> {
        match answer {
            Ok(answer) => Ok(Some(answer)),
            Err(_) => match self.shared.stop.interrupted() {
                Some(e) => Err(EngineError::Interrupted(e)),
                None => Ok(None),
            },
        }
    }

    /// The end of a root check with `percent` of the move's time: that
    /// share from now, and no later than `filter_deadline`.
    pub(super) fn share_deadline(&self, percent: u32, filter_deadline: Deadline) -> Deadline {
        let Some(share) = share(self.shared.limits, percent) else {
            return Deadline::NONE;
        };
        Deadline::after(
            filter_deadline
                .remaining()
                .map_or(share, |left| left.min(share)),
        )
    }

    /// A deadline for the little work done once the move's time may be
    /// over: [`PV_TIME`] from now with a time limit, none without.
    pub(super) fn after_deadline(&self) -> Deadline {
        match self.shared.limits.time {
            Some(_) => Deadline::after(PV_TIME),
            None => Deadline::NONE,
        }
    }

    /// The evaluation, when the move's time may be over: bounded by its
    /// work caps, the caller's stop and [`Search::after_deadline`].
    pub(super) fn evaluate_after_deadline(&self, pos: &phutball::Position) -> i32 {
        let hook = self.shared.clock(self.after_deadline());
        self.evaluate(pos, &self.shared.budget(u64::MAX, &hook))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use phutball::Position;

    #[test]
    fn a_capped_hook_stops_a_check_of_many_calls_after_its_polls() {
        // The position: Ohs can score after a man on G19.
        let pos: Position =
            "15/15/7#7/15/7#2#4/15/7#2#4/5#1@7/15/5#9/7#7/7#7/7#7/15/15/15/15/15/15 O"
                .parse()
                .unwrap();
        let after = pos.play(&"G19".parse().unwrap()).unwrap().end_turn();
        let polls = AtomicU32::new(0);
        let hook = capped(&polls, 3, || None);
        let budget = Budget::default().with_interrupt(&hook);
        // Each call polls at least once as it starts: three calls pass...
        for _ in 0..3 {
            assert_eq!(after.can_score_within(&budget), Ok(true));
        }
        // ...and every call after them is stopped.
        assert_eq!(after.can_score_within(&budget), Err(SearchError::TimedOut));
        assert_eq!(after.can_score_within(&budget), Err(SearchError::TimedOut));
        // The inner hook's answer comes through while polls remain.
        let fresh = AtomicU32::new(0);
        let cancelled = capped(&fresh, 100, || Some(Interrupt::Cancelled));
        let budget = Budget::default().with_interrupt(&cancelled);
        assert_eq!(after.can_score_within(&budget), Err(SearchError::Cancelled));
    }
}
