//! `phutball.Game`: a game with history, undo, result, move limit and the
//! text game record.

use phutball::{Game, GameResult};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

use crate::classes::PyPosition;
use crate::errors::OrRaise;
use crate::moves::move_arg;
use crate::moves::PyMove;
use crate::notation::limit_arg;

/// A game: a start position, the moves played and the positions they lead
/// to. ``Game()`` starts from the standard start; ``Game(start, move_limit=n)``
/// from a ``Position`` (or position string), drawn after ``n`` moves.
/// ``str(game)`` is the text game record; ``Game.from_record`` reads it back.
#[pyclass(name = "Game", module = "phutball", eq)]
#[derive(Clone, PartialEq)]
pub(crate) struct PyGame {
    inner: Game,
}

impl From<Game> for PyGame {
    fn from(inner: Game) -> PyGame {
        PyGame { inner }
    }
}

impl PyGame {
    /// The game itself, for the engine.
    pub(crate) fn inner(&self) -> &Game {
        &self.inner
    }

    /// The current position, for the pictures.
    fn current(&self) -> phutball::StepState {
        (*self.inner.position()).into()
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (start=None, move_limit=None))]
    fn new(
        start: Option<&Bound<'_, PyAny>>,
        move_limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let move_limit = limit_arg(move_limit, "move_limit")?
            .map(|l| {
                u32::try_from(l).map_err(|_| {
                    PyValueError::new_err(format!(
                        "move_limit must be None or an int from 0 to {}, not {}",
                        u32::MAX,
                        move_limit.map_or_else(|| l.to_string(), ToString::to_string)
                    ))
                })
            })
            .transpose()?;
        let start = match start {
            None => phutball::Position::standard(),
            Some(obj) => match obj.cast::<PyPosition>() {
                Ok(p) => p.get().inner,
                Err(_) => obj
                    .extract::<String>()
                    .map_err(|_| {
                        pyo3::exceptions::PyTypeError::new_err(
                            "start must be a phutball.Position or a position string",
                        )
                    })?
                    .parse::<phutball::Position>()
                    .or_raise()?,
            },
        };
        Ok(PyGame {
            inner: Game::new(start).with_move_limit(move_limit),
        })
    }

    /// Reads a text game record (every move is checked). Raises ``ParseError``.
    #[staticmethod]
    fn from_record(text: &str) -> PyResult<Self> {
        Ok(PyGame {
            inner: text.parse::<Game>().or_raise()?,
        })
    }

    /// Reads a game record from the file at ``path``. Raises ``OSError`` if
    /// the file does not read, ``ParseError`` if it is no game record.
    #[staticmethod]
    // pyo3 hands over the extracted argument by value.
    #[allow(clippy::needless_pass_by_value)]
    fn load(path: std::path::PathBuf) -> PyResult<Self> {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| PyOSError::new_err(format!("cannot read {}: {e}", path.display())))?;
        PyGame::from_record(&text)
    }

    /// Writes the game record to the file at ``path``. Raises ``OSError`` if
    /// it cannot.
    // pyo3 hands over the extracted argument by value.
    #[allow(clippy::needless_pass_by_value)]
    fn save(&self, path: std::path::PathBuf) -> PyResult<()> {
        std::fs::write(&path, self.inner.to_string())
            .map_err(|e| PyOSError::new_err(format!("cannot write {}: {e}", path.display())))
    }

    /// The text game record.
    fn record(&self) -> String {
        self.inner.to_string()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    /// Evaluates back: `Game.from_record('...')` with the game record
    /// (ASCII; Rust's string escapes are Python's too).
    fn __repr__(&self) -> String {
        format!("Game.from_record({:?})", self.inner.to_string())
    }

    fn __len__(&self) -> usize {
        self.inner.moves().len()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from_record = slf.get_type().getattr("from_record")?;
        Ok((from_record, (slf.borrow().inner.to_string(),)))
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// Plays ``move`` (a ``Move`` or notation). Raises ``IllegalMoveError`` if it
    /// is illegal or the move limit has been reached (the game is then
    /// unchanged), ``ParseError`` for notation that does not parse.
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.push(move_arg(r#move)?).or_raise()
    }

    /// Takes back the last move and returns it (``None`` if there is none).
    fn pop(&mut self) -> Option<PyMove> {
        self.inner.pop().map(PyMove::from)
    }

    /// The current position.
    #[getter]
    fn position(&self) -> PyPosition {
        (*self.inner.position()).into()
    }

    /// The start position.
    #[getter]
    fn start(&self) -> PyPosition {
        (*self.inner.start()).into()
    }

    /// The moves played.
    #[getter]
    fn moves(&self) -> Vec<PyMove> {
        self.inner
            .moves()
            .iter()
            .cloned()
            .map(PyMove::from)
            .collect()
    }

    /// The start position and the position after each move.
    #[getter]
    fn positions(&self) -> Vec<PyPosition> {
        self.inner.positions().iter().map(|&p| p.into()).collect()
    }

    /// The move limit (``None``: no limit).
    #[getter]
    fn move_limit(&self) -> Option<u32> {
        self.inner.move_limit()
    }

    /// ``"*"`` (ongoing), ``"O wins"``, ``"X wins"`` or ``"draw"`` (move limit reached).
    #[getter]
    fn result(&self) -> String {
        self.inner.result().to_string()
    }

    /// ``"O"`` or ``"X"`` once a side has scored, else ``None``.
    #[getter]
    fn winner(&self) -> Option<char> {
        match self.inner.result() {
            GameResult::Win(side) => Some(side.char()),
            _ => None,
        }
    }

    /// Whether the game is over: a goal, or the move limit reached.
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.result() != GameResult::Ongoing
    }

    /// An SVG picture of the current position with the last move drawn, and
    /// the options of ``Position.svg`` (``moves`` legal in the current position).
    #[pyo3(signature = (size=None, *, moves=None, highlight=None, flip=false))]
    fn svg(
        &self,
        size: Option<&Bound<'_, PyAny>>,
        moves: Option<&Bound<'_, PyAny>>,
        highlight: Option<&Bound<'_, PyAny>>,
        flip: bool,
    ) -> PyResult<String> {
        let last = self.inner.moves().last().cloned();
        crate::svg::draw(&self.current(), last, size, moves, highlight, flip)
    }

    /// An SVG of the current position with the last move drawn.
    fn _repr_svg_(&self) -> PyResult<String> {
        crate::svg::plain(&self.current(), self.inner.moves().last())
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()
}
