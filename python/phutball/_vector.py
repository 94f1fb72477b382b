"""``phutball.VecEnv``: the extension's batch of games with the attributes of
``gymnasium.vector.VectorEnv`` (the spaces, ``metadata``, ``close()``), its
spaces from gymnasium when it is installed, else small stand-ins. Gymnasium
is imported when a space or ``metadata`` is first asked for, not by
``import phutball`` (it is a third of that import's time)."""

from __future__ import annotations

from functools import cached_property
from typing import Any, Callable, Dict, Optional

import numpy as np

from ._phutball import VecEnv as _RustVecEnv

__all__ = ["VecEnv"]


def _spaces() -> Any:
    """Gymnasium's ``spaces`` module when it is installed, else the stand-ins."""
    try:  # pragma: no cover - which branch runs depends on the installation
        from gymnasium import spaces
    except ImportError:  # pragma: no cover
        from . import _spaces as spaces  # type: ignore[no-redef]
    return spaces


def _same_step() -> Any:
    """Gymnasium's same-step autoreset mode (named since gymnasium 1.1)."""
    try:  # pragma: no cover - which branch runs depends on the installation
        from gymnasium.vector import AutoresetMode
    except ImportError:  # pragma: no cover
        return "SameStep"
    return AutoresetMode.SAME_STEP


class _Metadata:
    """``VecEnv.metadata``, made on first use: the autoreset mode is
    gymnasium's, which this imports then."""

    _value: Optional[Dict[str, Any]] = None

    def __get__(self, obj: Any, owner: Any = None) -> Dict[str, Any]:
        if _Metadata._value is None:
            _Metadata._value = {"autoreset_mode": _same_step()}
        return _Metadata._value


class VecEnv(_RustVecEnv):
    """``num_envs`` games stepped together in Rust (see ``docs/python.md``).

    ``reset()`` gives ``(obs, mask)`` and ``step(actions)`` ``(obs, mask,
    rewards, terminated, truncated, info)``; finished games restart at once,
    their last observation in ``info["final_obs"]`` (gymnasium's same-step
    autoreset). The attributes follow ``gymnasium.vector.VectorEnv``; the
    spaces are made once, so seeding one (``env.action_space.seed(1)``) lasts.

    ``opponent=`` makes it single-agent: ``"random"``, ``"engine"`` (with
    ``opponent_limits=``, a dict such as ``{"nodes": 100}``, and
    ``opponent_eval=``, ``"auto"`` (the default), ``"hand"``, ``"net"``,
    ``"net:PATH"`` or a ``Network``, as
    ``Engine(eval=...)`` takes it) or a callable
    ``policy(obs, mask) -> actions`` on the batch of games where the
    opponent is to act (float32 ``(k, C, rows + 2, cols)``, bool ``(k, A)``,
    ``k`` ints back), called until no game waits for it (a jump move is
    several actions). ``agent_side=`` is ``"O"`` (default) or ``"X"``.
    """

    _policy: Optional[Callable[[Any, Any], Any]] = None

    def __new__(cls, num_envs: int, *args: Any, opponent: Any = None, **kwargs: Any) -> "VecEnv":
        policy = None
        if callable(opponent):
            # The extension stops at the opponent's turn; this class asks the callable.
            policy, opponent = opponent, "external"
        self = super().__new__(cls, num_envs, *args, opponent=opponent, **kwargs)
        self._policy = policy
        return self

    def _answer(self, obs: Any, mask: Any, rewards: Any, terminated: Any, truncated: Any,
                to_move: Any, info: Dict[str, Any]) -> Dict[str, Any]:
        """Asks the callable opponent for the waiting games' actions until none
        waits, adding the games that end to ``info`` (``step``'s layout). On
        any error the batch is put back as it was before the step."""
        try:
            waiting = self.waiting()
            while len(waiting):
                actions = self._policy(obs[waiting], mask[waiting])  # type: ignore[misc]
                ended = self.step_waiting_into(actions, obs, mask, rewards, terminated, truncated, to_move)
                if ended:
                    if not info:
                        info.update(final_obs=ended["final_obs"], _final_obs=ended["_final_obs"])
                    for i in ended["_final_obs"].nonzero()[0]:
                        info["final_obs"][i] = ended["final_obs"][i]
                        info["_final_obs"][i] = True
                waiting = self.waiting()
        except BaseException:
            self._restore()
            raise
        return info

    def _check_open(self, what: str) -> None:
        """Raises ``RuntimeError`` for ``what`` after ``close()``."""
        if self.closed:
            raise RuntimeError(f"{what} after close(): the batch is closed; make a new one")

    def reset(self, seed: Optional[int] = None) -> Any:
        """As the extension's; a callable opponent that moves first plays its opening."""
        self._check_open("reset()")
        if self._policy is None:
            return super().reset(seed)
        self._save()
        obs, mask = super().reset(seed)
        self._answer_reset(obs, mask, None)
        return obs, mask

    def reset_into(self, obs: Any, mask: Any, *, seed: Optional[int] = None, to_move: Any = None) -> None:
        """As the extension's; a callable opponent that moves first plays its opening."""
        self._check_open("reset_into()")
        if self._policy is not None:
            self._save()
        super().reset_into(obs, mask, seed=seed, to_move=to_move)
        if self._policy is not None:
            self._answer_reset(obs, mask, to_move)

    def _answer_reset(self, obs: Any, mask: Any, to_move: Any) -> None:
        """The callable's openings after a reset (which end no game)."""
        n = self.num_envs
        scratch = np.zeros(n, np.float32), np.zeros(n, np.bool_), np.zeros(n, np.bool_)
        self._answer(obs, mask, *scratch, to_move, {})

    def step(self, actions: Any) -> Any:
        """As the extension's, with a callable opponent's replies played."""
        self._check_open("step()")
        if self._policy is None:
            return super().step(actions)
        self._save()
        try:
            obs, mask, rewards, terminated, truncated, info = super().step(actions)
        except BaseException:
            self._restore()
            raise
        info = self._answer(obs, mask, rewards, terminated, truncated, None, info)
        return obs, mask, rewards, terminated, truncated, info

    def step_into(self, actions: Any, obs: Any, mask: Any, rewards: Any, terminated: Any,
                  truncated: Any, to_move: Any = None) -> Dict[str, Any]:
        """As the extension's, with a callable opponent's replies played."""
        self._check_open("step_into()")
        if self._policy is None:
            return super().step_into(actions, obs, mask, rewards, terminated, truncated, to_move)
        self._save()
        try:
            info = super().step_into(actions, obs, mask, rewards, terminated, truncated, to_move)
        except BaseException:
            self._restore()
            raise
        return self._answer(obs, mask, rewards, terminated, truncated, to_move, info)

    metadata: Any = _Metadata()
    """As gymnasium's vector environments: the autoreset mode (``SAME_STEP``) and no render modes."""
    render_mode = None
    """Always ``None``: a batch does not render."""
    spec = None
    """Always ``None``: the batch is not made from a registered spec."""
    closed = False
    """Whether ``close()`` was called."""

    @cached_property
    def single_observation_space(self) -> Any:
        """One game's observation: float32 planes in [0, 1]."""
        return _spaces().Box(low=0.0, high=1.0, shape=self.observation_shape, dtype=np.float32)

    @cached_property
    def single_action_space(self) -> Any:
        """One game's action: an index of the action space."""
        return _spaces().Discrete(self.action_count)

    @cached_property
    def observation_space(self) -> Any:
        """The batch's observations, ``(num_envs, C, rows + 2, cols)``."""
        shape = (self.num_envs, *self.observation_shape)
        return _spaces().Box(low=0.0, high=1.0, shape=shape, dtype=np.float32)

    @cached_property
    def action_space(self) -> Any:
        """The batch's actions, one index per game."""
        return _spaces().MultiDiscrete(np.full(self.num_envs, self.action_count, dtype=np.int64))

    @property
    def unwrapped(self) -> "VecEnv":
        """The environment itself (it wraps nothing)."""
        return self

    def sample_actions(self) -> Any:
        """As the extension's (one legal action per game)."""
        self._check_open("sample_actions()")
        return super().sample_actions()

    def states(self) -> Any:
        """As the extension's (each game's state)."""
        self._check_open("states()")
        return super().states()

    def close(self, **kwargs: Any) -> None:
        """Marks the batch closed: ``reset``, ``step`` and their ``_into``
        forms, ``sample_actions`` and ``states`` then raise ``RuntimeError``;
        there is nothing else to release (the games are freed with the
        object)."""
        self.closed = True
