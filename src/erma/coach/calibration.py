"""The calibration of the review's chance of winning (胜率校准): the race's chance, read beside what the seat
sees (the hand's stage, 报听 on either side, the shanten, the kind of decision), mapped to the rate
observed in self-play. Fitted by ``benchmarks/review_calibration_fit.py`` on one set of seeds and reported
on another; docs/review.md has the tables."""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping, Sequence
from typing import Any

from erma.bots.base import BotView
from erma.coach.estimate import ReviewEstimator
from erma.coach.kinds import decision_kind
from erma.game.actions import Action

CLIP = 0.01
"""The raw chance is read in [CLIP, 1 − CLIP] (its logit stays finite)."""
KINDS = ("exchange", "claim", "riichi", "win")
"""Decision kinds with a term of their own (discards are the base; the rest share ``other``)."""
TERMS = (
    "bias",
    "logit",
    "stage",
    "logit*stage",
    "ready",
    "opp_ready",
    "logit*opp_ready",
    "shanten<=0",
    "shanten=1",
    "shanten>=3",
    *(f"kind={k}" for k in KINDS),
    "kind=other",
)
"""The terms of the logistic map, in the order of its coefficients (:func:`terms`)."""


def features(view: BotView, legal: Sequence[Action]) -> dict[str, Any]:
    """What the seat sees that the map reads besides the raw chance (and a little more, for the data rows
    of ``benchmarks/review_calibration.py --dump``)."""
    est = ReviewEstimator(view)
    return {
        "kind": decision_kind(view.phase, legal).value,
        "phase": view.phase.name,
        "draws_left": view.draws_left,
        "wall_left": view.wall_left,
        "turn": len(view.discards[view.seat]),
        "dealer": int(view.dealer == view.seat),
        "ready": int(view.riichi[view.seat]),
        "opp_ready": int(view.riichi[1 - view.seat]),
        "melds": len(view.melds),
        "opp_melds": len(view.opponent_melds),
        "size": view.size,
        "shanten": est.shanten(view.key, view.size, view.jokers, bool(view.melds)),
    }


def terms(raw: float, f: Mapping[str, Any], draws: float) -> list[float]:
    """The values of :data:`TERMS` for the raw chance ``raw`` and the features ``f``; the stage is the
    draws left over ``draws`` (the most at the start of the room's hands), at most 1."""
    p = min(1.0 - CLIP, max(CLIP, raw))
    x = math.log(p / (1.0 - p))
    s = min(1.0, max(0.0, f["draws_left"] / draws))
    o = float(f["opp_ready"])
    sh = f["shanten"]
    kind = f["kind"]
    return [
        1.0,
        x,
        s,
        x * s,
        float(f["ready"]),
        o,
        x * o,
        float(sh <= 0),
        float(sh == 1),
        float(sh >= 3),
        *(float(kind == k) for k in KINDS),
        float(kind not in KINDS and kind != "discard"),
    ]


Model = tuple[int, tuple[float, ...], tuple[float, ...], tuple[float, ...]]
"""(the draws at the start of a hand (the stage's scale), the coefficients of :data:`TERMS`, knots of the
logistic's chance, the observed rate at each): the knots a monotone map after the logistic (piecewise
linear; empty: none)."""

# fmt: off
MODELS: dict[str, Model] = {
    "cuopai789": (
        44,
        (
            1.08, 1.4668, -0.1795, -0.7539, -0.615, -0.4813, -0.1567, 0.4441, 0.1533, -0.0682, 0.1009,
            -0.0811, -0.4276, 2.3269, -0.1385
        ),
        (
            0.1069, 0.2972, 0.3501, 0.3818, 0.4031, 0.4193, 0.4326, 0.4457, 0.4582, 0.4692, 0.481, 0.4917,
            0.5044, 0.5224, 0.5441, 0.5835, 0.6276, 0.7033, 0.8825, 1.0
        ),
        (
            0.0971, 0.3028, 0.3512, 0.3953, 0.4119, 0.421, 0.4388, 0.4419, 0.4502, 0.4669, 0.4819, 0.4984,
            0.5123, 0.5251, 0.5598, 0.5753, 0.5976, 0.7032, 0.882, 1.0
        ),
    ),
    "classic64": (
        37,
        (
            -0.002, 1.122, 0.3537, -0.4834, -0.0697, -0.6397, -0.0529, 0.3209, 0.2853, -0.097, 0.0, 0.054,
            0.0336, 3.8042, 0.0793
        ),
        (
            0.2108, 0.2719, 0.3182, 0.3608, 0.3869, 0.4131, 0.4325, 0.4538, 0.4704, 0.4865, 0.5025, 0.517,
            0.5413, 0.5668, 0.6023, 0.6429, 0.7093, 0.9484, 1.0
        ),
        (
            0.2269, 0.2739, 0.321, 0.3646, 0.3849, 0.3932, 0.4167, 0.4399, 0.4813, 0.4831, 0.4971, 0.5378,
            0.5557, 0.5849, 0.6081, 0.6369, 0.7093, 0.9541, 1.0
        ),
    ),
    "wushuang128": (
        101,
        (
            -0.1157, 1.6391, 0.446, -0.9199, 0.0433, -0.5664, -0.0902, 0.2152, 0.2789, -0.0927, 0.0, 0.0546,
            0.0993, 3.7418, 0.0133
        ),
        (
            0.2291, 0.2893, 0.3341, 0.371, 0.3929, 0.4074, 0.4214, 0.4363, 0.4463, 0.4584, 0.4732, 0.4891,
            0.5031, 0.5244, 0.5465, 0.5728, 0.6063, 0.6516, 0.7183, 0.9529, 1.0
        ),
        (
            0.2423, 0.2931, 0.3373, 0.3524, 0.369, 0.4031, 0.4094, 0.4174, 0.422, 0.4734, 0.474, 0.4887,
            0.5254, 0.5501, 0.5609, 0.575, 0.5836, 0.6473, 0.7397, 0.9603, 1.0
        ),
    ),
    "wenzhou2p": (
        120,
        (
            -0.261, 2.0028, 1.112, -1.4729, 0.0, 0.0, 0.0, -0.7187, -0.4624, 0.0104, 0.0, -0.1331, 0.0,
            0.3296, -0.7427
        ),
        (
            0.2636, 0.3168, 0.3454, 0.3681, 0.388, 0.4063, 0.4245, 0.4415, 0.4594, 0.4802, 0.5032, 0.5124,
            0.529, 0.5444, 0.5759, 0.6092, 0.6504, 0.7018, 0.7805, 0.9749, 1.0
        ),
        (
            0.271, 0.3178, 0.3442, 0.3543, 0.3742, 0.3998, 0.4257, 0.4436, 0.4714, 0.4911, 0.4986, 0.5085,
            0.5278, 0.558, 0.5812, 0.6184, 0.6367, 0.7035, 0.7815, 0.9683, 1.0
        ),
    ),
}
# fmt: on
"""Per preset (see :data:`Model`): ``review_calibration_fit.py --fit P.cal-t.jsonl P.cal-v.jsonl --iso 20``
(``level5`` against ``greedy``, level3 then, 140,000 decisions per preset of the seeds ``cal-t`` and
``cal-v``), reported on ``cal-r3`` (docs/review.md)."""


def calibrated(rules: str, raw: float, f: Mapping[str, Any]) -> float:
    """The observed rate for the race's chance ``raw`` with the features ``f`` (:func:`features`); ``raw``
    itself for a room without a model. Non-decreasing in ``raw`` for given features."""
    found = MODELS.get(rules)
    if found is None:
        return raw
    draws, coef, xs, ys = found
    z = sum(c * t for c, t in zip(coef, terms(raw, f, draws), strict=True))
    q = 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
    if not xs:
        return q
    if q <= xs[0]:
        return ys[0]
    if q >= xs[-1]:
        return ys[-1]
    i = bisect.bisect_right(xs, q)
    x0, x1, y0, y1 = xs[i - 1], xs[i], ys[i - 1], ys[i]
    return y0 + (y1 - y0) * (q - x0) / (x1 - x0) if x1 > x0 else y0
