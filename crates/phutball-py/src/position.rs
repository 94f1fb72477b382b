//! `phutball.Position`: an immutable position wrapping the core's `Position`.

use phutball::{BoardSize, Position, Side};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};

use crate::actions::PlanesAndMask;
use crate::budget::{run, BudgetKeywords, MemoryLimit};
use crate::classes::{PyJumpInProgress, PyPosition, PyTablebase};
use crate::errors::{InvalidPositionError, OrRaise};
use crate::moves::{move_arg, PyMove, PyMoveList};
use crate::notation::{action_arg, int, limit_arg, parse_point, parse_side, size_arg, Int};
use crate::rules::{rules_arg, rules_repr, PyRules};

/// The `limit=` argument of the move lists: `None` (no limit) or an int of at least 0.
fn list_limit(limit: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    Ok(limit_arg(limit, "limit")?.map_or(usize::MAX, |l| usize::try_from(l).unwrap_or(usize::MAX)))
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (text=None, rules=None, mid_jump=false))]
    fn new(text: Option<&str>, rules: Option<&PyRules>, mid_jump: bool) -> PyResult<Self> {
        let rules = rules_arg(rules);
        let pos = match text {
            None => Position::start_with(BoardSize::STANDARD, rules).or_raise()?,
            Some(text) => Position::parse_with_rules(text, rules).or_raise()?,
        };
        if mid_jump {
            return Err(InvalidPositionError::new_err(
                "a Position is always at the start of a move: use \
                 JumpInProgress(text) for a jump move under way",
            ));
        }
        Ok(pos.into())
    }

    /// The start position of a ``cols`` x ``rows`` board (1-25 columns, 3-25 rows).
    /// Raises ``InvalidPositionError`` for a size no board has or rules that
    /// do not fit it.
    #[staticmethod]
    #[pyo3(
        signature = (cols=Int::of(15), rows=Int::of(19), rules=None),
        text_signature = "(cols=15, rows=19, rules=None)"
    )]
    // pyo3 hands over the extracted argument by value.
    #[allow(clippy::needless_pass_by_value)]
    fn start(
        #[pyo3(from_py_with = int::cols)] cols: Int,
        #[pyo3(from_py_with = int::rows)] rows: Int,
        rules: Option<&PyRules>,
    ) -> PyResult<Self> {
        let size = size_arg(&cols, &rows)?;
        Ok(Position::start_with(size, rules_arg(rules))
            .or_raise()?
            .into())
    }

    /// A position from points in notation. Raises ``ParseError`` for a point
    /// or side that does not parse, ``InvalidPositionError`` if a man is off
    /// the board, the ball is on a man or the rules do not fit the board.
    ///
    /// ``Position.from_points("K6", ["J7", "H8", "G10", "H11"])``
    #[staticmethod]
    #[pyo3(
        signature = (ball, men, to_move="O", cols=Int::of(15), rows=Int::of(19), rules=None),
        text_signature = "(ball, men, to_move='O', cols=15, rows=19, rules=None)"
    )]
    // pyo3 hands over the extracted argument by value.
    #[allow(clippy::needless_pass_by_value)]
    fn from_points(
        ball: &str,
        men: Vec<String>,
        to_move: &str,
        #[pyo3(from_py_with = int::cols)] cols: Int,
        #[pyo3(from_py_with = int::rows)] rows: Int,
        rules: Option<&PyRules>,
    ) -> PyResult<Self> {
        let size = size_arg(&cols, &rows)?;
        let ball = parse_point(ball)?;
        let men = men
            .iter()
            .map(|m| parse_point(m))
            .collect::<PyResult<phutball::Bitboard>>()?;
        let to_move = parse_side(to_move)?;
        Ok(
            Position::from_parts(size, rules_arg(rules), men, ball, to_move)
                .or_raise()?
                .into(),
        )
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        let mut args = vec![format!("'{}'", self.inner)];
        if self.inner.rules() != phutball::Rules::default() {
            args.push(format!("rules={}", rules_repr(self.inner.rules())));
        }
        format!("Position({})", args.join(", "))
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String, PyRules)) {
        let pos = slf.get().inner;
        (slf.get_type(), (pos.to_string(), pos.rules().into()))
    }

    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
    }

    /// A text board with coordinates: ``#`` a man, ``@`` the ball, ``+`` a goal
    /// line, ``-`` the off-board strips.
    fn diagram(&self) -> String {
        self.inner.diagram()
    }

    /// The ball's point, e.g. ``"H10"``.
    #[getter]
    fn ball(&self) -> String {
        self.inner.ball().to_string()
    }

    /// The men's points, row by row from the bottom, left to right.
    #[getter]
    fn men(&self) -> Vec<String> {
        self.inner.men().iter().map(|p| p.to_string()).collect()
    }

    /// The side to move: ``"O"`` or ``"X"``.
    #[getter]
    #[allow(clippy::wrong_self_convention)] // a Python property, named by the API
    fn to_move(&self) -> char {
        self.inner.to_move().char()
    }

    /// ``"O"`` or ``"X"`` once that side has scored, else ``None``.
    #[getter]
    fn winner(&self) -> Option<char> {
        self.inner.winner().map(Side::char)
    }

    /// Whether the game is over (the ball is on or over a goal line).
    #[getter]
    fn is_finished(&self) -> bool {
        self.inner.is_finished()
    }

    /// Always ``False``: a jump move under way is a ``JumpInProgress``, whose
    /// ``is_mid_jump`` is ``True``.
    ///
    /// A position is at the start of a move; code can ask either.
    #[getter]
    // A property needs `self`; the answer does not.
    #[allow(clippy::unused_self)]
    fn is_mid_jump(&self) -> bool {
        false
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

    /// The rule options in force.
    #[getter]
    fn rules(&self) -> PyRules {
        self.inner.rules().into()
    }

    /// A 64-bit Zobrist hash of men, ball and side to move.
    #[getter]
    fn zobrist(&self) -> u64 {
        self.inner.zobrist()
    }

    /// Whether a man stands on ``point``. Raises ``ParseError`` if ``point``
    /// is not a point.
    fn has_man(&self, point: &str) -> PyResult<bool> {
        Ok(self.inner.has_man(parse_point(point)?))
    }

    /// Every placement, row by row from row 1.
    fn placements(&self) -> PyMoveList {
        self.inner.placements().into()
    }

    /// The landing points of the single jumps the ball can make now.
    fn single_jumps(&self) -> Vec<String> {
        self.inner
            .single_jumps()
            .iter()
            .map(|j| j.to.to_string())
            .collect()
    }

    /// Every legal jump path (every non-empty prefix of a path is one), at
    /// most ``limit`` of them. Dense positions have millions: prefer
    /// ``count_jump_paths``.
    ///
    /// Bounded: after ``timeout`` seconds (``None``: no timeout) it raises
    /// ``SearchTimeoutError``; a list over ``memory_limit`` bytes (default
    /// ``DEFAULT_MEMORY_LIMIT``, 256 MiB; ``None``: no limit) raises
    /// ``MemoryLimitError``; Ctrl-C raises ``KeyboardInterrupt``. Releases
    /// the GIL.
    #[pyo3(signature = (limit=None, *, timeout=None, memory_limit=MemoryLimit::DEFAULT))]
    fn jump_paths(
        &self,
        py: Python<'_>,
        limit: Option<&Bound<'_, PyAny>>,
        timeout: Option<&Bound<'_, PyAny>>,
        memory_limit: MemoryLimit,
    ) -> PyResult<PyMoveList> {
        let limit = list_limit(limit)?;
        let budget_keywords = BudgetKeywords::new(timeout, memory_limit)?;
        let pos = self.inner;
        let moves = run(py, budget_keywords, |budget| {
            pos.jump_paths_up_to(limit, budget)
        })?;
        Ok(moves.into())
    }

    /// The number of legal jump paths, counted without building any (dense
    /// boards have billions). After ``timeout`` seconds (``None``: no
    /// timeout) it raises ``SearchTimeoutError``; Ctrl-C raises
    /// ``KeyboardInterrupt``. Releases the GIL.
    #[pyo3(signature = (*, timeout=None))]
    fn count_jump_paths(
        &self,
        py: Python<'_>,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let pos = self.inner;
        run(py, BudgetKeywords::timeout(timeout)?, |budget| {
            pos.count_jump_paths_within(budget)
        })
    }

    /// One jump move per distinct resulting position (at most ``limit``).
    /// Bounded as ``jump_paths`` (``SearchTimeoutError``, ``MemoryLimitError``,
    /// ``KeyboardInterrupt``); the states the search remembers count against
    /// ``memory_limit`` too. Releases the GIL.
    #[pyo3(signature = (limit=None, *, timeout=None, memory_limit=MemoryLimit::DEFAULT))]
    fn jump_outcomes(
        &self,
        py: Python<'_>,
        limit: Option<&Bound<'_, PyAny>>,
        timeout: Option<&Bound<'_, PyAny>>,
        memory_limit: MemoryLimit,
    ) -> PyResult<PyMoveList> {
        let limit = list_limit(limit)?;
        let budget_keywords = BudgetKeywords::new(timeout, memory_limit)?;
        let pos = self.inner;
        let moves = run(py, budget_keywords, |budget| {
            pos.jump_outcomes_up_to(limit, budget)
        })?;
        Ok(moves.into())
    }

    /// The number of distinct positions a jump move can reach. Bounded as
    /// ``jump_outcomes`` (``SearchTimeoutError``, ``MemoryLimitError``,
    /// ``KeyboardInterrupt``; the states the search remembers count against
    /// ``memory_limit``). Releases the GIL.
    #[pyo3(signature = (*, timeout=None, memory_limit=MemoryLimit::DEFAULT))]
    fn count_jump_outcomes(
        &self,
        py: Python<'_>,
        timeout: Option<&Bound<'_, PyAny>>,
        memory_limit: MemoryLimit,
    ) -> PyResult<u64> {
        let pos = self.inner;
        run(py, BudgetKeywords::new(timeout, memory_limit)?, |budget| {
            pos.count_jump_outcomes_within(budget)
        })
    }

    /// Every legal move: the placements, then one jump per distinct outcome
    /// (at most ``limit`` moves in all). Bounded as ``jump_outcomes``
    /// (``SearchTimeoutError``, ``MemoryLimitError``, ``KeyboardInterrupt``).
    /// Releases the GIL.
    #[pyo3(signature = (limit=None, *, timeout=None, memory_limit=MemoryLimit::DEFAULT))]
    fn legal_moves(
        &self,
        py: Python<'_>,
        limit: Option<&Bound<'_, PyAny>>,
        timeout: Option<&Bound<'_, PyAny>>,
        memory_limit: MemoryLimit,
    ) -> PyResult<PyMoveList> {
        let limit = list_limit(limit)?;
        let budget_keywords = BudgetKeywords::new(timeout, memory_limit)?;
        let pos = self.inner;
        let moves = run(py, budget_keywords, |budget| {
            pos.legal_moves_up_to(limit, budget)
        })?;
        Ok(moves.into())
    }

    /// The number of legal moves (placements plus distinct jump outcomes).
    /// Bounded as ``count_jump_outcomes`` (``SearchTimeoutError``,
    /// ``MemoryLimitError``, ``KeyboardInterrupt``). Releases the GIL.
    #[pyo3(signature = (*, timeout=None, memory_limit=MemoryLimit::DEFAULT))]
    fn count_legal_moves(
        &self,
        py: Python<'_>,
        timeout: Option<&Bound<'_, PyAny>>,
        memory_limit: MemoryLimit,
    ) -> PyResult<u64> {
        let pos = self.inner;
        run(py, BudgetKeywords::new(timeout, memory_limit)?, |budget| {
            pos.count_legal_moves_within(budget)
        })
    }

    /// The position after ``move`` (a ``Move`` or notation), with the other
    /// side to move. Raises ``IllegalMoveError`` saying why if it is illegal,
    /// ``ParseError`` for notation that does not parse.
    #[pyo3(name = "play")]
    fn play_move(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Self> {
        let m = move_arg(r#move)?;
        Ok(self.inner.play(&m).or_raise()?.into())
    }

    /// Whether ``move`` (a ``Move`` or notation) is legal here. Notation that
    /// does not parse raises ``ParseError``.
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.inner.is_legal(&move_arg(r#move)?))
    }

    /// Raises ``IllegalMoveError`` saying why ``move`` is illegal; returns ``None`` if it is legal.
    /// Notation that does not parse raises ``ParseError``.
    fn check_move(&self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.check_move(&move_arg(r#move)?).or_raise()
    }

    /// A jump move that scores for the side to move, or ``None``. The search
    /// can take minutes on some dense boards: ``timeout`` seconds (``None``:
    /// none) raise ``SearchTimeoutError``; Ctrl-C raises ``KeyboardInterrupt``.
    /// Releases the GIL.
    #[pyo3(signature = (*, timeout=None))]
    fn scoring_move(
        &self,
        py: Python<'_>,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<PyMove>> {
        let pos = self.inner;
        let m = run(py, BudgetKeywords::timeout(timeout)?, |budget| {
            pos.scoring_jump_within(budget)
        })?;
        Ok(m.map(PyMove::from))
    }

    /// Whether the side to move can score this move. Bounded as
    /// ``scoring_move`` (``SearchTimeoutError``, ``KeyboardInterrupt``).
    /// Releases the GIL.
    #[pyo3(signature = (*, timeout=None))]
    fn can_score(&self, py: Python<'_>, timeout: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let pos = self.inner;
        run(py, BudgetKeywords::timeout(timeout)?, |budget| {
            pos.can_score_within(budget)
        })
    }

    /// Proves who wins with best play: a ``Proof`` whose ``result`` is
    /// ``"win"`` or ``"loss"`` for the side to move, with the line and a
    /// certificate the solver has checked, or ``"unknown"``.
    ///
    /// Where a tablebase covers the board (``tablebase``, or one the
    /// solver builds itself for boards of at most 20 points) the answer is
    /// exact, and may be ``"draw"`` (without a certificate). A limit that
    /// runs out is no error: ``timeout`` seconds (``None``: no timeout),
    /// ``nodes`` (the prover's nodes; ``None``: no limit) and
    /// ``memory_limit`` bytes (its tables take half, the certificate the
    /// other half; default ``DEFAULT_MEMORY_LIMIT``, ``None``: no limit)
    /// give the result ``"unknown"``, with ``Proof.stopped`` saying which.
    /// Ctrl-C raises ``KeyboardInterrupt``; a finished position raises
    /// ``ValueError``. Releases the GIL.
    ///
    /// ``jobs`` threads (default 1; the CLI's default is every core): on
    /// two or more, the searches for either side's win run at once, each
    /// on its own threads.
    /// ``checkpoint`` (a path) saves the search's state every
    /// ``checkpoint_every`` seconds and when it stops (a limit, Ctrl-C),
    /// and goes on from the file if it exists: the same call again
    /// continues the proof. A damaged or foreign file raises ``ValueError``
    /// and is left as it is.
    #[pyo3(signature = (*, timeout=None, memory_limit=MemoryLimit::DEFAULT, nodes=None, tablebase=None, jobs=None, checkpoint=None, checkpoint_every=60.0))]
    // pyo3's keyword arguments, each converted once.
    #[allow(clippy::too_many_arguments)]
    fn prove(
        &self,
        py: Python<'_>,
        timeout: Option<&Bound<'_, PyAny>>,
        memory_limit: MemoryLimit,
        nodes: Option<&Bound<'_, PyAny>>,
        tablebase: Option<&Bound<'_, PyTablebase>>,
        jobs: Option<&Bound<'_, PyAny>>,
        checkpoint: Option<std::path::PathBuf>,
        checkpoint_every: f64,
    ) -> PyResult<crate::solver::PyProof> {
        let how = crate::solver::ProveArgs::new(jobs, checkpoint, checkpoint_every)?;
        crate::solver::prove(
            py,
            self.inner,
            timeout,
            memory_limit,
            nodes,
            tablebase,
            &how,
        )
    }

    /// Starts a jump move with one jump of the ball to ``to``: a
    /// ``JumpInProgress``, the same side to move. Raises ``ParseError`` if
    /// ``to`` is not a point, ``IllegalMoveError`` if no single jump lands there.
    fn apply_jump(&self, to: &str) -> PyResult<PyJumpInProgress> {
        Ok(self.inner.apply_jump(parse_point(to)?).or_raise()?.into())
    }

    /// The same men and ball with the other side to move (a pass, for asking
    /// what the opponent could do here).
    fn end_turn(&self) -> Self {
        self.inner.end_turn().into()
    }

    /// The position mirrored left to right.
    fn mirror_columns(&self) -> Self {
        self.inner.mirror_columns().into()
    }

    /// The position turned top to bottom with the sides swapped.
    fn flip_rows(&self) -> Self {
        self.inner.flip_rows().into()
    }

    // ---- Reinforcement learning (see actions.rs) ----

    /// The number of actions of this board size: ``cols * (2 * rows + 2) + 1``
    /// (601 on the standard board).
    ///
    /// Actions ``0 .. cols*rows`` place a man on column ``c``, row ``r``
    /// (1..rows) with index ``(r - 1) * cols + c``; the next ``cols * (rows + 2)``
    /// jump the ball once to column ``c``, row ``r`` (0..rows+1, the off-board
    /// strips included) with index ``cols*rows + r * cols + c``; the last one,
    /// ``cols * (2 * rows + 2)``, ends the jump move under way.
    #[getter]
    fn action_count(&self) -> usize {
        self.inner.size().action_count()
    }

    /// A numpy bool array of length ``action_count``: which actions are legal:
    /// the placements and single jumps; none once the game is over.
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

    /// The indices of the legal actions, ascending.
    fn legal_actions(&self) -> Vec<usize> {
        crate::actions::legal_action_indices(&self.state())
    }

    /// The state after action ``action`` (an int, see ``action_count``).
    /// Raises ``IllegalMoveError`` if illegal.
    ///
    /// A ``Position`` after a placement (the turn passes), a
    /// ``JumpInProgress`` after a jump (the turn is kept).
    fn apply_action(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let action = action_arg(action, self.inner.size())?;
        crate::actions::apply_action(py, &self.state(), action)
    }

    /// The actions that make ``move`` step by step: a placement, or one jump
    /// per landing followed by "end jump". Raises ``ParseError`` for notation
    /// that does not parse, ``IllegalMoveError`` for a point off this board.
    fn move_to_actions(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
        crate::actions::move_to_actions(&self.inner, &move_arg(r#move)?)
    }

    /// What action ``action`` does, e.g. ``"place H9"``, ``"jump to H7"``, ``"end jump"``.
    /// Raises ``IllegalMoveError`` for an index no action of this board has.
    fn describe_action(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let action = action_arg(action, self.inner.size())?;
        crate::actions::describe_action(self.inner.size(), action)
    }

    /// The board as a float32 numpy array of shape ``(5, rows + 2, cols)``.
    ///
    /// ``[c, r, k]`` is
    /// column ``k`` (0 = ``A``) of notation row ``r`` (0 and ``rows + 1`` are the
    /// off-board strips, so row index 0 is the bottom). Channels: 0 men,
    /// 1 ball, 2 all ones when Ohs (``"O"``) is to move, 3 all ones during a
    /// jump move, 4 ones on the points men may stand on (rows 1..rows).
    ///
    /// With ``relative=True`` the board is turned top to bottom when Eks is to
    /// move, so the side to move always attacks the high row indices.
    #[pyo3(signature = (relative=false))]
    fn planes<'py>(
        &self,
        py: Python<'py>,
        relative: bool,
    ) -> PyResult<Bound<'py, numpy::PyArray3<f32>>> {
        crate::actions::planes(py, &self.state(), relative)
    }

    // ---- Notebooks ----

    /// An SVG picture of the board: ``moves`` as arrows (removed men crossed
    /// out), ``highlight`` points, ``last_move``, ``flip`` for Eks's view,
    /// ``size`` the width in pixels.
    ///
    /// ``moves`` (one or several, ``Move`` objects or notation) must be legal
    /// here; each is drawn in its own colour, a jump as arrows along its
    /// landing points, a placement as a marked point. ``highlight`` points
    /// are shaded. ``last_move`` is drawn in blue on the board as it is now.
    /// ``flip=True`` turns the board 180 degrees, coordinates and all.
    /// ``size=None`` draws 28 pixels between points.
    ///
    /// Raises ``IllegalMoveError`` for a move not legal here or a point off
    /// the board, ``ParseError`` for notation that does not parse,
    /// ``ValueError`` for a size below 1.
    #[pyo3(signature = (last_move=None, size=None, *, moves=None, highlight=None, flip=false))]
    fn svg(
        &self,
        last_move: Option<&Bound<'_, PyAny>>,
        size: Option<&Bound<'_, PyAny>>,
        moves: Option<&Bound<'_, PyAny>>,
        highlight: Option<&Bound<'_, PyAny>>,
        flip: bool,
    ) -> PyResult<String> {
        let last = last_move.map(move_arg).transpose()?;
        crate::svg::draw(&self.state(), last, size, moves, highlight, flip)
    }

    /// The picture of ``svg`` (same arguments) as PNG bytes; needs the
    /// optional ``cairosvg`` package, else raises ``ImportError`` saying how
    /// to install it.
    #[pyo3(signature = (*args, **kwargs))]
    fn png(
        slf: &Bound<'_, Self>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        crate::svg::png(slf.as_any(), args, kwargs)
    }

    /// An SVG of the position, for Jupyter.
    fn _repr_svg_(&self) -> PyResult<String> {
        crate::svg::plain(&self.state(), None)
    }

    /// Where ``point`` (e.g. ``"H11"``) is drawn in this board's picture
    /// (turned when ``flip``), in the picture's own units (its ``viewBox``):
    /// the centre ``(x, y)`` of its circle, as ``svg`` draws it. Raises
    /// ``ParseError`` for notation that does not parse, ``IllegalMoveError``
    /// for a point off the board.
    #[pyo3(signature = (point, *, flip=false))]
    fn svg_point_centre(&self, point: &str, flip: bool) -> PyResult<(f64, f64)> {
        crate::svg::point_centre(self.inner.size(), point, flip)
    }

    /// The point drawn nearest to ``(x, y)`` in this board's picture (turned
    /// when ``flip``), in the picture's own units, or ``None`` off the
    /// board: the inverse of ``svg_point_centre``, for a click.
    #[pyo3(signature = (x, y, *, flip=false))]
    fn svg_point_at(&self, x: f64, y: f64, flip: bool) -> Option<String> {
        crate::svg::point_at(self.inner.size(), x, y, flip)
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPosition>()
}
