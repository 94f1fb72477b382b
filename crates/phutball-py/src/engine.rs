//! `phutball.Engine` and `phutball.Analysis`: the engine's search from Python,
//! with the GIL released while it searches.

use std::collections::HashMap;
use std::time::Duration;

use phutball::Position;
use phutball_engine::{
    default_jobs, random_opening as engine_random_opening, Analysis, Engine, EngineError,
    Evaluation, LimitSetting, Limits, MatchError, OpeningError, SelfPlay, SelfPlayGame,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::budget::{run, run_threaded, BudgetKeywords};
use crate::classes::{position_arg, type_name, PyPosition};
use crate::errors::{exception, OrRaise};
use crate::game::PyGame;
use crate::move_analysis::{
    decision_name, eval_of, loss_of, score_and_decision, score_state, win_of, MoveAnalysisState,
    PyMoveAnalysis,
};
use crate::move_time::move_time_arg;
use crate::moves::{moves_to_py, PyMove};
use crate::network::{evaluation_arg, evaluation_to_py};
use crate::notation::{int, Int};

/// A Phutball engine. ``Engine(time=None, depth=None, nodes=None, seed=1,
/// threads=1)``: the search stops at the first limit reached (``time``
/// seconds per move, one second when no limit is given) and answers with a
/// move; ``threads`` (1 to 64) search each move together, sharing one
/// table. ``depth`` alone bounds the search only by its depth, which can
/// take very long: ``best_move`` and ``analyse`` also take ``timeout=``
/// (seconds), a hard stop that raises ``SearchTimeoutError``, and Ctrl-C
/// raises ``KeyboardInterrupt``. Without ``time``, and with one thread, the
/// choice depends only on the position, the limits and ``seed``. The GIL is
/// released while it searches. ``time_ms`` (milliseconds, the first
/// positional argument) is the deprecated spelling of ``time``.
///
/// ``eval`` is its evaluation: ``"auto"`` (the default: the network built
/// in on the standard 15x19 board, the hand evaluation on every other),
/// ``"hand"`` (the hand-written terms), ``"net"`` (the network built in,
/// for 15x19 only), ``"net:PATH"`` (the weights file PATH, read now) or a
/// ``phutball.Network``; with a network, a position of a board size it
/// does not serve raises ``NetworkError``.
#[pyclass(name = "Engine", module = "phutball", frozen)]
pub(crate) struct PyEngine {
    inner: Engine,
}

/// The `jobs=` argument: `None` (every core) or a positive thread count.
fn jobs_arg(jobs: Option<&Int>) -> PyResult<usize> {
    Ok(match jobs {
        None => default_jobs(),
        Some(j) => j.within("jobs", 1, u32::MAX)? as usize,
    })
}

/// The engine limits of `time=` (read by [`move_time_arg`]), `depth=`,
/// `nodes=` and `threads=`, checked by the engine's table of their ranges
/// ([`LimitSetting`]).
fn limits_arg(
    time: Option<Duration>,
    depth: Option<&Int>,
    nodes: Option<&Int>,
    threads: &Int,
) -> PyResult<Limits> {
    let read = |value: Option<&Int>, setting: LimitSetting| {
        value.map(|v| v.limit(setting, setting.name())).transpose()
    };
    let depth = read(depth, LimitSetting::Depth)?;
    let nodes = read(nodes, LimitSetting::Nodes)?;
    let threads = threads.limit(LimitSetting::Threads, "threads")?;
    // Within their ranges, depth and threads fit a u32 (at most 64); no
    // limit at all is the engine's default (a second a move).
    Ok(Limits::new(time, depth.map(|d| d as u32), nodes).with_threads(threads as u32))
}

/// The `seed=` argument: an int from 0 to 2**64 - 1.
fn seed_arg(seed: &Int) -> PyResult<u64> {
    seed.within("seed", 0, u64::MAX)
}

/// What the engine searches: a lone position, or a game whose earlier
/// positions the engine's history guard avoids going back to.
enum Searched {
    Position(Position),
    Game(phutball::Game),
}

/// The `pos` argument of `best_move`/`analyse`: a `phutball.Game`, a
/// `phutball.Position` or a position string.
fn searched_arg(obj: &Bound<'_, PyAny>) -> PyResult<Searched> {
    if let Ok(game) = obj.cast::<PyGame>() {
        return Ok(Searched::Game(game.borrow().inner().clone()));
    }
    if obj.cast::<PyPosition>().is_err() && obj.extract::<String>().is_err() {
        return Err(PyTypeError::new_err(format!(
            "pos must be a phutball.Game, a phutball.Position or a position string, not {}",
            type_name(obj)
        )));
    }
    position_arg(obj).map(Searched::Position)
}

impl PyEngine {
    fn search(
        &self,
        py: Python<'_>,
        searched: &Searched,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Analysis> {
        let engine = &self.inner;
        run(
            py,
            BudgetKeywords::timeout(timeout)?,
            |budget| match searched {
                Searched::Position(pos) => engine.analyse_within(pos, budget),
                Searched::Game(game) => engine.analyse_game_within(game, budget),
            },
        )
    }
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(
        signature = (time_ms=None, depth=None, nodes=None, seed=Int::of(1), threads=Int::of(1), *, time=None, eval=None),
        text_signature = "(time_ms=None, depth=None, nodes=None, seed=1, threads=1, *, time=None, eval='auto')"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        #[pyo3(from_py_with = int::time_ms_or_none)] time_ms: Option<Int>,
        #[pyo3(from_py_with = int::depth_or_none)] depth: Option<Int>,
        #[pyo3(from_py_with = int::nodes_or_none)] nodes: Option<Int>,
        #[pyo3(from_py_with = int::seed)] seed: Int,
        #[pyo3(from_py_with = int::threads)] threads: Int,
        time: Option<&Bound<'_, PyAny>>,
        eval: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let time = move_time_arg(py, time, time_ms.as_ref(), ("time", "time_ms"))?;
        let limits = limits_arg(time, depth.as_ref(), nodes.as_ref(), &threads)?;
        let evaluation = evaluation_arg(py, eval, "eval")?;
        Ok(PyEngine {
            inner: Engine::new(limits, seed_arg(&seed)?).with_evaluation(evaluation),
        })
    }

    /// Its evaluation: ``"auto"``, ``"hand"`` or its ``Network``.
    #[getter]
    fn eval(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        evaluation_to_py(py, self.inner.evaluation())
    }

    /// Analyses every position of ``positions`` (``Position`` objects or
    /// position strings) on ``jobs`` threads (``None``: every core), each
    /// with an engine of its own with these limits, seed and evaluation, and answers
    /// per position, in input order: its ``Analysis``, or, in the place of
    /// a position with no move to choose, the ``ValueError`` that
    /// ``analyse`` would raise for it (returned, not raised, as
    /// ``asyncio.gather(return_exceptions=True)`` does). Something that is
    /// not a position raises ``TypeError`` or ``ParseError`` before any
    /// search; ``timeout`` (``SearchTimeoutError``) and Ctrl-C
    /// (``KeyboardInterrupt``) stop the whole batch and raise. Without
    /// ``time``, and with one thread per search, the answers do not
    /// depend on ``jobs``.
    #[pyo3(signature = (positions, jobs=None, *, timeout=None))]
    fn analyse_many(
        &self,
        py: Python<'_>,
        positions: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = int::jobs_or_none)] jobs: Option<Int>,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let batch = positions
            .try_iter()?
            .map(|obj| position_arg(&obj?))
            .collect::<PyResult<Vec<Position>>>()?;
        let jobs = jobs_arg(jobs.as_ref())?;
        let engine = &self.inner;
        let answers = run_threaded(py, BudgetKeywords::timeout(timeout)?, |budget| {
            engine.analyse_many(&batch, jobs, budget)
        })?;
        // The caller's stop ended the whole batch: it raises.
        if let Some(stop) = answers.iter().find_map(|answer| match answer {
            Err(stop @ EngineError::Interrupted(_)) => Some(stop.clone()),
            _ => None,
        }) {
            return Err(stop).or_raise();
        }
        answers
            .into_iter()
            .map(|answer| match answer {
                Ok(inner) => Ok(Py::new(py, PyAnalysis { inner })?.into_any()),
                Err(e) => Ok(exception(&e.into()).into_value(py).into_any()),
            })
            .collect()
    }

    /// The move to play in ``pos``: a ``Game`` (then the positions it has
    /// been through count as a slight loss, so the engine avoids going round
    /// in circles), a ``Position`` or a position string. Raises
    /// ``ValueError`` when there is none (the game is over).
    ///
    /// The engine's limits end the search with a move. ``timeout`` seconds
    /// (``None``: none) are a hard stop on top of them: past it the call
    /// raises ``SearchTimeoutError`` instead of answering. Ctrl-C raises
    /// ``KeyboardInterrupt``.
    #[pyo3(signature = (pos, *, timeout=None))]
    fn best_move(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyMove> {
        Ok(PyMove::from(
            self.search(py, &searched_arg(pos)?, timeout)?.best_move,
        ))
    }

    /// Searches ``pos`` (a ``Game``, ``Position`` or position string, as in
    /// ``best_move``) and returns an ``Analysis`` (best move, score, depth,
    /// nodes, principal variation). Raises as ``best_move`` does:
    /// ``ValueError`` if there is no move, ``SearchTimeoutError`` past
    /// ``timeout``, ``KeyboardInterrupt`` on Ctrl-C.
    #[pyo3(signature = (pos, *, timeout=None))]
    fn analyse(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAnalysis> {
        Ok(PyAnalysis {
            inner: self.search(py, &searched_arg(pos)?, timeout)?,
        })
    }

    /// ``analyse`` for the current position of ``game`` (a ``Game``), with
    /// the history guard. Raises ``TypeError`` for anything but a ``Game``,
    /// and as ``analyse`` does: ``ValueError``, ``SearchTimeoutError``,
    /// ``KeyboardInterrupt``.
    #[pyo3(signature = (game, *, timeout=None))]
    fn analyse_game(
        &self,
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAnalysis> {
        let game = game.cast::<PyGame>().map_err(|_| {
            PyTypeError::new_err(format!(
                "game must be a phutball.Game, not {}",
                type_name(game)
            ))
        })?;
        let searched = Searched::Game(game.borrow().inner().clone());
        Ok(PyAnalysis {
            inner: self.search(py, &searched, timeout)?,
        })
    }

    /// Pickles as its settings, ``Engine(None, depth, nodes, seed, threads,
    /// time=time, eval=eval)`` (an engine keeps nothing between searches
    /// that changes its answers): the arguments by position, ``time`` and
    /// ``eval`` (``"auto"``, ``"hand"`` or the ``Network``) by keyword.
    fn __getnewargs_ex__(
        &self,
        py: Python<'_>,
    ) -> PyResult<(EngineArgs, HashMap<&'static str, Py<PyAny>>)> {
        let limits = self.inner.limits();
        let time = limits.time.map(|t| t.as_secs_f64());
        Ok((
            (
                None,
                limits.depth,
                limits.nodes,
                self.inner.seed(),
                limits.threads,
            ),
            [
                ("time", time.into_pyobject(py)?.into_any().unbind()),
                ("eval", evaluation_to_py(py, self.inner.evaluation())?),
            ]
            .into_iter()
            .collect(),
        ))
    }

    fn __repr__(&self) -> String {
        let limits = self.inner.limits();
        let seconds = limits.time.map(|t| format!("{:?}", t.as_secs_f64()));
        let show = |v: Option<String>| v.unwrap_or_else(|| "None".to_string());
        // The default, auto, is left out.
        let eval = match self.inner.evaluation() {
            Evaluation::Auto => String::new(),
            Evaluation::Net(network) => {
                let sizes: Vec<String> = network.sizes().iter().map(ToString::to_string).collect();
                format!(", eval=<Network {}>", sizes.join(", "))
            }
            Evaluation::Hand => ", eval='hand'".to_string(),
        };
        format!(
            "Engine(time={}, depth={}, nodes={}, seed={}, threads={}{eval})",
            show(seconds),
            show(limits.depth.map(|d| d.to_string())),
            show(limits.nodes.map(|n| n.to_string())),
            self.inner.seed(),
            limits.threads
        )
    }
}

/// An engine's arguments by position, as it pickles: the deprecated
/// `time_ms` always `None` (its time goes by keyword), depth, nodes, seed
/// and threads.
type EngineArgs = (Option<u8>, Option<u32>, Option<u64>, u64, u32);

/// What an `Analysis` pickles as: best move, score kind and value, depth,
/// nodes, seconds, principal variation and decision.
type AnalysisState = (String, String, i64, u32, u64, f64, Vec<String>, String);

/// The result of ``Engine.analyse``.
#[pyclass(name = "Analysis", module = "phutball", frozen)]
pub(crate) struct PyAnalysis {
    inner: Analysis,
}

#[pymethods]
impl PyAnalysis {
    /// The move to play.
    #[getter]
    fn best_move(&self) -> PyMove {
        PyMove::from(self.inner.best_move.clone())
    }

    /// The evaluation in hundredths of a row of ball progress for the side
    /// to move, or ``None`` when the result is forced (see ``win_in``/``loss_in``).
    #[getter]
    fn score(&self) -> Option<i32> {
        eval_of(self.inner.score)
    }

    /// Plies until the side to move scores by force (1: this move), or ``None``.
    #[getter]
    fn win_in(&self) -> Option<u32> {
        win_of(self.inner.score)
    }

    /// Plies until the opponent scores by force, or ``None``.
    #[getter]
    fn loss_in(&self) -> Option<u32> {
        loss_of(self.inner.score)
    }

    /// The score as text: ``"+0.75"``, ``"win in 3"`` or ``"loss in 2"``.
    #[getter]
    fn score_text(&self) -> String {
        self.inner.score.to_string()
    }

    /// The deepest iteration completed, in plies (0 when no search was needed).
    #[getter]
    fn depth(&self) -> u32 {
        self.inner.depth
    }

    /// Positions examined.
    #[getter]
    fn nodes(&self) -> u64 {
        self.inner.nodes
    }

    /// Time taken, in seconds.
    #[getter]
    fn seconds(&self) -> f64 {
        self.inner.elapsed.as_secs_f64()
    }

    /// The expected continuation, starting with the best move.
    #[getter]
    fn pv(&self) -> Vec<PyMove> {
        moves_to_py(self.inner.pv.clone())
    }

    /// How the move was chosen: ``"scores"``, ``"only move"``,
    /// ``"all moves lose"`` or ``"searched"``.
    #[getter]
    fn decision(&self) -> &'static str {
        decision_name(self.inner.decision)
    }

    /// Pickles as its figures (``Analysis._restore`` reads them back).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (AnalysisState,))> {
        let a = &slf.get().inner;
        let (kind, value) = score_state(a.score);
        let state = (
            a.best_move.to_string(),
            kind.to_string(),
            value,
            a.depth,
            a.nodes,
            a.elapsed.as_secs_f64(),
            a.pv.iter().map(ToString::to_string).collect(),
            slf.get().decision().to_string(),
        );
        Ok((slf.get_type().getattr("_restore")?, (state,)))
    }

    /// An analysis from the figures of its pickle.
    #[staticmethod]
    fn _restore(state: AnalysisState) -> PyResult<Self> {
        let (best, kind, value, depth, nodes, seconds, pv, decision) = state;
        let bad = |what: &str| PyValueError::new_err(format!("not a pickled Analysis: {what}"));
        let (score, decision) = score_and_decision(&kind, value, &decision, bad)?;
        let parse = |m: &str| m.parse::<phutball::Move>().or_raise();
        Ok(PyAnalysis {
            inner: Analysis {
                best_move: parse(&best)?,
                score,
                depth,
                nodes,
                elapsed: std::time::Duration::try_from_secs_f64(seconds)
                    .map_err(|_| bad("seconds"))?,
                pv: pv.iter().map(|m| parse(m)).collect::<PyResult<_>>()?,
                decision,
            },
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Analysis(best_move={}, score={}, depth={}, nodes={}, decision={}, pv=[{}])",
            self.inner.best_move,
            self.inner.score,
            self.inner.depth,
            self.inner.nodes,
            self.decision(),
            self.pv_text()
        )
    }

    /// A small table for notebooks: best move, score, depth, nodes, how
    /// the move was chosen and the principal variation.
    fn _repr_html_(&self) -> String {
        // Notation and score text are letters, digits, signs and spaces:
        // nothing here needs HTML escaping.
        let rows = [
            ("best move", self.inner.best_move.to_string()),
            ("score", self.inner.score.to_string()),
            ("depth", self.inner.depth.to_string()),
            ("nodes", self.inner.nodes.to_string()),
            ("decision", self.decision().to_string()),
            ("principal variation", self.pv_text()),
        ];
        let body: String = rows
            .iter()
            .map(|(name, value)| {
                format!("<tr><th style=\"text-align:left\">{name}</th><td><code>{value}</code></td></tr>")
            })
            .collect();
        format!("<table class=\"phutball-analysis\">{body}</table>")
    }
}

impl PyAnalysis {
    /// The principal variation as space-separated moves.
    fn pv_text(&self) -> String {
        let pv: Vec<String> = self.inner.pv.iter().map(ToString::to_string).collect();
        pv.join(" ")
    }
}

/// One game of ``phutball.selfplay``: its index, seed, record, each
/// move's search and time.
#[pyclass(name = "SelfPlayGame", module = "phutball", frozen)]
pub(crate) struct PySelfPlayGame {
    inner: SelfPlayGame,
}

#[pymethods]
impl PySelfPlayGame {
    /// Its index in the run, from 0.
    #[getter]
    fn index(&self) -> usize {
        self.inner.index
    }

    /// Its seed, made from the run's seed and its index: Ohs's engine has
    /// this seed, Eks's the next.
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed
    }

    /// The game record (start, moves, result).
    #[getter]
    fn game(&self) -> PyGame {
        PyGame::from(self.inner.game.clone())
    }

    /// The search behind each move (``MoveAnalysis``), one per move of
    /// ``game`` in its order: score (from the mover's view), depth, nodes
    /// and decision.
    #[getter]
    fn analyses(&self) -> Vec<PyMoveAnalysis> {
        self.inner
            .analyses
            .iter()
            .map(|&inner| PyMoveAnalysis { inner })
            .collect()
    }

    /// Time taken, in seconds.
    #[getter]
    fn seconds(&self) -> f64 {
        self.inner.elapsed.as_secs_f64()
    }

    /// Pickles as its index, seed, game, seconds and each move's analysis.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        (usize, u64, PyGame, f64, Vec<MoveAnalysisState>),
    )> {
        let g = &slf.get().inner;
        let analyses = slf
            .get()
            .analyses()
            .iter()
            .map(PyMoveAnalysis::state)
            .collect();
        Ok((
            slf.get_type().getattr("_restore")?,
            (
                g.index,
                g.seed,
                PyGame::from(g.game.clone()),
                g.elapsed.as_secs_f64(),
                analyses,
            ),
        ))
    }

    /// A game of a run from the parts of its pickle.
    #[staticmethod]
    fn _restore(
        index: usize,
        seed: u64,
        game: &PyGame,
        seconds: f64,
        analyses: Vec<MoveAnalysisState>,
    ) -> PyResult<Self> {
        let bad = |what: &str| PyValueError::new_err(format!("not a pickled SelfPlayGame: {what}"));
        let game = game.inner().clone();
        let analyses: Vec<_> = analyses
            .into_iter()
            .map(|state| PyMoveAnalysis::from_state(state).map(|a| a.inner))
            .collect::<PyResult<_>>()?;
        if analyses.len() != game.moves().len() {
            return Err(bad("not one analysis per move"));
        }
        Ok(PySelfPlayGame {
            inner: SelfPlayGame {
                index,
                seed,
                game,
                analyses,
                elapsed: std::time::Duration::try_from_secs_f64(seconds)
                    .map_err(|_| bad("seconds"))?,
            },
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "SelfPlayGame(index={}, seed={}, result={:?}, plies={})",
            self.inner.index,
            self.inner.seed,
            self.inner.game.result().to_string(),
            self.inner.game.moves().len()
        )
    }
}

/// Plays ``games`` engine-against-engine games on ``jobs`` threads
/// (``None``: every core) and returns them in order as ``SelfPlayGame``:
/// games ``start`` to ``start + games - 1`` of the run (so a run split into
/// ranges plays the same games as one run). Game ``i`` starts from ``openings[i % len(openings)]`` (default: the
/// standard start), or with ``random_openings=True`` (no ``openings``) from
/// ``random_opening(seed_i, 0)``, where ``seed_i`` is the game's
/// ``SelfPlayGame.seed``: an opening of its own for each game. It ends at a
/// goal or after ``move_limit`` moves (a draw),
/// and is seeded from ``seed`` and ``i``: without ``time`` every game is
/// reproducible and does not depend on ``jobs``. Each game keeps each
/// move's search (``SelfPlayGame.analyses``). Each move uses
/// ``time``/``depth``/``nodes`` as ``Engine`` (0.1 s when none is given;
/// ``time_ms``, milliseconds, is the deprecated spelling of ``time``).
/// ``eval`` is both engines' evaluation, as ``Engine``'s (``"auto"``,
/// ``"hand"``, ``"net"``, ``"net:PATH"`` or a ``Network``); an opening of a board size its network
/// does not serve raises ``NetworkError`` before any game is played.
/// ``timeout`` (seconds, for the whole run) raises ``SearchTimeoutError``;
/// Ctrl-C raises ``KeyboardInterrupt``. The GIL is released.
#[pyfunction]
#[pyo3(
    signature = (games, *, start=Int::of(0), jobs=None, time=None, depth=None, nodes=None, seed=Int::of(1), openings=None, move_limit=Int::of(300), timeout=None, time_ms=None, random_openings=false, eval=None),
    text_signature = "(games, *, start=0, jobs=None, time=None, depth=None, nodes=None, seed=1, openings=None, move_limit=300, timeout=None, time_ms=None, random_openings=False, eval='auto')"
)]
#[allow(clippy::too_many_arguments)]
fn selfplay(
    py: Python<'_>,
    #[pyo3(from_py_with = int::games)] games: Int,
    #[pyo3(from_py_with = int::start)] start: Int,
    #[pyo3(from_py_with = int::jobs_or_none)] jobs: Option<Int>,
    time: Option<&Bound<'_, PyAny>>,
    #[pyo3(from_py_with = int::depth_or_none)] depth: Option<Int>,
    #[pyo3(from_py_with = int::nodes_or_none)] nodes: Option<Int>,
    #[pyo3(from_py_with = int::seed)] seed: Int,
    openings: Option<&Bound<'_, PyAny>>,
    #[pyo3(from_py_with = int::move_limit)] move_limit: Int,
    timeout: Option<&Bound<'_, PyAny>>,
    #[pyo3(from_py_with = int::time_ms_or_none)] time_ms: Option<Int>,
    random_openings: bool,
    eval: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<PySelfPlayGame>> {
    let games: usize = games.within("games", 0, u32::MAX)? as usize;
    let start: usize = start.within("start", 0, u32::MAX)? as usize;
    let move_limit = move_limit.within("move_limit", 0, u32::MAX)?;
    let seed = seed_arg(&seed)?;
    let time = move_time_arg(py, time, time_ms.as_ref(), ("time", "time_ms"))?;
    let limits = match (&time, &depth, &nodes) {
        (None, None, None) => Limits::time(SelfPlay::DEFAULT_MOVE_TIME),
        _ => limits_arg(time, depth.as_ref(), nodes.as_ref(), &Int::of(1))?,
    };
    let run = match (openings, random_openings) {
        (Some(_), true) => {
            return Err(PyValueError::new_err(
                "give openings or random_openings=True, not both",
            ))
        }
        (None, true) => SelfPlay::random_openings(limits, seed, move_limit),
        (openings, false) => {
            let openings = match openings {
                None => vec![Position::standard()],
                Some(list) => list
                    .try_iter()?
                    .map(|obj| position_arg(&obj?))
                    .collect::<PyResult<Vec<Position>>>()?,
            };
            SelfPlay::new(openings, limits, seed, move_limit)
                .map_err(|e| PyValueError::new_err(e.to_string()))?
        }
    };
    let evaluation = evaluation_arg(py, eval, "eval")?;
    let run = run.with_evaluation(evaluation).map_err(|e| match e {
        OpeningError::NotServed { .. } => crate::errors::NetworkError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    })?;
    let end = start.checked_add(games).ok_or_else(|| {
        PyValueError::new_err(format!("start + games is too large: {start} + {games}"))
    })?;
    let jobs = jobs_arg(jobs.as_ref())?;
    let played = run_threaded(py, BudgetKeywords::timeout(timeout)?, |budget| {
        // Every game runs to its end: stopping the others at a first failure
        // would make them fail as "cancelled", which reads as Ctrl-C. The
        // timeout and Ctrl-C stop them all through the budget anyway.
        run.play_range(start..end, jobs, budget, |_, _| true)
    })?;
    played
        .into_iter()
        .map(|result| match result {
            Ok(inner) => Ok(PySelfPlayGame { inner }),
            Err(MatchError::Player(e)) => Err(e).or_raise(),
            Err(other) => Err(PyValueError::new_err(other.to_string())),
        })
        .collect()
}

/// Opening ``index`` of the openings seeded with ``seed``: the standard
/// start after four random placements within three points of the ball (Ohs
/// to move). Each placement is on a random vacant point at most three
/// points from the ball along each axis, the sides taking turns; ``seed``
/// and ``index`` are ints from 0 to 2**64 - 1, and the same ones give the
/// same opening; the strength ladder's game pair ``i`` starts from
/// ``random_opening(seed, i)``, and game ``i`` of
/// ``selfplay(random_openings=True)`` from ``random_opening(g.seed, 0)``
/// (``g`` its ``SelfPlayGame``). For a small ``seed`` neighbouring
/// indices share men (with seeds 0 and 1, opening ``i + 2`` three of its
/// four with opening ``i``): give a well-mixed seed for unrelated openings.
#[pyfunction]
#[pyo3(signature = (seed, index))]
fn random_opening(
    #[pyo3(from_py_with = int::seed)] seed: Int,
    #[pyo3(from_py_with = int::index)] index: Int,
) -> PyResult<PyPosition> {
    let seed = seed_arg(&seed)?;
    let index = index.within("index", 0, u64::MAX)?;
    let index = usize::try_from(index)
        .map_err(|_| PyValueError::new_err(format!("index is too large: {index}")))?;
    Ok(PyPosition::from(engine_random_opening(seed, index)))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEngine>()?;
    m.add_class::<PyAnalysis>()?;
    m.add_class::<PyMoveAnalysis>()?;
    m.add_class::<PySelfPlayGame>()?;
    m.add_function(wrap_pyfunction!(selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(random_opening, m)?)
}
