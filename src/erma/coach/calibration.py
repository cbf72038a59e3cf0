"""The calibration of the review's chance of winning (胜率校准): a map from the race's chance to the rate
observed in self-play, fitted by ``benchmarks/review_calibration.py --fit`` on one set of seeds (and reported
on another). docs/review.md has the tables."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any

from erma.bots.base import BotView
from erma.coach.estimate import ReviewEstimator
from erma.coach.kinds import decision_kind
from erma.game.actions import Action

MAPS: dict[str, tuple[tuple[float, ...], tuple[float, ...]]] = {
    "cuopai789": (
        (
            0.0229,
            0.1083,
            0.1295,
            0.1434,
            0.1532,
            0.165,
            0.1742,
            0.1831,
            0.1924,
            0.2059,
            0.2241,
            0.275,
            0.3437,
            0.4094,
            0.5065,
            0.7772,
        ),
        (
            0.0493,
            0.2413,
            0.3307,
            0.3409,
            0.3747,
            0.376,
            0.396,
            0.4368,
            0.4653,
            0.4967,
            0.5033,
            0.5352,
            0.564,
            0.616,
            0.6733,
            0.8682,
        ),
    ),
    "classic64": (
        (
            0.161,
            0.2078,
            0.2324,
            0.2535,
            0.2666,
            0.2821,
            0.2972,
            0.3095,
            0.324,
            0.3394,
            0.3627,
            0.3887,
            0.4062,
            0.4462,
            0.5056,
            0.6012,
            0.9289,
        ),
        (
            0.2987,
            0.3507,
            0.3584,
            0.3955,
            0.396,
            0.408,
            0.4261,
            0.428,
            0.4288,
            0.4773,
            0.5123,
            0.5267,
            0.5273,
            0.5547,
            0.6059,
            0.7147,
            0.9507,
        ),
    ),
    "wushuang128": (
        (
            0.1594,
            0.2149,
            0.242,
            0.2678,
            0.2819,
            0.2976,
            0.3168,
            0.3527,
            0.4114,
            0.4724,
            0.5263,
            0.6111,
            0.9331,
        ),
        (0.2453, 0.2973, 0.354, 0.3973, 0.3987, 0.4093, 0.422, 0.5004, 0.553, 0.572, 0.604, 0.7387, 0.94),
    ),
    "wenzhou2p": (
        (0.2277, 0.2767, 0.3807, 0.5086, 0.5833, 0.6197, 0.6516, 0.6853, 0.727, 0.7903, 0.9759),
        (0.284, 0.3662, 0.4101, 0.5128, 0.522, 0.5712, 0.6005, 0.6867, 0.6937, 0.755, 0.9614),
    ),
}
"""Per preset: (knots of the raw chance, the observed rate at each), piecewise linear between them.
Fitted by ``benchmarks/review_calibration.py --fit --decisions 15000 --seed cal-t`` (level5 against level3;
about 15,000 decisions per preset): 20 quantile bins of the raw chance, made monotone (pool adjacent
violators), each pooled run one knot at its mean chance (strictly increasing: no two chances tie)."""


def calibrated(rules: str, raw: float) -> float:
    """The observed rate for the race's chance ``raw`` (``raw`` itself for a room without a map)."""
    found = MAPS.get(rules)
    if found is None:
        return raw
    xs, ys = found
    if raw <= xs[0]:
        return ys[0]
    if raw >= xs[-1]:
        return ys[-1]
    i = bisect.bisect_right(xs, raw)
    x0, x1, y0, y1 = xs[i - 1], xs[i], ys[i - 1], ys[i]
    return y0 + (y1 - y0) * (raw - x0) / (x1 - x0) if x1 > x0 else y0


def features(view: BotView, legal: Sequence[Action]) -> dict[str, Any]:
    """What the seat sees that a map may read besides the raw chance (the calibration's data rows)."""
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
