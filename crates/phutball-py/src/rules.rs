//! `phutball.Rules`: the rule options.

use phutball::Rules;
use pyo3::prelude::*;
use pyo3::types::PyType;

use crate::errors::OrRaise;
use crate::notation::{parse_point, parse_side};

/// The rule options where published sources disagree.
///
/// ``continue_off_board``: the ball may jump on after landing off the board
/// (default ``False``: the move ends there). ``first_player``: ``"O"`` (default)
/// or ``"X"`` (or the names ``"Ohs"``/``"Eks"``). ``start``: the ball's start
/// point (default ``None``, the centre). ``str()`` gives the core's text form
/// (the game record's ``rules`` line, e.g. ``"first-player=X start-point=H8"``)
/// and ``Rules.parse`` reads it.
#[pyclass(name = "Rules", module = "phutball", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct PyRules {
    pub(crate) inner: Rules,
}

impl From<Rules> for PyRules {
    fn from(inner: Rules) -> Self {
        PyRules { inner }
    }
}

/// `Rules(...)` naming only the options that differ from the defaults.
pub(crate) fn rules_repr(rules: Rules) -> String {
    let defaults = Rules::default();
    let mut args = Vec::new();
    if rules.continue_off_board != defaults.continue_off_board {
        args.push(format!(
            "continue_off_board={}",
            if rules.continue_off_board {
                "True"
            } else {
                "False"
            }
        ));
    }
    if rules.first_player != defaults.first_player {
        args.push(format!("first_player='{}'", rules.first_player));
    }
    if let Some(p) = rules.start {
        args.push(format!("start='{p}'"));
    }
    format!("Rules({})", args.join(", "))
}

/// The rules of an optional `rules=` argument.
pub(crate) fn rules_arg(rules: Option<&PyRules>) -> Rules {
    rules.map(|r| r.inner).unwrap_or_default()
}

// pyo3 methods take `&self`, however small the class.
#[allow(clippy::trivially_copy_pass_by_ref)]
#[pymethods]
impl PyRules {
    #[new]
    #[pyo3(signature = (continue_off_board=false, first_player="O", start=None))]
    fn new(continue_off_board: bool, first_player: &str, start: Option<&str>) -> PyResult<Self> {
        Ok(PyRules {
            inner: Rules {
                continue_off_board,
                first_player: parse_side(first_player)?,
                start: start.map(parse_point).transpose()?,
            },
        })
    }

    /// Whether the ball may jump on after landing off the board.
    #[getter]
    fn continue_off_board(&self) -> bool {
        self.inner.continue_off_board
    }

    /// Who moves first from a start position: ``"O"`` or ``"X"``.
    #[getter]
    fn first_player(&self) -> char {
        self.inner.first_player.char()
    }

    /// The ball's start point, or ``None`` for the centre.
    #[getter]
    fn start(&self) -> Option<String> {
        self.inner.start.map(|p| p.to_string())
    }

    /// Rules from their text form (``str(rules)``, a game record's ``rules``
    /// line). Raises ``ParseError`` for a word that is no rule option.
    ///
    /// ``Rules.parse("continue-off-board first-player=X")``
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        text.parse::<Rules>().or_raise().map(PyRules::from)
    }

    fn __repr__(&self) -> String {
        rules_repr(self.inner)
    }

    /// The text form: the options that differ from the defaults, e.g.
    /// ``"continue-off-board start-point=H8"`` (``""`` for the defaults).
    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, PyType>, (bool, char, Option<String>)) {
        let r = slf.get();
        (
            slf.get_type(),
            (r.continue_off_board(), r.first_player(), r.start()),
        )
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRules>()
}
