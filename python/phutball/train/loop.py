"""The generation loop (``python -m phutball.train.loop OUT --generations N``):
generation k plays self-play with the best network so far (the hand
evaluation before the first), trains a candidate on the last generations'
games, and plays it against the best; it is promoted only if it scores
more than half, as AlphaZero's and Leela's gates keep a run from sliding.
Every step is kept under ``OUT`` and the loop's record in ``OUT/loop.json``,
so the same command goes on where it stopped.

``OUT/gen-K/data`` is generation K's dataset, ``OUT/gen-K/net.phbnet`` its
candidate (``OUT/gen-K/train.npz`` the trainer's checkpoint), and
``OUT/best.phbnet`` the best network so far (none: the hand evaluation)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from phutball import distributed

from ._gate import GateResult, gate
from ._trainer import train

_RECORD = "loop.json"


@dataclass
class Generation:
    """One generation's record."""

    number: int
    """From 1."""
    played_with: str
    """The evaluation its self-play used: ``"hand"`` or ``"gen-K"``."""
    games: int
    """Self-play games."""
    trained_on: List[str]
    """The generations whose games it trained on."""
    validation_loss: Optional[float]
    """The candidate's best validation loss."""
    gate: Dict[str, Any]
    """The candidate against the best so far (``GateResult`` as a dict)."""
    promoted: bool
    """Whether it became the best."""


@dataclass
class LoopSummary:
    """What the loop has done so far."""

    out: str
    """The loop's directory."""
    generations: List[Generation] = field(default_factory=list)
    """Each finished generation, in order."""
    best: str = "hand"
    """The best so far: ``"hand"`` or ``"gen-K"``."""


def _write_json(path: str, value: Any) -> None:
    temporary = f"{path}.tmp{os.getpid()}"
    with open(temporary, "w", encoding="utf-8") as file:
        json.dump(value, file, indent=1, sort_keys=True)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def loop(
    out: str,
    *,
    generations: int,
    games: int = 500,
    nodes: int = 4000,
    gate_pairs: int = 50,
    gate_nodes: Optional[int] = None,
    window: int = 2,
    seed: int = 0,
    epochs: int = 20,
    hidden: int = 64,
    move_limit: int = 300,
    address: Optional[str] = None,
    timeout: Optional[float] = None,
    progress: bool = True,
) -> LoopSummary:
    """Runs generations until ``generations`` are finished (those of earlier
    calls with the same ``out`` included; other arguments than theirs are
    refused). Each plays ``games`` self-play games at ``nodes`` a move from
    random openings (on Ray: ``address``, or a local instance), trains a
    network of ``hidden`` units for ``epochs`` on the games of the last
    ``window`` generations, and plays ``gate_pairs`` pairs of games at
    ``gate_nodes`` (default ``nodes``) against the best. ``timeout`` (seconds)
    raises ``SearchTimeoutError`` (self-play, the gate) or returns after an
    epoch (training); what was done stays for the next call."""
    settings = {"games": games, "nodes": nodes, "gate_pairs": gate_pairs, "gate_nodes": gate_nodes or nodes,
                "window": window, "seed": seed, "epochs": epochs, "hidden": hidden, "move_limit": move_limit}
    for name, value in settings.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < (0 if name == "seed" else 1):
            raise ValueError(f"{name} must be a whole number, {0 if name == 'seed' else 1} or more, not {value!r}")
    deadline = None if timeout is None else time.monotonic() + timeout
    os.makedirs(out, exist_ok=True)
    record_path = os.path.join(out, _RECORD)
    record: Dict[str, Any] = {"settings": settings, "generations": [], "best": "hand"}
    if os.path.exists(record_path):
        with open(record_path, encoding="utf-8") as file:
            record = json.load(file)
        if record.get("settings") != settings:
            differ = sorted(k for k in settings if record.get("settings", {}).get(k) != settings[k])
            raise ValueError(f"{record_path}: a loop with other settings ({', '.join(differ)} differ): give the same ones, or another out")
    else:
        _write_json(record_path, record)
    best_path = os.path.join(out, "best.phbnet")

    def say(text: str) -> None:
        if progress:
            print(f"phutball.train.loop: {text}", file=sys.stderr, flush=True)

    def left() -> Optional[float]:
        return None if deadline is None else max(0.0, deadline - time.monotonic())

    for number in range(len(record["generations"]) + 1, generations + 1):
        folder = os.path.join(out, f"gen-{number}")
        data = os.path.join(folder, "data")
        os.makedirs(folder, exist_ok=True)
        best_bytes = None
        if record["best"] != "hand":
            with open(best_path, "rb") as file:
                best_bytes = file.read()
        say(f"generation {number}: self-play, {games} games with {record['best']}")
        distributed.selfplay(games, nodes=nodes, seed=seed * 1000 + number, random_openings=True, training=True,
                             move_limit=move_limit, out=data, address=address, timeout=left(),
                             eval="hand" if best_bytes is None else _network(best_bytes))
        sources = [os.path.join(out, f"gen-{k}", "data") for k in range(max(1, number - window + 1), number + 1)]
        say(f"generation {number}: training on {', '.join(os.path.relpath(s, out) for s in sources)}")
        candidate = os.path.join(folder, "net.phbnet")
        trained = train(sources, candidate, hidden=hidden, epochs=epochs, seed=seed * 1000 + number,
                        checkpoint=os.path.join(folder, "train.npz"), timeout=left(), progress=progress,
                        description=f"phutball.train.loop generation {number}")
        if not trained.finished:
            say(f"generation {number}: stopped by the timeout while training")
            return _summary(out, record)
        with open(candidate, "rb") as file:
            candidate_bytes = file.read()
        say(f"generation {number}: the gate, {gate_pairs} pairs against {record['best']}")
        result: GateResult = gate(candidate_bytes, best_bytes, pairs=gate_pairs, seed=seed * 1000 + number,
                                  nodes=gate_nodes or nodes, move_limit=move_limit, address=address,
                                  deadline=deadline)
        promoted = result.score > 0.5
        losses = trained.validation_losses or trained.training_losses
        generation = Generation(number=number, played_with=record["best"], games=games,
                                trained_on=[os.path.relpath(s, out) for s in sources],
                                validation_loss=losses[trained.best_epoch - 1] if losses else None,
                                gate=result.as_dict(), promoted=promoted)
        if promoted:
            temporary = f"{best_path}.tmp{os.getpid()}"
            shutil.copyfile(candidate, temporary)
            os.replace(temporary, best_path)
            record["best"] = f"gen-{number}"
        record["generations"].append(generation.__dict__)
        _write_json(record_path, record)
        say(f"generation {number}: score {result.score:.3f} over {result.games} games (Elo {result.elo}), "
            f"{'promoted' if promoted else 'not promoted'}")
    return _summary(out, record)


def _network(data: bytes) -> Any:
    import phutball

    return phutball.Network.from_bytes(data)


def _summary(out: str, record: Dict[str, Any]) -> LoopSummary:
    return LoopSummary(out=out, generations=[Generation(**g) for g in record["generations"]], best=record["best"])


def main(argv: Optional[List[str]] = None) -> int:
    """``python -m phutball.train.loop``: returns the exit status (0 done, 1
    an error, 2 bad arguments, 3 stopped by ``--timeout``, 130 Ctrl-C)."""
    import phutball

    parser = argparse.ArgumentParser(prog="python -m phutball.train.loop", description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="the loop's directory (made if missing; the same one goes on)")
    parser.add_argument("--generations", type=int, required=True, help="generations to have finished")
    parser.add_argument("--games", type=int, default=500, help="self-play games a generation (default 500)")
    parser.add_argument("--nodes", type=int, default=4000, help="nodes a self-play move (default 4000)")
    parser.add_argument("--gate-pairs", type=int, default=50, help="pairs of gate games (default 50)")
    parser.add_argument("--gate-nodes", type=int, help="nodes a gate move (default --nodes)")
    parser.add_argument("--window", type=int, default=2, help="generations of games a candidate trains on (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="the loop's seed (default 0)")
    parser.add_argument("--epochs", type=int, default=20, help="training epochs (default 20)")
    parser.add_argument("--hidden", type=int, default=64, help="hidden units (default 64)")
    parser.add_argument("--move-limit", type=int, default=300, help="moves before a game is a draw (default 300)")
    parser.add_argument("--address", help="the Ray cluster (default: RAY_ADDRESS, else a local instance)")
    parser.add_argument("--timeout", type=float, help="seconds before stopping; the same command goes on")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    try:
        summary = loop(args.out, generations=args.generations, games=args.games, nodes=args.nodes,
                       gate_pairs=args.gate_pairs, gate_nodes=args.gate_nodes, window=args.window, seed=args.seed,
                       epochs=args.epochs, hidden=args.hidden, move_limit=args.move_limit, address=args.address,
                       timeout=args.timeout, progress=not args.quiet)
    except KeyboardInterrupt:
        print("python -m phutball.train.loop: interrupted; the same command goes on", file=sys.stderr)
        return 130
    except phutball.SearchTimeoutError as e:
        print(f"python -m phutball.train.loop: {e}; the same command goes on", file=sys.stderr)
        return 3
    except ValueError as e:
        print(f"python -m phutball.train.loop: {e}", file=sys.stderr)
        return 1
    for g in summary.generations:
        print(f"gen-{g.number}: played with {g.played_with}, score {g.gate['score']:.3f} in {g.gate['games']} games, "
              f"Elo {g.gate['elo']}, {'promoted' if g.promoted else 'kept ' + 'the best'}")
    print(f"best: {summary.best}")
    return 0 if len(summary.generations) >= args.generations else 3


if __name__ == "__main__":
    sys.exit(main())
