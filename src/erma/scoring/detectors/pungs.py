"""Pung and kong fans (刻子, 杠): honour and terminal pungs, the winds, concealed pungs, kongs, and the
set-group predicates over pungs (their tiles, in reference order)."""

from __future__ import annotations

from typing import Final

from erma.scoring.detectors.kinds import DRAGON_SET, WINDS_SET, mixed, same_suit
from erma.scoring.detectors.registry import NONE, SET_SHAPES, Detector, Hit, fan, group
from erma.scoring.features import (
    F_CONCEALED_PUNGS,
    F_DRAGON_PUNG,
    F_EDGE_PUNG,
    F_KONG,
    F_WIND_PUNG,
)
from erma.scoring.groups import CHOW, KONG
from erma.scoring.readings import HandView
from erma.tiles import EAST, Tile

# ------------------------------------------------------------------------------ pungs and kongs

_EDGE_PUNG: Final = tuple(t in WINDS_SET or (t < 27 and t % 9 in (0, 8)) for t in range(34))
"""幺九刻 kinds: terminals and winds."""


@fan("dragon_pung", SET_SHAPES, needs=F_DRAGON_PUNG)
def dragon_pung(v: HandView) -> list[Hit]:
    """箭刻 Dragon Pung: a pung or kong of 中 发 白 (each)."""
    return [(g.tiles,) for g in v.sets if g.kind != CHOW and g.tile in DRAGON_SET]


@fan("pung_of_terminals_or_honors", SET_SHAPES, needs=F_EDGE_PUNG)
def pung_of_terminals_or_honors(v: HandView) -> list[Hit]:
    """幺九刻 Pung of Terminals or Honors: a pung or kong of a terminal or a wind (each)."""
    return [(g.tiles,) for g in v.sets if g.kind != CHOW and _EDGE_PUNG[g.tile]]


@fan("prevalent_wind", SET_SHAPES, needs=F_WIND_PUNG)
def prevalent_wind(v: HandView) -> list[Hit]:
    """圈风刻 Prevalent Wind: a pung or kong of the prevalent wind."""
    w = EAST + v.facts.prevalent_wind
    return [(g.tiles,) for g in v.sets if g.tile == w and g.kind != CHOW]


@fan("seat_wind", SET_SHAPES, needs=F_WIND_PUNG)
def seat_wind(v: HandView) -> list[Hit]:
    """门风刻 Seat Wind: a pung or kong of the seat wind."""
    w = EAST + v.facts.seat_wind
    return [(g.tiles,) for g in v.sets if g.tile == w and g.kind != CHOW]


def _concealed_pungs(n: int) -> Detector:
    def detect(v: HandView) -> list[Hit]:
        if v.concealed_pungs != n:
            return NONE
        return [tuple(g.tiles for g in v.sets if g.kind != CHOW and not g.melded)]

    return detect


fan("two_concealed_pungs", SET_SHAPES, F_CONCEALED_PUNGS)(_concealed_pungs(2))  # 双暗刻
fan("three_concealed_pungs", SET_SHAPES, F_CONCEALED_PUNGS)(_concealed_pungs(3))  # 三暗刻
fan("four_concealed_pungs", SET_SHAPES, F_CONCEALED_PUNGS)(_concealed_pungs(4))  # 四暗刻


def _kongs(melded: int, concealed: int, total: int = 0) -> Detector:
    """Kong fans: at least ``melded`` claimed and ``concealed`` concealed kongs, or exactly ``total``."""

    def detect(v: HandView) -> list[Hit]:
        mk, ck = v.melded_kongs, v.concealed_kongs
        ok = mk + ck == total if total else mk >= melded and ck >= concealed
        return [tuple(g.tiles for g in v.sets if g.kind == KONG)] if ok else NONE

    return detect


def _kong_each(melded: bool) -> Detector:
    """One hit per kong of the kind (a table may count each, as cuopai13's 明杠 / 暗杠 do)."""

    def detect(v: HandView) -> list[Hit]:
        return [(g.tiles,) for g in v.sets if g.kind == KONG and g.melded == melded]

    return detect


fan("melded_kong", SET_SHAPES, F_KONG)(_kong_each(True))  # 明杠 Melded Kong
fan("concealed_kong", SET_SHAPES, F_KONG)(_kong_each(False))  # 暗杠 Concealed Kong
fan("two_melded_kongs", SET_SHAPES, F_KONG)(_kongs(2, 0))  # 双明杠 Two Melded Kongs
fan("concealed_kong_and_melded_kong", SET_SHAPES, F_KONG)(_kongs(1, 1))  # 明暗杠
fan("two_concealed_kongs", SET_SHAPES, F_KONG)(_kongs(0, 2))  # 双暗杠 Two Concealed Kongs
fan("three_kongs", SET_SHAPES, F_KONG)(_kongs(0, 0, 3))  # 三杠 Three Kongs
fan("four_kongs", SET_SHAPES, F_KONG)(_kongs(0, 0, 4))  # 四杠 Four Kongs


# ---------------------------------------------------------------------------- pung groups (tiles)


@group("four_pure_shifted_pungs", "pungs", 4)
def four_pure_shifted_pungs(a: Tile, b: Tile, c: Tile, d: Tile) -> bool:
    """一色四节高 Four Pure Shifted Pungs: four pungs of one suit stepping by 1."""
    return d < 27 and same_suit(a, d) and b == a + 1 and c == a + 2 and d == a + 3


@group("big_four_winds", "pungs", 4)
def big_four_winds(a: Tile, b: Tile, c: Tile, d: Tile) -> bool:
    """大四喜 Big Four Winds: pungs or kongs of all four winds."""
    return {a, b, c, d} == WINDS_SET


@group("mixed_shifted_pungs", "pungs", 3)
def mixed_shifted_pungs(a: Tile, b: Tile, c: Tile) -> bool:
    """三色三节高 Mixed Shifted Pungs: pungs stepping by 1 in three suits."""
    r = sorted((a % 9, b % 9, c % 9))
    return max(a, b, c) < 27 and mixed(a, b, c) and r[1] == r[0] + 1 and r[2] == r[1] + 1


@group("triple_pung", "pungs", 3)
def triple_pung(a: Tile, b: Tile, c: Tile) -> bool:
    """三同刻 Triple Pung: same-number pungs in three suits."""
    return max(a, b, c) < 27 and mixed(a, b, c) and a % 9 == b % 9 == c % 9


@group("pure_shifted_pungs", "pungs", 3)
def pure_shifted_pungs(a: Tile, b: Tile, c: Tile) -> bool:
    """一色三节高 Pure Shifted Pungs: three pungs of one suit stepping by 1."""
    return c < 27 and same_suit(a, c) and b == a + 1 and c == a + 2


@group("big_three_winds", "pungs", 3)
def big_three_winds(a: Tile, b: Tile, c: Tile) -> bool:
    """三风刻 Big Three Winds: pungs or kongs of three winds."""
    return a in WINDS_SET and b in WINDS_SET and c in WINDS_SET


@group("big_three_dragons", "pungs", 3)
def big_three_dragons(a: Tile, b: Tile, c: Tile) -> bool:
    """大三元 Big Three Dragons: pungs or kongs of all three dragons."""
    return {a, b, c} == DRAGON_SET


@group("double_pung", "pungs", 2)
def double_pung(a: Tile, b: Tile) -> bool:
    """双同刻 Double Pung: same-number pungs in two suits (无双: two pungs of one kind are not)."""
    return a < 27 and b < 27 and a != b and a % 9 == b % 9


@group("two_dragons_pungs", "pungs", 2)
def two_dragons_pungs(a: Tile, b: Tile) -> bool:
    """双箭刻 Two Dragons Pungs: pungs or kongs of two dragons."""
    return a in DRAGON_SET and b in DRAGON_SET
