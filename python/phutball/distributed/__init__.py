"""Self-play and analysis datasets, and proofs in parts, on a Ray cluster (``pip install "phutball[ray]"``).

>>> from phutball import distributed                          # doctest: +SKIP
>>> distributed.selfplay(1000, nodes=2000, seed=7, out="games")  # doctest: +SKIP
>>> distributed.prove(phutball.Position.start(9, 9), frontier_plies=2)  # doctest: +SKIP

The work is split into Ray tasks by range of games (or positions); each task
plays its range with ``phutball.selfplay`` (the engine's own seeds: game
``i`` is the same game as in ``phutball selfplay``) and writes one Parquet
file named by the range, under a temporary name first and then renamed. A
task whose file is there does nothing, so Ray's retries after a worker dies
and a second run with the same arguments write no range twice. The schema,
and how to run it on a cluster, are in the repository's ``docs/distributed.md``.

``prove`` expands a root some plies deep (``phutball.frontier``), proves each
position of that frontier as a task (``Position.prove``) and combines the
certificates into one checked proof of the root (``phutball.combine_proofs``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import phutball

try:
    import pyarrow as pa
    import pyarrow.parquet as pq
    import ray
except ImportError as missing:  # pragma: no cover - the message is the point
    raise ImportError(
        f"phutball.distributed needs Ray and pyarrow ({missing}): pip install 'phutball[ray]'"
    ) from missing

__all__ = ["RunSummary", "analyse", "prove", "selfplay", "GAMES_SCHEMA", "TRAINING_SCHEMA", "ANALYSIS_SCHEMA"]


def _required(name: str, kind: pa.DataType) -> pa.Field:
    """A column that is never null."""
    return pa.field(name, kind, nullable=False)


# The limit columns of every dataset: the engine's limits per move (null: not limited by it).
_LIMIT_FIELDS = [
    pa.field("limit_nodes", pa.int64()),
    pa.field("limit_depth", pa.int64()),
    pa.field("limit_time_ms", pa.int64()),
]

#: One row per game, in ``out/games``.
GAMES_SCHEMA = pa.schema(
    [
        _required("game", pa.int64()),
        _required("run_seed", pa.uint64()),
        _required("seed", pa.uint64()),
        _required("opening", pa.string()),
        _required("moves", pa.list_(pa.string())),
        _required("result", pa.string()),
        _required("plies", pa.int32()),
        *_LIMIT_FIELDS,
        _required("move_limit", pa.int32()),
        _required("seconds", pa.float64()),
    ]
)

#: One row per move of every game, in ``out/training`` (``training=True``).
TRAINING_SCHEMA = pa.schema(
    [
        _required("game", pa.int64()),
        _required("ply", pa.int32()),
        _required("position", pa.string()),
        _required("action", pa.string()),
        _required("result", pa.int8()),
    ]
)

#: One row per input position, in ``out/analysis``.
ANALYSIS_SCHEMA = pa.schema(
    [
        _required("index", pa.int64()),
        _required("position", pa.string()),
        _required("best_move", pa.string()),
        pa.field("score", pa.int32()),
        pa.field("win_in", pa.int32()),
        pa.field("loss_in", pa.int32()),
        _required("score_text", pa.string()),
        _required("depth", pa.int32()),
        _required("nodes", pa.int64()),
        _required("pv", pa.list_(pa.string())),
        _required("decision", pa.string()),
        *_LIMIT_FIELDS,
        _required("seed", pa.uint64()),
    ]
)

_MANIFEST = "run.json"


@dataclass
class RunSummary:
    """What a run did: its dataset directory, the ranges its tasks wrote and the ranges already there."""

    out: str
    rows: int
    written: List[Tuple[int, int]] = field(default_factory=list)
    skipped: List[Tuple[int, int]] = field(default_factory=list)


def _ranges(count: int, per_task: int) -> List[Tuple[int, int]]:
    return [(start, min(start + per_task, count)) for start in range(0, count, per_task)]


def _range_path(out: str, kind: str, start: int, end: int) -> str:
    """The file of rows ``start`` to ``end - 1``: zero-padded, so names sort in row order."""
    return os.path.join(out, kind, f"{kind}-{start:012d}-{end:012d}.parquet")


def _write_atomically(table: pa.Table, path: str) -> None:
    """Writes ``table`` under a hidden temporary name (pyarrow's readers skip
    names starting with a dot), then renames it: a reader or a retry sees the
    whole file or none."""
    directory, name = os.path.split(path)
    temporary = os.path.join(directory, f".{name}.{uuid.uuid4().hex}.tmp")
    os.makedirs(directory, exist_ok=True)
    try:
        pq.write_table(table, temporary)
        os.replace(temporary, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.remove(temporary)


def _check_manifest(out: str, settings: Dict[str, Any]) -> None:
    """Records the run's arguments in ``out/run.json``, or checks that they
    are those of the run already there: resuming with other arguments would
    mix two runs in one dataset."""
    path = os.path.join(out, _MANIFEST)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as file:
            recorded = json.load(file)
        differ = sorted(k for k in set(recorded) | set(settings) if recorded.get(k) != settings.get(k))
        if differ:
            raise ValueError(
                f"{out} holds a run with other arguments ({', '.join(differ)} differ): "
                "resume with the same arguments or choose another out"
            )
        return
    temporary = f"{path}.{uuid.uuid4().hex}.tmp"
    with open(temporary, "w", encoding="utf-8") as file:
        json.dump(settings, file, indent=1, sort_keys=True)
    os.replace(temporary, path)


@contextlib.contextmanager
def _connected(address: Optional[str]) -> Iterator[None]:
    """Ray as the caller has it: already initialised (kept as it is), else
    ``ray.init(address)`` (``None``: a local instance, or the cluster of
    ``RAY_ADDRESS``), shut down at the end."""
    if ray.is_initialized():
        yield
        return
    ray.init(address=address)
    try:
        yield
    finally:
        ray.shutdown()


def _run(
    task: Any,
    out: str,
    kind: str,
    ranges: List[Tuple[int, int]],
    task_args: Callable[[], Tuple[Any, ...]],
    address: Optional[str],
    progress: bool,
    unit: str,
    timeout: Optional[float],
) -> RunSummary:
    """Submits ``task`` for every range whose file is missing (with the
    arguments ``task_args()`` makes once Ray is up) and waits for them all,
    or until ``timeout`` seconds have passed (``SearchTimeoutError``). At a
    timeout, an error or Ctrl-C the tasks still running are cancelled; the
    ranges written stay, for the next run to resume from."""
    if timeout is not None and not timeout >= 0:
        raise ValueError(f"timeout must be a number of seconds, 0 or more, or None, not {timeout}")
    deadline = None if timeout is None else time.monotonic() + timeout
    os.makedirs(os.path.join(out, kind), exist_ok=True)
    done = [r for r in ranges if os.path.exists(_range_path(out, kind, *r))]
    pending = [r for r in ranges if r not in done]
    summary = RunSummary(out=out, rows=ranges[-1][1] if ranges else 0, skipped=done)
    if not pending:
        return summary
    bar = _progress_bar(sum(end - start for start, end in pending), unit, progress)
    try:
        with _connected(address):
            args = task_args()
            running = {task.remote(out, start, end, *args): (start, end) for start, end in pending}
            try:
                while running:
                    left = None if deadline is None else max(0.0, deadline - time.monotonic())
                    finished, _ = ray.wait(list(running), num_returns=1, timeout=left)
                    if not finished:
                        raise phutball.SearchTimeoutError(
                            f"timed out after {timeout} s with {len(summary.written)} of {len(pending)} ranges "
                            f"written to {out}: run again with the same arguments to resume"
                        )
                    start, end = running.pop(finished[0])
                    ray.get(finished[0])  # raises the task's error, after Ray's retries
                    summary.written.append((start, end))
                    bar.update(end - start)
            finally:
                for ref in running:
                    ray.cancel(ref, force=True)
    finally:
        bar.close()
    summary.written.sort()
    return summary


class _NoBar:
    def update(self, _n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(total: int, unit: str, shown: bool) -> Any:
    if not shown:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, dynamic_ncols=True)


def _limit_columns(settings: Dict[str, Any], rows: int) -> Dict[str, List[Optional[int]]]:
    return {f"limit_{k}": [settings[k]] * rows for k in ("nodes", "depth", "time_ms")}


def _result(game: "phutball.Game") -> str:
    return game.winner or "draw"


@ray.remote(max_retries=5)
def _selfplay_task(out: str, start: int, end: int, settings: Dict[str, Any], training: bool) -> int:
    path = _range_path(out, "games", start, end)
    if os.path.exists(path):  # a retry of a task that had finished
        return 0
    played = phutball.selfplay(end - start, start=start, jobs=1, **settings)
    rows = len(played)
    if training:
        # Written first: a range counts as done once its games file is there.
        ply_rows: Dict[str, List[Any]] = {name: [] for name in TRAINING_SCHEMA.names}
        for one in played:
            winner = one.game.winner
            for ply, (position, move) in enumerate(zip(one.game.positions, one.game.moves)):
                ply_rows["game"].append(one.index)
                ply_rows["ply"].append(ply)
                ply_rows["position"].append(str(position))
                ply_rows["action"].append(str(move))
                ply_rows["result"].append(0 if winner is None else 1 if winner == position.to_move else -1)
        _write_atomically(pa.Table.from_pydict(ply_rows, schema=TRAINING_SCHEMA), _range_path(out, "training", start, end))
    columns = {
        "game": [g.index for g in played],
        "run_seed": [settings["seed"]] * rows,
        "seed": [g.seed for g in played],
        "opening": [str(g.game.start) for g in played],
        "moves": [[str(m) for m in g.game.moves] for g in played],
        "result": [_result(g.game) for g in played],
        "plies": [len(g.game.moves) for g in played],
        **_limit_columns(settings, rows),
        "move_limit": [settings["move_limit"]] * rows,
        "seconds": [g.seconds for g in played],
    }
    _write_atomically(pa.Table.from_pydict(columns, schema=GAMES_SCHEMA), path)
    return rows


def _position_string(item: Union[str, "phutball.Position"]) -> str:
    return str(item if isinstance(item, phutball.Position) else phutball.Position(item))


def selfplay(
    games: int,
    *,
    nodes: Optional[int] = None,
    depth: Optional[int] = None,
    time_ms: Optional[int] = None,
    seed: int = 0,
    openings: Optional[Iterable[Union[str, "phutball.Position"]]] = None,
    out: Union[str, "os.PathLike[str]"],
    address: Optional[str] = None,
    games_per_task: int = 16,
    move_limit: int = 300,
    training: bool = False,
    progress: bool = False,
    timeout: Optional[float] = None,
) -> RunSummary:
    """Plays ``games`` engine games on Ray, ``games_per_task`` a task, and
    writes them as a Parquet dataset under ``out/games`` (``out/training``
    too with ``training=True``): game ``i`` is game ``i`` of
    ``phutball.selfplay(games, nodes=, depth=, time_ms=, seed=, openings=,
    move_limit=)``. Ranges already written by a run with the same arguments
    are skipped; other arguments raise ``ValueError``. ``timeout`` (seconds,
    for the whole run) raises ``SearchTimeoutError`` and Ctrl-C
    ``KeyboardInterrupt``, both after cancelling the tasks still running."""
    if games < 0 or games_per_task < 1:
        raise ValueError(f"games must be 0 or more and games_per_task 1 or more, not {games} and {games_per_task}")
    settings: Dict[str, Any] = {
        "nodes": nodes,
        "depth": depth,
        "time_ms": time_ms,
        "seed": seed,
        "openings": None if openings is None else [_position_string(p) for p in openings],
        "move_limit": move_limit,
    }
    # The engine checks the arguments now (no game is played), not in a task.
    phutball.selfplay(0, jobs=1, **settings)
    out = os.path.abspath(os.fspath(out))
    os.makedirs(out, exist_ok=True)
    _check_manifest(out, {"kind": "selfplay", "games": games, "games_per_task": games_per_task, "training": training, **settings})
    ranges = _ranges(games, games_per_task)
    return _run(_selfplay_task, out, "games", ranges, lambda: (settings, training), address, progress, "game", timeout)


@ray.remote(max_retries=5)
def _analyse_task(out: str, start: int, end: int, positions: Sequence[str], settings: Dict[str, Any]) -> int:
    path = _range_path(out, "analysis", start, end)
    if os.path.exists(path):
        return 0
    engine = phutball.Engine(nodes=settings["nodes"], depth=settings["depth"], time_ms=settings["time_ms"], seed=settings["seed"])
    chunk = positions[start:end]
    answers = engine.analyse_many(chunk, jobs=1)
    rows = len(answers)
    columns = {
        "index": list(range(start, end)),
        "position": list(chunk),
        "best_move": [str(a.best_move) for a in answers],
        "score": [a.score for a in answers],
        "win_in": [a.win_in for a in answers],
        "loss_in": [a.loss_in for a in answers],
        "score_text": [a.score_text for a in answers],
        "depth": [a.depth for a in answers],
        "nodes": [a.nodes for a in answers],
        "pv": [[str(m) for m in a.pv] for a in answers],
        "decision": [a.decision for a in answers],
        **_limit_columns(settings, rows),
        "seed": [settings["seed"]] * rows,
    }
    _write_atomically(pa.Table.from_pydict(columns, schema=ANALYSIS_SCHEMA), path)
    return rows


def _read_positions(source: Union[str, "os.PathLike[str]", Iterable[Union[str, "phutball.Position"]]]) -> List[str]:
    """The positions of a list, or of a file of position strings (one a
    line; blank lines and comments, ``#`` alone or ``# ...``, skipped)."""
    if not isinstance(source, (str, os.PathLike)):
        strings = []
        for i, item in enumerate(source):
            try:
                strings.append(_position_string(item))
            except ValueError as e:
                raise type(e)(f"positions[{i}]: {e}") from e
        return strings
    strings = []
    with open(source, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            line = line.strip()
            if not line or line == "#" or line.startswith("# "):
                continue
            try:
                strings.append(_position_string(line))
            except ValueError as e:
                raise type(e)(f"{os.fspath(source)}:{number}: {e}") from e
    return strings


def analyse(
    positions: Union[str, "os.PathLike[str]", Iterable[Union[str, "phutball.Position"]]],
    *,
    nodes: Optional[int] = None,
    depth: Optional[int] = None,
    time_ms: Optional[int] = None,
    seed: int = 0,
    out: Union[str, "os.PathLike[str]"],
    address: Optional[str] = None,
    positions_per_task: int = 64,
    progress: bool = False,
    timeout: Optional[float] = None,
) -> RunSummary:
    """Analyses ``positions`` (a list of positions or position strings, or
    a file of position strings) on Ray, ``positions_per_task`` a task, each
    as ``phutball.Engine(nodes=, depth=, time_ms=, seed=).analyse_many``
    does, and writes one row per position, in input order (column
    ``index``), under ``out/analysis``. Resumes, and stops at ``timeout``,
    as ``selfplay`` does."""
    if positions_per_task < 1:
        raise ValueError(f"positions_per_task must be 1 or more, not {positions_per_task}")
    strings = _read_positions(positions)
    for i, text in enumerate(strings):
        if phutball.Position(text).is_finished:
            raise ValueError(f"positions[{i}]: the game is already over in this position")
    settings: Dict[str, Any] = {"nodes": nodes, "depth": depth, "time_ms": time_ms, "seed": seed}
    phutball.Engine(nodes=nodes, depth=depth, time_ms=time_ms, seed=seed)  # checks the limits
    out = os.path.abspath(os.fspath(out))
    os.makedirs(out, exist_ok=True)
    digest = hashlib.sha256("\n".join(strings).encode()).hexdigest()
    _check_manifest(out, {"kind": "analyse", "positions": len(strings), "positions_sha256": digest, "positions_per_task": positions_per_task, **settings})
    ranges = _ranges(len(strings), positions_per_task)
    # One copy of the list in Ray's object store, shared by every task.
    return _run(_analyse_task, out, "analysis", ranges, lambda: (ray.put(strings), settings), address, progress, "position", timeout)


@ray.remote(max_retries=5)
def _prove_task(position: "phutball.Position", limits: Dict[str, Any]) -> Tuple[Optional[str], int]:
    """Proves one frontier position within the task's limits: the text of
    its certificate (``None`` for an unknown result) and the nodes searched."""
    proof = position.prove(**limits)
    return (None if proof.certificate is None else str(proof.certificate), proof.nodes)


def _seconds_arg(name: str, value: Optional[float]) -> None:
    """``None`` or a number of seconds, 0 or more (checked before any task)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be None or a number of seconds, not {type(value).__name__}")
    if not value >= 0:
        raise ValueError(f"{name} must be a number of seconds, 0 or more, or None, not {value}")


def _count_arg(name: str, value: Optional[int], allow_none: bool = True) -> None:
    """``None`` (where allowed) or an int, 0 or more (checked before any task)."""
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be {'None or ' if allow_none else ''}an int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must be {'None or ' if allow_none else ''}an int of at least 0, not {value}")


@dataclass
class ProveFigures:
    """What a ``prove`` run did, for the command's figures: the frontier's
    size, the tasks' answers (proved, unknown, not needed: cancelled once the
    root was proved), their nodes, and the run's seconds."""

    frontier: int
    proved: int = 0
    unknown: int = 0
    cancelled: int = 0
    nodes: int = 0
    seconds: float = 0.0


def _prove(
    position: Union[str, "phutball.Position"],
    *,
    frontier_plies: int,
    timeout: Optional[float],
    task_timeout: Optional[float],
    nodes: Optional[int],
    memory_limit: Optional[int],
    address: Optional[str],
    progress: bool,
) -> Tuple["phutball.Proof", ProveFigures]:
    started = time.monotonic()
    root = position if isinstance(position, phutball.Position) else phutball.Position(position)
    _count_arg("frontier_plies", frontier_plies, allow_none=False)
    _seconds_arg("timeout", timeout)
    _seconds_arg("task_timeout", task_timeout)
    _count_arg("nodes", nodes)
    deadline = None if timeout is None else started + timeout

    def left() -> Optional[float]:
        return None if deadline is None else max(0.0, deadline - time.monotonic())

    def timed_out(figures: ProveFigures) -> phutball.SearchTimeoutError:
        return phutball.SearchTimeoutError(
            f"timed out after {timeout} s with {figures.proved + figures.unknown} of {figures.frontier} "
            "frontier positions answered"
        )

    # On the driver, before any task: a finished root is a ValueError, a bad
    # memory limit or frontier_plies a TypeError or ValueError.
    frontier = phutball.frontier(root, frontier_plies, timeout=left(), memory_limit=memory_limit)
    figures = ProveFigures(frontier=len(frontier))
    limits = {"timeout": task_timeout, "memory_limit": memory_limit, "nodes": nodes}
    certificates: List["phutball.Certificate"] = []

    def combined() -> "phutball.Proof":
        try:
            return phutball.combine_proofs(root, frontier_plies, certificates, timeout=left())
        except phutball.SearchTimeoutError as e:
            raise timed_out(figures) from e

    proof = None
    if frontier:
        bar = _progress_bar(len(frontier), "position", progress)
        try:
            with _connected(address):
                running = [_prove_task.remote(p, limits) for p in frontier]
                force = True
                try:
                    # The frontier's answers are combined as they arrive, the
                    # combination taking at most about a third of the time:
                    # a win is often proved before every position is.
                    combine_seconds, combined_at, combined_count = 0.0, time.monotonic(), 0
                    while running:
                        finished, running = ray.wait(running, num_returns=1, timeout=left())
                        if not finished:
                            raise timed_out(figures)
                        if running:  # and every other answer already there
                            more, running = ray.wait(running, num_returns=len(running), timeout=0)
                            finished += more
                        for ref in finished:
                            text, searched = ray.get(ref)  # raises the task's error, after Ray's retries
                            figures.nodes += searched
                            if text is None:
                                figures.unknown += 1
                            else:
                                figures.proved += 1
                                certificates.append(phutball.Certificate.parse(text))
                        bar.update(len(finished))
                        if len(certificates) == combined_count or (running and time.monotonic() - combined_at < 2 * combine_seconds):
                            continue
                        began = time.monotonic()
                        proof = combined()
                        combined_at = time.monotonic()
                        combine_seconds, combined_count = combined_at - began, len(certificates)
                        if proof.result != "unknown":
                            # The rest are not needed: stopped (Position.prove
                            # raises KeyboardInterrupt), their workers kept.
                            figures.cancelled = len(running)
                            force = False
                            break
                    if proof is None or (proof.result == "unknown" and combined_count < len(certificates)):
                        proof = combined()
                    force = False
                finally:
                    for ref in running:
                        ray.cancel(ref, force=force)
        finally:
            bar.close()
    if proof is None:
        proof = combined()
    figures.seconds = time.monotonic() - started
    return proof, figures


def prove(
    position: Union[str, "phutball.Position"],
    *,
    frontier_plies: int = 1,
    timeout: Optional[float] = None,
    task_timeout: Optional[float] = None,
    nodes: Optional[int] = None,
    memory_limit: Optional[int] = phutball.DEFAULT_MEMORY_LIMIT,
    address: Optional[str] = None,
    progress: bool = False,
) -> "phutball.Proof":
    """Proves who wins ``position`` (a ``Position`` or a position string) on
    Ray: the positions ``frontier_plies`` plies below it
    (``phutball.frontier``) are proved one a task, each by
    ``Position.prove(timeout=task_timeout, memory_limit=memory_limit,
    nodes=nodes)``, and their certificates combined into one proof of the
    root (``phutball.combine_proofs``), checked before it is returned.

    Returns a ``Proof`` as ``Position.prove`` does: ``"win"`` or ``"loss"``
    for the side to move with the line and the certificate, or
    ``"unknown"`` when the frontier's proofs do not settle the root (a task
    whose limits ran out counts as unproved; the winner may avoid it). Its
    ``nodes`` are the combination's, 0. The answers are combined as they
    arrive, and once the root is proved the tasks still running are
    cancelled. A worker that dies has its task run again by Ray (up to 5
    times). ``timeout`` (seconds, for the whole run) raises
    ``SearchTimeoutError`` and Ctrl-C ``KeyboardInterrupt``, both after
    cancelling the tasks still running; a finished position and bad
    arguments raise ``ValueError`` or ``TypeError`` before any task."""
    proof, _ = _prove(
        position,
        frontier_plies=frontier_plies,
        timeout=timeout,
        task_timeout=task_timeout,
        nodes=nodes,
        memory_limit=memory_limit,
        address=address,
        progress=progress,
    )
    return proof
