//! `phutball.Move`: a placement or a jump path, as an immutable value.

use phutball::Move;
use pyo3::prelude::*;
use pyo3::types::PyType;

use crate::errors::OrRaise;

/// A move: a placement (``"H10"``) or a jump path (``"K6-G9-G11-J11"``).
///
/// ``Move(text)`` parses notation; ``str(move)`` gives it back. ``path`` is the
/// placement point, or the ball's start point followed by each landing.
#[pyclass(name = "Move", module = "phutball", frozen, eq, hash, ord)]
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct PyMove {
    pub(crate) inner: Move,
}

impl From<Move> for PyMove {
    fn from(inner: Move) -> Self {
        PyMove { inner }
    }
}

pub(crate) fn moves_to_py(moves: Vec<Move>) -> Vec<PyMove> {
    moves.into_iter().map(PyMove::from).collect()
}

#[pymethods]
impl PyMove {
    #[new]
    fn new(text: &str) -> PyResult<Self> {
        Ok(PyMove {
            inner: text.parse::<Move>().or_raise()?,
        })
    }

    /// The points of the move: the placement point, or the jump path.
    #[getter]
    fn path(&self) -> Vec<String> {
        self.inner.path().iter().map(ToString::to_string).collect()
    }

    /// Whether this is a jump move.
    #[getter]
    fn is_jump(&self) -> bool {
        self.inner.is_jump()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.inner)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String,)) {
        (slf.get_type(), (slf.get().inner.to_string(),))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMove>()
}
