"""An interactive board for Jupyter (JupyterLab, Notebook 7, VS Code), on anywidget.

>>> from phutball.widget import Board            # doctest: +SKIP
>>> board = Board(engine=phutball.Engine(time=0.3), engine_plays="X")  # doctest: +SKIP
>>> board                                         # doctest: +SKIP

Click a vacant point to place a man; click the ball, then landing points
(highlighted) to jump, and the ball again (or "End jump") to end the move.
The buttons undo, flip the board, show every jump path and ask the engine
for a hint. ``board.game`` and ``board.position`` are observable traits;
``board.play(move)`` and ``board.undo()`` drive it from Python.

Every rule is the Rust core's: the JavaScript (``widget.js``) only shows the
core's SVG picture and sends clicks here, as points of the picture.
anywidget is an optional extra: ``pip install "phutball[notebook]"``.
"""

import pathlib
from typing import Any, Dict, List, Optional, Union

try:
    import anywidget
    import traitlets
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError(
        "phutball.widget needs the optional anywidget package: "
        'pip install "phutball[notebook]" (or pip install anywidget)'
    ) from e

from ._phutball import Engine, Game, JumpInProgress, Move, Position

__all__ = ["Board"]

# The engine of "Hint" when the board has none: seconds a move.
HINT_TIME = 0.5
# Jump paths drawn by "Show jumps" at most (a crowded board has millions).
MAX_PATHS_SHOWN = 60


class Board(anywidget.AnyWidget):  # type: ignore[misc]
    """A board to play on by clicking; ``Board(position_or_game=None, *, engine=None, engine_plays="X", size=480)``."""

    _esm = pathlib.Path(__file__).with_name("widget.js")

    # Sent to the browser.
    svg = traitlets.Unicode("").tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    jumping = traitlets.Bool(False).tag(sync=True)
    # Set from either side.
    flip = traitlets.Bool(False).tag(sync=True)
    show_jumps = traitlets.Bool(False).tag(sync=True)
    size = traitlets.Int(480).tag(sync=True)
    # Python only, observable.
    game = traitlets.Instance(Game)
    position = traitlets.Instance(Position)

    def __init__(
        self,
        position_or_game: Union[Position, Game, str, None] = None,
        *,
        engine: Optional[Engine] = None,
        engine_plays: Optional[str] = "X",
        size: int = 480,
        **kwargs: Any,
    ) -> None:
        """A board showing ``position_or_game`` (default: the standard start); ``engine`` replies as ``engine_plays`` ("O", "X" or None)."""
        if engine_plays not in ("O", "X", None):
            raise ValueError(f'engine_plays must be "O", "X" or None, not {engine_plays!r}')
        if isinstance(position_or_game, Game):
            game = position_or_game
        else:
            game = Game(position_or_game)
        super().__init__(size=size, **kwargs)
        self.engine = engine
        """The ``Engine`` that replies to the clicked moves (``None``: no replies; hints use a quick one)."""
        self.engine_plays = engine_plays
        """The side the engine plays, ``"O"`` or ``"X"`` (``None``: neither)."""
        # The jump being made by clicks: the ball's start and the state after
        # the landings so far (the position itself before the first one).
        self._jump_path: List[str] = []
        self._jump_state: Union[Position, JumpInProgress, None] = None
        self._hint: Optional[Move] = None
        self.on_msg(self._on_message)
        self.observe(lambda _change: self._draw(), names=["flip", "show_jumps", "size"])
        self._set_game(game)
        self._engine_reply()

    # -- Python API -------------------------------------------------------

    def play(self, move: Union[Move, str]) -> None:
        """Plays ``move`` (a ``Move`` or its notation), then the engine's reply if it plays the side to move; raises ``IllegalMoveError``."""
        game = self.game.__copy__()
        game.push(move)
        self._cancel_jump()
        self._set_game(game)
        self._engine_reply()

    def undo(self) -> None:
        """Takes back the jump being made, else the last move (and the engine's reply before it, so the same side is to move)."""
        if self._jump_path:
            self._cancel_jump()
            self._draw()
            return
        game = self.game.__copy__()
        if game.pop() is None:
            self.message = "nothing to undo"
            return
        if self.engine is not None and game.position.to_move == self.engine_plays and len(game) > 0:
            game.pop()
        self._set_game(game)

    def hint(self) -> Optional[Move]:
        """The engine's best move here (the board's engine, or one with half a second), drawn and told with its score."""
        if self.game.is_over:
            self.message = "the game is over"
            return None
        engine = self.engine if self.engine is not None else Engine(time=HINT_TIME)
        analysis = engine.analyse(self.game)
        self._hint = analysis.best_move
        self.message = f"hint: {analysis.best_move} ({analysis.score_text}, depth {analysis.depth})"
        self._draw()
        return analysis.best_move

    def click(self, point: str) -> None:
        """What a click on ``point`` (e.g. ``"H11"``) does: place a man, pick up the ball, land a jump or end it."""
        self.message = ""
        if self.game.is_over:
            self.message = "the game is over"
            return
        state = self._jump_state
        ball = state.position.ball if isinstance(state, JumpInProgress) else self.position.ball
        if point == ball:
            self._click_ball()
        elif self._jump_path:
            self._land(point)
        elif self.position.has_man(point):
            self.message = f"{point} holds a man: click the ball to jump, or a vacant point"
        else:
            try:
                self.play(point)
            except ValueError as e:
                self.message = str(e)

    def end_jump(self) -> None:
        """Ends the jump being made and plays it (nothing when no landing was made yet)."""
        if len(self._jump_path) < 2:
            self._cancel_jump()
            self._draw()
            return
        self.play("-".join(self._jump_path))

    # -- clicks -----------------------------------------------------------

    def _click_ball(self) -> None:
        if len(self._jump_path) >= 2:
            self.end_jump()
        elif self._jump_path:
            self._cancel_jump()
            self._draw()
        elif not self.position.single_jumps():
            self.message = "the ball has no man next to it to jump"
        else:
            self._jump_path = [self.position.ball]
            self._jump_state = self.position
            self._draw()

    def _land(self, point: str) -> None:
        state = self._jump_state
        assert state is not None
        if point not in state.single_jumps():
            self.message = f"{point} is not a landing point of the ball"
            return
        self._jump_path.append(point)
        self._jump_state = state.apply_jump(point)
        # With no landing left the move is over: play it at once.
        if not self._jump_state.single_jumps():
            self.end_jump()
        else:
            self._draw()

    def _cancel_jump(self) -> None:
        self._jump_path = []
        self._jump_state = None

    # The picture's geometry is the core's (Position.svg_point_at and
    # svg_point_centre), as is the picture.
    def point_at(self, x: float, y: float) -> Optional[str]:
        """The point drawn nearest to ``(x, y)`` in the picture's own units, or None off the board."""
        return self.position.svg_point_at(x, y, flip=self.flip)

    def point_centre(self, point: str) -> "tuple[float, float]":
        """Where ``point`` (e.g. ``"H11"``) is drawn, in the picture's own units: the inverse of ``point_at``."""
        return self.position.svg_point_centre(point, flip=self.flip)

    def _on_message(self, _widget: Any, content: Dict[str, Any], _buffers: Any) -> None:
        kind = content.get("type")
        try:
            if kind == "click":
                point = self.point_at(float(content["x"]), float(content["y"]))
                if point is not None:
                    self.click(point)
            elif kind == "end_jump":
                self.end_jump()
            elif kind == "undo":
                self.undo()
            elif kind == "hint":
                self.hint()
        except Exception as e:  # shown on the board: a notebook has nowhere else to say it
            self.message = f"{type(e).__name__}: {e}"

    # -- drawing ----------------------------------------------------------

    def _set_game(self, game: Game) -> None:
        self._hint = None
        self.game = game
        self.position = game.position
        self._draw()

    def _engine_reply(self) -> None:
        while (
            self.engine is not None
            and not self.game.is_over
            and self.game.position.to_move == self.engine_plays
        ):
            game = self.game.__copy__()
            game.push(self.engine.best_move(game))
            self._set_game(game)

    def _draw(self) -> None:
        state = self._jump_state
        moves: List[Move] = []
        highlight: List[str] = []
        if state is not None:
            highlight = state.single_jumps()
        elif self._hint is not None:
            moves = [self._hint]
        elif self.show_jumps:
            moves = list(self.position.jump_paths(limit=MAX_PATHS_SHOWN, timeout=1.0))
        if state is None or isinstance(state, Position):
            last = self.game.moves[-1] if len(self.game) else None
            self.svg = self.position.svg(last, self.size, moves=moves, highlight=highlight, flip=self.flip)
        else:
            # The jump so far: its arrows, and the men it removed crossed out.
            self.svg = state.svg(self.size, path="-".join(self._jump_path), highlight=highlight, flip=self.flip)
        self.jumping = bool(self._jump_path)
        side = {"O": "Ohs", "X": "Eks"}
        if self.game.is_over:
            self.status = f"game over: {self.game.result}"
        elif self._jump_path:
            self.status = f"{side[self.position.to_move]} jumping: {'-'.join(self._jump_path)}"
        else:
            self.status = f"{side[self.position.to_move]} to move"
