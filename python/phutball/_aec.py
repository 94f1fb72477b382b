"""A stand-in for ``pettingzoo.AECEnv`` when PettingZoo is not installed:
the same bookkeeping methods the environment relies on."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Tuple


class AECEnv:
    """The parts of PettingZoo's ``AECEnv`` that ``PhutballAECEnv`` uses."""

    possible_agents: List[str]
    agents: List[str]
    agent_selection: str
    rewards: Dict[str, float]
    _cumulative_rewards: Dict[str, float]
    terminations: Dict[str, bool]
    truncations: Dict[str, bool]
    infos: Dict[str, Dict[str, Any]]

    def __init__(self) -> None:
        pass

    def last(self, observe: bool = True) -> Tuple[Any, float, bool, bool, Dict[str, Any]]:
        agent = self.agent_selection
        observation = self.observe(agent) if observe else None  # type: ignore[attr-defined]
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def _accumulate_rewards(self) -> None:
        for agent, reward in self.rewards.items():
            self._cumulative_rewards[agent] += reward

    def _was_dead_step(self, action: Optional[int]) -> None:
        if action is not None:
            raise ValueError("when an agent is done, the only valid action is None")
        agent = self.agent_selection
        for table in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards, self.infos):
            del table[agent]
        self.agents.remove(agent)
        if self.agents:
            self.agent_selection = self.agents[0]

    @property
    def num_agents(self) -> int:
        return len(self.agents)

    @property
    def max_num_agents(self) -> int:
        return len(self.possible_agents)

    @property
    def unwrapped(self) -> "AECEnv":
        return self
