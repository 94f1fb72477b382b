"""Shared positions for the Python tests (from docs/rules.md, "Worked examples")."""

from pathlib import Path

import pytest

import phutball

REPO = Path(__file__).resolve().parents[2]
BENCH_DATA = REPO / "benches" / "data"

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


def benchmark_positions(name: str):
    lines = (BENCH_DATA / f"{name}.pos").read_text().splitlines()
    expected = (BENCH_DATA / f"{name}.expected").read_text().splitlines()
    return [(p, tuple(int(x) for x in e.split())) for p, e in zip(lines, expected) if p.strip()]
