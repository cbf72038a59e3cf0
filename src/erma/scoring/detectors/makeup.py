"""Tile make-up fans (牌型): which suits, ranks, terminals and honours the whole hand holds, and 四归一."""

from __future__ import annotations

from typing import Final

from erma.scoring.detectors.registry import NONE, TILE_SHAPES, Detector, Hit, fan
from erma.scoring.features import (
    F_FOUR_COPIES,
    F_GREEN_ONLY,
    F_HONORS,
    F_NO_HONORS,
    F_ONE_SUIT,
    F_OUTSIDE_ONLY,
    F_RANKS_1_4,
    F_RANKS_4_6,
    F_RANKS_6_9,
    F_REVERSIBLE_ONLY,
    F_SIMPLES_ONLY,
    F_TERMINALS_ONLY,
    F_THREE_SUITS,
    F_TWO_SUITS,
    F_WINDS_DRAGONS,
    REVERSIBLE,
)
from erma.scoring.groups import KONG
from erma.scoring.readings import HandView
from erma.tiles import GREENS

GREEN_SET: Final = frozenset(GREENS)
"""绿一色 tiles."""
_F_ANY_SUIT: Final = F_ONE_SUIT | F_TWO_SUITS | F_THREE_SUITS
_F_FULL_FLUSH: Final = F_ONE_SUIT | F_NO_HONORS
_F_HALF_FLUSH: Final = F_ONE_SUIT | F_HONORS
_F_ALL_TYPES: Final = F_THREE_SUITS | F_WINDS_DRAGONS
_LOW_BITS: Final = sum(1 << (4 * r) for r in range(9))
"""The low bit of each kind's count in a group's packed counts."""


@fan("all_green", TILE_SHAPES, needs=F_GREEN_ONLY, exact="hand")
def all_green(v: HandView) -> list[Hit]:
    """绿一色 All Green: only 23468s and 发."""
    return [(v.facts.tiles,)] if all(t in GREEN_SET for t in v.facts.kinds) else NONE


@fan("all_terminals", TILE_SHAPES, needs=F_TERMINALS_ONLY, exact="hand")
def all_terminals(v: HandView) -> list[Hit]:
    """清幺九 All Terminals: only 1s and 9s."""
    return [(v.facts.tiles,)] if v.features & F_TERMINALS_ONLY else NONE


@fan("all_honors", TILE_SHAPES, needs=F_OUTSIDE_ONLY | F_HONORS)
def all_honors(v: HandView) -> list[Hit]:
    """字一色 All Honors."""
    return [(v.facts.tiles,)] if not v.features & _F_ANY_SUIT else NONE


@fan("all_terminals_and_honors", TILE_SHAPES, needs=F_OUTSIDE_ONLY, exact="hand")
def all_terminals_and_honors(v: HandView) -> list[Hit]:
    """混幺九 All Terminals and Honors: only terminals and honours."""
    return [(v.facts.tiles,)] if v.features & F_OUTSIDE_ONLY else NONE


@fan("all_simples", TILE_SHAPES, needs=F_SIMPLES_ONLY, exact="hand")
def all_simples(v: HandView) -> list[Hit]:
    """断幺 All Simples: no terminal or honour."""
    return [(v.facts.tiles,)] if v.features & F_SIMPLES_ONLY else NONE


@fan("reversible_tiles", TILE_SHAPES, needs=F_REVERSIBLE_ONLY, exact="hand")
def reversible_tiles(v: HandView) -> list[Hit]:
    """推不倒 Reversible Tiles: only 1234589p, 245689s and 白."""
    return [(v.facts.tiles,)] if all(t in REVERSIBLE for t in v.facts.kinds) else NONE


@fan("full_flush", TILE_SHAPES, needs=F_ONE_SUIT | F_NO_HONORS, exact="hand")
def full_flush(v: HandView) -> list[Hit]:
    """清一色 Full Flush: one suit, no honours."""
    return [(v.facts.tiles,)] if v.features & _F_FULL_FLUSH == _F_FULL_FLUSH else NONE


@fan("half_flush", TILE_SHAPES, needs=F_ONE_SUIT | F_HONORS, exact="hand")
def half_flush(v: HandView) -> list[Hit]:
    """混一色 Half Flush: one suit and honours."""
    return [(v.facts.tiles,)] if v.features & _F_HALF_FLUSH == _F_HALF_FLUSH else NONE


@fan("one_voided_suit", TILE_SHAPES, needs=F_TWO_SUITS, exact="hand")
def one_voided_suit(v: HandView) -> list[Hit]:
    """缺一门 One Voided Suit: exactly one suit absent."""
    return [(v.facts.tiles,)] if v.features & F_TWO_SUITS else NONE


@fan("no_honors", TILE_SHAPES, needs=F_NO_HONORS, exact="hand")
def no_honors(v: HandView) -> list[Hit]:
    """无字 No Honors."""
    return [(v.facts.tiles,)] if v.features & F_NO_HONORS else NONE


@fan("all_types", TILE_SHAPES, needs=F_THREE_SUITS | F_WINDS_DRAGONS, exact="hand")
def all_types(v: HandView) -> list[Hit]:
    """五门齐 All Types: three suits, a wind and a dragon."""
    return [(v.facts.tiles,)] if v.features & _F_ALL_TYPES == _F_ALL_TYPES else NONE


def _range_fan(lo: int, hi: int) -> Detector:
    def detect(v: HandView) -> list[Hit]:
        f = v.facts
        return [(v.facts.tiles,)] if not f.honors and lo <= f.ranks[0] and f.ranks[1] <= hi else NONE

    return detect


fan("upper_tiles", TILE_SHAPES, F_NO_HONORS | F_RANKS_6_9)(_range_fan(7, 9))  # 全大 Upper Tiles: only 7 8 9
fan("middle_tiles", TILE_SHAPES, F_NO_HONORS | F_RANKS_4_6, "hand")(
    _range_fan(4, 6)
)  # 全中 Middle Tiles: only 4 5 6
fan("lower_tiles", TILE_SHAPES, F_NO_HONORS | F_RANKS_1_4)(_range_fan(1, 3))  # 全小 Lower Tiles: only 1 2 3
fan("upper_four", TILE_SHAPES, F_NO_HONORS | F_RANKS_6_9, "hand")(
    _range_fan(6, 9)
)  # 大于五 Upper Four: only 6–9
fan("lower_four", TILE_SHAPES, F_NO_HONORS | F_RANKS_1_4, "hand")(
    _range_fan(1, 4)
)  # 小于五 Lower Four: only 1–4


@fan("tile_hog", TILE_SHAPES, needs=F_FOUR_COPIES)
def tile_hog(v: HandView) -> list[Hit]:
    """四归一 Tile Hog: all four copies of a kind used, not as a kong (each; 无双: 4+ outside kongs)."""
    kongs = v.melded_kongs or v.concealed_kongs
    hits: list[Hit] = []
    m0, m1, m2, m3 = v.facts.suit_infos  # (unpacked: a loop over the tuple would box it)
    _hogs(hits, v, m0.key, 0, kongs)
    _hogs(hits, v, m1.key, 1, kongs)
    _hogs(hits, v, m2.key, 2, kongs)
    _hogs(hits, v, m3.key, 3, kongs)
    return hits


def _hogs(hits: list[Hit], v: HandView, k: int, gi: int, kongs: int) -> None:
    """Add 四归一's hits of one group (``k``: the group's whole hand, 4 bits a kind), kind by kind."""
    if kongs:
        for g in v.sets:
            if g.kind == KONG and g.group == gi:
                k -= g.part
    hog = (k >> 2 | k >> 3) & _LOW_BITS  # the low bit of each kind's count of 4 or more
    t = 9 * gi
    while hog:
        if hog & 1:
            hits.append(((t, t, t, t),))
        hog >>= 4
        t += 1
