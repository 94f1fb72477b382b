"""``phutball.VecEnv``: the extension's batch of games with gymnasium-style
spaces (``single_observation_space``, ``single_action_space`` and their
batched forms), from gymnasium when it is installed, else small stand-ins."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._phutball import VecEnv as _RustVecEnv

try:  # pragma: no cover - which branch runs depends on the installation
    from gymnasium import spaces
except ImportError:  # pragma: no cover
    from . import _spaces as spaces  # type: ignore[no-redef]

__all__ = ["VecEnv"]


class VecEnv(_RustVecEnv):
    """``num_envs`` games stepped together in Rust (see ``docs/python.md``).

    ``reset()`` gives ``(obs, mask)`` and ``step(actions)`` ``(obs, mask,
    rewards, terminated, truncated, info)``; finished games restart at once,
    their last observation in ``info["final_obs"]`` (gymnasium's same-step
    autoreset). The spaces follow gymnasium's vector environments.
    """

    @property
    def single_observation_space(self) -> Any:
        """One game's observation: float32 planes in [0, 1]."""
        return spaces.Box(low=0.0, high=1.0, shape=self.observation_shape, dtype=np.float32)

    @property
    def single_action_space(self) -> Any:
        """One game's action: an index of the action space."""
        return spaces.Discrete(self.action_count)

    @property
    def observation_space(self) -> Any:
        """The batch's observations, ``(num_envs, C, rows + 2, cols)``."""
        shape = (self.num_envs, *self.observation_shape)
        return spaces.Box(low=0.0, high=1.0, shape=shape, dtype=np.float32)

    @property
    def action_space(self) -> Any:
        """The batch's actions, one index per game."""
        return spaces.MultiDiscrete(np.full(self.num_envs, self.action_count, dtype=np.int64))
