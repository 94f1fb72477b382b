"""One enumerating call of the Python package on one position, for
tests/ulimit/run.sh, which runs it under ``ulimit -v``.

Usage: python case.py CASE POSITION TIMEOUT_S

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
        "best_move": lambda: phutball.Engine(time_ms=int(timeout * 1000)).best_move(
            pos, timeout=timeout
        ),
    }
    return calls[case]()


def main() -> int:
    case, text, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])
    pos = phutball.Position(text)
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
