//! The reinforcement-learning encodings: the action mask and action lists of
//! the core's action space, and the board as numpy planes, for either state of
//! step-by-step play (a `Position` or a `JumpInProgress`).

use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1, PyArray3, PyArrayMethods};
use phutball::{Action, BoardSize, Move, Position, SplitMix64, StepState, PLANE_COUNT};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::classes::{PyJumpInProgress, PyPosition};
use crate::errors::{IllegalMoveError, OrRaise};
use crate::notation::Int;

pub(crate) fn legal_action_mask<'py>(
    py: Python<'py>,
    state: &StepState,
) -> Bound<'py, PyArray1<bool>> {
    PyArray1::from_vec(py, state.legal_action_mask())
}

/// The core's uniformly random legal action of `state`, drawn by a
/// `SplitMix64` seeded with `seed` (0 to 2**64 - 1), or `None` once the game
/// is over. A fresh generator per draw: the caller's generator owns the
/// sequence (so its seeding fixes the draws), one draw of it per action.
pub(crate) fn random_legal_action(state: &StepState, seed: &Int) -> PyResult<Option<usize>> {
    let mut rng = SplitMix64::new(seed.within("seed", 0, u64::MAX)?);
    Ok(state.random_legal_action_index(&mut rng))
}

/// An observation: the planes and the int8 legal-action mask.
pub(crate) type PlanesAndMask<'py> = (Bound<'py, PyArray3<f32>>, Bound<'py, PyArray1<i8>>);

/// The planes of `state` and its legal-action mask as int8 (1 legal, 0
/// not), read-only, in one call: what the `PettingZoo` env observes, which
/// samples its own read-only mask from the state instead of reading it.
pub(crate) fn planes_and_mask<'py>(
    py: Python<'py>,
    state: &StepState,
    relative: bool,
) -> PyResult<PlanesAndMask<'py>> {
    let flags = state
        .legal_action_mask()
        .into_iter()
        .map(i8::from)
        .collect();
    let mask = PyArray1::from_vec(py, flags);
    mask.try_readwrite()
        .map_err(|e| PyValueError::new_err(format!("a new mask is borrowed: {e}")))?
        .make_nonwriteable();
    Ok((planes(py, state, relative)?, mask))
}

pub(crate) fn legal_action_indices(state: &StepState) -> Vec<usize> {
    state.legal_action_indices()
}

pub(crate) fn move_to_actions(pos: &Position, m: &Move) -> PyResult<Vec<usize>> {
    let size = pos.size();
    Action::of_move(m)
        .into_iter()
        .map(|a| {
            size.action_index(a).ok_or_else(|| {
                IllegalMoveError::new_err(format!(
                    "move {m} has a point that is not on the {size} board"
                ))
            })
        })
        .collect()
}

pub(crate) fn describe_action(size: BoardSize, index: usize) -> PyResult<String> {
    Ok(size.action_of_index(index).or_raise()?.to_string())
}

/// Takes action `index` and wraps the new state: a `Position` at the start
/// of a move, a `JumpInProgress` during one.
pub(crate) fn apply_action(py: Python<'_>, state: &StepState, index: usize) -> PyResult<Py<PyAny>> {
    step_to_py(py, state.apply_action_index(index).or_raise()?)
}

/// The Python object for a state of step-by-step play.
pub(crate) fn step_to_py(py: Python<'_>, state: StepState) -> PyResult<Py<PyAny>> {
    Ok(match state {
        StepState::Move(pos) => Py::new(py, PyPosition::from(pos))?.into_any(),
        StepState::Jump(jump) => Py::new(py, PyJumpInProgress::from(jump))?.into_any(),
    })
}

/// The core's planes of `state` (`phutball::PLANE_COUNT` channels of the
/// board with its strips), as a numpy array.
pub(crate) fn planes<'py>(
    py: Python<'py>,
    state: &StepState,
    relative: bool,
) -> PyResult<Bound<'py, PyArray3<f32>>> {
    let size = state.position().size();
    let shape = (PLANE_COUNT, size.rows() as usize + 2, size.cols() as usize);
    let planes = Array3::from_shape_vec(shape, state.planes(relative))
        .map_err(|e| PyValueError::new_err(format!("planes of the wrong shape: {e}")))?;
    Ok(planes.into_pyarray(py))
}
