//! The state of one search: what its threads share ([`Shared`], set once
//! when it starts) and what each thread keeps ([`Search`]: its nodes and
//! whether it must stop), with the checks of the limits at every node.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use phutball::{Budget, Move, Position, SearchError, Side};

use super::{Analysis, Decision};
use crate::clock::Instant;
use crate::deadline::Deadline;
use crate::evaluation::Evaluator;
use crate::limits::Limits;
use crate::score::Score;
use crate::table::Table;

/// The counters the threads of one search share (one thread without
/// [`Limits::threads`]).
#[derive(Default)]
pub(super) struct Team {
    /// Set by the first thread to finish its iterations: the others stop.
    pub(super) finished: AtomicBool,
    /// Nodes searched by all threads (each adds its own as it goes), for
    /// the node limit.
    pub(super) nodes: AtomicU64,
    /// Polls of the hooks given to the core (see [`Shared::clock`]).
    pub(super) polls: AtomicU32,
}

/// What every thread of one search reads, set when the search starts.
#[derive(Copy, Clone)]
pub(super) struct Shared<'s> {
    /// The caller's cancel flag and interrupt hook.
    pub(super) stop: &'s Budget<'s>,
    /// Empty when the search starts (see [`crate::table::TableCache`]);
    /// shared by the search's threads.
    pub(super) table: &'s Table,
    pub(super) team: &'s Team,
    /// Hashes of the positions the game has been through.
    pub(super) history: &'s HashSet<u64>,
    pub(super) limits: Limits,
    /// The side the search plays for.
    pub(super) engine_side: Side,
    pub(super) started: Instant,
    /// The end of the move's time (none without a time limit).
    pub(super) deadline: Deadline,
    /// The evaluation, for the searched board size.
    pub(super) evaluator: Evaluator<'s>,
}

impl<'s> Shared<'s> {
    /// The state of a search for `engine_side` that starts now, with the
    /// hand evaluation ([`Shared::with_evaluator`] sets another).
    pub(super) fn new(
        limits: Limits,
        engine_side: Side,
        stop: &'s Budget<'s>,
        table: &'s Table,
        team: &'s Team,
        history: &'s HashSet<u64>,
    ) -> Shared<'s> {
        Shared {
            evaluator: Evaluator::Hand,
            stop,
            table,
            team,
            history,
            limits,
            engine_side,
            started: Instant::now(),
            deadline: Deadline::after_opt(limits.time),
        }
    }

    /// This state with `evaluator` as its evaluation.
    pub(super) fn with_evaluator(self, evaluator: Evaluator<'s>) -> Shared<'s> {
        Shared { evaluator, ..self }
    }
}

/// One thread of a search: the shared state and its own counts.
pub(super) struct Search<'s> {
    pub(super) shared: Shared<'s>,
    /// Positions this thread examined.
    pub(super) nodes: u64,
    /// This thread's nodes already added to the team's count.
    nodes_told: u64,
    /// Why the caller stopped the search, if it did.
    pub(super) interrupted: Option<SearchError>,
    /// Set when a limit was reached: the search unwinds.
    pub(super) aborted: bool,
}

impl<'s> Search<'s> {
    /// A thread of the search `shared` describes, with nothing searched.
    pub(super) fn new(shared: Shared<'s>) -> Search<'s> {
        Search {
            shared,
            nodes: 0,
            nodes_told: 0,
            interrupted: None,
            aborted: false,
        }
    }

    /// The analysis of `best_move`, worth `value` (internal) after `depth`
    /// plies, with this thread's nodes and the time since the search began.
    pub(super) fn report(
        &self,
        best_move: Move,
        value: i32,
        depth: u32,
        pv: Vec<Move>,
        decision: Decision,
    ) -> Analysis {
        Analysis {
            best_move,
            score: Score::from_internal(value),
            depth,
            nodes: self.nodes,
            elapsed: self.shared.started.elapsed(),
            pv,
            decision,
        }
    }

    /// The search's evaluation of `pos` (not known to be won by its side to
    /// move), the jump outcomes looked for within `budget`.
    pub(super) fn evaluate(&self, pos: &Position, budget: &Budget<'_>) -> i32 {
        self.shared.evaluator.evaluate(pos, budget)
    }

    /// Whether the game has been through `pos` already.
    pub(super) fn seen(&self, pos: &Position) -> bool {
        self.shared.history.contains(&pos.zobrist())
    }

    /// The answer of an inner call, or `None` ("don't know"); a call
    /// stopped by the clock or the caller ends the search.
    pub(super) fn known<T>(&mut self, answer: Result<T, SearchError>) -> Option<T> {
        match answer {
            Ok(answer) => Some(answer),
            Err(SearchError::TimedOut | SearchError::Cancelled) => {
                if self.interrupted.is_none() {
                    self.interrupted = self.shared.stop.interrupted();
                }
                self.aborted = true;
                None
            }
            Err(_) => None,
        }
    }

    /// Whether a limit has been reached, or another thread has finished
    /// (then the search unwinds).
    pub(super) fn out_of_budget(&mut self) -> bool {
        if !self.aborted {
            let team = self.shared.team;
            let new_nodes = self.nodes - self.nodes_told;
            self.nodes_told = self.nodes;
            let all_nodes = team.nodes.fetch_add(new_nodes, Ordering::Relaxed) + new_nodes;
            let nodes_out = self.shared.limits.nodes.is_some_and(|n| all_nodes >= n);
            let time_out = self.shared.deadline.passed();
            self.interrupted = self.shared.stop.interrupted();
            self.aborted = nodes_out
                || time_out
                || self.interrupted.is_some()
                || team.finished.load(Ordering::Relaxed);
        }
        self.aborted
    }
}
