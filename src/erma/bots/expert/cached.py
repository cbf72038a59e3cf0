"""The shape functions the estimate calls most, cached (形状缓存): pure functions of a concealed key, so one
cache serves every decision of the process."""

from __future__ import annotations

import functools

from erma.analysis import shapes


def copies(key: int, t: int) -> int:
    """The copies of kind ``t`` a concealed key holds."""
    return (key >> (4 * t)) & 15


@functools.lru_cache(maxsize=1 << 17)
def winners(key: int, n: int, kinds: tuple[int, ...], allowed: int) -> tuple[int, ...]:
    """Standard family: the kinds that complete a 3k+1 hand in the ``allowed`` shapes (a pure function of
    the shape, cached)."""
    return shapes.draws_below(key, n, kinds, 0, 0, allowed)


@functools.lru_cache(maxsize=1 << 17)
def improvers(key: int, n: int, kinds: tuple[int, ...], allowed: int) -> tuple[int, ...]:
    """Standard family: the kinds that lower the shanten of a 3k+1 hand (cached)."""
    return shapes.draws_below(key, n, kinds, shanten(key, n, allowed), 0, allowed)


@functools.lru_cache(maxsize=1 << 18)
def shanten(key: int, n: int, allowed: int) -> int:
    """Standard family: the shanten (向听) of a hand in the ``allowed`` shapes (cached)."""
    return shapes.overall(key, n, 0, allowed)


@functools.lru_cache(maxsize=1 << 17)
def discards(key: int, n: int, allowed: int) -> tuple[tuple[int, int], ...]:
    """Standard family: (kind, shanten after discarding it) for each kind a 3k+2 hand holds (cached)."""
    return shapes.discard_values(key, n, 0, allowed)


@functools.lru_cache(maxsize=1 << 16)
def tiles_of(key: int) -> tuple[int, ...]:
    """The kinds of a concealed key, one entry per copy, in order (cached: the imagined wins of a decision
    share their concealed parts)."""
    return tuple(t for t in range(34) for _ in range((key >> (4 * t)) & 15))
