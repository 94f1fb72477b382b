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


# The package's names, each from the module of its idea. The private ones
# stay importable from here as before the split: the command (__main__.py),
# scripts/jobs_top.py and the tests use them as phutball.distributed's.
from ._store import DatasetError, _Store
from ._dataset_files import (
    ANALYSIS_SCHEMA,
    GAMES_SCHEMA,
    TRAINING_SCHEMA,
    DatasetReport,
    TableReport,
    verify,
)
from ._ray import _POLL_SECONDS, _NoBar, _ray_left_behind, _Stopped, _with_ray
from ._datasets import RunSummary, analyse, selfplay
from ._proofs import ProveFigures, _count_arg, _prove, _seconds_arg, prove


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
