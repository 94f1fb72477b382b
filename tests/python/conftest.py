"""Shared positions for the Python tests (from docs/rules.md, "Worked examples"),
and the record of skipped tests that tests/python/run.sh fails on."""

import os
import re
import signal
import subprocess
import sys
import time
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


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """With PHUTBALL_SKIP_LOG set (tests/python/run.sh sets it), appends a
    line per skipped test, its id and the reason, to that file: the suite
    fails on any, unless the caller allows them with a reason."""
    log = os.environ.get("PHUTBALL_SKIP_LOG")
    if not log or not report.skipped or hasattr(report, "wasxfail"):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    with open(log, "a", encoding="utf-8") as file:
        file.write(f"{report.nodeid}: {reason}\n")


@pytest.fixture
def seeds() -> phutball.Position:
    return phutball.Position.from_points("K6", ["J7", "H8", "G10", "H11"])


def assert_refused_after_close(calls, closed: str) -> None:
    """Each of ``calls`` (its name: the call) raises ``RuntimeError`` naming
    itself and saying that ``closed`` ("the environment is") is closed."""
    for name, call in calls.items():
        with pytest.raises(RuntimeError, match=rf"{re.escape(name)} after close\(\): {closed} closed"):
            call()


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


def interrupted(code: str, wait: float = 0.5) -> float:
    """Runs ``code`` (which prints ``ready``, then ``KeyboardInterrupt`` and
    the time it caught it) in a child, sends SIGINT ``wait`` seconds after
    ``ready``, and returns how long the interrupt took to arrive."""
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(wait)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0, f"exit {child.returncode}: {out} {err}"
    word, at = out.split()[:2]
    assert word == "KeyboardInterrupt", out
    return float(at) - sent
