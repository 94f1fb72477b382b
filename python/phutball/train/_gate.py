"""The gate of the generation loop: a candidate network's engine against the
best so far, in pairs of games from random openings with the colours
swapped, each pair a Ray task; its score, Elo and 95% interval."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Dict, List, Optional, Tuple

import phutball

try:
    import ray
except ImportError as missing:  # pragma: no cover - the message is the point
    raise ImportError(f"the generation loop needs Ray ({missing}): pip install 'phutball[ray,train]'") from missing

from phutball.rl import elo


@dataclass
class GateResult:
    """A match of the candidate against the best so far."""

    games: int
    """Games played (two a pair)."""
    wins: int
    """The candidate's wins."""
    draws: int
    """Games that reached the move limit."""
    losses: int
    """The candidate's losses."""
    score: float
    """``(wins + draws / 2) / games``."""
    elo: Optional[float]
    """The Elo difference, candidate minus best (``None`` at a score of 0 or 1)."""
    elo_low: Optional[float]
    """The 95% interval's low end (``None`` where its score is 0)."""
    elo_high: Optional[float]
    """The 95% interval's high end (``None`` where its score is 1)."""

    def as_dict(self) -> Dict[str, Any]:
        """The result as JSON gives it."""
        return asdict(self)


def _engine(network: Optional[bytes], nodes: int, seed: int) -> "phutball.Engine":
    evaluation: Any = "hand" if network is None else phutball.Network.from_bytes(network)
    return phutball.Engine(nodes=nodes, seed=seed, eval=evaluation)


def play_pair(candidate: Optional[bytes], best: Optional[bytes], pair: int, seed: int, nodes: int, move_limit: int) -> Tuple[float, float]:
    """Pair ``pair``: two games from ``random_opening(seed_i, 0)``, the
    candidate Ohs in the first and Eks in the second; its score in each (1
    a win, 0.5 a draw, 0 a loss). ``None`` for a network is the hand evaluation."""
    opening = phutball.random_opening(seed * 1_000_003 + pair, 0)
    scores = []
    for candidate_side in ("O", "X"):
        engines = {candidate_side: _engine(candidate, nodes, seed + 2 * pair), ("X" if candidate_side == "O" else "O"): _engine(best, nodes, seed + 2 * pair + 1)}
        game = phutball.Game(opening, move_limit=move_limit)
        while not game.is_over:
            game.push(engines[game.position.to_move].best_move(game))
        winner = game.winner
        scores.append(0.5 if winner is None else 1.0 if winner == candidate_side else 0.0)
    return scores[0], scores[1]


_remote_pair = ray.remote(max_retries=3)(play_pair)


def _summary(scores: List[float]) -> GateResult:
    n = len(scores)
    mean = sum(scores) / n
    deviation = math.sqrt(sum((s - mean) ** 2 for s in scores) / max(n - 1, 1))
    margin = 1.96 * deviation / math.sqrt(n)
    return GateResult(
        games=n,
        wins=sum(s == 1.0 for s in scores),
        draws=sum(s == 0.5 for s in scores),
        losses=sum(s == 0.0 for s in scores),
        score=mean,
        elo=elo(mean),
        elo_low=elo(min(max(mean - margin, 1e-9), 1 - 1e-9)) if mean - margin > 0 else None,
        elo_high=elo(min(max(mean + margin, 1e-9), 1 - 1e-9)) if mean + margin < 1 else None,
    )


def gate(candidate: Optional[bytes], best: Optional[bytes], *, pairs: int, seed: int, nodes: int, move_limit: int,
         address: Optional[str] = None, deadline: Optional[float] = None) -> GateResult:
    """Plays ``pairs`` pairs on Ray (``address``, or a local instance) and
    sums them up. Past ``deadline`` (``time.monotonic()``) the tasks are
    cancelled and ``phutball.SearchTimeoutError`` raised; Ctrl-C cancels
    them too."""
    from phutball.distributed._ray import _with_ray

    def work(stop: Any) -> List[float]:
        refs = [_remote_pair.remote(candidate, best, pair, seed, nodes, move_limit) for pair in range(pairs)]
        try:
            waiting = list(refs)
            while waiting:
                if stop.is_set():
                    raise phutball.SearchTimeoutError("the gate's match ran out of time")
                _, waiting = ray.wait(waiting, num_returns=len(waiting), timeout=0.5)
            return [s for pair in ray.get(refs) for s in pair]
        except BaseException:
            for ref in refs:
                ray.cancel(ref, force=True)
            raise

    return _summary(_with_ray(address, deadline, work, lambda: phutball.SearchTimeoutError("the gate's match ran out of time")))
