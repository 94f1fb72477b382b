//! The reinforcement-learning encodings: the action mask and action lists of
//! the core's action space, and the board as numpy planes, for either state of
//! step-by-step play (a `Position` or a `JumpInProgress`).

use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1, PyArray3};
use phutball::{Action, BoardSize, Move, Position, StepState, PLANE_COUNT};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::{IllegalMoveError, OrRaise};
use crate::jump_in_progress::PyJumpInProgress;
use crate::position::PyPosition;

pub(crate) fn legal_action_mask<'py>(
    py: Python<'py>,
    state: &StepState,
) -> Bound<'py, PyArray1<bool>> {
    PyArray1::from_vec(py, state.legal_action_mask())
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
