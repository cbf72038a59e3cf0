"""The shapes of a winning hand (和牌型) and its facts as bits (特征): what a detector may declare it needs.

A reading's ``features`` (and its hand's) hold one ``F_*`` bit per fact that holds; a detector declares
the ones it cannot do without (``@fan(..., needs=F_PUNG | F_HONORS)``) and the pipeline skips it on
readings that lack one. The kind masks (one bit per kind, bit t for kind t) are the hand's ``mask``'s.

>>> pung_facts(1 << 31) == F_PUNG | F_HONOR_PUNG | F_DRAGON_PUNG  # a pung of 中
True
"""

from __future__ import annotations

from typing import Final

from erma.tiles import BAMBOOS, DOTS, WHITE

REGULAR: Final = "regular"
"""基本和型: four sets and a pair."""
SEVEN_PAIRS: Final = "seven_pairs"
"""七对: seven pairs, concealed."""
THIRTEEN_ORPHANS: Final = "thirteen_orphans"
"""十三幺."""
HONORS_KNITTED: Final = "honors_and_knitted"
"""全不靠 / 七星不靠: fourteen singles of a knitted sequence and the honours."""
KNITTED: Final = "knitted_straight"
"""组合龙 + a set + a pair."""
ALL_SHAPES: Final = frozenset({REGULAR, SEVEN_PAIRS, THIRTEEN_ORPHANS, HONORS_KNITTED, KNITTED})

# Facts of a reading, one bit each (HandView.features): a detector declares the ones it needs
# (``@fan(..., needs=F_PUNG | F_HONORS)``) and the pipeline skips it on readings that lack one.
# Hand facts (the same for every reading of a hand):
F_HONORS: Final = 1 << 0
"""Some honour tile."""
F_NO_HONORS: Final = 1 << 1
"""No honour tile."""
F_ONE_SUIT: Final = 1 << 2
"""Exactly one suit present."""
F_TWO_SUITS: Final = 1 << 3
"""Exactly two suits present."""
F_THREE_SUITS: Final = 1 << 4
"""All three suits present."""
F_WINDS_DRAGONS: Final = 1 << 5
"""Some wind and some dragon tile."""
F_SELF_DRAWN: Final = 1 << 6
"""自摸."""
F_DISCARD: Final = 1 << 7
"""Won on a discard (or a robbed kong)."""
F_CONCEALED: Final = 1 << 8
"""No claimed set (concealed kongs allowed)."""
F_ALL_MELDED: Final = 1 << 9
"""Four claimed sets."""
F_WALL_LAST: Final = 1 << 10
"""The last wall tile."""
F_LAST_TILE: Final = 1 << 11
"""和绝张 (after the corrections)."""
F_KONG_INVOLVED: Final = 1 << 12
"""杠上开花 / 抢杠和 flag (after the corrections)."""
F_FLOWERS: Final = 1 << 13
"""Some flower held."""
F_FOUR_COPIES: Final = 1 << 14
"""Some kind held four times or more."""
F_TERMINALS_ONLY: Final = 1 << 15
"""Only 1s and 9s."""
F_OUTSIDE_ONLY: Final = 1 << 16
"""Only terminals and honours."""
F_SIMPLES_ONLY: Final = 1 << 17
"""No terminal or honour."""
F_GREEN_ONLY: Final = 1 << 18
"""Only 23468s and 发."""
F_REVERSIBLE_ONLY: Final = 1 << 19
"""Only 1234589p, 245689s and 白."""
F_RANKS_1_4: Final = 1 << 20
"""Suited ranks all within 1–4 (or no suited tile)."""
F_RANKS_4_6: Final = 1 << 21
"""Suited ranks all within 4–6."""
F_RANKS_6_9: Final = 1 << 22
"""Suited ranks all within 6–9."""
# Reading facts:
F_CHOW: Final = 1 << 24
"""Some chow among the sets."""
F_NO_CHOW: Final = 1 << 25
"""No chow among the sets."""
F_PUNG: Final = 1 << 26
"""Some pung or kong among the sets."""
F_NO_PUNG: Final = 1 << 27
"""No pung or kong among the sets."""
F_KONG: Final = 1 << 28
"""Some kong."""
F_HONOR_PUNG: Final = 1 << 29
"""Some pung or kong of a wind or dragon."""
F_EDGE_PUNG: Final = 1 << 30
"""Some pung or kong of a terminal or wind (幺九刻)."""
F_CONCEALED_PUNGS: Final = 1 << 31
"""Two or more concealed pungs (暗刻)."""
F_PAIR_FIVE: Final = 1 << 32
"""The pair is a suited 5."""
F_SUITED_PAIR: Final = 1 << 33
"""The pair is suited."""
F_WAIT_SPOT: Final = 1 << 37
"""The winning tile may make a wait fan: it sits in a standing chow or the pair (always for 组合龙)."""
F_WAIT_EDGE: Final = 1 << 38
"""The reading's wait fan is 边张 (a unique wait; implies F_WAIT_SPOT)."""
F_WAIT_CLOSED: Final = 1 << 39
"""The reading's wait fan is 嵌张 (a unique wait; implies F_WAIT_SPOT)."""
F_WAIT_SINGLE: Final = 1 << 40
"""The reading's wait fan is 单钓将 (a unique wait; implies F_WAIT_SPOT)."""
F_EDGE_PAIR: Final = 1 << 34
"""The pair is a terminal or an honour."""
F_WIND_PUNG: Final = 1 << 35
"""Some pung or kong of a wind."""
F_DRAGON_PUNG: Final = 1 << 36
"""Some pung or kong of a dragon."""
F_KONG_OR_ROBBING: Final = 1 << 23
"""A hand fact: the 杠上开花 / 抢杠和 flag (after the corrections) or ``WinContext.robbing``."""
# The reading's shape, one bit each (so that a reading's facts alone choose its detectors):
F_SHAPE_REGULAR: Final = 1 << 41
F_SHAPE_SEVEN_PAIRS: Final = 1 << 42
F_SHAPE_THIRTEEN_ORPHANS: Final = 1 << 43
F_SHAPE_HONORS_KNITTED: Final = 1 << 44
F_SHAPE_KNITTED: Final = 1 << 45
SHAPE_BITS: Final = {
    REGULAR: F_SHAPE_REGULAR,
    SEVEN_PAIRS: F_SHAPE_SEVEN_PAIRS,
    THIRTEEN_ORPHANS: F_SHAPE_THIRTEEN_ORPHANS,
    HONORS_KNITTED: F_SHAPE_HONORS_KNITTED,
    KNITTED: F_SHAPE_KNITTED,
}
"""The shape bit of each shape."""

REVERSIBLE: Final = frozenset(
    (*(DOTS[i] for i in (0, 1, 2, 3, 4, 7, 8)), *(BAMBOOS[i] for i in (1, 3, 4, 5, 7, 8)), WHITE)
)
"""推不倒 tiles: 1234589p, 245689s, 白 (F_REVERSIBLE_ONLY)."""
M_HONORS: Final = 0x7F << 27
"""The honour kinds."""
M_WINDS: Final = 0xF << 27
"""The winds."""
M_DRAGONS: Final = 0x7 << 31
"""The dragons."""
M_TERMINALS: Final = sum(1 << (9 * s + r) for s in range(3) for r in (0, 8))
"""The terminals (1s and 9s)."""
M_EDGE_PUNG: Final = M_TERMINALS | M_WINDS
"""幺九刻 kinds: terminals and winds."""


def pung_facts(pm: int) -> int:
    """The pung facts of the pungs and kongs whose kinds are the bits of ``pm``."""
    if not pm:
        return 0
    f = F_PUNG
    if pm & M_HONORS:
        f |= F_HONOR_PUNG
        if pm & M_WINDS:
            f |= F_WIND_PUNG
        if pm & M_DRAGONS:
            f |= F_DRAGON_PUNG
    if pm & M_EDGE_PUNG:
        f |= F_EDGE_PUNG
    return f
