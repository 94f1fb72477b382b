"""Self-play and analysis datasets, and proofs in parts, on a Ray cluster (``pip install "phutball[ray]"``).

>>> from phutball import distributed                          # doctest: +SKIP
>>> distributed.selfplay(1000, nodes=2000, seed=7, out="games")  # doctest: +SKIP
>>> distributed.prove(phutball.Position.start(9, 9), frontier_plies=2)  # doctest: +SKIP

The work is split into Ray tasks by range of games (or positions); each task
plays its range with ``phutball.selfplay`` (the engine's own seeds: game
``i`` is the same game as in ``phutball selfplay``) and writes one Parquet
file per table named by the range, its metadata naming the run and the
range, published whole (a temporary name then a rename; one upload on an
object store: ``out`` may be ``s3://bucket/prefix``). A task whose files are
there does nothing, so Ray's retries after a worker dies write no range
twice. Each file carries the SHA-256 of its bytes in its footer (and
Parquet's page checksums). A second run first opens and checks every file:
damaged files (a single changed bit included) and files written before
checksums are set aside under ``out/quarantine`` and their ranges written
again, with the missing ones; foreign, junk and overlapping files are
refused (``DatasetError``); ``verify`` reports the same. The schema, and how to run
it on a cluster, are in the repository's ``docs/distributed.md``.

``prove`` expands a root some plies deep (``phutball.frontier``), proves each
position of that frontier as a task (``Position.prove``) and combines the
certificates into one checked proof of the root (``phutball.combine_proofs``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import itertools
import re
import threading
import time
import urllib.parse
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, TypeVar, Union

import phutball

try:
    import pyarrow as pa
    import pyarrow.fs as pafs
    import pyarrow.parquet as pq
    import ray
except ImportError as missing:  # pragma: no cover - the message is the point
    raise ImportError(
        f"phutball.distributed needs Ray and pyarrow ({missing}): pip install 'phutball[ray]'"
    ) from missing

__all__ = [
    "DatasetError",
    "DatasetReport",
    "RunSummary",
    "TableReport",
    "analyse",
    "prove",
    "selfplay",
    "verify",
    "GAMES_SCHEMA",
    "TRAINING_SCHEMA",
    "ANALYSIS_SCHEMA",
]


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
# The key of a range file's Parquet (schema) metadata: the run's record
# (what run.json holds), the table and the range of the file.
_METADATA_KEY = b"phutball"
# The key of a range file's checksum, in the Parquet footer's key-value
# metadata only: the SHA-256 (hex) of the file's bytes with this value
# written as 64 zeros. It covers every byte, the footer included, so any
# change to the file fails it.
_CHECKSUM_KEY = b"phutball-sha256"
_CHECKSUM_UNSET = b"0" * 64
# The record's format: 2 carries the checksum; 1 (before it) cannot be verified.
_FORMAT = 2
# Where damaged and unverifiable files are set aside (never deleted), under out.
_QUARANTINE = "quarantine"
_RANGE_NAME = re.compile(r"(games|training|analysis)-(\d{12})-(\d{12})\.parquet")
_TABLES = ("games", "training", "analysis")
_SCHEMAS = {"games": GAMES_SCHEMA, "training": TRAINING_SCHEMA, "analysis": ANALYSIS_SCHEMA}


class DatasetError(ValueError):
    """A dataset directory that cannot be used as it is, naming the path:
    ``out`` is a file, ``run.json`` does not read, a range file belongs to
    another run (foreign), is not a range file of this dataset (junk) or
    overlaps the ranges of this run. Nothing is written or deleted."""


@dataclass
class RunSummary:
    """What a run did: its dataset directory, the ranges its tasks wrote, the
    ranges already there, among the written those that had a damaged file
    and those that had a file written before checksums (``unverified``), and
    where those files were set aside."""

    out: str
    rows: int
    written: List[Tuple[int, int]] = field(default_factory=list)
    skipped: List[Tuple[int, int]] = field(default_factory=list)
    repaired: List[Tuple[int, int]] = field(default_factory=list)
    unverified: List[Tuple[int, int]] = field(default_factory=list)
    set_aside: List[str] = field(default_factory=list)


def _ranges(count: int, per_task: int) -> List[Tuple[int, int]]:
    return [(start, min(start + per_task, count)) for start in range(0, count, per_task)]


def _normal(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples as lists), for comparisons."""
    return json.loads(json.dumps(value, sort_keys=True))


class _Store:
    """Where a dataset lives: a local directory or an object-store prefix
    (``s3://bucket/prefix``, through pyarrow's filesystems). Pickles with its
    filesystem, so a Ray task writes where the driver reads."""

    def __init__(self, out: Union[str, "os.PathLike[str]"]):
        text = os.fspath(out)
        if "://" not in text:
            self.fs: pafs.FileSystem = pafs.LocalFileSystem()
            self.base = os.path.abspath(text)
            self.out = self.base
            self.local = True
            return
        self.out = text.rstrip("/")
        self.local = False
        scheme = text.split("://", 1)[0].lower()
        endpoint = os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
        try:
            if scheme == "s3" and "?" not in text and endpoint:
                parsed = urllib.parse.urlsplit(endpoint if "://" in endpoint else f"https://{endpoint}")
                options: Dict[str, Any] = {"endpoint_override": parsed.netloc, "scheme": parsed.scheme or "https"}
                region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
                if region:
                    options["region"] = region
                if os.environ.get("AWS_ACCESS_KEY_ID") and os.environ.get("AWS_SECRET_ACCESS_KEY"):
                    options["access_key"] = os.environ["AWS_ACCESS_KEY_ID"]
                    options["secret_key"] = os.environ["AWS_SECRET_ACCESS_KEY"]
                    if os.environ.get("AWS_SESSION_TOKEN"):
                        options["session_token"] = os.environ["AWS_SESSION_TOKEN"]
                self.fs = pafs.S3FileSystem(**options)
                self.base = text[len("s3://") :].rstrip("/")
            else:
                self.fs, base = pafs.FileSystem.from_uri(text)
                self.base = base.rstrip("/")
        except (pa.ArrowException, OSError, ValueError) as e:
            raise DatasetError(f"{text}: not a dataset location pyarrow can open: {e}") from e
        if not self.base:
            raise DatasetError(f"{text}: give a prefix under the bucket, e.g. s3://bucket/games")

    def path(self, *parts: str) -> str:
        return "/".join([self.base, *parts]) if not self.local else os.path.join(self.base, *parts)

    def range_path(self, table: str, start: int, end: int) -> str:
        """The file of rows ``start`` to ``end - 1``: zero-padded, so names sort in row order."""
        return self.path(table, f"{table}-{start:012d}-{end:012d}.parquet")

    def shown(self, path: str) -> str:
        """``path`` as the user names it: a local path, or the URI."""
        if self.local:
            return path
        return self.out + path[len(self.base) :]

    def kind(self, path: str) -> pafs.FileType:
        return self.fs.get_file_info(path).type

    def exists(self, path: str) -> bool:
        return self.kind(path) == pafs.FileType.File

    def make_dirs(self, *tables: str) -> None:
        if self.kind(self.base) == pafs.FileType.File:
            raise DatasetError(f"{self.out} is a file, not a dataset directory: choose another out")
        for table in tables:
            self.fs.create_dir(self.path(table), recursive=True)

    def listing(self, table: str) -> List[pafs.FileInfo]:
        return self.fs.get_file_info(pafs.FileSelector(self.path(table), allow_not_found=True))

    def read_bytes(self, path: str) -> bytes:
        with self.fs.open_input_stream(path) as stream:
            return stream.read()

    def write_bytes(self, data: bytes, path: str) -> None:
        """Publishes ``data`` under ``path`` whole or not at all: locally
        written under a hidden temporary name (pyarrow's readers skip names
        starting with a dot) then renamed; on an object store handed over in
        one write from memory and uploaded at close (S3 shows an object, put
        or multipart, only once its upload completes). A file that still
        ended up partial would not pass the next run's check: rewritten."""
        if not self.local:
            with self.fs.open_output_stream(path) as stream:
                stream.write(data)
            return
        directory, name = os.path.split(path)
        temporary = os.path.join(directory, f".{name}.{uuid.uuid4().hex}.tmp")
        os.makedirs(directory, exist_ok=True)
        try:
            with open(temporary, "wb") as file:
                file.write(data)
            os.replace(temporary, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.remove(temporary)

    def write_range(self, table: pa.Table, kind: str, start: int, end: int, run: Dict[str, Any]) -> None:
        """One range file, its metadata naming the run, the table and the
        range, with Parquet's page checksums and the file's own (``_checksummed``)."""
        record = {"format": _FORMAT, "table": kind, "start": start, "end": end, "rows": table.num_rows, "run": run}
        table = table.replace_schema_metadata({_METADATA_KEY: json.dumps(record, sort_keys=True).encode()})
        sink = pa.BufferOutputStream()
        with pq.ParquetWriter(sink, table.schema, write_page_checksum=True) as writer:
            writer.write_table(table)
            writer.add_key_value_metadata({_CHECKSUM_KEY: _CHECKSUM_UNSET})
        self.write_bytes(_checksummed(sink.getvalue().to_pybytes()), self.range_path(kind, start, end))

    def set_aside(self, path: str, table: str) -> str:
        """Moves a damaged file of ``table`` to ``out/quarantine/TABLE/NAME.damaged``
        (``.damaged-2``, ... when taken), never deleting it; returns where."""
        name = os.path.basename(path) if self.local else path.rsplit("/", 1)[-1]
        self.fs.create_dir(self.path(_QUARANTINE, table), recursive=True)
        target = self.path(_QUARANTINE, table, f"{name}.damaged")
        number = 1
        while self.kind(target) != pafs.FileType.NotFound:
            number += 1
            target = self.path(_QUARANTINE, table, f"{name}.damaged-{number}")
        self.fs.move(path, target)
        return target


def _checksummed(data: bytes) -> bytes:
    """A Parquet file written with ``_CHECKSUM_KEY`` set to 64 zeros, with
    that value replaced by the SHA-256 of the file as written. The footer's
    key-value metadata follows the data and the statistics, so the last 64
    zeros of the file are the value."""
    at = data.rfind(_CHECKSUM_UNSET)
    digest = hashlib.sha256(data).hexdigest().encode()
    return data[:at] + digest + data[at + len(digest) :]


def _checksum_mismatch(data: bytes, recorded: bytes) -> Optional[str]:
    """Why the bytes of a range file do not match the checksum its footer
    records (``None``: they do): the file's SHA-256 with the recorded value
    put back to zeros, as it was when the checksum was taken."""
    at = data.rfind(recorded)
    if len(recorded) != len(_CHECKSUM_UNSET) or at < 0:
        return "its checksum is not a SHA-256"
    digest = hashlib.sha256(data[:at] + _CHECKSUM_UNSET + data[at + len(recorded) :]).hexdigest().encode()
    if digest != recorded:
        return f"its content does not match its checksum (SHA-256 {digest[:16].decode()}..., recorded {recorded[:16].decode(errors='replace')}...)"
    return None


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
    damaged: List[Tuple[Tuple[int, int], str, str]] = field(default_factory=list)
    missing: List[Tuple[int, int]] = field(default_factory=list)
    unverifiable: List[Tuple[Tuple[int, int], str]] = field(default_factory=list)


@dataclass
class DatasetReport:
    """What ``verify`` found: the run's record (and whether ``run.json`` holds
    it), each table's ranges, and the files refused (foreign, junk,
    overlapping), each with the reason."""

    out: str
    run: Dict[str, Any]
    recorded: bool
    tables: Dict[str, TableReport]
    refused: List[Tuple[str, str]] = field(default_factory=list)
    # The files to set aside before a run: (table, path) of the damaged and the unverifiable.
    set_aside: List[Tuple[str, str]] = field(default_factory=list, repr=False)

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
    if differ:
        raise _Foreign(f"belongs to another run ({', '.join(differ)} differ from this run's): rerun with that run's arguments")
    if (record.get("table"), record.get("start"), record.get("end")) != (kind, start, end):
        return f"its metadata names {record.get('table')} {record.get('start')} to {record.get('end')}", None, False
    if not table.schema.remove_metadata().equals(_SCHEMAS[kind]):
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
    if recorded is not None:
        differ = _differ(recorded, run)
        if differ:
            raise DatasetError(
                f"{store.shown(store.path(_MANIFEST))}: {store.out} holds a run with other arguments "
                f"({', '.join(differ)} differ): resume with the same arguments or choose another out"
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


# How long a call waits, past its deadline or a Ctrl-C, for its Ray thread
# to cancel its tasks and shut Ray down, before leaving it behind.
_GRACE_SECONDS = 1.0
# How often a waiting Ray thread looks at the caller's stop request.
_POLL_SECONDS = 0.2


class _Stopped(Exception):
    """The caller stopped waiting for the Ray thread (deadline or Ctrl-C)."""


def _wait_first(refs: List[Any], deadline: Optional[float], stop: threading.Event) -> List[Any]:
    """The tasks of ``refs`` finished (at least one), or ``[]`` once the
    deadline has passed; ``_Stopped`` when the caller gave up."""
    while True:
        if stop.is_set():
            raise _Stopped()
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        finished, _ = ray.wait(refs, num_returns=1, timeout=_POLL_SECONDS if left is None else min(left, _POLL_SECONDS))
        if finished or left == 0:
            return finished


T = TypeVar("T")


def _with_ray(address: Optional[str], deadline: Optional[float], work: Callable[[threading.Event], T], timed_out: Callable[[], BaseException]) -> T:
    """``work(stop)`` with Ray up. Ray as the caller has it (initialised)
    is kept as it is and used on this thread. Else ``ray.init(address)``
    (``None``: a local instance, or the cluster of ``RAY_ADDRESS``), the
    work and ``ray.shutdown()`` run on a thread of their own, which this one
    waits for until ``deadline``: Ray's connect to an unreachable address
    waits on its own retries for minutes and answers no signal, so only a
    thread left behind keeps the caller's deadline (``timed_out()`` is
    raised) and Ctrl-C. Past either, ``stop`` is set for the work to cancel
    its tasks, and the thread given ``_GRACE_SECONDS`` to end."""
    if ray.is_initialized():
        return work(threading.Event())
    stop, connected = threading.Event(), threading.Event()
    outcome: List[Tuple[bool, Any]] = []

    def session() -> None:
        try:
            ray.init(address=address)
            connected.set()
            try:
                if not stop.is_set():
                    outcome.append((True, work(stop)))
            finally:
                ray.shutdown()
        except BaseException as e:  # handed to the caller's thread
            outcome.append((False, e))

    thread = threading.Thread(target=session, name="phutball-ray", daemon=True)
    thread.start()
    try:
        while thread.is_alive() and (deadline is None or time.monotonic() < deadline):
            thread.join(_POLL_SECONDS if deadline is None else max(0.0, min(_POLL_SECONDS, deadline - time.monotonic())))
    except KeyboardInterrupt:
        stop.set()
        thread.join(_GRACE_SECONDS)
        _LEFT_BEHIND.append(thread)
        raise
    if thread.is_alive():
        stop.set()
        if connected.is_set():  # a connect does not look at stop: no grace for it
            thread.join(_GRACE_SECONDS)
    _LEFT_BEHIND.append(thread)
    if not connected.is_set():
        if address:
            why = f"the Ray cluster at {address} did not answer by then: is it running and reachable?"
        else:
            why = "Ray (a local instance starts in about 5 s, or RAY_ADDRESS's cluster) was not up by then"
        raise phutball.SearchTimeoutError(f"{timed_out()}: {why}")
    if not outcome or isinstance(outcome[0][1], _Stopped):
        raise timed_out()
    done, value = outcome[0]
    if not done:
        raise value
    return value


# Ray threads given up on (still connecting or shutting down): a command
# ends its process without waiting for them (``_ray_left_behind``).
_LEFT_BEHIND: List[threading.Thread] = []


def _ray_left_behind() -> bool:
    """Whether a call left a Ray thread running (connecting to an
    unreachable address, or shutting down) when it returned."""
    return any(thread.is_alive() for thread in _LEFT_BEHIND)


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
def _selfplay_task(store: _Store, start: int, end: int, tables: List[str], run: Dict[str, Any], settings: Dict[str, Any]) -> int:
    # A retry of a task that had written some of its files writes the others.
    todo = [t for t in tables if not store.exists(store.range_path(t, start, end))]
    if not todo:
        return 0
    played = phutball.selfplay(end - start, start=start, jobs=1, **settings)
    rows = len(played)
    if "training" in todo:
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
    move_limit=)``. ``out`` is a directory or an object-store URI
    (``s3://bucket/prefix``). Every range file already there is opened and
    checked first: whole ranges are skipped, damaged and missing ones
    written; other arguments than the run's raise ``ValueError``, and files
    of another run, junk and overlapping files ``DatasetError``. ``timeout``
    (seconds, for the whole run) raises ``SearchTimeoutError`` and Ctrl-C
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
    store = _Store(out)
    run = _normal({"kind": "selfplay", "games": games, "games_per_task": games_per_task, "training": training, **settings})
    return _run(_selfplay_task, store, run, lambda: (settings,), address, progress, "game", timeout)


@ray.remote(max_retries=5)
def _analyse_task(
    store: _Store, start: int, end: int, tables: List[str], run: Dict[str, Any], positions: Sequence[str], settings: Dict[str, Any]
) -> int:
    if store.exists(store.range_path("analysis", start, end)):
        return 0
    engine = phutball.Engine(nodes=settings["nodes"], depth=settings["depth"], time_ms=settings["time_ms"], seed=settings["seed"])
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
    ``index``), under ``out/analysis``. Checks and resumes, and stops at
    ``timeout``, as ``selfplay`` does."""
    if positions_per_task < 1:
        raise ValueError(f"positions_per_task must be 1 or more, not {positions_per_task}")
    strings = _read_positions(positions)
    for i, text in enumerate(strings):
        if phutball.Position(text).is_finished:
            raise ValueError(f"positions[{i}]: the game is already over in this position")
    settings: Dict[str, Any] = {"nodes": nodes, "depth": depth, "time_ms": time_ms, "seed": seed}
    phutball.Engine(nodes=nodes, depth=depth, time_ms=time_ms, seed=seed)  # checks the limits
    store = _Store(out)
    digest = hashlib.sha256("\n".join(strings).encode()).hexdigest()
    run = _normal({"kind": "analyse", "positions": len(strings), "positions_sha256": digest, "positions_per_task": positions_per_task, **settings})
    # One copy of the list in Ray's object store, shared by every task.
    return _run(_analyse_task, store, run, lambda: (ray.put(strings), settings), address, progress, "position", timeout)


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
    size, the tasks' answers (proved, unknown, not needed: ``cancelled``, the
    tasks not waited for once the root was proved, left to end on their own),
    their nodes, and the run's seconds."""

    frontier: int
    proved: int = 0
    unknown: int = 0
    cancelled: int = 0
    nodes: int = 0
    seconds: float = 0.0


class _ProveRun:
    """One distributed proof: the root, its frontier's certificates as they
    arrive, the figures, and the caller's deadline."""

    def __init__(self, root: "phutball.Position", frontier_plies: int, timeout: Optional[float]) -> None:
        self.started = time.monotonic()
        self.root = root
        self.frontier_plies = frontier_plies
        self.timeout = timeout
        self.deadline = None if timeout is None else self.started + timeout
        self.certificates: List["phutball.Certificate"] = []
        self.figures = ProveFigures(frontier=0)
        # The tasks out, not yet answered.
        self.running: List[Any] = []

    def left(self) -> Optional[float]:
        """The seconds left before the deadline (None: no deadline)."""
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def timed_out(self) -> phutball.SearchTimeoutError:
        figures = self.figures
        return phutball.SearchTimeoutError(
            f"timed out after {self.timeout} s with {figures.proved + figures.unknown} of {figures.frontier} "
            "frontier positions answered"
        )

    def combined(self) -> "phutball.Proof":
        """The root's proof from the certificates so far."""
        try:
            return phutball.combine_proofs(self.root, self.frontier_plies, self.certificates, timeout=self.left())
        except phutball.SearchTimeoutError as e:
            raise self.timed_out() from e

    def collect(self, finished: List[Any]) -> None:
        """Reads finished tasks' answers into the figures and certificates."""
        for ref in finished:
            text, searched = ray.get(ref)  # raises the task's error, after Ray's retries
            self.figures.nodes += searched
            if text is None:
                self.figures.unknown += 1
            else:
                self.figures.proved += 1
                self.certificates.append(phutball.Certificate.parse(text))

    def wait_and_combine(self, frontier: List[Any], limits: Dict[str, Any], bar: Any, stop: threading.Event) -> Tuple[Optional["phutball.Proof"], List[Any]]:
        """Proves the frontier one task a position, at most a few tasks a
        CPU out at once (a frontier of 200,000 positions is not handed to
        Ray in one go: that took a minute and gigabytes, past any timeout),
        combining their answers as they arrive (the combination taking at
        most about a third of the time: a win is often proved before every
        position is); returns the proof and the tasks still running once it
        is decided."""
        window = max(8, 4 * int(ray.cluster_resources().get("CPU", 1)))
        waiting = iter(frontier)
        running, sent = self.running, 0
        proof = None
        combine_seconds, combined_at, combined_count = 0.0, time.monotonic(), 0
        while True:
            for position in itertools.islice(waiting, window - len(running)):
                if stop.is_set() or self.left() == 0:
                    raise self.timed_out()
                running.append(_prove_task.remote(position, limits))
                sent += 1
            if not running:
                break
            finished = _wait_first(running, self.deadline, stop)
            if not finished:
                raise self.timed_out()
            # And every other answer already there.
            finished, running[:] = ray.wait(running, num_returns=len(running), timeout=0)
            self.collect(finished)
            bar.update(len(finished))
            count = len(self.certificates)
            more = running or sent < len(frontier)
            if count == combined_count or (more and time.monotonic() - combined_at < 2 * combine_seconds):
                continue
            began = time.monotonic()
            proof = self.combined()
            combined_at = time.monotonic()
            combine_seconds, combined_count = combined_at - began, count
            if proof.result != "unknown":
                # The rest are not needed: not waited for (run_tasks says
                # why they are not cancelled), nor the waiting ones sent.
                self.figures.cancelled = self.figures.frontier - self.figures.proved - self.figures.unknown
                return proof, running
        if proof is None or (proof.result == "unknown" and combined_count < len(self.certificates)):
            proof = self.combined()
        return proof, running

    def run_tasks(self, frontier: List[Any], limits: Dict[str, Any], address: Optional[str], progress: bool) -> "phutball.Proof":
        """Proves the frontier one task a position and combines the answers.
        Once the root is decided the tasks left run on to their own limits,
        their answers dropped; if the driver fails (a timeout, Ctrl-C) they
        are cancelled."""
        bar = _progress_bar(len(frontier), "position", progress)

        def work(stop: threading.Event) -> "phutball.Proof":
            decided = False
            try:
                proof, _ = self.wait_and_combine(frontier, limits, bar, stop)
                decided = True
                return proof
            finally:
                # Not cancelled once decided: Ray 2.60's cancel (plain or
                # forced) can race a task that is finishing and abort the
                # driver ("Check failed: ... Tried to complete task that
                # was not pending"), seen in about one run in four of
                # test_distributed_prove, where many small tasks end at
                # once. A failed driver's tasks are long-running ones,
                # cancelled as before.
                if not decided:
                    for ref in self.running:
                        ray.cancel(ref, force=True)

        try:
            return _with_ray(address, self.deadline, work, self.timed_out)
        finally:
            bar.close()


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
    root = position if isinstance(position, phutball.Position) else phutball.Position(position)
    _count_arg("frontier_plies", frontier_plies, allow_none=False)
    _seconds_arg("timeout", timeout)
    _seconds_arg("task_timeout", task_timeout)
    _count_arg("nodes", nodes)
    run = _ProveRun(root, frontier_plies, timeout)
    # On the driver, before any task: a finished root is a ValueError, a bad
    # memory limit or frontier_plies a TypeError or ValueError.
    frontier = phutball.frontier(root, frontier_plies, timeout=run.left(), memory_limit=memory_limit)
    run.figures.frontier = len(frontier)
    limits = {"timeout": task_timeout, "memory_limit": memory_limit, "nodes": nodes}
    proof = run.run_tasks(frontier, limits, address, progress) if frontier else run.combined()
    run.figures.seconds = time.monotonic() - run.started
    return proof, run.figures


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
    driver: str = "frontier",
    checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> "phutball.Proof":
    """Proves who wins ``position`` (a ``Position`` or a position string) on
    Ray. ``driver="jobs"``: job by job, with no fixed depth
    (``jobs.prove_jobs``: ``nodes`` a job's first budget, default 100,000,
    ``task_timeout`` a job's seconds, ``checkpoint`` the driver's saved
    state; ``frontier_plies`` unused). ``driver="frontier"``: the
    positions ``frontier_plies`` plies below it
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
    times). ``timeout`` (seconds, for the whole run, connecting to Ray and
    the frontier included) raises ``SearchTimeoutError`` and Ctrl-C
    ``KeyboardInterrupt``, both after cancelling the tasks still running
    (``_with_ray``: an unreachable ``address`` included); a finished
    position and bad arguments raise ``ValueError`` or ``TypeError``
    before any task, a frontier past ``memory_limit`` ``MemoryLimitError``."""
    if driver == "jobs":
        from .jobs import prove_jobs

        job_nodes = 100_000 if nodes is None else nodes
        return prove_jobs(
            position, job_nodes=job_nodes, job_timeout=task_timeout, memory_limit=memory_limit, timeout=timeout,
            checkpoint=checkpoint, address=address, progress=progress,
        )
    if driver != "frontier":
        raise ValueError(f'driver must be "frontier" or "jobs", not {driver!r}')
    if checkpoint is not None:
        raise ValueError('checkpoint is the jobs driver\'s: give driver="jobs" with it')
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
