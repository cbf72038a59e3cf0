"""Stable-Baselines3 over the native batch (SB3 向量环境): :class:`BatchVecEnv` is an SB3 ``VecEnv`` whose N
hands are one :class:`~erma.lab.env.batch.BatchEnv`, with the masks sb3-contrib's ``MaskablePPO`` asks for.

Needs the ``rl`` extra (stable-baselines3 through sb3-contrib, PyTorch); docs/env.md shows a training run.

>>> from sb3_contrib import MaskablePPO                                      # doctest: +SKIP
>>> venv = BatchVecEnv("cuopai789", num_envs=16, opponent="greedy")         # doctest: +SKIP
>>> MaskablePPO("MlpPolicy", venv).learn(100_000)                           # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from erma.lab.env.batch import BatchEnv
from erma.lab.env.spaces import Layout
from erma.rules import RuleSet


class BatchVecEnv(VecEnv):  # type: ignore[misc,unused-ignore]  # (Any without SB3's types installed)
    """``num_envs`` hands of ``rules`` against ``opponent``, stepped together, as SB3 expects: a finished
    hand is dealt anew at once (its last observation in ``infos[i]["terminal_observation"]``), and
    ``env_method("action_masks")`` gives each hand's mask (sb3-contrib's ``get_action_masks``).

    ``obs`` defaults to ``"flat"`` (a scaled float vector, the mask apart: SB3's ``MlpPolicy`` takes it as
    it is); ``"dict"`` gives the raw counts for ``MultiInputPolicy`` (the mask then enters the network too).
    Other keyword arguments go to :class:`BatchEnv` (``reward``, ``shaping``, ``oracle``, ``overrides``).
    """

    def __init__(
        self,
        rules: str | RuleSet = "cuopai789",
        num_envs: int = 16,
        opponent: str = "greedy",
        *,
        obs: str = "flat",
        seed: int | None = None,
        **kwargs: Any,
    ) -> None:
        self.batch = BatchEnv(rules, num_envs, opponent, obs=obs, keep_final=True, **kwargs)
        super().__init__(num_envs, self.batch.single_observation_space, self.batch.single_action_space)
        self._next_seed = seed
        self._actions: np.ndarray | None = None
        self._returns = np.zeros(num_envs, dtype=np.float64)
        self._lengths = np.zeros(num_envs, dtype=np.int64)

    def _copy(self, obs: Any) -> Any:
        # The batch writes its arrays in place: SB3 keeps the previous observation while it steps.
        if self.batch.layout is Layout.FLAT:
            return np.array(obs, copy=True)
        return {k: np.array(v, copy=True) for k, v in obs.items()}

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seed the next reset (one seed for the whole batch, as :meth:`BatchEnv.reset` takes it)."""
        self._next_seed = seed
        return [seed] * self.num_envs

    def reset(self) -> Any:
        obs, _ = self.batch.reset(seed=self._next_seed)
        self._next_seed = None
        self._returns[:] = 0.0
        self._lengths[:] = 0
        return self._copy(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[Any, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        assert self._actions is not None, "step_async first"
        obs, rewards, terminated, _, info = self.batch.step(self._actions)
        self._actions = None
        self._returns += rewards
        self._lengths += 1
        infos: list[dict[str, Any]] = [{"illegal": bool(info["illegal"][i])} for i in range(self.num_envs)]
        for i in np.flatnonzero(terminated):
            infos[i]["terminal_observation"] = info["final_obs"][i]
            infos[i]["TimeLimit.truncated"] = False
            infos[i]["episode"] = {"r": float(self._returns[i]), "l": int(self._lengths[i])}
            self._returns[i] = 0.0
            self._lengths[i] = 0
        return self._copy(obs), rewards.astype(np.float32), terminated.copy(), infos

    def action_masks(self) -> np.ndarray:
        """Every hand's mask (num_envs × actions, booleans)."""
        return self.batch.action_masks()

    def close(self) -> None:
        self.batch.close()

    def _indices(self, indices: int | Iterable[int] | None) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: int | Iterable[int] | None = None) -> list[Any]:
        if attr_name == "action_masks":
            return [self.action_masks] * len(self._indices(indices))
        if attr_name == "render_mode":
            return [None] * len(self._indices(indices))
        value = getattr(self.batch, attr_name)
        return [value] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: int | Iterable[int] | None = None) -> None:
        raise AttributeError(f"BatchVecEnv: cannot set {attr_name!r} (the hands share one batch)")

    def env_method(
        self, method_name: str, *method_args: Any, indices: int | Iterable[int] | None = None, **kw: Any
    ) -> list[Any]:
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        raise AttributeError(f"BatchVecEnv: no per-hand method {method_name!r} (only 'action_masks')")

    def env_is_wrapped(self, wrapper_class: type, indices: int | Iterable[int] | None = None) -> list[bool]:
        return [False] * len(self._indices(indices))


def export_nn_weights(model: Any, path: str | Path) -> None:
    """A MaskablePPO (or PPO) policy saved as the ``nn`` bot's weights file (``erma arena --bots
    nn:PATH,greedy`` plays it): a :class:`~erma.lab.env.policy.KindHeadPolicy` as its network with the
    per-kind heads; an ``MlpPolicy`` with ReLU layers as each Linear of its network, then the action head."""
    import torch

    policy = model.policy
    network = getattr(policy, "network", None)
    if network is not None:
        from erma.lab.env.policy import network_arrays

        np.savez(path, **network_arrays(network))  # type: ignore[arg-type]
        return
    if policy.activation_fn is not torch.nn.ReLU:
        raise ValueError("the nn bot runs ReLU layers: train with policy_kwargs activation_fn=torch.nn.ReLU")
    linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linears.append(policy.action_net)
    arrays: dict[str, np.ndarray] = {"layers": np.array(len(linears))}
    for i, lin in enumerate(linears):
        arrays[f"w{i}"] = lin.weight.detach().cpu().numpy().T.astype(np.float32)
        arrays[f"b{i}"] = lin.bias.detach().cpu().numpy().astype(np.float32)
    np.savez(path, **arrays)  # type: ignore[arg-type]  # (numpy's stub reads **kwds as allow_pickle: bool)
