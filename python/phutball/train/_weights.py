"""The engine's weights file (``.phbnet``, format version 1), written from
the trainer's arrays exactly as ``docs/network.md`` specifies it; the engine
(``phutball.Network``) is what reads it back."""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from typing import Sequence

import numpy as np

MAGIC = b"phbnet\n\0"
VERSION = 1
MAX_DESCRIPTION = 4096
MAX_NETWORKS = 16
MAX_HIDDEN = 1024


@dataclass(frozen=True)
class BoardWeights:
    """One board size's network: ``w1`` of shape (F, H), input-major, with
    F = 2 * cols * rows + 3; ``b1`` and ``w2`` of H; ``b2`` a number. Values
    in the engine's units (hundredths of a row) at the output."""

    cols: int
    """The board's columns."""
    rows: int
    """The board's rows."""
    w1: np.ndarray
    """First layer, shape (2 * cols * rows + 3, H)."""
    b1: np.ndarray
    """First layer's biases, H of them."""
    w2: np.ndarray
    """Output weights, H of them."""
    b2: float
    """Output bias."""


def feature_count(cols: int, rows: int) -> int:
    """Inputs of a board's network: men and ball on each point, then three dense terms."""
    return 2 * cols * rows + 3


def weights_bytes(description: str, networks: Sequence[BoardWeights]) -> bytes:
    """The bytes of a weights file holding ``networks`` (one a board size)."""
    text = description.encode("utf-8")
    if len(text) > MAX_DESCRIPTION:
        raise ValueError(f"the description is {len(text)} bytes; a weights file holds at most {MAX_DESCRIPTION}")
    if not 1 <= len(networks) <= MAX_NETWORKS:
        raise ValueError(f"a weights file holds 1 to {MAX_NETWORKS} networks, not {len(networks)}")
    if len({(n.cols, n.rows) for n in networks}) != len(networks):
        raise ValueError("two networks serve the same board size")
    parts = [MAGIC, struct.pack("<II", VERSION, len(text)), text, struct.pack("<I", len(networks))]
    for n in networks:
        hidden = int(np.shape(n.b1)[0])
        shape = (feature_count(n.cols, n.rows), hidden)
        if not 1 <= hidden <= MAX_HIDDEN or np.shape(n.w1) != shape or np.shape(n.w2) != (hidden,):
            raise ValueError(f"the {n.cols}x{n.rows} network's shapes are {np.shape(n.w1)}, {np.shape(n.b1)}, {np.shape(n.w2)}; expected {shape}, ({hidden},), ({hidden},)")
        arrays = [np.asarray(a, dtype="<f4") for a in (n.w1, n.b1, n.w2, [n.b2])]
        if not all(np.all(np.isfinite(a)) for a in arrays):
            raise ValueError(f"the {n.cols}x{n.rows} network has a weight that is not finite")
        parts.append(struct.pack("<BBH", n.cols, n.rows, hidden))
        parts.extend(a.tobytes(order="C") for a in arrays)
    body = b"".join(parts)
    return body + struct.pack("<I", zlib.crc32(body))
