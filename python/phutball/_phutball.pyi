"""Type stubs for the compiled extension ``phutball._phutball``."""

from os import PathLike
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union, final, overload

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

__all__ = [
    "DEFAULT_MEMORY_LIMIT",
    "ParseError",
    "IllegalMoveError",
    "InvalidPositionError",
    "TooManyOutcomesError",
    "MemoryLimitError",
    "SearchTimeoutError",
    "CertificateError",
    "TablebaseFileError",
    "NetworkError",
    "Rules",
    "Move",
    "MoveList",
    "MoveListIterator",
    "Position",
    "JumpInProgress",
    "Game",
    "Episode",
    "Transition",
    "Engine",
    "Analysis",
    "MoveAnalysis",
    "SelfPlayGame",
    "selfplay",
    "random_opening",
    "Network",
    "network_features",
    "Proof",
    "Certificate",
    "CheckedProof",
    "check_proof",
    "frontier",
    "combine_proofs",
    "Value",
    "Tablebase",
    "VecEnv",
    "_Deadline",
    "_parse_size",
    "__version__",
]

__version__: str

DEFAULT_MEMORY_LIMIT: int
"""The default ``memory_limit=`` of the lists, in bytes: 256 MiB."""

class ParseError(ValueError):
    """Text that is not valid notation: a point, a side, a move, a malformed position string, or
    a game record (anything wrong in it, with the line)."""

class IllegalMoveError(ValueError):
    """A move or action that is not legal in the position; the message says why."""

class InvalidPositionError(ValueError):
    """A position that cannot exist, from a position string or from parts: an unsupported size,
    a man off the board, the ball on a man, or rules that do not fit the board (a start point off
    the board or not strictly between the goal lines)."""

class TooManyOutcomesError(RuntimeError):
    """A search would need more outcomes (or more memory) than the caller's limit allows: the
    input was fine, the limit too small for it."""

class MemoryLimitError(TooManyOutcomesError, MemoryError):
    """A call would need more memory than its ``memory_limit=`` allows (or
    the allocator refused it). A ``TooManyOutcomesError`` and a ``MemoryError``."""

class SearchTimeoutError(TimeoutError):
    """A search ran out of the time (or work) it was given before it could answer."""

class CertificateError(ValueError):
    """A proof certificate that does not prove what it claims (an illegal move, a reply of the
    loser left unanswered, a line that does not end in the winner's goal, ...); the message is the
    checker's, naming the node."""

class TablebaseFileError(ValueError):
    """Bytes that are not a tablebase file this version reads (damaged, truncated, another
    version or board); the message says what is wrong."""

class NetworkError(ValueError):
    """A weights file or network refused (damaged, truncated, another version, a weight that is
    not finite, ...), or a position it cannot judge (a board size it has no network for, a finished
    game); the message says which."""

# Seconds (an int or a float, at least 0) or None for no timeout.
_Timeout = Optional[float]
# Bytes (an int, at least 0), a size with a unit ("8M", "2G", "64KiB",
# "1000B"; a bad one raises ParseError) or None for no limit.
_MemoryLimit = Optional[Union[int, str]]

@final
class Rules:
    """The rule options where published sources disagree."""

    def __new__(
        cls,
        continue_off_board: bool = False,
        first_player: str = "O",
        start: Optional[str] = None,
    ) -> "Rules":
        """Rules from their options. Raises ``ParseError`` for a side or start point that does not parse."""
    @property
    def continue_off_board(self) -> bool:
        """Whether the ball may jump on after landing off the board."""
    @property
    def first_player(self) -> str:
        """Who moves first from a start position: ``"O"`` or ``"X"``."""
    @property
    def start(self) -> Optional[str]:
        """The ball's start point, or ``None`` for the centre."""
    @staticmethod
    def parse(text: str) -> "Rules":
        """Rules from their text form (``str(rules)``, a game record's ``rules`` line). Raises ``ParseError`` for a word that is no rule option."""
    def __eq__(self, other: object, /) -> bool:
        """Equal rules: the same options."""
    def __hash__(self) -> int:
        """A hash that agrees with ``==``."""

@final
class Move:
    """A placement (``"H10"``) or a jump path (``"K6-G9-G11-J11"``)."""

    def __new__(cls, text: str) -> "Move":
        """A move from notation. Raises ``ParseError`` if ``text`` is not a move."""
    @property
    def path(self) -> List[str]:
        """The points of the move: the placement point, or the jump path."""
    @property
    def is_jump(self) -> bool:
        """Whether this is a jump move."""
    def __eq__(self, other: object, /) -> bool:
        """Equal moves: the same points."""
    def __lt__(self, other: "Move", /) -> bool:
        """The core's order: placements before jumps, then point by point."""
    def __le__(self, other: "Move", /) -> bool:
        """The core's order: placements before jumps, then point by point."""
    def __gt__(self, other: "Move", /) -> bool:
        """The core's order: placements before jumps, then point by point."""
    def __ge__(self, other: "Move", /) -> bool:
        """The core's order: placements before jumps, then point by point."""
    def __hash__(self) -> int:
        """A hash that agrees with ``==``."""

_MoveLike = Union[Move, str]
_Moves = Union[_MoveLike, Iterable[_MoveLike], None]
_Points = Union[str, Iterable[str], None]

@final
class MoveList(Sequence[Move]):
    """A read-only list of moves whose ``Move`` objects are made only when read (the positions' move lists)."""

    def __new__(cls, moves: Optional[Iterable[_MoveLike]] = None) -> "MoveList":
        """A list of ``moves`` (``Move`` objects or notation; empty by default). Raises ``ParseError``."""
    def __len__(self) -> int:
        """The number of moves."""
    @overload
    def __getitem__(self, index: int, /) -> Move:
        """The move at ``index`` (negative counts from the end). Raises ``IndexError``."""
    @overload
    def __getitem__(self, index: slice, /) -> "MoveList":
        """The moves of a slice, as a ``MoveList``."""
    def __iter__(self) -> Iterator[Move]:
        """An iterator that makes each ``Move`` as it is reached."""
    def __contains__(self, item: object, /) -> bool:
        """``move in moves``: ``move`` is a ``Move`` or its notation (``"K6-G9"``); a string that is no move's notation raises ``ParseError``, anything else is not in the list."""
    def index(self, move: _MoveLike) -> int:  # type: ignore[override]
        """The index of the first ``move`` (a ``Move`` or its notation) in the list; ``ValueError`` if none, ``ParseError`` for a string that is no move's notation."""
    def count(self, move: _MoveLike) -> int:  # type: ignore[override]
        """How many times ``move`` (a ``Move`` or its notation) is in the list; ``ParseError`` for a string that is no move's notation."""
    def __eq__(self, other: object, /) -> bool:
        """The same moves in the same order as another ``MoveList``, or a list or tuple of moves."""
    def __ne__(self, other: object, /) -> bool:
        """Not ``==``."""
    __hash__: None  # type: ignore[assignment]

@final
class MoveListIterator(Iterator[Move]):
    """The iterator of a ``MoveList``: makes each ``Move`` as it is reached."""

    def __iter__(self) -> "MoveListIterator":
        """The iterator itself."""
    def __next__(self) -> Move:
        """The next move. Raises ``StopIteration`` at the end."""

@final
class Position:
    """An immutable position at the start of a move: board size, men, ball, side to move and rules."""

    def __new__(
        cls,
        text: Optional[str] = None,
        rules: Optional[Rules] = None,
        mid_jump: bool = False,
    ) -> "Position":
        """A position from a position string (``None``: the standard start). Raises ``ParseError``, or ``InvalidPositionError`` for an impossible position and for ``mid_jump=True`` (use ``JumpInProgress``)."""
    @staticmethod
    def start(cols: int = 15, rows: int = 19, rules: Optional[Rules] = None) -> "Position":
        """The start position of a ``cols`` x ``rows`` board (1-25 columns, 3-25 rows). Raises ``InvalidPositionError`` for a size no board has or rules that do not fit it."""
    @staticmethod
    def from_points(
        ball: str,
        men: List[str],
        to_move: str = "O",
        cols: int = 15,
        rows: int = 19,
        rules: Optional[Rules] = None,
    ) -> "Position":
        """A position from points in notation. Raises ``ParseError`` for a point or side that does not parse, ``InvalidPositionError`` for an impossible position."""
    def __eq__(self, other: object, /) -> bool:
        """Equal positions: the same board, men, ball, side to move and rules."""
    def __hash__(self) -> int:
        """A hash that agrees with ``==``."""
    def __copy__(self) -> "Position":
        """The position itself: positions are immutable."""
    def __deepcopy__(self, memo: Any) -> "Position":
        """The position itself: positions are immutable."""
    def diagram(self) -> str:
        """A text board with coordinates: ``#`` a man, ``@`` the ball, ``+`` a goal line, ``-`` the off-board strips."""
    @property
    def ball(self) -> str:
        """The ball's point, e.g. ``"H10"``."""
    @property
    def men(self) -> List[str]:
        """The men's points, row by row from the bottom, left to right."""
    @property
    def to_move(self) -> str:
        """The side to move: ``"O"`` or ``"X"``."""
    @property
    def winner(self) -> Optional[str]:
        """``"O"`` or ``"X"`` once that side has scored, else ``None``."""
    @property
    def is_finished(self) -> bool:
        """Whether the game is over (the ball is on or over a goal line)."""
    @property
    def is_mid_jump(self) -> bool:
        """Always ``False``: a jump move under way is a ``JumpInProgress``, whose ``is_mid_jump`` is ``True``."""
    @property
    def cols(self) -> int:
        """Number of columns."""
    @property
    def rows(self) -> int:
        """Number of rows, goal line to goal line."""
    @property
    def rules(self) -> Rules:
        """The rule options in force."""
    @property
    def zobrist(self) -> int:
        """A 64-bit Zobrist hash of men, ball and side to move."""
    def has_man(self, point: str) -> bool:
        """Whether a man stands on ``point``. Raises ``ParseError`` if ``point`` is not a point."""
    def placements(self) -> MoveList:
        """Every placement, row by row from row 1."""
    def single_jumps(self) -> List[str]:
        """The landing points of the single jumps the ball can make now."""
    def jump_paths(
        self,
        limit: Optional[int] = None,
        *,
        timeout: _Timeout = None,
        memory_limit: _MemoryLimit = ...,
    ) -> MoveList:
        """Every legal jump path (every non-empty prefix of a path is one), at most ``limit`` of them. Raises ``SearchTimeoutError``, ``MemoryLimitError`` or ``KeyboardInterrupt`` (Ctrl-C)."""
    def count_jump_paths(self, *, timeout: _Timeout = None) -> int:
        """The number of legal jump paths, counted without building any (dense boards have billions). Raises ``SearchTimeoutError`` or ``KeyboardInterrupt`` (Ctrl-C)."""
    def jump_outcomes(
        self,
        limit: Optional[int] = None,
        *,
        timeout: _Timeout = None,
        memory_limit: _MemoryLimit = ...,
    ) -> MoveList:
        """One jump move per distinct resulting position (at most ``limit``). Raises ``SearchTimeoutError``, ``MemoryLimitError`` or ``KeyboardInterrupt`` (Ctrl-C)."""
    def count_jump_outcomes(self, *, timeout: _Timeout = None, memory_limit: _MemoryLimit = ...) -> int:
        """The number of distinct positions a jump move can reach. Raises ``SearchTimeoutError``, ``MemoryLimitError`` or ``KeyboardInterrupt`` (Ctrl-C)."""
    def legal_moves(
        self,
        limit: Optional[int] = None,
        *,
        timeout: _Timeout = None,
        memory_limit: _MemoryLimit = ...,
    ) -> MoveList:
        """Every legal move: the placements, then one jump per distinct outcome (at most ``limit`` moves in all). Raises ``SearchTimeoutError``, ``MemoryLimitError`` or ``KeyboardInterrupt``."""
    def count_legal_moves(self, *, timeout: _Timeout = None, memory_limit: _MemoryLimit = ...) -> int:
        """The number of legal moves (placements plus distinct jump outcomes). Raises ``SearchTimeoutError``, ``MemoryLimitError`` or ``KeyboardInterrupt`` (Ctrl-C)."""
    def play(self, move: _MoveLike) -> "Position":
        """The position after ``move`` (a ``Move`` or notation), with the other side to move. Raises ``IllegalMoveError`` saying why, or ``ParseError``."""
    def is_legal(self, move: _MoveLike) -> bool:
        """Whether ``move`` (a ``Move`` or notation) is legal here. Notation that does not parse raises ``ParseError``."""
    def check_move(self, move: _MoveLike) -> None:
        """Raises ``IllegalMoveError`` saying why ``move`` is illegal; returns ``None`` if it is legal. Raises ``ParseError`` for bad notation."""
    def scoring_move(self, *, timeout: _Timeout = None) -> Optional[Move]:
        """A jump move that scores for the side to move, or ``None``. Raises ``SearchTimeoutError`` or ``KeyboardInterrupt`` (Ctrl-C)."""
    def can_score(self, *, timeout: _Timeout = None) -> bool:
        """Whether the side to move can score this move. Raises ``SearchTimeoutError`` or ``KeyboardInterrupt`` (Ctrl-C)."""
    def prove(
        self,
        *,
        timeout: _Timeout = None,
        memory_limit: _MemoryLimit = ...,
        nodes: Optional[int] = None,
        tablebase: Optional["Tablebase"] = None,
        jobs: Optional[int] = None,
        checkpoint: Optional[Union[str, "PathLike[str]"]] = None,
        checkpoint_every: float = 60.0,
    ) -> "Proof":
        """Proves who wins with best play: a ``Proof`` whose ``result`` is ``"win"`` or ``"loss"`` for the side to move, with the line and a certificate the solver has checked, or ``"unknown"``. Exact, and possibly ``"draw"``, where a tablebase covers the board (``tablebase``, or the solver's own for at most 20 points; ``Proof.exact`` says whether ``plies`` is exact or the proof's bound); a limit that runs out gives ``"unknown"``, not an exception; Ctrl-C raises ``KeyboardInterrupt``, a finished position ``ValueError``. ``jobs`` threads (default 1); ``checkpoint`` saves the search's state to that path every ``checkpoint_every`` seconds and when it stops, and the same call goes on from it (a damaged or foreign file raises ``ValueError`` and is kept)."""
    def apply_jump(self, to: str) -> "JumpInProgress":
        """Starts a jump move with one jump of the ball to ``to``: a ``JumpInProgress``, the same side to move. Raises ``ParseError`` or ``IllegalMoveError``."""
    def end_turn(self) -> "Position":
        """The same men and ball with the other side to move (a pass, for asking what the opponent could do here)."""
    def mirror_columns(self) -> "Position":
        """The position mirrored left to right."""
    def flip_rows(self) -> "Position":
        """The position turned top to bottom with the sides swapped."""
    @property
    def action_count(self) -> int:
        """The number of actions of this board size: ``cols * (2 * rows + 2) + 1`` (601 on the standard board)."""
    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A numpy bool array of length ``action_count``: which actions are legal: the placements and single jumps; none once the game is over."""
    def legal_actions(self) -> List[int]:
        """The indices of the legal actions, ascending."""
    def random_legal_action(self, seed: int) -> Optional[int]:
        """A uniformly random legal action, drawn by the core's generator seeded with ``seed`` (0 to 2**64 - 1); ``None`` once the game is over. Raises ``ValueError`` for a seed out of range."""
    def planes_and_mask(self, relative: bool = False) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """``(planes(relative), mask)`` in one call, the mask as a read-only int8 array (1 for a legal action), as the ``PettingZoo`` env observes."""
    def apply_action(self, action: int) -> Union["Position", "JumpInProgress"]:
        """The state after action ``action`` (an int, see ``action_count``). Raises ``IllegalMoveError`` if illegal."""
    def move_to_actions(self, move: _MoveLike) -> List[int]:
        """The actions that make ``move`` step by step: a placement, or one jump per landing followed by "end jump". Raises ``ParseError`` or ``IllegalMoveError``."""
    def describe_action(self, action: int) -> str:
        """What action ``action`` does, e.g. ``"place H9"``, ``"jump to H7"``, ``"end jump"``. Raises ``IllegalMoveError`` for an unknown index."""
    def planes(self, relative: bool = False) -> npt.NDArray[np.float32]:
        """The board as a float32 numpy array of shape ``(5, rows + 2, cols)``."""
    def svg(
        self,
        last_move: Optional[_MoveLike] = None,
        size: Optional[int] = None,
        *,
        moves: _Moves = None,
        highlight: _Points = None,
        flip: bool = False,
    ) -> str:
        """An SVG picture of the board: ``moves`` as arrows (removed men crossed out), ``highlight`` points, ``last_move``, ``flip`` for Eks's view, ``size`` the width in pixels. Raises ``IllegalMoveError``, ``ParseError`` or ``ValueError``."""
    def png(
        self,
        last_move: Optional[_MoveLike] = None,
        size: Optional[int] = None,
        *,
        moves: _Moves = None,
        highlight: _Points = None,
        flip: bool = False,
    ) -> bytes:
        """The picture of ``svg`` (same arguments) as PNG bytes; needs the optional ``cairosvg`` package, else raises ``ImportError`` saying how to install it."""
    def _repr_svg_(self) -> str:
        """An SVG of the position, for Jupyter."""
    def svg_point_centre(self, point: str, *, flip: bool = False) -> Tuple[float, float]:
        """Where ``point`` (e.g. ``"H11"``) is drawn in this board's picture (turned when ``flip``), in the picture's own units (its ``viewBox``): the centre ``(x, y)`` of its circle, as ``svg`` draws it. Raises ``ParseError`` or ``IllegalMoveError``."""
    def svg_point_at(self, x: float, y: float, *, flip: bool = False) -> Optional[str]:
        """The point drawn nearest to ``(x, y)`` in this board's picture (turned when ``flip``), in the picture's own units, or ``None`` off the board: the inverse of ``svg_point_centre``, for a click."""

@final
class JumpInProgress:
    """A jump move under way: the board as it stands, the start point and the men removed so far."""

    def __new__(cls, text: str, rules: Optional[Rules] = None) -> "JumpInProgress":
        """A jump move under way from its text form. Raises ``ParseError``, or ``InvalidPositionError`` for one that cannot exist."""
    def __eq__(self, other: object, /) -> bool:
        """Equal jumps: the same board, start point and men removed."""
    def __hash__(self) -> int:
        """A hash that agrees with ``==``."""
    def __copy__(self) -> "JumpInProgress":
        """The jump itself: it is immutable."""
    def __deepcopy__(self, memo: Any) -> "JumpInProgress":
        """The jump itself: it is immutable."""
    @property
    def position(self) -> Position:
        """The board as it stands, the same side to move (a ``Position``)."""
    @property
    def start(self) -> str:
        """The point the ball started the move from, e.g. ``"K6"``."""
    @property
    def removed(self) -> List[str]:
        """The men removed so far, row by row from the bottom, left to right."""
    @property
    def to_move(self) -> str:
        """The side making the move: ``"O"`` or ``"X"``."""
    @property
    def winner(self) -> Optional[str]:
        """Always ``None``: nobody has won until the move ends."""
    @property
    def is_finished(self) -> bool:
        """Always ``False``: the game goes on until the move ends."""
    @property
    def is_mid_jump(self) -> bool:
        """Always ``True`` (``Position.is_mid_jump`` is always ``False``)."""
    @property
    def action_count(self) -> int:
        """The number of actions of this board size (see ``Position.action_count``)."""
    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A numpy bool array of length ``action_count``: which actions are legal (further jumps and "end jump")."""
    def legal_actions(self) -> List[int]:
        """The indices of the legal actions, ascending ("end jump" last)."""
    def random_legal_action(self, seed: int) -> Optional[int]:
        """A uniformly random legal action, drawn by the core's generator seeded with ``seed`` (0 to 2**64 - 1); ``None`` once the game is over. Raises ``ValueError`` for a seed out of range."""
    def planes_and_mask(self, relative: bool = False) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """``(planes(relative), mask)`` in one call, the mask as a read-only int8 array (1 for a legal action), as the ``PettingZoo`` env observes."""
    def apply_action(self, action: int) -> Union[Position, "JumpInProgress"]:
        """The state after action ``action`` (an int). Raises ``IllegalMoveError`` if illegal (a placement, say)."""
    def describe_action(self, action: int) -> str:
        """What action ``action`` does, e.g. ``"jump to H7"``, ``"end jump"``. Raises ``IllegalMoveError`` for an unknown index."""
    def single_jumps(self) -> List[str]:
        """The landing points of the single jumps that continue the move."""
    def apply_jump(self, to: str) -> "JumpInProgress":
        """Jumps on to ``to``: a new ``JumpInProgress``. Raises ``ParseError`` or ``IllegalMoveError``."""
    def end(self) -> Position:
        """Ends the move: the ``Position`` with the other side to move (its ``winner`` says whether the move scored)."""
    def planes(self, relative: bool = False) -> npt.NDArray[np.float32]:
        """The planes of ``Position.planes`` for the board as it stands, with channel 3 (jump under way) all ones."""
    def diagram(self) -> str:
        """A text board as ``Position.diagram`` draws it; the last line says who is jumping, from where, and the men removed so far."""
    def svg(
        self,
        size: Optional[int] = None,
        *,
        path: Optional[_MoveLike] = None,
        moves: _Moves = None,
        highlight: _Points = None,
        flip: bool = False,
    ) -> str:
        """An SVG picture of the board as it stands, labelled "(jumping)", the men removed so far crossed out, with the options of ``Position.svg``; ``path`` is the jump so far (e.g. ``"K6-G9"``), drawn as arrows like a last move (only its points are checked), and ``moves`` continue this jump from the ball (a placement raises ``IllegalMoveError``)."""
    def _repr_svg_(self) -> str:
        """An SVG of the board as it stands, labelled "(jumping)", for Jupyter."""

@final
class Episode:
    """One game of step-by-step play with a move limit: the core's step and reward rule (a placement or "end jump" passes the turn and counts one whole move, a jump keeps it; a goal gives +1 to the scorer and -1 to the other side; the move limit truncates, reward 0). An ended episode takes no more actions."""

    def __new__(
        cls,
        start: Union[Position, JumpInProgress, None] = None,
        *,
        move_limit: Optional[int] = 200,
        rules: Optional[Rules] = None,
        moves: int = 0,
    ) -> "Episode":
        """An episode from ``start`` (``None``: the standard start under ``rules``), resumed after ``moves`` whole moves if not 0. Raises ``ValueError`` for a finished start or a move limit below 1, ``TypeError`` for a start or move limit of the wrong type."""
    @property
    def state(self) -> Union[Position, JumpInProgress]:
        """The state now: a ``Position`` at the start of a move, a ``JumpInProgress`` during one."""
    @property
    def moves(self) -> int:
        """The whole moves played (actions that passed the turn)."""
    @property
    def move_limit(self) -> Optional[int]:
        """The whole moves after which the episode is truncated (``None``: never)."""
    @property
    def is_over(self) -> bool:
        """Whether the episode has ended (a goal or the move limit)."""
    @property
    def to_move(self) -> str:
        """``"O"`` or ``"X"``: the side to act."""
    def __getnewargs_ex__(self) -> Tuple[Tuple[Union[Position, JumpInProgress]], Dict[str, Optional[int]]]:
        """Pickling and copies: ``Episode(state, move_limit=..., moves=...)``."""
    def __repr__(self) -> str:
        """``Episode(<state's repr>, move_limit=..., moves=...)``: evaluates back."""
    def __eq__(self, other: object, /) -> bool:
        """Equal episodes: the same state, whole moves and move limit."""
    def step(self, action: int) -> "Transition":
        """Takes action ``action`` (an int) and returns the ``Transition``. Raises ``IllegalMoveError`` for an action that cannot be taken or once the episode is over (the episode is then unchanged), ``TypeError`` for a non-int."""

@final
class Transition:
    """What one action of an ``Episode`` gave."""

    @property
    def state(self) -> Union[Position, JumpInProgress]:
        """The state after the action."""
    @property
    def mover(self) -> str:
        """``"O"`` or ``"X"``: the side that took the action."""
    @property
    def reward(self) -> float:
        """The mover's reward: +1.0 if it scored, -1.0 for an own goal, else 0.0."""
    @property
    def terminated(self) -> bool:
        """Whether the action ended the game with a goal."""
    @property
    def truncated(self) -> bool:
        """Whether the game reached the move limit without a goal."""
    @property
    def is_over(self) -> bool:
        """Whether the episode ended (``terminated or truncated``)."""
    @property
    def winner(self) -> Optional[str]:
        """``"O"`` or ``"X"`` if the action won the game for that side, else ``None``."""
    def reward_for(self, side: str) -> float:
        """The reward of ``side`` (``"O"`` or ``"X"``): +1.0 if it won with this action, -1.0 if its opponent did, else 0.0. Raises ``ParseError`` for another side."""

@final
class Game:
    """A game: start position, moves, positions, result, move limit, text record."""

    def __new__(
        cls,
        start: Union[Position, str, None] = None,
        move_limit: Optional[int] = None,
    ) -> "Game":
        """A game from ``start`` (``None``: the standard start). Raises ``ParseError`` or ``InvalidPositionError`` for ``start``, ``ValueError`` for ``move_limit``."""
    @staticmethod
    def from_record(text: str) -> "Game":
        """Reads a text game record (every move is checked). Raises ``ParseError``."""
    @staticmethod
    def load(path: Union[str, "PathLike[str]"]) -> "Game":
        """Reads a game record from the file at ``path``. Raises ``OSError`` or ``ParseError``."""
    def save(self, path: Union[str, "PathLike[str]"]) -> None:
        """Writes the game record to the file at ``path``. Raises ``OSError`` if it cannot."""
    def record(self) -> str:
        """The text game record."""
    def __copy__(self) -> "Game":
        """A copy of the game."""
    def __deepcopy__(self, memo: Any) -> "Game":
        """A copy of the game."""
    def __len__(self) -> int:
        """The number of moves played."""
    def __eq__(self, other: object, /) -> bool:
        """Equal games: the same start, moves and move limit."""
    def push(self, move: _MoveLike) -> None:
        """Plays ``move`` (a ``Move`` or notation). Raises ``IllegalMoveError`` (the game is then unchanged) or ``ParseError``."""
    def pop(self) -> Optional[Move]:
        """Takes back the last move and returns it (``None`` if there is none)."""
    @property
    def position(self) -> Position:
        """The current position."""
    @property
    def start(self) -> Position:
        """The start position."""
    @property
    def moves(self) -> List[Move]:
        """The moves played."""
    @property
    def positions(self) -> List[Position]:
        """The start position and the position after each move."""
    @property
    def move_limit(self) -> Optional[int]:
        """The move limit (``None``: no limit)."""
    @property
    def result(self) -> str:
        """``"*"`` (ongoing), ``"O wins"``, ``"X wins"`` or ``"draw"`` (move limit reached)."""
    @property
    def winner(self) -> Optional[str]:
        """``"O"`` or ``"X"`` once a side has scored, else ``None``."""
    @property
    def is_over(self) -> bool:
        """Whether the game is over: a goal, or the move limit reached."""
    def svg(
        self,
        size: Optional[int] = None,
        *,
        moves: _Moves = None,
        highlight: _Points = None,
        flip: bool = False,
    ) -> str:
        """An SVG picture of the current position with the last move drawn, and the options of ``Position.svg`` (``moves`` legal in the current position)."""
    def _repr_svg_(self) -> str:
        """An SVG of the current position with the last move drawn."""

_PositionLike = Union[Position, str]

@final
class Analysis:
    """The result of ``Engine.analyse``."""

    @property
    def best_move(self) -> Move:
        """The move to play."""
    @property
    def score(self) -> Optional[int]:
        """The evaluation in hundredths of a row of ball progress for the side to move, or ``None`` when the result is forced (see ``win_in``/``loss_in``)."""
    @property
    def win_in(self) -> Optional[int]:
        """Plies until the side to move scores by force (1: this move), or ``None``."""
    @property
    def loss_in(self) -> Optional[int]:
        """Plies until the opponent scores by force, or ``None``."""
    @property
    def score_text(self) -> str:
        """The score as text: ``"+0.75"``, ``"win in 3"`` or ``"loss in 2"``."""
    @property
    def depth(self) -> int:
        """The deepest iteration completed, in plies (0 when no search was needed)."""
    @property
    def nodes(self) -> int:
        """Positions examined."""
    @property
    def seconds(self) -> float:
        """Time taken, in seconds."""
    @property
    def pv(self) -> List[Move]:
        """The expected continuation, starting with the best move."""
    @property
    def decision(self) -> str:
        """How the move was chosen: ``"scores"``, ``"only move"``, ``"all moves lose"`` or ``"searched"``."""
    def _repr_html_(self) -> str:
        """A small table for notebooks: best move, score, depth, nodes, how the move was chosen and the principal variation."""


@final
class Engine:
    """The engine: ``Engine(time=None, depth=None, nodes=None, seed=1, threads=1)`` by keyword, ``time`` in seconds per move."""

    def __new__(
        cls,
        time_ms: Optional[int] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        seed: int = 1,
        threads: int = 1,
        *,
        time: Optional[float] = None,
        eval: Union[str, "Network", None] = "auto",
    ) -> "Engine":
        """An engine with these limits (``None``: not limited by it): ``time`` seconds per move (at least 0.001), ``depth``, ``nodes``, ``threads``; ``eval`` its evaluation, ``"auto"`` (the default: the network built in on the standard 15x19 board, the hand evaluation on every other), ``"hand"`` (the hand-written terms), ``"net"`` (the network built in, for the standard 15x19 board only), ``"net:PATH"`` (a weights file, read now) or a ``Network``. ``time_ms`` (milliseconds; the first positional argument) is deprecated: it gives the same engine with a ``DeprecationWarning``, and with ``time`` too raises ``TypeError``. Raises ``ValueError`` for a limit that is not positive or an ``eval`` that names no evaluation, ``OSError`` or ``NetworkError`` for a weights file that cannot be read or is refused."""
    @property
    def eval(self) -> Union[str, "Network"]:
        """Its evaluation: ``"auto"``, ``"hand"`` or its ``Network``."""
    def __getnewargs_ex__(self) -> Tuple[Tuple[None, Optional[int], Optional[int], int, int], Dict[str, Any]]:
        """Pickles as its settings, ``Engine(None, depth, nodes, seed, threads, time=time, eval=eval)`` (an engine keeps nothing between searches that changes its answers): the arguments by position, ``time`` and ``eval`` (``"auto"``, ``"hand"`` or the ``Network``) by keyword."""
    def best_move(self, pos: Union[Game, _PositionLike], *, timeout: _Timeout = None) -> Move:
        """The move to play in ``pos``: a ``Game`` (then the positions it has been through count as a slight loss, so the engine avoids going round in circles), a ``Position`` or a position string. Raises ``ValueError`` if there is none, ``SearchTimeoutError`` or ``KeyboardInterrupt``."""
    def analyse(self, pos: Union[Game, _PositionLike], *, timeout: _Timeout = None) -> Analysis:
        """Searches ``pos`` (a ``Game``, ``Position`` or position string, as in ``best_move``) and returns an ``Analysis`` (best move, score, depth, nodes, principal variation). Raises ``ValueError``, ``SearchTimeoutError`` or ``KeyboardInterrupt``."""
    def analyse_game(self, game: Game, *, timeout: _Timeout = None) -> Analysis:
        """``analyse`` for the current position of ``game`` (a ``Game``), with the history guard. Raises ``TypeError`` for anything but a ``Game``, and as ``analyse`` does: ``ValueError``, ``SearchTimeoutError``, ``KeyboardInterrupt``."""
    def analyse_many(
        self, positions: Iterable[_PositionLike], jobs: Optional[int] = None, *, timeout: _Timeout = None
    ) -> List[Union[Analysis, ValueError]]:
        """Analyses every position of ``positions`` (``Position`` objects or position strings) on ``jobs`` threads (``None``: every core), each with an engine of its own with these limits, seed and evaluation, and answers per position, in input order: its ``Analysis``, or, in the place of a position with no move to choose, the ``ValueError`` that ``analyse`` would raise for it (returned, not raised, as ``asyncio.gather(return_exceptions=True)`` does). Raises ``TypeError`` or ``ParseError`` for something that is not a position, before any search; ``SearchTimeoutError`` or ``KeyboardInterrupt`` for the whole batch."""

@final
class MoveAnalysis:
    """The search behind one move of a ``SelfPlayGame`` (its ``analyses``): what ``Analysis`` says of it, without the move (the game's), the principal variation and the time. The score is from the view of the side that made the move."""

    @property
    def score(self) -> Optional[int]:
        """The evaluation in hundredths of a row of ball progress for the side that moved, or ``None`` when the result is forced (see ``win_in``/``loss_in``)."""
    @property
    def win_in(self) -> Optional[int]:
        """Plies until the side that moved scores by force (1: this move), or ``None``."""
    @property
    def loss_in(self) -> Optional[int]:
        """Plies until its opponent scores by force, or ``None``."""
    @property
    def score_text(self) -> str:
        """The score as text: ``"+0.75"``, ``"win in 3"`` or ``"loss in 2"``."""
    @property
    def depth(self) -> int:
        """The deepest iteration completed, in plies (0 when no search was needed)."""
    @property
    def nodes(self) -> int:
        """Positions examined."""
    @property
    def decision(self) -> str:
        """How the move was chosen: ``"scores"``, ``"only move"``, ``"all moves lose"`` or ``"searched"``."""
    def __eq__(self, other: object, /) -> bool:
        """Equal when every figure is."""
    def __hash__(self) -> int:
        """A hash of its figures."""

@final
class SelfPlayGame:
    """One game of ``selfplay``: its index, seed, record, each move's search and time."""

    @property
    def index(self) -> int:
        """Its index in the run, from 0."""
    @property
    def seed(self) -> int:
        """Its seed, made from the run's seed and its index: Ohs's engine has this seed, Eks's the next."""
    @property
    def game(self) -> Game:
        """The game record (start, moves, result)."""
    @property
    def analyses(self) -> List[MoveAnalysis]:
        """The search behind each move (``MoveAnalysis``), one per move of ``game`` in its order: score (from the mover's view), depth, nodes and decision."""
    @property
    def seconds(self) -> float:
        """Time taken, in seconds."""

def random_opening(seed: int, index: int) -> Position:
    """Opening ``index`` of the openings seeded with ``seed``: the standard start after four random placements within three points of the ball (Ohs to move); the same arguments give the same opening. Game ``i`` of ``selfplay(random_openings=True)`` starts from ``random_opening(g.seed, 0)``, ``g`` its ``SelfPlayGame``."""

def selfplay(
    games: int,
    *,
    start: int = 0,
    jobs: Optional[int] = None,
    time: Optional[float] = None,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    seed: int = 1,
    openings: Optional[Iterable[_PositionLike]] = None,
    move_limit: int = 300,
    timeout: _Timeout = None,
    time_ms: Optional[int] = None,
    random_openings: bool = False,
    eval: Union[str, "Network", None] = "auto",
) -> List[SelfPlayGame]:
    """Plays ``games`` engine-against-engine games on ``jobs`` threads (``None``: every core) and returns them in order as ``SelfPlayGame``, each move's search kept (``analyses``): games ``start`` to ``start + games - 1`` of the run, from ``openings`` in turn (or, with ``random_openings=True``, each from an opening of its own: ``random_opening(g.seed, 0)``), each move within ``time`` seconds, ``depth`` or ``nodes`` (0.1 s when none is given; ``time_ms``, milliseconds, is deprecated)."""

_Path = Union[str, "PathLike[str]"]

@final
class Network:
    """A learned evaluation: a small value network for each board size it serves, read from a weights file (``.phbnet``)."""

    def __new__(cls, path: _Path) -> "Network":
        """Reads the weights file ``path`` (``load``)."""
    def __eq__(self, other: object, /) -> bool:
        """Equal networks: the same description and weights."""
    def __ne__(self, other: object, /) -> bool:
        """Not ``==``."""
    __hash__: None  # type: ignore[assignment]
    @staticmethod
    def load(path: _Path) -> "Network":
        """Reads the weights file ``path``: ``OSError`` when it cannot be read, ``NetworkError`` (naming the file and what is wrong: damaged, truncated, another version, over 64 MiB, ...) when it is refused."""
    @staticmethod
    def from_bytes(data: bytes) -> "Network":
        """Reads a network from the bytes of its weights file (``to_bytes()``). Raises ``NetworkError`` for bytes that are not one."""
    @staticmethod
    def built_in() -> "Network":
        """The network built into this build (``eval="net"``, and ``eval="auto"`` on the standard 15x19 board it serves)."""
    def to_bytes(self) -> bytes:
        """The network's weights file, as ``from_bytes`` reads it."""
    @property
    def sizes(self) -> List[Tuple[int, int]]:
        """The board sizes it serves, as ``(cols, rows)``, in the file's order."""
    @property
    def description(self) -> str:
        """How it was made (the trainer's command, seed, generation)."""
    def evaluate(self, position: _PositionLike) -> int:
        """Its value of ``position`` (a ``Position`` or a position string) for the side to move, in hundredths of a row (-30000 to 30000), as the engine's search uses it. Raises ``NetworkError`` for a board size it does not serve or a finished game."""

def network_features(
    positions: Iterable[_PositionLike], *, timeout: _Timeout = None
) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.float32]]:
    """The inputs of the network for every position of ``positions``, as three numpy arrays ``(offsets, indices, dense)``: position ``i``'s sparse features are ``indices[offsets[i]:offsets[i + 1]]``, its dense ones ``dense[i]``."""

@final
class CheckedProof:
    """What a valid certificate proves: ``winner`` forces a goal from ``root`` within ``plies`` plies."""

    @property
    def winner(self) -> str:
        """The side that forces a goal: ``"O"`` or ``"X"``."""
    @property
    def plies(self) -> int:
        """The longest line of the proof, in plies (the loser's longest resistance against the certificate's moves)."""
    @property
    def nodes(self) -> int:
        """The certificate's number of nodes."""
    @property
    def root(self) -> Position:
        """The root position: what the certificate proves a win from."""

@final
class Certificate:
    """A proof certificate: a proved win as a graph of positions that ``check()`` verifies with the plain rules."""

    @staticmethod
    def parse(text: str) -> "Certificate":
        """Reads a certificate from its text format. Raises ``ParseError`` for text that is not one (naming the line)."""
    @staticmethod
    def load(path: _Path, *, timeout: _Timeout = None) -> "Certificate":
        """Reads a certificate file (a path or ``os.PathLike``), plain text or gzip-compressed (told by its first bytes), a line at a time. Raises ``OSError`` or ``ParseError`` (a line over 1 MiB, a NUL byte or a byte-order mark included); ``SearchTimeoutError`` after ``timeout`` seconds, ``KeyboardInterrupt`` on Ctrl-C; ``MemoryLimitError`` only if the allocator refuses the nodes (no limit is set: the file's size is the caller's)."""
    def save(self, path: _Path) -> None:
        """Writes the text format to ``path``, gzip-compressed if the name ends in ``.gz``, through a temporary file renamed into place (an interrupted write leaves no half file). Raises ``OSError``."""
    def check(self, *, timeout: _Timeout = None) -> CheckedProof:
        """Checks the certificate with the plain rules: every move legal, every reply of the loser answered, every line ending in the winner's goal. Raises ``CertificateError``, ``SearchTimeoutError`` or ``KeyboardInterrupt``."""
    @property
    def winner(self) -> str:
        """The side the certificate claims forces a goal: ``"O"`` or ``"X"``."""
    @property
    def root(self) -> Optional[Position]:
        """The root position (the first node's), or ``None`` for a certificate without nodes."""
    def __len__(self) -> int:
        """The number of nodes."""
    def __eq__(self, other: object, /) -> bool:
        """The same graph: winner, nodes and moves."""
    def __ne__(self, other: object, /) -> bool:
        """Not ``==``."""
    __hash__: None  # type: ignore[assignment]

@final
class Proof:
    """What ``Position.prove`` found: ``result``, ``plies``, ``line``, ``certificate`` and the figures."""

    @property
    def result(self) -> str:
        """``"win"`` or ``"loss"`` for the side to move, ``"draw"``, or ``"unknown"`` when nothing was proved."""
    @property
    def plies(self) -> Optional[int]:
        """Plies (both sides' moves, the goal included) to the forced goal of a win or a loss; ``None`` otherwise. Exact when ``exact`` is true, else a bound: the winner wins within it."""
    @property
    def numbers(self) -> Optional[Tuple[int, int]]:
        """When a limit stopped the search: the root's proof numbers for the side to move's win and for its loss, ``(win, loss)``, as the two searches last had them (the smaller, the nearer that proof looked); ``None`` otherwise."""
    @property
    def exact(self) -> bool:
        """Whether ``plies`` is exact (the shortest win, the longest loss: a tablebase's answer, which the prover builds on boards of at most 20 points, or a win in 1 or a loss in 2) rather than this proof's bound (``str(proof)`` then says ``win within N``); ``True`` for a draw, ``False`` for an unknown result."""
    @property
    def line(self) -> List[Move]:
        """The proved line: the side to move's move first, then the longest resistance within the proof."""
    @property
    def certificate(self) -> Optional[Certificate]:
        """The certificate that proves the result (checked before it was claimed), or ``None`` for an unknown result or a draw."""
    @property
    def nodes(self) -> int:
        """Nodes searched."""
    @property
    def table_entries(self) -> int:
        """Positions remembered in the prover's tables at the end."""
    @property
    def stopped(self) -> Optional[str]:
        """Why the search stopped without a proof (``"timed out"``, the work limit of ``nodes=``, the memory limit), or ``None``."""
    @property
    def exhausted(self) -> bool:
        """Whether both searches ended without proving a goal: neither side forces one in the graph searched (not claimed as a draw)."""
    def save(self, path: _Path) -> None:
        """Writes the certificate to ``path`` as ``Certificate.save`` does (gzip-compressed for a name ending in ``.gz``, atomically). Raises ``ValueError`` without a certificate, ``OSError``."""
    def check(self, *, timeout: _Timeout = None) -> CheckedProof:
        """Checks the certificate again, as ``Certificate.check`` does: a ``CheckedProof``, or ``CertificateError``. Raises ``ValueError`` without a certificate, ``SearchTimeoutError`` or ``KeyboardInterrupt``."""

def check_proof(path_or_certificate: Union[Certificate, _Path], *, timeout: _Timeout = None) -> CheckedProof:
    """Checks a certificate, a ``Certificate`` or the path of a certificate file (plain or gzip-compressed), and returns what it proves. Raises ``CertificateError``, ``ParseError``, ``OSError``, ``TypeError``, ``SearchTimeoutError`` or ``KeyboardInterrupt``."""

def _parse_size(text: str) -> int:
    """The bytes of a size such as ``"512M"`` (a unit B, K, M or G), read as ``memory_limit="512M"`` is. Raises ``ParseError`` saying what is wrong."""

def frontier(
    position: Union[Position, str],
    plies: int,
    *,
    timeout: _Timeout = None,
    memory_limit: _MemoryLimit = ...,
) -> List[Position]:
    """The distinct unfinished positions ``plies`` (0 to 32) plies below ``position``, each to be proved on its own and combined with ``combine_proofs``. Raises ``SearchTimeoutError``, ``MemoryLimitError``, ``KeyboardInterrupt``, ``ValueError`` or ``TypeError``."""

def combine_proofs(
    root: Union[Position, str],
    plies: int,
    certificates: Iterable[Certificate],
    *,
    timeout: _Timeout = None,
) -> Proof:
    """Combines the certificates of positions of ``frontier(root, plies)`` into a checked ``Proof`` of ``root``, or an ``"unknown"`` one when they do not settle it (a frontier position without a certificate counts as unproved). Raises ``CertificateError``, ``SearchTimeoutError``, ``KeyboardInterrupt``, ``ValueError`` or ``TypeError``."""

@final
class _Deadline:
    """A ``timeout=`` in seconds from now (``None``: none), for Python code that makes several calls under one timeout: ``left()`` gives each call the seconds that are left."""

    def __new__(cls, timeout: _Timeout = None) -> "_Deadline":
        """Reads ``timeout`` as every ``timeout=`` is read: ``TypeError`` for what is not a number, ``ValueError`` for a negative one."""
    def left(self) -> Optional[float]:
        """The seconds left (``None``: no deadline). Raises ``SearchTimeoutError`` once none are."""

@final
class Value:
    """The exact value of a position for its side to move, from a ``Tablebase``: ``result`` and ``plies``."""

    @property
    def result(self) -> str:
        """``"win"`` or ``"loss"`` for the side to move, or ``"draw"``."""
    @property
    def plies(self) -> Optional[int]:
        """Plies (both sides' moves, the goal included) to the forced goal; ``None`` for a draw."""
    def is_kept_by(self, child: "Value") -> bool:
        """Whether a move to a position of value ``child`` (for its side to move, the opponent) keeps this value: a win stays a win (in any number of plies), a draw is not lost, a loss holds out its longest. The rule ``phutball.rl.exact_accuracy`` counts by (the solver's)."""
    def __eq__(self, other: object, /) -> bool:
        """The same result in the same number of plies."""
    def __hash__(self) -> int:
        """A hash that agrees with ``==``."""

@final
class Tablebase:
    """The exact value of every position of a tiny board (at most 32 points) under one off-board rule."""

    @staticmethod
    def build(
        cols: int,
        rows: int,
        *,
        continue_off_board: bool = False,
        timeout: _Timeout = None,
        memory_limit: _MemoryLimit = ...,
        jobs: Optional[int] = None,
    ) -> "Tablebase":
        """Builds the tablebase of a ``cols`` x ``rows`` board (at most 32 points), under the continue-off-board rule when ``continue_off_board`` is true, on ``jobs`` threads (1 to 256; ``None``: every core; the values do not depend on it). Raises ``SearchTimeoutError``, ``MemoryLimitError``, ``KeyboardInterrupt``, ``ValueError`` or ``InvalidPositionError``."""
    @staticmethod
    def from_bytes(data: bytes) -> "Tablebase":
        """Reads a table from the bytes of its file format (``to_bytes()``). Raises ``TablebaseFileError``."""
    @staticmethod
    def load(path: _Path, *, timeout: _Timeout = None, memory_limit: _MemoryLimit = ...) -> "Tablebase":
        """Reads a table file written by ``save`` (or the CLI's ``phutball tablebase build --out``), its header checked before a value is read. Raises ``OSError`` or ``TablebaseFileError`` (bytes after the values included); ``MemoryLimitError`` for a table over ``memory_limit`` bytes (default ``None``: no limit), before its values are read; ``SearchTimeoutError`` after ``timeout`` seconds; ``KeyboardInterrupt`` on Ctrl-C."""
    def to_bytes(self) -> bytes:
        """The table in its file format: a 32-byte header, then a byte a state."""
    def save(self, path: _Path) -> None:
        """Writes the table's file format to ``path`` through a temporary file renamed into place (an interrupted write leaves no half file). Raises ``OSError``."""
    def covers(self, position: Position) -> bool:
        """Whether ``position`` is of this table's board size and off-board rule."""
    def probe(self, position: Position) -> Optional[Value]:
        """The value of ``position`` for its side to move, a ``Value``, or ``None`` if the table does not cover it (another board size or off-board rule)."""
    def best_move(self, position: Position) -> Optional[Move]:
        """A move that keeps the value of ``position``: the shortest win, else a drawing move, else the loss that holds out longest."""
    def line(self, position: Position, max_plies: int) -> List[Move]:
        """The best moves from ``position`` (``best_move`` played) until the game ends or ``max_plies`` moves are made (a draw goes on for ever). Raises ``ValueError``."""
    def position(self, index: int) -> Position:
        """The position numbered ``index`` of the ``stats()["positions"]`` the table values (none over): below ``states``, Ohs to move; from there, the same ball and men with Eks to move. Raises ``IndexError`` past them (negative indices too), ``TypeError`` for a non-int."""
    def stats(self) -> Dict[str, int]:
        """The counts of the table's positions (either side to move, not over): ``positions``, ``wins``, ``losses``, ``draws``, and ``longest_win`` and ``longest_loss`` in plies, as a dict."""
    @property
    def start_value(self) -> Value:
        """The value of the start position of the table's board (the ball on the centre, Ohs to move)."""
    @property
    def cols(self) -> int:
        """Number of columns."""
    @property
    def rows(self) -> int:
        """Number of rows, goal line to goal line."""
    @property
    def continue_off_board(self) -> bool:
        """Whether the values are for the continue-off-board rule."""
    @property
    def states(self) -> int:
        """The number of states stored: positions with Ohs to move, not over (each stands for its mirror image with Eks to move too)."""

@disjoint_base
class VecEnv:
    """``num_envs`` games of step-by-step play stepped together in Rust, the GIL released
    (``phutball.VecEnv`` derives from it, adding gymnasium-style spaces).

    Threads: one batch steps at a time; calls from several threads on one
    ``VecEnv`` are safe and take turns (each waits, the GIL released, for the
    one before it). A ``VecEnv`` does not pickle (``TypeError``): make a new
    one from its settings."""

    def __new__(
        cls,
        num_envs: int,
        *,
        cols: int = 15,
        rows: int = 19,
        rules: Optional[Rules] = None,
        move_limit: Optional[int] = 200,
        seed: Optional[int] = None,
        jobs: Optional[int] = None,
        opponent: Optional[str] = None,
        opponent_limits: Optional[Dict[str, int]] = None,
        agent_side: Optional[str] = "O",
        opponent_eval: Union[str, Network, None] = None,
    ) -> "VecEnv":
        """``num_envs`` games at the start, stepped on up to ``jobs`` threads (``None``: every core). ``opponent``: ``None`` (self-play), ``"random"``, ``"engine"`` (``opponent_limits``: a dict of ``time`` (seconds), ``depth``, ``nodes``; default ``{"nodes": 100}``; ``time_ms`` is deprecated; ``opponent_eval``: its evaluation, as ``Engine(eval=...)`` takes it, ``"auto"`` (the default), ``"hand"``, ``"net"``, ``"net:PATH"`` or a ``Network``) or ``"external"`` (``step_waiting_into``; ``phutball.VecEnv`` takes a callable); ``agent_side`` ``"O"`` or ``"X"``. Raises ``ValueError`` for a bad size, board, move limit, job count or opponent (``opponent_eval`` with another opponent than ``"engine"`` too), ``TypeError`` for an argument of the wrong type, ``NetworkError`` for a weights file refused or a network without one for the board's size, ``OSError`` for a weights file that cannot be read."""
    def __len__(self) -> int:
        """The number of games."""
    @property
    def num_envs(self) -> int:
        """The number of games."""
    @property
    def jobs(self) -> int:
        """The jobs (threads) a step runs: at most ``jobs=``, and one per 128 games."""
    @property
    def move_limit(self) -> Optional[int]:
        """The whole moves after which a game without a goal is truncated (None: never)."""
    @property
    def action_count(self) -> int:
        """The number of actions of the board (the masks' second dimension)."""
    @property
    def opponent(self) -> Optional[str]:
        """The opponent: ``None`` (self-play), ``"random"``, ``"engine"`` or ``"external"`` (a callable's, stepped by ``step_waiting_into``)."""
    @property
    def opponent_eval(self) -> Union[str, Network, None]:
        """The engine opponent's evaluation: ``"auto"``, ``"hand"`` or its ``Network`` (``None`` for the other opponents)."""
    @property
    def agent_side(self) -> str:
        """The agent's side, ``"O"`` or ``"X"`` (``"O"`` in self-play, where it plays both)."""
    def waiting(self) -> npt.NDArray[np.int64]:
        """The games waiting for an external opponent's action, in order, as an int64 array (empty for the other opponents)."""
    def step_waiting_into(
        self,
        actions: Union[npt.ArrayLike, List[int]],
        obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.bool_],
        rewards: npt.NDArray[np.float32],
        terminated: npt.NDArray[np.bool_],
        truncated: npt.NDArray[np.bool_],
        to_move: Optional[npt.NDArray[np.int8]] = None,
    ) -> Dict[str, npt.NDArray[Any]]:
        """An external opponent's ``actions``, one per game of ``waiting()`` in its order, into the arrays of ``step_into`` (checked as it checks them): only the waiting games' entries are written (their observation and mask; their reward and end flags if the action ended the game, the reward the agent's). Returns ``{}`` if no game ended, else ``step``'s info for the games that did. Raises as ``step_into`` (``IllegalMoveError`` naming the game, ``ValueError`` for a wrong number of actions or a batch without an external opponent); then no game changes."""
    def _save(self) -> None:
        """Keeps a copy of the batch (its games and generators) for ``_restore``: ``phutball.VecEnv`` saves before a step with a callable opponent, so that an error in any of its calls changes no game."""
    def _restore(self) -> None:
        """Puts the batch back as ``_save`` left it (nothing if it saved none)."""
    @property
    def observation_shape(self) -> Tuple[int, int, int]:
        """The shape of one game's observation, ``(C, rows + 2, cols)``."""
    def reset(self, seed: Optional[int] = None) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Every game back at the start; ``seed`` reseeds ``sample_actions``. Returns ``(obs, mask)``; Ctrl-C raises ``KeyboardInterrupt``."""
    def step(
        self, actions: Union[npt.ArrayLike, List[int]]
    ) -> Tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        Dict[str, npt.NDArray[Any]],
    ]:
        """Takes ``actions[i]`` in game ``i``. Returns ``(obs, mask, rewards, terminated, truncated, info)``; raises ``IllegalMoveError`` (no game changes), ``ValueError``, ``TypeError`` or ``KeyboardInterrupt``."""
    def step_into(
        self,
        actions: Union[npt.ArrayLike, List[int]],
        obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.bool_],
        rewards: npt.NDArray[np.float32],
        terminated: npt.NDArray[np.bool_],
        truncated: npt.NDArray[np.bool_],
        to_move: Optional[npt.NDArray[np.int8]] = None,
    ) -> Dict[str, npt.NDArray[Any]]:
        """``step`` into the caller's arrays, made once and reused: no array is allocated. Returns ``{}`` if no game ended, else ``step``'s info; raises ``TypeError`` or ``ValueError`` naming a bad array, ``IllegalMoveError`` or ``KeyboardInterrupt`` (no game changes; the arrays may hold part of the step)."""
    def reset_into(
        self,
        obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.bool_],
        *,
        seed: Optional[int] = None,
        to_move: Optional[npt.NDArray[np.int8]] = None,
    ) -> None:
        """``reset`` into the caller's arrays ``obs`` and ``mask`` (and ``to_move``), checked as ``step_into`` checks them (``TypeError``, ``ValueError``). ``KeyboardInterrupt`` on Ctrl-C."""
    def sample_actions(self) -> npt.NDArray[np.int64]:
        """One legal action per game, uniformly at random (the batch's seeded generator), as an int64 array."""
    def states(self) -> List[Union[Position, JumpInProgress]]:
        """The state of each game: a ``Position``, or a ``JumpInProgress`` during a jump move."""
