"""The Gymnasium single-agent environment (单智能体环境): one seat against an erma bot."""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np

from erma.bots import Bot, make_bot
from erma.lab.env.spaces import Layout, action_space, observation_space
from erma.lab.env_table import flatten, observation, open_table, render_view
from erma.rules import RuleSet


class SingleAgentEnv(gym.Env[Any, np.int64]):
    """One hand per episode, the agent at ``seat`` (None: drawn each hand) against ``opponent`` (a bot name).

    ``obs``: ``"dict"`` (the raw counts with the mask, the default) or ``"flat"`` (one scaled float32 vector,
    the mask apart: ``action_masks()`` and ``info["action_mask"]``); see :class:`erma.lab.env.spaces.Layout`.

    A hand that ends before the agent's first decision (a dealer's 天和 against it) is skipped: the episode
    starts with the next hand. The reward is the agent's (zero-sum points, or shaped: see Reward).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (Gymnasium's attribute; fps: its checker asks)

    def __init__(
        self,
        rules: str | RuleSet = "cuopai789",
        opponent: str = "greedy",
        *,
        seat: int | None = None,
        oracle: bool = False,
        reward: str = "points",
        shaping: float = 0.1,
        illegal: str = "default",
        overrides: dict[str, Any] | None = None,
        render_mode: str | None = None,
        obs: str = "dict",
    ) -> None:
        if seat not in (None, 0, 1):
            raise ValueError(f"seat must be 0, 1 or None (drawn each hand), not {seat!r}")
        self.rules, self._table = open_table(
            rules, overrides, reward=reward, shaping=shaping, illegal=illegal, render_mode=render_mode
        )
        self.opponent_name = opponent
        self.opponent: Bot = make_bot(opponent, 0)
        self.fixed_seat = seat
        self.seat = 0
        self.oracle = oracle
        self.render_mode = render_mode
        self.layout = Layout(obs)
        self.observation_space = observation_space(oracle, self.layout)
        self.action_space = action_space()
        self._rng = random.Random()

    def _play_opponent(self) -> float:
        """Let the opponent decide until the agent must or the hand ends; the agent's reward meanwhile."""
        t = self._table
        got = 0.0
        other = 1 - self.seat
        bot = self.opponent
        while not t.over and t.actor == other:
            t.play_bot(bot)
            if t.over:
                assert t.state.result is not None
                got += t.state.result.deltas[self.seat]
        return got

    def _obs(self) -> Any:
        obs = observation(self._table, self.seat, self.oracle)
        if self.layout is Layout.FLAT:
            return flatten(obs, self.rules)
        return obs

    def _info(self, **more: Any) -> dict[str, Any]:
        info: dict[str, Any] = {"seat": self.seat, **more}
        if self.layout is Layout.FLAT:
            info["action_mask"] = self.action_masks()
        return info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
            self.opponent = make_bot(self.opponent_name, f"{seed}:opponent")
        while True:
            self.seat = self.fixed_seat if self.fixed_seat is not None else self._rng.randrange(2)
            self._table.deal(self._rng)
            self._play_opponent()
            if not self._table.over:
                break
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        t = self._table
        if t.over:
            raise RuntimeError("the hand is over: call reset()")
        rewards, illegal = t.step(int(action), self._rng)
        reward = rewards[self.seat] + self._play_opponent()
        info = self._info(illegal=illegal)
        if t.over:
            result = t.state.result
            info["result"] = result.to_json() if result is not None else None
        return self._obs(), float(reward), t.over, False, info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_view(self._table.state, self.seat)

    def action_masks(self) -> np.ndarray:
        """The current mask as booleans (sb3-contrib's MaskablePPO reads this method, through Gymnasium's
        wrappers too); all False once the hand is over."""
        t = self._table
        if t.over or t.actor != self.seat:
            return np.zeros(t.mask.shape, dtype=bool)
        return t.mask.astype(bool)
