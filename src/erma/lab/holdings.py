"""The opponent's concealed tiles (对手的手牌): a fitted model of how many of each kind's unseen copies it
holds, its data and a fit (issue 39, lab code only; docs/lab/2026-12-08-level5-live-tiles.md: not kept).

An unseen copy is either in the wall (live) or in the opponent's concealed hand, and which is not random: the
opponent keeps what fits its hand. :func:`features` reads a kind's inputs from the seat view alone;
:func:`held_chances` gives each kind's expected copies held by a logistic model per copy, scaled to the
opponent's concealed tiles (which the view shows). :func:`collect` plays the arena's games
(:func:`erma.lab.arena.play_wall`, through its hooks: the same walls, seeds and seats as ``erma arena``) and
at each turn of either seat writes one row per kind in play with unseen copies: the features, the unseen
copies and the label, the copies the opponent holds concealed (which only the state knows). :func:`fit` fits
the model (binomial, numpy, L2); :func:`summary` compares it on held-out rows with the base rate (every
unseen copy equally likely held).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from erma.bots import Bot
from erma.bots.base import BotView
from erma.game import GameState, Phase, seat_view
from erma.hand import MeldKind
from erma.lab.arena import ArenaConfig, RowHooks, play_walls

FEATURE_NAMES = (
    "bias",
    "base rate (logit)",
    "honour",
    "terminal",
    "rank 2/8",
    "value honour",
    "unseen",
    "opp river",
    "opp river ±1",
    "opp river ±2",
    "opp river early",
    "opp river late",
    "our river",
    "our river after opp's last",
    "opp meld near",
    "unseen ±1",
    "unseen ±2",
    "suit share of opp river",
    "opp declared",
    "draws left",
    "opp river ±3",
    "held by us",
)
N_FEATURES = len(FEATURE_NAMES)

COEFFICIENTS: dict[str, tuple[float, ...]] = {}
"""Coefficients by rule set (:data:`FEATURE_NAMES`' order), as ``scripts/holdings.py fit`` prints them: set by
the caller (``scripts/live_arena.py`` reads them from a file)."""


def _same_suit(t: int, x: int) -> bool:
    return t < 27 and 0 <= x < 27 and x // 9 == t // 9


def features(view: BotView, unseen: Sequence[int], t: int) -> list[float]:
    """The model's inputs for kind ``t`` (``unseen``: the view's unseen copies by kind)."""
    opp = 1 - view.seat
    river = view.discards[opp]
    ours = view.discards[view.seat]
    honour = t >= 27
    r = t % 9
    total = 0
    for k in view.kinds:
        total += unseen[k]
    held = view.opponent_hand_count
    rate = min(0.99, max(0.01, held / max(1, total)))
    n_river = len(river)
    c0 = c1 = c2 = c3 = early = late = 0
    suit = 0
    for i, x in enumerate(river):
        if not 0 <= x < 34:
            continue
        if x == t:
            c0 += 1
            if i < 6:
                early += 1
            if i >= n_river - 4:
                late += 1
        elif _same_suit(t, x):
            d = abs(x - t)
            if d == 1:
                c1 += 1
            elif d == 2:
                c2 += 1
            elif d == 3:
                c3 += 1
        if (x >= 27) == honour and (honour or x // 9 == t // 9):
            suit += 1
    our_all = 0
    our_late = 0
    for i, x in enumerate(ours):
        if x == t:
            our_all += 1
            if i >= len(ours) - 3:
                our_late += 1
    near = 0
    for m in view.opponent_melds:
        if m.kind is MeldKind.CHOW:
            for x in (m.tile, m.tile + 1, m.tile + 2):
                if x == t or (_same_suit(t, x) and abs(x - t) <= 2):
                    near += 1
        elif m.tile == t:
            near += 1
    u1 = u2 = 0
    if not honour:
        for x in (t - 1, t + 1):
            if _same_suit(t, x):
                u1 += unseen[x]
        for x in (t - 2, t + 2):
            if _same_suit(t, x):
                u2 += unseen[x]
    value = honour and (t >= 31 or t - 27 in (view.prevalent_wind, view.seat_winds[opp]))
    return [
        1.0,
        math.log(rate / (1.0 - rate)),
        1.0 if honour else 0.0,
        1.0 if not honour and r in (0, 8) else 0.0,
        1.0 if not honour and r in (1, 7) else 0.0,
        1.0 if value else 0.0,
        float(unseen[t]),
        float(c0),
        float(c1),
        float(c2),
        float(early),
        float(late),
        float(our_all),
        float(our_late),
        float(near),
        u1 / 4.0,
        u2 / 4.0,
        suit / max(1.0, float(n_river)),
        1.0 if view.riichi[opp] else 0.0,
        view.draws_left / 10.0,
        float(c3),
        float(view.counts[t]) if t < len(view.counts) else 0.0,
    ]


def held_chances(
    view: BotView, unseen: Sequence[int], kinds: Sequence[int], coefficients: Sequence[float]
) -> list[float]:
    """Each kind's expected copies in the opponent's concealed hand (0 where none is unseen), scaled so that
    they add up to its concealed tiles."""
    out = [0.0] * 34
    s = 0.0
    for t in kinds:
        u = unseen[t]
        if not u:
            continue
        z = 0.0
        for c, x in zip(coefficients, features(view, unseen, t), strict=False):
            z += c * x
        z = max(-30.0, min(30.0, z))
        e = u / (1.0 + math.exp(-z))
        out[t] = e
        s += e
    held = float(view.opponent_hand_count)
    if s > 0.0:
        f = held / s
        for t in kinds:
            out[t] = min(float(unseen[t]), out[t] * f)
    return out


META = ("wall", "game", "seat", "decision", "kind", "held", "unseen", "opp_bot")
"""The columns before the features: ``opp_bot`` 0 when the opponent (whose tiles are counted) is bot A."""


@dataclass
class _Collector(RowHooks):
    decision: int = 0

    def before_choose(self, bot: Bot, state: GameState, seat: int) -> None:
        if state.phase is not Phase.TURN:
            return
        opp = 1 - seat
        view = seat_view(state, seat)
        unseen = [view.unseen(t) for t in range(34)]
        game = self.game % 2
        opp_bot = 0 if opp == game else 1  # bot A sits in seat `game`
        self.decision += 1
        counts = state.seats[opp].counts
        for t in view.kinds:
            if not unseen[t]:
                continue
            meta = [self.wall, game, seat, self.decision, t, counts[t], unseen[t], opp_bot]
            self.rows.append([*meta, *features(view, unseen, t)])


def collect(config: ArenaConfig, walls: range) -> np.ndarray:
    """The rows (:data:`META` then the features) of ``walls`` of an arena run of ``config``."""
    hooks = _Collector()
    play_walls(config, walls, hooks)
    return np.array(hooks.rows, dtype=np.float64).reshape(-1, len(META) + N_FEATURES)


def col(name: str) -> int:
    return META.index(name)


def fit(x: np.ndarray, y: np.ndarray, n: np.ndarray, l2: float = 1.0, iters: int = 50) -> np.ndarray:
    """Binomial logistic regression (``y`` of ``n`` copies held) by Newton's method, L2 (not the bias)."""
    w = np.zeros(x.shape[1])
    pen = np.full(x.shape[1], l2)
    pen[0] = 0.0
    for _ in range(iters):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        g = x.T @ (n * p - y) + pen * w
        h = (x * (n * p * (1 - p))[:, None]).T @ x + np.diag(pen) + 1e-9 * np.eye(x.shape[1])
        step = np.linalg.solve(h, g)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return w


def expected(rows: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """Each row's expected copies held, scaled per decision to the opponent's concealed tiles (as
    :func:`erma.bots.expert.holdings.held_chances`); ``w`` None: the base rate."""
    n = rows[:, col("unseen")]
    x = rows[:, len(META) :]
    e = n * 1.0 if w is None else n / (1 + np.exp(-np.clip(x @ w, -30, 30)))
    key = rows[:, col("wall")] * 1e7 + rows[:, col("decision")]
    _, inv = np.unique(key, return_inverse=True)
    held = np.bincount(inv, weights=rows[:, col("held")])
    tot = np.bincount(inv, weights=e)
    f = held[inv] / np.maximum(tot[inv], 1e-9)
    out: np.ndarray = np.minimum(n, e * f)
    return out


def summary(rows: np.ndarray, w: np.ndarray) -> dict[str, Any]:
    """Held-out figures of ``w`` against the base rate: the binomial log loss a copy, the mean absolute and
    squared error of the expected copies held a kind, and the same for kinds with all copies unseen."""
    y = rows[:, col("held")]
    n = rows[:, col("unseen")]
    out: dict[str, Any] = {"rows": len(y), "copies": int(n.sum()), "held": int(y.sum())}
    for name, ww in (("base", None), ("model", w)):
        e = expected(rows, ww)
        p = np.clip(e / n, 1e-6, 1 - 1e-6)
        ll = -(y * np.log(p) + (n - y) * np.log(1 - p)).sum() / n.sum()
        out[name] = {
            "log_loss_copy": round(float(ll), 4),
            "mae": round(float(np.abs(e - y).mean()), 4),
            "mse": round(float(((e - y) ** 2).mean()), 4),
        }
    return out


def coefficients(w: np.ndarray) -> dict[str, float]:
    return {n: round(float(v), 4) for n, v in zip(FEATURE_NAMES, w, strict=True)}
