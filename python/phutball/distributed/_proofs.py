"""Proofs in parts on Ray: a root's frontier proved one task a position,
the certificates combined into one checked proof of the root as they
arrive (``prove``; ``driver="jobs"`` hands over to ``jobs.prove_jobs``)."""

from __future__ import annotations

import itertools
import os
import threading
import time
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple, Union

import phutball
import ray

from ._ray import _progress_bar, _wait_first, _with_ray


@ray.remote(max_retries=5)
def _prove_task(position: "phutball.Position", limits: Dict[str, Any]) -> Tuple[Optional[str], int]:
    """Proves one frontier position within the task's limits: the text of
    its certificate (``None`` for an unknown result) and the nodes searched."""
    proof = position.prove(**limits)
    return (None if proof.certificate is None else str(proof.certificate), proof.nodes)


def _seconds_arg(name: str, value: Optional[float]) -> None:
    """``None`` or a number of seconds, 0 or more (checked before any task)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be None or a number of seconds, not {type(value).__name__}")
    if not value >= 0:
        raise ValueError(f"{name} must be a number of seconds, 0 or more, or None, not {value}")


def _count_arg(name: str, value: Optional[int], allow_none: bool = True) -> None:
    """``None`` (where allowed) or an int, 0 or more (checked before any task)."""
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be {'None or ' if allow_none else ''}an int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must be {'None or ' if allow_none else ''}an int of at least 0, not {value}")


@dataclass
class ProveFigures:
    """What a ``prove`` run did, for the command's figures: the frontier's
    size, the tasks' answers (proved, unknown, not needed: ``cancelled``, the
    tasks not waited for once the root was proved, left to end on their own),
    their nodes, and the run's seconds."""

    frontier: int
    proved: int = 0
    unknown: int = 0
    cancelled: int = 0
    nodes: int = 0
    seconds: float = 0.0


class _ProveRun:
    """One distributed proof: the root, its frontier's certificates as they
    arrive, the figures, and the caller's deadline."""

    def __init__(self, root: "phutball.Position", frontier_plies: int, timeout: Optional[float]) -> None:
        self.started = time.monotonic()
        self.root = root
        self.frontier_plies = frontier_plies
        self.timeout = timeout
        self.deadline = None if timeout is None else self.started + timeout
        self.certificates: List["phutball.Certificate"] = []
        self.figures = ProveFigures(frontier=0)
        # The tasks out, not yet answered.
        self.running: List[Any] = []

    def left(self) -> Optional[float]:
        """The seconds left before the deadline (None: no deadline)."""
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def timed_out(self) -> phutball.SearchTimeoutError:
        figures = self.figures
        return phutball.SearchTimeoutError(
            f"timed out after {self.timeout} s with {figures.proved + figures.unknown} of {figures.frontier} "
            "frontier positions answered"
        )

    def combined(self) -> "phutball.Proof":
        """The root's proof from the certificates so far."""
        try:
            return phutball.combine_proofs(self.root, self.frontier_plies, self.certificates, timeout=self.left())
        except phutball.SearchTimeoutError as e:
            raise self.timed_out() from e

    def collect(self, finished: List[Any]) -> None:
        """Reads finished tasks' answers into the figures and certificates."""
        for ref in finished:
            text, searched = ray.get(ref)  # raises the task's error, after Ray's retries
            self.figures.nodes += searched
            if text is None:
                self.figures.unknown += 1
            else:
                self.figures.proved += 1
                self.certificates.append(phutball.Certificate.parse(text))

    def wait_and_combine(self, frontier: List[Any], limits: Dict[str, Any], bar: Any, stop: threading.Event) -> Tuple[Optional["phutball.Proof"], List[Any]]:
        """Proves the frontier one task a position, at most a few tasks a
        CPU out at once (a frontier of 200,000 positions is not handed to
        Ray in one go: that took a minute and gigabytes, past any timeout),
        combining their answers as they arrive (the combination taking at
        most about a third of the time: a win is often proved before every
        position is); returns the proof and the tasks still running once it
        is decided."""
        window = max(8, 4 * int(ray.cluster_resources().get("CPU", 1)))
        waiting = iter(frontier)
        running, sent = self.running, 0
        proof = None
        combine_seconds, combined_at, combined_count = 0.0, time.monotonic(), 0
        while True:
            for position in itertools.islice(waiting, window - len(running)):
                if stop.is_set() or self.left() == 0:
                    raise self.timed_out()
                running.append(_prove_task.remote(position, limits))
                sent += 1
            if not running:
                break
            finished = _wait_first(running, self.deadline, stop)
            if not finished:
                raise self.timed_out()
            # And every other answer already there.
            finished, running[:] = ray.wait(running, num_returns=len(running), timeout=0)
            self.collect(finished)
            bar.update(len(finished))
            count = len(self.certificates)
            more = running or sent < len(frontier)
            if count == combined_count or (more and time.monotonic() - combined_at < 2 * combine_seconds):
                continue
            began = time.monotonic()
            proof = self.combined()
            combined_at = time.monotonic()
            combine_seconds, combined_count = combined_at - began, count
            if proof.result != "unknown":
                # The rest are not needed: not waited for (run_tasks says
                # why they are not cancelled), nor the waiting ones sent.
                self.figures.cancelled = self.figures.frontier - self.figures.proved - self.figures.unknown
                return proof, running
        if proof is None or (proof.result == "unknown" and combined_count < len(self.certificates)):
            proof = self.combined()
        return proof, running

    def run_tasks(self, frontier: List[Any], limits: Dict[str, Any], address: Optional[str], progress: bool) -> "phutball.Proof":
        """Proves the frontier one task a position and combines the answers.
        Once the root is decided the tasks left run on to their own limits,
        their answers dropped; if the driver fails (a timeout, Ctrl-C) they
        are cancelled."""
        bar = _progress_bar(len(frontier), "position", progress)

        def work(stop: threading.Event) -> "phutball.Proof":
            decided = False
            try:
                proof, _ = self.wait_and_combine(frontier, limits, bar, stop)
                decided = True
                return proof
            finally:
                # Not cancelled once decided: Ray 2.60's cancel (plain or
                # forced) can race a task that is finishing and abort the
                # driver ("Check failed: ... Tried to complete task that
                # was not pending"), seen in about one run in four of
                # test_distributed_prove, where many small tasks end at
                # once. A failed driver's tasks are long-running ones,
                # cancelled as before.
                if not decided:
                    for ref in self.running:
                        ray.cancel(ref, force=True)

        try:
            return _with_ray(address, self.deadline, work, self.timed_out)
        finally:
            bar.close()


def _prove(
    position: Union[str, "phutball.Position"],
    *,
    frontier_plies: int,
    timeout: Optional[float],
    task_timeout: Optional[float],
    nodes: Optional[int],
    memory_limit: Optional[int],
    address: Optional[str],
    progress: bool,
) -> Tuple["phutball.Proof", ProveFigures]:
    root = position if isinstance(position, phutball.Position) else phutball.Position(position)
    _count_arg("frontier_plies", frontier_plies, allow_none=False)
    _seconds_arg("timeout", timeout)
    _seconds_arg("task_timeout", task_timeout)
    _count_arg("nodes", nodes)
    run = _ProveRun(root, frontier_plies, timeout)
    # On the driver, before any task: a finished root is a ValueError, a bad
    # memory limit or frontier_plies a TypeError or ValueError.
    frontier = phutball.frontier(root, frontier_plies, timeout=run.left(), memory_limit=memory_limit)
    run.figures.frontier = len(frontier)
    limits = {"timeout": task_timeout, "memory_limit": memory_limit, "nodes": nodes}
    proof = run.run_tasks(frontier, limits, address, progress) if frontier else run.combined()
    run.figures.seconds = time.monotonic() - run.started
    return proof, run.figures


def prove(
    position: Union[str, "phutball.Position"],
    *,
    frontier_plies: int = 1,
    timeout: Optional[float] = None,
    task_timeout: Optional[float] = None,
    nodes: Optional[int] = None,
    memory_limit: Optional[int] = phutball.DEFAULT_MEMORY_LIMIT,
    address: Optional[str] = None,
    progress: bool = False,
    driver: str = "frontier",
    checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> "phutball.Proof":
    """Proves who wins ``position`` (a ``Position`` or a position string) on
    Ray. ``driver="jobs"``: job by job, with no fixed depth
    (``jobs.prove_jobs``: ``nodes`` a job's first budget, default 100,000,
    ``task_timeout`` a job's seconds, ``checkpoint`` the driver's saved
    state; ``frontier_plies`` unused). ``driver="frontier"``: the
    positions ``frontier_plies`` plies below it
    (``phutball.frontier``) are proved one a task, each by
    ``Position.prove(timeout=task_timeout, memory_limit=memory_limit,
    nodes=nodes)``, and their certificates combined into one proof of the
    root (``phutball.combine_proofs``), checked before it is returned.

    Returns a ``Proof`` as ``Position.prove`` does: ``"win"`` or ``"loss"``
    for the side to move with the line and the certificate, or
    ``"unknown"`` when the frontier's proofs do not settle the root (a task
    whose limits ran out counts as unproved; the winner may avoid it). Its
    ``nodes`` are the combination's, 0. The answers are combined as they
    arrive, and once the root is proved the tasks still running are
    cancelled. A worker that dies has its task run again by Ray (up to 5
    times). ``timeout`` (seconds, for the whole run, connecting to Ray and
    the frontier included) raises ``SearchTimeoutError`` and Ctrl-C
    ``KeyboardInterrupt``, both after cancelling the tasks still running
    (``_with_ray``: an unreachable ``address`` included); a finished
    position and bad arguments raise ``ValueError`` or ``TypeError``
    before any task, a frontier past ``memory_limit`` ``MemoryLimitError``."""
    if driver == "jobs":
        from .jobs import prove_jobs

        job_nodes = 100_000 if nodes is None else nodes
        return prove_jobs(
            position, job_nodes=job_nodes, job_timeout=task_timeout, memory_limit=memory_limit, timeout=timeout,
            checkpoint=checkpoint, address=address, progress=progress,
        )
    if driver != "frontier":
        raise ValueError(f'driver must be "frontier" or "jobs", not {driver!r}')
    if checkpoint is not None:
        raise ValueError('checkpoint is the jobs driver\'s: give driver="jobs" with it')
    proof, _ = _prove(
        position,
        frontier_plies=frontier_plies,
        timeout=timeout,
        task_timeout=task_timeout,
        nodes=nodes,
        memory_limit=memory_limit,
        address=address,
        progress=progress,
    )
    return proof
