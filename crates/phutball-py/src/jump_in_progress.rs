//! `phutball.JumpInProgress`: a jump move under way in step-by-step play,
//! wrapping the core's `JumpInProgress`.

use phutball::JumpInProgress;
use pyo3::prelude::*;
use pyo3::types::PyType;

use crate::actions::PlanesAndMask;
use crate::classes::{PyJumpInProgress, PyPosition};
use crate::errors::OrRaise;
use crate::moves::move_arg;
use crate::notation::{action_arg, int, parse_point, Int};
use crate::rules::{rules_arg, rules_repr, PyRules};

#[pymethods]
impl PyJumpInProgress {
    #[new]
    #[pyo3(signature = (text, rules=None))]
    fn new(text: &str, rules: Option<&PyRules>) -> PyResult<Self> {
        Ok(JumpInProgress::parse_with_rules(text, rules_arg(rules))
            .or_raise()?
            .into())
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        let rules = self.inner.position().rules();
        if rules == phutball::Rules::default() {
            format!("JumpInProgress('{}')", self.inner)
        } else {
            format!(
                "JumpInProgress('{}', rules={})",
                self.inner,
                rules_repr(rules)
            )
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String, PyRules)) {
        let jump = slf.get().inner;
        (
            slf.get_type(),
            (jump.to_string(), jump.position().rules().into()),
        )
    }

    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
    }

    /// The board as it stands, the same side to move (a ``Position``).
    #[getter]
    fn position(&self) -> PyPosition {
        self.inner.position().into()
    }

    /// The point the ball started the move from, e.g. ``"K6"``.
    #[getter]
    fn start(&self) -> String {
        self.inner.start().to_string()
    }

    /// The men removed so far, row by row from the bottom, left to right.
    #[getter]
    fn removed(&self) -> Vec<String> {
        self.inner.removed().iter().map(|p| p.to_string()).collect()
    }

    /// The side making the move: ``"O"`` or ``"X"``.
    #[getter]
    #[allow(clippy::wrong_self_convention)] // a Python property, named by the API
    fn to_move(&self) -> char {
        self.inner.to_move().char()
    }

    /// Always ``None``: nobody has won until the move ends.
    #[getter]
    fn winner(&self) -> Option<char> {
        self.state().winner().map(phutball::Side::char)
    }

    /// Always ``False``: the game goes on until the move ends.
    #[getter]
    fn is_finished(&self) -> bool {
        self.state().is_finished()
    }

    /// Always ``True`` (``Position.is_mid_jump`` is always ``False``).
    #[getter]
    fn is_mid_jump(&self) -> bool {
        self.state().is_mid_jump()
    }

    /// The number of actions of this board size (see ``Position.action_count``).
    #[getter]
    fn action_count(&self) -> usize {
        self.inner.position().size().action_count()
    }

    /// A numpy bool array of length ``action_count``: which actions are legal
    /// (further jumps and "end jump").
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<bool>> {
        crate::actions::legal_action_mask(py, &self.state())
    }

    /// A uniformly random legal action, drawn by the core's generator seeded
    /// with ``seed`` (0 to 2**64 - 1); ``None`` once the game is over. Raises
    /// ``ValueError`` for a seed out of range. A uniformly random seed gives
    /// each legal action alike (one generator draw per seed).
    fn random_legal_action(
        &self,
        #[pyo3(from_py_with = int::seed)] seed: Int,
    ) -> PyResult<Option<usize>> {
        crate::actions::random_legal_action(&self.state(), &seed)
    }

    /// ``(planes(relative), mask)`` in one call, the mask as a read-only
    /// int8 array (1 for a legal action), as the ``PettingZoo`` env observes.
    #[pyo3(signature = (relative=false))]
    fn planes_and_mask<'py>(
        &self,
        py: Python<'py>,
        relative: bool,
    ) -> PyResult<PlanesAndMask<'py>> {
        crate::actions::planes_and_mask(py, &self.state(), relative)
    }

    /// The indices of the legal actions, ascending ("end jump" last).
    fn legal_actions(&self) -> Vec<usize> {
        crate::actions::legal_action_indices(&self.state())
    }

    /// The state after action ``action`` (an int). Raises ``IllegalMoveError``
    /// if illegal (a placement, say).
    ///
    /// A ``JumpInProgress`` after a further jump, a ``Position`` after "end
    /// jump" (the turn passes).
    fn apply_action(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let action = action_arg(action, self.inner.position().size())?;
        crate::actions::apply_action(py, &self.state(), action)
    }

    /// What action ``action`` does, e.g. ``"jump to H7"``, ``"end jump"``.
    /// Raises ``IllegalMoveError`` for an index no action of this board has.
    fn describe_action(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let size = self.inner.position().size();
        crate::actions::describe_action(size, action_arg(action, size)?)
    }

    /// The landing points of the single jumps that continue the move.
    fn single_jumps(&self) -> Vec<String> {
        self.inner
            .single_jumps()
            .iter()
            .map(|j| j.to.to_string())
            .collect()
    }

    /// Jumps on to ``to``: a new ``JumpInProgress``. Raises ``ParseError`` if
    /// ``to`` is not a point, ``IllegalMoveError`` if no single jump lands there.
    fn apply_jump(&self, to: &str) -> PyResult<Self> {
        Ok(self.inner.apply_jump(parse_point(to)?).or_raise()?.into())
    }

    /// Ends the move: the ``Position`` with the other side to move (its
    /// ``winner`` says whether the move scored).
    fn end(&self) -> PyPosition {
        self.inner.end().into()
    }

    /// The planes of ``Position.planes`` for the board as it stands, with
    /// channel 3 (jump under way) all ones.
    #[pyo3(signature = (relative=false))]
    fn planes<'py>(
        &self,
        py: Python<'py>,
        relative: bool,
    ) -> PyResult<Bound<'py, numpy::PyArray3<f32>>> {
        crate::actions::planes(py, &self.state(), relative)
    }

    /// A text board as ``Position.diagram`` draws it; the last line says who
    /// is jumping, from where, and the men removed so far.
    fn diagram(&self) -> String {
        self.inner.diagram()
    }

    /// An SVG picture of the board as it stands, labelled "(jumping)", the
    /// men removed so far crossed out, with the options of ``Position.svg``;
    /// ``path`` is the jump so far (e.g. ``"K6-G9"``), drawn as arrows like a
    /// last move (only its points are checked), and ``moves`` continue this
    /// jump from the ball (a placement raises ``IllegalMoveError``).
    #[pyo3(signature = (size=None, *, path=None, moves=None, highlight=None, flip=false))]
    fn svg(
        &self,
        size: Option<&Bound<'_, PyAny>>,
        path: Option<&Bound<'_, PyAny>>,
        moves: Option<&Bound<'_, PyAny>>,
        highlight: Option<&Bound<'_, PyAny>>,
        flip: bool,
    ) -> PyResult<String> {
        let path = path.map(move_arg).transpose()?;
        crate::svg::draw(&self.state(), path, size, moves, highlight, flip)
    }

    /// An SVG of the board as it stands, labelled "(jumping)", for Jupyter.
    fn _repr_svg_(&self) -> PyResult<String> {
        crate::svg::plain(&self.state(), None)
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyJumpInProgress>()
}
