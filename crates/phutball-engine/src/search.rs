//! The search: iterative-deepening negamax alpha-beta with a transposition
//! table, a threat-aware horizon, and the root filter that gives the
//! engine's guarantees.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use phutball::{Budget, Game, Interrupt, Move, Point, Position, SearchError, Side};

use crate::candidates::{
    all_moves, blocking_moves, jump_moves, nearby_placements, quiet_moves, INNER_JUMPS,
};
use crate::deadline::Deadline;
use crate::error::EngineError;
use crate::eval::{evaluate, progress};
use crate::limits::Limits;
use crate::safety::is_safe_within;
use crate::score::{Score, DECIDED, INFINITY, WIN};
use crate::table::{from_table, to_table, Bound, Entry, Table, TableCache};
use crate::threats::{all_jump_moves, threat_placements, winning_move, winning_threat_in_five};
use phutball::SplitMix64;
use phutball_solver::{prove_within, SolverError, Value};

/// Size of the transposition table: 2^18 slots of 24 bytes (6 MiB).
const TABLE_BITS: u32 = 18;
/// What an opponent's scoring threat that can be stopped costs the side to
/// move at the horizon: stopping it spends the move.
const THREAT_PENALTY: i32 = 50;
/// The principal variation shown is at most this long.
const MAX_PV: usize = 32;
/// What going back to a position of the game's history costs the side the
/// engine plays for: it prefers any line not worse than this to a cycle, so
/// that it does not circle for ever against an opponent it should beat.
const CONTEMPT: i32 = 30;
/// Work cap (steps of the core's search: landings of the ball) of every
/// can-score and scoring-jump search at an inner node, at the horizon and
/// in the principal variation, with or without a time limit: a few
/// milliseconds on the densest boards; the positions of ordinary games are
/// decided in far fewer steps.
pub(crate) const NODE_SCORE_WORK: u64 = 1 << 16;
/// With a time limit, the root's safety filter first gives each move's
/// can-score this much work, then four times as much to the moves still
/// undecided, and so on while the filter's share of the time lasts.
pub(crate) const ROOT_FIRST_WORK: u64 = 1 << 14;
/// With a time limit, the root's "can I score?" may use this share (in
/// percent) of the move's time.
pub(crate) const SCORING_SHARE: u32 = 30;
/// With a time limit, the root's checks (the above, then "does the opponent
/// threaten?" and the safety filter) end by this share of the move's time;
/// the search has the rest.
pub(crate) const FILTER_SHARE: u32 = 65;
/// The root's win-in-five check (a threat, then a win in three after
/// every reply) ends after this many polls of its budget (some 8 million
/// steps at most, see [`Search::root_call_capped`]), with or without a
/// time limit.
const FIVE_POLLS: u32 = 1 << 13;
/// With a time limit, the win-in-five check may use this share (in
/// percent) of the move's time, within the root checks' share.
const FIVE_SHARE: u32 = 10;
/// The root's prover (a proof-number search for a win of either side, see
/// `phutball_solver::prove_within`) stops after this many nodes, with or
/// without a time limit: a bound that keeps an untimed search reproducible.
const PROVER_NODES: u64 = 256;
/// With a time limit, the root's prover may use this share (in percent)
/// of the move's time, within the root checks' share.
const PROVER_SHARE: u32 = 5;
/// The check of the move chosen (the prover on the position after it)
/// stops after this many nodes.
const PROVER_CHECK_NODES: u64 = 64;
/// At most this many moves chosen in turn are checked and dropped as
/// proved losses, before the next one is played unchecked.
const PROVER_CHECKS: usize = 3;
/// With a time limit, reading back the principal variation after the search
/// (or evaluating the move chosen without a search) may take this long.
const PV_TIME: Duration = Duration::from_millis(10);
/// The engine's clock is read at one poll of the core's searches in this many.
const CLOCK_SAMPLE: u32 = 8;

/// How the move was chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// It scores now (found by the core's can-score search; no search needed).
    Scores,
    /// It is the only move not known to lose at once: every other move lets
    /// the opponent score at once or is an own goal (or, with a time limit
    /// too short to decide it, is not known to be safe).
    OnlyMove,
    /// Every move loses at once; this one is the least bad.
    AllMovesLose,
    /// Chosen by the search (or by the root's threat checks: a proved win
    /// in three or five plies).
    Searched,
}

/// The result of a search: the move, its score and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The move to play.
    pub best_move: Move,
    /// Its value for the side to move.
    pub score: Score,
    /// The deepest iteration completed, in plies (0 if no search was needed).
    pub depth: u32,
    /// Positions examined.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The expected continuation, starting with the best move.
    pub pv: Vec<Move>,
    /// How the move was chosen.
    pub decision: Decision,
}

impl Analysis {
    /// Positions examined per second.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// A Phutball engine: limits, a seed, and the search.
///
/// ```
/// use phutball::Position;
/// use phutball_engine::{Engine, Limits};
/// // Ball H10, men H11..H18 and H19 (a chain to the top goal line): Ohs scores.
/// let pos: Position = "15/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15 O".parse()?;
/// let mut engine = Engine::new(Limits::nodes(1000), 1);
/// let analysis = engine.analyse(&pos)?;
/// assert!(pos.play(&analysis.best_move)?.winner() == Some(phutball::Side::Ohs));
/// assert_eq!(analysis.score.to_string(), "win in 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// The engine keeps its transposition table between searches (each starts
/// from an empty one all the same, so results do not depend on earlier
/// searches): a second call costs no allocation. A clone starts without one.
pub struct Engine {
    limits: Limits,
    seed: u64,
    tables: TableCache,
}

impl Clone for Engine {
    fn clone(&self) -> Engine {
        Engine::new(self.limits, self.seed)
    }
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("limits", &self.limits)
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// An engine with these limits; `seed` breaks ties between equal moves.
    pub fn new(limits: Limits, seed: u64) -> Engine {
        Engine {
            limits,
            seed,
            tables: TableCache::default(),
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The move to play.
    ///
    /// # Errors
    ///
    /// [`EngineError::Finished`] if the game is over, [`EngineError::NoLegalMove`]
    /// if the side to move has no legal move.
    pub fn best_move(&self, pos: &Position) -> Result<Move, EngineError> {
        self.analyse(pos).map(|a| a.best_move)
    }

    /// Searches `pos` and reports the best move, its score, the depth
    /// reached, the nodes searched and the principal variation.
    ///
    /// Guarantees: it plays a scoring move whenever one exists; it never
    /// plays an own goal while another move exists; if some move leaves the
    /// opponent unable to score next move, it plays such a move. Without a
    /// time limit they always hold (and the root's checks are not bounded
    /// in time); with one, whenever the time was enough for the core to
    /// decide the checks they rest on (see the crate docs, "Bounded work").
    ///
    /// # Errors
    ///
    /// [`EngineError::Finished`] if the game is over, [`EngineError::NoLegalMove`]
    /// if the side to move has no legal move.
    pub fn analyse(&self, pos: &Position) -> Result<Analysis, EngineError> {
        self.analyse_within(pos, &Budget::default())
    }

    /// [`Engine::analyse`], which the caller can stop: when `stop`'s cancel
    /// flag is set or its interrupt hook answers, the search ends with
    /// [`EngineError::Interrupted`] (within about a millisecond: the core's
    /// searches poll them too). The engine's own [`Limits`] still end it
    /// with a move, as in [`Engine::analyse`]. `stop`'s memory limit bounds
    /// each call into the core; its work limit is not used (the engine sets
    /// its own work caps, see the crate docs). The first answer of `stop`'s
    /// hook is remembered for the rest of the search, so a one-shot check
    /// (a consumed signal) stops it as surely as a deadline.
    ///
    /// # Errors
    ///
    /// [`EngineError::Finished`] if the game is over, [`EngineError::NoLegalMove`]
    /// if the side to move has no legal move, [`EngineError::Interrupted`]
    /// when `stop` stopped the search.
    pub fn analyse_within(
        &self,
        pos: &Position,
        stop: &Budget<'_>,
    ) -> Result<Analysis, EngineError> {
        self.analyse_with_history(pos, &[], stop)
    }

    /// [`Engine::analyse`] for the current position of `game`: positions
    /// the game has already been through count as a slight loss (a cycle)
    /// for the side to move now, so the engine avoids going round in
    /// circles when it has anything as good.
    ///
    /// # Errors
    ///
    /// [`EngineError::Finished`] if the game is over, [`EngineError::NoLegalMove`]
    /// if the side to move has no legal move.
    pub fn analyse_game(&self, game: &Game) -> Result<Analysis, EngineError> {
        self.analyse_game_within(game, &Budget::default())
    }

    /// [`Engine::analyse_game`], which the caller can stop as [`Engine::analyse_within`].
    ///
    /// # Errors
    ///
    /// [`EngineError::Finished`] if the game is over, [`EngineError::NoLegalMove`]
    /// if the side to move has no legal move, [`EngineError::Interrupted`]
    /// when `stop` stopped the search.
    pub fn analyse_game_within(
        &self,
        game: &Game,
        stop: &Budget<'_>,
    ) -> Result<Analysis, EngineError> {
        let positions = game.positions();
        let earlier = &positions[..positions.len().saturating_sub(1)];
        self.analyse_with_history(game.position(), earlier, stop)
    }
    fn analyse_with_history(
        &self,
        pos: &Position,
        history: &[Position],
        caller: &Budget<'_>,
    ) -> Result<Analysis, EngineError> {
        self.tables.with_table(TABLE_BITS, |table| {
            self.analyse_with_table(pos, history, caller, table)
        })
    }

    fn analyse_with_table(
        &self,
        pos: &Position,
        history: &[Position],
        caller: &Budget<'_>,
        table: &Table,
    ) -> Result<Analysis, EngineError> {
        // The search polls the caller again after a call into the core gave
        // up, to tell the caller's stop from its own limits: remember the
        // first answer, so that a hook which answers once (a signal check
        // consumes the signal) is not read as "don't know" the second time.
        let first_stop = OnceLock::new();
        let sticky = || {
            if let Some(&stop) = first_stop.get() {
                return Some(stop);
            }
            let stop = caller.interrupted().map(|e| match e {
                SearchError::TimedOut => Interrupt::TimedOut,
                _ => Interrupt::Cancelled,
            })?;
            Some(*first_stop.get_or_init(|| stop))
        };
        let stop = &Budget::default()
            .with_memory_limit(caller.memory_limit())
            .with_interrupt(&sticky);
        if let Some(e) = stop.interrupted() {
            return Err(EngineError::Interrupted(e));
        }
        if let Some(winner) = pos.winner() {
            return Err(EngineError::Finished { winner });
        }
        let polls = AtomicU32::new(0);
        let team = Team::default();
        let shared = Shared {
            stop,
            polls: &polls,
            table,
            team: &team,
        };
        let mut search = Search::new(self.limits, pos.to_move(), history, shared);
        search.nodes = 1;
        // With a time limit every root check has its share of the move's
        // time and grows its work cap while the share lasts; without one
        // they are exact (only the caller's stop ends them).
        let timed = self.limits.time.is_some();
        let share = |percent: u32| {
            self.limits.time.map_or(Deadline::NONE, |t| {
                Deadline::after((t / 100).saturating_mul(percent))
            })
        };
        let (scoring_deadline, filter_deadline) = (share(SCORING_SHARE), share(FILTER_SHARE));
        let scoring =
            search.root_call(u64::MAX, scoring_deadline, |b| pos.scoring_jump_within(b))?;
        if let Some(Some(m)) = scoring {
            return Ok(search.report(m.clone(), WIN - 1, 0, vec![m], Decision::Scores));
        }
        let first_work = if timed { ROOT_FIRST_WORK } else { u64::MAX };
        let threatened = search.root_call(first_work.saturating_mul(4), filter_deadline, |b| {
            pos.end_turn().can_score_within(b)
        })?;
        let (pending, own_goal) = search.root_moves_but_own_goals(pos);
        let Filtered {
            safe,
            undecided: pending,
            lets_them_score,
        } = search.safety_filter(pos, pending, first_work, filter_deadline)?;
        // A root "can I score?" left undecided gets what remains of the
        // filter's share.
        if scoring.is_none() && !filter_deadline.passed() {
            let again =
                search.root_call(u64::MAX, filter_deadline, |b| pos.scoring_jump_within(b))?;
            if let Some(Some(m)) = again {
                return Ok(search.report(m.clone(), WIN - 1, 0, vec![m], Decision::Scores));
            }
        }
        // Moves proved safe come first; moves not known to be safe (their
        // check ran out of time) are the fallback when none is proved safe.
        let mut candidates = if safe.is_empty() { pending } else { safe };
        candidates.sort_by_key(|(i, _, _)| *i);
        let candidates: Vec<(Move, Position)> =
            candidates.into_iter().map(|(_, m, c)| (m, c)).collect();
        if candidates.is_empty() {
            // Letting them score beats scoring for them now.
            let (m, value) = match (lets_them_score, own_goal) {
                (Some((_, m)), _) => (m, -(WIN - 2)),
                (None, Some(m)) => (m, -(WIN - 1)),
                // No move at all, unless the caller's stop cut the list short.
                (None, None) => {
                    return Err(match stop.interrupted() {
                        Some(e) => EngineError::Interrupted(e),
                        None => EngineError::NoLegalMove,
                    })
                }
            };
            return Ok(search.report(m.clone(), value, 0, vec![m], Decision::AllMovesLose));
        }
        if candidates.len() == 1 {
            let (m, child) = candidates.into_iter().next().expect("one candidate");
            let value = -search.evaluate_after_deadline(&child);
            return Ok(search.report(m.clone(), value, 0, vec![m], Decision::OnlyMove));
        }
        let roots =
            match search.threat_roots(pos, candidates, threatened, filter_deadline, self.seed)? {
                Roots::Win { first, plies } => {
                    let pv = vec![first.clone()];
                    return Ok(search.report(first, WIN - plies, 0, pv, Decision::Searched));
                }
                Roots::Search(roots) => roots,
            };
        let analysis = search.iterate_in_threads(roots.clone());
        if let Some(e) = search.interrupted {
            return Err(EngineError::Interrupted(e));
        }
        search.avoid_proved_loss(analysis, roots)
    }
}

/// What the root's threat checks leave to do.
enum Roots {
    /// A move proved to win within `plies` plies (3 or 5): play it.
    Win {
        /// The winning move.
        first: Move,
        /// Plies to the goal, `first` included.
        plies: i32,
    },
    /// Search these moves, best guess first.
    Search(Vec<(Move, Position)>),
}

/// A root move: its index in the root order, the move, the position after it.
type RootMove = (usize, Move, Position);

/// The root moves sorted by [`Search::safety_filter`].
struct Filtered {
    /// Proved safe.
    safe: Vec<RootMove>,
    /// Not decided within the filter's work and time.
    undecided: Vec<RootMove>,
    /// The first move found to let the opponent score, with its index.
    lets_them_score: Option<(usize, Move)>,
}

/// The positions after the moves [`Search::negamax`] tries at `pos`, best
/// first: the moves that block `threat` when the opponent threatens to score,
/// else the quiet moves (all moves if there are none); the table's best
/// child (hash `table_move`) first, then by [`order_key`].
fn children_in_order(
    pos: &Position,
    threat: Option<&Move>,
    table_move: u64,
    budget: &Budget<'_>,
) -> Vec<Position> {
    let moves = if let Some(t) = threat {
        blocking_moves(pos, t, INNER_JUMPS, budget)
    } else {
        let moves = quiet_moves(pos, budget);
        if moves.is_empty() {
            all_moves(pos, budget)
        } else {
            moves
        }
    };
    let mut children: Vec<(i32, Position)> = moves
        .iter()
        .filter_map(|m| {
            let child = pos.play(m).ok()?;
            let key = if child.zobrist() == table_move {
                i32::MAX
            } else {
                order_key(pos, m)
            };
            Some((key, child))
        })
        .collect();
    children.sort_by_key(|(key, _)| -key);
    children.into_iter().map(|(_, child)| child).collect()
}

/// The root moves to search, best first by a cheap guess: when the opponent
/// threatens to score, every safe move; otherwise the safe jumps, the safe
/// placements near the ball and the safe threat placements (`own_threats`:
/// after them the side to move could score), or all safe moves if none of
/// those is left.
fn root_candidates(
    pos: &Position,
    safe: Vec<(Move, Position)>,
    threatened: bool,
    own_threats: &[Point],
    seed: u64,
) -> Vec<(Move, Position)> {
    let mut roots: Vec<(Move, Position)> = if threatened {
        safe.clone()
    } else {
        let near = nearby_placements(pos);
        safe.iter()
            .filter(|(m, _)| match m {
                Move::Place(p) => near.contains(p) || own_threats.contains(p),
                Move::Jump(_) => true,
            })
            .cloned()
            .collect()
    };
    if roots.is_empty() {
        roots = safe;
    }
    let mut rng = SplitMix64::new(seed);
    let mut keyed: Vec<(i32, (Move, Position))> = roots
        .into_iter()
        .map(|(m, child)| (order_key(pos, &m) * 8 + rng.below(8) as i32, (m, child)))
        .collect();
    keyed.sort_by_key(|(key, _)| -key);
    keyed.into_iter().map(|(_, mc)| mc).collect()
}

/// The root moves in the order of helper thread `index` (from 1) of a
/// threaded search: last first (rotated by `index - 1` for the third thread
/// on), so that while the first thread searches the best guesses the helper
/// refutes the others, and each finds the other's work in the table. (With
/// the helper in the first thread's order, two threads were no faster than
/// one at a fixed depth; reversed, about 1.5 times faster with a free
/// second core: see the README.)
fn helper_order(roots: &[(Move, Position)], index: usize) -> Vec<(Move, Position)> {
    let mut roots = roots.to_vec();
    roots.reverse();
    if !roots.is_empty() {
        let shift = (index - 1) % roots.len();
        roots.rotate_left(shift);
    }
    roots
}

/// A cheap guess at how good a move is, for move ordering: jumps by the row
/// progress they make, then placements ahead of the ball (towards the
/// mover's goal) and close to it.
fn order_key(pos: &Position, m: &Move) -> i32 {
    let me = pos.to_move();
    match m {
        Move::Jump(path) => {
            let landing = path.last().map_or(pos.ball().row(), |p| p.row());
            10_000 + progress(pos, me, landing) - progress(pos, me, pos.ball().row())
        }
        Move::Place(p) => {
            let ball = pos.ball();
            let ahead = progress(pos, me, p.row()) - progress(pos, me, ball.row());
            let d_col = (i32::from(p.col()) - i32::from(ball.col())).abs();
            let d_row = (i32::from(p.row()) - i32::from(ball.row())).abs();
            ahead / 2 - 40 * d_col.max(d_row)
        }
    }
}

/// The interrupt hook of the core's calls within a search: the caller's
/// cancel flag and hook (its stop) at every poll, then `deadline` (the
/// engine's own clock) at one poll in [`CLOCK_SAMPLE`], counted in `polls`.
/// The core polls once as each call starts, and a search makes several
/// calls per node, so reading the clock at each would cost a few percent of
/// the search's speed; one in eight still sees the deadline within some
/// 8000 steps of a long call (well under a millisecond), and the search
/// reads the clock itself at every node.
fn clock<'a>(
    stop: &'a Budget<'a>,
    deadline: Deadline,
    polls: &'a AtomicU32,
) -> impl Fn() -> Option<Interrupt> + Sync + 'a {
    move || match stop.interrupted() {
        Some(SearchError::Cancelled) => Some(Interrupt::Cancelled),
        Some(_) => Some(Interrupt::TimedOut),
        None if polls.fetch_add(1, Ordering::Relaxed) % CLOCK_SAMPLE == 0 => deadline.check(),
        None => None,
    }
}

/// An interrupt hook that answers as `inner` for its first `max_polls`
/// polls (counted in `polls`) and [`Interrupt::TimedOut`] after them: a cap
/// on the work of a whole check made of many calls into the core.
fn capped<'a>(
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

/// A budget of at most `work` steps, the caller's memory limit, and `hook`.
fn budget_of<'h>(
    stop: &Budget<'_>,
    work: u64,
    hook: &'h (dyn Fn() -> Option<Interrupt> + Sync),
) -> Budget<'h> {
    Budget::default()
        .with_memory_limit(stop.memory_limit())
        .with_work_limit(work)
        .with_interrupt(hook)
}

/// What the threads of one search share (one thread without
/// [`Limits::threads`]).
#[derive(Default)]
struct Team {
    /// Set by the first thread to finish its iterations: the others stop.
    finished: AtomicBool,
    /// Nodes searched by all threads (each adds its own as it goes), for
    /// the node limit.
    nodes: AtomicU64,
}

/// The references every thread's [`Search`] holds.
#[derive(Copy, Clone)]
struct Shared<'s> {
    /// The caller's cancel flag and interrupt hook.
    stop: &'s Budget<'s>,
    /// Polls of the hooks given to the core (see [`clock`]).
    polls: &'s AtomicU32,
    table: &'s Table,
    team: &'s Team,
}

/// The state of one search (of one thread of it).
struct Search<'s> {
    /// The caller's cancel flag and interrupt hook.
    stop: &'s Budget<'s>,
    /// Polls of the hooks given to the core (see [`clock`]).
    polls: &'s AtomicU32,
    team: &'s Team,
    /// This thread's nodes already added to the team's count.
    nodes_told: u64,
    /// Why the caller stopped the search, if it did.
    interrupted: Option<SearchError>,
    limits: Limits,
    started: Instant,
    /// The end of the move's time (none without a time limit).
    deadline: Deadline,
    nodes: u64,
    aborted: bool,
    /// Empty when the search starts (see [`TableCache`]); shared by the
    /// search's threads.
    table: &'s Table,
    /// The side the search plays for.
    engine_side: Side,
    /// Hashes of the positions the game has been through.
    history: HashSet<u64>,
}

impl<'s> Search<'s> {
    fn new(
        limits: Limits,
        engine_side: Side,
        history: &[Position],
        shared: Shared<'s>,
    ) -> Search<'s> {
        Search {
            stop: shared.stop,
            polls: shared.polls,
            team: shared.team,
            nodes_told: 0,
            interrupted: None,
            limits,
            started: Instant::now(),
            deadline: Deadline::after_opt(limits.time),
            nodes: 0,
            aborted: false,
            table: shared.table,
            engine_side,
            history: history.iter().map(Position::zobrist).collect(),
        }
    }

    fn report(
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
            elapsed: self.started.elapsed(),
            pv,
            decision,
        }
    }

    /// The root moves of `pos` (see [`RootMove`]) but those that end with
    /// the ball in the mover's own goal, and the first of those, if any.
    fn root_moves_but_own_goals(&mut self, pos: &Position) -> (Vec<RootMove>, Option<Move>) {
        let me = pos.to_move();
        let mut own_goal = None;
        let mut others = Vec::new();
        for (i, m) in self.root_moves(pos).into_iter().enumerate() {
            self.nodes += 1;
            let Ok(child) = pos.play(&m) else { continue };
            if child.winner() == Some(me.opponent()) {
                own_goal.get_or_insert(m);
            } else {
                others.push((i, m, child));
            }
        }
        (others, own_goal)
    }

    /// The root moves to search, once the threats are known (`candidates`
    /// proved safe, or the fallback; `threatened`: whether the opponent
    /// could score at once, `None` not known): or a win in three or five
    /// plies, proved, that needs no search.
    fn threat_roots(
        &self,
        pos: &Position,
        candidates: Vec<(Move, Position)>,
        threatened: Option<bool>,
        filter_deadline: Deadline,
        seed: u64,
    ) -> Result<Roots, EngineError> {
        // A proved win needs no search: placements that threaten to score,
        // or jumps, after which no reply stops every threat. The proof
        // includes the move's safety (the opponent cannot score after it),
        // so it stands even when the safety filter left the move undecided.
        let win = self.root_call(NODE_SCORE_WORK, filter_deadline, |b| winning_move(pos, b))?;
        if let Some(Some(first)) = win {
            return Ok(Roots::Win { first, plies: 3 });
        }
        let own_threats = self
            .root_call(NODE_SCORE_WORK, filter_deadline, |b| {
                threat_placements(pos, b)
            })?
            .unwrap_or_default();
        if !own_threats.is_empty() {
            let win = self.root_call_capped(
                FIVE_POLLS,
                self.share_deadline(FIVE_SHARE, filter_deadline),
                |b| winning_threat_in_five(pos, &own_threats, b),
            )?;
            if let Some(Some(p)) = win {
                return Ok(Roots::Win {
                    first: Move::Place(p),
                    plies: 5,
                });
            }
        }
        // A longer win, proved by the solver (with its certificate checked).
        let deadline = self.share_deadline(PROVER_SHARE, filter_deadline);
        if let Some((Value::Win { plies }, line)) = self.prover_call(pos, PROVER_NODES, deadline)? {
            if let Some(first) = line.into_iter().next() {
                return Ok(Roots::Win {
                    first,
                    plies: i32::try_from(plies).unwrap_or(i32::MAX),
                });
            }
        }
        // An undecided threat counts as a threat: every candidate is searched.
        let roots = root_candidates(
            pos,
            candidates.clone(),
            threatened != Some(false),
            &own_threats,
            seed,
        );
        // Moves after which the opponent has a move that wins in three
        // plies are played only when every move does that. Not when the
        // opponent threatens to score at once: the few moves that stop it
        // are searched (a check of each costs more than it is worth on the
        // dense boards where that is common).
        Ok(Roots::Search(if threatened == Some(false) {
            self.drop_losses_in_three(roots, candidates, filter_deadline)?
        } else {
            roots
        }))
    }

    /// The root moves to search (`roots`) but those after which the
    /// opponent has a move that wins in three plies (each check capped at
    /// [`NODE_SCORE_WORK`] per call into the core, and ended by `deadline`;
    /// undecided moves are kept). When that leaves none, the other moves of
    /// `candidates` (proved safe, or the fallback) that do not lose so; when
    /// none of those either, `roots` as they were.
    fn drop_losses_in_three(
        &self,
        roots: Vec<(Move, Position)>,
        candidates: Vec<(Move, Position)>,
        deadline: Deadline,
    ) -> Result<Vec<(Move, Position)>, EngineError> {
        if candidates.len() < 2 {
            return Ok(roots);
        }
        let not_losing =
            |moves: &[(Move, Position)]| -> Result<Vec<(Move, Position)>, EngineError> {
                let mut kept = Vec::with_capacity(moves.len());
                for (m, child) in moves {
                    let lost =
                        self.root_call(NODE_SCORE_WORK, deadline, |b| winning_move(child, b))?;
                    if !matches!(lost, Some(Some(_))) {
                        kept.push((m.clone(), *child));
                    }
                }
                Ok(kept)
            };
        let kept = not_losing(&roots)?;
        if !kept.is_empty() {
            return Ok(kept);
        }
        // Every root move loses: a saving move may be among the others.
        let others: Vec<(Move, Position)> = candidates
            .into_iter()
            .filter(|(m, _)| !roots.iter().any(|(r, _)| r == m))
            .collect();
        let saving = not_losing(&others)?;
        Ok(if saving.is_empty() { roots } else { saving })
    }

    /// The safety filter at the root: "can the opponent score after this
    /// move?" for every move of `pending` (its index in the root order, the
    /// move, the position after it; own goals are out already, so unsafe
    /// means "lets them score"), with `first_work` steps first, then four
    /// times more for the moves still undecided, while `deadline` lasts.
    fn safety_filter(
        &self,
        pos: &Position,
        mut pending: Vec<RootMove>,
        first_work: u64,
        deadline: Deadline,
    ) -> Result<Filtered, EngineError> {
        let mut safe = Vec::new();
        let mut lets_them_score = None;
        let mut work = first_work;
        loop {
            let mut undecided = Vec::new();
            for (i, m, child) in pending {
                if deadline.passed() {
                    undecided.push((i, m, child));
                    continue;
                }
                match self.root_call(work, deadline, |b| is_safe_within(pos, &m, b))? {
                    Some(false) => {
                        lets_them_score.get_or_insert((i, m));
                    }
                    Some(true) => safe.push((i, m, child)),
                    None => undecided.push((i, m, child)),
                }
            }
            pending = undecided;
            if pending.is_empty() || work == u64::MAX || deadline.passed() {
                break;
            }
            work = work.saturating_mul(4);
        }
        Ok(Filtered {
            safe,
            undecided: pending,
            lets_them_score,
        })
    }

    /// A root check: `f` within `work` steps, the caller's stop and
    /// `deadline`. `Ok(None)` when it gave up ("don't know"); an error only
    /// when the caller stopped the search.
    fn root_call<T>(
        &self,
        work: u64,
        deadline: Deadline,
        f: impl FnOnce(&Budget<'_>) -> Result<T, SearchError>,
    ) -> Result<Option<T>, EngineError> {
        let hook = clock(self.stop, deadline, self.polls);
        self.root_answer(f(&budget_of(self.stop, work, &hook)))
    }

    /// A root check's answer: `Ok(None)` when it gave up ("don't know"),
    /// an error only when the caller stopped the search.
    fn root_answer<T>(&self, answer: Result<T, SearchError>) -> Result<Option<T>, EngineError> {
        match answer {
            Ok(answer) => Ok(Some(answer)),
            Err(_) => match self.stop.interrupted() {
                Some(e) => Err(EngineError::Interrupted(e)),
                None => Ok(None),
            },
        }
    }

    /// [`Search::root_call`] for a check of many calls into the core, each
    /// capped at [`NODE_SCORE_WORK`] steps, the whole check at `max_polls`
    /// polls of its budget (a call polls once as it starts and once every
    /// [`phutball::POLL_INTERVAL`] steps): a bound on its work that does not
    /// depend on the clock, so that a search without a time limit stays
    /// reproducible.
    fn root_call_capped<T>(
        &self,
        max_polls: u32,
        deadline: Deadline,
        f: impl FnOnce(&Budget<'_>) -> Result<T, SearchError>,
    ) -> Result<Option<T>, EngineError> {
        let polls = AtomicU32::new(0);
        let hook = capped(&polls, max_polls, clock(self.stop, deadline, self.polls));
        self.root_answer(f(&budget_of(self.stop, NODE_SCORE_WORK, &hook)))
    }

    /// The prover's value of `pos` (for its side to move) and line, within
    /// `nodes` nodes, the caller's stop and `deadline`: `Ok(None)` when it
    /// proved nothing.
    fn prover_call(
        &self,
        pos: &Position,
        nodes: u64,
        deadline: Deadline,
    ) -> Result<Option<(Value, Vec<Move>)>, EngineError> {
        let answer = self.root_call(nodes, deadline, |b| match prove_within(pos, b) {
            Ok(proof) => Ok(proof.value.map(|v| (v, proof.line))),
            Err(SolverError::Search(e)) => Err(e),
            Err(_) => Ok(None),
        })?;
        Ok(answer.flatten())
    }

    /// `analysis` unless its move is proved to lose (the prover proves a
    /// win for the opponent after it, within [`PROVER_CHECK_NODES`]) while
    /// another root move is not: then the first other move of `roots` in
    /// the search's order, checked in turn, up to [`PROVER_CHECKS`] moves.
    fn avoid_proved_loss(
        &mut self,
        mut analysis: Analysis,
        mut roots: Vec<(Move, Position)>,
    ) -> Result<Analysis, EngineError> {
        for _ in 0..PROVER_CHECKS {
            if matches!(analysis.score, Score::Win { .. }) || roots.len() < 2 {
                break;
            }
            let Some(i) = roots.iter().position(|(m, _)| *m == analysis.best_move) else {
                break;
            };
            let after = self.prover_call(&roots[i].1, PROVER_CHECK_NODES, self.after_deadline())?;
            if !matches!(after, Some((Value::Win { .. }, _))) {
                break;
            }
            roots.remove(i);
            let (m, child) = roots[0].clone();
            let value = -self.evaluate_after_deadline(&child);
            analysis = self.report(
                m.clone(),
                value,
                analysis.depth,
                vec![m],
                Decision::Searched,
            );
        }
        Ok(analysis)
    }

    /// The end of a root check with `percent` of the move's time: that
    /// share from now, and no later than `filter_deadline`.
    fn share_deadline(&self, percent: u32, filter_deadline: Deadline) -> Deadline {
        let Some(time) = self.limits.time else {
            return Deadline::NONE;
        };
        let share = (time / 100).saturating_mul(percent);
        Deadline::after(
            filter_deadline
                .remaining()
                .map_or(share, |left| left.min(share)),
        )
    }

    /// Every root move: all placements and up to 4096 jump outcomes (a
    /// bounded enumeration, which the move's deadline also ends). Should the
    /// deadline leave no move at all, the first jump is looked for without
    /// it: the engine always answers with a legal move.
    fn root_moves(&self, pos: &Position) -> Vec<Move> {
        let hook = clock(self.stop, self.deadline, self.polls);
        let moves = all_moves(pos, &budget_of(self.stop, u64::MAX, &hook));
        if !moves.is_empty() {
            return moves;
        }
        let hook = clock(self.stop, Deadline::NONE, self.polls);
        jump_moves(pos, 1, &budget_of(self.stop, u64::MAX, &hook))
    }

    /// A deadline for the little work done once the move's time may be
    /// over: [`PV_TIME`] from now with a time limit, none without.
    fn after_deadline(&self) -> Deadline {
        match self.limits.time {
            Some(_) => Deadline::after(PV_TIME),
            None => Deadline::NONE,
        }
    }

    /// The evaluation, when the move's time may be over: bounded by its
    /// work caps, the caller's stop and [`Search::after_deadline`].
    fn evaluate_after_deadline(&self, pos: &Position) -> i32 {
        let hook = clock(self.stop, self.after_deadline(), self.polls);
        evaluate(pos, &budget_of(self.stop, u64::MAX, &hook))
    }

    /// The answer of an inner call, or `None` ("don't know"); a call
    /// stopped by the clock or the caller ends the search.
    fn known<T>(&mut self, answer: Result<T, SearchError>) -> Option<T> {
        match answer {
            Ok(answer) => Some(answer),
            Err(SearchError::TimedOut | SearchError::Cancelled) => {
                if self.interrupted.is_none() {
                    self.interrupted = self.stop.interrupted();
                }
                self.aborted = true;
                None
            }
            Err(_) => None,
        }
    }

    /// Whether a limit has been reached, or another thread has finished
    /// (then the search unwinds).
    fn out_of_budget(&mut self) -> bool {
        if !self.aborted {
            let new_nodes = self.nodes - self.nodes_told;
            self.nodes_told = self.nodes;
            let all_nodes = self.team.nodes.fetch_add(new_nodes, Ordering::Relaxed) + new_nodes;
            let nodes_out = self.limits.nodes.is_some_and(|n| all_nodes >= n);
            let time_out = self.deadline.passed();
            self.interrupted = self.stop.interrupted();
            self.aborted = nodes_out
                || time_out
                || self.interrupted.is_some()
                || self.team.finished.load(Ordering::Relaxed);
        }
        self.aborted
    }

    /// A helper thread's search: the same limits, history and shared state,
    /// its own nodes and flags.
    fn helper(&self) -> Search<'s> {
        Search {
            stop: self.stop,
            polls: self.polls,
            team: self.team,
            nodes_told: 0,
            interrupted: None,
            limits: self.limits,
            started: self.started,
            deadline: self.deadline,
            nodes: 0,
            aborted: false,
            table: self.table,
            engine_side: self.engine_side,
            history: self.history.clone(),
        }
    }

    /// [`Search::iterate`] by [`Limits::threads`] threads ("lazy SMP"):
    /// each searches every root move, all store into and probe the one
    /// table, so each finds much of its tree already searched by the
    /// others. The first to finish stops the rest; the answer is that of
    /// the deepest iteration completed (this thread's when equal), with
    /// the nodes of all.
    fn iterate_in_threads(&mut self, roots: Vec<(Move, Position)>) -> Analysis {
        let helpers = self.limits.threads.saturating_sub(1);
        if helpers == 0 {
            return self.iterate(roots);
        }
        let (mine, theirs) = std::thread::scope(|scope| {
            let running: Vec<_> = (1..=helpers)
                .map(|index| {
                    let mut helper = self.helper();
                    let roots = helper_order(&roots, index as usize);
                    // A helper the system cannot start (no memory for its
                    // stack under an address-space limit) is left out: the
                    // search runs on the threads it has.
                    std::thread::Builder::new()
                        .spawn_scoped(scope, move || helper.iterate(roots))
                        .ok()
                })
                .collect();
            let mine = self.iterate(roots);
            self.team.finished.store(true, Ordering::Relaxed);
            let theirs: Vec<Analysis> = running
                .into_iter()
                .flatten()
                .filter_map(|thread| thread.join().ok())
                .collect();
            (mine, theirs)
        });
        let nodes = mine.nodes + theirs.iter().map(|a| a.nodes).sum::<u64>();
        let mut best = mine;
        for analysis in theirs {
            if analysis.depth > best.depth {
                best = analysis;
            }
        }
        best.nodes = nodes;
        best.elapsed = self.started.elapsed();
        best
    }

    /// Iterative deepening over the root moves (`roots` is not empty).
    fn iterate(&mut self, mut roots: Vec<(Move, Position)>) -> Analysis {
        let search_started = Instant::now();
        let mut best = 0usize;
        let mut best_value = -INFINITY;
        let mut depth_done = 0;
        for depth in 1..=self.limits.max_depth() {
            let mut alpha = -INFINITY;
            let mut iteration_best = None;
            for (i, (_, child)) in roots.iter().enumerate() {
                let value = -self.negamax(child, depth - 1, -INFINITY, -alpha, 1);
                if self.aborted {
                    break;
                }
                if value > alpha {
                    alpha = value;
                    iteration_best = Some(i);
                }
            }
            // A move that beat the previous best (searched first) in an
            // unfinished iteration is still an improvement.
            if let Some(i) = iteration_best {
                if !self.aborted || i != 0 || depth_done == 0 {
                    best = i;
                    best_value = alpha;
                }
            }
            if self.aborted {
                break;
            }
            depth_done = depth;
            let chosen = roots.remove(best);
            roots.insert(0, chosen);
            best = 0;
            if best_value >= DECIDED || best_value <= -DECIDED && depth >= 4 {
                break;
            }
            // The next iteration would take several times as long: stop
            // early (when it would not end within the search's time, that
            // is, the time left after the root's checks).
            if let Some(left) = self.deadline.remaining() {
                if search_started.elapsed() * 2 >= left {
                    break;
                }
            }
        }
        if !self.aborted {
            // Done: the other threads of a threaded search may stop.
            self.team.finished.store(true, Ordering::Relaxed);
        }
        if best_value == -INFINITY {
            // Not even one root move was searched: trust the ordering.
            best_value = -self.evaluate_after_deadline(&roots[best].1);
        }
        let (m, child) = roots[best].clone();
        let pv = self.principal_variation(m.clone(), child, depth_done as usize + 2);
        self.report(m, best_value, depth_done, pv, Decision::Searched)
    }

    /// The move and the moves stored as best after it in the table (each
    /// step's can-score capped at [`NODE_SCORE_WORK`], and with a time
    /// limit all of it within [`PV_TIME`]).
    fn principal_variation(&self, first: Move, mut pos: Position, len: usize) -> Vec<Move> {
        let deadline = self.after_deadline();
        let hook = clock(self.stop, deadline, self.polls);
        let budget = budget_of(self.stop, NODE_SCORE_WORK, &hook);
        let mut pv = vec![first];
        while pv.len() < len.min(MAX_PV) && !pos.is_finished() && !deadline.passed() {
            if let Ok(Some(m)) = pos.scoring_jump_within(&budget) {
                pv.push(m);
                break;
            }
            let Some(entry) = self.table.probe(pos.zobrist()) else {
                break;
            };
            let next = all_moves(&pos, &budget).into_iter().find_map(|m| {
                let child = pos.play(&m).ok()?;
                (child.zobrist() == entry.best_child).then_some((m, child))
            });
            let Some((m, child)) = next else { break };
            pv.push(m);
            pos = child;
        }
        pv
    }

    /// The value of `pos` for its side to move, searched `depth` plies deep;
    /// `ply` is the distance from the root.
    fn negamax(&mut self, pos: &Position, depth: u32, mut alpha: i32, beta: i32, ply: u32) -> i32 {
        self.nodes += 1;
        if let Some(winner) = pos.winner() {
            let value = WIN - ply as i32;
            return if winner == pos.to_move() {
                value
            } else {
                -value
            };
        }
        let hook = clock(self.stop, self.deadline, self.polls);
        let budget = budget_of(self.stop, NODE_SCORE_WORK, &hook);
        // "Don't know" is not a win.
        if self.known(pos.can_score_within(&budget)) == Some(true) {
            return WIN - ply as i32 - 1;
        }
        if self.history.contains(&pos.zobrist()) {
            return if pos.to_move() == self.engine_side {
                -CONTEMPT
            } else {
                CONTEMPT
            };
        }
        if self.out_of_budget() {
            return 0;
        }
        let key = pos.zobrist();
        if depth == 0 {
            return self.leaf(pos, key, alpha, beta, ply, &budget);
        }
        // `None`: not known whether the opponent threatens.
        let threat = self.known(pos.end_turn().scoring_jump_within(&budget));
        if self.aborted {
            return 0;
        }
        let table_move = match self.probe_table(key, depth, alpha, beta, ply) {
            Ok(value) => return value,
            Err(table_move) => table_move,
        };
        let children = children_in_order(
            pos,
            threat.as_ref().and_then(Option::as_ref),
            table_move,
            &budget,
        );
        if children.is_empty() {
            // Threatened with nothing to stop it: they score next move.
            return if matches!(threat, Some(Some(_))) {
                -(WIN - ply as i32 - 2)
            } else {
                0
            };
        }
        let alpha_before = alpha;
        let mut best = -INFINITY;
        let mut best_child = 0;
        let mut searched = children;
        let mut widened = false;
        loop {
            for child in &searched {
                let value = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1);
                if self.aborted {
                    return 0;
                }
                if value > best {
                    best = value;
                    best_child = child.zobrist();
                }
                alpha = alpha.max(value);
                if alpha >= beta {
                    break;
                }
            }
            // A forced loss is proved only when every move was searched:
            // when all the candidates lose, the other moves are searched too.
            if best > -DECIDED || widened {
                break;
            }
            widened = true;
            let tried: HashSet<u64> = searched.iter().map(Position::zobrist).collect();
            searched = all_moves(pos, &budget)
                .iter()
                .filter_map(|m| pos.play(m).ok())
                .filter(|child| !tried.contains(&child.zobrist()))
                .collect();
        }
        let bound = if best <= alpha_before {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(Entry {
            key,
            best_child,
            score: to_table(best, ply),
            depth: depth.min(u32::from(u8::MAX)) as u8,
            bound,
        });
        best
    }

    /// The table's value for the position of `key` searched `depth` deep
    /// (`Ok`) when its entry is deep enough and its bound settles the
    /// window `alpha..beta`; otherwise (`Err`) the hash of the best child
    /// the table remembers, to try first (0 if none).
    fn probe_table(
        &self,
        key: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: u32,
    ) -> Result<i32, u64> {
        let Some(entry) = self.table.probe(key) else {
            return Err(0);
        };
        if u32::from(entry.depth) >= depth {
            let value = from_table(entry.score, ply);
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            };
            if usable {
                return Ok(value);
            }
        }
        Err(entry.best_child)
    }

    /// The value of `pos` (hash `key`) at the horizon: the table's, when a
    /// transposition met before stored it (or a deeper search's settles the
    /// window `alpha..beta`), else [`Search::horizon`]'s, which is stored
    /// (placements commute, so the same leaves come back often).
    fn leaf(
        &mut self,
        pos: &Position,
        key: u64,
        alpha: i32,
        beta: i32,
        ply: u32,
        budget: &Budget<'_>,
    ) -> i32 {
        if let Ok(value) = self.probe_table(key, 0, alpha, beta, ply) {
            return value;
        }
        // `None`: not known whether the opponent threatens.
        let threat = self.known(pos.end_turn().scoring_jump_within(budget));
        if self.aborted {
            return 0;
        }
        let value = self.horizon(pos, threat, ply, budget);
        if !self.aborted {
            self.table.store(Entry {
                key,
                best_child: 0,
                score: to_table(value, ply),
                depth: 0,
                bound: Bound::Exact,
            });
        }
        value
    }

    /// The value at the search horizon: the evaluation, unless the opponent
    /// threatens to score and no move stops it (then it is a loss). A
    /// threat not known, or a defence not known to hold, is not a loss: the
    /// evaluation less the price of a threat.
    // The threat as known: `None` not known, `Some(None)` none, `Some(Some(m))` m scores.
    #[allow(clippy::option_option)]
    fn horizon(
        &mut self,
        pos: &Position,
        threat: Option<Option<Move>>,
        ply: u32,
        budget: &Budget<'_>,
    ) -> i32 {
        let threat = match threat {
            Some(None) => return evaluate(pos, budget),
            None => return evaluate(pos, budget) - THREAT_PENALTY,
            Some(Some(threat)) => threat,
        };
        // Every jump is a possible defence: a list cut short proves nothing.
        let Some(Some(jumps)) = self.known(all_jump_moves(pos, budget)) else {
            return evaluate(pos, budget) - THREAT_PENALTY;
        };
        let mut defences = blocking_moves(pos, &threat, 0, budget);
        defences.extend(jumps);
        let mut undecided = false;
        for m in defences {
            self.nodes += 1;
            match self.known(is_safe_within(pos, &m, budget)) {
                Some(true) => return evaluate(pos, budget) - THREAT_PENALTY,
                Some(false) => {}
                None if self.aborted => return 0,
                None => undecided = true,
            }
        }
        if undecided {
            evaluate(pos, budget) - THREAT_PENALTY
        } else {
            -(WIN - ply as i32 - 2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capped_hook_stops_a_check_of_many_calls_after_its_polls() {
        // The issue's position: Ohs can score after a man on G19.
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

    #[test]
    fn a_longer_win_proved_at_the_root_is_played_at_any_depth() {
        // The 1x7 start: the solver proves a win in 7 plies, which a
        // one-ply search (and the win-in-five check) could not see.
        let start: Position = "1/1/1/@/1/1/1 O".parse().unwrap();
        let analysis = Engine::new(Limits::depth(1), 1).analyse(&start).unwrap();
        assert_eq!(analysis.score, Score::Win { plies: 7 });
        assert_eq!(analysis.best_move.to_string(), "A5");
    }

    #[test]
    fn a_move_proved_to_lose_is_replaced_by_one_that_is_not() {
        // Eks to move on the 5x5 start: after A5 Ohs has a proved win;
        // after B2 (Eks's own winning move) it has none.
        let pos: Position = "5/5/2@2/5/5 X".parse().unwrap();
        let root = |m: &str| {
            let m: Move = m.parse().unwrap();
            let child = pos.play(&m).unwrap();
            (m, child)
        };
        let stop = Budget::default();
        let polls = AtomicU32::new(0);
        let team = Team::default();
        let table = Table::new(4);
        let shared = Shared {
            stop: &stop,
            polls: &polls,
            table: &table,
            team: &team,
        };
        let mut search = Search::new(Limits::depth(1), Side::Eks, &[], shared);
        let losing: Move = "A5".parse().unwrap();
        let chosen = search.report(losing.clone(), 0, 1, vec![losing], Decision::Searched);
        let roots = vec![root("B2"), root("A5")];
        let analysis = search.avoid_proved_loss(chosen.clone(), roots).unwrap();
        assert_eq!(analysis.best_move.to_string(), "B2");
        // Kept when it is the only move, or not proved to lose.
        let only = search
            .avoid_proved_loss(chosen.clone(), vec![root("A5")])
            .unwrap();
        assert_eq!(only.best_move.to_string(), "A5");
        let good = search.report("B2".parse().unwrap(), 0, 1, vec![], Decision::Searched);
        let kept = search
            .avoid_proved_loss(good, vec![root("A5"), root("B2")])
            .unwrap();
        assert_eq!(kept.best_move.to_string(), "B2");
    }

    #[test]
    fn a_position_from_the_history_is_avoided_when_an_equal_move_exists() {
        // At the start every move has a mirror image of equal value, so
        // marking the chosen move's result as seen must change the choice.
        let start = Position::standard();
        let engine = Engine::new(Limits::depth(2), 3);
        let first = engine.analyse(&start).unwrap().best_move;
        let seen = start.play(&first).unwrap();
        let again = engine
            .analyse_with_history(&start, &[seen], &Budget::default())
            .unwrap();
        assert_ne!(again.best_move, first);
        assert!(!again.best_move.is_jump());
    }
}
