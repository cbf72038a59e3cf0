"""The native batch (批量环境): N hands against a bot, stepped together, observations written in place.

A Gymnasium :class:`~gymnasium.vector.VectorEnv` without the copying of a vector of environments: one array
per observation part holds every game's row; a finished hand is replaced by the next at once
(``same-step`` autoreset: the step returns the finished hand's reward and ``terminated``, the new hand's
observation, and the last observation in ``infos["final_obs"]`` when ``keep_final`` is set).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from erma.bots import Bot, make_bot
from erma.bots.nn.features import NUM_ACTIONS, NUM_ORACLE, NUM_PLANES, NUM_SCALARS
from erma.lab.env.spaces import Layout, action_space, flat_size, observation_space
from erma.lab.env_table import Illegal, Reward, Table, flatten, rules_of
from erma.rules import RuleSet


class BatchEnv(gym.vector.VectorEnv[Any, np.ndarray, np.ndarray]):
    """``num_envs`` hands of ``rules``, the agent against ``opponent`` in each (its seat drawn per hand).

    ``opponent`` may name a league (对手池), bot names separated by commas (``"greedy,level3,nn:old.npz"``):
    hand slot i always plays the ``i % n``-th of them, so each takes an equal share of the batch.

    ``obs``: ``"dict"`` (the raw counts with the masks) or ``"flat"`` (a float32 row per hand, the masks
    apart: :meth:`action_masks` and ``infos["action_mask"]``), as in :class:`erma.lab.env.spaces.Layout`.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium's attribute)

    def __init__(
        self,
        rules: str | RuleSet = "cuopai789",
        num_envs: int = 16,
        opponent: str = "greedy",
        *,
        oracle: bool = False,
        reward: str = "points",
        shaping: float = 0.1,
        illegal: str = "default",
        keep_final: bool = False,
        overrides: dict[str, Any] | None = None,
        obs: str = "dict",
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be ≥ 1, not {num_envs}")
        self.rules = rules_of(rules, overrides)
        self.num_envs = num_envs
        self.oracle = oracle
        self.keep_final = keep_final
        self.layout = Layout(obs)
        self.single_observation_space = observation_space(oracle, self.layout)
        self.single_action_space = action_space()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.tables = [
            Table(self.rules, reward=Reward(reward), shaping=shaping, illegal=Illegal(illegal))
            for _ in range(num_envs)
        ]
        self.seats = [0] * num_envs
        self.league = [name.strip() for name in opponent.split(",")]
        self.bots: list[Bot] = [self._bot(i, i) for i in range(num_envs)]
        self._rng = random.Random()
        self.obs: dict[str, np.ndarray] = {
            "observation": np.zeros((num_envs, NUM_PLANES, 34), dtype=np.uint8),
            "scalars": np.zeros((num_envs, NUM_SCALARS), dtype=np.uint8),
            "action_mask": np.zeros((num_envs, NUM_ACTIONS), dtype=np.int8),
        }
        if oracle:
            self.obs["oracle"] = np.zeros((num_envs, NUM_ORACLE, 34), dtype=np.uint8)
        self.flat = np.zeros((num_envs, flat_size(oracle)), dtype=np.float32)

    def _bot(self, i: int, seed: int | str) -> Bot:
        """Hand slot i's opponent: the league's ``i % n``-th bot."""
        return make_bot(self.league[i % len(self.league)], seed)

    def _opponents(self, i: int) -> float:
        t = self.tables[i]
        seat = self.seats[i]
        bot = self.bots[i]
        got = 0.0
        while not t.over and t.actor != seat:
            t.play_bot(bot)
            if t.over:
                assert t.state.result is not None
                got += t.state.result.deltas[seat]
        return got

    def _new_hand(self, i: int) -> None:
        t = self.tables[i]
        while True:
            self.seats[i] = self._rng.randrange(2)
            t.deal(self._rng)
            self._opponents(i)
            if not t.over:
                return

    def _write(self, i: int) -> None:
        o = self.obs
        self.tables[i].observe(
            self.seats[i],
            o["observation"][i],
            o["scalars"][i],
            o["action_mask"][i],
            o["oracle"][i] if self.oracle else None,
        )
        if self.layout is Layout.FLAT:
            flatten({k: v[i] for k, v in o.items()}, self.rules, self.flat[i])

    def _out(self) -> Any:
        """The batch's observations in its layout (the arrays themselves, written in place each step)."""
        return self.flat if self.layout is Layout.FLAT else self.obs

    def action_masks(self) -> np.ndarray:
        """Every hand's mask as booleans, a row per hand (num_envs × actions)."""
        return self.obs["action_mask"].astype(bool)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Deal every hand (``seed``: one int seeds the whole batch)."""
        if isinstance(seed, list):
            seed = seed[0]
        if seed is not None:
            self._rng = random.Random(seed)
            self.bots = [self._bot(i, f"{seed}:{i}") for i in range(self.num_envs)]
        for i in range(self.num_envs):
            self._new_hand(i)
            self._write(i)
        infos: dict[str, Any] = {"seat": np.array(self.seats)}
        if self.layout is Layout.FLAT:
            infos["action_mask"] = self.action_masks()
        return self._out(), infos

    def step(self, actions: np.ndarray) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One decision in every hand; a finished hand is dealt anew at once."""
        n = self.num_envs
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        illegal = np.zeros(n, dtype=bool)
        finals: list[Any] = [None] * n
        rng = self._rng
        for i in range(n):
            t = self.tables[i]
            r, bad = t.step(int(actions[i]), rng)
            seat = self.seats[i]
            got = r[seat] + self._opponents(i)
            illegal[i] = bad
            rewards[i] = got
            if t.over:
                terminated[i] = True
                if self.keep_final:
                    self._write(i)
                    finals[i] = (
                        self.flat[i].copy()
                        if self.layout is Layout.FLAT
                        else {k: v[i].copy() for k, v in self.obs.items()}
                    )
                self._new_hand(i)
            self._write(i)
        infos: dict[str, Any] = {"illegal": illegal, "seat": np.array(self.seats)}
        if self.keep_final:
            infos["final_obs"] = finals
        if self.layout is Layout.FLAT:
            infos["action_mask"] = self.action_masks()
        return self._out(), rewards, terminated, np.zeros(n, dtype=bool), infos
