//! `phutball.Tablebase` and `phutball.Value`: the solver's retrograde
//! tablebases of tiny boards from Python. The tables are the solver
//! crate's; this module converts, and reads and writes the files.

use std::path::PathBuf;

use phutball::{Budget, SearchError};
use phutball_solver::{Tablebase, Value};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::budget::{run, run_threaded, BudgetKeywords, MemoryLimit};
use crate::classes::{reduce_to_bytes, PyPosition, PyTablebase};
use crate::errors::{solver_exception, tablebase_file_exception, tablebase_read_exception};
use crate::moves::{moves_to_py, PyMove};
use crate::notation::{int, limit_arg, size_arg, Int};
use crate::solver::os_error;

/// The exact value of a position for its side to move, from a
/// ``Tablebase``: ``result`` (``"win"``, ``"loss"`` or ``"draw"``) and
/// ``plies`` to the forced goal (``None`` for a draw). ``str(value)`` is
/// ``"win in 3"``, ``"loss in 2"`` or ``"draw"``. Immutable, hashable,
/// comparable with ``==``.
#[pyclass(name = "Value", module = "phutball", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PyValue {
    inner: Value,
}

#[pymethods]
// pyo3's methods take `&self` (a frozen class is borrowed from Python).
#[allow(clippy::trivially_copy_pass_by_ref)]
impl PyValue {
    /// ``"win"`` or ``"loss"`` for the side to move, or ``"draw"``.
    #[getter]
    fn result(&self) -> &'static str {
        match self.inner {
            Value::Win { .. } => "win",
            Value::Loss { .. } => "loss",
            Value::Draw => "draw",
        }
    }

    /// Plies (both sides' moves, the goal included) to the forced goal;
    /// ``None`` for a draw. 0 for a finished position.
    #[getter]
    fn plies(&self) -> Option<u32> {
        match self.inner {
            Value::Win { plies } | Value::Loss { plies } => Some(plies),
            Value::Draw => None,
        }
    }

    /// Whether a move to a position of value ``child`` (for its side to
    /// move, the opponent) keeps this value: a win stays a win (in any
    /// number of plies), a draw is not lost, a loss holds out its longest.
    /// The rule ``phutball.rl.exact_accuracy`` counts by (the solver's).
    fn is_kept_by(&self, child: &PyValue) -> bool {
        self.inner.is_kept_by(child.inner)
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    /// Pickles as its result and plies (``Value._restore``).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, Option<u32>))> {
        let v = slf.get();
        Ok((slf.get_type().getattr("_restore")?, (v.result(), v.plies())))
    }

    /// A value from the parts of its pickle.
    #[staticmethod]
    fn _restore(result: &str, plies: Option<u32>) -> PyResult<Self> {
        let inner = match (result, plies) {
            ("win", Some(plies)) => Value::Win { plies },
            ("loss", Some(plies)) => Value::Loss { plies },
            ("draw", None) => Value::Draw,
            _ => return Err(PyValueError::new_err("not a pickled Value")),
        };
        Ok(PyValue { inner })
    }

    fn __repr__(&self) -> String {
        format!("<Value: {}>", self.inner)
    }
}

impl From<Value> for PyValue {
    fn from(inner: Value) -> Self {
        PyValue { inner }
    }
}

/// The `jobs=` argument: `None` (every core) or a job count of at least 1.
fn jobs_arg(jobs: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    match limit_arg(jobs, "jobs")? {
        None => Ok(Tablebase::default_jobs()),
        // The solver's range, in a message that names the argument.
        Some(n) => Tablebase::check_jobs(usize::try_from(n).unwrap_or(usize::MAX))
            .map_err(|e| PyValueError::new_err(format!("jobs={n}: {e}"))),
    }
}

/// `Tablebase.load` and `from_bytes`: the table in `bytes`, or the exception
/// for what is wrong with them (named after `name`).
fn from_bytes(bytes: &[u8], name: Option<&str>) -> PyResult<Tablebase> {
    Tablebase::from_bytes(bytes).map_err(|e| tablebase_file_exception(&e, name))
}

#[pymethods]
impl PyTablebase {
    /// Builds the tablebase of a ``cols`` x ``rows`` board (at most 32
    /// points), under the continue-off-board rule when
    /// ``continue_off_board`` is true, on ``jobs`` threads (1 to 256;
    /// ``None``: every core; the values do not depend on it).
    ///
    /// Bounded: after ``timeout`` seconds (``None``: no timeout) it raises
    /// ``SearchTimeoutError``; a table and build over ``memory_limit``
    /// bytes (default ``DEFAULT_MEMORY_LIMIT``, 256 MiB; ``None``: no
    /// limit) raise ``MemoryLimitError``; Ctrl-C raises
    /// ``KeyboardInterrupt``. A board of more than 32 points raises
    /// ``ValueError``, a size no board has ``InvalidPositionError``.
    /// Releases the GIL.
    #[staticmethod]
    #[pyo3(signature = (cols, rows, *, continue_off_board=false, timeout=None, memory_limit=MemoryLimit::DEFAULT, jobs=None))]
    fn build(
        py: Python<'_>,
        #[pyo3(from_py_with = int::cols)] cols: Int,
        #[pyo3(from_py_with = int::rows)] rows: Int,
        continue_off_board: bool,
        timeout: Option<&Bound<'_, PyAny>>,
        memory_limit: MemoryLimit,
        jobs: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let size = size_arg(&cols, &rows)?;
        let jobs = jobs_arg(jobs)?;
        let budget_keywords = BudgetKeywords::new(timeout, memory_limit)?;
        let built = run_threaded(py, budget_keywords, |budget| {
            Tablebase::build_with_jobs_within(size, continue_off_board, jobs, budget, &mut |_| {})
        })?;
        Ok(PyTablebase {
            inner: built.map_err(|e| solver_exception(&e))?,
        })
    }

    /// Reads a table from the bytes of its file format (``to_bytes()``).
    /// Raises ``TablebaseFileError`` saying what is wrong with bytes that
    /// are not one (damaged, truncated, another version).
    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<Self> {
        Ok(PyTablebase {
            inner: from_bytes(data, None)?,
        })
    }

    /// Reads a table file written by ``save`` (or the CLI's ``phutball
    /// tablebase build --out``), its header checked before a value is read.
    /// Raises ``OSError`` when it cannot be read, ``TablebaseFileError``
    /// when it is not a table (bytes after the values included, found
    /// without reading them). A table over ``memory_limit`` bytes (default
    /// ``None``: no limit, the file's size being the caller's) raises
    /// ``MemoryLimitError`` before its values are read; after ``timeout``
    /// seconds it raises ``SearchTimeoutError``; Ctrl-C raises
    /// ``KeyboardInterrupt``. Releases the GIL.
    #[staticmethod]
    #[pyo3(signature = (path, *, timeout=None, memory_limit=MemoryLimit::NONE))]
    // pyo3 hands over the extracted arguments by value.
    #[allow(clippy::needless_pass_by_value)]
    fn load(
        py: Python<'_>,
        path: PathBuf,
        timeout: Option<&Bound<'_, PyAny>>,
        memory_limit: MemoryLimit,
    ) -> PyResult<Self> {
        let read = run(
            py,
            BudgetKeywords::new(timeout, memory_limit)?,
            |budget: &Budget<'_>| {
                Ok::<_, SearchError>(
                    std::fs::File::open(&path).map(|file| Tablebase::read_within(file, budget)),
                )
            },
        )?;
        let name = path.display().to_string();
        match read {
            Err(e) => Err(os_error(&e, &path)),
            Ok(read) => Ok(PyTablebase {
                inner: read.map_err(|e| tablebase_read_exception(&e, &name))?,
            }),
        }
    }

    /// The table in its file format: a 32-byte header, then a byte a state.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
    }

    /// Writes the table's file format to ``path`` through a temporary file
    /// renamed into place (an interrupted write leaves no half file).
    /// Raises ``OSError`` when it cannot write.
    // pyo3 hands over the extracted argument by value.
    #[allow(clippy::needless_pass_by_value)]
    fn save(&self, path: PathBuf) -> PyResult<()> {
        self.inner.save(&path).map_err(|e| os_error(&e, &path))
    }

    /// Whether ``position`` is of this table's board size and off-board rule.
    fn covers(&self, position: &PyPosition) -> bool {
        self.inner.covers(&position.inner)
    }

    /// The value of ``position`` for its side to move, a ``Value``, or
    /// ``None`` if the table does not cover it (another board size or
    /// off-board rule).
    fn probe(&self, position: &PyPosition) -> Option<PyValue> {
        self.inner.probe(&position.inner).map(PyValue::from)
    }

    /// A move that keeps the value of ``position``: the shortest win, else
    /// a drawing move, else the loss that holds out longest. ``None`` if
    /// the game is over or the table does not cover it.
    fn best_move(&self, position: &PyPosition) -> Option<PyMove> {
        self.inner.best_move(&position.inner).map(PyMove::from)
    }

    /// The best moves from ``position`` (``best_move`` played) until the
    /// game ends or ``max_plies`` moves are made (a draw goes on for ever).
    /// Raises ``ValueError`` for a negative ``max_plies``.
    fn line(&self, position: &PyPosition, max_plies: &Bound<'_, PyAny>) -> PyResult<Vec<PyMove>> {
        let max = limit_arg(Some(max_plies), "max_plies")?
            .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
        Ok(moves_to_py(self.inner.line(&position.inner, max)))
    }

    /// The position numbered ``index`` of the ``stats()["positions"]`` the
    /// table values (none over): below ``states``, Ohs to move; from
    /// there, the same ball and men with Eks to move. For enumerating or
    /// sampling the table's positions. Raises ``IndexError`` past them
    /// (negative indices too), ``TypeError`` for a non-int.
    fn position(&self, index: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        let count = self.inner.stats().positions;
        let found = index
            .extract::<i128>()?
            .try_into()
            .ok()
            .and_then(|i: u64| self.inner.position(i));
        found.map(PyPosition::from).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(format!(
                "position index {index} out of range: the table has {count} positions"
            ))
        })
    }

    /// The counts of the table's positions (either side to move, not over):
    /// ``positions``, ``wins``, ``losses``, ``draws``, and ``longest_win``
    /// and ``longest_loss`` in plies, as a dict.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.inner.stats();
        let dict = PyDict::new(py);
        dict.set_item("positions", s.positions)?;
        dict.set_item("wins", s.wins)?;
        dict.set_item("losses", s.losses)?;
        dict.set_item("draws", s.draws)?;
        dict.set_item("longest_win", s.longest_win)?;
        dict.set_item("longest_loss", s.longest_loss)?;
        Ok(dict)
    }

    /// The value of the start position of the table's board (the ball on
    /// the centre, Ohs to move).
    #[getter]
    fn start_value(&self) -> PyValue {
        self.inner.start_value().into()
    }

    /// Number of columns.
    #[getter]
    fn cols(&self) -> u8 {
        self.inner.size().cols()
    }

    /// Number of rows, goal line to goal line.
    #[getter]
    fn rows(&self) -> u8 {
        self.inner.size().rows()
    }

    /// Whether the values are for the continue-off-board rule.
    #[getter]
    fn continue_off_board(&self) -> bool {
        self.inner.continue_off_board()
    }

    /// The number of states stored: positions with Ohs to move, not over
    /// (each stands for its mirror image with Eks to move too).
    #[getter]
    fn states(&self) -> u64 {
        self.inner.states()
    }

    /// Pickles as its bytes (``to_bytes``), read back by ``from_bytes``.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        reduce_to_bytes(slf.as_any(), &slf.get().inner.to_bytes())
    }

    fn __repr__(&self) -> String {
        let rule = if self.inner.continue_off_board() {
            " continue-off-board"
        } else {
            ""
        };
        format!(
            "<Tablebase {}{rule}: {} states, the start is a {}>",
            self.inner.size(),
            self.inner.states(),
            self.inner.start_value()
        )
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyValue>()?;
    m.add_class::<PyTablebase>()
}
