"""Tests of scripts/heartbeat.py. Run: python3 -m unittest discover -s tests/scripts
(or pytest tests/scripts). Standard library only; about 10 s."""

import signal
import subprocess
import sys
import time
import unittest
from pathlib import Path

HEARTBEAT = str(Path(__file__).resolve().parents[2] / "scripts" / "heartbeat.py")


def heartbeat(*args: str, stdin: "str | None" = None, timeout: float = 30) -> subprocess.CompletedProcess:
    """Runs heartbeat.py with ARGS; its output as text."""
    return subprocess.run([sys.executable, HEARTBEAT, *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout, check=False)


def python(code: str) -> "list[str]":
    """A command running CODE in Python."""
    return [sys.executable, "-c", code]


class Heartbeat(unittest.TestCase):
    def test_a_silent_child_gets_heartbeat_lines(self) -> None:
        run = heartbeat("--every", "0.3", "--label", "napper", "--",
                        *python("import time; print('before'); time.sleep(1.2); print('after')"))
        self.assertEqual(run.returncode, 0)
        self.assertEqual(run.stdout, "before\nafter\n")
        beats = run.stderr.splitlines()
        self.assertGreaterEqual(len(beats), 2, run.stderr)
        for line in beats:
            self.assertRegex(line, r"^\.\.\. napper still running \(\d+ s, no output for \d+ s\)$")

    def test_a_talkative_child_gets_none(self) -> None:
        run = heartbeat("--every", "1", "--", *python(
            "import time\nfor i in range(6): print(i); time.sleep(0.2)"))
        self.assertEqual(run.returncode, 0)
        self.assertEqual(run.stdout.split(), [str(i) for i in range(6)])
        self.assertEqual(run.stderr, "")

    def test_exit_status_passes_through(self) -> None:
        for status in (0, 1, 3, 77):
            with self.subTest(status=status):
                self.assertEqual(heartbeat("--", *python(f"raise SystemExit({status})")).returncode, status)

    def test_a_child_killed_by_a_signal_kills_it_with_the_same(self) -> None:
        run = heartbeat("--", *python("import os, signal; os.kill(os.getpid(), signal.SIGTERM)"))
        self.assertEqual(run.returncode, -signal.SIGTERM)

    def test_a_missing_command_is_127(self) -> None:
        run = heartbeat("--", "/nonexistent/command")
        self.assertEqual(run.returncode, 127)
        self.assertIn("cannot run /nonexistent/command", run.stderr)

    def test_streams_stay_apart_unless_merged(self) -> None:
        code = "import sys; print('out'); print('err', file=sys.stderr)"
        apart = heartbeat("--every", "0", "--", *python(code))
        self.assertEqual((apart.stdout, apart.stderr), ("out\n", "err\n"))
        merged = heartbeat("--every", "0", "--merge", "--", *python(code))
        self.assertEqual((merged.stdout, merged.stderr), ("out\nerr\n", ""))

    def test_options_after_the_command_are_the_commands(self) -> None:
        run = heartbeat("--", *python("import sys; print(sys.argv[1:])"), "--every", "5")
        self.assertEqual(run.stdout, "['--every', '5']\n")

    def test_report_names_the_longest_stretch_and_its_section(self) -> None:
        code = ("import time\nprint('=== one'); time.sleep(0.3)\nprint('=== two'); time.sleep(1.6)\n"
                "print('=== two: ok (2 s)')")
        args = ("--every", "0", "--report", "--sections", r"^=== (.+?)(?:: ok \(\d+ s\))?$")
        run = heartbeat(*args, "--", *python(code))
        self.assertEqual(run.returncode, 0)
        self.assertEqual(run.stdout.splitlines()[-1], "longest silent stretch: 2 s (during two)")
        failed = heartbeat(*args, "--max-gap", "1", "--", *python(code))
        self.assertEqual(failed.returncode, 1)
        self.assertIn("silent for 2 s (during two), more than 1 s", failed.stderr)
        self.assertEqual(heartbeat(*args, "--max-gap", "5", "--", *python(code)).returncode, 0)

    def test_heartbeat_lines_are_not_output(self) -> None:
        run = heartbeat("--every", "0.2", "--report", "--label", "quiet one", "--",
                        *python("import time; time.sleep(1.6)"))
        self.assertIn("... quiet one still running", run.stderr)
        self.assertEqual(run.stdout, "longest silent stretch: 2 s (during quiet one)\n")

    def test_a_failing_child_keeps_its_status_past_max_gap(self) -> None:
        run = heartbeat("--every", "0", "--max-gap", "0.5", "--", *python(
            "import time; time.sleep(1); raise SystemExit(4)"))
        self.assertEqual(run.returncode, 4)

    def test_standard_input_is_watched_without_a_command(self) -> None:
        run = heartbeat("--every", "0", "--report", "--label", "pipe", stdin="a\nb\n")
        self.assertEqual(run.stdout, "a\nb\nlongest silent stretch: 0 s (during pipe)\n")

    def test_sigterm_is_passed_on(self) -> None:
        proc = subprocess.Popen([sys.executable, HEARTBEAT, "--", *python(
            "import signal, sys, time\n"
            "signal.signal(signal.SIGTERM, lambda *_: (print('child got SIGTERM', flush=True), sys.exit(5)))\n"
            "print('ready', flush=True); time.sleep(30)")], stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        self.assertEqual(proc.stdout.readline(), "ready\n")
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=10)
        self.assertEqual(out, "child got SIGTERM\n")
        self.assertEqual(proc.returncode, 5)

    def test_timeout_around_it_still_works(self) -> None:
        started = time.monotonic()
        run = subprocess.run(["timeout", "1", sys.executable, HEARTBEAT, "--every", "0.3", "--", "sleep", "30"],
                             capture_output=True, text=True, timeout=20, check=False)
        self.assertEqual(run.returncode, 124)
        self.assertLess(time.monotonic() - started, 10)

    def test_a_background_grandchild_does_not_hold_it(self) -> None:
        started = time.monotonic()
        run = heartbeat("--", "sh", "-c", "sleep 8 & echo started")
        self.assertEqual(run.stdout, "started\n")
        self.assertLess(time.monotonic() - started, 6)


if __name__ == "__main__":
    unittest.main()
