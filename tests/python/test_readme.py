"""The README's first screen, as a new user copies it: every Python block
under "Start here" runs as written (the Rust one is a doctest of the core,
the C one is built and run by tests/c/run.sh, the commands are run by
crates/phutball-cli/tests/readme.rs)."""

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def start_here_blocks(language: str) -> list:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Start here", 1)[1].split("\n## ", 1)[0]
    return re.findall(rf"```{language}\n(.*?)```", section, flags=re.S)


BLOCKS = start_here_blocks("python")


def test_the_first_screen_has_the_python_and_rl_examples():
    assert len(BLOCKS) >= 2, "the README's Start here lost its Python examples"


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_each_python_block_runs_and_its_comments_hold(code, capsys):
    exec(compile(code, str(README), "exec"), {})
    printed = capsys.readouterr().out
    # A `print(...)   # value` line promises what it prints.
    for promised in re.findall(r"print\(.*\)\s+#\s*(.+)", code):
        assert promised.strip() in printed, (promised, printed)
