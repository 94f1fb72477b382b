"""One enumerating call of the Python package on one position, for
tests/ulimit/run.sh, which runs it under ``ulimit -v``.

Usage: python case.py CASE POSITION TIMEOUT_S

CASE ``baseline`` prints the address space (KiB) the interpreter has mapped
after importing the package and parsing the position, and makes no call.

``memory_limit=None`` wherever a call takes one: no limit but the
allocator's, whose refusal must still be ``MemoryLimitError``. Prints one
line, the outcome, and exits 0 on an answer, 4 on ``MemoryLimitError``, 3
on ``SearchTimeoutError``; any other exception is a traceback and exit 1.
A signal (an abort) is the caller's to see.
"""

import sys

import phutball


def run(case: str, pos: phutball.Position, timeout: float) -> object:
    unlimited = {"timeout": timeout, "memory_limit": None}
    calls = {
        "legal_moves": lambda: len(pos.legal_moves(**unlimited)),
        "jump_paths": lambda: len(pos.jump_paths(**unlimited)),
        "jump_outcomes": lambda: len(pos.jump_outcomes(**unlimited)),
        "count_jump_paths": lambda: pos.count_jump_paths(timeout=timeout),
        "count_jump_outcomes": lambda: pos.count_jump_outcomes(**unlimited),
        "count_legal_moves": lambda: pos.count_legal_moves(**unlimited),
        "can_score": lambda: pos.can_score(timeout=timeout),
        "scoring_move": lambda: pos.scoring_move(timeout=timeout),
        "frontier": lambda: len(phutball.frontier(pos, 2, **unlimited)),
        "prove": lambda: pos.prove(**unlimited).result,
        "best_move": lambda: phutball.Engine(time=timeout).best_move(
            pos, timeout=timeout
        ),
    }
    return calls[case]()


def peak_kib() -> int:
    """The address space this process has mapped at most (VmPeak), in KiB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmPeak:"):
                return int(line.split()[1])
    raise RuntimeError("no VmPeak in /proc/self/status")


def main() -> int:
    case, text, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])
    pos = phutball.Position(text)
    if case == "baseline":
        # What the interpreter and the package need before any call: the
        # suite's limits are set above it.
        print(peak_kib())
        return 0
    try:
        answer = run(case, pos, timeout)
    except phutball.MemoryLimitError as e:
        print(f"MemoryLimitError: {e}")
        return 4
    except phutball.SearchTimeoutError as e:
        print(f"SearchTimeoutError: {e}")
        return 3
    print(f"answer: {str(answer)[:60]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
