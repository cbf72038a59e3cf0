"""The ``nn`` bot (神经网络机器人): a small policy network trained by scripts/train_nn.py, run with numpy.

The network is a multilayer perceptron: the input of :func:`~erma.bots.nn.features.net_input`, two hidden
layers with ReLU, one logit per action of the fixed space; the bot takes the allowed action of highest
logit (a 海底捞月 pick's position from its own seeded generator). The weights ship as ``weights.npz`` beside
this module.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import numpy.typing as npt

from erma.bots.base import BotView
from erma.bots.nn.features import NUM_PLANES, NUM_SCALARS, VERSIONS, action_table, encode, net_input, resolve
from erma.game.actions import Action

WEIGHTS = Path(__file__).with_name("weights.npz")
"""The shipped weights."""


Head = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.intp], list[int]]
"""A per-item head's weights ``u``, ``ub``, input rows (F, width) and the action blocks it scores."""
HEADS = ("kind", "chow")
"""The per-item heads a weights file may hold, by the prefix of their arrays."""


class Network:
    """The policy network's layers, as float32 arrays, and its optional per-item heads (逐张打分).

    A per-item head adds to each action of a block (``<head>_bases``: e.g. the discards, the 报听 discards,
    the start-exchange marks and the 搓牌 choices, one per kind; or the 21 chows) a weighted sum of that
    item's own inputs (``<head>_rows``: F rows of input positions, e.g. the shanten and useful tiles after
    discarding that kind), the weights read from the last hidden layer (``<head>_u``, ``<head>_ub``): the
    same judgement for every item, which a plain layer would have to learn once per item."""

    def __init__(self, path: Path = WEIGHTS) -> None:
        self.heads: list[Head] = []
        with np.load(path) as data:
            n = int(data["layers"])
            self.layers = [
                (data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32)) for i in range(n)
            ]
            for head in HEADS:
                if f"{head}_u" in data:
                    self.heads.append(
                        (
                            data[f"{head}_u"].astype(np.float32),
                            data[f"{head}_ub"].astype(np.float32),
                            data[f"{head}_rows"].astype(np.intp),
                            [int(b) for b in data[f"{head}_bases"]],
                        )
                    )
        self.version = VERSIONS.get(self.layers[0][0].shape[0], 2)
        """The input encoding the network reads."""

    def logits(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The action logits for one input vector (or a batch of rows)."""
        inp = x
        last = len(self.layers) - 1
        h = x
        for i, (w, b) in enumerate(self.layers):
            if i == last:
                h = x
            x = x @ w + b
            if i < last:
                x = np.maximum(x, 0.0)
        if self.heads:
            x = x.copy()
        for u, ub, rows, bases in self.heads:
            f, width = rows.shape
            feats = inp[..., rows]  # (..., F, width)
            g = (h @ u + ub).reshape(*h.shape[:-1], len(bases), f)  # (..., B, F)
            add = g @ feats  # (..., B, width)
            for j, base in enumerate(bases):
                x[..., base : base + width] += add[..., j, :]
        return x


_SHARED: dict[Path, Network] = {}


def _network(path: Path) -> Network:
    net = _SHARED.get(path)
    if net is None:
        net = _SHARED[path] = Network(path)
    return net


def preset_weights(rules: str) -> Path:
    """The shipped weights for a preset: its own ``weights-<preset>.npz`` if there is one, else the shared."""
    own = WEIGHTS.with_name(f"weights-{rules}.npz")
    return own if own.exists() else WEIGHTS


class NNBot:
    """Picks the allowed action the network rates highest."""

    name = "nn"
    uses_view = True

    def __init__(self, seed: int | str = 0, weights: Path = WEIGHTS) -> None:
        self.rng = random.Random(seed)
        self.weights = weights
        self.net = _network(weights)
        self._rules = ""
        self._planes = np.zeros((NUM_PLANES, 34), dtype=np.uint8)
        self._scalars = np.zeros(NUM_SCALARS, dtype=np.uint8)

    def choose(self, view: BotView, legal: list[Action]) -> Action:
        """The allowed action of highest logit."""
        if len(legal) == 1:
            return legal[0]
        mask, table = action_table(view, legal)
        if len(table) == 1:
            (only,) = table.values()
            return resolve(only, view.reserve_count, self.rng)
        rules = view.rules.name
        if rules != self._rules:  # the shipped weights: the preset's own, if any
            self._rules = rules
            if self.weights == WEIGHTS:
                self.net = _network(preset_weights(rules))
        encode(view, self._planes, self._scalars)
        net = self.net
        logits = net.logits(net_input(self._planes, self._scalars, rules, net.version))
        logits = np.where(mask > 0, logits, -np.inf)
        return resolve(table[int(np.argmax(logits))], view.reserve_count, self.rng)
