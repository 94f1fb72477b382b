//! The classes whose values several modules' methods take and return:
//! `Position`, `JumpInProgress` and `Tablebase`. Only the structs (and their
//! conversions) are here; each class's Python methods are in its own
//! module (`position.rs`, `jump_in_progress.rs`, `tablebase.rs`), which can
//! then use one another's classes without an import loop. The reader of a
//! position argument (`position_arg`, `type_name`) is here for the same
//! reason: the engine and the network both take one.

use phutball::{JumpInProgress, Position, StepState};
use phutball_solver::Tablebase;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::errors::OrRaise;

/// A position: board size, men, ball, side to move and rules. Immutable,
/// hashable and comparable with ``==``; playing returns a new position.
///
/// ``Position()`` is the standard start; ``Position(text)`` parses a position
/// string (``str(pos)`` gives it back), or ``"start"`` / ``"start:COLSxROWS"``
/// (the start on that board), as the CLI and C read them. ``rules=`` sets the rule options (the
/// string does not record them). A position is always at the start of a move:
/// a jump move made one jump at a time is a ``JumpInProgress``, and
/// ``mid_jump=True`` raises ``InvalidPositionError`` saying so.
#[pyclass(name = "Position", module = "phutball", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PyPosition {
    pub(crate) inner: Position,
}

impl From<Position> for PyPosition {
    fn from(inner: Position) -> Self {
        PyPosition { inner }
    }
}

impl PyPosition {
    /// The position as a state of step-by-step play.
    pub(crate) fn state(&self) -> StepState {
        self.inner.into()
    }
}

/// A jump move under way: the board as it stands (the same side still to
/// move), the point the move started from and the men removed so far. Made by
/// ``Position.apply_jump`` or a jump action of ``Position.apply_action``, or
/// from its text form: ``JumpInProgress(text, rules=None)``, where ``text`` is
/// the board's position string followed by ``| jump from K6 removed J7,H8``
/// (``str(jump)`` gives it back). Immutable, hashable, comparable with ``==``.
///
/// It answers the questions a ``Position`` does for step-by-step play
/// (``legal_actions``, ``apply_action``, ``planes``, ``winner`` ...), so an
/// environment can hold either.
#[pyclass(name = "JumpInProgress", module = "phutball", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PyJumpInProgress {
    pub(crate) inner: JumpInProgress,
}

impl From<JumpInProgress> for PyJumpInProgress {
    fn from(inner: JumpInProgress) -> Self {
        PyJumpInProgress { inner }
    }
}

impl PyJumpInProgress {
    pub(crate) fn state(&self) -> StepState {
        self.inner.into()
    }
}

/// The exact value of every position of a tiny board (at most 32 points)
/// under one off-board rule, computed by retrograde analysis: wins in the
/// fewest plies, losses in the most, and draws.
///
/// ``Tablebase.build(cols, rows)`` computes it (``4x4`` in a fraction of a
/// second, ``3x7`` in seconds); ``save``/``load`` and
/// ``to_bytes``/``from_bytes`` keep it in the solver's versioned binary
/// format. Immutable.
#[pyclass(name = "Tablebase", module = "phutball", frozen)]
pub(crate) struct PyTablebase {
    pub(crate) inner: Tablebase,
}

/// What a class that pickles as its bytes (`Tablebase`, `Network`)
/// answers to `__reduce__`: its class's `from_bytes` and `bytes`.
pub(crate) fn reduce_to_bytes<'py>(
    slf: &Bound<'py, PyAny>,
    bytes: &[u8],
) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
    Ok((
        slf.get_type().getattr("from_bytes")?,
        (PyBytes::new(slf.py(), bytes),),
    ))
}

/// The name of `obj`'s type, for the `TypeError`s of bad arguments.
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "that".to_string(), |n| n.to_string())
}

/// The position argument: a `phutball.Position` or a position string.
pub(crate) fn position_arg(obj: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(p) = obj.cast::<PyPosition>() {
        return Ok(p.get().inner);
    }
    let text: String = obj.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "pos must be a phutball.Position or a position string, not {}",
            type_name(obj)
        ))
    })?;
    text.parse::<Position>().or_raise()
}
