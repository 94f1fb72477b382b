#!/usr/bin/env python3
"""Runs a command and says so while it is silent (issue 23: no silent stretches).

Usage:
    heartbeat.py [--every 20] [--label NAME] [--merge] [--report]
                 [--max-gap SECONDS] [--sections REGEX] -- CMD ARGS...
    CMD ... | heartbeat.py [OPTIONS]          (no CMD: watches standard input)

CMD's output passes through as it comes (stdout to stdout, stderr to stderr;
--merge sends both to stdout in the order CMD wrote them). When CMD has
written nothing for --every seconds, one line goes to stderr:

    ... NAME still running (N s, no output for M s)

and again every --every seconds of silence (--every 0: never; the gaps are
still measured). The heartbeat's own lines never count as output: the gaps
are CMD's. --report prints, at the end,

    longest silent stretch: N s (during SECTION)

where SECTION is the last line matching --sections (its first group) before
the stretch began, or NAME. --max-gap fails a run (exit status 1 when CMD
succeeded) whose longest stretch is longer than that.

Exit status: CMD's. A CMD killed by a signal kills this script with the same
signal, so a calling shell sees what it would have seen. SIGINT, SIGTERM and
SIGHUP are passed on to CMD, which keeps this working under timeout(1).
Python children get PYTHONUNBUFFERED=1, so that a pipe does not hold their
lines back. Python 3.9+, standard library only.
"""

import argparse
import os
import re
import selectors
import signal
import subprocess
import sys
import time
from typing import IO, List, Optional

FORWARDED_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# Once CMD has exited, how long its pipes may stay open with nothing coming
# (a process it started in the background can hold them for ever).
DRAIN_AFTER_EXIT = 1.0


def parse_args(argv: List[str]) -> argparse.Namespace:
    """The options and, after `--`, the command."""
    parser = argparse.ArgumentParser(
        prog="heartbeat.py",
        description="Runs CMD and prints a line when it has been silent for --every seconds.",
    )
    parser.add_argument("--every", type=float, default=20.0, metavar="SECONDS",
                        help="seconds of silence before each heartbeat line (0: none; default 20)")
    parser.add_argument("--label", default=None, metavar="NAME",
                        help="what the heartbeat lines call the command (default: CMD's name)")
    parser.add_argument("--merge", action="store_true",
                        help="CMD's stderr goes to stdout too, in the order it was written")
    parser.add_argument("--report", action="store_true",
                        help="print the longest silent stretch at the end")
    parser.add_argument("--max-gap", type=float, default=None, metavar="SECONDS",
                        help="fail (exit 1 if CMD succeeded) when a stretch is longer than this")
    parser.add_argument("--sections", default=None, metavar="REGEX",
                        help="a line matching REGEX names the section that follows (group 1, or the line)")
    parser.add_argument("command", nargs=argparse.REMAINDER,
                        help="-- CMD ARGS...; none: watch standard input")
    args = parser.parse_args(argv)
    if args.command and args.command[0] == "--":
        args.command = args.command[1:]
    if args.every < 0:
        parser.error("--every must be 0 or more")
    if args.max_gap is not None and args.max_gap <= 0:
        parser.error("--max-gap must be more than 0")
    try:
        args.sections = re.compile(args.sections) if args.sections else None
    except re.error as err:
        parser.error(f"--sections is not a regular expression: {err}")
    if args.label is None:
        args.label = os.path.basename(args.command[0]) if args.command else "the input"
    return args


class Watch:
    """The output seen so far: when the last came, the longest gap, the section."""

    def __init__(self, label: str, sections: "Optional[re.Pattern[str]]") -> None:
        self.started = time.monotonic()
        self.last_output = self.started
        self.last_beat = self.started
        self.longest = 0.0
        self.longest_section = label
        self.section = label
        self.sections = sections
        self.partial = b""  # the unfinished last line, for --sections
        self.at_line_start = True

    def saw(self, data: bytes) -> None:
        """CMD wrote DATA now."""
        self.gap_until(time.monotonic())
        self.at_line_start = data.endswith(b"\n")
        if self.sections is None:
            return
        lines = (self.partial + data).split(b"\n")
        self.partial = lines.pop()[-4096:]
        for line in lines:
            match = self.sections.search(line.decode("utf-8", "replace").rstrip("\r"))
            if match:
                self.section = (match.group(1) if match.groups() else None) or match.group(0)

    def gap_until(self, now: float) -> None:
        """The stretch from the last output to NOW ends."""
        gap = now - self.last_output
        if gap > self.longest:
            self.longest = gap
            self.longest_section = self.section
        self.last_output = now
        self.last_beat = now

    def next_beat(self, every: float) -> Optional[float]:
        """When the next heartbeat line is due (None: never)."""
        return self.last_beat + every if every > 0 else None


def write(stream: IO[bytes], data: bytes) -> None:
    """Passes DATA on at once; a reader that went away is not our failure."""
    try:
        stream.write(data)
        stream.flush()
    except BrokenPipeError:
        pass


def beat(watch: Watch, label: str) -> None:
    """Prints the heartbeat line."""
    now = time.monotonic()
    start = b"" if watch.at_line_start else b"\n"
    line = (f"... {label} still running ({now - watch.started:.0f} s, "
            f"no output for {now - watch.last_output:.0f} s)\n")
    write(sys.stderr.buffer, start + line.encode())
    watch.at_line_start = True
    watch.last_beat = now


def pump(streams: "dict[int, IO[bytes]]", watch: Watch, args: argparse.Namespace,
         child: Optional[subprocess.Popen]) -> None:  # type: ignore[type-arg]
    """Copies the pipes in STREAMS (fd -> destination) until they close."""
    selector = selectors.DefaultSelector()
    for fd in streams:
        selector.register(fd, selectors.EVENT_READ)
    try:
        copy(selector, streams, watch, args, child)
    finally:
        selector.close()


def copy(selector: selectors.BaseSelector, streams: "dict[int, IO[bytes]]", watch: Watch,
         args: argparse.Namespace, child: Optional[subprocess.Popen]) -> None:  # type: ignore[type-arg]
    """pump's loop: reads what is ready, beats when due, stops after CMD's exit and drain."""
    exited_at: Optional[float] = None
    while selector.get_map():
        now = time.monotonic()
        if exited_at is None and child is not None and child.poll() is not None:
            exited_at = now
        if exited_at is not None and now - max(exited_at, watch.last_output) > DRAIN_AFTER_EXIT:
            break
        due = watch.next_beat(args.every)
        timeout = 0.2 if child is not None else None  # poll for CMD's exit
        if due is not None:
            timeout = max(0.0, due - now) if timeout is None else min(timeout, max(0.0, due - now))
        for key, _ in selector.select(timeout):
            fd = key.fd
            # One read of a ready pipe does not block (no O_NONBLOCK: stdin
            # may be the terminal, shared with the shell).
            data = os.read(fd, 65536)
            if not data:
                selector.unregister(fd)
                continue
            watch.saw(data)
            write(streams[fd], data)
        due = watch.next_beat(args.every)
        if due is not None and time.monotonic() >= due:
            beat(watch, args.label)


def run(args: argparse.Namespace) -> int:
    """Runs or watches, then reports; the exit status."""
    watch = Watch(args.label, args.sections)
    child = None
    if args.command:
        env = dict(os.environ)
        env.setdefault("PYTHONUNBUFFERED", "1")
        try:
            child = subprocess.Popen(
                args.command, env=env, stdin=None, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT if args.merge else subprocess.PIPE)
        except OSError as err:
            print(f"heartbeat.py: cannot run {args.command[0]}: {err.strerror}", file=sys.stderr)
            return 127 if isinstance(err, FileNotFoundError) else 126
        for signum in FORWARDED_SIGNALS:
            signal.signal(signum, lambda signum, _frame: child.send_signal(signum))
        assert child.stdout is not None
        streams = {child.stdout.fileno(): sys.stdout.buffer}
        if child.stderr is not None:
            streams[child.stderr.fileno()] = sys.stderr.buffer
    else:
        streams = {sys.stdin.fileno(): sys.stdout.buffer}
    pump(streams, watch, args, child)
    status = child.wait() if child is not None else 0
    watch.gap_until(time.monotonic())
    longest = round(watch.longest)
    if args.report:
        write(sys.stdout.buffer, b"" if watch.at_line_start else b"\n")
        print(f"longest silent stretch: {longest} s (during {watch.longest_section})", flush=True)
    if args.max_gap is not None and watch.longest > args.max_gap:
        print(f"heartbeat.py: FAILED: {args.label} was silent for {longest} s "
              f"(during {watch.longest_section}), more than {args.max_gap:g} s", file=sys.stderr)
        if status == 0:
            status = 1
    return status


def main() -> None:
    """Exits as CMD did."""
    args = parse_args(sys.argv[1:])
    if not args.command:
        # Watching a pipe: Ctrl-C ends the pipeline's writer too.
        signal.signal(signal.SIGINT, lambda _signum, _frame: sys.exit(130))
    status = run(args)
    sys.stdout.flush()
    if status < 0:
        # Died of a signal: die of the same one, as the shell expects.
        signal.signal(-status, signal.SIG_DFL)
        os.kill(os.getpid(), -status)
        status = 128 - status
    sys.exit(status)


if __name__ == "__main__":
    main()
