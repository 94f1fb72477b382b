#!/usr/bin/env python3
"""Settles the start positions of small boards with `phutball prove`.

For the start (`start:CxR`) of every board with 1..15 columns and 3..15
rows, and of 19x19 and the standard 15x19 (`start`), runs

    phutball prove --timeout MS --certificate certificates/CxR.txt.gz start:CxR

one board at a time, records the result (first-player win or loss in at
most N plies, draw, or unknown and what stopped it), the proof size
(certificate nodes, and the gzip file's bytes), the nodes searched, the
time, the CPU time and peak memory of the process, and the load average
before the run, and prints a Markdown table of every board recorded. A win
"in ≤ N" is the proof's longest line: the prover finds a proof, not the
shortest one, so a shorter win may exist.

The records live in certificates/starts.json next to the certificates.
`prove` writes a certificate only for a proof; a run that proves nothing
leaves an earlier file (and, if it was the script's proof, its record) in
place, and so does a run with --force that fails. A board already proved (its record
says so and its certificate is there) is skipped unless --force; an unknown
is run again only with a longer timeout than the one recorded (or with
--retry-unknown). --table-only prints the table of the records without
running anything.

Usage:
    scripts/settle_starts.py [--timeout MS] [--memory-limit BYTES]
        [--boards 5x5,7x9,start] [--force] [--retry-unknown]
        [--phutball BINARY [--built-from REV]] [--out FILE] [--table-only] [--grid]

Without --phutball it builds the CLI first (cargo build --release -p
phutball-cli, into $CARGO_TARGET_DIR or target/) and runs that binary.
"""

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CERTIFICATES = ROOT / "certificates"
RECORDS = CERTIFICATES / "starts.json"

# The boards of the table: every start of at most 15 columns and 15 rows
# (issue 35 asks for them as far as the search reaches).
MAX_SIDE = 15

# A prove that overruns its own --timeout by this much is stopped (a hang).
GRACE_SECONDS = 120


def all_boards():
    """The boards in the table's order: columns, then rows; then 15x19, 19x19."""
    boards = [(c, r) for c in range(1, MAX_SIDE + 1) for r in range(3, MAX_SIDE + 1)]
    return boards + [(15, 19), (19, 19)]


def name_of(board):
    return f"{board[0]}x{board[1]}"


def target_of(board):
    """The position argument: `start` for the standard board."""
    return "start" if board == (15, 19) else f"start:{name_of(board)}"


def parse_board(text):
    text = text.strip()
    if text == "start":
        return (15, 19)
    text = text.removeprefix("start:")
    m = re.fullmatch(r"(\d+)x(\d+)", text)
    if not m:
        raise argparse.ArgumentTypeError(f"`{text}` is not a board (CxR, start:CxR or start)")
    return (int(m.group(1)), int(m.group(2)))


def load_average():
    """The 1, 5 and 15 minute load averages, as `uptime` prints them."""
    out = subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"load average[s]?:\s*([\d.]+),?\s+([\d.]+),?\s+([\d.]+)", out)
    return [float(x) for x in m.groups()] if m else None


def read_records():
    if RECORDS.exists():
        return json.loads(RECORDS.read_text())
    return {}


def write_records(records):
    ordered = {name_of(b): records[name_of(b)] for b in all_boards() if name_of(b) in records}
    temp = RECORDS.with_suffix(".json.tmp")
    temp.write_text(json.dumps(ordered, indent=1) + "\n")
    temp.replace(RECORDS)


def certificate_path(board):
    return CERTIFICATES / f"{name_of(board)}.txt.gz"


def settled(record, board):
    return record.get("result") in ("win", "loss") and certificate_path(board).exists()


FIGURES = re.compile(r"nodes (\d+), table entries (\d+), ([\d.]+) s(.*)")


def prove(binary, board, timeout_ms, memory_limit, built_from):
    """Runs one prove; returns its record."""
    cert = certificate_path(board)
    rel = cert.relative_to(ROOT)
    args = ["--timeout", str(timeout_ms)]
    if memory_limit:
        args += ["--memory-limit", memory_limit]
    args += ["--certificate", str(rel), target_of(board)]
    load = load_average()
    started = time.monotonic()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen([binary, "prove", *args], cwd=ROOT, stdout=out, stderr=err, text=True)
        # A prove that overruns its timeout by GRACE_SECONDS is killed: this
        # child only, by its own handle.
        watchdog = threading.Timer(timeout_ms / 1000 + GRACE_SECONDS, child.kill)
        watchdog.start()
        _, status, usage = os.wait4(child.pid, 0)
        watchdog.cancel()
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        done = subprocess.CompletedProcess(child.args, child.returncode, out.read(), err.read())
    wall = time.monotonic() - started
    if child.returncode < 0:
        return {"result": "error", "error": f"killed (signal {-child.returncode}), {wall:.0f} s after its start"}
    record = {
        "command": " ".join(["phutball", "prove", *args]),
        "built_from": built_from,
        "timeout_ms": timeout_ms,
        "memory_limit": memory_limit or "1G (default)",
        "load_before": load,
        "wall_s": round(wall, 3),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
        "max_rss_mib": round(usage.ru_maxrss / 1024, 1),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }
    if done.returncode != 0:
        record.update(result="error", error=(done.stderr.strip() or f"exit status {done.returncode}"))
        return record
    line = done.stdout.strip()
    figures = next((FIGURES.search(l) for l in done.stderr.splitlines() if FIGURES.search(l)), None)
    if figures is None:
        record.update(result="error", error=f"no figures on stderr: {done.stderr.strip()}")
        return record
    record.update(
        nodes=int(figures.group(1)),
        table_entries=int(figures.group(2)),
        seconds=float(figures.group(3)),
    )
    rest = figures.group(4)
    m = re.search(r"certificate (\d+) nodes", rest)
    if m:
        record["proof_nodes"] = int(m.group(1))
    m = re.search(r"stopped: (.*)", rest)
    if m:
        record["stopped"] = m.group(1).strip()
    elif "no goal forced" in rest:
        record["stopped"] = "searched out: no goal forced by either side in the graph searched"
    m = re.match(r"(win|loss) (?:in|within) (\d+): (.*)", line)
    if m:
        record.update(result=m.group(1), plies=int(m.group(2)), line=m.group(3))
        if cert.exists():
            record["certificate"] = str(rel)
            record["certificate_bytes"] = cert.stat().st_size
        else:
            record.update(result="error", error="proved, but no certificate was written")
    elif line == "draw":
        record["result"] = "draw"
    elif line == "unknown":
        record["result"] = "unknown"
    else:
        record.update(result="error", error=f"unexpected answer `{line}`")
    return record


def thousands(n):
    return f"{n:,}"


def seconds_text(s):
    if s >= 100:
        return f"{s:.0f} s"
    if s >= 1:
        return f"{s:.1f} s"
    if s < 0.001:
        return "< 1 ms"
    return f"{s:.3f} s"


def stopped_text(stopped):
    if stopped is None:
        return "?"
    if stopped.startswith("timed out"):
        return "timed out"
    if "memory" in stopped:
        return "memory limit"
    return stopped


def row_of(board, record):
    name = name_of(board) + (" (`start`)" if board == (15, 19) else "")
    result = record.get("result")
    if result in ("win", "loss"):
        # The proof's longest line: the winner needs at most this many
        # plies (df-pn finds a proof, not the shortest one).
        text = f"first-player {result} in ≤ {record['plies']}"
        if record["nodes"] == 0:
            # No search: a tablebase of the board (the prover builds one for
            # boards of at most 20 points) gave the exact distance.
            text = f"first-player {result} in {record['plies']} (exact: tablebase)"
        size = f"{thousands(record['proof_nodes'])} nodes"
        if "certificate_bytes" in record:
            size += f" ({thousands(record['certificate_bytes'])} B)"
    elif result == "draw":
        text, size = "draw", "-"
    elif result == "unknown":
        limit = seconds_text(record["timeout_ms"] / 1000).replace(".0 s", " s")
        text = f"unknown ({limit}, {thousands(record['nodes'])} nodes: {stopped_text(record.get('stopped'))})"
        size = "-"
    elif "command" not in record:
        return f"| {name} | error: {record.get('error', '?')} | - | - | - | - | - | - | - |"
    else:
        # The prove failed (its message is the result): no figures but its
        # time and memory.
        text, size = f"error: {record['error'].removeprefix('phutball: ')}", "-"
        record = {**record, "nodes": None, "seconds": record["wall_s"]}
    load = record.get("load_before")
    load = f"{load[0]:.2f}" if load else "?"
    took = seconds_text(record["seconds"])
    if "cpu_s" in record:
        took += f" ({seconds_text(record['cpu_s'])} CPU)"
    # ru_maxrss of a child counts the Python it was forked from (about 16
    # MiB): below 20 MiB it says only that.
    memory = record.get("max_rss_mib")
    memory = "?" if memory is None else "< 20 MiB" if memory < 20 else f"{memory:.0f} MiB"
    return (
        f"| {name} | {text} | {size} | {'?' if record['nodes'] is None else thousands(record['nodes'])} | "
        f"{took} | {memory} | {load} | {record.get('built_from', '?')} | `{record['command']}` |"
    )


def table(records):
    lines = [
        "| board | result | proof size (certificate) | nodes searched | time | peak memory | load before | build | command |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for board in all_boards():
        record = records.get(name_of(board))
        if record is not None:
            lines.append(row_of(board, record))
    return "\n".join(lines) + "\n"


def grid(records):
    """The small boards at a glance: a row per board height, a column per
    width; `≤ N` a first-player win within N plies (`N` alone: exactly N,
    from a tablebase), `L ≤ N` a loss, `?` unknown."""
    head = "| rows \\ columns | " + " | ".join(str(c) for c in range(1, MAX_SIDE + 1)) + " |"
    lines = [head, "|---" * (MAX_SIDE + 1) + "|"]
    for r in range(3, MAX_SIDE + 1):
        cells = []
        for c in range(1, MAX_SIDE + 1):
            record = records.get(name_of((c, r)), {})
            result = record.get("result")
            if result == "win" and record["nodes"] == 0:
                cells.append(f"{record['plies']}")
            elif result == "win":
                cells.append(f"≤ {record['plies']}")
            elif result == "loss":
                cells.append(f"L ≤ {record['plies']}")
            elif result in ("draw", "unknown"):
                cells.append("draw" if result == "draw" else "?")
            elif result == "error":
                cells.append("error")
            else:
                cells.append(" ")
        lines.append(f"| {r} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def summary(records):
    """One line: how many boards were proved, how many unknown, certificate bytes."""
    counts = {}
    for r in records.values():
        counts[r.get("result")] = counts.get(r.get("result"), 0) + 1
    size = sum(p.stat().st_size for p in CERTIFICATES.glob("*.txt.gz"))
    parts = [f"{n} {k}" for k, n in sorted(counts.items(), key=lambda kv: str(kv[0]))]
    return f"{len(records)} boards: {', '.join(parts)}; certificates {thousands(size)} bytes"


def built_binary():
    print("settle_starts: cargo build --release -p phutball-cli", file=sys.stderr)
    subprocess.run(["cargo", "build", "--release", "-p", "phutball-cli", "--quiet"], cwd=ROOT, check=True)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return str(target / "release" / "phutball")


def head_commit():
    out = subprocess.run(
        ["git", "describe", "--always", "--dirty", "--abbrev=7"], cwd=ROOT, capture_output=True, text=True
    )
    return out.stdout.strip() or "?"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=int, default=20000, metavar="MS", help="per board (default 20000)")
    parser.add_argument("--memory-limit", metavar="BYTES", help="passed to prove (its default: 1G)")
    parser.add_argument("--boards", help="comma-separated CxR, start:CxR or start (default: all)")
    parser.add_argument("--force", action="store_true", help="run proved boards again")
    parser.add_argument("--retry-unknown", action="store_true", help="run unknowns again at any timeout")
    parser.add_argument("--phutball", metavar="BINARY", help="the CLI to run (default: build it)")
    parser.add_argument(
        "--built-from",
        metavar="REV",
        help="the commit the CLI was built from, for the records (default: this checkout's HEAD)",
    )
    parser.add_argument("--out", metavar="FILE", help="write the table to FILE (default: stdout)")
    parser.add_argument("--table-only", action="store_true", help="print the recorded table, run nothing")
    parser.add_argument("--grid", action="store_true", help="print a board-by-board grid before the table")
    args = parser.parse_args()

    try:
        boards = [parse_board(b) for b in args.boards.split(",")] if args.boards else all_boards()
    except argparse.ArgumentTypeError as e:
        parser.error(str(e))
    CERTIFICATES.mkdir(exist_ok=True)
    records = read_records()
    if not args.table_only:
        binary = args.phutball or built_binary()
        built_from = args.built_from or head_commit()
        print(f"settle_starts: uptime before the run: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}", file=sys.stderr)
        for board in boards:
            old = records.get(name_of(board), {})
            if not args.force and settled(old, board):
                print(f"{name_of(board)}: settled ({old['result']} in {old['plies']}), skipped", file=sys.stderr)
                continue
            if (
                not args.force
                and not args.retry_unknown
                and old.get("result") == "unknown"
                and old.get("timeout_ms", 0) >= args.timeout
            ):
                print(f"{name_of(board)}: unknown at {old['timeout_ms']} ms already, skipped", file=sys.stderr)
                continue
            record = prove(binary, board, args.timeout, args.memory_limit, built_from)
            if record["result"] not in ("win", "loss", "draw") and settled(old, board):
                print(f"{name_of(board)}: {record['result']} now, the earlier proof kept", file=sys.stderr)
                continue
            records[name_of(board)] = record
            write_records(records)
            print(f"{name_of(board)}: {row_of(board, record)}", file=sys.stderr)
        print(f"settle_starts: uptime after the run: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}", file=sys.stderr)
    text = table(records)
    if args.grid:
        text = grid(records) + "\n" + text
    if args.out:
        Path(args.out).write_text(text)
    else:
        sys.stdout.write(text)
    print(f"settle_starts: {summary(records)}", file=sys.stderr)
    return 1 if any(r.get("result") == "error" for r in records.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
