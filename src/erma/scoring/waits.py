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
from typing import Final

from erma.tiles import NUM_KINDS, Tile

_SETS: Final = 1
"""Flag: the group splits into sets only."""
_PAIR: Final = 2
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
        c[i] = c[i] - 3
        if _can(tuple(c), suited, pair):
            return True
        c[i] = c[i] + 3
    if pair and c[i] >= 2:
        c[i] = c[i] - 2
        if _can(tuple(c), suited, False):
            return True
        c[i] = c[i] + 2
    if suited and i + 2 < n and c[i + 1] and c[i + 2]:
        c[i] = c[i] - 1
        c[i + 1] = c[i + 1] - 1
        c[i + 2] = c[i + 2] - 1
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
        c[i] = c[i] + 1
        f = _flags(tuple(c), suited)
        if f:
            out.append((i, f))
    return tuple(out)


_BOUNDS: Final = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))

_MASK9: Final = (1 << 36) - 1


class GroupInfo:
    """What a group key (4 bits a kind) waits on: its flags, the waits (index within the group, flags after
    adding that kind), the waits that complete a pair and those that complete sets only, and the numbers of
    those two. A plain class (a native class when compiled: read field by field)."""

    __slots__ = ("flags", "n_pair", "n_set", "pair_waits", "set_waits", "waits")

    def __init__(
        self,
        flags: int,
        waits: tuple[tuple[int, int], ...],
        pair_waits: tuple[int, ...],
        set_waits: tuple[int, ...],
    ) -> None:
        self.flags = flags
        self.waits = waits
        self.pair_waits = pair_waits
        self.set_waits = set_waits
        self.n_pair = len(pair_waits)
        self.n_set = len(set_waits)


_SUIT_INFO: Final[dict[int, GroupInfo]] = {}
_HONOR_INFO: Final[dict[int, GroupInfo]] = {}


def _info(key: int, suited: bool) -> GroupInfo:
    """The :class:`GroupInfo` of a group key, memoised by the key; waits are indices within the group."""
    memo = _SUIT_INFO if suited else _HONOR_INFO
    got = memo.get(key)
    if got is None:
        counts = tuple((key >> (4 * i)) & 15 for i in range(9 if suited else 7))
        waits = _group_waits(counts, suited)
        pair_waits = tuple(i for i, f in waits if f & _PAIR)
        set_waits = tuple(i for i, f in waits if f & _SETS)
        got = memo[key] = GroupInfo(_flags(counts, suited), waits, pair_waits, set_waits)
    return got


def _infos(key: int) -> tuple[GroupInfo, GroupInfo, GroupInfo, GroupInfo]:
    """The :func:`_info` of each group of a packed key: the three suits, then the honours."""
    return _infos_of(key & _MASK9, (key >> 36) & _MASK9, (key >> 72) & _MASK9, key >> 108)


def _infos_of(k0: int, k1: int, k2: int, k3: int) -> tuple[GroupInfo, GroupInfo, GroupInfo, GroupInfo]:
    """The :func:`_info` of each group's packed counts (m, p, s, z)."""
    i0 = _SUIT_INFO.get(k0)
    if i0 is None:
        i0 = _info(k0, True)
    i1 = _SUIT_INFO.get(k1)
    if i1 is None:
        i1 = _info(k1, True)
    i2 = _SUIT_INFO.get(k2)
    if i2 is None:
        i2 = _info(k2, True)
    i3 = _HONOR_INFO.get(k3)
    if i3 is None:
        i3 = _info(k3, False)
    return i0, i1, i2, i3


def pack_counts(c: Sequence[int]) -> int:
    """The packed key (4 bits a kind) of a count vector of the 34 kinds."""
    key = 0
    for t in range(NUM_KINDS - 1, -1, -1):
        key = (key << 4) | c[t]
    return key


def regular_waits(tiles: Sequence[Tile]) -> set[Tile]:
    """Kinds completing 3k+1 tiles as sets and a pair (copy limit ignored)."""
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] = c[t] + 1
    return regular_waits_counts(c)


def regular_waits_counts(c: Sequence[int]) -> set[Tile]:
    """:func:`regular_waits` on a count vector of the 34 kinds."""
    return set(regular_waits_key(pack_counts(c)))


def regular_waits_key(key: int, limit: int = 99) -> list[Tile]:
    """:func:`regular_waits` on a packed key; stops once more than ``limit`` waits are found."""
    i0, i1, i2, i3 = _infos(key)
    f0, f1, f2, f3 = i0.flags, i1.flags, i2.flags, i3.flags
    if f0 and f1 and f2 and f3:
        groups: tuple[int, ...] = (0, 1, 2, 3)
    else:
        broken = [gi for gi, f in ((0, f0), (1, f1), (2, f2), (3, f3)) if not f]
        if len(broken) > 1:
            return []  # two groups that cannot be completed as they are: one tile does not mend both
        groups = (broken[0],)
    infos = (i0, i1, i2, i3)
    flags = (f0, f1, f2, f3)
    out: list[Tile] = []
    for gi in groups:
        a, b, c = flags[:gi] + flags[gi + 1 :]
        # A group of 3k tiles splits into sets only, one of 3k + 2 into sets and a pair: never both, so
        # "the others are all sets" and "one of the others holds the pair" exclude each other.
        if a & b & c & _SETS:
            found = infos[gi].pair_waits  # this group takes the pair
        elif (a & _PAIR and b & c & _SETS) or (b & _PAIR and a & c & _SETS) or (c & _PAIR and a & b & _SETS):
            found = infos[gi].set_waits
        else:
            continue
        if found:
            lo = 9 * gi
            out += [lo + i for i in found]
            if len(out) > limit:
                return out[: limit + 1]
    return out


def regular_wait_count(key: int) -> int:
    """``len(regular_waits_key(key))``, from the per-group numbers of waits, without listing them."""
    i0, i1, i2, i3 = _infos(key)
    return _wait_count(i0, i1, i2, i3)


def _wait_count(i0: GroupInfo, i1: GroupInfo, i2: GroupInfo, i3: GroupInfo) -> int:
    """:func:`regular_wait_count` of the groups' infos (written out group by group: no tuple to loop over)."""
    f0, f1, f2, f3 = i0.flags, i1.flags, i2.flags, i3.flags
    # As regular_waits_key: the tile goes to a group that cannot be completed as it is (if there is one,
    # and only one), taking the pair if the others are all sets, or making sets beside the one pair.
    broken = (f0 == 0) + (f1 == 0) + (f2 == 0) + (f3 == 0)
    if broken > 1:
        return 0
    pairs = (f0 & _PAIR != 0) + (f1 & _PAIR != 0) + (f2 & _PAIR != 0) + (f3 & _PAIR != 0)
    if broken == 1:
        b = i0 if f0 == 0 else i1 if f1 == 0 else i2 if f2 == 0 else i3
        return b.n_pair if pairs == 0 else b.n_set if pairs == 1 else 0
    if pairs == 2:  # each pair group may take the tile as sets, the other keeping the pair
        return (
            (i0.n_set if f0 & _PAIR else 0)
            + (i1.n_set if f1 & _PAIR else 0)
            + (i2.n_set if f2 & _PAIR else 0)
            + (i3.n_set if f3 & _PAIR else 0)
        )
    if pairs == 0:
        return i0.n_pair + i1.n_pair + i2.n_pair + i3.n_pair
    if pairs == 1:  # (not 3k + 1 tiles: no wait in fact, but counted as regular_waits_key counts)
        return (
            (i0.n_pair if f0 & _PAIR else i0.n_set)
            + (i1.n_pair if f1 & _PAIR else i1.n_set)
            + (i2.n_pair if f2 & _PAIR else i2.n_set)
            + (i3.n_pair if f3 & _PAIR else i3.n_set)
        )
    return 0


def seven_pairs_wait(c: Sequence[int]) -> Tile | None:
    """The wait of 13 tiles for seven pairs (n of a kind give ⌊n/2⌋ pairs), as the reference finds it."""
    pairs = 0
    for n in c:
        pairs += n >> 1
    if pairs != 6:
        return None
    for t, n in enumerate(c):
        if n & 1:
            return t
    return None


def is_unique_wait(standing: Sequence[int], win_tile: Tile, *, seven_pairs: bool) -> bool:
    """独听: do the standing tiles less the winning tile wait on exactly one kind?

    ``standing`` counts the standing tiles with the winning tile; ``seven_pairs`` adds the seven-pairs
    wait (the reference does so for a 13-tile standing hand).
    """
    c = list(standing)
    c[win_tile] = c[win_tile] - 1
    waits = regular_waits_key(pack_counts(c), 1)
    if len(waits) > 1:
        return False
    if seven_pairs:
        w = seven_pairs_wait(c)
        if w is not None and w not in waits:
            return not waits
    return len(waits) == 1


def unique_wait_key(key: int, seven_pairs: bool = False) -> bool:
    """:func:`is_unique_wait` on the packed key of 13 standing tiles (the winning tile taken out)."""
    return unique_wait_parts(
        key & _MASK9, (key >> 36) & _MASK9, (key >> 72) & _MASK9, key >> 108, seven_pairs
    )


_LOW9: Final = sum(1 << (4 * r) for r in range(9))
"""The low bit of every kind's count in a group's packed counts: its odd kinds."""


def unique_wait_parts(k0: int, k1: int, k2: int, k3: int, seven_pairs: bool = False) -> bool:
    """:func:`unique_wait_key` on the groups' packed counts (m, p, s, z: small ints)."""
    i0, i1, i2, i3 = _infos_of(k0, k1, k2, k3)
    return unique_wait_infos(i0, i1, i2, i3, k0, k1, k2, k3, seven_pairs)


def group_info(key: int, suited: bool) -> GroupInfo:
    """The :class:`GroupInfo` of one group's packed counts (memoised)."""
    got = (_SUIT_INFO if suited else _HONOR_INFO).get(key)
    return _info(key, suited) if got is None else got


def unique_wait_infos(
    i0: GroupInfo,
    i1: GroupInfo,
    i2: GroupInfo,
    i3: GroupInfo,
    k0: int,
    k1: int,
    k2: int,
    k3: int,
    seven_pairs: bool = False,
) -> bool:
    """:func:`unique_wait_parts` given the groups' infos (:func:`group_info` of ``k0``–``k3``)."""
    n = _wait_count(i0, i1, i2, i3)
    if n > 1:
        return False
    if seven_pairs:
        o0, o1, o2, o3 = k0 & _LOW9, k1 & _LOW9, k2 & _LOW9, k3 & _LOW9
        if o0.bit_count() + o1.bit_count() + o2.bit_count() + o3.bit_count() == 1:
            # 13 tiles, one odd kind: six pairs, waiting on the odd one's second
            odd = o0 | o1 << 36 | o2 << 72 | o3 << 108
            key = k0 | k1 << 36 | k2 << 72 | k3 << 108
            return not n or regular_waits_key(key, 1)[0] == (odd.bit_length() - 1) >> 2
    return n == 1
