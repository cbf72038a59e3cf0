"""The per-kind policy (逐张打分策略) for sb3-contrib's MaskablePPO: the ``nn`` bot's network, for PPO.

:class:`KindHeadNet` is the network the ``nn`` bot runs (erma.bots.nn.bot.Network): two ReLU layers over the
flat observation, one logit per action, plus the per-item heads of :mod:`erma.bots.nn.heads` — each discard
(报听 discard, start-exchange mark, 搓牌 choice) of kind k also gets a weighted sum of kind k's own inputs
(the shanten and useful tiles after discarding it, ...), the weights read from the last hidden layer, the same
judgement for every kind. A plain ``MlpPolicy`` must learn that judgement 34 times over, once per output;
this network learns it once. :class:`KindHeadPolicy` puts it in MaskablePPO (the value is a separate ReLU
MLP), and :func:`network_arrays` writes it as the nn bot reads it, so ``erma arena --bots nn:PATH,greedy``
plays a trained policy with numpy only.

Needs the ``rl`` extra (PyTorch, sb3-contrib) and the flat observation (``obs="flat"``, 810 numbers).

>>> from sb3_contrib import MaskablePPO                                        # doctest: +SKIP
>>> MaskablePPO(KindHeadPolicy, BatchVecEnv("cuopai789", 32)).learn(100_000)  # doctest: +SKIP
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

from erma.bots.nn.features import NUM_ACTIONS, NUM_INPUTS
from erma.bots.nn.heads import CHOW_BASES, KIND_BASES, chow_rows, kind_rows

__all__ = ["KindHeadNet", "KindHeadPolicy", "load_network", "network_arrays"]


class KindHeadNet(nn.Module):
    """The trunk (two ReLU layers), the action layer and the per-kind and per-chow heads."""

    rows: torch.Tensor
    bases: torch.Tensor
    crows: torch.Tensor
    cbases: torch.Tensor

    def __init__(self, hidden: int = 256, kind: bool = True) -> None:
        super().__init__()
        self.l0 = nn.Linear(NUM_INPUTS, hidden)
        self.l1 = nn.Linear(hidden, hidden)
        self.l2 = nn.Linear(hidden, NUM_ACTIONS)
        self.register_buffer("rows", torch.from_numpy(kind_rows()), persistent=False)
        self.register_buffer(
            "bases", torch.tensor([b + k for b in KIND_BASES for k in range(34)]), persistent=False
        )
        self.u = nn.Linear(hidden, len(KIND_BASES) * len(self.rows)) if kind else None
        self.register_buffer("crows", torch.from_numpy(chow_rows()), persistent=False)
        self.register_buffer(
            "cbases", torch.tensor([b + k for b in CHOW_BASES for k in range(21)]), persistent=False
        )
        self.cu = nn.Linear(hidden, len(CHOW_BASES) * len(self.crows)) if kind else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """The action logits for a batch of flat observations (N, NUM_INPUTS)."""
        h = torch.relu(self.l1(torch.relu(self.l0(x))))
        out: torch.Tensor = self.l2(h)
        if self.u is None or self.cu is None:
            return out
        n = len(x)
        feats = x[:, self.rows]  # (N, F, 34)
        g = self.u(h).view(n, len(KIND_BASES), len(self.rows))
        out = out.index_add(1, self.bases, torch.bmm(g, feats).reshape(n, -1))
        feats = x[:, self.crows]  # (N, 1, 21)
        g = self.cu(h).view(n, len(CHOW_BASES), len(self.crows))
        logits: torch.Tensor = out.index_add(1, self.cbases, torch.bmm(g, feats).reshape(n, -1))
        return logits

    def layers(self) -> list[nn.Linear]:
        """The plain layers, input to output."""
        return [self.l0, self.l1, self.l2]


def network_arrays(net: KindHeadNet, dtype: type = np.float32) -> dict[str, np.ndarray]:
    """The arrays of a weights file as :class:`erma.bots.nn.bot.Network` reads them (layers ``w{i}`` input ×
    output, then the heads with their layout)."""
    layers = net.layers()
    arrays: dict[str, np.ndarray] = {"layers": np.array(len(layers))}
    for i, layer in enumerate(layers):
        arrays[f"w{i}"] = layer.weight.detach().cpu().numpy().T.astype(dtype)
        arrays[f"b{i}"] = layer.bias.detach().cpu().numpy().astype(dtype)
    if net.u is not None and net.cu is not None:
        arrays["kind_u"] = net.u.weight.detach().cpu().numpy().T.astype(dtype)
        arrays["kind_ub"] = net.u.bias.detach().cpu().numpy().astype(dtype)
        arrays["kind_rows"] = kind_rows().astype(np.int16)
        arrays["kind_bases"] = np.array(KIND_BASES, dtype=np.int16)
        arrays["chow_u"] = net.cu.weight.detach().cpu().numpy().T.astype(dtype)
        arrays["chow_ub"] = net.cu.bias.detach().cpu().numpy().astype(dtype)
        arrays["chow_rows"] = chow_rows().astype(np.int16)
        arrays["chow_bases"] = np.array(CHOW_BASES, dtype=np.int16)
    return arrays


def load_network(net: KindHeadNet, path: str | Path) -> None:
    """Set ``net``'s weights from an nn weights file (the imitation-trained bot's, to go on by PPO): the
    file's layer sizes and heads must be the network's."""
    with np.load(path) as data:
        layers = net.layers()
        if int(data["layers"]) != len(layers) or ("kind_u" in data) != (net.u is not None):
            raise ValueError(f"{path}: not a {len(layers)}-layer network with per-kind heads")
        pairs = [(f"w{i}", f"b{i}", layer) for i, layer in enumerate(layers)]
        if net.u is not None and net.cu is not None:
            pairs += [("kind_u", "kind_ub", net.u), ("chow_u", "chow_ub", net.cu)]
        with torch.no_grad():
            for w, b, layer in pairs:
                if data[w].shape != tuple(layer.weight.T.shape):
                    raise ValueError(
                        f"{path}: {w} is {data[w].shape}, the network's {tuple(layer.weight.T.shape)}"
                    )
                layer.weight.copy_(torch.from_numpy(data[w].astype(np.float32).T))
                layer.bias.copy_(torch.from_numpy(data[b].astype(np.float32)))


class _Extractor(nn.Module):
    """SB3's ``mlp_extractor`` slot: the actor's "latent" is already the logits (the policy's action layer is
    then the identity), the critic's a ReLU MLP's last layer."""

    def __init__(self, features_dim: int, hidden: int) -> None:
        super().__init__()
        if features_dim != NUM_INPUTS:
            raise ValueError(
                f"KindHeadPolicy reads the flat observation ({NUM_INPUTS} numbers), not {features_dim}: "
                'make the environment with obs="flat"'
            )
        self.actor = KindHeadNet(hidden)
        self.critic = nn.Sequential(
            nn.Linear(features_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.latent_dim_pi = NUM_ACTIONS
        self.latent_dim_vf = hidden

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.actor(features), self.critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        return self.actor(features)  # type: ignore[no-any-return]

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return self.critic(features)  # type: ignore[no-any-return]


class KindHeadPolicy(MaskableActorCriticPolicy):  # type: ignore[misc,unused-ignore]
    """MaskablePPO's policy with the nn bot's network as the actor (``policy_kwargs={"hidden": 256}``)."""

    def __init__(self, *args: Any, hidden: int = 256, **kwargs: Any) -> None:
        self.hidden = hidden
        super().__init__(*args, **kwargs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data["hidden"] = self.hidden
        return data  # type: ignore[no-any-return,unused-ignore]

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = _Extractor(self.features_dim, self.hidden)  # type: ignore[assignment]

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.action_net = nn.Identity()  # the actor's output is the logits
        if self.ortho_init:  # small output layers, as SB3 makes its action layer: a near-uniform start
            actor = self.network
            for layer in (actor.l2, actor.u, actor.cu):
                if layer is not None:
                    self.init_weights(layer, gain=0.01)
        self.optimizer = self.optimizer_class(  # type: ignore[call-arg]  # (SB3's own call)
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )

    @property
    def network(self) -> KindHeadNet:
        """The actor: the network the nn bot runs."""
        return cast(_Extractor, self.mlp_extractor).actor
