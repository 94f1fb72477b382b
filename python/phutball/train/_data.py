"""Training examples from self-play datasets: the ``training`` table of each
dataset (``phutball.distributed.selfplay(training=True)``), read as the
datasets are read (every file's checksum verified; a damaged or incomplete
dataset is refused), its games split into training and validation sets,
its positions deduplicated, and each position's target made from the
search's score and the game's result."""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field
from typing import Dict, List, Sequence, Tuple

import numpy as np

import phutball

# The columns the trainer reads; datasets made before the search's score
# was recorded lack the last three.
_COLUMNS = ("game", "position", "result", "score", "win_in", "loss_in")


@dataclass
class Split:
    """The distinct positions of one board size in one set, with targets:
    the probability, from the side to move's point of view, that it wins."""

    positions: List[str] = field(default_factory=list)
    """Position strings, each once."""
    targets: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float32))
    """One target a position, in 0..1."""


@dataclass
class Examples:
    """A board size's training and validation sets, and what was read."""

    cols: int
    """The board's columns."""
    rows: int
    """The board's rows."""
    training: Split
    """The positions of the training games."""
    validation: Split
    """The positions of the validation games that no training game has."""
    plies: int
    """Rows read (one a move played) of this board size."""


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def target(result: int, score: "int | None", win_in: "int | None", loss_in: "int | None", *, score_weight: float, scale: float) -> float:
    """A position's target: ``score_weight`` of the search's verdict (the
    score through a logistic of ``scale`` hundredths of a row, or 1 and 0
    for a forced win and loss) and the rest of the game's result (1 won, 0
    lost, 0.5 drawn), from the side to move's point of view."""
    if win_in is not None:
        searched = 1.0
    elif loss_in is not None:
        searched = 0.0
    elif score is not None:
        searched = _sigmoid(score / scale)
    else:
        raise ValueError("a training row has no score, no win_in and no loss_in")
    return score_weight * searched + (1.0 - score_weight) * (result + 1) / 2


def _in_validation(seed: int, source: str, game: int, fraction: float) -> bool:
    """Whether a game is a validation game: a hash of the seed, the dataset
    and the game's index, so that a game's plies stay together and the
    split does not depend on the order of reading."""
    return zlib.crc32(f"{seed}/{source}/{game}".encode()) < fraction * 2**32


def _training_table(source: str):  # -> pyarrow.Table
    """The dataset's training rows, every file verified, or a ``DatasetError``
    that says what is wrong with it."""
    from phutball import distributed
    from phutball.distributed._dataset_files import _range_record

    report = distributed.verify(source)
    if "training" not in report.tables:
        raise distributed.DatasetError(f"{report.out}: this dataset has no training table: make it with selfplay(training=True)")
    if not report.complete:
        problems = [f"{file}: {why}" for file, why in report.refused]
        for name, part in report.tables.items():
            problems += [f"{file}: {why}" for _, file, why in part.damaged]
            problems += [f"{name} {start} to {end - 1}: missing" for start, end in part.missing]
            problems += [f"{file}: written before checksums" for _, file in part.unverifiable]
        raise distributed.DatasetError(
            f"{report.out}: the dataset is not complete ({'; '.join(problems[:3])}{'; ...' if len(problems) > 3 else ''}): "
            "run the same selfplay again to finish or repair it"
        )
    import pyarrow as pa

    store = distributed._Store(source)
    tables = []
    for start, end in sorted(report.tables["training"].complete):
        table, _, wrong, _ = _range_record(store, store.range_path("training", start, end))
        if table is None or wrong is not None:
            raise distributed.DatasetError(f"{store.shown(store.range_path('training', start, end))}: {wrong} (it changed while it was read)")
        missing = [c for c in _COLUMNS if c not in table.column_names]
        if missing:
            raise distributed.DatasetError(
                f"{report.out}: its training table has no {', '.join(missing)} column: it was made before the search's score was recorded; make it again"
            )
        tables.append(table.select(list(_COLUMNS)))
    return pa.concat_tables(tables) if tables else None


def read_examples(
    sources: Sequence[str], *, validation: float, seed: int, score_weight: float, scale: float
) -> List[Examples]:
    """The examples of every board size found in ``sources`` (dataset
    directories or object-store URIs), in order of board size."""
    if not 0 <= validation < 1:
        raise ValueError(f"validation must be a fraction from 0 up to (not including) 1, not {validation}")
    if not 0 <= score_weight <= 1:
        raise ValueError(f"score_weight must be from 0 to 1, not {score_weight}")
    if not scale > 0:
        raise ValueError(f"scale must be a positive number of hundredths of a row, not {scale}")
    # (cols, rows) -> set name -> position -> [sum of targets, count]
    sums: Dict[Tuple[int, int], Dict[str, Dict[str, List[float]]]] = {}
    plies: Dict[Tuple[int, int], int] = {}
    sizes: Dict[str, Tuple[int, int]] = {}
    for source in sources:
        table = _training_table(str(source))
        if table is None:
            continue
        for row in table.to_pylist():
            position = row["position"]
            size = sizes.get(position)
            if size is None:
                parsed = phutball.Position(position)
                size = sizes[position] = (parsed.cols, parsed.rows)
            part = "validation" if _in_validation(seed, str(source), row["game"], validation) else "training"
            value = target(row["result"], row["score"], row["win_in"], row["loss_in"], score_weight=score_weight, scale=scale)
            entry = sums.setdefault(size, {"training": {}, "validation": {}})[part].setdefault(position, [0.0, 0])
            entry[0] += value
            entry[1] += 1
            plies[size] = plies.get(size, 0) + 1
    found = []
    for size in sorted(sums):
        training = sums[size]["training"]
        validation_only = {p: v for p, v in sums[size]["validation"].items() if p not in training}
        splits = []
        for part in (training, validation_only):
            positions = sorted(part)
            targets = np.array([part[p][0] / part[p][1] for p in positions], dtype=np.float32)
            splits.append(Split(positions, targets))
        found.append(Examples(size[0], size[1], splits[0], splits[1], plies[size]))
    return found
