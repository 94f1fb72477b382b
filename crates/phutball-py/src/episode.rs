//! `phutball.Episode` and `phutball.Transition`: the core's `Episode` (one
//! game of step-by-step play with its move limit, where the step and reward
//! rule is) for Python; the `PettingZoo` env (python/phutball/env.py) steps
//! one and keeps only `PettingZoo`'s bookkeeping.

use phutball::{BoardSize, Episode, EpisodeError, Position, StepState, Transition};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::actions::step_to_py;
use crate::classes::{PyJumpInProgress, PyPosition};
use crate::errors::{exception, IllegalMoveError, OrRaise};
use crate::notation::{action_arg, int, parse_side, Int};
use crate::rules::{rules_arg, PyRules};

/// One game of step-by-step play from ``start`` (a ``Position`` or a
/// ``JumpInProgress``; default: the standard start under ``rules``),
/// truncated after ``move_limit`` whole moves without a goal (``None``:
/// never). ``step(action)`` takes one action and returns a ``Transition``.
/// The rule: a placement or "end jump" passes the turn and counts one whole
/// move, a jump keeps it; a goal ends the episode with +1 to the scorer and
/// -1 to the other side (an own goal scores for the opponent); the move
/// limit ends it as a draw (reward 0). An ended episode takes no more
/// actions (``IllegalMoveError``). ``moves=`` resumes an episode after that
/// many whole moves (as its ``repr`` and pickling do).
#[pyclass(name = "Episode", module = "phutball", eq)]
#[derive(PartialEq)]
pub(crate) struct PyEpisode {
    inner: Episode,
}

/// The Python exception for an episode that cannot be made or stepped.
fn raise(e: EpisodeError) -> PyErr {
    match e {
        EpisodeError::Action(action) => exception(&action.into()),
        // A move after the game ended is illegal, as `Position.apply_action` on a finished position.
        EpisodeError::Over { .. } => IllegalMoveError::new_err(e.to_string()),
        EpisodeError::FinishedStart | EpisodeError::ZeroMoveLimit => {
            PyValueError::new_err(e.to_string())
        }
    }
}

/// A ``start=`` argument: a `Position`, a `JumpInProgress`, or `None` (the
/// standard start under `rules`).
fn start_arg(start: Option<&Bound<'_, PyAny>>, rules: Option<&PyRules>) -> PyResult<StepState> {
    let Some(start) = start else {
        return Ok(Position::start_with(BoardSize::STANDARD, rules_arg(rules))
            .or_raise()?
            .into());
    };
    if let Ok(pos) = start.cast::<PyPosition>() {
        return Ok(pos.get().inner.into());
    }
    if let Ok(jump) = start.cast::<PyJumpInProgress>() {
        return Ok(jump.get().state());
    }
    Err(PyTypeError::new_err(format!(
        "start must be a phutball.Position or JumpInProgress, not {}",
        start.get_type().name()?
    )))
}

#[pymethods]
impl PyEpisode {
    #[new]
    #[pyo3(
        signature = (start=None, *, move_limit=Some(Int::of(200)), rules=None, moves=Int::of(0)),
        text_signature = "(start=None, *, move_limit=200, rules=None, moves=0)"
    )]
    fn new(
        start: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = int::move_limit_or_none)] move_limit: Option<Int>,
        rules: Option<&PyRules>,
        #[pyo3(from_py_with = int::moves)] moves: Int,
    ) -> PyResult<Self> {
        let move_limit = move_limit
            .map(|l| l.within("move_limit", 1, u32::MAX))
            .transpose()?;
        let moves = moves.within("moves", 0, u32::MAX)?;
        let start = start_arg(start, rules)?;
        let inner = if moves == 0 {
            Episode::new(start, move_limit)
        } else {
            Episode::resume(start, moves, move_limit)
        };
        Ok(PyEpisode {
            inner: inner.map_err(raise)?,
        })
    }

    /// Pickling and copies: ``Episode(state, move_limit=..., moves=...)``.
    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let kwargs = PyDict::new(py);
        kwargs.set_item("move_limit", self.inner.move_limit())?;
        kwargs.set_item("moves", self.inner.moves())?;
        Ok((
            PyTuple::new(py, [step_to_py(py, self.inner.state())?])?,
            kwargs,
        ))
    }

    /// The state now: a ``Position`` at the start of a move, a
    /// ``JumpInProgress`` during one.
    #[getter]
    fn state(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        step_to_py(py, self.inner.state())
    }

    /// The whole moves played (actions that passed the turn).
    #[getter]
    fn moves(&self) -> u32 {
        self.inner.moves()
    }

    /// The whole moves after which the episode is truncated (``None``: never).
    #[getter]
    fn move_limit(&self) -> Option<u32> {
        self.inner.move_limit()
    }

    /// Whether the episode has ended (a goal or the move limit).
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// ``"O"`` or ``"X"``: the side to act.
    #[getter]
    fn to_move(&self) -> char {
        self.inner.state().to_move().char()
    }

    /// Takes action ``action`` (an int) and returns the ``Transition``.
    /// Raises ``IllegalMoveError`` for an action that cannot be taken or
    /// once the episode is over (the episode is then unchanged),
    /// ``TypeError`` for a non-int.
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<PyTransition> {
        let action = action_arg(action, self.inner.state().position().size())?;
        self.inner.step(action).map(PyTransition).map_err(raise)
    }

    /// ``Episode(<state's repr>, move_limit=..., moves=...)``: evaluates back.
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let limit = self
            .inner
            .move_limit()
            .map_or("None".to_string(), |l| l.to_string());
        let state = step_to_py(py, self.inner.state())?;
        Ok(format!(
            "Episode({}, move_limit={limit}, moves={})",
            state.bind(py).repr()?,
            self.inner.moves(),
        ))
    }
}

/// What one action of an ``Episode`` gave: the new ``state``, the side that
/// acted (``mover``), its ``reward``, and whether the episode ended with a
/// goal (``terminated``) or at the move limit (``truncated``).
#[pyclass(name = "Transition", module = "phutball", frozen)]
pub(crate) struct PyTransition(Transition);

#[pymethods]
impl PyTransition {
    /// The state after the action.
    #[getter]
    fn state(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        step_to_py(py, self.0.state)
    }

    /// ``"O"`` or ``"X"``: the side that took the action.
    #[getter]
    fn mover(&self) -> char {
        self.0.mover.char()
    }

    /// The mover's reward: +1.0 if it scored, -1.0 for an own goal, else 0.0.
    #[getter]
    fn reward(&self) -> f32 {
        self.0.reward
    }

    /// Whether the action ended the game with a goal.
    #[getter]
    fn terminated(&self) -> bool {
        self.0.terminated
    }

    /// Whether the game reached the move limit without a goal.
    #[getter]
    fn truncated(&self) -> bool {
        self.0.truncated
    }

    /// Whether the episode ended (``terminated or truncated``).
    #[getter]
    fn is_over(&self) -> bool {
        self.0.is_over()
    }

    /// ``"O"`` or ``"X"`` if the action won the game for that side, else ``None``.
    #[getter]
    fn winner(&self) -> Option<char> {
        self.0.state.winner().map(phutball::Side::char)
    }

    /// The reward of ``side`` (``"O"`` or ``"X"``): +1.0 if it won with this
    /// action, -1.0 if its opponent did, else 0.0. Raises ``ParseError``
    /// for another side.
    fn reward_for(&self, side: &str) -> PyResult<f32> {
        Ok(self.0.reward_for(parse_side(side)?))
    }

    #[allow(clippy::unused_self)]
    fn __reduce__(&self) -> PyResult<()> {
        Err(PyTypeError::new_err(
            "a Transition does not pickle: it is one step's answer; keep its fields \
             (state, mover, reward, terminated, truncated) or pickle the Episode",
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "<Transition mover={} reward={} terminated={} truncated={} state={:?}>",
            self.0.mover.char(),
            self.0.reward,
            if self.0.terminated { "True" } else { "False" },
            if self.0.truncated { "True" } else { "False" },
            self.0.state.to_string()
        )
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEpisode>()?;
    m.add_class::<PyTransition>()
}
