"""The start exchange (开始时换牌) as the expert plays it outside 温州: give back the tiles whose giving back
lowers most the mean shanten of the refilled hand."""

from __future__ import annotations

import random
from collections.abc import Sequence

from erma.analysis.tables import INC
from erma.bots.base import BotView
from erma.bots.expert.cached import copies, shanten
from erma.bots.greedy import exchange_room

EXCHANGE_SAMPLES = 48
"""Refills of the hand sampled for each start-exchange choice."""
EXCHANGE_GAIN = 0.03
"""The least mean-shanten gain for which a tile is given back in the start exchange."""


def exchange_pick(view: BotView, unseen: Sequence[int], seed: str, selected: Sequence[int]) -> int | None:
    """The start exchange's next tile to give back with ``selected`` marked: the one whose giving back lowers
    most the mean shanten of the hand refilled from the unseen tiles (``EXCHANGE_SAMPLES`` refills drawn
    with ``seed``, the same for every candidate), while it lowers it by more than ``EXCHANGE_GAIN``; None:
    commit. Bonus kinds are kept (each copy held is worth a fan), and no more than the rules allow."""
    key, n = view.key, view.size
    for t in selected:
        key -= INC[t]
    m = len(selected)
    if m >= exchange_room(view):
        return None
    pool = [t for t in view.kinds for _ in range(unseen[t])]
    rng = random.Random(seed)
    draws = [rng.sample(pool, min(len(pool), n)) for _ in range(EXCHANGE_SAMPLES)]

    allowed = view.shapes

    def mean_shanten(k: int, missing: int) -> float:
        total = 0
        for d in draws:
            kk = k
            for t in d[:missing]:
                kk += INC[t]
            total += shanten(kk, n, allowed)
        return total / len(draws)

    now = mean_shanten(key, m)
    bonus = set(view.bonus_kinds)
    best: tuple[float, int] | None = None
    for t in view.kinds:
        if not copies(key, t) or t in bonus:
            continue
        gain = now - mean_shanten(key - INC[t], m + 1)
        if gain > EXCHANGE_GAIN and (best is None or gain > best[0]):
            best = (gain, t)
    return best[1] if best else None
