"""Training the engine's value network (``docs/network.md``) on self-play
datasets, with JAX and Optax (``pip install "phutball[train]"``).

>>> from phutball import train                                         # doctest: +SKIP
>>> train.train("games", "net.phbnet", epochs=20, seed=1)              # doctest: +SKIP

The command line is ``python -m phutball.train DATASET... --out FILE``; the
engine then plays with ``phutball best --eval net:FILE`` or
``phutball.Engine(eval="net:FILE")``.
"""

from __future__ import annotations

from ._trainer import TrainSummary, train
from ._weights import BoardWeights, weights_bytes

__all__ = ["BoardWeights", "TrainSummary", "train", "weights_bytes"]
