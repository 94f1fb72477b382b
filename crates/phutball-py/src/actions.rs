//! The reinforcement-learning encodings: the action mask and action lists of
//! the core's action space, and the board as numpy planes.

use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1, PyArray3};
use phutball::{Action, Move, Point, Position, Side};
use pyo3::prelude::*;

use crate::errors::{IllegalMoveError, OrRaise};

/// Channels of [`planes`]: men, ball, Ohs to move, jump under way, board points.
const PLANE_COUNT: usize = 5;

pub(crate) fn legal_action_mask<'py>(
    py: Python<'py>,
    pos: &Position,
) -> Bound<'py, PyArray1<bool>> {
    PyArray1::from_vec(py, pos.legal_action_mask())
}

pub(crate) fn legal_action_indices(pos: &Position) -> Vec<usize> {
    let size = pos.size();
    let mut indices: Vec<usize> = pos
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

pub(crate) fn describe_action(pos: &Position, index: usize) -> PyResult<String> {
    let size = pos.size();
    match size.action_at(index) {
        Some(Action::Place(p)) => Ok(format!("place {p}")),
        Some(Action::JumpTo(p)) => Ok(format!("jump to {p}")),
        Some(Action::EndJump) => Ok("end jump".to_string()),
        // Let the core word the error.
        None => pos
            .apply_action_index(index)
            .or_raise()
            .map(|_| String::new()),
    }
}

pub(crate) fn planes<'py>(
    py: Python<'py>,
    pos: &Position,
    relative: bool,
) -> Bound<'py, PyArray3<f32>> {
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
    if pos.is_mid_jump() {
        planes.index_axis_mut(numpy::ndarray::Axis(0), 3).fill(1.0);
    }
    for p in pos.size().board_points() {
        planes[[4, p.row() as usize, p.col() as usize]] = 1.0;
    }
    planes.into_pyarray(py)
}
