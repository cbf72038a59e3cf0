"""The special shapes' fans (特殊和型): thirteen orphans, honours and knitted, the knitted straight,
seven pairs and seven shifted pairs, nine gates."""

from __future__ import annotations

from erma.scoring.detectors.kinds import suit
from erma.scoring.detectors.registry import NONE, Hit, fan
from erma.scoring.features import (
    F_CONCEALED,
    F_NO_HONORS,
    F_ONE_SUIT,
    HONORS_KNITTED,
    KNITTED,
    REGULAR,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
)
from erma.scoring.readings import HandView


@fan("thirteen_orphans", frozenset({THIRTEEN_ORPHANS}), exact="hand")
def thirteen_orphans(v: HandView) -> list[Hit]:
    """十三幺 Thirteen Orphans: the 13 terminals and honours and one duplicate."""
    return [(v.facts.tiles,)]


@fan("greater_honors_and_knitted_tiles", frozenset({HONORS_KNITTED}))
def greater_honors_and_knitted_tiles(v: HandView) -> list[Hit]:
    """七星不靠 Greater Honors and Knitted Tiles: all 7 honours and 7 knitted suited tiles."""
    return [(v.facts.tiles,)] if sum(1 for t in v.facts.kinds if t < 27) == 7 else NONE


@fan("lesser_honors_and_knitted_tiles", frozenset({HONORS_KNITTED}), exact="hand")
def lesser_honors_and_knitted_tiles(v: HandView) -> list[Hit]:
    """全不靠 Lesser Honors and Knitted Tiles: 14 singles of a knitted sequence and honours."""
    return [(v.facts.tiles,)]


@fan("knitted_straight", frozenset({HONORS_KNITTED, KNITTED}))
def knitted_straight(v: HandView) -> list[Hit]:
    """组合龙 Knitted Straight: 147, 258, 369 each in a different suit."""
    if v.shape == KNITTED:
        return [(v.knitted,)]
    suited = tuple(t for t in v.facts.kinds if t < 27)
    return [(suited,)] if len(suited) == 9 else NONE


@fan("seven_pairs", frozenset({SEVEN_PAIRS}), exact="hand")
def seven_pairs(v: HandView) -> list[Hit]:
    """七对 Seven Pairs (a four of a kind gives two pairs)."""
    return [(v.facts.tiles,)]


@fan("seven_shifted_pairs", frozenset({SEVEN_PAIRS}), needs=F_ONE_SUIT | F_NO_HONORS)
def seven_shifted_pairs(v: HandView) -> list[Hit]:
    """连七对 Seven Shifted Pairs: seven consecutive pairs of one suit."""
    kinds = v.facts.kinds
    st = v.facts.standing
    one_run = (
        len(kinds) == 7 and kinds[0] < 27 and kinds[6] == kinds[0] + 6 and suit(kinds[0]) == suit(kinds[6])
    )
    return [(v.facts.tiles,)] if one_run and all(st[t] == 2 for t in kinds) else NONE


@fan("nine_gates", frozenset({REGULAR}), needs=F_ONE_SUIT | F_NO_HONORS | F_CONCEALED)
def nine_gates(v: HandView) -> list[Hit]:
    """九莲宝灯 Nine Gates: concealed 1112345678999 of one suit, won on any tile of it."""
    f = v.facts
    win = f.win_tile
    if f.declared or win >= 27:
        return NONE
    base = 9 * suit(win)
    c = list(f.standing[base : base + 9])
    c[win - base] = c[win - base] - 1
    return [(v.facts.tiles,)] if c == [3, 1, 1, 1, 1, 1, 1, 1, 3] else NONE
