"""jump_paths() against the Rust CLI (`phutball jumps`) on the benchmark
positions and the worked examples. run.sh builds the CLI and exports its path
in PHUTBALL_CLI; without it these tests are skipped."""

import os
import subprocess

import pytest

import phutball
from conftest import SEEDS_STRING, benchmark_positions

CLI = os.environ.get("PHUTBALL_CLI")
pytestmark = pytest.mark.skipif(not CLI, reason="PHUTBALL_CLI is not set (run tests/python/run.sh)")

BENCH = benchmark_positions("jumps-24")
WORKED = [
    SEEDS_STRING,
    str(phutball.Position.from_points("H10", ["H9", "H8"])),
    str(phutball.Position.from_points("M10", ["N10", "O10", "P10"])),
    str(phutball.Position.from_points("N18", ["O19"])),
    str(phutball.Position.from_points("H3", ["H2"])),
]


def cli_lines(*args):
    done = subprocess.run([CLI, *args], check=True, capture_output=True, text=True)
    return done.stdout.splitlines()


@pytest.mark.parametrize("text", WORKED + [t for t, _ in BENCH[:3] if _[0] < 200_000])
def test_full_sorted_path_lists_equal_the_cli(text):
    ours = sorted(str(m) for m in phutball.Position(text).jump_paths())
    assert ours == sorted(cli_lines("jumps", text))


@pytest.mark.parametrize("text", WORKED + [t for t, _ in BENCH[:3]])
def test_outcome_lists_equal_the_cli(text):
    ours = sorted(str(m) for m in phutball.Position(text).jump_outcomes())
    assert ours == sorted(cli_lines("jumps", "--outcomes", text))


@pytest.mark.parametrize("index", range(len(BENCH)))
def test_counts_equal_the_reference_and_the_cli(index):
    text, (paths, outcomes, can_score) = BENCH[index]
    pos = phutball.Position(text)
    assert pos.count_jump_paths() == paths
    assert pos.count_jump_outcomes() == outcomes
    assert pos.can_score() == bool(can_score)
    if index < 8:
        assert len(cli_lines("jumps", text)) == paths
