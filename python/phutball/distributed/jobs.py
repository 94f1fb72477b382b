"""Job-level proofs on a Ray cluster: a driver keeps the top of the tree as
a proof-number tree and sends its most-proving leaves, one job each (a
position and a node budget), to one prover actor per Ray node.

>>> from phutball.distributed import jobs                    # doctest: +SKIP
>>> jobs.prove_jobs(phutball.Position.start(9, 9), checkpoint="9x9.jobs.gz")  # doctest: +SKIP

The tree is in negamax form: a node's ``win`` number estimates the work to
prove that its side to move wins, its ``loss`` number that its side to move
loses (the opponent forces a goal); a node wins if one child loses, loses
if every child wins. Both are proofs with certificates (``Position.prove``
answers ``"win"`` or ``"loss"`` for the side to move), so the root is
proved for whichever side wins, in one tree. An actor answers a job with
the prover's result: proved (its certificate is kept), or unknown, after
which the leaf's budget doubles and it takes the prover's root proof
numbers as its own, and after ``expand_after`` unknown answers
the driver expands it (its children become leaves). The state (the tree,
every leaf's certificate, the figures) is saved to ``checkpoint`` (a local
path or ``s3://...``) atomically, so the same call resumes it. The root's
certificate is assembled from the leaves' with ``phutball.combine_proofs``
and checked before it is returned. How and why: ``docs/distributed.md``.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
import os
import sys
import threading
import time
import zlib
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple, Union

import phutball

from ._proofs import _count_arg, _seconds_arg
from ._ray import _POLL_SECONDS, _NoBar, _Stopped, _with_ray
from ._store import DatasetError, _Store

import ray
from ray.exceptions import RayActorError
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

__all__ = ["JobFigures", "prove_jobs"]

# A number no sum reaches: a settled side.
INFINITE = 1 << 62
# Plies below the root that phutball.combine_proofs can search.
MAX_DEPTH = 32
_FORMAT = 2
# Format 1 (before the leaves' numbers were kept) still reads: its open
# leaves' numbers are counted from their tries.
_READ_FORMATS = (1, 2)
_KIND = "phutball.distributed.jobs"


@dataclass
class JobFigures:
    """What a job-level proof did, this run and the runs it resumed from
    (``resumed``: how many): the jobs answered (``proved`` and ``unknown``,
    ``lost`` to an actor that died and sent again), the driver's tree
    (``tree_nodes``, ``depth``: its deepest leaf, ``expanded`` nodes), the
    prover nodes of every job, the bytes of the jobs' answers, the
    driver's seconds folding answers (``fold_seconds``: updating the tree
    and choosing the next leaves), the saves, the jobs answered by each Ray
    node (by node id), the seconds assembling and checking the root's
    certificate, and ``seconds`` of this run."""

    jobs: int = 0
    """The jobs answered."""
    proved: int = 0
    """The jobs answered with a proof."""
    unknown: int = 0
    """The jobs answered without one (their budget ran out)."""
    lost: int = 0
    """The jobs lost to an actor that died, and sent again."""
    tree_nodes: int = 1
    """The nodes of the driver's tree."""
    depth: int = 0
    """The depth of the tree's deepest leaf."""
    expanded: int = 0
    """The tree's nodes expanded."""
    nodes: int = 0
    """The prover nodes of every job, together."""
    answer_bytes: int = 0
    """The bytes of the jobs' answers."""
    fold_seconds: float = 0.0
    """The driver's seconds folding answers: updating the tree and choosing the next leaves."""
    saves: int = 0
    """The checkpoint's saves."""
    save_seconds: float = 0.0
    """The seconds the saves took."""
    checkpoint_bytes: int = 0
    """The size of the last checkpoint saved, in bytes."""
    resumed: int = 0
    """How many runs this one resumed from."""
    actors: int = 0
    """The Ray actors the jobs ran on."""
    jobs_by_node: Dict[str, int] = field(default_factory=dict)
    """The jobs answered by each Ray node, by node id."""
    assemble_seconds: float = 0.0
    """The seconds assembling and checking the root's certificate."""
    seconds: float = 0.0
    """The seconds of this run."""


class _Node:
    """One position of the driver's tree, reached from its parent by ``move``."""

    __slots__ = ("position", "key", "parent", "move", "depth", "children", "win", "loss", "budget", "tries", "busy", "via")

    def __init__(self, position: "phutball.Position", parent: Optional["_Node"], move: Optional[str], budget: int) -> None:
        self.position = position
        self.key = str(position)
        self.parent = parent
        self.move = move
        self.depth: int = 0 if parent is None else parent.depth + 1
        self.children: Optional[List[_Node]] = None
        # Before a job: (1, 1), as proof-number search starts a leaf.
        self.win = 1
        self.loss = 1
        self.budget = budget
        self.tries = 0
        self.busy = False
        # What proved it, once settled without a certificate of its own: the
        # losing child of a win, or the node of the same position settled
        # before it. Fixed when it settles, so a proof never runs through
        # itself (a position can come back deeper in the tree).
        self.via: Optional[_Node] = None

    @property
    def settled(self) -> bool:
        return self.win == 0 or self.loss == 0 or (self.win >= INFINITE and self.loss >= INFINITE)

    @property
    def result(self) -> Optional[str]:
        """``"win"`` or ``"loss"`` for the side to move once proved, else ``None``."""
        return "win" if self.win == 0 else "loss" if self.loss == 0 else None


def _unpacked(packed: str) -> "phutball.Certificate":
    """A certificate as the driver keeps it (zlib-compressed text in base64)."""
    try:
        text = zlib.decompress(base64.b64decode(packed, validate=True)).decode("utf-8")
    except (ValueError, zlib.error) as e:
        raise ValueError(f"a certificate that does not unpack ({e})") from e
    return phutball.Certificate.parse(text)


def _finished_numbers(position: "phutball.Position") -> Tuple[int, int]:
    """A finished position's numbers for its side to move."""
    won = position.winner == position.to_move
    return (0, INFINITE) if won else (INFINITE, 0)


@ray.remote(max_restarts=-1, max_task_retries=0)
class _Prover:
    """Proves the driver's jobs on one Ray node, ``jobs`` threads each
    (its node's cores). ``Position.prove`` makes its tables anew at every
    call (no call keeps them), so the actor's state is its settings only."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs

    def prove(
        self, position: str, nodes: int, memory_limit: Optional[int], timeout: Optional[float]
    ) -> Tuple[str, Optional[bytes], int, float, Optional[Tuple[int, int]]]:
        """The job's answer: the result for the side to move, the
        certificate's text compressed (``None`` unless proved: as the
        driver keeps it, and a tenth of the bytes to send), the nodes
        searched, the seconds, and for an unknown result the prover's root
        proof numbers (to win, to lose)."""
        started = time.monotonic()
        proof = phutball.Position(position).prove(nodes=nodes, memory_limit=memory_limit, jobs=self.jobs, timeout=timeout)
        packed = None if proof.certificate is None else zlib.compress(str(proof.certificate).encode("utf-8"))
        return proof.result, packed, proof.nodes, time.monotonic() - started, proof.numbers

    def where(self) -> Tuple[str, int]:
        """The Ray node and the process of this actor."""
        return ray.get_runtime_context().get_node_id(), os.getpid()


class _Driver:
    """The proof-number tree, the leaves' certificates and the figures."""

    def __init__(self, root: "phutball.Position", job_nodes: int, expand_after: int) -> None:
        self.root_position = root
        self.job_nodes = job_nodes
        self.expand_after = expand_after
        self.root = _Node(root, None, None, job_nodes)
        # By position: the certificate of every leaf a job proved, its text
        # zlib-compressed in base64, as the checkpoint holds it (shared by
        # the leaves of one position, and by resumed runs).
        self.certificates: Dict[str, str] = {}
        self.by_key: Dict[str, List[_Node]] = {self.root.key: [self.root]}
        self.busy_keys: Set[str] = set()
        self.figures = JobFigures()

    # The tree's numbers.

    def update(self, node: Optional[_Node]) -> None:
        """Recomputes ``node``'s numbers from its children and its ancestors' up to the first unchanged."""
        while node is not None and node.children is not None:
            win = min((c.loss for c in node.children), default=INFINITE)
            loss = min(INFINITE, sum(c.win for c in node.children))
            if (win, loss) == (node.win, node.loss):
                return
            node.win, node.loss = win, loss
            if node.settled:
                if win == 0:
                    node.via = next(c for c in node.children if c.loss == 0)
                self.settle_twins(node)
            node = node.parent

    def settle_twins(self, node: _Node) -> None:
        """Settles the other open nodes of ``node``'s position the same way."""
        for twin in self.by_key.get(node.key, []):
            if twin is not node and not twin.settled and twin.children is None:
                twin.win, twin.loss, twin.via = node.win, node.loss, node
                self.update(twin.parent)

    def expand(self, node: _Node) -> None:
        """Gives ``node`` its children: every distinct legal move's position,
        finished ones settled, ones settled elsewhere in the tree copied."""
        children = []
        for move in node.position.legal_moves():
            position = node.position.play(move)
            child = _Node(position, node, str(move), self.job_nodes)
            if position.is_finished:
                child.win, child.loss = _finished_numbers(position)
            else:
                known = next((n for n in self.by_key.get(child.key, []) if n.settled), None)
                if known is not None:
                    child.win, child.loss, child.via = known.win, known.loss, known
                self.by_key.setdefault(child.key, []).append(child)
            children.append(child)
        node.children = children
        self.figures.tree_nodes += len(children)
        self.figures.expanded += 1
        self.figures.depth = max(self.figures.depth, node.depth + 1)
        self.update(node)

    # Choosing the leaves.

    def most_proving(self) -> Optional[_Node]:
        """The open leaf, not running a job, that settles the root soonest:
        from the root, the child of least ``loss`` number (it proves its
        parent's win, and its win number is part of its parent's loss
        number) first, the next where a subtree has no free leaf."""
        return None if self.root.settled else self._leaf_below(self.root)

    def _leaf_below(self, node: _Node) -> Optional[_Node]:
        if node.children is None:
            free = not node.busy and node.key not in self.busy_keys
            return node if free else None
        for child in sorted((c for c in node.children if not c.settled), key=lambda c: (c.loss, c.win)):
            found = self._leaf_below(child)
            if found is not None:
                return found
        return None

    # Folding the answers.

    def fold(self, leaf: _Node, result: str, certificate: Optional[bytes], numbers: Optional[Tuple[int, int]] = None) -> None:
        """A job's answer: a proof settles the leaf (and its twins), an
        unknown result doubles its budget and takes the prover's root proof
        numbers (``numbers``: to win, to lose) as the leaf's, and after
        ``expand_after`` unknown answers expands it (a leaf at the
        combination's depth limit only doubles)."""
        leaf.busy = False
        self.busy_keys.discard(leaf.key)
        proof = certificate if result in ("win", "loss") else None
        if proof is not None and leaf.key not in self.certificates:
            self.certificates[leaf.key] = base64.b64encode(proof).decode("ascii")
        if leaf.settled:  # by a node of the same position meanwhile
            return
        if proof is not None:
            leaf.win, leaf.loss = (0, INFINITE) if result == "win" else (INFINITE, 0)
            self.figures.proved += 1
            self.settle_twins(leaf)
            self.update(leaf.parent)
            return
        self.figures.unknown += 1
        leaf.tries += 1
        if result == "draw":  # from a tablebase: neither side can be proved
            leaf.win = leaf.loss = INFINITE
            self.settle_twins(leaf)
            self.update(leaf.parent)
            return
        if leaf.tries >= self.expand_after and leaf.depth < MAX_DEPTH:
            self.expand(leaf)
            return
        leaf.budget *= 2
        if numbers is not None:
            # The prover's own view: the leaf's numbers, as the tree's are
            # (proof numbers to win and to lose), so the most-proving leaf
            # is chosen by what the search found, not by turns.
            leaf.win = min(INFINITE - 1, max(1, int(numbers[0])))
            leaf.loss = min(INFINITE - 1, max(1, int(numbers[1])))
        else:
            # The leaf looks twice as costly: its siblings get their turn.
            leaf.win *= 2
            leaf.loss *= 2
        self.update(leaf.parent)

    # The certificate.

    def proving(self, node: _Node) -> List[_Node]:
        """The nodes whose proofs prove a proved node without a certificate
        of its own: the node it copies, the losing child of a win, every
        child of a loss (the finished ones included: a goal needs no
        certificate)."""
        if node.children is None or node.result == "win":
            assert node.via is not None, node.key
            return [node.via]
        return node.children

    def parts_of(self, node: _Node, made: Dict[str, "phutball.Certificate"], left: Optional[float]) -> Tuple[int, List["phutball.Certificate"]]:
        """What proves a proved node, for ``combine_proofs``: its job's
        certificate (0 plies), or its proving children's (1 ply). Ply by
        ply, because one call over every leaf at the tree's depth searches
        every unproved move of the winner down to that depth again: over
        60 s for a 5x9 tree 14 plies deep whose certificate this way
        takes 0.06 s."""
        if node.key in self.certificates:
            return 0, [_unpacked(self.certificates[node.key])]
        while node.children is None:  # settled as a copy of a node proved before it
            node = self.proving(node)[0]
        return 1, [self.certificate_of(c, made, left) for c in self.proving(node) if not c.position.is_finished]

    def certificate_of(self, node: _Node, made: Dict[str, "phutball.Certificate"], left: Optional[float]) -> "phutball.Certificate":
        """The certificate of a proved node (each position's made once)."""
        if node.key not in made:
            plies, parts = self.parts_of(node, made, left)
            if plies == 0:
                made[node.key] = parts[0]
            else:
                proof = phutball.combine_proofs(node.position, plies, parts, timeout=left)
                if proof.result != node.result or proof.certificate is None:
                    raise RuntimeError(f"the proofs below {node.key} combine to {proof.result}, not {node.result}")
                made[node.key] = proof.certificate
        return made[node.key]

    # The checkpoint.

    def state(self) -> Dict[str, Any]:
        """The checkpoint's record: the tree in preorder (each node's move,
        budget, tries, number of children, -1 for a leaf, and numbers to
        win and to lose, which an open leaf takes back from it), the
        leaves' certificates and the figures."""
        tree: List[List[Any]] = []
        stack = [self.root]
        while stack:
            node = stack.pop()
            count = -1 if node.children is None else len(node.children)
            tree.append([node.move, node.budget, node.tries, count, node.win, node.loss])
            if node.children is not None:
                stack.extend(reversed(node.children))
        return {
            "format": _FORMAT,
            "kind": _KIND,
            "root": self.root.key,
            "job_nodes": self.job_nodes,
            "expand_after": self.expand_after,
            "tree": tree,
            "certificates": self.certificates,
            "figures": asdict(self.figures),
        }

    def restore(self, record: Dict[str, Any]) -> None:
        """Rebuilds the tree of ``state()`` (the moves played again from the
        root), its leaves' results from the certificates."""
        certificates = record["certificates"]
        if not isinstance(certificates, dict):
            raise ValueError("its certificates are not a table of positions")
        proved: Dict[str, str] = {}
        for key, packed in certificates.items():
            certificate = _unpacked(packed)
            if certificate.root is None or str(certificate.root) != key:
                raise ValueError(f"the certificate filed under {key} proves another position")
            proved[key] = certificate.winner
        self.certificates = dict(certificates)
        self.by_key = {}
        self.figures = JobFigures(**{**record["figures"], "tree_nodes": 0, "expanded": 0, "depth": 0, "seconds": 0.0})
        entries = iter(record["tree"])
        self.root = self._restored(entries, None, proved)
        if next(entries, None) is not None:
            raise ValueError("its tree has entries after the last node")
        self.renumber(self.root)
        for nodes in list(self.by_key.values()):
            settled = next((n for n in nodes if n.settled), None)
            if settled is not None:
                self.settle_twins(settled)

    def _restored(self, entries: Iterator[List[Any]], parent: Optional[_Node], proved: Dict[str, str]) -> _Node:
        """The node of the next entry and its subtree (preorder)."""
        entry = next(entries)
        # Format 2 adds the numbers; format 1's entries end at the count.
        move, budget, tries, count = entry[:4]
        numbers = entry[4:6] if len(entry) >= 6 else None
        position = self.root_position if parent is None else parent.position.play(move)
        node = _Node(position, parent, move, int(budget))
        node.tries = int(tries)
        self.figures.tree_nodes += 1
        if position.is_finished:
            node.win, node.loss = _finished_numbers(position)
        else:
            self.by_key.setdefault(node.key, []).append(node)
        if count < 0:
            winner = proved.get(node.key)
            if winner is not None:
                node.win, node.loss = (0, INFINITE) if winner == position.to_move else (INFINITE, 0)
            elif not position.is_finished and numbers is not None:
                # The numbers it had: the prover's, or its first (1, 1).
                node.win = min(INFINITE - 1, max(1, int(numbers[0])))
                node.loss = min(INFINITE - 1, max(1, int(numbers[1])))
            elif not position.is_finished:
                node.win = node.loss = 1 << min(node.tries, 60)
            return node
        self.figures.expanded += 1
        self.figures.depth = max(self.figures.depth, node.depth + 1)
        node.children = [self._restored(entries, node, proved) for _ in range(count)]
        return node

    def renumber(self, node: _Node) -> None:
        """Every internal node's numbers from its children, bottom up."""
        if node.children is None:
            return
        for child in node.children:
            self.renumber(child)
        node.win = min((c.loss for c in node.children), default=INFINITE)
        node.loss = min(INFINITE, sum(c.win for c in node.children))
        if node.win == 0:
            node.via = next(c for c in node.children if c.loss == 0)


# The checkpoint's bytes as they are: pyarrow's streams decompress and
# compress by the name's extension (``compression="detect"``), so a name
# ending in .gz would be read unzipped, and on S3 written zipped twice.


def _read_raw(store: _Store) -> bytes:
    with store.fs.open_input_stream(store.base, compression=None) as stream:
        return stream.read()


def _write_raw(store: _Store, data: bytes) -> None:
    """``data`` published whole, as ``_Store.write_bytes`` does it."""
    if store.local:
        store.write_bytes(data, store.base)
        return
    with store.fs.open_output_stream(store.base, compression=None) as stream:
        stream.write(data)


def _read_checkpoint(store: _Store, root: "phutball.Position") -> Optional[Dict[str, Any]]:
    """The driver's saved state, or ``None`` where there is none. A file
    that does not read, or is another run's (another root, kind or format),
    raises ``ValueError`` naming it; it is left as it is."""
    if not store.exists(store.base):
        return None
    shown = store.shown(store.base)
    try:
        record = json.loads(gzip.decompress(_read_raw(store)).decode("utf-8"))
    except (OSError, EOFError, ValueError, zlib.error) as e:  # gzip's CRC and length catch a damaged or cut file
        raise ValueError(f"{shown}: not a job-level proof's checkpoint that reads ({e}); it is left as it is") from e
    if not isinstance(record, dict) or record.get("kind") != _KIND:
        raise ValueError(f"{shown}: not a job-level proof's checkpoint; it is left as it is")
    if record.get("format") not in _READ_FORMATS:
        raise ValueError(f"{shown}: a checkpoint of format {record.get('format')}, not {_FORMAT}; it is left as it is")
    if record.get("root") != str(root):
        raise ValueError(f"{shown}: the checkpoint of another position ({record.get('root')}); it is left as it is")
    return record


def _actors(jobs_per_actor: Optional[int]) -> List[Any]:
    """One prover actor per live Ray node with CPUs, on that node (softly: a
    restarted actor may move), taking all its CPUs (``jobs_per_actor``:
    that many instead, one actor still per node)."""
    actors = []
    for node in ray.nodes():
        cpus = int(node.get("Resources", {}).get("CPU", 0))
        if not node.get("Alive") or cpus < 1:
            continue
        jobs = cpus if jobs_per_actor is None else jobs_per_actor
        strategy = NodeAffinitySchedulingStrategy(node["NodeID"], soft=True)
        options = {"num_cpus": min(jobs, cpus), "scheduling_strategy": strategy}
        actors.append(_Prover.options(**options).remote(jobs))  # type: ignore[attr-defined]
    if not actors:
        raise ValueError("the Ray cluster has no node with a CPU to prove on")
    return actors


def _progress_bar(shown: bool) -> Any:
    """A bar of jobs answered, open-ended (the tree grows as it goes)."""
    if not shown:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(unit="job", dynamic_ncols=True)


class _JobRun:
    """One run of the driver: the tree, the actors, the deadline and the saves."""

    def __init__(self, driver: _Driver, store: Optional[_Store], checkpoint_every: float, timeout: Optional[float], limits: Dict[str, Any]) -> None:
        self.started = time.monotonic()
        self.driver = driver
        self.store = store
        self.checkpoint_every = checkpoint_every
        self.timeout = timeout
        self.deadline = None if timeout is None else self.started + timeout
        self.limits = limits
        self.saved_at = self.started
        # Answers folded since the last save: nothing else changes the state.
        self.unsaved = False
        self.node_of: Dict[int, str] = {}

    def left(self) -> Optional[float]:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def save(self) -> None:
        """Publishes the state whole (``_Store.write_bytes``: a temporary
        file renamed, or one upload)."""
        if self.store is None:
            return
        began = time.monotonic()
        figures = self.driver.figures
        figures.saves += 1
        # Level 1: the certificates are compressed already; gzip's CRC and
        # length are what tell a damaged file.
        data = gzip.compress(json.dumps(self.driver.state(), separators=(",", ":")).encode("utf-8"), compresslevel=1, mtime=0)
        _write_raw(self.store, data)
        figures.checkpoint_bytes = len(data)
        self.saved_at = time.monotonic()
        self.unsaved = False
        figures.save_seconds += self.saved_at - began

    def timed_out(self) -> phutball.SearchTimeoutError:
        figures = self.driver.figures
        where = "" if self.store is None else f"; the state is saved in {self.store.shown(self.store.base)}: the same call goes on from it"
        return phutball.SearchTimeoutError(
            f"timed out after {self.timeout} s with {figures.jobs} jobs answered and the root open{where}"
        )

    def start(self, actors: List[Any], stop: threading.Event) -> None:
        """Waits for the actors to be up (within the deadline), learning their nodes."""
        refs = [actor.where.remote() for actor in actors]
        while len(ray.wait(refs, num_returns=len(refs), timeout=0)[0]) < len(refs):
            self.wait(refs, stop)
        places = ray.get(refs)
        self.node_of = {id(actor): node for actor, (node, _) in zip(actors, places)}

    def wait(self, refs: List[Any], stop: threading.Event) -> List[Any]:
        """The jobs of ``refs`` finished within a poll (``_POLL_SECONDS``, or
        until a save of answers folded is due); ``timed_out()`` past the
        deadline, ``_Stopped`` once the caller gave up (Ctrl-C, its
        deadline)."""
        if stop.is_set():
            raise _Stopped()
        left = self.left()
        if left == 0:
            raise self.timed_out()
        wait = _POLL_SECONDS if left is None else min(left, _POLL_SECONDS)
        if self.store is not None and self.unsaved:
            wait = min(wait, max(0.0, self.saved_at + self.checkpoint_every - time.monotonic()))
        finished, _ = ray.wait(refs, num_returns=1, timeout=wait)
        if finished:  # and whatever else has finished
            finished, _ = ray.wait(refs, num_returns=len(refs), timeout=0)
        return finished

    def dispatch(self, actor: Any, running: Dict[Any, Tuple[Any, _Node]]) -> bool:
        """Sends the most-proving free leaf to ``actor``: whether there was one."""
        leaf = self.driver.most_proving()
        if leaf is None:
            return False
        leaf.busy = True
        self.driver.busy_keys.add(leaf.key)
        job_timeout = self.limits["job_timeout"]
        left = self.left()
        if left is not None:
            job_timeout = left if job_timeout is None else min(job_timeout, left)
        ref = actor.prove.remote(leaf.key, leaf.budget, self.limits["memory_limit"], job_timeout)
        running[ref] = (actor, leaf)
        return True

    def receive(self, ref: Any, actor: Any, leaf: _Node, idle: List[Any]) -> None:
        """Folds one finished job into the tree; a job whose actor died is
        counted lost and its leaf freed for another try (Ray restarts the
        actor)."""
        driver, figures = self.driver, self.driver.figures
        idle.append(actor)
        try:
            result, text, nodes, _, numbers = ray.get(ref)
        except RayActorError:
            figures.lost += 1
            leaf.busy = False
            driver.busy_keys.discard(leaf.key)
            return
        figures.jobs += 1
        figures.nodes += nodes
        node = self.node_of[id(actor)]
        figures.jobs_by_node[node] = figures.jobs_by_node.get(node, 0) + 1
        # The answer as sent: the result, two numbers and the certificate.
        figures.answer_bytes += len(result) + 16 + (0 if text is None else len(text))
        began = time.monotonic()
        driver.fold(leaf, result, text, numbers)
        figures.fold_seconds += time.monotonic() - began
        self.unsaved = True

    def run(self, actors: List[Any], bar: Any, stop: threading.Event) -> None:
        """Keeps every actor on a job until the root is settled or no leaf is
        left to try; saves every ``checkpoint_every`` seconds and at the end,
        however it ends (a timeout, Ctrl-C, an error)."""
        driver = self.driver
        running: Dict[Any, Tuple[Any, _Node]] = {}
        idle = list(actors)
        try:
            self.start(actors, stop)
            while not driver.root.settled:
                began = time.monotonic()
                while idle and self.dispatch(idle[-1], running):
                    idle.pop()
                driver.figures.fold_seconds += time.monotonic() - began
                if not running:
                    break  # every leaf settled or running: the root cannot be settled (draws)
                for ref in self.wait(list(running), stop):
                    actor, leaf = running.pop(ref)
                    self.receive(ref, actor, leaf, idle)
                    bar.update(1)
                if self.unsaved and time.monotonic() - self.saved_at >= self.checkpoint_every:
                    self.save()
        finally:
            for actor, leaf in running.values():
                leaf.busy = False
            driver.busy_keys.clear()
            self.save()

    def proof(self) -> "phutball.Proof":
        """The root's proof (``"unknown"`` while it is open): its
        certificate assembled from the leaves' by ``combine_proofs``, ply
        by ply from the leaves up (each call checks what it combines), and
        checked whole by ``check_proof`` before it is claimed."""
        root = self.driver.root
        if root.result is None:
            return phutball.combine_proofs(root.position, 0, [], timeout=self.left())
        plies, parts = self.driver.parts_of(root, {}, self.left())
        proof = phutball.combine_proofs(root.position, plies, parts, timeout=self.left())
        if proof.result != root.result or proof.certificate is None:
            raise RuntimeError(f"the leaves' proofs combine to {proof.result}, not the {root.result} the tree settled")
        checked = phutball.check_proof(proof.certificate, timeout=self.left())
        to_move = root.position.to_move
        if checked.root != root.position or (checked.winner == to_move) != (root.result == "win"):
            raise RuntimeError(f"the assembled certificate proves {checked.winner} wins {checked.root}, not the root's {root.result}")
        return proof


def _prove_jobs(
    position: Union[str, "phutball.Position"],
    *,
    job_nodes: int = 100_000,
    expand_after: int = 2,
    job_timeout: Optional[float] = None,
    memory_limit: Optional[int] = phutball.DEFAULT_MEMORY_LIMIT,
    jobs_per_actor: Optional[int] = None,
    checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None,
    checkpoint_every: float = 60.0,
    timeout: Optional[float] = None,
    address: Optional[str] = None,
    progress: bool = False,
) -> Tuple["phutball.Proof", JobFigures]:
    root = position if isinstance(position, phutball.Position) else phutball.Position(position)
    if root.is_finished:
        raise ValueError("the game is already over in this position")
    _count_arg("job_nodes", job_nodes, allow_none=False)
    _count_arg("expand_after", expand_after, allow_none=False)
    _count_arg("jobs_per_actor", jobs_per_actor)
    for name, value in (("job_nodes", job_nodes), ("expand_after", expand_after), ("jobs_per_actor", jobs_per_actor)):
        if value == 0:
            raise ValueError(f"{name} must be 1 or more, not 0")
    _seconds_arg("job_timeout", job_timeout)
    _seconds_arg("checkpoint_every", checkpoint_every)
    if checkpoint_every is None:
        raise TypeError("checkpoint_every must be a number of seconds, not None")
    _seconds_arg("timeout", timeout)
    _count_arg("memory_limit", memory_limit)
    if checkpoint is not None and not isinstance(checkpoint, (str, os.PathLike)):
        raise TypeError(f"checkpoint must be None, a path or an s3:// URI, not {type(checkpoint).__name__}")
    # The prover checks the memory limit now, not in a job.
    root.prove(nodes=1, memory_limit=memory_limit)
    driver = _Driver(root, job_nodes, expand_after)
    store = None
    if checkpoint is not None:
        try:
            store = _Store(checkpoint)
        except DatasetError as e:
            raise ValueError(str(e).replace("dataset location", "checkpoint location")) from e
        record = _read_checkpoint(store, root)
        if record is not None:
            try:
                driver.restore(record)
            except (ValueError, TypeError, KeyError, IndexError, StopIteration, phutball.IllegalMoveError) as e:
                raise ValueError(f"{store.shown(store.base)}: a checkpoint that does not rebuild ({e}); it is left as it is") from e
            driver.figures.resumed += 1
    limits = {"job_timeout": job_timeout, "memory_limit": memory_limit}
    run = _JobRun(driver, store, checkpoint_every, timeout, limits)
    bar = _progress_bar(progress)

    def work(stop: threading.Event) -> None:
        actors = _actors(jobs_per_actor)
        driver.figures.actors = len(actors)
        try:
            run.run(actors, bar, stop)
        finally:
            for actor in actors:
                ray.kill(actor)

    try:
        if not driver.root.settled:  # a proved root's checkpoint needs no Ray
            _with_ray(address, run.deadline, work, run.timed_out)
    finally:
        bar.close()
    began = time.monotonic()
    proof = run.proof()
    driver.figures.assemble_seconds = time.monotonic() - began
    driver.figures.seconds = time.monotonic() - run.started
    return proof, driver.figures


def prove_jobs(
    position: Union[str, "phutball.Position"],
    *,
    job_nodes: int = 100_000,
    expand_after: int = 2,
    job_timeout: Optional[float] = None,
    memory_limit: Optional[int] = phutball.DEFAULT_MEMORY_LIMIT,
    jobs_per_actor: Optional[int] = None,
    checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None,
    checkpoint_every: float = 60.0,
    timeout: Optional[float] = None,
    address: Optional[str] = None,
    progress: bool = False,
) -> "phutball.Proof":
    """Proves who wins ``position`` on Ray, job by job. A driver keeps the
    top of the tree as a proof-number tree and sends its most-proving leaves
    to one actor per Ray node, each job ``Position.prove(nodes=budget,
    jobs=<the node's CPUs or jobs_per_actor>, memory_limit=,
    timeout=job_timeout)``; a leaf's first budget is ``job_nodes``, doubled
    after each unknown answer, and after ``expand_after`` of them the leaf
    is expanded in the driver's tree.

    ``checkpoint`` (a local path or ``s3://bucket/key``) keeps the driver's
    state, the tree and every proved leaf's certificate, gzipped, saved
    whole every ``checkpoint_every`` seconds and at the end (a proof, a
    timeout, Ctrl-C, an error); the same call with the same path goes on
    from it. A damaged or foreign checkpoint raises ``ValueError`` and is
    left as it is.

    Returns a ``Proof`` as ``Position.prove`` does, its certificate
    assembled from the leaves' (``phutball.combine_proofs``) and checked;
    ``"unknown"`` only when no leaf is left to try (draws). ``timeout``
    (seconds, for the whole run) raises ``SearchTimeoutError`` and Ctrl-C
    ``KeyboardInterrupt``, both after saving; a job lost with its actor is
    sent again. A finished position and bad arguments raise ``ValueError``
    or ``TypeError`` before Ray starts."""
    proof, _ = _prove_jobs(
        position,
        job_nodes=job_nodes,
        expand_after=expand_after,
        job_timeout=job_timeout,
        memory_limit=memory_limit,
        jobs_per_actor=jobs_per_actor,
        checkpoint=checkpoint,
        checkpoint_every=checkpoint_every,
        timeout=timeout,
        address=address,
        progress=progress,
    )
    return proof


def add_arguments(command: argparse.ArgumentParser) -> None:
    """The job-level driver's flags, on ``python -m phutball.distributed prove``."""
    command.add_argument(
        "--jobs-driver",
        action="store_true",
        help="prove job by job: a proof-number tree on the driver, its most-proving leaves proved by one actor per Ray node "
        "(--nodes: a job's first budget, default 100000; --task-timeout: seconds per job; no --frontier-plies)",
    )
    command.add_argument("--expand-after", type=int, default=2, help="with --jobs-driver: unknown answers before a leaf is expanded (default 2)")
    command.add_argument("--checkpoint", metavar="PATH", help="with --jobs-driver: the driver's state, a local path or s3://bucket/key; the same command goes on from it")
    command.add_argument("--checkpoint-every", type=float, default=60.0, metavar="SECONDS", help="with --jobs-driver: seconds between saves (default 60; also saved at the end)")


def figures_line(figures: JobFigures) -> str:
    """What the command prints on stderr after the result line."""
    resumed = f", resumed {figures.resumed} times" if figures.resumed else ""
    return (
        f"jobs {figures.jobs}: {figures.proved} proved, {figures.unknown} unknown, {figures.lost} lost with their actor; "
        f"tree {figures.tree_nodes} nodes, {figures.expanded} expanded, depth {figures.depth}; "
        f"{figures.actors} actors; nodes {figures.nodes}, {figures.seconds:.3f} s{resumed}"
    )


def command(args: argparse.Namespace, position: "phutball.Position") -> int:
    """``prove --jobs-driver``: the result line on stdout (as ``phutball
    prove`` prints it), the figures on stderr, as the frontier's command;
    the caller reports errors."""
    try:
        if args.frontier_plies is not None:
            raise ValueError("--frontier-plies is the frontier driver's: the jobs driver has no fixed depth")
        proof, figures = _prove_jobs(
            position,
            job_nodes=100_000 if args.nodes is None else args.nodes,
            expand_after=args.expand_after,
            job_timeout=args.task_timeout,
            memory_limit=args.memory_limit,
            checkpoint=args.checkpoint,
            checkpoint_every=args.checkpoint_every,
            timeout=args.timeout,
            address=args.address,
            progress=not args.no_progress,
        )
        print(proof)
        text = figures_line(figures)
        if proof.certificate is not None:
            text += f", certificate {len(proof.certificate)} nodes"
        print(text, file=sys.stderr)
        if args.certificate and proof.certificate is not None:
            proof.save(args.certificate)
            print(f"certificate: {args.certificate}", file=sys.stderr)
    except KeyboardInterrupt:
        saved = f": the state is saved in {args.checkpoint}, run the same command to go on" if args.checkpoint else ""
        print(f"interrupted{saved}", file=sys.stderr)
        return 130
    return 0
