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
            1.2179, 1.4924, -0.2699, -0.739, -0.6367, -0.4453, -0.1353, 0.462, 0.1332, -0.0152, 0.0686,
            -0.1074, -0.5071, 1.8795, -0.176
        ),
        (
            0.107, 0.2945, 0.3479, 0.38, 0.4014, 0.4182, 0.4315, 0.4459, 0.4585, 0.47, 0.4823, 0.4995,
            0.5242, 0.5466, 0.5731, 0.5998, 0.6327, 0.7108, 0.8862, 1.0
        ),
        (
            0.099, 0.2993, 0.3577, 0.39, 0.4087, 0.4233, 0.444, 0.4443, 0.4471, 0.463, 0.4689, 0.5095,
            0.5212, 0.5575, 0.5789, 0.5798, 0.6059, 0.7145, 0.8876, 1.0
        ),
    ),
    "classic64": (
        37,
        (
            0.0412, 0.9294, 0.3058, -0.2665, -0.0817, -0.6288, -0.025, 0.3731, 0.2929, -0.0724, 0.0, 0.0576,
            -0.0175, 3.559, -0.0108
        ),
        (
            0.2137, 0.2744, 0.3228, 0.3663, 0.4013, 0.4227, 0.435, 0.4502, 0.4593, 0.4706, 0.4857, 0.5009,
            0.5161, 0.5415, 0.5679, 0.6038, 0.6438, 0.71, 0.9496, 1.0
        ),
        (
            0.2362, 0.2778, 0.3224, 0.3703, 0.3906, 0.4026, 0.4113, 0.431, 0.4538, 0.4668, 0.4879, 0.4998,
            0.5324, 0.5566, 0.5965, 0.5998, 0.6404, 0.716, 0.954, 1.0
        ),
    ),
    "wushuang128": (
        101,
        (
            -0.0126, 2.0245, 0.348, -1.307, 0.0922, -0.5777, -0.1195, 0.2478, 0.2808, -0.0728, 0.0, 0.0505,
            0.0572, 3.3636, -0.0582
        ),
        (
            0.2285, 0.2895, 0.3333, 0.3689, 0.3908, 0.4067, 0.4272, 0.4457, 0.4652, 0.4886, 0.5025, 0.5349,
            0.5894, 0.6522, 0.72, 0.9532, 1.0
        ),
        (
            0.2398, 0.296, 0.3322, 0.3556, 0.3698, 0.3958, 0.4089, 0.4148, 0.4793, 0.487, 0.5242, 0.5513,
            0.5896, 0.6472, 0.7314, 0.9612, 1.0
        ),
    ),
    "wenzhou2p": (
        120,
        (
            -0.2839, 1.842, 1.1109, -1.2758, 0.0, 0.0, 0.0, -0.6887, -0.436, 0.0109, 0.0, -0.1264, 0.0,
            0.3418, -0.7247
        ),
        (
            0.2711, 0.322, 0.3497, 0.3714, 0.3905, 0.408, 0.4255, 0.4419, 0.4593, 0.4791, 0.5008, 0.5096,
            0.5272, 0.5405, 0.5706, 0.6033, 0.6439, 0.6942, 0.7734, 0.973, 1.0
        ),
        (
            0.2788, 0.3282, 0.3476, 0.3612, 0.3743, 0.4008, 0.4234, 0.451, 0.4698, 0.4805, 0.4952, 0.5116,
            0.5294, 0.5514, 0.5777, 0.6064, 0.6298, 0.6904, 0.782, 0.9656, 1.0
        ),
    ),
}
# fmt: on
"""Per preset (see :data:`Model`)."""


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
