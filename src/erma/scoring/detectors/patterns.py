"""Whole-hand set patterns (组合): every set alike (all pungs, all chows, outside hand, all five, …), the
terminal chows with a 5 pair, the little winds and dragons."""

from __future__ import annotations

from typing import Final

from erma.scoring.detectors.kinds import DRAGON_SET, WINDS_SET, suit
from erma.scoring.detectors.registry import NONE, SET_SHAPES, Hit, fan
from erma.scoring.features import (
    F_DRAGON_PUNG,
    F_EDGE_PAIR,
    F_NO_CHOW,
    F_NO_HONORS,
    F_NO_PUNG,
    F_ONE_SUIT,
    F_PAIR_FIVE,
    F_PUNG,
    F_SUITED_PAIR,
    F_THREE_SUITS,
    F_WIND_PUNG,
    REGULAR,
)
from erma.scoring.groups import CHOW
from erma.scoring.readings import HandView

_ANY: Final = tuple(True for _ in range(34))
_NONE: Final = tuple(False for _ in range(34))
_OUTSIDE_CHOW: Final = tuple(t < 27 and t % 9 in (0, 6) for t in range(34))
"""By a chow's lowest tile: it holds a terminal (123, 789)."""
_OUTSIDE_PUNG: Final = tuple(t >= 27 or t % 9 in (0, 8) for t in range(34))
"""By a pung's (or the pair's) tile: a terminal or an honour."""
_FIVE_CHOW: Final = tuple(t < 27 and t % 9 in (2, 3, 4) for t in range(34))
"""By a chow's lowest tile: it holds a 5 (345, 456, 567)."""
_FIVE_PUNG: Final = tuple(t < 27 and t % 9 == 4 for t in range(34))
_EVEN_PUNG: Final = tuple(t < 27 and t % 9 in (1, 3, 5, 7) for t in range(34))
"""By a pung's tile: a suited 2, 4, 6 or 8."""


@fan("all_pungs", frozenset({REGULAR}), needs=F_NO_CHOW | F_PUNG)
def all_pungs(v: HandView) -> list[Hit]:
    """碰碰和 All Pungs: four pungs or kongs."""
    return [tuple([g.tiles for g in v.sets])] if len(v.pungs) == 4 else NONE


def _every_set(v: HandView, chow_ok: tuple[bool, ...], pung_ok: tuple[bool, ...]) -> list[Hit]:
    """The whole reading as one hit if every set is allowed (chows by their lowest tile, pungs and the pair
    by their tile), else none."""
    for g in v.sets:
        if not (chow_ok[g.tile] if g.kind == CHOW else pung_ok[g.tile]):
            return NONE
    if not pung_ok[v.pair]:
        return NONE
    return [_whole(v)]


def _whole(v: HandView) -> Hit:
    """Every set of the reading and its pair."""
    sets = v.sets
    p = v.pair
    if len(sets) == 4:  # a regular reading: one tuple built
        a, b, c, d = sets
        return a.tiles, b.tiles, c.tiles, d.tiles, (p, p)
    return (*[g.tiles for g in sets], (p, p))


@fan("outside_hand", frozenset({REGULAR}), needs=F_EDGE_PAIR)
def outside_hand(v: HandView) -> list[Hit]:
    """全带幺 Outside Hand: every set and the pair hold a terminal or an honour."""
    return _every_set(v, _OUTSIDE_CHOW, _OUTSIDE_PUNG)


@fan("all_five", frozenset({REGULAR}), needs=F_PAIR_FIVE)
def all_five(v: HandView) -> list[Hit]:
    """全带五 All Five: every set and the pair hold a 5."""
    return _every_set(v, _FIVE_CHOW, _FIVE_PUNG)


@fan("all_even_pungs", frozenset({REGULAR}), needs=F_NO_CHOW | F_SUITED_PAIR | F_NO_HONORS)
def all_even_pungs(v: HandView) -> list[Hit]:
    """全双刻 All Even Pungs: pungs and pair of 2 4 6 8 only."""
    return _every_set(v, _NONE, _EVEN_PUNG)


@fan("pure_terminal_chows", frozenset({REGULAR}), needs=F_PAIR_FIVE | F_NO_PUNG | F_ONE_SUIT | F_NO_HONORS)
def pure_terminal_chows(v: HandView) -> list[Hit]:
    """一色双龙会 Pure Terminal Chows: 123 123 789 789 and 55 of one suit."""
    p = v.pair
    if len(v.chows) != 4 or p >= 27 or p % 9 != 4:
        return NONE
    base = p - 4
    if sorted(v.chows) == [base, base, base + 6, base + 6]:
        return _every_set(v, _ANY, _ANY)
    return NONE


@fan(
    "three_suited_terminal_chows",
    frozenset({REGULAR}),
    needs=F_PAIR_FIVE | F_NO_PUNG | F_THREE_SUITS | F_NO_HONORS,
)
def three_suited_terminal_chows(v: HandView) -> list[Hit]:
    """三色双龙会 Three-Suited Terminal Chows: 123 and 789 in two suits, 55 in the third."""
    p = v.pair
    if len(v.chows) != 4 or p >= 27 or p % 9 != 4:
        return NONE
    others = [s for s in range(3) if s != suit(p)]
    want = sorted(9 * s + r for s in others for r in (0, 6))
    if sorted(v.chows) == want:
        return _every_set(v, _ANY, _ANY)
    return NONE


@fan("all_chows", SET_SHAPES, needs=F_NO_PUNG | F_SUITED_PAIR)
def all_chows(v: HandView) -> list[Hit]:
    """平和 All Chows: chows only and a suited pair (组合龙: its one set is a chow)."""
    if v.pair < 27 and not v.pungs:  # every pung and kong is in v.pungs
        return [_whole(v)]
    return NONE


@fan("little_four_winds", frozenset({REGULAR}), needs=F_WIND_PUNG)
def little_four_winds(v: HandView) -> list[Hit]:
    """小四喜 Little Four Winds: three wind pungs and a wind pair."""
    winds = [g.tiles for g in v.sets if g.kind != CHOW and g.tile in WINDS_SET]
    if len(winds) == 3 and v.pair in WINDS_SET:
        return [(*winds, (v.pair, v.pair))]
    return NONE


@fan("little_three_dragons", frozenset({REGULAR}), needs=F_DRAGON_PUNG)
def little_three_dragons(v: HandView) -> list[Hit]:
    """小三元 Little Three Dragons: two dragon pungs and a dragon pair."""
    dragons = [g.tiles for g in v.sets if g.kind != CHOW and g.tile in DRAGON_SET]
    if len(dragons) == 2 and v.pair in DRAGON_SET:
        return [(*dragons, (v.pair, v.pair))]
    return NONE
