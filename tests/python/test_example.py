"""The example walk-through runs and says what the worked examples say."""

import subprocess
import sys
import xml.etree.ElementTree as ET

from conftest import REPO


def test_walkthrough_runs(tmp_path):
    script = REPO / "examples" / "python" / "walkthrough.py"
    done = subprocess.run(
        [sys.executable, str(script), "--svg", str(tmp_path)], check=True, capture_output=True, text=True
    )
    out = done.stdout
    assert "jump moves: ['K6-G9', 'K6-G9-G11', 'K6-G9-G11-J11']" in out
    assert "legal moves from the start: 284" in out
    assert "H9 holds no man" in out
    for name in ["seeds.svg", "jump-paths.svg", "after-jump.svg"]:
        ET.parse(tmp_path / name)
