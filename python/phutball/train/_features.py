"""The network's inputs for many positions, from the engine's own feature
code (``phutball.network_features``), kept compact (the men and ball as
padded indices) and made dense one batch at a time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

import phutball


@dataclass
class Inputs:
    """The inputs of ``n`` positions: ``sparse[i]`` holds position ``i``'s
    present sparse features, padded with -1, and ``dense[i]`` its three
    dense ones."""

    sparse: np.ndarray
    """Shape (n, longest), int16 (or int32 on boards of more than 16,383 points), -1 past the end."""
    dense: np.ndarray
    """Shape (n, 3), float32."""
    features: int
    """Inputs of the network: F = 2 * cols * rows + 3."""

    def __len__(self) -> int:
        return int(self.dense.shape[0])

    def batch(self, rows: np.ndarray) -> np.ndarray:
        """The dense input matrix of the positions ``rows``, shape (len(rows), F)."""
        out = np.zeros((len(rows), self.features), dtype=np.float32)
        sparse = self.sparse[rows]
        present = sparse >= 0
        which = np.broadcast_to(np.arange(len(rows))[:, None], sparse.shape)
        out[which[present], sparse[present]] = 1.0
        out[:, self.features - 3 :] = self.dense[rows]
        return out


def inputs_of(positions: Sequence[str], cols: int, rows: int) -> Inputs:
    """The inputs of ``positions``, all of one board size."""
    features = 2 * cols * rows + 3
    offsets, indices, dense = phutball.network_features(positions)
    counts = np.diff(offsets)
    longest = int(counts.max()) if len(counts) else 0
    kind = np.int16 if features < 2**15 else np.int32
    sparse = np.full((len(counts), longest), -1, dtype=kind)
    column = np.arange(len(indices)) - np.repeat(offsets[:-1], counts)
    sparse[np.repeat(np.arange(len(counts)), counts), column] = indices
    return Inputs(sparse=sparse, dense=np.asarray(dense, dtype=np.float32).reshape(-1, 3), features=features)
