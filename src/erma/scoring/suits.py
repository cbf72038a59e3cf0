"""What each group of a packed hand holds (the three suits and the honours), memoised by its slice of the key.

A packed key holds 4 bits a kind; each group's slice (nine kinds of a suit, the seven honours) is looked
up once and gives the group's counts, tiles, kinds, facts and its readings as sets, with and without
the pair (:class:`GroupReading`): the hand's facts and its regular readings are put together from these.

>>> from erma.analysis.tables import INC
>>> m = suit_infos(sum(INC[t] for t in (0, 1, 2, 27, 27)))
>>> m[0].kinds, m[3].kinds, m[0].text
((0, 1, 2), (27,), '123m')
>>> [(r.chows, r.pair) for r in m[0].bare], [(r.pungs, r.pair) for r in m[3].paired]
([((0,), -1)], [((), 27)])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from erma.analysis.decompose import group_readings
from erma.analysis.tables import SUIT_MASK
from erma.frozen import reduce_frozen
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
    M_HONORS,
    M_TERMINALS,
    REVERSIBLE,
    pung_facts,
)
from erma.scoring.groups import STANDING_CHOW, STANDING_PUNG, Group, part_text, ref_key
from erma.scoring.waits import GroupInfo, group_info
from erma.tiles import GREENS, Tile

_M_EDGE_OR_HONOR: Final = M_TERMINALS | M_HONORS
_M_GREEN: Final = sum(1 << t for t in GREENS)
_M_REVERSIBLE: Final = sum(1 << t for t in REVERSIBLE)
_GROUP_LEN: Final = (9, 9, 9, 7)
"""Kinds in each group: the three suits, the honours."""


def _all_of(mask: int) -> int:
    """The "only …" facts that hold for the kinds of ``mask`` (all of them for no kind)."""
    f = 0
    if mask & ~M_TERMINALS == 0:
        f |= F_TERMINALS_ONLY
    if mask & ~_M_EDGE_OR_HONOR == 0:
        f |= F_OUTSIDE_ONLY
    if mask & _M_EDGE_OR_HONOR == 0:
        f |= F_SIMPLES_ONLY
    if mask & ~_M_GREEN == 0:
        f |= F_GREEN_ONLY
    if mask & ~_M_REVERSIBLE == 0:
        f |= F_REVERSIBLE_ONLY
    return f


def _ranks_facts(rm: int) -> int:
    lo, hi = (rm & -rm).bit_length(), rm.bit_length()
    f = 0
    if lo:
        if hi <= 4:
            f |= F_RANKS_1_4
        if lo >= 4 and hi <= 6:
            f |= F_RANKS_4_6
        if lo >= 6:
            f |= F_RANKS_6_9
    return f


_SUIT_ALL: Final = tuple(tuple(_all_of(p << (9 * i)) | F_NO_HONORS for p in range(512)) for i in range(3))
"""Per suit and 9-bit presence pattern: the "only …" facts its kinds allow (combined with &)."""
_HONOR_ALL: Final = tuple(_all_of(h << 27) | (0 if h else F_NO_HONORS) for h in range(128))
_HONOR_ANY: Final = tuple(
    (F_HONORS if h else 0) | (F_WINDS_DRAGONS if h & 0xF and h >> 4 else 0) for h in range(128)
)
RANKS: Final = tuple(((rm & -rm).bit_length(), rm.bit_length()) for rm in range(512))
"""By a 9-bit rank pattern: the lowest and highest rank present (1–9), (0, 0) for none."""
RANKS_FACTS: Final = tuple(_ranks_facts(rm) for rm in range(512))
"""By a 9-bit rank pattern: the F_RANKS_* facts that hold."""
_SUITS_FACT: Final = (0, F_ONE_SUIT, F_TWO_SUITS, F_THREE_SUITS)
"""By the number of suits present: the fact that says so."""


def kind_facts(mask: int) -> int:
    """The hand facts that the kinds present decide (bit t of ``mask`` for kind t: the standing tiles, the
    winning tile and the declared sets' together): the suits, the honours and the "only …" facts as
    :func:`erma.scoring.facts.build_facts` makes them from its groups' infos, all but F_FOUR_COPIES (a count,
    not a kind, decides it) and the facts of the win's situation (self-drawn, concealed, …)."""
    b0 = mask & 511
    b1 = (mask >> 9) & 511
    b2 = (mask >> 18) & 511
    h = (mask >> 27) & 127
    return (
        (_SUIT_ALL[0][b0] & _SUIT_ALL[1][b1] & _SUIT_ALL[2][b2] & _HONOR_ALL[h])
        | _HONOR_ANY[h]
        | _SUITS_FACT[(b0 != 0) + (b1 != 0) + (b2 != 0)]
        | RANKS_FACTS[b0 | b1 | b2]
    )


@dataclass(frozen=True, slots=True)
class GroupReading:
    """One group's reading (a suit's or the honours'): its sets and pair, and what a reading takes from it."""

    chows: tuple[Tile, ...]
    """Chow starts, sorted (absolute tiles; in a suit, also the reference order)."""
    pungs: tuple[Tile, ...]
    """Pung tiles, sorted."""
    pair: Tile
    """The pair's kind, −1 for none."""
    pung_sets: tuple[Group, ...]
    """The pungs as standing groups."""
    chow_sets: tuple[Group, ...]
    """The chows as standing groups."""
    ref_pungs: tuple[Tile, ...]
    """The pungs in reference order (the honours' dragons reversed)."""
    pung_facts: int
    """F_PUNG, F_HONOR_PUNG, F_WIND_PUNG, F_DRAGON_PUNG, F_EDGE_PUNG as its pungs make them hold."""
    win_pos: tuple[int, ...]
    """By kind within the group: 1 the kind ends a chow, 2 is a chow's middle (or'ed), 8 it is a pung."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


SetsAndPair = tuple[tuple[Tile, ...], tuple[Tile, ...], Tile]
"""(chow starts, pung tiles, pair tile or −1), absolute tiles, each sorted."""


def _part(chows: tuple[Tile, ...], pungs: tuple[Tile, ...], pair: Tile, base: int) -> GroupReading:
    pos = [0] * _GROUP_LEN[base // 9]
    for t in chows:
        pos[t - base] |= 1
        pos[t - base + 1] |= 2
        pos[t - base + 2] |= 1
    for t in pungs:
        pos[t - base] |= 8
    return GroupReading(
        chows,
        pungs,
        pair,
        tuple(STANDING_PUNG[t] for t in pungs),
        tuple(STANDING_CHOW[t] for t in chows),
        tuple(sorted(pungs, key=ref_key)),
        pung_facts(sum(1 << t for t in set(pungs))),
        tuple(pos),
    )


def _group_parts(key: int, base: int) -> tuple[list[GroupReading], list[GroupReading]]:
    """The distinct readings of one group key without and with the pair, in absolute tiles (for the
    per-suit memo)."""
    bare: list[GroupReading] = []
    paired: list[GroupReading] = []
    seen: set[SetsAndPair] = set()
    for ch, pu, pa in group_readings(key, base == 27):
        r = (
            tuple(sorted(c + base for c in ch)),
            tuple(sorted(p + base for p in pu)),
            pa + base if pa >= 0 else -1,
        )
        if r not in seen:
            seen.add(r)
            (paired if pa >= 0 else bare).append(_part(*r, base))
    return bare, paired


class SuitInfo:
    """What one group's slice of a packed key holds (memoised): its counts, tiles, kinds, presence bits,
    largest count, mpsz text, the "only …" facts its kinds allow (combined with &), the facts it makes hold
    (combined with |), and its readings as sets without and with the pair. A plain class (a native class
    when compiled: read field by field, never unpacked)."""

    __slots__ = (
        "bare",
        "bits",
        "counts",
        "high",
        "key",
        "kinds",
        "only",
        "paired",
        "some",
        "text",
        "tiles",
        "waits",
    )

    key: int
    """The group's packed counts (4 bits a kind: the memo's key)."""
    counts: tuple[int, ...]
    tiles: tuple[Tile, ...]
    kinds: tuple[Tile, ...]
    bits: int
    high: int
    text: str
    only: int
    some: int
    bare: list[GroupReading]
    """The group's readings as sets alone (3k tiles)."""
    paired: list[GroupReading]
    """The group's readings as sets and the pair (3k + 2 tiles)."""
    waits: GroupInfo | None
    """What the group waits on (:func:`erma.scoring.waits.group_info` of :attr:`key`), once asked."""

    def __init__(
        self,
        key: int,
        counts: tuple[int, ...],
        tiles: tuple[Tile, ...],
        kinds: tuple[Tile, ...],
        bits: int,
        high: int,
        text: str,
        only: int,
        some: int,
        bare: list[GroupReading],
        paired: list[GroupReading],
    ) -> None:
        self.key = key
        self.counts = counts
        self.tiles = tiles
        self.kinds = kinds
        self.bits = bits
        self.high = high
        self.text = text
        self.only = only
        self.some = some
        self.bare = bare
        self.paired = paired
        self.waits = None


SuitInfos = tuple[SuitInfo, SuitInfo, SuitInfo, SuitInfo]
_SUIT_INFO: Final[tuple[dict[int, SuitInfo], ...]] = ({}, {}, {}, {})
"""Memo, one per group (the three suits, the honours): the group's slice of a packed count key → info."""


def _suit_info(k: int, gi: int) -> SuitInfo:
    """The :data:`SuitInfo` of slice ``k`` of group ``gi``, computed and stored."""
    base = 9 * gi
    counts = tuple([(k >> (4 * i)) & 15 for i in range(_GROUP_LEN[gi])])
    tiles = tuple([base + i for i, n in enumerate(counts) for _ in range(n)])
    kinds = tuple([base + i for i, n in enumerate(counts) if n])
    bits = sum(1 << i for i, n in enumerate(counts) if n)
    high = max(counts)
    only = _SUIT_ALL[gi][bits] if gi < 3 else _HONOR_ALL[bits]
    some = (_HONOR_ANY[bits] if gi == 3 else 0) | (F_FOUR_COPIES if high >= 4 else 0)
    bare, paired = _group_parts(k, base)
    got = SuitInfo(
        k, counts, tiles, kinds, bits, high, part_text(tiles) if tiles else "", only, some, bare, paired
    )
    memo = _SUIT_INFO[gi]
    if len(memo) > 1 << 16:  # a bound far above what hands produce
        memo.clear()
    memo[k] = got
    return got


def suit_infos_of(k0: int, k1: int, k2: int, k3: int) -> SuitInfos:
    """The per-suit infos of the four groups' packed counts (m, p, s, z; memoised)."""
    i0, i1, i2, i3 = _SUIT_INFO
    m0 = i0.get(k0)
    if m0 is None:
        m0 = _suit_info(k0, 0)
    m1 = i1.get(k1)
    if m1 is None:
        m1 = _suit_info(k1, 1)
    m2 = i2.get(k2)
    if m2 is None:
        m2 = _suit_info(k2, 2)
    m3 = i3.get(k3)
    if m3 is None:
        m3 = _suit_info(k3, 3)
    return m0, m1, m2, m3


def standing_infos(k0: int, k1: int, k2: int, k3: int, whole: SuitInfos) -> SuitInfos:
    """:func:`suit_infos_of` of a hand's standing tiles, given the infos of the whole hand: a group
    without declared tiles has the same counts, so only the groups of the declared sets are looked up."""
    m0, m1, m2, m3 = whole
    if m0.key != k0:
        m0 = _memo_info(k0, 0)
    if m1.key != k1:
        m1 = _memo_info(k1, 1)
    if m2.key != k2:
        m2 = _memo_info(k2, 2)
    if m3.key != k3:
        m3 = _memo_info(k3, 3)
    return m0, m1, m2, m3


def _memo_info(k: int, gi: int) -> SuitInfo:
    """The :data:`SuitInfo` of slice ``k`` of group ``gi``, from the memo or computed."""
    got = _SUIT_INFO[gi].get(k)
    return _suit_info(k, gi) if got is None else got


def wait_info(m: SuitInfo, k: int, gi: int) -> GroupInfo:
    """The wait info (:func:`erma.scoring.waits.group_info`) of group ``gi``'s packed counts ``k``: kept on
    the group's :class:`SuitInfo` ``m`` when it has those counts (no look-up the next time)."""
    if m.key != k:
        return group_info(k, gi < 3)
    got = m.waits
    if got is None:
        got = m.waits = group_info(k, gi < 3)
    return got


def suit_infos(key: int) -> SuitInfos:
    """The per-suit infos of a packed key of the 34 kinds (memoised)."""
    return suit_infos_of(key & SUIT_MASK, (key >> 36) & SUIT_MASK, (key >> 72) & SUIT_MASK, key >> 108)


def unpack(key: int) -> list[int]:
    """The count vector (34 kinds) of a packed key, from the per-suit memo."""
    m0, m1, m2, m3 = suit_infos(key)
    return [*m0.counts, *m1.counts, *m2.counts, *m3.counts]
