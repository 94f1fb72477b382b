"""The training run: examples read, inputs made, epochs of Adam over
shuffled batches, a checkpoint after each, and the best weights (by
validation loss) exported as the engine's weights file."""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

import phutball

from . import _checkpoint
from ._data import Examples, read_examples
from ._features import Inputs, inputs_of
from ._model import export, init_params, jax, make_evaluate, make_step, optax
from ._weights import weights_bytes


@dataclass
class TrainSummary:
    """What a training run did."""

    out: str
    """The weights file's path (written only when the run finished)."""
    board: Tuple[int, int]
    """The board size (columns, rows) the network serves."""
    epochs: int
    """Epochs finished, those of earlier runs resumed from included."""
    training_losses: List[float] = field(default_factory=list)
    """The mean training loss of each epoch."""
    validation_losses: List[float] = field(default_factory=list)
    """The validation loss after each epoch (empty without a validation set)."""
    best_epoch: int = 0
    """The epoch (from 1) whose weights were exported: the lowest validation loss (training loss without a validation set)."""
    training_positions: int = 0
    """Distinct positions trained on."""
    validation_positions: int = 0
    """Distinct positions of the validation games that no training game has."""
    plies: int = 0
    """Rows read of this board size (one a move played)."""
    finished: bool = True
    """``False`` when ``timeout`` stopped the run first (the checkpoint, if any, holds its epochs)."""


def _board(examples: List[Examples], board: Optional[Union[str, Tuple[int, int]]]) -> Examples:
    sizes = [f"{e.cols}x{e.rows}" for e in examples]
    if not examples:
        raise ValueError("the datasets hold no training rows")
    if board is None:
        if len(examples) > 1:
            raise ValueError(f"the datasets hold positions of several board sizes ({', '.join(sizes)}): choose one with board=")
        return examples[0]
    wanted = board if isinstance(board, str) else f"{board[0]}x{board[1]}"
    for e in examples:
        if f"{e.cols}x{e.rows}" == wanted:
            return e
    raise ValueError(f"the datasets hold no positions of the {wanted} board (they hold {', '.join(sizes)})")


def _mean_loss(evaluate: Any, params: Any, inputs: Inputs, targets: np.ndarray, batch_size: int) -> float:
    total = 0.0
    for start in range(0, len(inputs), batch_size):
        rows = np.arange(start, min(start + batch_size, len(inputs)))
        total += float(evaluate(params, inputs.batch(rows), targets[rows])) * len(rows)
    return total / max(len(inputs), 1)


def _say(progress: bool, text: str) -> None:
    if progress:
        print(f"phutball.train: {text}", file=sys.stderr, flush=True)


def train(
    datasets: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]],
    out: Union[str, "os.PathLike[str]"],
    *,
    board: Optional[Union[str, Tuple[int, int]]] = None,
    hidden: int = 64,
    epochs: int = 20,
    batch_size: int = 1024,
    learning_rate: float = 1e-3,
    seed: int = 0,
    validation: float = 0.1,
    score_weight: float = 0.5,
    scale: float = 200.0,
    checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None,
    timeout: Optional[float] = None,
    progress: bool = True,
    description: str = "",
) -> TrainSummary:
    """Trains the engine's value network (``docs/network.md``) on self-play
    datasets and writes its weights file to ``out``.

    ``datasets``: dataset directories or ``s3://`` URIs made by
    ``phutball.distributed.selfplay(training=True)``, read as ``verify``
    reads them (a damaged or unfinished dataset is refused). Their games are
    split into training and validation sets (a ``validation`` fraction, by a
    hash of ``seed``, the dataset and the game), positions deduplicated,
    and each position's target is ``score_weight`` of the search's score
    (through a logistic of ``scale`` hundredths of a row) and the rest of
    the game's result. ``board`` (``"15x19"`` or ``(15, 19)``) picks the board
    size when the datasets hold several.

    ``hidden`` units, ``epochs`` of Adam (``learning_rate``) over batches of
    ``batch_size`` in an order drawn from ``seed`` and the epoch: the same
    arguments and data give the same weights. With ``checkpoint`` (a file
    path) the state is saved after every epoch and the same call goes on
    from it. ``timeout`` (seconds) stops the run at the next batch (the
    epoch under way is not kept) and returns with ``finished`` false and no
    weights written; Ctrl-C raises ``KeyboardInterrupt`` the same way.
    Progress lines go to stderr unless ``progress`` is false. The weights of
    the epoch with the lowest validation loss are written, with
    ``description`` and the run's settings in the file's description."""
    for name, value, least in (("hidden", hidden, 1), ("epochs", epochs, 1), ("batch_size", batch_size, 1)):
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise ValueError(f"{name} must be a whole number, {least} or more, not {value!r}")
    if hidden > 1024:
        raise ValueError(f"hidden must be at most 1024 (the weights file's limit), not {hidden}")
    if not learning_rate > 0:
        raise ValueError(f"learning_rate must be positive, not {learning_rate}")
    if timeout is not None and not timeout >= 0:
        raise ValueError(f"timeout must be a number of seconds, 0 or more, or None, not {timeout}")
    deadline = None if timeout is None else time.monotonic() + timeout
    sources = [os.fspath(datasets)] if isinstance(datasets, (str, os.PathLike)) else [os.fspath(d) for d in datasets]
    started = time.monotonic()
    examples = _board(read_examples(sources, validation=validation, seed=seed, score_weight=score_weight, scale=scale), board)
    cols, rows = examples.cols, examples.rows
    if not examples.training.positions:
        raise ValueError(f"no training positions of the {cols}x{rows} board (validation={validation} took every game)")
    _say(progress, f"{examples.plies} plies of {cols}x{rows}: {len(examples.training.positions)} training and "
         f"{len(examples.validation.positions)} validation positions ({time.monotonic() - started:.1f} s)")
    training = inputs_of(examples.training.positions, cols, rows)
    checking = inputs_of(examples.validation.positions, cols, rows) if examples.validation.positions else None

    settings = {"board": f"{cols}x{rows}", "hidden": hidden, "batch_size": batch_size, "learning_rate": learning_rate,
                "seed": seed, "validation": validation, "score_weight": score_weight, "scale": scale}
    fingerprint = _fingerprint(examples)
    identity = {**settings, "data": fingerprint}
    optimizer = optax.adam(learning_rate)
    params = init_params(jax.random.PRNGKey(seed), cols, rows, hidden)
    state = optimizer.init(params)
    best = params
    history: Dict[str, Any] = {"training": [], "validation": [], "best_epoch": 0, "best_loss": None}
    done = 0
    if checkpoint is not None:
        saved = _checkpoint.load(os.fspath(checkpoint), identity)
        if saved is not None:
            params = jax.tree_util.tree_unflatten(jax.tree_util.tree_structure(params), saved.params)
            state = jax.tree_util.tree_unflatten(jax.tree_util.tree_structure(state), saved.state)
            best = jax.tree_util.tree_unflatten(jax.tree_util.tree_structure(best), saved.best)
            history, done = saved.history, saved.epoch
            _say(progress, f"resumed from {os.fspath(checkpoint)} after epoch {done}")

    step, evaluate = make_step(optimizer, scale), make_evaluate(scale)
    summary = TrainSummary(out=os.fspath(out), board=(cols, rows), epochs=done,
                           training_positions=len(examples.training.positions),
                           validation_positions=len(examples.validation.positions), plies=examples.plies)
    targets = examples.training.targets
    for epoch in range(done, epochs):
        epoch_started = time.monotonic()
        order = np.random.default_rng([seed, epoch]).permutation(len(training))
        trial, trial_state, total = params, state, 0.0
        for start in range(0, len(order), batch_size):
            if deadline is not None and time.monotonic() > deadline:
                summary.finished = False
                break
            batch = order[start : start + batch_size]
            trial, trial_state, value = step(trial, trial_state, training.batch(batch), targets[batch])
            total += float(value) * len(batch)
        if not summary.finished:
            _say(progress, f"timeout: stopped in epoch {epoch + 1}; {done} epochs kept")
            break
        params, state, done = trial, trial_state, epoch + 1
        history["training"].append(total / len(order))
        measured = history["training"][-1]
        if checking is not None:
            measured = _mean_loss(evaluate, params, checking, examples.validation.targets, batch_size)
            history["validation"].append(measured)
        if history["best_loss"] is None or measured < history["best_loss"]:
            history["best_loss"], history["best_epoch"], best = measured, done, params
        shown = f", validation loss {history['validation'][-1]:.5f}" if checking is not None else ""
        _say(progress, f"epoch {done}/{epochs}: training loss {history['training'][-1]:.5f}{shown} ({time.monotonic() - epoch_started:.1f} s)")
        if checkpoint is not None:
            leaves = jax.tree_util.tree_leaves
            _checkpoint.save(os.fspath(checkpoint), identity, _checkpoint.Saved(
                epoch=done, params=[np.asarray(a) for a in leaves(params)], state=[np.asarray(a) for a in leaves(state)],
                best=[np.asarray(a) for a in leaves(best)], history=history))
    summary.epochs = done
    summary.training_losses = list(history["training"])
    summary.validation_losses = list(history["validation"])
    summary.best_epoch = history["best_epoch"]
    if not summary.finished:
        return summary
    text = json.dumps({"trainer": "phutball.train", "version": phutball.__version__, **settings, "epochs": epochs,
                       "best_epoch": summary.best_epoch, "best_loss": history["best_loss"],
                       "training_positions": summary.training_positions, "data": fingerprint,
                       **({"note": description} if description else {})}, sort_keys=True)
    data = weights_bytes(text, [export(best, cols, rows)])
    temporary = f"{os.fspath(out)}.tmp{os.getpid()}"
    with open(temporary, "wb") as file:
        file.write(data)
    os.replace(temporary, os.fspath(out))
    _say(progress, f"wrote {os.fspath(out)} ({len(data)} bytes): epoch {summary.best_epoch}'s weights")
    return summary


def _fingerprint(examples: Examples) -> str:
    """A short hash of the examples (positions and targets of both sets), so
    that a checkpoint is not resumed on other data."""
    import hashlib

    digest = hashlib.sha256()
    for split in (examples.training, examples.validation):
        digest.update("\n".join(split.positions).encode())
        digest.update(np.asarray(split.targets, dtype="<f4").tobytes())
    return digest.hexdigest()[:16]
