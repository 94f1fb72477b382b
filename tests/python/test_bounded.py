"""Bounded work from Python: ``timeout=`` raises ``SearchTimeoutError``, Ctrl-C
(SIGINT) raises ``KeyboardInterrupt`` inside every long call, the lists stay
under ``memory_limit=`` with a clean exception (also under ``ulimit -v``),
and bad bounds are rejected with clear errors.

The signal and memory tests run the call in a child Python process, so a
signal that comes late or an abort cannot take pytest down with it."""

import math
import os
import re
import resource
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import phutball
from conftest import SEEDS_STRING, benchmark_positions, read_fixture

# Dense boards (Ohs to move), records 1, 2 and 13 of the fixture hard-32:
# the first two are issue 9's, on which the can-score search before it ran
# for minutes (both can score); no can-score search of this project has
# decided the third ("score undecided", not within 6,000 million landings).
# They have billions of jump paths and millions of distinct outcomes.
_HARD_32 = [read_fixture("hard-32")[n - 1] for n in (1, 2, 13)]
HARD = [text for text, _ in _HARD_32]
HARD_CAN_SCORE = [{"yes": True, "no": False, "undecided": None}[f["score"]] for _, f in _HARD_32]
UNDECIDED = 2
START = "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O"


# ---- timeout= ----


@pytest.mark.parametrize("index", range(len(HARD)))
def test_can_score_with_a_timeout_answers_or_gives_up_in_time(index):
    pos = phutball.Position(HARD[index])
    started = time.perf_counter()
    try:
        answer = pos.can_score(timeout=1)
    except phutball.SearchTimeoutError as e:
        answer = e
    elapsed = time.perf_counter() - started
    print(f"can_score(timeout=1) on hard position {index}: {answer!r} in {elapsed:.3f} s")
    assert elapsed < 3, f"can_score(timeout=1) took {elapsed:.2f} s"
    if isinstance(answer, phutball.SearchTimeoutError):
        assert isinstance(answer, TimeoutError)
        assert "timeout of 1" in str(answer)
    elif HARD_CAN_SCORE[index] is not None:
        assert answer == HARD_CAN_SCORE[index]


def test_every_long_call_takes_a_timeout():
    pos = phutball.Position(HARD[0])
    calls = {
        "can_score": lambda t: pos.can_score(timeout=t),
        "scoring_move": lambda t: pos.scoring_move(timeout=t),
        "count_jump_paths": lambda t: pos.count_jump_paths(timeout=t),
        "jump_paths": lambda t: pos.jump_paths(timeout=t),
        "jump_outcomes": lambda t: pos.jump_outcomes(timeout=t),
        "count_jump_outcomes": lambda t: pos.count_jump_outcomes(timeout=t),
        "legal_moves": lambda t: pos.legal_moves(timeout=t),
        "count_legal_moves": lambda t: pos.count_legal_moves(timeout=t),
        "Engine.best_move": lambda t: phutball.Engine(depth=64).best_move(START, timeout=t),
        "Engine.analyse": lambda t: phutball.Engine(depth=64).analyse(START, timeout=t),
    }
    for name, call in calls.items():
        # A zero timeout has passed before any work: always SearchTimeoutError.
        with pytest.raises(phutball.SearchTimeoutError):
            call(0)
        # A short one stops the search soon, or lets it answer.
        started = time.perf_counter()
        try:
            call(0.2)
        except (phutball.SearchTimeoutError, phutball.MemoryLimitError):
            pass
        elapsed = time.perf_counter() - started
        assert elapsed < 2, f"{name}(timeout=0.2) took {elapsed:.2f} s"


def test_bounded_answers_equal_the_unbounded_ones():
    for text, (paths, outcomes, can_score) in benchmark_positions("jumps-24")[:4]:
        pos = phutball.Position(text)
        assert pos.count_jump_paths(timeout=60) == paths
        assert pos.count_jump_outcomes(timeout=60, memory_limit=None) == outcomes
        assert pos.can_score(timeout=60) == bool(can_score)
        assert pos.jump_outcomes(timeout=60) == pos.jump_outcomes()
        assert pos.jump_paths(limit=50, timeout=60) == pos.jump_paths(limit=50)
    for text, (_, _, can_score) in benchmark_positions("score-16")[:6]:
        pos = phutball.Position(text)
        assert pos.can_score(timeout=60) == bool(can_score)
        assert (pos.scoring_move(timeout=60) is not None) == bool(can_score)


def test_the_engine_answers_within_its_own_time_and_a_timeout():
    analysis = phutball.Engine(time=0.1).analyse(START, timeout=10)
    assert phutball.Position(START).is_legal(analysis.best_move)
    started = time.perf_counter()
    with pytest.raises(phutball.SearchTimeoutError):
        phutball.Engine(depth=64).best_move(START, timeout=0.3)
    assert time.perf_counter() - started < 2


@pytest.mark.parametrize("index", range(len(HARD)))
def test_the_engine_keeps_its_clock_on_the_hard_positions(index):
    started = time.perf_counter()
    move = phutball.Engine(time=0.1).best_move(HARD[index])
    elapsed = time.perf_counter() - started
    assert phutball.Position(HARD[index]).is_legal(move)
    # Behaviour, not speed: the engine's own can-score calls used to run
    # for minutes here (the measured figure is in docs/engine.md).
    assert elapsed < 2, f"{elapsed:.2f} s"


@pytest.mark.parametrize("bad", [-1, -0.5, float("nan"), float("-inf")])
def test_negative_or_nan_timeouts_are_value_errors(bad):
    with pytest.raises(ValueError, match="timeout must be None or a number of seconds of at least 0"):
        phutball.Position().can_score(timeout=bad)
    with pytest.raises(ValueError, match="timeout"):
        phutball.Engine(depth=1).best_move(START, timeout=bad)


@pytest.mark.parametrize("bad", ["1", True, [1], object()])
def test_timeouts_that_are_not_numbers_are_type_errors(bad):
    with pytest.raises(TypeError, match="timeout must be None or a number of seconds"):
        phutball.Position().count_jump_paths(timeout=bad)


def test_no_timeout_and_huge_timeouts_mean_none():
    pos = phutball.Position(SEEDS_STRING)
    for t in (None, math.inf, 1e300, 10**400, 5):
        assert pos.count_jump_paths(timeout=t) == 3


def test_timeout_and_memory_limit_are_keyword_only():
    with pytest.raises(TypeError):
        phutball.Position().can_score(1)  # type: ignore[misc]
    with pytest.raises(TypeError):
        phutball.Position().jump_paths(None, 1)  # type: ignore[misc]


# ---- memory_limit= ----


def test_the_memory_limit_defaults_to_256_mib():
    assert phutball.DEFAULT_MEMORY_LIMIT == 256 * 1024 * 1024


def test_lists_over_the_memory_limit_raise_memory_limit_error():
    pos = phutball.Position(SEEDS_STRING)
    for call in (
        lambda: pos.jump_paths(memory_limit=0),
        lambda: pos.jump_paths(limit=2, memory_limit=0),
        lambda: pos.jump_outcomes(memory_limit=0),
        lambda: pos.jump_outcomes(limit=2, memory_limit=0),
        lambda: pos.legal_moves(memory_limit=100),
        lambda: pos.legal_moves(limit=300, memory_limit=100),
    ):
        with pytest.raises(phutball.MemoryLimitError, match="memory limit of"):
            call()
    # It is a MemoryError, and the TooManyOutcomesError lists raised before.
    assert issubclass(phutball.MemoryLimitError, MemoryError)
    assert issubclass(phutball.MemoryLimitError, phutball.TooManyOutcomesError)
    assert issubclass(phutball.TooManyOutcomesError, RuntimeError)
    # Enough memory: the same lists as without a limit.
    assert pos.jump_paths(memory_limit=10_000) == pos.jump_paths(memory_limit=None)
    assert len(pos.legal_moves(limit=4, memory_limit=None)) == 4


def test_a_dense_board_stops_at_the_default_memory_limit():
    # Millions of outcomes: the default limit stops the list early.
    with pytest.raises(phutball.MemoryLimitError, match="268435456 bytes"):
        phutball.Position(HARD[0]).jump_outcomes()


@pytest.mark.parametrize("bad", [-1, -(2**70)])
def test_negative_memory_limits_are_value_errors(bad):
    with pytest.raises(ValueError, match="memory_limit must be None or an int of at least 0"):
        phutball.Position().jump_paths(memory_limit=bad)


def test_memory_limits_that_are_not_ints_are_type_errors():
    with pytest.raises(TypeError, match="memory_limit must be an int"):
        phutball.Position().legal_moves(memory_limit=1.5)
    with pytest.raises(TypeError, match='a str with a unit such as "8M", not bytes'):
        phutball.Position().legal_moves(memory_limit=b"8M")


def test_a_memory_limit_can_be_a_size_with_a_unit():
    # The core's size notation, as the CLI's --memory-limit reads it: the
    # limit the error reports is the size's bytes.
    pos = phutball.Position(SEEDS_STRING)
    for text, limit in (("8M", 8 << 20), ("100B", 100), ("1 KiB", 1024), ("2g", 2 << 30)):
        assert phutball._phutball._parse_size(text) == limit
    with pytest.raises(phutball.MemoryLimitError, match="memory limit of 100 bytes"):
        pos.legal_moves(memory_limit="100B")
    assert pos.legal_moves(memory_limit="8M") == pos.legal_moves(memory_limit=8 << 20)
    with pytest.raises(phutball.MemoryLimitError, match=f"memory limit of {8 << 20} bytes"):
        phutball.Position(HARD[0]).jump_outcomes(memory_limit="8M")


@pytest.mark.parametrize(
    "bad, says",
    [
        ("12Q", "unknown unit `Q` in `12Q`"),
        ("lots", "`lots` is not a size"),
        ("-1M", "cannot be negative"),
        ("0", "at least 1 byte"),
        ("99999999999999999999G", "too large a size"),
    ],
)
def test_a_size_that_does_not_read_is_a_parse_error(bad, says):
    with pytest.raises(phutball.ParseError, match=re.escape(says)):
        phutball.Position().legal_moves(memory_limit=bad)
    with pytest.raises(ValueError, match=re.escape(says)):
        phutball.frontier(phutball.Position(), 1, memory_limit=bad)


# ---- Game(move_limit=) ----


def test_a_move_limit_too_large_is_a_value_error_not_clamped():
    with pytest.raises(ValueError, match="move_limit must be None or an int from 0 to 4294967295"):
        phutball.Game(move_limit=2**40)
    with pytest.raises(ValueError, match="move_limit"):
        phutball.Game(move_limit=2**100)
    assert phutball.Game(move_limit=2**32 - 1).move_limit == 2**32 - 1


# ---- Ctrl-C ----

CHILD = textwrap.dedent(
    """
    import sys, time
    import phutball
    HARD = {hard!r}
    START = {start!r}
    call = {call}
    print("ready", flush=True)
    try:
        answer = call()
    except KeyboardInterrupt:
        print("KeyboardInterrupt", time.monotonic(), flush=True)
        sys.exit(0)
    print("answered", repr(answer), flush=True)
    sys.exit(2)
    """
)


def interrupt_child(call: str, delay: float = 0.5, wait: float = 30):
    """Runs `call` in a child Python, sends SIGINT `delay` s after it starts,
    and returns the seconds from the signal to the child's KeyboardInterrupt
    (the child is killed, and the test fails, if it has not ended `wait` s
    after the signal)."""
    code = CHILD.format(hard=HARD, start=START, call=call)
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready", child.stderr.read() if child.stderr else ""
        time.sleep(delay)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=wait)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0, f"exit {child.returncode}: {out} {err}"
    word, at = out.split()[:2]
    assert word == "KeyboardInterrupt"
    return float(at) - sent


LONG_CALLS = {
    "count_jump_paths": "lambda: phutball.Position(HARD[0]).count_jump_paths()",
    "can_score": "lambda: phutball.Position(HARD[2]).can_score()",
    "scoring_move": "lambda: phutball.Position(HARD[2]).scoring_move()",
    # The prover runs on threads of its own: the caller's thread waits for it and runs the handlers.
    "Position.prove": "lambda: phutball.Position(START).prove()",
    "Engine.best_move": "lambda: phutball.Engine(depth=64).best_move(START)",
    "Engine.analyse": "lambda: phutball.Engine(depth=64).analyse(START)",
    "Engine.analyse_many": "lambda: phutball.Engine(depth=64).analyse_many([START] * 4, jobs=2)",
    "selfplay": "lambda: phutball.selfplay(4, jobs=2, depth=64)",
    "Engine.best_move, 2 threads": "lambda: phutball.Engine(depth=64, threads=2).best_move(START)",
    # Steps without end, each result dropped: Ctrl-C lands inside a step or between two.
    "VecEnv.step": "lambda: all(env.step(env.sample_actions()) for env in [phutball.VecEnv(4096)] for _ in iter(int, 1))",
    # An engine opponent at a minute a move: Ctrl-C stops its search inside the step.
    "VecEnv.step, engine opponent": "lambda: [(env.reset(), env.step(env.sample_actions())) for env in "
    "[phutball.VecEnv(4, opponent='engine', opponent_limits={'time': 60})]]",
}


@pytest.mark.parametrize("name", LONG_CALLS)
def test_ctrl_c_raises_keyboard_interrupt_promptly(name):
    latency = interrupt_child(LONG_CALLS[name])
    print(f"{name}: KeyboardInterrupt {latency * 1000:.1f} ms after SIGINT")
    assert latency < 2, f"{name}: KeyboardInterrupt {latency:.2f} s after SIGINT"


def test_ctrl_c_stops_the_engine_on_a_hard_position():
    # Without a time limit the engine's root checks are exact, so it cannot
    # have answered in half a second: only Ctrl-C ends it.
    latency = interrupt_child("lambda: phutball.Engine(depth=64).best_move(HARD[2])", wait=5)
    assert latency < 2


# ---- ulimit -v ----

MEMORY_CHILD = textwrap.dedent(
    """
    import phutball
    pos = phutball.Position({hard!r})
    try:
        moves = pos.jump_outcomes(memory_limit={limit})
    except MemoryError as e:
        print(type(e).__name__, e, flush=True)
    else:
        print("answered", len(moves), flush=True)
    """
)


@pytest.mark.parametrize("limit", ["phutball.DEFAULT_MEMORY_LIMIT", "None"])
def test_under_ulimit_v_a_huge_list_is_a_clean_exception(limit):
    address_space = 1500 * 1024 * 1024

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    done = subprocess.run(
        [sys.executable, "-c", MEMORY_CHILD.format(hard=HARD[0], limit=limit)],
        preexec_fn=cap,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-2000:]}"
    assert "memory allocation" not in done.stderr
    # Millions of outcomes do not fit: a MemoryLimitError (at the limit, or
    # when the allocator refuses), or Python's MemoryError building the list.
    assert done.stdout.split()[0] in ("MemoryLimitError", "MemoryError"), done.stdout
    if limit != "None":
        assert "memory limit of 268435456 bytes" in done.stdout


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child process")
def test_a_search_left_alone_is_not_interrupted():
    # The control for the Ctrl-C tests: without the signal the child runs on.
    code = CHILD.format(hard=HARD, start=START, call="lambda: phutball.Position(HARD[0]).count_jump_paths()")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        with pytest.raises(subprocess.TimeoutExpired):
            child.wait(timeout=1.5)
    finally:
        child.kill()
        child.wait()
