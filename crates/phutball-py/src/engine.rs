//! `phutball.Engine` and `phutball.Analysis`: the engine's search from Python,
//! with the GIL released while it searches.

use std::time::Duration;

use phutball::Position;
use phutball_engine::{Analysis, Decision, Engine, Limits, Score, MAX_THREADS};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::bounds::{run, Bounds};
use crate::errors::OrRaise;
use crate::moves::{moves_to_py, PyMove};
use crate::position::PyPosition;

/// A Phutball engine. ``Engine(time_ms=None, depth=None, nodes=None, seed=1,
/// threads=1)``: the search stops at the first limit reached (one second per
/// move when no limit is given) and answers with a move; ``threads`` (1 to
/// 64) search each move together, sharing one table. ``depth`` alone bounds the search
/// only by its depth, which can take very long: ``best_move`` and ``analyse``
/// also take ``timeout=`` (seconds), a hard stop that raises
/// ``SearchTimeoutError``, and Ctrl-C raises ``KeyboardInterrupt``. Without
/// ``time_ms``, and with one thread, the choice depends only on the
/// position, the limits and ``seed``. The GIL is released while it searches.
#[pyclass(name = "Engine", module = "phutball", frozen)]
pub(crate) struct PyEngine {
    inner: Engine,
}

/// A positive limit, or a ValueError naming it.
fn positive(name: &str, value: Option<i64>) -> PyResult<Option<u64>> {
    match value {
        None => Ok(None),
        Some(v) if v > 0 => Ok(Some(v as u64)),
        Some(v) => Err(PyValueError::new_err(format!(
            "{name} must be a positive integer or None, not {v}"
        ))),
    }
}

/// The position argument: a `phutball.Position` or a position string.
fn position_arg(obj: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(p) = obj.cast::<PyPosition>() {
        return Ok(p.get().inner);
    }
    let text: String = obj.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "pos must be a phutball.Position or a position string, not {}",
            obj.get_type()
                .name()
                .map_or_else(|_| "that".to_string(), |n| n.to_string())
        ))
    })?;
    text.parse::<Position>().or_raise()
}

impl PyEngine {
    fn search(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Analysis> {
        let pos = position_arg(pos)?;
        let engine = &self.inner;
        run(py, Bounds::timeout(timeout)?, |budget| {
            engine.analyse_within(&pos, budget)
        })
    }
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (time_ms=None, depth=None, nodes=None, seed=1, threads=1))]
    fn new(
        time_ms: Option<i64>,
        depth: Option<i64>,
        nodes: Option<i64>,
        seed: u64,
        threads: i64,
    ) -> PyResult<Self> {
        let time = positive("time_ms", time_ms)?.map(Duration::from_millis);
        let depth = positive("depth", depth)?.map(|d| d.min(u64::from(u32::MAX)) as u32);
        let nodes = positive("nodes", nodes)?;
        let threads = match u32::try_from(threads) {
            Ok(n) if (1..=MAX_THREADS).contains(&n) => n,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "threads must be an integer from 1 to {MAX_THREADS}, not {threads}"
                )))
            }
        };
        let limits = Limits::new(time, depth, nodes).with_threads(threads);
        Ok(PyEngine {
            inner: Engine::new(limits, seed),
        })
    }

    /// The move to play in ``pos`` (a ``Position`` or a position string).
    /// Raises ``ValueError`` when there is none (the game is over, or a jump
    /// move is under way).
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
        Ok(PyMove::from(self.search(py, pos, timeout)?.best_move))
    }

    /// Searches ``pos`` and returns an ``Analysis``: the best move, its score,
    /// the depth reached, the nodes searched and the principal variation.
    /// ``timeout`` and Ctrl-C as in ``best_move``.
    #[pyo3(signature = (pos, *, timeout=None))]
    fn analyse(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAnalysis> {
        Ok(PyAnalysis {
            inner: self.search(py, pos, timeout)?,
        })
    }

    fn __repr__(&self) -> String {
        let limits = self.inner.limits();
        let ms = limits.time.map(|t| t.as_millis().to_string());
        let show = |v: Option<String>| v.unwrap_or_else(|| "None".to_string());
        format!(
            "Engine(time_ms={}, depth={}, nodes={}, seed={}, threads={})",
            show(ms),
            show(limits.depth.map(|d| d.to_string())),
            show(limits.nodes.map(|n| n.to_string())),
            self.inner.seed(),
            limits.threads
        )
    }
}

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
        match self.inner.score {
            Score::Eval(v) => Some(v),
            _ => None,
        }
    }

    /// Plies until the side to move scores by force (1: this move), or ``None``.
    #[getter]
    fn win_in(&self) -> Option<u32> {
        match self.inner.score {
            Score::Win { plies } => Some(plies),
            _ => None,
        }
    }

    /// Plies until the opponent scores by force, or ``None``.
    #[getter]
    fn loss_in(&self) -> Option<u32> {
        match self.inner.score {
            Score::Loss { plies } => Some(plies),
            _ => None,
        }
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
        match self.inner.decision {
            Decision::Scores => "scores",
            Decision::OnlyMove => "only move",
            Decision::AllMovesLose => "all moves lose",
            Decision::Searched => "searched",
        }
    }

    fn __repr__(&self) -> String {
        let pv: Vec<String> = self.inner.pv.iter().map(ToString::to_string).collect();
        format!(
            "Analysis(best_move={}, score={}, depth={}, nodes={}, pv=[{}])",
            self.inner.best_move,
            self.inner.score,
            self.inner.depth,
            self.inner.nodes,
            pv.join(" ")
        )
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEngine>()?;
    m.add_class::<PyAnalysis>()
}
