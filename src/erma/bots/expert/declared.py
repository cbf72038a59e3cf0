"""A declared opponent's waits (报听后的听牌), read from the seat view by a fitted model.

Once the opponent has declared 报听 its hand is locked: it discards every drawn tile that does not win and
takes every win offered (no furiten where 报听 is played here), so the kinds it discarded since its
declaration and the kinds we discarded that it let go by are not among its waits (现物, :attr:`Reading.safe`).
For the other kinds, :func:`wait_chances` gives the chance that a discard of the kind deals in now, by a
logistic model fitted to level5-vs-greedy play (issue 39, docs/lab/2026-12-07-level5-declared-waits-model.md;
``erma.lab.declared_waits``) on features of the view alone: the unseen copies of the kind and its
neighbours, its rank, the opponent's river before its declaration (the kind, its 筋, the suit), the declaring
discard and the discards just before it, the number of discards at the declaration.

The seat view says where each seat declared (:attr:`~erma.game.seatview.SeatView.declarations`: the
declaring discard's place in the river, as the table saw it), so a reading needs nothing but the view.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from erma.bots.base import BotView
from erma.bots.expert.opponent import shape_weights
from erma.game.state import Declaration

N_FEATURES = 34
"""Length of :func:`features`' rows (the coefficients' length)."""

FEATURE_NAMES = (
    "bias",
    "honour",
    "terminal",
    "rank 2/8",
    "unseen",
    "unseen^2",
    "unseen ±1",
    "unseen ±2",
    "shape share",
    "sqrt shape share",
    "in river before",
    "is declaring",
    "declaring ±1",
    "declaring ±2",
    "declaring ±3",
    "declaring honour",
    "last 3 near",
    "suji safe",
    "half suji safe",
    "suji river",
    "half suji river",
    "discards at declaration",
    "open sets",
    "suit share before",
    "early near",
    "passed since",
    "river ±1",
    "river ±2",
    "safe ±1",
    "safe ±2",
    "held",
    "value honour",
    "in our river before",
    "draws left",
)


COEFFICIENTS: dict[str, tuple[float, ...]] = {
    "classic64": (
        -5.1406,
        0.8668,
        0.2371,
        0.1156,
        0.4816,
        -0.0938,
        0.045,
        0.0674,
        -1.1408,
        3.4538,
        -3.7721,
        -5.0479,
        -0.4643,
        -0.0846,
        -0.1265,
        -0.1504,
        -0.2314,
        -0.1432,
        -0.3544,
        -0.3959,
        -0.2828,
        0.3787,
        0.2151,
        0.1674,
        -0.198,
        0.1031,
        0.2508,
        0.0559,
        0.1293,
        0.1848,
        0.3724,
        0.2952,
        -1.5126,
        -0.405,
    ),
    "wushuang128": (
        -6.9209,
        1.1237,
        0.2913,
        0.0844,
        0.6122,
        -0.0869,
        -0.0123,
        0.004,
        -1.069,
        3.9337,
        -3.4866,
        -5.1413,
        0.0145,
        -0.2444,
        -0.235,
        -0.3112,
        0.1203,
        -0.273,
        -0.3053,
        -0.2894,
        -0.2343,
        0.6431,
        0.158,
        -0.0404,
        0.0677,
        0.1297,
        -0.4679,
        -0.0837,
        0.1771,
        0.212,
        0.3574,
        0.0101,
        -0.7411,
        -0.1555,
    ),
}
"""The model's coefficients by rule set (:data:`FEATURE_NAMES`' order): a logistic regression (L2 = 1) fitted
by ``scripts/declared_waits.py fit`` to 3,000 walls of level5 against greedy (seed ``h39w5-data``, both
seats declaring); a rule set not here keeps level5's danger model."""


class Reading:
    """What the view says of a declared opponent (its :class:`~erma.game.state.Declaration`): its river
    before and after the declaration, the declaring discard, the kinds known safe."""

    __slots__ = (
        "after",
        "before",
        "before_count",
        "declaring",
        "ours",
        "ours_before",
        "passed",
        "safe",
        "seen",
        "suit_count",
    )

    def __init__(self, view: BotView, declaration: Declaration) -> None:
        river = tuple(view.discards[1 - view.seat])
        k = declaration.before
        self.before: tuple[int, ...] = river[:k]
        self.declaring: int = declaration.tile
        self.after: tuple[int, ...] = river[k + 1 :] if declaration.kept else river[k:]
        self.ours: int = declaration.other
        self.passed: tuple[int, ...] = tuple(view.discards[view.seat][self.ours :])
        safe = [False] * 34
        for t in self.after:
            if 0 <= t < 34:
                safe[t] = True
        for t in self.passed:
            if 0 <= t < 34:
                safe[t] = True
        self.safe: list[bool] = safe
        """Kinds the locked hand drew and discarded, or let go by from us, since its declaration."""
        count = [0] * 34
        suit = [0] * 4
        for t in self.before:
            if 0 <= t < 34:
                count[t] += 1
                suit[t // 9 if t < 27 else 3] += 1
        seen = [c > 0 for c in count]
        if 0 <= self.declaring < 34:
            seen[self.declaring] = True
        self.before_count: list[int] = count
        """Copies of each kind in the opponent's river before its declaration."""
        self.suit_count: list[int] = suit
        """Its discards before the declaration by suit (万, 筒, 条, honours)."""
        self.seen: list[bool] = seen
        """Kinds it discarded up to and with the declaring discard."""
        ours_before = [False] * 34
        for t in view.discards[view.seat][: self.ours]:
            if 0 <= t < 34:
                ours_before[t] = True
        self.ours_before: list[bool] = ours_before
        """Kinds in our river before its declaration."""


def read(view: BotView) -> Reading | None:
    """The reading of the declared opponent, or None while it has not declared."""
    declaration = view.declarations[1 - view.seat]
    if declaration is None:
        return None
    return Reading(view, declaration)


def _near(t: int, x: int, d: int) -> bool:
    """``x`` in ``t``'s suit, ``d`` apart."""
    return t < 27 and 0 <= x < 27 and x // 9 == t // 9 and abs(t - x) == d


def features(view: BotView, reading: Reading, unseen: Sequence[int], t: int, share: float) -> list[float]:
    """The model's inputs for kind ``t`` (``share``: its shape weight times the kinds in play over the
    total, :func:`shape_weights`)."""
    un = unseen
    honour = t >= 27
    r = t % 9
    n1 = n2 = 0.0
    if not honour:
        for d, acc in ((1, 1), (2, 2)):
            s = 0.0
            for x in (t - d, t + d):
                if 0 <= x < 27 and x // 9 == t // 9:
                    s += un[x]
            if acc == 1:
                n1 = s
            else:
                n2 = s
    before = reading.before
    dec = reading.declaring
    in_before = float(reading.before_count[t])
    last3 = before[-3:]
    near3 = float(sum(1 for x in last3 if x == t or _near(t, x, 1) or _near(t, x, 2)))
    early = before[:5]
    near_early = float(sum(1 for x in early if x == t or _near(t, x, 1)))
    seen = reading.seen
    safe = reading.safe

    def side(x: int, known: list[bool] | None) -> bool:
        if not (0 <= x < 27 and x // 9 == t // 9):
            return True  # no two-sided wait on that side
        if known is not None:
            return known[x]
        return seen[x] or safe[x]

    suji = half = suji_r = half_r = 0.0
    if not honour:
        lo, hi = t - 3, t + 3
        a, b = side(lo, safe), side(hi, safe)
        ar, br = side(lo, None), side(hi, None)
        if a and b:
            suji = 1.0
        elif (a or b) and 3 <= r <= 5:
            half = 1.0
        if ar and br:
            suji_r = 1.0
        elif (ar or br) and 3 <= r <= 5:
            half_r = 1.0
    same_suit = reading.suit_count[3 if honour else t // 9]
    opp = 1 - view.seat
    opp_melds = view.opponent_melds
    sets = float(len(opp_melds))
    return [
        1.0,
        1.0 if honour else 0.0,
        1.0 if not honour and r in (0, 8) else 0.0,
        1.0 if not honour and r in (1, 7) else 0.0,
        float(un[t]),
        float(un[t] * un[t]) / 4.0,
        n1,
        n2,
        share,
        math.sqrt(max(0.0, share)),
        in_before,
        1.0 if dec == t else 0.0,
        1.0 if _near(t, dec, 1) else 0.0,
        1.0 if _near(t, dec, 2) else 0.0,
        1.0 if _near(t, dec, 3) else 0.0,
        1.0 if dec >= 27 else 0.0,
        near3,
        suji,
        half,
        suji_r,
        half_r,
        (len(before) + 1) / 10.0,
        sets,
        same_suit / max(1.0, float(len(before))),
        near_early,
        float(len(reading.after) + len(reading.passed)) / 5.0,
        float(sum(1 for x in (t - 1, t + 1) if _near(t, x, 1) and seen[x])),
        float(sum(1 for x in (t - 2, t + 2) if _near(t, x, 2) and seen[x])),
        float(sum(1 for x in (t - 1, t + 1) if _near(t, x, 1) and safe[x])),
        float(sum(1 for x in (t - 2, t + 2) if _near(t, x, 2) and safe[x])),
        float(view.counts[t]) if t < len(view.counts) else 0.0,
        1.0 if honour and (t >= 31 or t - 27 in (view.prevalent_wind, view.seat_winds[opp])) else 0.0,
        1.0 if reading.ours_before[t] else 0.0,
        view.draws_left / 10.0,
    ]


def wait_rows(
    view: BotView, reading: Reading, unseen: Sequence[int], kinds: Sequence[int]
) -> dict[int, list[float]]:
    """:func:`features` of every kind in play that is not known safe."""
    weight = shape_weights(unseen, kinds)
    total = sum(weight) or 1.0
    n = float(len(kinds))
    out: dict[int, list[float]] = {}
    for t in kinds:
        if reading.safe[t]:
            continue
        out[t] = features(view, reading, unseen, t, weight[t] * n / total)
    return out


def wait_chances(
    view: BotView,
    reading: Reading,
    unseen: Sequence[int],
    kinds: Sequence[int],
    coefficients: Sequence[float],
) -> list[float]:
    """The chance each kind deals in now into the declared opponent (0 for the kinds known safe)."""
    out = [0.0] * 34
    for t, row in wait_rows(view, reading, unseen, kinds).items():
        z = 0.0
        for c, x in zip(coefficients, row, strict=False):
            z += c * x
        z = max(-30.0, min(30.0, z))
        out[t] = 1.0 / (1.0 + math.exp(-z))
    return out
