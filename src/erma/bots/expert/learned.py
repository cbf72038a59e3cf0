"""A value of a hand far from ready learned from outcomes (学习估值): a linear model of the seat's final
points from simple features of the hand after a discard, for level5's early discards in the rule sets whose
wins need 8 fans or more (classic64, wushuang128; issue 39, docs/lab/2026-12-07-level5-learned-value.md).

The features read the seat's own view only: its concealed tiles after the discard, its sets, its river's
length and the opponent's sets. The weights (:data:`FAR_WEIGHTS`) were fitted by ridge regression
(``scripts/learned_value.py fit``) to the final points of the hands that level5 and greedy played from each
such position in self-play on tuning seeds.
"""

from __future__ import annotations

from collections.abc import Sequence

from erma.analysis import shapes
from erma.bots.base import BotView
from erma.hand import MeldKind

FEATURES: tuple[str, ...] = (
    "bias",
    "shanten",
    "useful",
    "turn",
    "honours",
    "no_honours",
    "few_honours",
    "lone_honours",
    "honour_pairs",
    "value_pairs",
    "honour_sets",
    "value_sets",
    "suit_pairs",
    "seven_pairs",
    "open_sets",
    "closed",
    "ranks",
    "pungish",
    "opp_sets",
    "honours_turn",
    "useful_turn",
    "shanten_turn",
)
"""The names of :func:`far_features`' entries, in order."""

FAR_WEIGHTS: tuple[float, ...] = ()
"""The fitted weights, one per :data:`FEATURES` entry (empty: no learned value)."""


def value_honours(view: BotView) -> frozenset[int]:
    """The honour kinds whose set scores by itself: the three dragons, the seat's and the prevalent wind."""
    return frozenset({31, 32, 33, 27 + view.seat_winds[view.seat] % 4, 27 + view.prevalent_wind % 4})


def far_features(
    view: BotView, counts: Sequence[int], key: int, n: int, s: int, useful: int, valued: frozenset[int]
) -> list[float]:
    """The features of the seat's hand after a discard: ``counts`` / ``key`` its ``n`` concealed tiles, ``s``
    its shanten, ``useful`` the unseen tiles that bring it closer; the rest from ``view`` (see
    :data:`FEATURES`)."""
    honours = lone = hpairs = vpairs = hsets = vsets = spairs = pungish = 0
    ranks = 0
    for t in range(27, 34):
        c = counts[t]
        if not c:
            continue
        honours += c
        if c == 1:
            lone += 1
        elif c == 2:
            if t in valued:
                vpairs += 1
            else:
                hpairs += 1
            pungish += 1
        else:
            if t in valued:
                vsets += 1
            else:
                hsets += 1
            pungish += 1
    seen_rank = [False] * 9
    for t in range(9):
        c = counts[t]
        if c:
            seen_rank[t] = True
        if c == 2:
            spairs += 1
        if c >= 2:
            pungish += 1
    open_sets = 0
    for m in view.melds:
        if m.kind is not MeldKind.CONCEALED_KONG:
            open_sets += 1
        if m.tile >= 27:
            honours += 3
            if m.tile in valued:
                vsets += 1
            else:
                hsets += 1
            pungish += 1
        elif m.kind is MeldKind.CHOW:
            for d in range(3):
                if m.tile + d < 9:
                    seen_rank[m.tile + d] = True
        else:
            pungish += 1
            if m.tile < 9:
                seen_rank[m.tile] = True
    for r in seen_rank:
        if r:
            ranks += 1
    seven = shapes.seven_pairs(key, n) if not view.melds and n == 13 else 6
    turn = len(view.discards[view.seat])
    return [
        1.0,
        float(s),
        useful / 10.0,
        turn / 10.0,
        float(honours),
        1.0 if honours == 0 else 0.0,
        1.0 if 0 < honours <= 2 else 0.0,
        float(lone),
        float(hpairs),
        float(vpairs),
        float(hsets),
        float(vsets),
        float(spairs),
        float(seven),
        float(open_sets),
        0.0 if open_sets else 1.0,
        float(ranks),
        float(pungish),
        float(len(view.opponent_melds)),
        honours * turn / 10.0,
        useful * turn / 100.0,
        s * turn / 10.0,
    ]


def far_value(weights: Sequence[float], features: Sequence[float]) -> float:
    """The predicted final points: the weights' dot product with the features."""
    total = 0.0
    for w, f in zip(weights, features, strict=False):
        total += w * f
    return total
