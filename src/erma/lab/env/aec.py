"""The PettingZoo AEC environment (多智能体环境): both seats of one hand, each observing its own seat view."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from erma.lab.env.spaces import action_space, observation_space
from erma.lab.env_table import observation, open_table, render_view
from erma.rules import RuleSet

AGENTS = ("player_0", "player_1")
"""Agent ``player_s`` plays seat s (the dealer is rolled by the hand)."""


class raw_env(AECEnv):  # type: ignore[misc]
    """Two-player mahjong as an AEC game: one hand per episode, the seat to decide is the agent selected.

    ``rules``: a preset name or a RuleSet; ``oracle``: add the oracle planes to observations;
    ``reward``: ``points`` (zero-sum, at the end) or ``shaped``; ``illegal``: ``default`` (play the
    timeout default, ``infos[agent]["illegal"]``) or ``raise``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "erma_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | RuleSet = "cuopai789",
        *,
        oracle: bool = False,
        reward: str = "points",
        shaping: float = 0.1,
        illegal: str = "default",
        overrides: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules, self._table = open_table(
            rules, overrides, reward=reward, shaping=shaping, illegal=illegal, render_mode=render_mode
        )
        self.oracle = oracle
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self._obs_space = observation_space(oracle)
        self._act_space = action_space()
        self._rng = random.Random()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self._table.deal(self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {"illegal": False} for a in self.agents}
        self.agent_selection = AGENTS[self._table.actor]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return observation(self._table, AGENTS.index(agent), self.oracle)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent}: an action is needed while the hand goes on")
        cumulative = self._cumulative_rewards
        cumulative[agent] = 0.0
        rewards, illegal = self._table.step(int(action), self._rng)
        self.infos[agent] = {"illegal": illegal}
        r = self.rewards  # in place, and accumulated here: PettingZoo's _accumulate_rewards, without its loop
        r[AGENTS[0]] = rewards[0]
        r[AGENTS[1]] = rewards[1]
        cumulative[AGENTS[0]] += rewards[0]
        cumulative[AGENTS[1]] += rewards[1]
        if self._table.over:
            self.terminations = dict.fromkeys(self.agents, True)
            result = self._table.state.result
            for a in self.agents:
                self.infos[a]["result"] = result.to_json() if result is not None else None
            self.agent_selection = agent
        else:
            self.agent_selection = AGENTS[self._table.actor]
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        st = self._table.state
        return render_view(st, st.actor)

    def close(self) -> None:
        pass

    @property
    def state_of_hand(self) -> Any:
        """The engine's state of the hand (for oracle tools and tests; agents should observe)."""
        return self._table.state


def env(rules: str | RuleSet = "cuopai789", **kwargs: Any) -> Any:
    """:class:`raw_env` wrapped as PettingZoo recommends (order enforcing, no out-of-bounds action)."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(rules, **kwargs)))
