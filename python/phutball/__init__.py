"""Philosopher's Football (Phutball), backed by the Rust ``phutball`` library.

>>> import phutball
>>> pos = phutball.Position.from_points("K6", ["J7", "H8", "G10", "H11"])
>>> [str(m) for m in pos.jump_paths()]
['K6-G9', 'K6-G9-G11', 'K6-G9-G11-J11']

Positions are immutable values: ``pos.play(move)`` returns a new one. Every
call that can run long takes ``timeout=`` (seconds; ``SearchTimeoutError`` when it
runs out) and stops on Ctrl-C; the lists also take ``memory_limit=`` (bytes,
``DEFAULT_MEMORY_LIMIT`` by default; ``MemoryLimitError`` past it). The
rules are in the repository's ``docs/rules.md``; the reinforcement-learning
environment is ``phutball.env`` (import it explicitly: it needs PettingZoo's
API only if PettingZoo is installed), and Gymnasium's is ``phutball.gym``
(``import phutball.gym`` registers ``"Phutball-v0"``; it needs gymnasium);
a policy's exact accuracy against a tablebase and its Elo against the
engine are ``phutball.rl``'s (import it explicitly);
the board to play on in Jupyter is
``phutball.widget.Board`` (import it explicitly: it needs ``anywidget``,
``pip install "phutball[notebook]"``).
"""

from collections.abc import Sequence as _Sequence

from ._phutball import (
    DEFAULT_MEMORY_LIMIT,
    Analysis,
    Certificate,
    CertificateError,
    CheckedProof,
    Engine,
    Episode,
    Game,
    IllegalMoveError,
    InvalidPositionError,
    JumpInProgress,
    MemoryLimitError,
    Move,
    MoveAnalysis,
    MoveList,
    Network,
    NetworkError,
    ParseError,
    Position,
    Proof,
    Rules,
    SearchTimeoutError,
    SelfPlayGame,
    Tablebase,
    TablebaseFileError,
    TooManyOutcomesError,
    Transition,
    Value,
    __version__,
    check_proof,
    combine_proofs,
    frontier,
    network_features,
    random_opening,
    selfplay,
)
from ._vector import VecEnv
from . import svg  # pictures as plain functions: phutball.svg.board, phutball.svg.to_png

# A MoveList is a read-only sequence: isinstance(moves, Sequence) holds.
_Sequence.register(MoveList)

__all__ = [
    "DEFAULT_MEMORY_LIMIT",
    "Analysis",
    "Certificate",
    "CertificateError",
    "CheckedProof",
    "Engine",
    "Episode",
    "Game",
    "IllegalMoveError",
    "InvalidPositionError",
    "JumpInProgress",
    "MemoryLimitError",
    "Move",
    "MoveAnalysis",
    "MoveList",
    "Network",
    "NetworkError",
    "ParseError",
    "Position",
    "Proof",
    "Rules",
    "SearchTimeoutError",
    "SelfPlayGame",
    "Tablebase",
    "TablebaseFileError",
    "TooManyOutcomesError",
    "Transition",
    "Value",
    "VecEnv",
    "__version__",
    "check_proof",
    "combine_proofs",
    "frontier",
    "network_features",
    "random_opening",
    "selfplay",
    "svg",
]
