"""How good a reinforcement-learning policy is: exact accuracy against a
tiny board's tablebase, and Elo against the engine on the standard board.

A policy is the Gymnasium env's: ``policy(obs, mask) -> actions``, batched,
``obs`` float32 ``(B, 5, rows + 2, cols)`` (``planes()``), ``mask`` bool
``(B, action_count)`` (the legal actions), returning ``B`` action indices.
Its *move* from a position is its actions until the turn passes (a
placement or "end jump") or the game ends. Both helpers step every game
together and call the policy once a round for all the games still acting,
so a numpy policy is called in batches.

- ``exact_accuracy(policy, board="3x7", positions=1000, seed=0)``: the
  share of positions where the policy's move keeps the game-theoretic
  value (``keeps_value``), with a per-value breakdown.
- ``elo_vs_engine(policy, nodes=(100, 1000), games=20, seed=0)``: score
  and Elo difference against the engine at each node budget, on 15x19.
- ``random_policy(seed)``: a uniform choice among the legal actions, the
  baseline; ``engine_policy(nodes, eval=...)``: the engine at a node
  budget (by default with the built-in network, or with the hand
  evaluation or another ``Network``), a rung of a ladder to rate policies
  against.

Tablebases are built once per board and rule and kept in this module
(``tablebase(board)``). Every long call takes ``timeout=`` (seconds;
``phutball.SearchTimeoutError`` past it) and stops on Ctrl-C. This module
needs numpy only; ``import phutball`` does not import it.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

# _Deadline: one timeout= across a run's many calls, read and kept as every
# call's own timeout= is (crates/phutball-py/src/deadline.rs).
from ._phutball import Engine, Episode, JumpInProgress, Network, Position, Rules, Tablebase, _Deadline

__all__ = [
    "Policy",
    "ExactAccuracy",
    "EloRow",
    "tablebase",
    "keeps_value",
    "exact_accuracy",
    "elo_vs_engine",
    "elo",
    "random_policy",
    "engine_policy",
    "position_from_planes",
]

Policy = Callable[[np.ndarray, np.ndarray], Union[np.ndarray, Sequence[int]]]
"""``policy(obs, mask) -> actions``: float32 ``(B, 5, rows + 2, cols)``, bool
``(B, action_count)``, and ``B`` action indices back."""

#: A board: ``"3x7"`` or ``(3, 7)``, columns by rows.
Board = Union[str, Tuple[int, int]]

#: The sample ``exact_accuracy`` draws when ``positions=None`` and the table
#: has more positions than this; a table with at most this many is taken whole.
DEFAULT_POSITIONS = 1000

_TABLES: Dict[Tuple[int, int, bool], Tablebase] = {}

#: The jump states ``engine_policy`` keeps the next action of, at most
#: (each keyed by its planes: 6.3 kB on the standard board).
_PLANNED_STATES = 4096


def _board(board: Board) -> Tuple[int, int]:
    """``"3x7"`` or ``(3, 7)`` as ``(cols, rows)``."""
    if isinstance(board, str):
        cols, sep, rows = board.lower().partition("x")
        if not sep or not cols.isdigit() or not rows.isdigit():
            raise ValueError(f"a board is written like '3x7' (columns x rows), not {board!r}")
        return int(cols), int(rows)
    cols_rows = tuple(board)
    if len(cols_rows) != 2:
        raise ValueError(f"a board is (cols, rows), not {board!r}")
    return int(cols_rows[0]), int(cols_rows[1])


def tablebase(board: Board = "3x7", *, continue_off_board: bool = False, timeout: Optional[float] = None) -> Tablebase:
    """The tablebase of ``board`` (``"3x7"`` or ``(cols, rows)``, at most 32
    points) under the off-board rule, built on the first call (``3x7``: a
    few seconds, 15 MiB of values, 60 MB at the peak) and kept in this module for the next ones.
    Raises what ``Tablebase.build`` raises: ``SearchTimeoutError`` past
    ``timeout``, ``KeyboardInterrupt``, ``ValueError`` for a board too large."""
    cols, rows = _board(board)
    key = (cols, rows, continue_off_board)
    if key not in _TABLES:
        _TABLES[key] = Tablebase.build(
            cols, rows, continue_off_board=continue_off_board, timeout=timeout, memory_limit=None
        )
    return _TABLES[key]


def keeps_value(table: Tablebase, before: Position, after: Position) -> bool:
    """Whether the move from ``before`` to ``after`` keeps the value of
    ``before`` by ``table``: a win stays a win (in any number of plies, not
    only the fewest), a draw is not lost, and a loss holds out the longest
    the loser can (the opponent is left a win in one ply fewer than
    ``before``'s loss, no sooner). In plies: ``Win(n)`` is kept by a move
    to any ``Loss(m)``; ``Draw`` by a move to a draw; ``Loss(n)`` by a move
    to ``Win(n - 1)`` (in a true table no move leaves a longer win). The rule is the solver's (``Value.is_kept_by``); the
    tablebase's ``best_move`` always keeps it. Raises ``ValueError`` for a
    position the table does not cover."""
    value, child = table.probe(before), table.probe(after)
    if value is None or child is None:
        raise ValueError(f"the table ({table.cols}x{table.rows}) does not cover {before} or {after}")
    return value.is_kept_by(child)


def random_policy(seed: Optional[int] = 0) -> Policy:
    """A policy that picks uniformly among the legal actions (numpy's
    generator, seeded): the baseline of both figures."""
    rng = np.random.default_rng(seed)

    def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        # Random keys, the illegal ones pushed below every legal one: argmax
        # picks uniformly among the legal actions.
        keys = rng.random(mask.shape) + mask
        actions: np.ndarray = np.argmax(keys, axis=1)
        return actions

    return policy


def position_from_planes(planes: np.ndarray, rules: Optional[Rules] = None) -> Position:
    """The position whose ``planes()`` (not ``relative``) are ``planes``,
    float32 ``(5, rows + 2, cols)``, at the start of a move: the men
    (channel 0), the ball (channel 1) and the side to move (channel 2),
    under ``rules`` (the planes do not show them; default: the default
    rules). Raises ``ValueError`` for planes of a jump under way (channel
    3), whose start and men removed so far the planes do not show, or of
    no position."""
    planes = np.asarray(planes)
    if planes.ndim != 3 or planes.shape[0] != 5 or planes.shape[1] < 3:
        raise ValueError(f"planes must have the shape (5, rows + 2, cols), not {planes.shape}")
    if planes[3].any():
        raise ValueError("these planes are of a jump under way, which they do not show whole")
    rows, cols = planes.shape[1] - 2, planes.shape[2]
    balls = np.argwhere(planes[1] == 1)
    if len(balls) != 1:
        raise ValueError(f"the planes show {len(balls)} balls, not one")
    lines = []
    # The position string lists rows from the top (row `rows`) down to row 1.
    for row in range(rows, 0, -1):
        cells = ["@" if planes[1, row, col] == 1 else "#" if planes[0, row, col] == 1 else "." for col in range(cols)]
        text = "".join(cells)
        lines.append("".join(_runs(text)))
    side = "O" if planes[2, 0, 0] == 1 else "X"
    return Position(f"{'/'.join(lines)} {side}", rules=rules)


def _runs(cells: str) -> Iterable[str]:
    """A row of ``@``, ``#`` and ``.`` in position-string form: runs of
    empty points as their length."""
    empty = 0
    for cell in cells:
        if cell == ".":
            empty += 1
            continue
        if empty:
            yield str(empty)
            empty = 0
        yield cell
    if empty:
        yield str(empty)


def engine_policy(
    nodes: int = 10, *, seed: int = 0, rules: Optional[Rules] = None, eval: Union[str, Network, None] = None
) -> Policy:
    """The engine at a node budget as a policy (``Engine(nodes=nodes,
    seed=seed, eval=eval)``, one thread): a rung of a ladder to rate
    policies against, and a baseline that scores against the engine where
    ``random_policy`` does not. ``eval`` is its evaluation, as ``Engine``
    takes it: ``"auto"`` (the default: the built-in network on 15x19, the
    hand evaluation elsewhere), ``"hand"``, ``"net"``, ``"net:PATH"`` (the
    weights file, read once, now) or a ``Network``, so a learned network plays as a
    policy too. At the start of a move it reads the
    position from the planes (``position_from_planes``, under ``rules``)
    and plays the engine's move, whose later actions it answers when it
    sees their planes (a jump under way that is not the engine's it ends
    at once). Raises ``ValueError`` if the engine's move is not legal in
    the mask it was given (other rules than ``rules``), ``NetworkError``
    for a weights file refused or, at a move, a board size the network
    does not serve, ``OSError`` for a weights file that cannot be read."""
    engine = Engine(nodes=nodes, seed=seed, eval=eval)
    # Each state inside a move it chose, by its planes: the move's next
    # action (the newest plans last; the oldest go first past the cap).
    planned: Dict[bytes, int] = {}

    def move_start(planes: np.ndarray, legal: np.ndarray) -> int:
        pos = position_from_planes(planes, rules)
        actions = pos.move_to_actions(engine.best_move(pos))
        if not legal[actions[0]]:
            raise ValueError(f"engine_policy: the engine's move {actions[0]} is not legal here: are the rules {rules}?")
        episode = Episode(pos, move_limit=None)
        for action, after in zip(actions, actions[1:]):
            planned[episode.step(action).state.planes().tobytes()] = after
        while len(planned) > _PLANNED_STATES:
            del planned[next(iter(planned))]
        return actions[0]

    def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        chosen = np.empty(len(obs), dtype=np.int64)
        for i, planes in enumerate(np.asarray(obs, dtype=np.float32)):
            if not planes[3].any():
                chosen[i] = move_start(planes, mask[i])
                continue
            # Kept, not popped: two games can pass through the same planes
            # (the later plan is followed from there). A jump that is not
            # the engine's, or whose plan is gone, ends here.
            action = planned.get(planes.tobytes())
            chosen[i] = action if action is not None and mask[i, action] else mask.shape[1] - 1
        return chosen

    return policy


@dataclass(frozen=True)
class _Moves:
    """What ``_play_moves`` gives: each game's position after its move
    (``None`` where the move was not finished), and the counts of moves
    cut by the step cap and of illegal actions."""

    after: List[Optional[Position]]
    capped: int
    illegal: int


def _as_position(state: Union[Position, JumpInProgress]) -> Position:
    """The board as it stands: a jump that ended the game is a position."""
    return state.position if isinstance(state, JumpInProgress) else state


def _ask(policy: Policy, states: Sequence[Union[Position, JumpInProgress]]) -> Tuple[np.ndarray, np.ndarray]:
    """One batched call of the policy on ``states``: its actions and the masks it was given."""
    obs = np.stack([s.planes() for s in states])
    mask = np.stack([s.legal_action_mask() for s in states])
    actions = np.asarray(policy(obs, mask)).reshape(-1)
    if len(actions) != len(states):
        raise ValueError(f"the policy returned {len(actions)} actions for {len(states)} games")
    return actions, mask


def _play_moves(policy: Policy, starts: Sequence[Position], max_steps: int, deadline: _Deadline) -> _Moves:
    """Plays the policy's move from every start, all together: each round
    one batched call for the episodes still acting. A move that passes
    ``max_steps`` actions, or takes an illegal action, is left unfinished."""
    episodes = [Episode(start, move_limit=None) for start in starts]
    after: List[Optional[Position]] = [None] * len(starts)
    acting = list(range(len(starts)))
    illegal = 0
    for _ in range(max_steps):
        if not acting:
            break
        deadline.left()
        actions, mask = _ask(policy, [episodes[i].state for i in acting])
        still = []
        for row, (i, action) in enumerate(zip(acting, actions)):
            action = int(action)
            if not 0 <= action < mask.shape[1] or not mask[row, action]:
                illegal += 1
                continue
            transition = episodes[i].step(action)
            if transition.is_over or isinstance(transition.state, Position):
                after[i] = _as_position(transition.state)
            else:
                still.append(i)
        acting = still
    # The games still acting after max_steps rounds are the capped moves.
    return _Moves(after, len(acting), illegal)


@dataclass(frozen=True)
class ExactAccuracy:
    """``exact_accuracy``'s answer: ``accuracy`` (kept / positions; NaN for
    none), ``kept`` of ``positions``, ``by_value`` ``{"win": (kept, total),
    "draw": ..., "loss": ...}`` by the value before the move, and the moves
    counted as not kept because they were ``capped`` (past the step cap) or
    took an ``illegal`` action."""

    accuracy: float
    """kept / positions (NaN for none)."""
    kept: int
    """The positions whose move kept the value the table gives them."""
    positions: int
    """The positions the policy moved in."""
    by_value: Dict[str, Tuple[int, int]]
    """``{"win": (kept, total), "draw": ..., "loss": ...}``, by the value before the move."""
    board: str
    """The board, as ``"3x7"``."""
    capped: int = 0
    """The moves counted as not kept because they passed the step cap."""
    illegal: int = 0
    """The moves counted as not kept because the policy took an illegal action."""
    seconds: float = field(default=0.0, compare=False)
    """The wall time the measurement took."""

    def __repr__(self) -> str:
        rows = ", ".join(f"{k} {kept}/{total}" for k, (kept, total) in self.by_value.items())
        extra = f", {self.capped} capped" if self.capped else ""
        extra += f", {self.illegal} illegal" if self.illegal else ""
        return f"<ExactAccuracy {self.board}: {self.accuracy:.3f} ({self.kept}/{self.positions}; {rows}{extra})>"


def _positions(
    table: Tablebase, positions: Union[int, Iterable[Position], None], seed: Optional[int]
) -> List[Position]:
    """The positions to evaluate: an int draws that many distinct ones of
    the table (uniformly, numpy's generator seeded with ``seed``; all of
    them if it has no more); ``None`` is all of a table of at most
    ``DEFAULT_POSITIONS``, else ``DEFAULT_POSITIONS`` drawn; an iterable is
    taken as it is (positions of the table's board, not over)."""
    total = table.stats()["positions"]
    if positions is None:
        positions = min(total, DEFAULT_POSITIONS)
    if isinstance(positions, (int, np.integer)):
        if positions < 0:
            raise ValueError(f"positions must be at least 0, not {positions}")
        count = int(positions)
        if count >= total:
            return [table.position(i) for i in range(total)]
        picks = np.random.default_rng(seed).choice(total, size=count, replace=False)
        return [table.position(int(i)) for i in picks]
    chosen = list(positions)
    for pos in chosen:
        if not isinstance(pos, Position) or not table.covers(pos) or pos.is_finished:
            raise ValueError(f"not a position of the {table.cols}x{table.rows} table, not over: {pos!r}")
    return chosen


def exact_accuracy(
    policy: Policy,
    board: Board = "3x7",
    positions: Union[int, Iterable[Position], None] = None,
    *,
    seed: Optional[int] = 0,
    continue_off_board: bool = False,
    batch: int = 4096,
    max_steps: Optional[int] = None,
    timeout: Optional[float] = None,
) -> ExactAccuracy:
    """The share of ``positions`` of ``board`` where ``policy``'s move keeps
    the game-theoretic value (``keeps_value``), by the board's tablebase
    (``tablebase(board)``, built once).

    ``positions``: an int draws that many distinct positions of the table
    (uniform over ball, men and side to move, with ``seed``); ``None``
    (the default) takes all of a table of at most ``DEFAULT_POSITIONS``
    positions, else draws ``DEFAULT_POSITIONS`` with ``seed``; an iterable
    of ``Position`` is evaluated as it is. The policy is called on up to
    ``batch`` games at a time. A move of more than ``max_steps`` actions
    (``None``: the board's points plus one; a jump removes a man every
    step, so no legal move is that long) or with an illegal action counts
    as not keeping the value (``capped``, ``illegal``).

    Raises ``SearchTimeoutError`` past ``timeout`` seconds (the table's
    build included), ``KeyboardInterrupt`` on Ctrl-C, ``ValueError`` for a
    bad board, count or position."""
    started = time.monotonic()
    deadline = _Deadline(timeout)
    cols, rows = _board(board)
    table = tablebase((cols, rows), continue_off_board=continue_off_board, timeout=deadline.left())
    chosen = _positions(table, positions, seed)
    steps = cols * rows + 1 if max_steps is None else max_steps
    if batch < 1 or steps < 1:
        raise ValueError(f"batch and max_steps must be at least 1, not {batch} and {steps}")
    by_value = {"win": [0, 0], "draw": [0, 0], "loss": [0, 0]}
    capped = illegal = 0
    for first in range(0, len(chosen), batch):
        starts = chosen[first : first + batch]
        moves = _play_moves(policy, starts, steps, deadline)
        capped, illegal = capped + moves.capped, illegal + moves.illegal
        for start, after in zip(starts, moves.after):
            value = table.probe(start)
            assert value is not None  # _positions checked the table covers it
            row = by_value[value.result]
            row[1] += 1
            row[0] += after is not None and keeps_value(table, start, after)
    kept = sum(k for k, _ in by_value.values())
    return ExactAccuracy(
        accuracy=kept / len(chosen) if chosen else math.nan,
        kept=kept,
        positions=len(chosen),
        by_value={k: (v[0], v[1]) for k, v in by_value.items()},
        board=f"{cols}x{rows}",
        capped=capped,
        illegal=illegal,
        seconds=time.monotonic() - started,
    )


@dataclass(frozen=True)
class EloRow:
    """One node budget of ``elo_vs_engine``: the policy's ``wins``,
    ``draws`` (the move limit reached) and ``losses`` of ``games``, its
    ``score`` ((wins + draws / 2) / games) and ``elo``, the Elo difference
    ``400 * log10(score / (1 - score))`` (policy minus engine; ``None`` at
    a score of 0 or 1, where it is unbounded)."""

    nodes: int
    """The engine's node budget a move."""
    games: int
    """The games played at this budget."""
    wins: int
    """The policy's wins."""
    draws: int
    """The games that reached the move limit."""
    losses: int
    """The policy's losses."""
    score: float
    """``(wins + draws / 2) / games``."""
    elo: Optional[float]
    """The Elo difference, policy minus engine (``None`` at a score of 0 or 1)."""


def elo(score: float) -> Optional[float]:
    """The Elo difference of a score in [0, 1]: ``400 * log10(s / (1 - s))``;
    ``None`` at 0 or 1."""
    if not 0.0 < score < 1.0:
        return None
    return 400.0 * math.log10(score / (1.0 - score))


def _engine_move(episode: Episode, engine: Engine, deadline: _Deadline) -> None:
    """Plays the engine's move (a bounded search) in ``episode``, action by action."""
    pos = episode.state
    assert isinstance(pos, Position)  # the policy's moves end with the turn passing
    move = engine.best_move(pos, timeout=deadline.left())
    for action in pos.move_to_actions(move):
        episode.step(action)


def _policy_round(policy: Policy, episodes: Sequence[Episode], deadline: _Deadline) -> None:
    """One batched policy action in each of ``episodes``; an illegal action
    raises ``ValueError`` (a game cannot go on without a move)."""
    deadline.left()
    actions, mask = _ask(policy, [e.state for e in episodes])
    for row, (episode, action) in enumerate(zip(episodes, actions)):
        if not 0 <= int(action) < mask.shape[1] or not mask[row, int(action)]:
            raise ValueError(f"the policy chose the illegal action {int(action)}")
        episode.step(int(action))


def _play_games(
    policy: Policy,
    nodes: int,
    games: int,
    seed: int,
    move_limit: int,
    deadline: _Deadline,
    evaluation: Union[str, Network],
) -> EloRow:
    """``games`` games on 15x19 against ``Engine(nodes=nodes,
    eval=evaluation)``, the policy Ohs (first to move) in the even ones and
    Eks in the odd ones, all stepped together."""
    episodes = [Episode(move_limit=move_limit) for _ in range(games)]
    engines = [Engine(nodes=nodes, seed=seed + i, eval=evaluation) for i in range(games)]
    policy_side = ["O" if i % 2 == 0 else "X" for i in range(games)]
    while True:
        live = [i for i in range(games) if not episodes[i].is_over]
        if not live:
            break
        for i in live:
            if episodes[i].to_move != policy_side[i]:
                _engine_move(episodes[i], engines[i], deadline)
        turn = [episodes[i] for i in live if not episodes[i].is_over and episodes[i].to_move == policy_side[i]]
        if turn:
            _policy_round(policy, turn, deadline)
    wins = draws = 0
    for episode, side in zip(episodes, policy_side):
        winner = _as_position(episode.state).winner
        wins += winner == side
        draws += winner is None
    score = (wins + draws / 2) / games
    return EloRow(nodes, games, wins, draws, games - wins - draws, score, elo(score))


def elo_vs_engine(
    policy: Policy,
    nodes: Sequence[int] = (100, 1000),
    games: int = 20,
    *,
    seed: int = 0,
    move_limit: int = 200,
    timeout: Optional[float] = None,
    eval: Union[str, Network, None] = None,
) -> List[EloRow]:
    """Plays ``games`` games of the standard board (15x19, the standard
    start) against the engine at each node budget of ``nodes``
    (``Engine(nodes=n, seed=seed + game, eval=eval)``, one thread), the policy with
    each colour in half of them (Ohs in the even games), and returns an
    ``EloRow`` a budget: wins, draws (``move_limit`` whole moves without a
    goal), losses, score (draws counted half) and the Elo difference.
    The policy is called on all the games where it is to act, together.
    ``eval`` is the engine's evaluation, as ``Engine`` takes it:
    ``"auto"`` (the default), ``"hand"``, ``"net"``, ``"net:PATH"`` (read
    once) or a ``Network`` (serving 15x19).

    Raises ``SearchTimeoutError`` past ``timeout`` seconds (every engine
    search gets what is left), ``KeyboardInterrupt`` on Ctrl-C,
    ``ValueError`` for an illegal action of the policy or a count below 1,
    ``NetworkError`` for a weights file refused or a network without one for
    15x19, ``OSError`` for a weights file that cannot be read."""
    if games < 1 or move_limit < 1 or any(n < 1 for n in nodes):
        raise ValueError(f"games, move_limit and nodes must be at least 1: {games}, {move_limit}, {list(nodes)}")
    # The engine reads eval (a "net:PATH" file once, here); a network
    # without a 15x19 one is refused before any game is played, by its own
    # NetworkError naming the sizes it serves.
    evaluation = Engine(nodes=1, eval=eval).eval
    if isinstance(evaluation, Network):
        evaluation.evaluate(Position())
    deadline = _Deadline(timeout)
    return [_play_games(policy, n, games, seed, move_limit, deadline, evaluation) for n in nodes]
