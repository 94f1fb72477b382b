"""Where a dataset lives, and how a range file is written and checked
byte for byte: a local directory or an object-store prefix (``_Store``), the
keys of a range file's metadata, and the SHA-256 each file carries in its
footer."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import urllib.parse
import uuid
from typing import Any, Dict, List, Optional, Union

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq


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


class DatasetError(ValueError):
    """A dataset directory that cannot be used as it is, naming the path:
    ``out`` is a file, ``run.json`` does not read, a range file belongs to
    another run (foreign), is not a range file of this dataset (junk) or
    overlaps the ranges of this run. Nothing is written or deleted."""


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
