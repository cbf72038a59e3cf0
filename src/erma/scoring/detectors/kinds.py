"""What the detectors ask of tile kinds: a kind's suit, the winds and the dragons.

>>> suit(0), suit(13), same_suit(0, 8), mixed(0, 9, 18)
(0, 1, True, True)
"""

from __future__ import annotations

from typing import Final

from erma.tiles import DRAGONS, EAST, NORTH, SOUTH, WEST, Tile

WINDS_SET: Final = frozenset((EAST, SOUTH, WEST, NORTH))
"""风牌: 东南西北."""
DRAGON_SET: Final = frozenset(DRAGONS)
"""箭牌: 中发白."""


def suit(t: Tile) -> int:
    """The suit of a kind, 0–2 (3 for an honour)."""
    return t // 9


def same_suit(*ts: Tile) -> bool:
    """All the kinds are of one suit."""
    s = suit(ts[0])
    return all(suit(t) == s for t in ts)


def mixed(a: Tile, b: Tile, c: Tile) -> bool:
    """The three kinds are of three different suits."""
    return len({suit(a), suit(b), suit(c)}) == 3
