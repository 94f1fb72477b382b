"""Stand-ins for the gymnasium spaces ``PhutballEnv`` uses, when gymnasium
is not installed."""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np


class Discrete:
    """The integers ``0 .. n - 1``."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.shape: Tuple[int, ...] = ()
        self.dtype = np.dtype(np.int64)
        self._rng = np.random.default_rng()

    def seed(self, seed: Optional[int] = None) -> None:
        self._rng = np.random.default_rng(seed)

    def sample(self, mask: Optional[np.ndarray] = None) -> int:
        if mask is None:
            return int(self._rng.integers(self.n))
        choices = np.flatnonzero(mask)
        if len(choices) == 0:
            raise ValueError("the mask allows no action")
        return int(self._rng.choice(choices))

    def contains(self, x: Any) -> bool:
        return isinstance(x, (int, np.integer)) and 0 <= int(x) < self.n

    __contains__ = contains


class MultiDiscrete:
    """Arrays of integers, entry ``i`` in ``0 .. nvec[i] - 1``."""

    def __init__(self, nvec: Any) -> None:
        self.nvec = np.asarray(nvec, dtype=np.int64)
        self.shape: Tuple[int, ...] = self.nvec.shape
        self.dtype = np.dtype(np.int64)
        self._rng = np.random.default_rng()

    def seed(self, seed: Optional[int] = None) -> None:
        self._rng = np.random.default_rng(seed)

    def sample(self) -> np.ndarray:
        return (self._rng.random(self.shape) * self.nvec).astype(np.int64)

    def contains(self, x: Any) -> bool:
        x = np.asarray(x)
        return x.shape == self.shape and x.dtype.kind in "iu" and bool(np.all((0 <= x) & (x < self.nvec)))

    __contains__ = contains


class Box:
    """Arrays of a fixed shape and dtype with values in ``[low, high]``."""

    def __init__(self, low: float, high: float, shape: Tuple[int, ...], dtype: Any) -> None:
        self.low, self.high, self.shape, self.dtype = low, high, tuple(shape), np.dtype(dtype)

    def contains(self, x: Any) -> bool:
        return (
            isinstance(x, np.ndarray)
            and x.shape == self.shape
            and x.dtype == self.dtype
            and bool(np.all(x >= self.low))
            and bool(np.all(x <= self.high))
        )

    __contains__ = contains


class Dict:
    """A dict of named spaces."""

    def __init__(self, spaces: Dict[str, Any]) -> None:
        self.spaces = spaces

    def __getitem__(self, key: str) -> Any:
        return self.spaces[key]

    def contains(self, x: Any) -> bool:
        return isinstance(x, dict) and x.keys() == self.spaces.keys() and all(
            self.spaces[k].contains(v) for k, v in x.items()
        )

    __contains__ = contains
