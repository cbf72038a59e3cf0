"""Waits as the reference calculator counts them, for the wait fans (边张 / 嵌张 / 单钓将 need a unique wait).

A wait here is any kind that completes the standing tiles as sets and a pair, or (13 tiles) as seven
pairs, **ignoring the copy limit**: a kind the player already holds four of still counts, as in the
reference. Per-suit facts are memoised by the suit's counts, so a hand's waits are a few look-ups.

>>> sorted(regular_waits([0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8]))  # 九莲宝灯: every 万
[0, 1, 2, 3, 4, 5, 6, 7, 8]
>>> sorted(regular_waits([0, 1, 2, 27]))
[27]
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from erma.tiles import NUM_KINDS, Tile

_SETS = 1
"""Flag: the group splits into sets only."""
_PAIR = 2
"""Flag: the group splits into sets and exactly one pair."""


@functools.cache
def _can(counts: tuple[int, ...], suited: bool, pair: bool) -> bool:
    """Can ``counts`` be split into sets (and exactly one pair if ``pair``)?"""
    i = 0
    n = len(counts)
    while i < n and counts[i] == 0:
        i += 1
    if i == n:
        return not pair
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        if _can(tuple(c), suited, pair):
            return True
        c[i] += 3
    if pair and c[i] >= 2:
        c[i] -= 2
        if _can(tuple(c), suited, False):
            return True
        c[i] += 2
    if suited and i + 2 < n and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        if _can(tuple(c), suited, pair):
            return True
    return False


@functools.cache
def _flags(counts: tuple[int, ...], suited: bool) -> int:
    return (_SETS if _can(counts, suited, False) else 0) | (_PAIR if _can(counts, suited, True) else 0)


@functools.cache
def _group_waits(counts: tuple[int, ...], suited: bool) -> tuple[tuple[int, int], ...]:
    """(index, flags after adding that kind) for each kind of the group that leaves it splittable."""
    out = []
    for i in range(len(counts)):
        c = list(counts)
        c[i] += 1
        f = _flags(tuple(c), suited)
        if f:
            out.append((i, f))
    return tuple(out)


_BOUNDS = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))


def regular_waits(tiles: Sequence[Tile]) -> set[Tile]:
    """Kinds completing 3k+1 tiles as sets and a pair (copy limit ignored)."""
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    return regular_waits_counts(c)


def regular_waits_counts(c: Sequence[int]) -> set[Tile]:
    """:func:`regular_waits` on a count vector of the 34 kinds."""
    groups = [tuple(c[lo:hi]) for lo, hi, _ in _BOUNDS]
    flags = [_flags(g, s) for g, (_, _, s) in zip(groups, _BOUNDS, strict=True)]
    out: set[Tile] = set()
    for gi, (lo, _, suited) in enumerate(_BOUNDS):
        others = [f for j, f in enumerate(flags) if j != gi]
        if not all(others):
            continue
        all_sets = all(f & _SETS for f in others)
        one_pair = any(
            others[h] & _PAIR and all(others[j] & _SETS for j in range(3) if j != h) for h in range(3)
        )
        if not (all_sets or one_pair):
            continue
        for i, f in _group_waits(groups[gi], suited):
            if (f & _PAIR and all_sets) or (f & _SETS and one_pair):
                out.add(lo + i)
    return out


def seven_pairs_wait(c: Sequence[int]) -> Tile | None:
    """The wait of 13 tiles for seven pairs (four of a kind gives two pairs), as the reference finds it."""
    pairs = 0
    for n in c:
        if n == 2 or n == 3:
            pairs += 1
        elif n == 4:
            pairs += 2
    if pairs != 6:
        return None
    for t, n in enumerate(c):
        if n == 1 or n == 3:
            return t
    return None


def is_unique_wait(standing: Sequence[int], win_tile: Tile, *, seven_pairs: bool) -> bool:
    """独听: do the standing tiles less the winning tile wait on exactly one kind?

    ``standing`` counts the standing tiles with the winning tile; ``seven_pairs`` adds the seven-pairs
    wait (the reference does so for a 13-tile standing hand).
    """
    c = list(standing)
    c[win_tile] -= 1
    waits = regular_waits_counts(c)
    if seven_pairs:
        w = seven_pairs_wait(c)
        if w is not None:
            waits.add(w)
    return len(waits) == 1
