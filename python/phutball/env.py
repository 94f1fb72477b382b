"""A PettingZoo AEC environment for step-by-step Phutball.

Agents are ``"O"`` (Ohs, attacks the top) and ``"X"`` (Eks). One ``step`` is one
action of ``Position.apply_action`` / ``JumpInProgress.apply_action``: a
placement (passes the turn), one jump of the ball (keeps the turn: the same
agent acts again) or "end jump" (passes the turn). ``env.position`` is the
state the last step returned: a ``Position`` at the start of a move, a
``JumpInProgress`` during a jump move. The observation is a dict with

- ``"observation"``: ``planes()`` of that state, float32 ``(5, rows + 2,
  cols)`` (channel 3 is all ones during a jump move);
- ``"action_mask"``: int8 ``(action_count,)``, 1 for each legal action of the
  agent to act (all zeros for the other agent).

The game is a ``phutball.Episode``, which states the rule (the same as
``phutball.VecEnv``'s): +1 to the side that scores, -1 to the other, 0
otherwise (an own goal scores for the opponent); reaching ``move_limit``
whole moves without a goal truncates the game (a draw). An illegal action
raises ``phutball.IllegalMoveError`` and leaves the environment unchanged.
This module keeps only PettingZoo's bookkeeping.

The order is PettingZoo's: ``reset()``, then ``step`` the agent in
``agent_selection``; once the game ends every agent is done and is stepped
with ``None`` (any other action raises ``ValueError``) until ``agents`` is
empty. ``step`` before ``reset()``, or after that, raises ``RuntimeError``
saying so (as do ``observe`` and ``last`` before ``reset()``); after
``close()`` every call but ``close`` raises ``RuntimeError``. ``observe`` of
an agent other than ``"O"`` and ``"X"`` raises ``ValueError`` naming it.

With PettingZoo installed the class derives from ``pettingzoo.AECEnv`` and
uses gymnasium spaces; without it, a small stand-in with the same methods is
used, so the environment itself needs only numpy.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Dict, Optional, Union

import numpy as np

from ._phutball import Episode, JumpInProgress, Position, Rules
from ._renamed import old_names

try:  # pragma: no cover - which branch runs depends on the installation
    from gymnasium import spaces
    from pettingzoo import AECEnv

    _pettingzoo_found = True
except ImportError:  # pragma: no cover
    from . import _spaces as spaces  # type: ignore[no-redef]
    from ._aec import AECEnv  # type: ignore[assignment]

    _pettingzoo_found = False

__all__ = ["PhutballAECEnv", "env", "raw_env", "HAVE_PETTINGZOO"]

HAVE_PETTINGZOO: bool = _pettingzoo_found
"""Whether PettingZoo is installed: ``PhutballAECEnv`` is then a PettingZoo ``AECEnv`` (else it stands on a stand-in of its API)."""


# The attribute holding a space's numpy generator: gymnasium's makes it on
# first use (``np_random``), the stand-in's at construction.
_GENERATOR = "_np_random" if HAVE_PETTINGZOO else "_rng"


class _ObservedDiscrete(spaces.Discrete):  # type: ignore[misc]
    """``Discrete(action_count)`` whose ``sample(mask)`` is quick for the mask
    the environment's ``observe`` last gave: the core draws a uniformly
    random legal action of the state that mask came from (the mask's
    nonzero entries), seeded by 64 bits from this space's generator, without
    ``Discrete``'s checks of the mask's type and values (which took 30 us of
    a 40 us step in PettingZoo's random loop) or a pass over the mask. That
    mask is read-only, so it is still the state's mask. Any other mask, or a
    ``probability``, samples as ``Discrete`` does."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self._observed_mask: Optional[np.ndarray] = None
        self._observed_state: Union[Position, JumpInProgress, None] = None
        self._seeded_from: Any = None
        self._bits: Callable[[int], int] = random.Random().getrandbits
        # The actions as np.int64, as Discrete gives: made once (they are
        # immutable), as making one costs a tenth of the step.
        self._actions = tuple(np.int64(i) for i in range(n))

    def observed(self, mask: np.ndarray, state: Union[Position, JumpInProgress]) -> None:
        """Notes the (read-only) mask ``observe`` returns for the acting
        agent and the state it is the mask of."""
        self._observed_mask = mask
        self._observed_state = state

    def sample(self, mask: Optional[np.ndarray] = None, *args: Any, **kwargs: Any) -> Any:
        state = self._observed_state
        if mask is not None and mask is self._observed_mask and state is not None and not args and not kwargs:
            action = state.random_legal_action(self._seed())
            if action is not None:
                return self._actions[action]
        return super().sample(mask, *args, **kwargs)

    def _seed(self) -> int:
        """64 random bits from a Python generator seeded by the space's numpy
        one (``seed()`` replaces that, and so this): a numpy draw costs 1.5
        us, a quarter of the step's own work."""
        rng = getattr(self, _GENERATOR)
        if rng is None or rng is not self._seeded_from:
            rng = self.np_random if HAVE_PETTINGZOO else self._rng
            self._seeded_from = rng
            self._bits = random.Random(int(rng.integers(2**63))).getrandbits
        return self._bits(64)


class PhutballAECEnv(AECEnv):
    """Step-by-step Phutball for two agents, ``"O"`` and ``"X"`` (see the module docs).

    ``start`` is the start ``Position`` (default: the standard start under
    ``rules``); ``move_limit`` the number of whole moves after which the game
    is truncated (``None``: no limit).
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "phutball_v0", "is_parallelizable": False}
    """PettingZoo's metadata: the render modes (``"ansi"``, ``"human"``) and the environment's name."""

    def __init__(
        self,
        start: Optional[Position] = None,
        move_limit: Optional[int] = 200,
        rules: Optional[Rules] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        if start is None:
            start = Position(rules=rules)
        elif not isinstance(start, Position):
            raise TypeError(f"start must be a phutball.Position, not {type(start).__name__}")
        # The episode checks the start and the move limit (ValueError, or
        # TypeError for a move limit that is not an int).
        self._episode = Episode(start, move_limit=move_limit)
        render_modes = self.metadata["render_modes"]
        if render_mode is not None and render_mode not in render_modes:
            raise ValueError(f"render_mode must be one of {render_modes}, not {render_mode!r}")
        self.start_position = start
        """The position every ``reset`` starts from."""
        self.move_limit = move_limit
        """The whole moves after which a game is truncated (``None``: no limit)."""
        self.render_mode = render_mode
        """``None``, ``"ansi"`` (``render`` returns the diagram) or ``"human"`` (it prints it)."""
        self.possible_agents = ["O", "X"]
        """The two agents, named by their sides: ``["O", "X"]``."""
        planes_shape = (5, start.rows + 2, start.cols)
        count = start.action_count
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=1.0, shape=planes_shape, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(count,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: _ObservedDiscrete(count) for agent in self.possible_agents}
        self.position: Union[Position, JumpInProgress] = start
        """Where the game stands: a ``Position``, or a ``JumpInProgress`` in the middle of a jump move."""
        self.moves_played = 0
        """The whole moves played since the last ``reset``."""
        self._has_reset = False
        self._closed = False

    def observation_space(self, agent: str) -> Any:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self._action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        if self._closed:
            self._check_playable("reset()")
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self._action_spaces[agent].seed(seed + i)
        self._episode = Episode(self.start_position, move_limit=self.move_limit)
        self.position = self.start_position
        self.moves_played = 0
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.position.to_move
        self._has_reset = True

    def _check_playable(self, what: str) -> None:
        """Raises ``RuntimeError`` for ``what`` before ``reset()`` or once
        every agent has left the finished episode (PettingZoo's order: reset,
        then step each agent, each done agent with None, until ``agents`` is
        empty), and after ``close()``."""
        if self._closed:
            raise RuntimeError(f"{what} after close(): the environment is closed; make a new one")
        if not self._has_reset:
            raise RuntimeError(f"{what} before reset(): call env.reset() first")
        if not self.agents:
            raise RuntimeError(
                f"{what} after the episode ended: every agent is done and has been "
                "stepped with None; call env.reset() to play again"
            )

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        if not self._has_reset:
            self._check_playable("observe()")
        if agent not in self._action_spaces:
            raise ValueError(f"observe({agent!r}): no such agent; the agents are {self.possible_agents}")
        position = self.position
        if agent == self.agent_selection and not position.is_finished:
            planes, mask = position.planes_and_mask()  # one call; the mask is read-only
            self._action_spaces[agent].observed(mask, position)
            return {"observation": planes, "action_mask": mask}
        mask = np.zeros(position.action_count, dtype=np.int8)
        return {"observation": position.planes(), "action_mask": mask}

    def step(self, action: Optional[int]) -> None:
        if not self._has_reset or not self.agents:  # no call on the hot path
            self._check_playable("step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"agent {agent} is still playing: pass an action, not None")
        # No int(): it would truncate 1.5 and parse "5". The extension takes
        # ints and numpy integers and raises TypeError for anything else.
        transition = self._episode.step(action)
        self.position = transition.state
        self.moves_played = self._episode.moves
        # Both agents play until the end (the dead steps remove them), and
        # the mover is the agent: its reward and the other's opposite one,
        # accumulated as AECEnv._accumulate_rewards does after the agent's
        # own total restarts at 0 (inline: this is the hot path).
        reward = transition.reward
        other = "X" if agent == "O" else "O"
        self.rewards = {agent: reward, other: -reward}
        self._cumulative_rewards[agent] = reward
        self._cumulative_rewards[other] -= reward
        if transition.is_over:
            for a in self.agents:
                self.terminations[a] = transition.terminated
                self.truncations[a] = transition.truncated
        self.agent_selection = self.position.to_move
        if self.render_mode == "human":
            self.render()

    def last(self, observe: bool = True) -> Any:
        """PettingZoo's ``last``, after ``reset()`` only (before it the
        agent to act is not chosen yet)."""
        if not self._has_reset:
            self._check_playable("last()")
        return super().last(observe)

    def render(self) -> Optional[str]:
        if self._closed:
            self._check_playable("render()")
        text = self.position.diagram()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Closes the environment: every later call but ``close`` raises
        ``RuntimeError`` (there is nothing to release)."""
        self._closed = True
        self._has_reset = False  # step()'s one check on the hot path then says why


def raw_env(**kwargs: Any) -> PhutballAECEnv:
    """The environment without wrappers."""
    return PhutballAECEnv(**kwargs)


def env(**kwargs: Any) -> PhutballAECEnv:
    """The environment (PettingZoo's usual constructor name)."""
    return PhutballAECEnv(**kwargs)


# PhutballEnv was this class's name, and phutball.gym's single-game
# environment's too: the old name still works, warning, for one release.
__getattr__ = old_names(__name__, {"PhutballEnv": "PhutballAECEnv"}, globals())
