"""``phutball.VecEnv``: the extension's batch of games with the attributes of
``gymnasium.vector.VectorEnv`` (the spaces, ``metadata``, ``close()``), its
spaces from gymnasium when it is installed, else small stand-ins."""

from __future__ import annotations

from functools import cached_property
from typing import Any, Dict

import numpy as np

from ._phutball import VecEnv as _RustVecEnv

try:  # pragma: no cover - which branch runs depends on the installation
    from gymnasium import spaces
except ImportError:  # pragma: no cover
    from . import _spaces as spaces  # type: ignore[no-redef]

try:  # pragma: no cover - gymnasium >= 1.1 names its autoreset modes
    from gymnasium.vector import AutoresetMode

    _SAME_STEP: Any = AutoresetMode.SAME_STEP
except ImportError:  # pragma: no cover
    _SAME_STEP = "SameStep"

__all__ = ["VecEnv"]


class VecEnv(_RustVecEnv):
    """``num_envs`` games stepped together in Rust (see ``docs/python.md``).

    ``reset()`` gives ``(obs, mask)`` and ``step(actions)`` ``(obs, mask,
    rewards, terminated, truncated, info)``; finished games restart at once,
    their last observation in ``info["final_obs"]`` (gymnasium's same-step
    autoreset). The attributes follow ``gymnasium.vector.VectorEnv``; the
    spaces are made once, so seeding one (``env.action_space.seed(1)``) lasts.
    """

    #: As gymnasium's vector environments: the autoreset convention, no rendering.
    metadata: Dict[str, Any] = {"autoreset_mode": _SAME_STEP}
    render_mode = None
    spec = None
    closed = False

    @cached_property
    def single_observation_space(self) -> Any:
        """One game's observation: float32 planes in [0, 1]."""
        return spaces.Box(low=0.0, high=1.0, shape=self.observation_shape, dtype=np.float32)

    @cached_property
    def single_action_space(self) -> Any:
        """One game's action: an index of the action space."""
        return spaces.Discrete(self.action_count)

    @cached_property
    def observation_space(self) -> Any:
        """The batch's observations, ``(num_envs, C, rows + 2, cols)``."""
        shape = (self.num_envs, *self.observation_shape)
        return spaces.Box(low=0.0, high=1.0, shape=shape, dtype=np.float32)

    @cached_property
    def action_space(self) -> Any:
        """The batch's actions, one index per game."""
        return spaces.MultiDiscrete(np.full(self.num_envs, self.action_count, dtype=np.int64))

    @property
    def unwrapped(self) -> "VecEnv":
        """The environment itself (it wraps nothing)."""
        return self

    def close(self, **kwargs: Any) -> None:
        """Marks the batch closed; there is nothing else to release (the games
        are freed with the object)."""
        self.closed = True
