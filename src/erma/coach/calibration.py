"""The calibration of the review's chance of winning (胜率校准): a map from the race's chance to the rate
observed in self-play, fitted by ``benchmarks/review_calibration.py --fit`` on one set of seeds (and reported
on another). docs/review.md has the tables."""

from __future__ import annotations

import bisect

MAPS: dict[str, tuple[tuple[float, ...], tuple[float, ...]]] = {}
"""Per preset: (knots of the raw chance, the observed rate at each), piecewise linear between them."""


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
