"""Self-play and analysis datasets made on Ray: the ranges of games (or
positions) as tasks, each writing its range files, a run first checking
``out`` and resuming it (``_prepare``, ``_run``)."""

from __future__ import annotations

import hashlib
import json
import math
import operator
import os
import threading
import time
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import phutball
import pyarrow as pa
import ray

from ._dataset_files import (
    _MANIFEST,
    _SELFPLAY_SCHEMA,
    ANALYSIS_SCHEMA,
    GAMES_SCHEMA,
    TRAINING_SCHEMA,
    DatasetReport,
    _differ,
    _normal,
    _older_schema,
    _read_manifest,
    _refuse,
    _result,
    _run_tables,
    _survey,
)
from ._ray import _progress_bar, _wait_first, _with_ray
from ._store import DatasetError, _Store


@dataclass
class RunSummary:
    """What a run did: its dataset directory, the ranges its tasks wrote, the
    ranges already there, among the written those that had a damaged file
    and those that had a file written before checksums (``unverified``), and
    where those files were set aside."""

    out: str
    """The dataset's directory (or ``s3://`` URI)."""
    rows: int
    """The rows the ranges cover: the games of ``selfplay``, the positions of ``analyse``."""
    written: List[Tuple[int, int]] = field(default_factory=list)
    """The ranges this run's tasks wrote."""
    skipped: List[Tuple[int, int]] = field(default_factory=list)
    """The ranges already there, complete and verified: not run again."""
    repaired: List[Tuple[int, int]] = field(default_factory=list)
    """Among the written, those that had a damaged file."""
    unverified: List[Tuple[int, int]] = field(default_factory=list)
    """Among the written, those that had a file written before checksums."""
    set_aside: List[str] = field(default_factory=list)
    """Where the damaged and unverifiable files were set aside (``out/quarantine``)."""


def _prepare(store: _Store, run: Dict[str, Any]) -> Tuple[DatasetReport, List[str], Dict[Tuple[int, int], List[str]]]:
    """Checks ``out`` before a run: its record is this run's (``run.json``,
    written from the run's arguments when missing, once every file agrees),
    no file is refused; the damaged and unverifiable files are set aside
    (``out/quarantine``), and written again. Returns the survey, where the
    files set aside went, and, for every range to run, the tables its task
    writes."""
    tables, ranges = _run_tables(run)
    store.make_dirs(*tables)
    recorded = _read_manifest(store)
    older = None if recorded is None else _older_schema(recorded)
    if recorded is not None and older is not None:
        raise DatasetError(f"{store.shown(store.path(_MANIFEST))}: {store.out} {older}")
    if recorded is not None:
        differ = _differ(recorded, run)
        if differ:
            hint = ""
            if "eval" not in recorded and str(run.get("eval", "")).startswith("auto:"):
                hint = (" (a run recorded without eval played with the hand evaluation, the default before auto:"
                        ' resume it with eval="hand", --eval hand)')
            raise DatasetError(
                f"{store.shown(store.path(_MANIFEST))}: {store.out} holds a run with other arguments "
                f"({', '.join(differ)} differ): resume with the same arguments or choose another out{hint}"
            )
    report = _survey(store, run)
    _refuse(report)
    set_aside = [store.shown(store.set_aside(path, kind)) for kind, path in report.set_aside]
    if recorded is None:
        store.write_bytes(json.dumps(_normal(run), indent=1, sort_keys=True).encode(), store.path(_MANIFEST))
    todo: Dict[Tuple[int, int], List[str]] = {}
    for kind in tables:
        part = report.tables[kind]
        for r in [r for r, _, _ in part.damaged] + part.missing + [r for r, _ in part.unverifiable]:
            todo.setdefault(r, []).append(kind)
    return report, set_aside, {r: sorted(todo[r], key=tables.index) for r in sorted(todo)}


def _run(
    task: Any,
    store: _Store,
    run: Dict[str, Any],
    task_args: Callable[[], Tuple[Any, ...]],
    address: Optional[str],
    progress: bool,
    unit: str,
    timeout: Optional[float],
) -> RunSummary:
    """Checks ``out`` (``_prepare``), then submits ``task`` for every range
    with a file missing or damaged (with the arguments ``task_args()`` makes
    once Ray is up) and waits for them all, or until ``timeout`` seconds
    have passed (``SearchTimeoutError``). At a timeout, an error or Ctrl-C
    the tasks still running are cancelled; the ranges written stay, for the
    next run to resume from."""
    if timeout is not None and not timeout >= 0:
        raise ValueError(f"timeout must be a number of seconds, 0 or more, or None, not {timeout}")
    deadline = None if timeout is None else time.monotonic() + timeout
    report, set_aside, todo = _prepare(store, run)
    _, ranges = _run_tables(run)
    damaged = {r for part in report.tables.values() for r, _, _ in part.damaged}
    unverifiable = {r for part in report.tables.values() for r, _ in part.unverifiable}
    summary = RunSummary(out=store.out, rows=ranges[-1][1] if ranges else 0, skipped=[r for r in ranges if r not in todo], set_aside=set_aside)
    if not todo:
        return summary
    bar = _progress_bar(sum(end - start for start, end in todo), unit, progress)

    def timed_out() -> phutball.SearchTimeoutError:
        return phutball.SearchTimeoutError(
            f"timed out after {timeout} s with {len(summary.written)} of {len(todo)} ranges "
            f"written to {store.out}: run again with the same arguments to resume"
        )

    def work(stop: threading.Event) -> None:
        args = task_args()
        running = {task.remote(store, start, end, todo[(start, end)], run, *args): (start, end) for start, end in todo}
        try:
            while running:
                finished = _wait_first(list(running), deadline, stop)
                if not finished:
                    raise timed_out()
                start, end = running.pop(finished[0])
                ray.get(finished[0])  # raises the task's error, after Ray's retries
                summary.written.append((start, end))
                bar.update(end - start)
        finally:
            for ref in running:
                ray.cancel(ref, force=True)

    try:
        _with_ray(address, deadline, work, timed_out)
    finally:
        bar.close()
    summary.written.sort()
    summary.repaired = [r for r in summary.written if r in damaged]
    summary.unverified = [r for r in summary.written if r in unverifiable and r not in damaged]
    return summary


def _limit_columns(settings: Dict[str, Any], rows: int) -> Dict[str, List[Optional[int]]]:
    return {f"limit_{k}": [settings[k]] * rows for k in ("nodes", "depth", "time_ms")}


def _check_built_in(run: Dict[str, Any]) -> None:
    """Refuses, on a worker, an ``auto`` run whose record names another
    built-in network than this worker's build has: its games would differ
    from the driver's under the same record."""
    named = str(run.get("eval", ""))
    if named.startswith("auto:") and named != f"auto:net:sha256:{_sha256(phutball.Network.built_in())}":
        raise DatasetError(f"this worker's phutball has another built-in network than the run's ({named}): install the driver's build on every node")


@ray.remote(max_retries=5)
def _selfplay_task(store: _Store, start: int, end: int, tables: List[str], run: Dict[str, Any], settings: Dict[str, Any]) -> int:
    # A retry of a task that had written some of its files writes the others.
    todo = [t for t in tables if not store.exists(store.range_path(t, start, end))]
    if not todo:
        return 0
    _check_built_in(run)
    played = phutball.selfplay(end - start, start=start, jobs=1, **_in_seconds(settings))
    rows = len(played)
    if "training" in todo:
        # Written first: a range counts as done once its games file is there.
        ply_rows: Dict[str, List[Any]] = {name: [] for name in TRAINING_SCHEMA.names}
        for one in played:
            winner = one.game.winner
            for ply, (position, move, search) in enumerate(zip(one.game.positions, one.game.moves, one.analyses)):
                ply_rows["game"].append(one.index)
                ply_rows["ply"].append(ply)
                ply_rows["position"].append(str(position))
                ply_rows["action"].append(str(move))
                ply_rows["result"].append(0 if winner is None else 1 if winner == position.to_move else -1)
                # The mover's search, as phutball.Analysis gives it.
                for column in ("score", "win_in", "loss_in", "depth", "nodes", "decision"):
                    ply_rows[column].append(getattr(search, column))
        store.write_range(pa.Table.from_pydict(ply_rows, schema=TRAINING_SCHEMA), "training", start, end, run)
    if "games" in todo:
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
        store.write_range(pa.Table.from_pydict(columns, schema=GAMES_SCHEMA), "games", start, end, run)
    return rows


def _run_time_ms(time: Optional[float], time_ms: Optional[int]) -> Optional[int]:
    """The time per search a run records, in milliseconds (its settings
    and rows have always kept milliseconds): ``time`` (seconds, as every
    time the package takes) rounded to the millisecond, or the deprecated
    ``time_ms`` as it is (with a ``DeprecationWarning``); both is a
    ``TypeError``, as for ``phutball.Engine``."""
    if time is not None and time_ms is not None:
        raise TypeError("give time (seconds) or the deprecated time_ms (milliseconds), not both")
    if time_ms is not None:
        warnings.warn(
            "time_ms is deprecated and will be removed: give time in seconds (time=1.5 for time_ms=1500)",
            DeprecationWarning,
            stacklevel=3,
        )
        return time_ms
    if time is None:
        return None
    if isinstance(time, bool) or not isinstance(time, (int, float)):
        raise TypeError(f"time must be a number of seconds, not {type(time).__name__}")
    if not math.isfinite(time) or time < 0.001:
        raise ValueError(f"time must be at least 0.001 seconds (one millisecond), not {time!r}")
    return round(time * 1000)


def _seconds(time_ms: Optional[int]) -> Optional[float]:
    """A run's ``time_ms`` (its settings and rows keep milliseconds, as
    they always have) as the engine's ``time=``, in seconds; refused as
    the engine refused ``time_ms=``: a bool or a non-int, or less than 1."""
    if time_ms is None:
        return None
    if isinstance(time_ms, bool):
        raise TypeError("time_ms must be an int, not bool")
    ms = operator.index(time_ms)
    if ms < 1:
        raise ValueError(f"time_ms must be at least 1, not {ms}")
    return ms / 1000


_EVAL_NAMES = '"auto", "hand", "net", "net:PATH" or a phutball.Network'


def _sha256(network: "phutball.Network") -> str:
    return hashlib.sha256(network.to_bytes()).hexdigest()


def _evaluation_arg(value: Union[str, "phutball.Network", None]) -> Tuple[Optional[str], Union[str, "phutball.Network"]]:
    """An ``eval=`` argument as the run's record names it (``None`` for the
    hand evaluation, whose runs kept the record they had before ``eval=``)
    and as the tasks' ``phutball.selfplay`` takes it: a network as itself
    (its bytes go to the workers), named by its SHA-256; ``"auto"`` (the
    default) named with the built-in network's, so that a run is never
    resumed by a build with another network built in."""
    if value is None:
        value = "auto"
    if isinstance(value, phutball.Network):
        return f"net:sha256:{_sha256(value)}", value
    if not isinstance(value, str):
        raise TypeError(f"eval must be {_EVAL_NAMES}, not {type(value).__name__}")
    if value == "hand":
        return None, "hand"
    if value == "auto":
        return f"auto:net:sha256:{_sha256(phutball.Network.built_in())}", "auto"
    if value == "net":
        network = phutball.Network.built_in()
    elif value.startswith("net:") and value != "net:":
        network = phutball.Network(value[len("net:") :])
    else:
        raise ValueError(f"eval must be {_EVAL_NAMES}, not {value!r}")
    return f"net:sha256:{_sha256(network)}", network


def _in_seconds(settings: Dict[str, Any]) -> Dict[str, Any]:
    """A selfplay run's settings as ``phutball.selfplay``'s keywords: its
    ``time_ms`` as ``time`` (seconds)."""
    keywords = {k: v for k, v in settings.items() if k != "time_ms"}
    keywords["time"] = _seconds(settings["time_ms"])
    return keywords


def _position_string(item: Union[str, "phutball.Position"]) -> str:
    return str(item if isinstance(item, phutball.Position) else phutball.Position(item))


def selfplay(
    games: int,
    *,
    nodes: Optional[int] = None,
    depth: Optional[int] = None,
    time: Optional[float] = None,
    seed: int = 0,
    openings: Optional[Iterable[Union[str, "phutball.Position"]]] = None,
    out: Union[str, "os.PathLike[str]"],
    address: Optional[str] = None,
    games_per_task: int = 16,
    move_limit: int = 300,
    training: bool = False,
    progress: bool = False,
    timeout: Optional[float] = None,
    time_ms: Optional[int] = None,
    random_openings: bool = False,
    eval: Union[str, "phutball.Network", None] = None,
) -> RunSummary:
    """Plays ``games`` engine games on Ray, ``games_per_task`` a task, and
    writes them as a Parquet dataset under ``out/games`` (``out/training``
    too with ``training=True``): game ``i`` is game ``i`` of
    ``phutball.selfplay(games, nodes=, depth=, time=, seed=, openings=,
    move_limit=, random_openings=)`` (``time``, seconds a search, is kept to the millisecond;
    ``time_ms=`` still works for one release, with a ``DeprecationWarning``). ``out`` is a directory or an object-store URI
    (``s3://bucket/prefix``). Every range file already there is opened and
    checked first: whole ranges are skipped, damaged and missing ones
    written; other arguments than the run's raise ``ValueError``, and files
    of another run, junk and overlapping files ``DatasetError``. ``timeout``
    (seconds, for the whole run) raises ``SearchTimeoutError`` and Ctrl-C
    ``KeyboardInterrupt``, both after cancelling the tasks still running.
    The training rows carry the mover's search (``score``, ``win_in``,
    ``loss_in``, ``depth``, ``nodes``, ``decision``); a dataset written
    before them (self-play schema 1) is refused with a ``DatasetError``
    saying so, never mixed. ``eval`` is the engines' evaluation, as
    ``phutball.Engine(eval=)`` takes it (``"auto"``, the default,
    ``"hand"``, ``"net"``, ``"net:PATH"`` or a ``phutball.Network``): a
    network goes to the tasks as its bytes, so the workers need no file of
    it, and the run's record names it by its SHA-256 (``"auto"`` by the
    built-in network's)."""
    time_ms = _run_time_ms(time, time_ms)
    if games < 0 or games_per_task < 1:
        raise ValueError(f"games must be 0 or more and games_per_task 1 or more, not {games} and {games_per_task}")
    settings: Dict[str, Any] = {
        "nodes": nodes,
        "depth": depth,
        "time_ms": time_ms,
        "seed": seed,
        "openings": None if openings is None else [_position_string(p) for p in openings],
        "random_openings": random_openings,
        "move_limit": move_limit,
    }
    name, evaluation = _evaluation_arg(eval)
    named = {} if name is None else {"eval": name}
    store = _Store(out)
    run = _normal({"kind": "selfplay", "schema": _SELFPLAY_SCHEMA, "games": games, "games_per_task": games_per_task, "training": training, **settings, **named})
    settings["eval"] = evaluation
    # The engine checks the arguments now (no game is played), not in a task.
    phutball.selfplay(0, jobs=1, **_in_seconds(settings))
    return _run(_selfplay_task, store, run, lambda: (settings,), address, progress, "game", timeout)


@ray.remote(max_retries=5)
def _analyse_task(
    store: _Store, start: int, end: int, tables: List[str], run: Dict[str, Any], positions: Sequence[str], settings: Dict[str, Any]
) -> int:
    if store.exists(store.range_path("analysis", start, end)):
        return 0
    _check_built_in(run)
    engine = phutball.Engine(
        nodes=settings["nodes"], depth=settings["depth"], time=_seconds(settings["time_ms"]), seed=settings["seed"], eval=settings["eval"]
    )
    chunk = positions[start:end]
    answers = engine.analyse_many(chunk, jobs=1)
    # A position with no move answers with its error (the finished ones
    # were refused before the run): the task fails with it, as analyse would.
    for answer in answers:
        if isinstance(answer, BaseException):
            raise answer
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
    store.write_range(pa.Table.from_pydict(columns, schema=ANALYSIS_SCHEMA), "analysis", start, end, run)
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
    time: Optional[float] = None,
    seed: int = 0,
    out: Union[str, "os.PathLike[str]"],
    address: Optional[str] = None,
    positions_per_task: int = 64,
    progress: bool = False,
    timeout: Optional[float] = None,
    time_ms: Optional[int] = None,
    eval: Union[str, "phutball.Network", None] = None,
) -> RunSummary:
    """Analyses ``positions`` (a list of positions or position strings, or
    a file of position strings) on Ray, ``positions_per_task`` a task, each
    as ``phutball.Engine(nodes=, depth=, time=, seed=, eval=).analyse_many``
    does (``eval`` as ``selfplay`` takes it), and writes one row per position, in input order (column
    ``index``), under ``out/analysis``. Checks and resumes, and stops at
    ``timeout``, as ``selfplay`` does."""
    time_ms = _run_time_ms(time, time_ms)
    if positions_per_task < 1:
        raise ValueError(f"positions_per_task must be 1 or more, not {positions_per_task}")
    strings = _read_positions(positions)
    for i, text in enumerate(strings):
        if phutball.Position(text).is_finished:
            raise ValueError(f"positions[{i}]: the game is already over in this position")
    settings: Dict[str, Any] = {"nodes": nodes, "depth": depth, "time_ms": time_ms, "seed": seed}
    name, evaluation = _evaluation_arg(eval)
    named = {} if name is None else {"eval": name}
    phutball.Engine(nodes=nodes, depth=depth, time=_seconds(time_ms), seed=seed, eval=evaluation)  # checks the limits
    store = _Store(out)
    digest = hashlib.sha256("\n".join(strings).encode()).hexdigest()
    run = _normal({"kind": "analyse", "positions": len(strings), "positions_sha256": digest, "positions_per_task": positions_per_task, **settings, **named})
    settings["eval"] = evaluation
    # One copy of the list in Ray's object store, shared by every task.
    return _run(_analyse_task, store, run, lambda: (ray.put(strings), settings), address, progress, "position", timeout)
