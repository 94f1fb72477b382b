"""What a dataset's files are and how they are checked: the tables'
schemas, the run record (``run.json``, or the range files' metadata), each
range file opened and checked against its checksum and its run, and
``verify``, the report of a whole dataset."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple, Union

import phutball
import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from ._store import _CHECKSUM_KEY, _METADATA_KEY, DatasetError, _checksum_mismatch, _Store


def _required(name: str, kind: pa.DataType) -> pa.Field:
    """A column that is never null."""
    return pa.field(name, kind, nullable=False)


# The limit columns of every dataset: the engine's limits per move (null: not limited by it).
_LIMIT_FIELDS = [
    pa.field("limit_nodes", pa.int64()),
    pa.field("limit_depth", pa.int64()),
    pa.field("limit_time_ms", pa.int64()),
]

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
"""One row per game, in ``out/games``."""

# The training table of runs of schema 1 (before each move's search was
# recorded): what ``verify`` checks such a dataset's files against.
_TRAINING_FIELDS_1 = [
    _required("game", pa.int64()),
    _required("ply", pa.int32()),
    _required("position", pa.string()),
    _required("action", pa.string()),
    _required("result", pa.int8()),
]
_TRAINING_SCHEMA_1 = pa.schema(_TRAINING_FIELDS_1)

TRAINING_SCHEMA = pa.schema(
    [
        *_TRAINING_FIELDS_1,
        pa.field("score", pa.int32()),
        pa.field("win_in", pa.int32()),
        pa.field("loss_in", pa.int32()),
        _required("depth", pa.int32()),
        _required("nodes", pa.int64()),
        _required("decision", pa.string()),
    ]
)
"""One row per move of every game, in ``out/training`` (``training=True``):
the move, the game's result and the mover's search (score, depth, nodes)."""

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
"""One row per input position, in ``out/analysis``."""


# The schema of a self-play run, in its record (``run.json`` and every
# file's metadata): 2 added the training table's search columns and
# ``random_openings``. A record without it is of schema 1.
_SELFPLAY_SCHEMA = 2

_MANIFEST = "run.json"
_RANGE_NAME = re.compile(r"(games|training|analysis)-(\d{12})-(\d{12})\.parquet")
_TABLES = ("games", "training", "analysis")
_SCHEMAS = {"games": GAMES_SCHEMA, "training": TRAINING_SCHEMA, "analysis": ANALYSIS_SCHEMA}


def _ranges(count: int, per_task: int) -> List[Tuple[int, int]]:
    return [(start, min(start + per_task, count)) for start in range(0, count, per_task)]


def _normal(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples as lists), for comparisons."""
    return json.loads(json.dumps(value, sort_keys=True))


def _read_manifest(store: _Store) -> Optional[Dict[str, Any]]:
    """``out/run.json``, or ``None`` when there is none; one that does not
    read is a ``DatasetError`` naming it."""
    path = store.path(_MANIFEST)
    if store.kind(path) == pafs.FileType.NotFound:
        return None
    try:
        recorded = json.loads(store.read_bytes(path).decode("utf-8"))
    except (ValueError, OSError, pa.ArrowException) as e:
        raise DatasetError(f"{store.shown(path)} does not read as a run record ({e}): repair or delete it (the range files' metadata rebuilds it)") from e
    if not isinstance(recorded, dict) or recorded.get("kind") not in ("selfplay", "analyse"):
        raise DatasetError(f"{store.shown(path)} is not a run record of phutball.distributed: repair or delete it")
    return recorded


def _schema_version(run: Dict[str, Any]) -> int:
    """The schema of a self-play run's record (1 when it names none)."""
    version = run.get("schema", 1)
    return version if isinstance(version, int) and not isinstance(version, bool) else 0


def _older_schema(run: Dict[str, Any]) -> Optional[str]:
    """Why a self-play run's record cannot be resumed by this version
    (``None``: it can): it was written by an older one, whose training
    table lacked the search's columns (the files stay readable, and
    ``verify`` still checks them)."""
    if run.get("kind") != "selfplay" or _schema_version(run) == _SELFPLAY_SCHEMA:
        return None
    return (
        f"was written by another version of phutball.distributed (self-play schema {_schema_version(run)}, "
        f"this version writes schema {_SELFPLAY_SCHEMA}: its training table has each move's score, depth and nodes); "
        "its files are not mixed with this version's: choose another out (verify still checks it)"
    )


def _schemas(run: Dict[str, Any]) -> Dict[str, pa.Schema]:
    """The tables' schemas of a run: a self-play run of schema 1 has the old training table."""
    if run.get("kind") == "selfplay" and _schema_version(run) == 1:
        return {**_SCHEMAS, "training": _TRAINING_SCHEMA_1}
    return _SCHEMAS


def _differ(a: Dict[str, Any], b: Dict[str, Any]) -> List[str]:
    a, b = _normal(a), _normal(b)
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))


def _run_tables(run: Dict[str, Any]) -> Tuple[List[str], List[Tuple[int, int]]]:
    """The tables and the ranges of a run record."""
    if run.get("kind") == "analyse":
        return ["analysis"], _ranges(int(run["positions"]), int(run["positions_per_task"]))
    tables = ["games", "training"] if run.get("training") else ["games"]
    return tables, _ranges(int(run["games"]), int(run["games_per_task"]))


@dataclass
class TableReport:
    """One table of a dataset: its complete ranges (each file's checksum
    verified), its damaged ones (with the file and what is wrong), the
    missing ones, and the unverifiable ones: files that pass every other
    check but were written before checksums (format 1), with the file."""

    complete: List[Tuple[int, int]] = field(default_factory=list)
    """The ranges whose file is there, its checksum verified."""
    damaged: List[Tuple[Tuple[int, int], str, str]] = field(default_factory=list)
    """The damaged ranges: (range, file, what is wrong)."""
    missing: List[Tuple[int, int]] = field(default_factory=list)
    """The ranges with no file."""
    unverifiable: List[Tuple[Tuple[int, int], str]] = field(default_factory=list)
    """(range, file) of the files that pass every other check but were written before checksums (format 1)."""


@dataclass
class DatasetReport:
    """What ``verify`` found: the run's record (and whether ``run.json`` holds
    it), each table's ranges, and the files refused (foreign, junk,
    overlapping), each with the reason."""

    out: str
    """The dataset's directory (or ``s3://`` URI)."""
    run: Dict[str, Any]
    """The run's record: the arguments the dataset was made with."""
    recorded: bool
    """Whether ``run.json`` holds the record (else it was read from the files)."""
    tables: Dict[str, TableReport]
    """Each table's ranges, by the table's name (``games``, ``training``, ``analysis``)."""
    refused: List[Tuple[str, str]] = field(default_factory=list)
    """The files refused (foreign, junk, overlapping): (file, reason)."""
    set_aside: List[Tuple[str, str]] = field(default_factory=list, repr=False)
    """The files to set aside before a run: (table, path) of the damaged and the unverifiable."""

    @property
    def complete(self) -> bool:
        """Every range there, its file's checksum verified, and no file refused."""
        return not self.refused and all(not t.damaged and not t.missing and not t.unverifiable for t in self.tables.values())


def _range_record(store: _Store, path: str) -> Tuple[Optional[pa.Table], Optional[Dict[str, Any]], Optional[str], bool]:
    """A range file read whole: its table, its metadata record, or why it
    does not read, and whether its checksum verified it (``False``: a file
    of format 1, written before checksums, that has none). The checksum is
    checked first, over the bytes as stored, then Parquet's page checksums
    as the pages are read."""
    try:
        data = store.read_bytes(path)
        footer = pq.read_metadata(pa.BufferReader(data)).metadata or {}
    except (pa.ArrowException, OSError, ValueError) as e:
        return None, None, f"does not read as Parquet ({e})", False
    recorded = footer.get(_CHECKSUM_KEY)
    if recorded is not None:
        mismatch = _checksum_mismatch(data, recorded)
        if mismatch is not None:
            return None, None, mismatch, False
    try:
        table = pq.ParquetFile(pa.BufferReader(data), page_checksum_verification=True).read()
    except (pa.ArrowException, OSError, ValueError) as e:
        return None, None, f"does not read as Parquet ({e})", False
    raw = (table.schema.metadata or {}).get(_METADATA_KEY)
    if raw is None:
        return table, None, "has no phutball metadata (not written by this version)", False
    try:
        record = json.loads(raw.decode("utf-8"))
        if not isinstance(record, dict) or not isinstance(record.get("run"), dict):
            raise ValueError("not a record")
    except ValueError:
        return table, None, "has metadata that does not read", False
    if recorded is None and record.get("format") != 1:
        return table, None, "has no checksum, yet its metadata is of a format that has one", False
    return table, record, None, recorded is not None


class _Foreign(Exception):
    """A range file of another run: why."""


def _check_range(
    store: _Store, path: str, kind: str, start: int, end: int, run: Dict[str, Any], plies: Optional[List[int]]
) -> Tuple[Optional[str], Optional[pa.Table], bool]:
    """Why the file of a range is damaged (``None``: it is whole), its
    table, and whether its checksum verified it. A file of another run
    raises ``_Foreign``. ``plies``: the games' plies, which the training rows
    must match."""
    table, record, wrong, verified = _range_record(store, path)
    if wrong is not None or table is None or record is None:
        return wrong, None, False
    differ = _differ(record["run"], run)
    older = _older_schema(record["run"]) if _older_schema(run) is None else None
    if differ and older is not None:
        raise _Foreign(older)
    if differ:
        raise _Foreign(f"belongs to another run ({', '.join(differ)} differ from this run's): rerun with that run's arguments")
    if (record.get("table"), record.get("start"), record.get("end")) != (kind, start, end):
        return f"its metadata names {record.get('table')} {record.get('start')} to {record.get('end')}", None, False
    if not table.schema.remove_metadata().equals(_schemas(run)[kind]):
        return "has another schema", None, False
    if table.num_rows != record.get("rows"):
        return f"holds {table.num_rows} rows, its metadata says {record.get('rows')}", None, False
    if kind == "training":
        games = table.column("game").to_pylist()
        if plies is not None:
            counts = [0] * (end - start)
            for game in games:
                if not start <= game < end:
                    return f"holds game {game}, outside {start} to {end - 1}", None, False
                counts[game - start] += 1
            if counts != plies or games != sorted(games):
                return "its rows are not one per move of the range's games, in order", None, False
        return None, table, verified
    numbers = table.column("game" if kind == "games" else "index").to_pylist()
    if numbers != list(range(start, end)):
        return f"holds {len(numbers)} rows, not rows {start} to {end - 1} in order", None, False
    return None, table, verified


def _replay_problem(table: pa.Table) -> Optional[str]:
    """Why a games file's games do not replay (``None``: each does): every
    move played again through ``phutball.Game`` from the row's opening,
    ending where the row says (its result and its number of moves)."""
    for row in table.select(["game", "opening", "moves", "result", "plies", "move_limit"]).to_pylist():
        try:
            game = phutball.Game(row["opening"], move_limit=row["move_limit"])
            for move in row["moves"]:
                if game.is_over:
                    raise ValueError("the game is over before its last move")
                game.push(move)
        except ValueError as e:
            return f"game {row['game']} does not replay: {e}"
        if not game.is_over or _result(game) != row["result"] or len(row["moves"]) != row["plies"]:
            return f"game {row['game']} does not replay to its result: {_result(game) if game.is_over else 'not over'} in {len(game)} moves, the row says {row['result']} in {row['plies']}"
    return None


def _survey(store: _Store, run: Dict[str, Any], replay: bool = False) -> DatasetReport:
    """Opens and checks every file of the run's tables (and that the other
    tables are empty): what is complete, damaged, missing or refused.
    ``replay``: every game of the games files is played again, too."""
    tables, ranges = _run_tables(run)
    expected = set(ranges)
    report = DatasetReport(out=store.out, run=run, recorded=True, tables={t: TableReport() for t in tables})
    paths: Dict[str, Dict[Tuple[int, int], str]] = {}
    for kind in _TABLES:
        present = {}
        for info in store.listing(kind):
            name = info.base_name
            if name.startswith(".") or name.startswith("_"):
                continue  # a temporary file, or a marker
            shown = store.shown(info.path)
            match = _RANGE_NAME.fullmatch(name)
            if kind not in tables:
                report.refused.append((shown, f"{kind} is not a table of this run"))
            elif info.type != pafs.FileType.File or match is None or match.group(1) != kind:
                report.refused.append((shown, f"not a range file of this dataset ({kind}-START-END.parquet)"))
            elif (int(match.group(2)), int(match.group(3))) not in expected:
                report.refused.append((shown, f"its range overlaps or lies outside the ranges of this run ({len(ranges)} of {ranges[0][1] - ranges[0][0] if ranges else 0})"))
            else:
                present[(int(match.group(2)), int(match.group(3)))] = info.path
        if kind in tables:
            report.tables[kind].missing = [r for r in ranges if r not in present]
            paths[kind] = present
    plies: Dict[Tuple[int, int], List[int]] = {}
    for kind in tables:
        part = report.tables[kind]
        for r, path in sorted(paths[kind].items()):
            try:
                wrong, table, verified = _check_range(store, path, kind, r[0], r[1], run, plies.get(r) if kind == "training" else None)
            except _Foreign as e:
                report.refused.append((store.shown(path), str(e)))
                continue
            if wrong is None and replay and kind == "games" and table is not None:
                wrong = _replay_problem(table)
            if wrong is None:
                if verified:
                    part.complete.append(r)
                else:
                    part.unverifiable.append((r, store.shown(path)))
                    report.set_aside.append((kind, path))
                if kind == "games" and table is not None:
                    plies[r] = table.column("plies").to_pylist()
            else:
                part.damaged.append((r, store.shown(path), wrong))
                report.set_aside.append((kind, path))
    return report


def _refuse(report: DatasetReport) -> None:
    if report.refused:
        path, why = report.refused[0]
        more = f" (and {len(report.refused) - 1} more files)" if len(report.refused) > 1 else ""
        raise DatasetError(f"{path}: {why}{more}: move it away or choose another out")


def _record_of_files(store: _Store) -> Optional[Dict[str, Any]]:
    """The run record in the metadata of the first range file that reads
    whole (a damaged file's record could name another run)."""
    for kind in _TABLES:
        for info in sorted(store.listing(kind), key=lambda i: i.path):
            if info.type == pafs.FileType.File and _RANGE_NAME.fullmatch(info.base_name):
                _, record, _, _ = _range_record(store, info.path)
                if record is not None:
                    return record["run"]
    return None


def verify(out: Union[str, "os.PathLike[str]"], *, replay: bool = False) -> DatasetReport:
    """Opens and checks every range file of the dataset at ``out`` (a path or
    an object-store URI) against its checksum and its run record
    (``run.json``, else the files' metadata): which ranges of each table are
    complete, damaged, missing or unverifiable (written before checksums),
    and which files are refused. ``replay``: each game of the games files is
    also played again through ``phutball.Game`` (a file whose games do not
    replay to their results is damaged). Writes nothing. A dataset with no
    record anywhere, or a ``run.json`` that does not read, is a
    ``DatasetError``."""
    store = _Store(out)
    if store.kind(store.base) == pafs.FileType.File:
        raise DatasetError(f"{store.out} is a file, not a dataset directory")
    run = _read_manifest(store)
    recorded = run is not None
    if run is None:
        run = _record_of_files(store)
        if run is None:
            raise DatasetError(f"{store.out} holds no run.json and no range file with phutball metadata: not a dataset")
    report = _survey(store, run, replay)
    report.recorded = recorded
    return report


def _result(game: "phutball.Game") -> str:
    return game.winner or "draw"
