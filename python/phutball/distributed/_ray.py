"""Ray for a call of this package: up for the call's work (``_with_ray``)
on a thread the caller's deadline and Ctrl-C can leave behind, the waits
that look at the caller's stop request, and the progress bar."""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, List, Optional, Tuple, TypeVar

import phutball
import ray


# How long a call waits, past its deadline or a Ctrl-C, for its Ray thread
# to cancel its tasks and shut Ray down, before leaving it behind.
_GRACE_SECONDS = 1.0
# How often a waiting Ray thread looks at the caller's stop request.
_POLL_SECONDS = 0.2


class _Stopped(Exception):
    """The caller stopped waiting for the Ray thread (deadline or Ctrl-C)."""


def _wait_first(refs: List[Any], deadline: Optional[float], stop: threading.Event) -> List[Any]:
    """The tasks of ``refs`` finished (at least one), or ``[]`` once the
    deadline has passed; ``_Stopped`` when the caller gave up."""
    while True:
        if stop.is_set():
            raise _Stopped()
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        finished, _ = ray.wait(refs, num_returns=1, timeout=_POLL_SECONDS if left is None else min(left, _POLL_SECONDS))
        if finished or left == 0:
            return finished


T = TypeVar("T")


def _with_ray(address: Optional[str], deadline: Optional[float], work: Callable[[threading.Event], T], timed_out: Callable[[], BaseException]) -> T:
    """``work(stop)`` with Ray up. Ray as the caller has it (initialised)
    is kept as it is and used on this thread. Else ``ray.init(address)``
    (``None``: a local instance, or the cluster of ``RAY_ADDRESS``), the
    work and ``ray.shutdown()`` run on a thread of their own, which this one
    waits for until ``deadline``: Ray's connect to an unreachable address
    waits on its own retries for minutes and answers no signal, so only a
    thread left behind keeps the caller's deadline (``timed_out()`` is
    raised) and Ctrl-C. Past either, ``stop`` is set for the work to cancel
    its tasks, and the thread given ``_GRACE_SECONDS`` to end."""
    if ray.is_initialized():
        return work(threading.Event())
    stop, connected = threading.Event(), threading.Event()
    outcome: List[Tuple[bool, Any]] = []

    def session() -> None:
        try:
            ray.init(address=address)
            connected.set()
            try:
                if not stop.is_set():
                    outcome.append((True, work(stop)))
            finally:
                ray.shutdown()
        except BaseException as e:  # handed to the caller's thread
            outcome.append((False, e))

    thread = threading.Thread(target=session, name="phutball-ray", daemon=True)
    thread.start()
    try:
        while thread.is_alive() and (deadline is None or time.monotonic() < deadline):
            thread.join(_POLL_SECONDS if deadline is None else max(0.0, min(_POLL_SECONDS, deadline - time.monotonic())))
    except KeyboardInterrupt:
        stop.set()
        thread.join(_GRACE_SECONDS)
        _LEFT_BEHIND.append(thread)
        raise
    if thread.is_alive():
        stop.set()
        if connected.is_set():  # a connect does not look at stop: no grace for it
            thread.join(_GRACE_SECONDS)
    _LEFT_BEHIND.append(thread)
    if not connected.is_set():
        if address:
            why = f"the Ray cluster at {address} did not answer by then: is it running and reachable?"
        else:
            why = "Ray (a local instance starts in about 5 s, or RAY_ADDRESS's cluster) was not up by then"
        raise phutball.SearchTimeoutError(f"{timed_out()}: {why}")
    if not outcome or isinstance(outcome[0][1], _Stopped):
        raise timed_out()
    done, value = outcome[0]
    if not done:
        raise value
    return value


# Ray threads given up on (still connecting or shutting down): a command
# ends its process without waiting for them (``_ray_left_behind``).
_LEFT_BEHIND: List[threading.Thread] = []


def _ray_left_behind() -> bool:
    """Whether a call left a Ray thread running (connecting to an
    unreachable address, or shutting down) when it returned."""
    return any(thread.is_alive() for thread in _LEFT_BEHIND)


class _NoBar:
    def update(self, _n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(total: int, unit: str, shown: bool) -> Any:
    if not shown:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, dynamic_ncols=True)
