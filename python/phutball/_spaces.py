"""Stand-ins for the gymnasium spaces ``PhutballAECEnv`` and ``VecEnv`` use,
when gymnasium is not installed: the same constructors, ``seed``, ``sample``
and ``contains`` as gymnasium's (tests/python/test_spaces.py compares them)."""

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
        """Reseeds ``sample``."""
        self._rng = np.random.default_rng(seed)

    def sample(self, mask: Optional[np.ndarray] = None) -> int:
        """A random member, among those ``mask`` allows if given."""
        if mask is None:
            return int(self._rng.integers(self.n))
        choices = np.flatnonzero(mask)
        if len(choices) == 0:
            raise ValueError("the mask allows no action")
        return int(self._rng.choice(choices))

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a member: an int, or an integer numpy scalar or 0-d array."""
        if isinstance(x, (np.generic, np.ndarray)):
            if not (np.issubdtype(x.dtype, np.integer) and x.shape == ()):
                return False
        elif not isinstance(x, int):
            return False
        return 0 <= int(x) < self.n

    __contains__ = contains


class MultiDiscrete:
    """Arrays of integers, entry ``i`` in ``0 .. nvec[i] - 1``."""

    def __init__(self, nvec: Any) -> None:
        self.nvec = np.asarray(nvec, dtype=np.int64)
        self.shape: Tuple[int, ...] = self.nvec.shape
        self.dtype = np.dtype(np.int64)
        self._rng = np.random.default_rng()

    def seed(self, seed: Optional[int] = None) -> None:
        """Reseeds ``sample``."""
        self._rng = np.random.default_rng(seed)

    def sample(self) -> np.ndarray:
        """A random member."""
        return (self._rng.random(self.shape) * self.nvec).astype(np.int64)

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a member: an array (or list) of the shape, of a
        dtype that casts to int64 without loss, each entry in range."""
        if isinstance(x, (list, tuple)):
            x = np.array(x)
        return bool(
            isinstance(x, np.ndarray)
            and x.shape == self.shape
            and np.can_cast(x.dtype, self.dtype)
            and np.all(x >= 0)
            and np.all(x < self.nvec)
        )

    __contains__ = contains


class Box:
    """Arrays of a fixed shape and dtype with values in ``[low, high]``."""

    def __init__(self, low: float, high: float, shape: Tuple[int, ...], dtype: Any) -> None:
        self.low, self.high, self.shape, self.dtype = low, high, tuple(shape), np.dtype(dtype)
        self._rng = np.random.default_rng()

    def seed(self, seed: Optional[int] = None) -> None:
        """Reseeds ``sample``."""
        self._rng = np.random.default_rng(seed)

    def sample(self) -> np.ndarray:
        """A random member, uniform in ``[low, high]``."""
        return self._rng.uniform(self.low, self.high, self.shape).astype(self.dtype)

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a member: an array of the shape, of a dtype that
        casts to the box's without loss, within the bounds."""
        if not isinstance(x, np.ndarray):
            try:
                x = np.asarray(x, dtype=self.dtype)
            except (ValueError, TypeError, OverflowError):
                return False
        return bool(
            np.can_cast(x.dtype, self.dtype)
            and x.shape == self.shape
            and np.all(x >= self.low)
            and np.all(x <= self.high)
        )

    __contains__ = contains


class Dict:
    """A dict of named spaces."""

    def __init__(self, spaces: Dict[str, Any]) -> None:
        self.spaces = spaces

    def __getitem__(self, key: str) -> Any:
        return self.spaces[key]

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a dict with the same keys, each value a member of its space."""
        return isinstance(x, dict) and x.keys() == self.spaces.keys() and all(
            self.spaces[k].contains(v) for k, v in x.items()
        )

    __contains__ = contains
