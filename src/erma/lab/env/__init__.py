"""Learning environments (学习环境) for two-player mahjong: PettingZoo AEC, Gymnasium single-agent, a native
batch. Needs the ``env`` extra (pettingzoo, gymnasium, numpy); docs/env.md describes the spaces.

>>> from erma.lab.env import env
>>> e = env("classic64")
>>> e.reset(seed=1)
>>> obs = e.observe(e.agent_selection)
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
((18, 34), True)
"""

from __future__ import annotations

import gymnasium as gym

from erma.lab.env.aec import AGENTS, env, raw_env
from erma.lab.env.batch import BatchEnv
from erma.lab.env.single import SingleAgentEnv
from erma.lab.env_table import Illegal, Reward
from erma.rules import preset_names


def register_envs() -> None:
    """Register ``erma/<preset>-v0`` with Gymnasium for every preset (SingleAgentEnv against greedy)."""
    for name in preset_names():
        env_id = f"erma/{name}-v0"
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point="erma.lab.env.single:SingleAgentEnv", kwargs={"rules": name})


register_envs()

__all__ = ["AGENTS", "BatchEnv", "Illegal", "Reward", "SingleAgentEnv", "env", "raw_env", "register_envs"]
