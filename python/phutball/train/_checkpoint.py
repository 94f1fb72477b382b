"""The trainer's checkpoint: after every epoch, the weights, the optimiser's
state, the best weights so far and the losses, in one ``.npz`` written
atomically (a temporary file, then a rename), with the run's identity, so
that the same command goes on where it stopped and gives the weights an
uninterrupted run gives."""

from __future__ import annotations

import json
import os
import zipfile
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

import numpy as np

FORMAT = 1


@dataclass
class Saved:
    """What a checkpoint holds."""

    epoch: int
    """Epochs finished."""
    params: List[np.ndarray]
    """The weights' leaves, in the order ``jax.tree_util.tree_leaves`` gives."""
    state: List[np.ndarray]
    """The optimiser state's leaves."""
    best: List[np.ndarray]
    """The best weights' leaves."""
    history: Dict[str, Any]
    """The losses so far and the best epoch."""


def save(path: str, identity: Dict[str, Any], saved: Saved) -> None:
    """Writes ``saved`` to ``path`` whole or not at all."""
    arrays = {f"params_{i}": a for i, a in enumerate(saved.params)}
    arrays.update({f"state_{i}": a for i, a in enumerate(saved.state)})
    arrays.update({f"best_{i}": a for i, a in enumerate(saved.best)})
    header = {"format": FORMAT, "identity": identity, "epoch": saved.epoch, "history": saved.history,
              "counts": [len(saved.params), len(saved.state), len(saved.best)]}
    arrays["header"] = np.frombuffer(json.dumps(header, sort_keys=True).encode(), dtype=np.uint8)
    temporary = f"{path}.tmp{os.getpid()}"
    with open(temporary, "wb") as file:
        np.savez(file, **arrays)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def load(path: str, identity: Dict[str, Any]) -> Optional[Saved]:
    """The checkpoint at ``path`` (``None`` if there is none). One of
    another run, another format or that does not read raises ``ValueError``
    saying so, and is left as it is."""
    if not os.path.exists(path):
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(bytes(data["header"]).decode())
            counts = header["counts"]
            leaves = {name: [data[f"{name}_{i}"] for i in range(count)] for name, count in zip(("params", "state", "best"), counts)}
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as e:
        raise ValueError(f"{path}: not a checkpoint of phutball.train, or damaged ({e}): move it away to start again") from e
    if header.get("format") != FORMAT:
        raise ValueError(f"{path}: a checkpoint of format {header.get('format')}; this version reads format {FORMAT}")
    if header["identity"] != identity:
        differ = sorted(k for k in set(identity) | set(header["identity"]) if identity.get(k) != header["identity"].get(k))
        raise ValueError(f"{path}: a checkpoint of another run ({', '.join(differ)} differ): give the same arguments and data, or another checkpoint")
    return Saved(epoch=int(header["epoch"]), params=leaves["params"], state=leaves["state"], best=leaves["best"], history=header["history"])
