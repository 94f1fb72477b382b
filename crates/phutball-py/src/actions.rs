//! The reinforcement-learning encodings: the action mask and action lists of
//! the core's action space, and the board as numpy planes, for either state of
//! step-by-step play (a `Position` or a `JumpInProgress`).

use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1, PyArray3};
use phutball::{Action, BoardSize, Move, Point, Position, Side, StepState};
use pyo3::prelude::*;

use crate::errors::{IllegalMoveError, OrRaise};
use crate::jump_in_progress::PyJumpInProgress;
use crate::position::PyPosition;

/// Channels of [`planes`]: men, ball, Ohs to move, jump under way, board points.
const PLANE_COUNT: usize = 5;

pub(crate) fn legal_action_mask<'py>(
    py: Python<'py>,
    state: &StepState,
) -> Bound<'py, PyArray1<bool>> {
    PyArray1::from_vec(py, state.legal_action_mask())
}

pub(crate) fn legal_action_indices(state: &StepState) -> Vec<usize> {
    let size = state.position().size();
    let mut indices: Vec<usize> = state
        .legal_actions()
        .into_iter()
        .filter_map(|a| size.action_index(a))
        .collect();
    indices.sort_unstable();
    indices
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

pub(crate) fn planes<'py>(
    py: Python<'py>,
    state: &StepState,
    relative: bool,
) -> Bound<'py, PyArray3<f32>> {
    let pos = &state.position();
    let turned = relative && pos.to_move() == Side::Eks;
    let view = if turned { pos.flip_rows() } else { *pos };
    let (cols, rows) = (pos.size().cols() as usize, pos.size().rows() as usize);
    let mut planes = Array3::<f32>::zeros((PLANE_COUNT, rows + 2, cols));
    let mut mark = |channel: usize, p: Point| {
        planes[[channel, p.row() as usize, p.col() as usize]] = 1.0;
    };
    for p in view.men() {
        mark(0, p);
    }
    mark(1, view.ball());
    if pos.to_move() == Side::Ohs {
        planes.index_axis_mut(numpy::ndarray::Axis(0), 2).fill(1.0);
    }
    if state.is_mid_jump() {
        planes.index_axis_mut(numpy::ndarray::Axis(0), 3).fill(1.0);
    }
    for p in pos.size().board_points() {
        planes[[4, p.row() as usize, p.col() as usize]] = 1.0;
    }
    planes.into_pyarray(py)
}
