"""Gymnasium environments for step-by-step Phutball (needs ``gymnasium>=1.1``).

- ``PhutballVectorEnv``: a ``gymnasium.vector.VectorEnv`` of ``num_envs``
  games stepped together in Rust (the extension's ``VecEnv``), writing into
  arrays made once (no allocation per step), same-step autoreset.
- ``PhutballGymEnv``: one game as a ``gymnasium.Env`` (it steps a
  ``phutball.Episode``), the same spaces unbatched.

Importing this module registers both as ``"Phutball-v0"``::

    import gymnasium
    import phutball.gym

    envs = gymnasium.make_vec("Phutball-v0", num_envs=256, cols=5, rows=7)
    env = gymnasium.make("Phutball-v0", cols=5, rows=7)

(``gymnasium.make_vec("phutball.gym:Phutball-v0", ...)`` imports it itself.)

An observation is ``planes()`` of the state, float32 ``(5, rows + 2, cols)``;
an action is an index of the fixed action space (``Discrete(action_count)``).
``info["action_mask"]`` (bool, ``(action_count,)`` a game) marks the legal
actions of the side to act, ``info["to_move"]`` (int8) says who that is: 0
for Ohs, 1 for Eks. An illegal action raises ``phutball.IllegalMoveError``
and changes no game.

Self-play is the mode: one agent plays both sides. The reward of a step is
the reward of the side that took the action (the mover, ``to_move`` before
the step): +1.0 if it scored, -1.0 for an own goal, else 0.0 (a jump keeps
the turn, so a side can act several times in a row). For one side's view,
keep ``to_move`` before the step: Ohs' reward is ``rewards`` where the mover
was 0 and ``-rewards`` where it was 1.

Single-agent play: ``opponent="random"``, ``"engine"`` (``opponent_limits=``,
e.g. ``{"nodes": 100}``, the default; ``opponent_eval=``, ``"auto"``, the
default, ``"hand"``, ``"net"``, ``"net:PATH"`` or a ``phutball.Network``) or a callable ``policy(obs, mask) ->
actions`` on the batch of games where the opponent is to act, with
``agent_side="O"`` (default) or ``"X"``. Each step then takes the agent's
action and, when it passes the turn, the opponent's whole move; every
observation is the agent's turn and the reward is the agent's (+1 it won
in the step, -1 it lost: its own goal or the opponent's goal). The random
and engine opponents play in Rust, on the batch's threads.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ._phutball import Episode, IllegalMoveError, JumpInProgress, Network, Position, Rules
from ._renamed import old_names
from ._vector import VecEnv as _RustVecEnv

__all__ = ["PhutballGymEnv", "PhutballVectorEnv", "LegalDiscrete", "ENV_ID"]

ENV_ID = "Phutball-v0"
"""The id both environments are registered under."""

#: The channel of the planes that is all ones when Ohs is to move.
_OHS_CHANNEL = 2


def _check_options(options: Optional[Dict[str, Any]]) -> None:
    """Refuses reset options: a game always restarts at the start position."""
    if options:
        raise ValueError(f"Phutball's reset takes no options, not {sorted(options)}")


def _planes_space(cols: int, rows: int) -> spaces.Box:
    """One game's observation: float32 planes in [0, 1]."""
    return spaces.Box(low=0.0, high=1.0, shape=(5, rows + 2, cols), dtype=np.float32)


class LegalDiscrete(spaces.Discrete):
    """``Discrete(action_count)`` whose ``sample()`` (with no ``mask`` or
    ``probability``) draws uniformly among the legal actions of the game as
    it stands, read from ``legal_mask()``: a random agent plays legal moves
    (most of the action space is jumps, illegal at most times). With a
    ``mask`` or ``probability`` it samples as ``Discrete`` does; once the
    game is over (no legal action) it gives 0. ``contains`` is
    ``Discrete``'s: every index is in the space."""

    def __init__(self, n: int, legal_mask: Callable[[], np.ndarray], seed: Optional[int] = None) -> None:
        super().__init__(n, seed=seed)
        self._legal_mask = legal_mask

    def sample(self, mask: Optional[np.ndarray] = None, probability: Optional[np.ndarray] = None) -> np.int64:
        """A legal action (see the class docs), or ``Discrete.sample``'s with a mask."""
        if mask is None and probability is None:
            mask = self._legal_mask().astype(np.int8)
        return super().sample(mask=mask, probability=probability)


class PhutballVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of Phutball stepped together in Rust, as a
    ``gymnasium.vector.VectorEnv`` (Gymnasium 1.x API, same-step autoreset).

    ``reset(seed=None, options=None)`` returns ``(obs, infos)`` and
    ``step(actions)`` ``(obs, rewards, terminations, truncations, infos)``:
    ``obs`` float32 ``(N, 5, rows + 2, cols)``, ``rewards`` float32 ``(N,)``
    (the mover's), the flags bool ``(N,)`` (a goal; ``move_limit`` whole
    moves without one). ``infos["action_mask"]`` is bool ``(N,
    action_count)``, ``infos["to_move"]`` int8 ``(N,)`` (0 Ohs, 1 Eks), each
    with its all-true ``_`` mask. A game that ends restarts in the same step:
    ``obs`` shows the new game, and ``infos["final_obs"][i]`` (an object
    array) and ``infos["final_info"]`` (``action_mask`` all false and
    ``to_move`` of the last state) hold the ended game's, where
    ``infos["_final_obs"]`` and ``infos["_final_info"]`` are true.

    The arrays returned are the same objects every step, overwritten in
    place by the next ``reset`` or ``step``: copy what you keep. ``seed``
    seeds the batch's generator (``sample_actions``) and the action spaces;
    ``reset(seed=)`` reseeds them. ``jobs`` is the threads a step may use
    (``None``: every core; one per 128 games at most). ``opponent``,
    ``opponent_limits``, ``opponent_eval`` and ``agent_side`` make it
    single-agent (see the module docs).
    """

    metadata: Dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["ansi"]}
    """Gymnasium's metadata: same-step autoreset, and the one render mode, ``"ansi"``."""

    def __init__(
        self,
        num_envs: int = 1,
        *,
        cols: int = 15,
        rows: int = 19,
        rules: Optional[Rules] = None,
        move_limit: Optional[int] = 200,
        seed: Optional[int] = None,
        jobs: Optional[int] = None,
        render_mode: Optional[str] = None,
        opponent: Any = None,
        opponent_limits: Optional[Dict[str, int]] = None,
        agent_side: str = "O",
        opponent_eval: Union[str, Network, None] = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        # The extension checks every argument (ValueError, TypeError).
        self._env = _RustVecEnv(
            num_envs,
            cols=cols,
            rows=rows,
            rules=rules,
            move_limit=move_limit,
            seed=seed,
            jobs=jobs,
            opponent=opponent,
            opponent_limits=opponent_limits,
            agent_side=agent_side,
            opponent_eval=opponent_eval,
        )
        self.num_envs = n = self._env.num_envs
        self.render_mode = render_mode
        """``None`` or ``"ansi"`` (``render`` returns the games' diagrams)."""
        count = self._env.action_count
        self.single_observation_space = _planes_space(cols, rows)
        """One game's observation space: float32 planes ``(5, rows + 2, cols)``."""
        self.single_action_space = spaces.Discrete(count)
        """One game's action space: ``Discrete(action_count)``."""
        self.observation_space = batch_space(self.single_observation_space, n)
        """The batch's observation space: ``num_envs`` games' planes."""
        self.action_space = batch_space(self.single_action_space, n)
        """The batch's action space: one action a game."""
        if seed is not None:
            self._seed_spaces(seed)
        # The buffers every step writes into (numpy.empty: each value is written).
        self._obs = np.empty((n, *self._env.observation_shape), dtype=np.float32)
        self._mask = np.zeros((n, count), dtype=np.bool_)
        self._rewards = np.zeros(n, dtype=np.float32)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._to_move = np.zeros(n, dtype=np.int8)
        self._every = np.ones(n, dtype=np.bool_)
        self._has_reset = False

    def _check_open(self, what: str) -> None:
        """Raises ``RuntimeError`` for ``what`` after ``close()``."""
        if self.closed:
            raise RuntimeError(f"{what} after close(): the environments are closed; make new ones")

    def close_extras(self, **kwargs: Any) -> None:
        """After ``close()`` (gymnasium's, which sets ``closed``), every call
        but ``close`` raises ``RuntimeError``; there is nothing to release."""
        self._has_reset = False  # step()'s one check on the hot path then says why

    def _seed_spaces(self, seed: int) -> None:
        """Seeds the action spaces (their ``sample()``)."""
        self.action_space.seed(seed)
        self.single_action_space.seed(seed)

    def _infos(self) -> Dict[str, Any]:
        """A new dict (wrappers add keys to it) of the reused arrays."""
        return {
            "action_mask": self._mask,
            "_action_mask": self._every,
            "to_move": self._to_move,
            "_to_move": self._every,
        }

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Every game back at the start; ``seed`` reseeds the generator and
        the action spaces. Returns ``(obs, infos)``."""
        self._check_open("reset()")
        _check_options(options)
        super().reset(seed=seed)
        if seed is not None:
            self._seed_spaces(seed)
        self._env.reset_into(self._obs, self._mask, seed=seed, to_move=self._to_move)
        self._has_reset = True
        return self._obs, self._infos()

    def step(
        self, actions: Any
    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """Takes ``actions[i]`` (an int array or sequence of ``num_envs``) in
        game ``i``. Raises ``IllegalMoveError`` naming the game (then no game
        changes, but the arrays may hold part of the step), ``ValueError``
        for a wrong shape, ``TypeError`` for non-integers, ``RuntimeError``
        before ``reset()`` or after ``close()``."""
        if not self._has_reset:
            self._check_open("step()")
            raise RuntimeError("step() before reset(): call envs.reset() first")
        ended = self._env.step_into(
            actions, self._obs, self._mask, self._rewards, self._terminated, self._truncated, self._to_move
        )
        infos = self._infos()
        if ended:
            self._add_final(infos, ended["final_obs"], ended["_final_obs"])
        return self._obs, self._rewards, self._terminated, self._truncated, infos

    def _add_final(self, infos: Dict[str, Any], final_obs: np.ndarray, ended: np.ndarray) -> None:
        """The ended games' last observations and infos, laid out as
        ``SyncVectorEnv`` lays out those of ``PhutballGymEnv`` (allocated only
        in the steps where games end)."""
        to_move = np.zeros(self.num_envs, dtype=np.int8)
        for i in np.flatnonzero(ended):
            to_move[i] = final_obs[i][_OHS_CHANNEL, 0, 0] == 0
        infos["final_obs"] = final_obs
        infos["_final_obs"] = ended
        infos["final_info"] = {
            # An ended episode takes no action (PhutballGymEnv's mask is all false).
            "action_mask": np.zeros_like(self._mask),
            "_action_mask": ended.copy(),
            "to_move": to_move,
            "_to_move": ended.copy(),
        }
        infos["_final_info"] = ended.copy()

    def sample_actions(self) -> np.ndarray:
        """One legal action per game, uniformly at random from the batch's
        generator (``seed``), as a new int64 array."""
        self._check_open("sample_actions()")
        return self._env.sample_actions()

    def states(self) -> List[Union[JumpInProgress, Position]]:
        """Each game's state: a ``Position``, or a ``JumpInProgress`` mid-jump."""
        self._check_open("states()")
        return self._env.states()

    def render(self) -> Optional[Tuple[str, ...]]:
        """With ``render_mode="ansi"``, each game's diagram; else ``None``."""
        self._check_open("render()")
        if self.render_mode != "ansi":
            return None
        return tuple(state.diagram() for state in self._env.states())


class PhutballGymEnv(gymnasium.Env):
    """One game of Phutball as a ``gymnasium.Env``: it steps a
    ``phutball.Episode`` from the start of a ``cols`` x ``rows`` board.

    ``reset`` returns ``(obs, info)`` and ``step(action)`` ``(obs, reward,
    terminated, truncated, info)``, with ``PhutballVectorEnv``'s meanings
    for one game (the reward is the mover's; ``info["action_mask"]`` bool,
    all false once the episode is over, truncated too; ``info["to_move"]``
    an int8, 0 Ohs, 1 Eks). Every call returns new arrays. After the game ends, ``step``
    raises ``IllegalMoveError`` until ``reset()``.

    With ``opponent=`` (as ``PhutballVectorEnv``'s: ``"random"``,
    ``"engine"`` with ``opponent_limits=`` and ``opponent_eval=``, or a callable on batches, here
    of one game) the agent plays ``agent_side`` and the opponent replies in
    the same step; the game is a one-game ``phutball.VecEnv`` then, and
    ``state`` is ``None`` once the episode is over.
    """

    # render_fps as gymnasium's text environments (Taxi) declare it; nothing waits on it.
    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}
    """Gymnasium's metadata: the one render mode, ``"ansi"``, and a nominal ``render_fps``."""

    def __init__(
        self,
        *,
        cols: int = 15,
        rows: int = 19,
        rules: Optional[Rules] = None,
        move_limit: Optional[int] = 200,
        render_mode: Optional[str] = None,
        opponent: Any = None,
        opponent_limits: Optional[Dict[str, int]] = None,
        agent_side: str = "O",
        opponent_eval: Union[str, Network, None] = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self._batch: Optional[_RustVecEnv] = None
        self._over = False
        if opponent is not None or opponent_limits is not None or opponent_eval is not None or agent_side != "O":
            # The extension checks every argument (ValueError, TypeError).
            self._batch = _RustVecEnv(
                1,
                cols=cols,
                rows=rows,
                rules=rules,
                move_limit=move_limit,
                jobs=1,
                opponent=opponent,
                opponent_limits=opponent_limits,
                agent_side=agent_side,
                opponent_eval=opponent_eval,
            )
        self._start = Position.start(cols=cols, rows=rows, rules=rules)
        # The episode checks the move limit (ValueError, TypeError).
        self._episode = Episode(self._start, move_limit=move_limit)
        self.move_limit = move_limit
        """The whole moves after which a game is truncated (``None``: no limit)."""
        self.render_mode = render_mode
        """``None`` or ``"ansi"`` (``render`` returns the diagram)."""
        self.observation_space = _planes_space(cols, rows)
        """The observation space: float32 planes ``(5, rows + 2, cols)``."""
        self.action_space = LegalDiscrete(self._start.action_count, self._legal_mask)
        """The action space: ``LegalDiscrete``, whose ``sample()`` draws a legal action."""
        self._closed = False

    def _check_open(self, what: str) -> None:
        """Raises ``RuntimeError`` for ``what`` after ``close()``."""
        if self._closed:
            raise RuntimeError(f"{what} after close(): the environment is closed; make a new one")

    def close(self) -> None:
        """Closes the environment: every later call but ``close`` raises
        ``RuntimeError`` (there is nothing to release)."""
        self._closed = True

    def _legal_mask(self) -> np.ndarray:
        """The actions the episode can take now: none once it is over, at
        the move limit too (an ended episode takes no action)."""
        if self._batch is not None:
            if self._over:
                return np.zeros(self._start.action_count, dtype=np.bool_)
            return self._batch.states()[0].legal_action_mask()
        if self._episode.is_over:
            return np.zeros(self._start.action_count, dtype=np.bool_)
        return self._episode.state.legal_action_mask()

    def _observe(self) -> Tuple[np.ndarray, Dict[str, Any]]:
        """The state's planes and its info."""
        state = self._episode.state if self._batch is None else self._batch.states()[0]
        info = {"action_mask": self._legal_mask(), "to_move": np.int8(state.to_move == "X")}
        return state.planes(), info

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """The game back at the start; ``seed`` seeds ``np_random`` and the
        action space. Returns ``(obs, info)``."""
        self._check_open("reset()")
        _check_options(options)
        super().reset(seed=seed)
        if seed is not None:
            self.action_space.seed(seed)
        self._episode = Episode(self._start, move_limit=self.move_limit)
        if self._batch is not None:
            self._batch.reset(seed)
            self._over = False
        return self._observe()

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        """Takes ``action`` (an int). Raises ``IllegalMoveError`` for an
        action the game cannot take, or once it is over (nothing changes),
        and ``RuntimeError`` after ``close()``."""
        self._check_open("step()")
        if self._batch is not None:
            return self._step_against(action)
        transition = self._episode.step(action)
        obs, info = self._observe()
        return obs, transition.reward, transition.terminated, transition.truncated, info

    def _step_against(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        """``step`` with an opponent: the one-game batch's step (which
        restarts an ended game: its last observation is in the info)."""
        assert self._batch is not None
        if self._over:
            raise IllegalMoveError("the episode is over: reset it to play again")
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"action must be an int, not {type(action).__name__}")
        obs, _, rewards, terminated, truncated, info = self._batch.step([int(action)])
        if terminated[0] or truncated[0]:
            self._over = True
            obs = info["final_obs"][0]
            return obs, float(rewards[0]), bool(terminated[0]), bool(truncated[0]), {
                "action_mask": self._legal_mask(),
                "to_move": np.int8(obs[_OHS_CHANNEL, 0, 0] == 0),
            }
        obs, info = self._observe()
        return obs, float(rewards[0]), False, False, info

    @property
    def state(self) -> Any:
        """The state now: a ``Position``, or a ``JumpInProgress`` mid-jump
        (``None`` once an episode with an opponent is over)."""
        self._check_open("state")
        if self._batch is not None:
            return None if self._over else self._batch.states()[0]
        return self._episode.state

    def render(self) -> Optional[str]:
        """With ``render_mode="ansi"``, the diagram of the state; else ``None``."""
        self._check_open("render()")
        if self.render_mode != "ansi" or self.state is None:
            return None
        return self.state.diagram()


if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        ENV_ID,
        entry_point="phutball.gym:PhutballGymEnv",
        vector_entry_point="phutball.gym:PhutballVectorEnv",
    )


# PhutballEnv was this class's name, and phutball.env's PettingZoo
# environment's too: the old name still works, warning, for one release.
__getattr__ = old_names(__name__, {"PhutballEnv": "PhutballGymEnv"}, globals())
