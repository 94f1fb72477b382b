"""Reading files under the caller's limits: a gzip bomb (4 MB that unpack to
4 GiB, made here), ``/dev/zero``, a table file followed by a gigabyte and
a pipe that never ends, through ``check_proof``, ``Certificate.load`` and
``Tablebase.load``. Each call is run in a child process, which reports
its time and its peak memory: with ``timeout=1`` each ends within 2 s and
under 300 MB, and Ctrl-C ends it within 0.5 s."""

import gzip
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import phutball
from conftest import interrupted

pytestmark = pytest.mark.skipif(os.name != "posix", reason="/dev/zero, pipes and SIGINT")

HEADER = b"phutball-proof 1\nrules\nwinner O\n"


def gzip_bomb(path: Path, block: bytes) -> None:
    """A certificate's header, then ``block`` repeated to 4 GiB: gzip members
    of 64 MiB, one compressed and copied."""
    member = gzip.compress(block * ((64 << 20) // len(block)), compresslevel=9)
    with open(path, "wb") as out:
        out.write(gzip.compress(HEADER))
        for _ in range(64):
            out.write(member)


@pytest.fixture(scope="module")
def bombs(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("bombs")
    one_line = folder / "one-line.txt.gz"
    gzip_bomb(one_line, b"; a comment that never ends ".ljust(4096, b"a"))
    many_lines = folder / "many-lines.txt.gz"
    gzip_bomb(many_lines, b"; a comment line ".ljust(63, b"a") + b"\n")
    assert one_line.stat().st_size < 32 << 20 and many_lines.stat().st_size < 32 << 20
    return {"one_line": str(one_line), "many_lines": str(many_lines)}


CHILD = """
import json, sys, time
import phutball
started = time.monotonic()
try:
    {call}
    outcome = "returned"
except Exception as e:
    outcome = type(e).__name__ + ": " + str(e)
took = time.monotonic() - started
# VmHWM is this process's own peak: ru_maxrss would carry the forking
# parent's peak across exec.
status = open("/proc/self/status").read()
peak = int(status.split("VmHWM:")[1].split()[0]) * 1024
print(json.dumps({{"outcome": outcome, "took": took, "peak": peak}}))
"""


def bounded(call: str) -> dict:
    """Runs ``call`` in a child: what it raised, its time and its peak memory."""
    code = CHILD.format(call=call)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    # The baseline: the interpreter with phutball imported.
    assert report["took"] < 2, report
    assert report["peak"] < 300e6, report
    assert len(report["outcome"]) < 1000, report
    return report


def test_a_bomb_of_one_endless_line_is_refused_at_once(bombs):
    for call in (
        f"phutball.check_proof({bombs['one_line']!r}, timeout=1)",
        f"phutball.Certificate.load({bombs['one_line']!r}, timeout=1)",
    ):
        outcome = bounded(call)["outcome"]
        assert outcome.startswith("ParseError:") and "line 4: longer than 1048576 bytes" in outcome


def test_a_bomb_of_endless_comment_lines_ends_with_the_timeout(bombs):
    for call in (
        f"phutball.check_proof({bombs['many_lines']!r}, timeout=1)",
        f"phutball.Certificate.load({bombs['many_lines']!r}, timeout=1)",
    ):
        report = bounded(call)
        assert report["outcome"].startswith("SearchTimeoutError:"), report
        assert report["took"] >= 0.9, report


def test_endless_zeros_are_refused_as_a_certificate_and_as_a_table():
    for call in (
        "phutball.check_proof('/dev/zero', timeout=1)",
        "phutball.Certificate.load('/dev/zero', timeout=1)",
    ):
        outcome = bounded(call)["outcome"]
        assert outcome.startswith("ParseError:") and "a NUL byte" in outcome, outcome
    outcome = bounded("phutball.Tablebase.load('/dev/zero', timeout=1)")["outcome"]
    assert outcome.startswith("TablebaseFileError:") and "not a tablebase file" in outcome


def test_a_table_followed_by_a_gigabyte_is_refused_without_reading_it(tmp_path):
    path = tmp_path / "3x4.tb"
    phutball.Tablebase.build(3, 4).save(path)
    assert phutball.Tablebase.load(path).to_bytes() == path.read_bytes()
    size = path.stat().st_size
    os.truncate(path, size + (1 << 30))  # sparse: nothing written
    outcome = bounded(f"phutball.Tablebase.load({str(path)!r}, timeout=1)")["outcome"]
    assert outcome.startswith("TablebaseFileError:") and f"goes on after its {size} bytes" in outcome


def test_a_table_over_the_memory_limit_is_refused_before_its_values(tmp_path):
    path = tmp_path / "3x4.tb"
    phutball.Tablebase.build(3, 4).save(path)
    with pytest.raises(phutball.MemoryLimitError, match="memory limit of 1000 bytes"):
        phutball.Tablebase.load(path, memory_limit=1000)
    with pytest.raises(TypeError):
        phutball.Tablebase.load(path, timeout="soon")  # type: ignore[arg-type]


def interrupted_call(call: str, setup: str = "") -> float:
    """Runs ``call`` in a child, sends SIGINT a second after it starts, and
    returns how long ``KeyboardInterrupt`` took to arrive."""
    code = "import sys, time\nimport phutball\n" + setup + textwrap.dedent(
        f"""
        print("ready", flush=True)
        try:
            {call}
            print("returned")
        except KeyboardInterrupt:
            print("KeyboardInterrupt", time.monotonic())
        """
    )
    return interrupted(code, wait=1.0)


def test_ctrl_c_ends_a_certificate_read_within_half_a_second(bombs):
    assert interrupted_call(f"phutball.check_proof({bombs['many_lines']!r})") < 0.5
    assert interrupted_call(f"phutball.Certificate.load({bombs['many_lines']!r})") < 0.5


def test_ctrl_c_ends_a_table_read_from_a_slow_pipe_within_half_a_second(tmp_path):
    # A 4x6 table's header (134,217,728 states), then a value byte every
    # few milliseconds from a thread: the read would take days.
    fifo = tmp_path / "slow.tb"
    os.mkfifo(fifo)
    setup = textwrap.dedent(
        f"""
        import struct, threading
        def feed():
            with open({str(fifo)!r}, "wb", buffering=0) as out:
                out.write(b"PHUTTB\\r\\n" + struct.pack("<HBBB3xQQ", 1, 4, 6, 0, 4 * 4 * 2**23, 0))
                while True:
                    out.write(b"\\0")
                    time.sleep(0.002)
        threading.Thread(target=feed, daemon=True).start()
        """
    )
    assert interrupted_call(f"phutball.Tablebase.load({str(fifo)!r})", setup) < 0.5


def test_a_48_mb_field_gives_a_message_under_a_kilobyte(tmp_path):
    huge = "A" * 48_000_000
    text = f"phutball-proof 1\nrules\nwinner O\nnode 0 #/@/# O\nmove {huge} goal\nend\n"
    path = tmp_path / "huge.txt"
    path.write_text(text)
    with pytest.raises(phutball.ParseError) as refused:
        phutball.check_proof(path)
    assert len(str(refused.value)) < 1000 and "line 5: longer than" in str(refused.value)
    # From a string there is no line limit: the field is quoted, cut short.
    with pytest.raises(phutball.ParseError) as parsed:
        phutball.Certificate.parse(text)
    assert len(str(parsed.value)) < 1000 and "(48000000 characters)" in str(parsed.value)
