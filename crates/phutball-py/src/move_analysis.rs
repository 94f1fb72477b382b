//! `phutball.MoveAnalysis`, the search behind each move of a self-play
//! game, and the score and decision conversions it shares with
//! `phutball.Analysis` (the same getters, the same pickled figures).

use phutball_engine::{Decision, MoveAnalysis, Score};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The evaluation of `score`, `None` when the result is forced.
pub(crate) fn eval_of(score: Score) -> Option<i32> {
    match score {
        Score::Eval(v) => Some(v),
        _ => None,
    }
}

/// The plies of a forced win, or `None`.
pub(crate) fn win_of(score: Score) -> Option<u32> {
    match score {
        Score::Win { plies } => Some(plies),
        _ => None,
    }
}

/// The plies of a forced loss, or `None`.
pub(crate) fn loss_of(score: Score) -> Option<u32> {
    match score {
        Score::Loss { plies } => Some(plies),
        _ => None,
    }
}

/// A decision's name in Python: `"scores"`, `"only move"`, `"all moves
/// lose"` or `"searched"`.
pub(crate) fn decision_name(decision: Decision) -> &'static str {
    match decision {
        Decision::Scores => "scores",
        Decision::OnlyMove => "only move",
        Decision::AllMovesLose => "all moves lose",
        Decision::Searched => "searched",
    }
}

/// A score as it pickles: its kind (`"win"`, `"loss"` or `"eval"`) and value.
pub(crate) fn score_state(score: Score) -> (&'static str, i64) {
    match score {
        Score::Win { plies } => ("win", i64::from(plies)),
        Score::Loss { plies } => ("loss", i64::from(plies)),
        Score::Eval(v) => ("eval", i64::from(v)),
    }
}

/// The score and decision of a pickle, or what does not read (`bad`
/// makes the error, naming the class).
pub(crate) fn score_and_decision(
    kind: &str,
    value: i64,
    decision: &str,
    bad: impl Fn(&str) -> PyErr,
) -> PyResult<(Score, Decision)> {
    let plies = || u32::try_from(value).map_err(|_| bad("plies"));
    let score = match kind {
        "win" => Score::Win { plies: plies()? },
        "loss" => Score::Loss { plies: plies()? },
        "eval" => Score::Eval(i32::try_from(value).map_err(|_| bad("score"))?),
        _ => return Err(bad("score kind")),
    };
    let decision = match decision {
        "scores" => Decision::Scores,
        "only move" => Decision::OnlyMove,
        "all moves lose" => Decision::AllMovesLose,
        "searched" => Decision::Searched,
        _ => return Err(bad("decision")),
    };
    Ok((score, decision))
}

/// What a `MoveAnalysis` pickles as: score kind and value, depth, nodes
/// and decision.
pub(crate) type MoveAnalysisState = (String, i64, u32, u64, String);

/// The search behind one move of a ``SelfPlayGame`` (its ``analyses``):
/// what ``Analysis`` says of it, without the move (the game's), the
/// principal variation and the time. The score is from the view of the
/// side that made the move.
#[pyclass(name = "MoveAnalysis", module = "phutball", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct PyMoveAnalysis {
    pub(crate) inner: MoveAnalysis,
}

#[pymethods]
impl PyMoveAnalysis {
    /// The evaluation in hundredths of a row of ball progress for the side
    /// that moved, or ``None`` when the result is forced (see ``win_in``/``loss_in``).
    #[getter]
    fn score(&self) -> Option<i32> {
        eval_of(self.inner.score)
    }

    /// Plies until the side that moved scores by force (1: this move), or ``None``.
    #[getter]
    fn win_in(&self) -> Option<u32> {
        win_of(self.inner.score)
    }

    /// Plies until its opponent scores by force, or ``None``.
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

    /// How the move was chosen: ``"scores"``, ``"only move"``,
    /// ``"all moves lose"`` or ``"searched"``.
    #[getter]
    fn decision(&self) -> &'static str {
        decision_name(self.inner.decision)
    }

    /// Pickles as its figures (``MoveAnalysis._restore`` reads them back).
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (MoveAnalysisState,))> {
        Ok((slf.get_type().getattr("_restore")?, (slf.get().state(),)))
    }

    /// A move's analysis from the figures of its pickle.
    #[staticmethod]
    fn _restore(state: MoveAnalysisState) -> PyResult<Self> {
        PyMoveAnalysis::from_state(state)
    }

    fn __repr__(&self) -> String {
        format!(
            "MoveAnalysis(score={}, depth={}, nodes={}, decision={})",
            self.inner.score,
            self.inner.depth,
            self.inner.nodes,
            self.decision()
        )
    }
}

impl PyMoveAnalysis {
    /// Its figures, as it pickles.
    pub(crate) fn state(&self) -> MoveAnalysisState {
        let (kind, value) = score_state(self.inner.score);
        (
            kind.to_string(),
            value,
            self.inner.depth,
            self.inner.nodes,
            self.decision().to_string(),
        )
    }

    /// A move's analysis from its figures.
    pub(crate) fn from_state(state: MoveAnalysisState) -> PyResult<Self> {
        let (kind, value, depth, nodes, decision) = state;
        let bad = |what: &str| PyValueError::new_err(format!("not a pickled MoveAnalysis: {what}"));
        let (score, decision) = score_and_decision(&kind, value, &decision, bad)?;
        Ok(PyMoveAnalysis {
            inner: MoveAnalysis {
                score,
                depth,
                nodes,
                decision,
            },
        })
    }
}
