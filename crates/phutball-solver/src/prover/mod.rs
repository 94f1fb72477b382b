//! The prover: df-pn searches for a win of either side, read back as a
//! certificate and checked before anything is claimed.

mod checkpoint;
mod checkpoint_file;
mod concurrent;
mod dfpn;
mod extract;
mod parallel;
mod shared_table;
mod table;

use core::fmt;
use std::sync::atomic::AtomicBool;

use phutball::{Budget, Move, Position, SearchError, Side};

use crate::certificate::{Certificate, Target};
use crate::error::SolverError;
use crate::tablebase::Tablebase;
use crate::value::Value;
use dfpn::Dfpn;
use extract::{ExtractError, Extractor, Source};
use table::Table;

pub use checkpoint::{CheckpointError, CHECKPOINT_VERSION};
use checkpoint::{Resumed, Schedule, SearchCounters, TableView};
pub use checkpoint_file::{
    prove_with_options_within, CheckpointEvent, CheckpointOptions, ProgressOptions, ProveOptions,
    ProveProgress, MAX_PROVE_JOBS,
};
use shared_table::SharedTable;

/// Nodes of the first round of each search; each round doubles it.
const FIRST_ROUND_NODES: u64 = 1 << 10;

/// The most memory the two transposition tables take together, whatever
/// the limit (a larger table than this has not helped on the boards tried);
/// 1 GiB on a 32-bit target (wasm32), where 4 GiB is the whole address space.
const MAX_TABLE_BYTES: usize = if usize::BITS > 32 { 4 << 30 } else { 1 << 30 };

/// [`prove_within`] builds a tablebase first for boards of at most this
/// many points (up to about ten million states: about a second on one
/// core, 4x5 0.76 s, 1x20 1.7 s measured at load 3.6 on 2 cores), so that
/// their values are exact and their draws proved.
pub const AUTO_TABLEBASE_POINTS: u32 = 20;

/// The longest line a draw's [`Proof::line`] shows (a draw goes on for ever).
const DRAW_LINE_PLIES: usize = 24;

/// The stack of the prover's thread: the search recurses once per ply
/// (at most [`dfpn::MAX_DEPTH`]), whichever thread the caller runs on.
const PROVER_STACK_BYTES: usize = 256 << 20;

/// What [`prove_within`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The proved value for the side to move, or `None` when the budget ran
    /// out first (see [`Proof::stopped`]), neither search proved a goal
    /// ([`Proof::exhausted`]), or, rarely, the search's proof could not be
    /// read back as a certificate (its table's entries proved on other
    /// lines come back to the line being read, even after a search again;
    /// neither `stopped` nor `exhausted` is set then).
    pub value: Option<Value>,
    /// Whether the value's distance is the exact one (the shortest win,
    /// the longest loss): a tablebase's answer, a win in 1 or a loss in 2.
    /// Otherwise it is a bound, the longest line of this proof: the winner
    /// wins within it, and the loser may lose sooner against better play.
    pub exact: bool,
    /// The proved line: the side to move's move first, then the longest
    /// resistance within the proof. Empty when nothing is proved.
    pub line: Vec<Move>,
    /// The proof of a win or loss, checked with [`Certificate::check`].
    pub certificate: Option<Certificate>,
    /// Nodes searched by the two searches together.
    pub nodes: u64,
    /// Positions remembered in the transposition tables at the end.
    pub table_entries: usize,
    /// Why the search stopped without a proof: the budget's work, time or
    /// memory limit.
    pub stopped: Option<SearchError>,
    /// Both searches ended without proving a goal: neither side forces one
    /// in the graph searched. Not claimed as a draw (the disproof of a
    /// cycle depends on the line that reached it; see `docs/solver.md`).
    pub exhausted: bool,
    /// When a limit stopped it: the root's proof numbers for the side to
    /// move's win and for its loss (the opponent's win), as the two
    /// searches last had them (1 for one that had not begun), so that a
    /// caller that splits the work (the job-level driver) can tell a
    /// promising position from a hopeless one. `None` otherwise, and when
    /// neither search had looked at the root's children.
    pub numbers: Option<(u32, u32)>,
}

impl Proof {
    /// The result without its line: `win in N` or `loss in N` when N is
    /// exact, `win within N` or `loss within N` when it is this proof's
    /// bound, `draw` or `unknown`.
    pub fn verdict(&self) -> String {
        match self.value {
            None => "unknown".to_string(),
            Some(value) if self.exact => value.to_string(),
            Some(Value::Win { plies }) => format!("win within {plies}"),
            Some(Value::Loss { plies }) => format!("loss within {plies}"),
            Some(Value::Draw) => "draw".to_string(),
        }
    }

    fn unknown(
        nodes: u64,
        table_entries: usize,
        stopped: Option<SearchError>,
        exhausted: bool,
    ) -> Proof {
        Proof {
            value: None,
            exact: false,
            line: Vec::new(),
            certificate: None,
            nodes,
            table_entries,
            stopped,
            exhausted,
            numbers: None,
        }
    }
}

impl fmt::Display for Proof {
    /// What the CLI's `prove` prints: `win in N: LINE` or `loss in N: LINE`
    /// when N is exact ([`Proof::exact`]), `win within N: LINE` or `loss
    /// within N: LINE` when it is this proof's bound (the moves in
    /// notation, the side to move's first), `draw` or `unknown`; the
    /// figures (nodes, why it stopped) are fields.
    ///
    /// ```
    /// use phutball::{Budget, Position};
    /// // Ball H10 and men H11..H18: Ohs jumps to its goal line.
    /// let pos: Position = "15/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15 O".parse()?;
    /// let proof = phutball_solver::prove_within(&pos, &Budget::default())?;
    /// assert_eq!(proof.to_string(), "win in 1: H10-H19");
    ///
    /// // A board of at most 20 points: the tablebase's exact distance.
    /// let small: Position = "2#/2#/1#@/3 X".parse()?;
    /// let proof = phutball_solver::prove_within(&small, &Budget::default())?;
    /// assert!(proof.exact && proof.to_string().starts_with("loss in 4: "), "{proof}");
    ///
    /// // A larger board: the proof's bound.
    /// let start = Position::start_with(phutball::BoardSize::new(5, 7)?, Default::default())?;
    /// let proof = phutball_solver::prove_within(&start, &Budget::default())?;
    /// assert!(!proof.exact && proof.to_string().starts_with("win within "), "{proof}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.verdict())?;
        if matches!(self.value, Some(Value::Win { .. } | Value::Loss { .. })) {
            f.write_str(":")?;
            for m in &self.line {
                write!(f, " {m}")?;
            }
        }
        Ok(())
    }
}

/// Proves who wins `pos` with best play, within `budget`: its work limit
/// counts nodes, its memory limit bounds the transposition tables (half of
/// it) and the certificate (the other half), its cancel flag and hook are
/// polled. Two df-pn searches take turns, with doubling node counts, one
/// for a win of the side to move, one for a win of its opponent. On a board
/// of at most [`AUTO_TABLEBASE_POINTS`] points a tablebase is built and
/// answers instead (see [`prove_with_tablebase_within`]).
///
/// A proof is returned only with its certificate, checked. A budget that
/// runs out is no error: the result is unknown (`value: None`, with the
/// reason in [`Proof::stopped`]); only a cancel is an error.
///
/// ```
/// use phutball::{Budget, Position};
/// use phutball_solver::{prove_within, Value};
/// // 1x3 board: Ohs places a man on A1 or A3 and whatever Eks does, scores.
/// let pos: Position = "1/@/1 O".parse()?;
/// let proof = prove_within(&pos, &Budget::default())?;
/// assert_eq!(proof.value, Some(Value::Win { plies: 3 }));
/// assert!(proof.certificate.unwrap().check(&Budget::default()).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`SolverError::Finished`] for a finished position, [`SolverError::Search`]
/// with [`SearchError::Cancelled`] when the caller cancelled, and
/// [`SolverError::Unsound`] if a certificate failed its own check (a bug).
pub fn prove_within(pos: &Position, budget: &Budget<'_>) -> Result<Proof, SolverError> {
    if pos.is_finished() {
        return Err(SolverError::Finished);
    }
    if pos.size().num_board_points() <= AUTO_TABLEBASE_POINTS {
        match Tablebase::build_with_jobs_within(
            pos.size(),
            pos.rules().continue_off_board,
            1,
            budget,
            &mut |_| {},
        ) {
            Ok(table) => return prove_with_tablebase_within(pos, budget, Some(&table)),
            Err(SolverError::Search(SearchError::Cancelled)) => {
                return Err(SearchError::Cancelled.into())
            }
            // Out of budget for the table: the search may still prove it.
            Err(_) => {}
        }
    }
    prove_with_tablebase_within(pos, budget, None)
}

/// [`prove_within`] with the caller's `tablebase` (or none: then only the
/// search, whatever the board). Where the tablebase covers `pos` (its board
/// and off-board rule), it answers at once: the exact value (the shortest
/// win, the longest loss), a draw where neither side can force a goal, and
/// for a win or loss a certificate built from its shortest wins (checked,
/// and its longest line equal to the table's distance).
///
/// ```
/// use phutball::{BoardSize, Budget, Position, Rules};
/// use phutball_solver::{prove_with_tablebase_within, Tablebase, Value};
/// let size = BoardSize::new(1, 4)?;
/// let table = Tablebase::build_within(size, false, &Budget::default(), &mut |_| {})?;
/// let start = Position::start_with(size, Rules::default())?;
/// let proof = prove_with_tablebase_within(&start, &Budget::default(), Some(&table))?;
/// assert_eq!(proof.value, table.probe(&start));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`prove_within`].
pub fn prove_with_tablebase_within(
    pos: &Position,
    budget: &Budget<'_>,
    tablebase: Option<&Tablebase>,
) -> Result<Proof, SolverError> {
    if pos.is_finished() {
        return Err(SolverError::Finished);
    }
    let run = || match tablebase.filter(|t| t.covers(pos)) {
        Some(table) => prove_by_table(pos, table, budget),
        None => prove_on_this_thread(pos, budget, 1, None),
    };
    on_prover_thread(run)
}

/// A thread with the prover's name and stack.
pub(crate) fn prover_thread() -> std::thread::Builder {
    std::thread::Builder::new()
        .name("phutball-prover".into())
        .stack_size(PROVER_STACK_BYTES)
}

/// Joins a prover thread, passing on its panic (a bug) to the caller.
pub(crate) fn joined<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Runs `run` on a thread with the prover's stack.
fn on_prover_thread<F>(run: F) -> Result<Proof, SolverError>
where
    F: FnOnce() -> Result<Proof, SolverError> + Send,
{
    // wasm32 has no threads: the caller's stack (the wasm bindings link
    // theirs large enough for MAX_DEPTH plies).
    if cfg!(target_arch = "wasm32") {
        return run();
    }
    std::thread::scope(|scope| {
        let thread =
            prover_thread()
                .spawn_scoped(scope, run)
                .map_err(|_| SearchError::OutOfMemory {
                    what: "the prover's thread",
                })?;
        joined(thread)
    })
}

/// The proof of `pos` from `table`, which covers it.
fn prove_by_table(
    pos: &Position,
    table: &Tablebase,
    budget: &Budget<'_>,
) -> Result<Proof, SolverError> {
    let Some(value) = table.probe(pos) else {
        return Err(SolverError::Unsound(
            "the tablebase does not cover the position".into(),
        ));
    };
    let winner = match value {
        Value::Win { .. } => pos.to_move(),
        Value::Loss { .. } => pos.to_move().opponent(),
        Value::Draw => {
            return Ok(Proof {
                value: Some(Value::Draw),
                exact: true,
                line: table.line(pos, DRAW_LINE_PLIES),
                certificate: None,
                nodes: 0,
                table_entries: 0,
                stopped: None,
                exhausted: false,
                numbers: None,
            })
        }
    };
    let poll = || budget.interrupt();
    let inner = Budget::default().with_interrupt(&poll);
    let extractor = Extractor::new(Source::Table(table), winner, &inner, budget.memory_limit());
    let certificate = match extractor.certificate(pos) {
        Ok(c) => c,
        Err(ExtractError::Stop(SearchError::Cancelled)) => {
            return Err(SearchError::Cancelled.into())
        }
        Err(ExtractError::Stop(e)) => return Ok(Proof::unknown(0, 0, Some(e), false)),
        Err(ExtractError::Lost) => {
            return Err(SolverError::Unsound(
                "the tablebase's moves do not make a proof".into(),
            ))
        }
    };
    let mut proof = finish(certificate, pos.to_move(), &inner, 0, 0)?;
    if proof.value.is_some() && proof.value != Some(value) {
        return Err(SolverError::Unsound(format!(
            "the tablebase says {value}, its certificate's longest line {}",
            proof.value.map_or("nothing".into(), |v| v.to_string())
        )));
    }
    // The table's distance, which the certificate's longest line equals.
    proof.exact = proof.value.is_some();
    Ok(proof)
}

/// A prove's checkpointing and progress reports: the state it resumes
/// from, when to pause, and where the state goes at a pause.
pub(crate) struct Checkpointing<'a> {
    pub(crate) resume: Option<Resumed>,
    /// Asked every few hundred nodes: whether a save or a progress report
    /// is due (the searches then pause and hand over their state).
    pub(crate) due: &'a (dyn Fn() -> bool + Sync),
    /// Takes the state: at a pause ([`Handover::Pause`]: it saves or
    /// reports what is due), and when the search stops without an answer
    /// or has proved its root ([`Handover::End`]: it saves).
    pub(crate) save: &'a mut (dyn FnMut(&ProverState<'_>, Handover) -> Result<(), String> + Send),
}

/// When [`Checkpointing::save`] is handed the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Handover {
    /// The searches paused because a save or a report was due.
    Pause,
    /// The search stopped (a limit, a timeout, a cancel) or proved its
    /// root: a checkpoint is saved whether due or not.
    End,
}

/// A prove's state at a save: what [`ProverState::write_to`] writes.
pub struct ProverState<'a> {
    pos: &'a Position,
    schedule: Schedule,
    tables: [TableView<'a>; 2],
    root_numbers: [Option<(u32, u32)>; 2],
}

impl ProverState<'_> {
    /// Writes the state in the checkpoint format (`docs/solver.md`) to
    /// `out`, returning the bytes written.
    ///
    /// # Errors
    ///
    /// `out`'s error.
    pub fn write_to(&self, out: &mut dyn std::io::Write) -> std::io::Result<u64> {
        checkpoint::write(out, self.pos, &self.schedule, self.tables)
    }

    /// Nodes searched by the two searches so far, resumed ones included.
    pub fn nodes(&self) -> u64 {
        self.schedule.searches[0].nodes + self.schedule.searches[1].nodes
    }

    /// Entries in the two tables.
    pub fn table_entries(&self) -> usize {
        self.tables[0].stored() + self.tables[1].stored()
    }

    /// The root's (proof number, disproof number) in each search: `[0]`
    /// the search for a win of the side to move, `[1]` for its opponent's
    /// (`None` before a search has looked at the root's children). A proof
    /// number of 0 is a proved win.
    pub fn root_numbers(&self) -> [Option<(u32, u32)>; 2] {
        self.root_numbers
    }
}

/// The two searches of a prove (for the side to move, for its opponent),
/// each with its own table, or, once parallel, a shared one.
pub(crate) struct Searches<'b> {
    pub(crate) dfpn: [Dfpn<'b>; 2],
    pub(crate) shared: [Option<SharedTable>; 2],
}

impl Searches<'_> {
    pub(crate) fn total(&self) -> u64 {
        self.dfpn[0].nodes + self.dfpn[1].nodes
    }

    fn view(&self, i: usize) -> TableView<'_> {
        match &self.shared[i] {
            Some(t) => TableView::Shared(t),
            None => TableView::Own(&self.dfpn[i].table),
        }
    }

    pub(crate) fn entries(&self) -> usize {
        self.view(0).stored() + self.view(1).stored()
    }
}

fn prove_on_this_thread(
    pos: &Position,
    budget: &Budget<'_>,
    jobs: usize,
    checkpointing: Option<Checkpointing<'_>>,
) -> Result<Proof, SolverError> {
    // The core's calls get the caller's stop, but no work limit: the
    // limit counts the prover's nodes. Every call polls as it starts, and
    // most calls are short: the caller's hook (a clock) is asked on every
    // 16th poll only.
    // The count is each thread's own: one shared counter, written on every
    // poll by every thread, took 6.3% of two threads' time.
    thread_local! {
        static POLLS: core::cell::Cell<u32> = const { core::cell::Cell::new(0) };
    }
    let poll = || {
        let n = POLLS.with(|p| {
            let n = p.get();
            p.set(n.wrapping_add(1));
            n
        });
        if n % 16 != 0 {
            return None;
        }
        budget.interrupt()
    };
    let inner = Budget::default().with_interrupt(&poll);
    let memory = budget.memory_limit();
    let table_bytes = prover_table_bytes(memory);
    let me = pos.to_move();
    let (mut checkpointing, resumed) = match checkpointing {
        Some(mut c) => {
            let resumed = c.resume.take();
            (Some(c), resumed)
        }
        None => (None, None),
    };
    let (mut schedule, tables) = match resumed {
        Some(r) => (r.schedule, r.tables),
        None => fresh_start(table_bytes)?,
    };
    let [table_me, table_them] = tables;
    let mut searches = Searches {
        dfpn: [
            Dfpn::new(me, table_me, budget, &inner),
            Dfpn::new(me.opponent(), table_them, budget, &inner),
        ],
        shared: [None, None],
    };
    let pause = checkpointing.as_ref().map(|c| c.due);
    for (search, counters) in searches.dfpn.iter_mut().zip(&schedule.searches) {
        search.nodes = counters.nodes;
        search.pause = pause;
        // One job: the searches pause at fixed nodes, and save or report
        // there when one is due, so that a resumed search goes the same
        // way, and a search's nodes do not depend on when it reported.
        search.pause_at_points = pause.is_some() && jobs == 1;
    }
    // The work limit counts this call's nodes, not the resumed ones.
    let resumed_nodes = searches.total();
    if jobs > 1 {
        let halt = AtomicBool::new(false);
        return concurrent::prove(
            &concurrent::Context {
                pos,
                budget,
                inner: &inner,
                pause,
                halt: &halt,
                jobs,
                memory,
                table_bytes,
                resumed_nodes,
            },
            &mut searches,
            &mut schedule,
            &mut checkpointing,
        );
    }
    alternate(
        pos,
        budget,
        &mut searches,
        &mut schedule,
        &mut checkpointing,
        memory,
        resumed_nodes,
    )
}

/// The two searches taking turns on this thread, in rounds that double
/// (on more than one job they run at once: [`concurrent`]).
fn alternate(
    pos: &Position,
    budget: &Budget<'_>,
    searches: &mut Searches<'_>,
    schedule: &mut Schedule,
    checkpointing: &mut Option<Checkpointing<'_>>,
    memory: usize,
    resumed_nodes: u64,
) -> Result<Proof, SolverError> {
    loop {
        let i = schedule.turn;
        if !schedule.searches[i].settled {
            let left = budget
                .work_limit()
                .saturating_sub(searches.total() - resumed_nodes);
            if left == 0 {
                let e = SearchError::WorkLimit {
                    limit: budget.work_limit(),
                };
                return stop(pos, searches, schedule, checkpointing, e);
            }
            let search = &mut searches.dfpn[i];
            // A round goes on where a pause (or a resumed checkpoint) left it.
            if schedule.searches[i].round_end <= search.nodes {
                schedule.searches[i].round_end = search.nodes.saturating_add(schedule.round);
            }
            search.node_limit = schedule.searches[i]
                .round_end
                .min(search.nodes.saturating_add(left));
            let result = search.search(pos);
            let paused = search.paused;
            match result {
                Ok((0, _)) => {
                    let nodes = searches.total();
                    let table_entries = searches.entries();
                    // The certificate of a long proof takes minutes to
                    // write (13x13's, over six minutes of CPU): the proved
                    // root is saved first, so a stop meanwhile loses only
                    // the writing.
                    save(pos, searches, schedule, checkpointing, Handover::End)?;
                    let search = &mut searches.dfpn[i];
                    search.pause = None;
                    search.pause_at_points = false;
                    return proved(search, pos, memory, nodes, table_entries);
                }
                Ok(_) => schedule.searches[i].settled = true,
                Err(SearchError::WorkLimit { .. }) if paused => {
                    if checkpointing.as_ref().is_some_and(|c| (c.due)()) {
                        save(pos, searches, schedule, checkpointing, Handover::Pause)?;
                    }
                    continue;
                }
                Err(SearchError::WorkLimit { .. }) => {}
                Err(e) => return stop(pos, searches, schedule, checkpointing, e),
            }
        }
        schedule.turn = 1 - i;
        if schedule.turn == 0 {
            if schedule.searches[0].settled && schedule.searches[1].settled {
                return Ok(Proof::unknown(
                    searches.total(),
                    searches.entries(),
                    None,
                    true,
                ));
            }
            schedule.round = schedule.round.saturating_mul(2);
        }
    }
}

/// The answer when a prove stops without one (a limit, a timeout, a
/// cancel): its state saved first.
pub(crate) fn stop(
    pos: &Position,
    searches: &Searches<'_>,
    schedule: &mut Schedule,
    checkpointing: &mut Option<Checkpointing<'_>>,
    e: SearchError,
) -> Result<Proof, SolverError> {
    save(pos, searches, schedule, checkpointing, Handover::End)?;
    if e == SearchError::Cancelled {
        return Err(e.into());
    }
    let mut proof = Proof::unknown(searches.total(), searches.entries(), Some(e), false);
    let [win, loss] = [&searches.dfpn[0], &searches.dfpn[1]].map(|d| d.root_numbers);
    if win.is_some() || loss.is_some() {
        let pn = |n: Option<(u32, u32)>| n.map_or(1, |(pn, _)| pn);
        proof.numbers = Some((pn(win), pn(loss)));
    }
    Ok(proof)
}

/// The schedule and tables of a search from scratch.
fn fresh_start(table_bytes: usize) -> Result<(Schedule, [Table; 2]), SearchError> {
    let schedule = Schedule {
        round: FIRST_ROUND_NODES,
        turn: 0,
        searches: [SearchCounters::default(); 2],
    };
    Ok((
        schedule,
        [
            Table::with_bytes(table_bytes)?,
            Table::with_bytes(table_bytes)?,
        ],
    ))
}

/// Hands the state to `checkpointing` (if any), as it is between two
/// calls of a search, at `moment`.
pub(crate) fn save(
    pos: &Position,
    searches: &Searches<'_>,
    schedule: &mut Schedule,
    checkpointing: &mut Option<Checkpointing<'_>>,
    moment: Handover,
) -> Result<(), SolverError> {
    let Some(c) = checkpointing.as_mut() else {
        return Ok(());
    };
    for (counters, search) in schedule.searches.iter_mut().zip(&searches.dfpn) {
        counters.nodes = search.nodes;
    }
    let state = ProverState {
        pos,
        schedule: *schedule,
        tables: [searches.view(0), searches.view(1)],
        root_numbers: [searches.dfpn[0].root_numbers, searches.dfpn[1].root_numbers],
    };
    (c.save)(&state, moment).map_err(SolverError::Checkpoint)
}

/// The bytes of each of a prove's two tables under a memory limit.
fn prover_table_bytes(memory: usize) -> usize {
    (memory / 4).min(MAX_TABLE_BYTES / 2)
}

/// The proof of a root `search` proved: its certificate, checked, and the
/// value and line it gives; `memory` is the prove's whole limit.
pub(crate) fn proved(
    search: &mut Dfpn<'_>,
    pos: &Position,
    memory: usize,
    nodes: u64,
    table_entries: usize,
) -> Result<Proof, SolverError> {
    let inner = search.inner;
    let winner = search.attacker;
    // The tables hold the other half of the memory.
    let share = memory / 2;
    let certificate =
        match Extractor::new(Source::Search(search), winner, inner, share).certificate(pos) {
            Ok(c) => c,
            Err(ExtractError::Stop(SearchError::Cancelled)) => {
                return Err(SearchError::Cancelled.into())
            }
            // Reported as the caller gave it, not as the share.
            Err(ExtractError::Stop(SearchError::MemoryLimit { what, .. })) => {
                let e = SearchError::MemoryLimit {
                    limit: memory,
                    what,
                };
                return Ok(Proof::unknown(nodes, table_entries, Some(e), false));
            }
            Err(ExtractError::Stop(e)) => {
                return Ok(Proof::unknown(nodes, table_entries, Some(e), false))
            }
            Err(ExtractError::Lost) => {
                return Err(SolverError::Unsound(
                    "the proof could not be read back from the table".into(),
                ))
            }
        };
    finish(certificate, pos.to_move(), inner, nodes, table_entries)
}

/// Checks `certificate` and reads its value and line for `to_move`.
pub(crate) fn finish(
    certificate: Certificate,
    to_move: Side,
    budget: &Budget<'_>,
    nodes: u64,
    table_entries: usize,
) -> Result<Proof, SolverError> {
    let checked = match certificate.check(budget) {
        Ok(c) => c,
        Err(crate::CertificateError::Search(SearchError::Cancelled)) => {
            return Err(SearchError::Cancelled.into())
        }
        Err(crate::CertificateError::Search(e)) => {
            return Ok(Proof::unknown(nodes, table_entries, Some(e), false))
        }
        Err(e) => return Err(SolverError::Unsound(e.to_string())),
    };
    let value = if checked.winner == to_move {
        Value::Win {
            plies: checked.plies,
        }
    } else {
        Value::Loss {
            plies: checked.plies,
        }
    };
    // No shorter win than one ply, and no longer loss than two plies when
    // every move lets the opponent score at once.
    let exact = matches!(value, Value::Win { plies: 1 } | Value::Loss { plies: 2 });
    Ok(Proof {
        value: Some(value),
        exact,
        line: match certificate.longest_line(budget) {
            Ok(line) => line,
            Err(SearchError::Cancelled) => return Err(SearchError::Cancelled.into()),
            Err(_) => Vec::new(),
        },
        certificate: Some(certificate),
        nodes,
        table_entries,
        stopped: None,
        exhausted: false,
        numbers: None,
    })
}

impl Certificate {
    /// The certificate's longest line from the root: the winner's moves and
    /// the loser's longest resistance (the first longest reply at each of
    /// its nodes; where that is a reply the `else` line answers, the first
    /// such legal reply, found within `budget`). Empty for a certificate
    /// without nodes.
    ///
    /// # Errors
    ///
    /// [`SearchError`] when `budget` stops listing a node's replies.
    pub fn longest_line(&self, budget: &Budget<'_>) -> Result<Vec<Move>, SearchError> {
        let plies = self.plies_from_each_node();
        let mut line = Vec::new();
        let mut node = 0;
        while let Some(n) = self.nodes.get(node) {
            let listed = n.moves.iter().find(|(_, t)| match *t {
                Target::Goal => plies[node] == 1,
                Target::Node(next) => {
                    next > node && plies.get(next).map(|p| p + 1) == Some(plies[node])
                }
            });
            // The longest resistance through a pass line: a placement
            // outside its zone (any; the pass's proof answers them all),
            // then the target's line, which the placed man does not change.
            let passed = n.pass.as_ref().filter(|p| {
                listed.is_none()
                    && p.target > node
                    && plies.get(p.target).map(|t| t + 1) == Some(plies[node])
            });
            if let Some(pass) = passed {
                let outside = n.position.placement_points() - pass.zone;
                match outside.iter().next() {
                    Some(p) => line.push(Move::Place(p)),
                    None => break,
                }
                node = pass.target;
                continue;
            }
            match (listed, &n.otherwise) {
                (Some((m, target)), _) => {
                    line.push(m.clone());
                    match *target {
                        Target::Node(next) => node = next,
                        Target::Goal => break,
                    }
                }
                (None, Some(answer)) => {
                    let listed: Vec<&Move> = n.moves.iter().map(|(m, _)| m).collect();
                    let reply = n
                        .position
                        .legal_moves_within(budget)?
                        .into_iter()
                        .find(|m| {
                            !listed.contains(&m)
                                && n.position
                                    .play(m)
                                    .is_ok_and(|after| after.play(answer).is_ok())
                        });
                    line.extend(reply);
                    line.push(answer.clone());
                    break;
                }
                (None, None) => break,
            }
        }
        Ok(line)
    }
}
