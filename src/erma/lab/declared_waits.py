"""A declared opponent's waits: data and a fitted model (issue 39, lab code only).

:func:`collect` plays the arena's games (:func:`erma.lab.arena.play_wall`, through its hooks: the same walls,
seeds and seats as ``erma arena``) and at each turn of a seat that has not declared while its opponent has
declared 报听, it writes one row per kind the seat may discard: the features of
:func:`erma.bots.expert.declared.features` (read from the seat view only,
:func:`~erma.bots.expert.declared.read`), level5's danger
(:func:`erma.bots.expert.opponent.deal_in`) and the label: does the discard deal in now, which only the
engine knows (the discard tried on a copy of the state, :func:`erma.lab.oracle.deals_in`). :func:`fit`
fits a logistic regression (numpy, L2); :func:`summary` compares it with level5's danger on held-out rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from erma.bots import Bot
from erma.bots.expert.declared import N_FEATURES, read
from erma.bots.expert.declared import features as kind_features
from erma.bots.expert.opponent import deal_in, shape_weights
from erma.game import GameState, Kind, Phase, legal_actions, seat_view
from erma.lab.arena import ArenaConfig, RowHooks, play_walls
from erma.lab.oracle import deals_in

META = ("wall", "game", "seat", "decision", "kind", "label", "safe", "baseline", "declarer")
"""The columns before the features: ``declarer`` 0 when the declared opponent is bot A, 1 when bot B."""


@dataclass
class _Collector(RowHooks):
    decision: int = 0

    def before_choose(self, bot: Bot, state: GameState, seat: int) -> None:
        opp = 1 - seat
        if not state.seats[opp].riichi:
            return
        view = seat_view(state, seat)
        reading = read(view)
        if reading is None or state.phase is not Phase.TURN or state.seats[seat].riichi:
            return
        legal = legal_actions(state, seat)
        choices = {a.tile: a for a in legal if a.kind is Kind.DISCARD and not a.riichi}
        if not choices:
            return
        kinds = view.kinds
        unseen = [view.unseen(t) for t in range(34)]
        base = deal_in(view, unseen, kinds, True, view.caishen is not None)
        weight = shape_weights(unseen, kinds)
        total = sum(weight) or 1.0
        game = self.game % 2
        declarer = 0 if opp == game else 1  # bot A sits in seat `game`
        self.decision += 1
        for t, action in sorted(choices.items()):
            if not 0 <= t < 34:
                continue
            label = deals_in(state, seat, action)
            feats = kind_features(view, reading, unseen, t, weight[t] * len(kinds) / total)
            meta = [self.wall, game, seat, self.decision, t, float(label), float(reading.safe[t]), base[t]]
            self.rows.append([*meta, float(declarer), *feats])


def collect(config: ArenaConfig, walls: range) -> np.ndarray:
    """The rows (:data:`META` then the features) of ``walls`` of an arena run of ``config``."""
    hooks = _Collector()
    play_walls(config, walls, hooks)
    width = len(META) + N_FEATURES
    return np.array(hooks.rows, dtype=np.float64).reshape(-1, width)


def col(name: str) -> int:
    return META.index(name)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, iters: int = 50) -> np.ndarray:
    """Logistic regression by Newton's method with an L2 penalty (the bias, column 0, not penalised)."""
    w = np.zeros(x.shape[1])
    pen = np.full(x.shape[1], l2)
    pen[0] = 0.0
    for _ in range(iters):
        z = np.clip(x @ w, -30, 30)
        p = 1 / (1 + np.exp(-z))
        g = x.T @ (p - y) + pen * w
        h = (x * (p * (1 - p))[:, None]).T @ x + np.diag(pen) + 1e-9 * np.eye(x.shape[1])
        step = np.linalg.solve(h, g)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return w


def predict(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
    return out


def auc(score: np.ndarray, y: np.ndarray) -> float:
    """The chance a random wait scores above a random other kind (ties count half)."""
    pos = score[y > 0.5]
    neg = score[y <= 0.5]
    if len(pos) == 0 or len(neg) == 0:
        return float("nan")
    order = np.argsort(np.concatenate([pos, neg]), kind="mergesort")
    allv = np.concatenate([pos, neg])[order]
    ranks = np.empty(len(allv))
    i = 0
    while i < len(allv):  # average ranks of ties
        j = i
        while j + 1 < len(allv) and allv[j + 1] == allv[i]:
            j += 1
        ranks[i : j + 1] = (i + j) / 2 + 1
        i = j + 1
    r = np.empty(len(allv))
    r[order] = ranks
    return float((r[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def summary(rows: np.ndarray, w: np.ndarray) -> dict[str, Any]:
    """Held-out figures of the model ``w`` against level5's danger on ``rows`` (every held kind: the
    known-safe ones at 0 for the model; and the kinds not known safe alone)."""
    y = rows[:, col("label")]
    safe = rows[:, col("safe")] > 0.5
    x = rows[:, len(META) :]
    base = rows[:, col("baseline")]
    model = np.where(safe, 0.0, predict(x, w))
    read = np.where(safe, 0.0, base)
    out: dict[str, Any] = {
        "rows": len(y),
        "decisions": len(np.unique(rows[:, col("decision")] + 1e6 * rows[:, col("wall")])),
        "waits": int(y.sum()),
        "safe_rows": int(safe.sum()),
        "safe_waits": int(y[safe].sum()),
    }
    for name, s in (("level5", base), ("level5+safe", read), ("model", model)):
        out[name] = {
            "auc": round(auc(s, y), 4),
            "auc_unsafe": round(auc(s[~safe], y[~safe]), 4),
            "log_loss": round(log_loss(s, y), 4),
            "log_loss_unsafe": round(log_loss(s[~safe], y[~safe]), 4),
            "mean_on_waits": round(float(s[y > 0.5].mean()), 4),
            "mean_on_others": round(float(s[y <= 0.5].mean()), 4),
        }
    out["safest_deals_in"] = {name: _safest(rows, s) for name, s in (("level5", base), ("model", model))}
    return out


def _safest(rows: np.ndarray, score: np.ndarray) -> float:
    """The share of decisions where the kind ranked safest (lowest score, ties: any of them) deals in."""
    key = rows[:, col("wall")] * 1e6 + rows[:, col("decision")]
    y = rows[:, col("label")]
    hit = 0.0
    n = 0
    for k in np.unique(key):
        m = key == k
        s = score[m]
        lo = s == s.min()
        hit += float(y[m][lo].mean())
        n += 1
    return round(hit / max(1, n), 4)
