//! `phutball.Move`: a placement or a jump path, as an immutable value; and
//! `phutball.MoveList`, the lists of moves the positions return.

use phutball::Move;
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PySequence, PySlice, PyTuple, PyType};

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

/// A `Move` object or move notation (`"H10"`, `"K6-G9-G11"`).
pub(crate) fn move_arg(obj: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(m) = obj.cast::<PyMove>() {
        return Ok(m.get().inner.clone());
    }
    if let Ok(text) = obj.extract::<String>() {
        return text.parse::<Move>().or_raise();
    }
    Err(PyTypeError::new_err(format!(
        "a move must be a phutball.Move or notation such as 'H10' or 'K6-G9', not {}",
        obj.get_type().name()?
    )))
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

/// A read-only list of moves, as ``Position.jump_paths()``, ``jump_outcomes()``,
/// ``legal_moves()`` and ``placements()`` return them: ``len``, indexing
/// (negative too) and slices (a ``MoveList``), iteration, ``in``, ``index``,
/// ``count``, and ``==`` with another ``MoveList`` or a list or tuple of
/// moves. Each ``Move`` object is made only when it is read, so a list of
/// a million jump paths costs about what the Rust core takes to find them.
/// ``list(moves)`` makes a plain list; ``MoveList(moves)`` one from moves or
/// notation. Unhashable, as a list.
#[pyclass(name = "MoveList", module = "phutball", frozen, sequence)]
pub(crate) struct PyMoveList {
    moves: Vec<Move>,
}

impl From<Vec<Move>> for PyMoveList {
    fn from(moves: Vec<Move>) -> Self {
        PyMoveList { moves }
    }
}

impl PyMoveList {
    /// The moves of `other`, if it is a `MoveList`, a list or a tuple of
    /// `Move`s (`None` for anything else, which is then not equal).
    fn moves_of(other: &Bound<'_, PyAny>) -> PyResult<Option<Vec<Move>>> {
        if let Ok(list) = other.cast::<PyMoveList>() {
            return Ok(Some(list.get().moves.clone()));
        }
        if !(other.is_instance_of::<PyList>() || other.is_instance_of::<PyTuple>()) {
            return Ok(None);
        }
        let mut moves = Vec::new();
        for item in other.cast::<PySequence>()?.try_iter()? {
            match item?.cast::<PyMove>() {
                Ok(m) => moves.push(m.get().inner.clone()),
                Err(_) => return Ok(None),
            }
        }
        Ok(Some(moves))
    }
}

/// The move `in`, `index` and `count` look for: a `Move`, or notation
/// parsed as every move argument is (a malformed string raises
/// `ParseError`); `None` for any other object, which is in no list.
fn sought(item: &Bound<'_, PyAny>) -> PyResult<Option<Move>> {
    if item.is_instance_of::<PyMove>() || item.is_instance_of::<pyo3::types::PyString>() {
        return move_arg(item).map(Some);
    }
    Ok(None)
}

#[pymethods]
impl PyMoveList {
    #[new]
    #[pyo3(signature = (moves=None))]
    fn new(moves: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let Some(moves) = moves else {
            return Ok(Vec::new().into());
        };
        let moves = moves
            .try_iter()?
            .map(|item| move_arg(&item?))
            .collect::<PyResult<Vec<Move>>>()?;
        Ok(moves.into())
    }

    fn __len__(&self) -> usize {
        self.moves.len()
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let len = self.moves.len();
        if let Ok(slice) = index.cast::<PySlice>() {
            let part = slice.indices(len as isize)?;
            let picked = (0..part.slicelength)
                .map(|i| self.moves[(part.start + i as isize * part.step) as usize].clone())
                .collect::<Vec<Move>>();
            return Ok(Bound::new(py, PyMoveList::from(picked))?.into_any());
        }
        let Ok(i) = index.extract::<isize>() else {
            if index.is_instance_of::<PyInt>() {
                return Err(PyIndexError::new_err(format!(
                    "MoveList index {index} out of range for {len} moves"
                )));
            }
            return Err(PyTypeError::new_err(format!(
                "MoveList indices must be integers or slices, not {}",
                index.get_type().name()?
            )));
        };
        let at = if i < 0 { i + len as isize } else { i };
        match usize::try_from(at).ok().and_then(|at| self.moves.get(at)) {
            Some(m) => Ok(Bound::new(py, PyMove::from(m.clone()))?.into_any()),
            None => Err(PyIndexError::new_err(format!(
                "MoveList index {i} out of range for {len} moves"
            ))),
        }
    }

    fn __iter__(slf: Bound<'_, Self>) -> MoveListIterator {
        MoveListIterator {
            list: slf.unbind(),
            next: 0,
        }
    }

    /// ``move in moves``: ``move`` is a ``Move`` or its notation
    /// (``"K6-G9"``); a string that is no move's notation raises
    /// ``ParseError``, anything else is not in the list.
    fn __contains__(&self, item: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(sought(item)?.is_some_and(|m| self.moves.contains(&m)))
    }

    /// The index of the first ``move`` (a ``Move`` or its notation) in the
    /// list; ``ValueError`` if none, ``ParseError`` for a string that is
    /// no move's notation.
    fn index(&self, r#move: &Bound<'_, PyAny>) -> PyResult<usize> {
        sought(r#move)?
            .and_then(|m| self.moves.iter().position(|x| *x == m))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{} is not in the list",
                    r#move
                        .repr()
                        .map_or_else(|_| "that".to_string(), |r| r.to_string())
                ))
            })
    }

    /// How many times ``move`` (a ``Move`` or its notation) is in the
    /// list; ``ParseError`` for a string that is no move's notation.
    fn count(&self, r#move: &Bound<'_, PyAny>) -> PyResult<usize> {
        Ok(sought(r#move)?.map_or(0, |m| self.moves.iter().filter(|x| **x == m).count()))
    }

    fn __richcmp__(
        &self,
        py: Python<'_>,
        other: &Bound<'_, PyAny>,
        op: CompareOp,
    ) -> PyResult<Py<PyAny>> {
        let wanted = match op {
            CompareOp::Eq => true,
            CompareOp::Ne => false,
            _ => return Ok(py.NotImplemented()),
        };
        let Some(moves) = Self::moves_of(other)? else {
            return Ok(py.NotImplemented());
        };
        let answer = (moves == self.moves) == wanted;
        Ok(answer.into_pyobject(py)?.to_owned().into_any().unbind())
    }

    fn __repr__(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(|m| format!("Move('{m}')")).collect();
        format!("MoveList([{}])", moves.join(", "))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (Vec<String>,)) {
        let text = slf.get().moves.iter().map(ToString::to_string).collect();
        (slf.get_type(), (text,))
    }
}

/// The iterator of a ``MoveList``: makes each ``Move`` as it is reached.
#[pyclass(name = "MoveListIterator", module = "phutball")]
pub(crate) struct MoveListIterator {
    list: Py<PyMoveList>,
    next: usize,
}

#[pymethods]
impl MoveListIterator {
    #[allow(clippy::unused_self)]
    fn __reduce__(&self) -> PyResult<()> {
        Err(PyTypeError::new_err(
            "a MoveListIterator does not pickle (as list iterators of other \
             extension types): pickle the MoveList",
        ))
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(mut slf: PyRefMut<'_, Self>) -> Option<PyMove> {
        let m = slf.list.get().moves.get(slf.next)?.clone();
        slf.next += 1;
        Some(PyMove::from(m))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMove>()?;
    m.add_class::<PyMoveList>()?;
    m.add_class::<MoveListIterator>()
}
