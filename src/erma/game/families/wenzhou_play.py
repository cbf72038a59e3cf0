"""温州's play space (RULES §3.1): how tiles play — a 财神 is a joker, a 白板 the 财神's kind — and a quick
test that a hand as played cannot be complete, before :func:`erma.game.families.wenzhou_wins.is_complete`
(most hands a seat is asked about are far from it, and counting tiles tells so without the shape tables).
"""

from __future__ import annotations

from typing import Final

from erma.analysis.shapes import eight_pairs_counts
from erma.analysis.tables import INC
from erma.tiles import Tile

WHITE: Final[Tile] = 31
"""白板 (5z)."""
JOKER: Final[Tile] = -1
"""The play kind of a 财神: wild, no kind."""


def play_kind(t: Tile, caishen: Tile) -> Tile:
    """How a physical tile plays: a 财神 is :data:`JOKER`, a 白板 the 财神's kind (unless 白 is the 财神)."""
    if t == caishen:
        return JOKER
    if t == WHITE:
        return caishen
    return t


def phys_kind(p: Tile, caishen: Tile) -> Tile:
    """The physical tile of a natural play kind: the 财神's kind is played by 白板."""
    return WHITE if p == caishen and caishen != WHITE else p


def play_key(counts: list[int] | tuple[int, ...], caishen: Tile) -> tuple[int, int]:
    """(packed key as played, jokers) of physical counts."""
    return played_key(sum(c * INC[t] for t, c in enumerate(counts)), counts, caishen)


def played_key(key: int, counts: list[int] | tuple[int, ...], caishen: Tile) -> tuple[int, int]:
    """:func:`play_key` from the physical ``key`` of ``counts``: two nibbles moved, no pass over the kinds."""
    jokers = counts[caishen]
    key -= jokers * INC[caishen]
    if caishen != WHITE:
        key += counts[WHITE] * (INC[caishen] - INC[WHITE])
    return key, jokers


def may_complete(
    counts: list[int], n: int, caishen: Tile, added: Tile, concealed: bool, four_as_two: bool
) -> bool:
    """A quick necessary condition of :func:`is_complete` for physical ``counts`` and the tile ``added``
    (-1: none), ``n`` tiles in all, read as played: 三财神, 八对 (exact), or jokers for sets and a pair.

    Sets and the pair never mix suits or honour kinds, so each such group needs its own jokers: at least
    enough to make its tiles a multiple of three (or, for the pair's group, two more than one), and two for
    each lone tile (a single with no other tile of its suit within two ranks), one for a lone pair tile."""
    c = counts[:34]
    if added >= 0:
        c[added] = c[added] + 1
    jokers = c[caishen]
    if jokers >= 3:
        return True
    c[caishen] = 0
    if caishen != WHITE:
        c[caishen] = c[WHITE]
        c[WHITE] = 0
    need = 0  # jokers for every group's sets
    extra = 2  # more for the pair: two jokers alone, or the cheapest group's pair (at least -1)
    for t in range(27, 34):
        x = c[t]
        sets = -x % 3
        need += sets
        extra = min(extra, (2 - x) % 3 - sets)
    for first in range(0, 27, 9):
        if need - 1 > jokers:
            break
        size = lone = 0
        for t in range(first, first + 9):
            x = c[t]
            size += x
            if x == 1 and _lone(c, t, first):
                lone += 1
        sets = max(-size % 3, 2 * lone)
        need += sets
        extra = min(extra, max((2 - size) % 3, 2 * lone - 1) - sets)
    if need + extra <= jokers:
        return True
    if not concealed or n != 17:
        return False
    return eight_pairs_counts(c, n, jokers, four_as_two) < 0


def _lone(c: list[int], t: int, first: int) -> bool:
    """No other tile of the suit (from kind ``first``) within two ranks of ``t``: only jokers join it."""
    return not any(c[u] for u in range(max(first, t - 2), min(first + 9, t + 3)) if u != t)


__all__ = ["JOKER", "WHITE", "may_complete", "phys_kind", "play_key", "play_kind", "played_key"]
