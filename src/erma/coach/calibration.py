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
            1.3262, 1.5272, -0.2851, -0.8454, -0.6088, -0.4718, -0.1444, 0.368, -0.0137, 0.0574, -0.0295,
            -0.1357, -0.5194, 2.2407, -0.2052
        ),
        (
            0.1025, 0.2935, 0.3461, 0.3767, 0.3986, 0.4148, 0.4302, 0.4439, 0.4557, 0.4686, 0.4878, 0.5104,
            0.5282, 0.5507, 0.5754, 0.5996, 0.6299, 0.7043, 0.8816, 1.0
        ),
        (
            0.0936, 0.2976, 0.3457, 0.387, 0.4067, 0.407, 0.4375, 0.4454, 0.4605, 0.4627, 0.4977, 0.5153,
            0.5359, 0.557, 0.5693, 0.5787, 0.6068, 0.7, 0.8843, 1.0
        ),
    ),
    "classic64": (
        37,
        (
            0.1447, 1.0772, 0.378, -0.3913, -0.0986, -0.6407, -0.0543, 0.2175, 0.1514, 0.069, 0.0, 0.0096,
            -0.025, 3.7117, 0.0519
        ),
        (
            0.2126, 0.2709, 0.3169, 0.3589, 0.3847, 0.4036, 0.4177, 0.4302, 0.4462, 0.4568, 0.4687, 0.4864,
            0.5017, 0.5186, 0.5436, 0.5697, 0.6066, 0.6463, 0.7136, 0.9502, 1.0
        ),
        (
            0.227, 0.2711, 0.3224, 0.3627, 0.377, 0.3895, 0.3934, 0.4216, 0.4261, 0.4464, 0.4823, 0.4899,
            0.498, 0.5386, 0.5619, 0.5854, 0.608, 0.6388, 0.7097, 0.9541, 1.0
        ),
    ),
    "wushuang128": (
        101,
        (
            -0.0824, 1.5192, 0.5756, -0.7687, 0.038, -0.5473, -0.0668, 0.0752, 0.145, 0.0398, 0.0, 0.0154,
            0.0837, 3.6028, 0.0113
        ),
        (
            0.2275, 0.2846, 0.3318, 0.3694, 0.3904, 0.405, 0.4189, 0.4337, 0.4438, 0.4564, 0.4736, 0.4883,
            0.5037, 0.5265, 0.5478, 0.5758, 0.6098, 0.6547, 0.7214, 0.9544, 1.0
        ),
        (
            0.236, 0.2905, 0.3376, 0.3558, 0.3662, 0.3993, 0.4005, 0.4163, 0.4288, 0.4705, 0.4746, 0.4961,
            0.521, 0.5442, 0.5661, 0.5723, 0.5872, 0.6496, 0.744, 0.9609, 1.0
        ),
    ),
    "wenzhou2p": (
        120,
        (
            -0.2432, 2.3504, 1.2634, -2.1871, 0.0, 0.0, 0.0, -0.7683, -0.5565, 0.1379, 0.0, -0.159, 0.0,
            0.5163, -1.0448
        ),
        (
            0.2541, 0.315, 0.3455, 0.37, 0.3906, 0.4101, 0.4284, 0.4461, 0.4649, 0.4843, 0.515, 0.5286,
            0.5468, 0.5772, 0.6081, 0.6463, 0.6933, 0.7648, 0.9715, 1.0
        ),
        (
            0.2822, 0.3222, 0.3395, 0.3605, 0.3712, 0.4079, 0.4155, 0.453, 0.4662, 0.4896, 0.502, 0.5273,
            0.5557, 0.5856, 0.6107, 0.6358, 0.7012, 0.7811, 0.9664, 1.0
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
