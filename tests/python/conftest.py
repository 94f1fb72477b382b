"""Shared positions for the Python tests (from docs/rules.md, "Worked examples")."""

from pathlib import Path

import pytest

import phutball

REPO = Path(__file__).resolve().parents[2]
# The fixture files: reference positions and their figures (format in its README.md).
FIXTURES = REPO / "crates" / "phutball" / "tests" / "data"

# The seeds' jump: ball K6, men J7 H8 G10 H11, Ohs to move.
SEEDS_STRING = "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O"
START_STRING = "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O"
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


@pytest.fixture
def seeds() -> phutball.Position:
    return phutball.Position.from_points("K6", ["J7", "H8", "G10", "H11"])


def point_col_row(point: str):
    """Column index (A = 0, no I) and row number of a point in notation."""
    return COLUMNS.index(point[0].upper()), int(point[1:])


def read_fixture(name: str):
    """The records of the fixture file NAME.fixture: (position string, {key: value}),
    the values as the file gives them ("perft" keeps the last depth given).
    Comments ("# ..." or "#" alone) and blank lines are skipped; a line
    starting with a lowercase key is a figure of the record above it, any
    other line a position string."""
    records = []
    for number, line in enumerate((FIXTURES / f"{name}.fixture").read_text().splitlines(), 1):
        line = line.strip()
        if not line or line == "#" or line.startswith("# "):
            continue
        if line[0].islower():
            key, _, value = line.partition(" ")
            assert records and key in ("paths", "outcomes", "score", "perft"), f"{name}:{number}: {line}"
            records[-1][1][key] = value
        else:
            records.append((line, {}))
    return records


def benchmark_positions(name: str):
    """(position string, (paths, outcomes, can score)) for each record of a
    fixture file whose records give all three figures."""
    return [
        (text, (int(f["paths"]), int(f["outcomes"]), {"yes": True, "no": False}[f["score"]]))
        for text, f in read_fixture(name)
    ]
