"""All readings of a complete concealed part as sets and one pair (拆解), what scoring needs.

Each suit's readings are computed once per suit key (memoised) and the hand's readings are their
product with exactly one pair overall.

>>> [d.to_notation() for d in decompositions("111222333m11z")]
['111m222m333m11z', '123m123m123m11z']
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Final

from erma.analysis.api import TileInput, prepare
from erma.analysis.tables import SUIT_MASK
from erma.frozen import reduce_frozen
from erma.tiles import Tile, to_mpsz

_Reading = tuple[tuple[int, ...], tuple[int, ...], int]
"""(chow starts, pung tiles, pair tile or −1), relative to the group."""


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One reading of a complete regular hand's concealed part: chows, pungs and the pair."""

    chows: tuple[Tile, ...]
    """The lowest tile of each concealed chow, sorted."""
    pungs: tuple[Tile, ...]
    """The tile of each concealed pung, sorted."""
    pair: Tile
    """The tile of the pair (雀头)."""

    def to_notation(self) -> str:
        """The sets in mpsz, chows first: ``123m123m11z``."""
        parts = [to_mpsz((t, t + 1, t + 2)) for t in self.chows]
        parts += [to_mpsz((t, t, t)) for t in self.pungs]
        parts.append(to_mpsz((self.pair, self.pair)))
        return "".join(parts)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


_memo: Final[dict[tuple[int, bool], list[_Reading]]] = {(0, False): [((), (), -1)], (0, True): [((), (), -1)]}


def _readings(key: int, honors: bool) -> list[_Reading]:
    found = _memo.get((key, honors))
    if found is not None:
        return found
    low = (key & -key).bit_length() - 1
    i = low // 4
    one = 1 << (4 * i)
    c = (key >> (4 * i)) & 15
    out: list[_Reading] = []
    if c >= 3:
        for ch, pu, pa in _readings(key - 3 * one, honors):
            out.append((ch, (i, *pu), pa))
    if not honors and i <= 6 and (key >> (4 * i + 4)) & 15 and (key >> (4 * i + 8)) & 15:
        for ch, pu, pa in _readings(key - one - (one << 4) - (one << 8), honors):
            out.append(((i, *ch), pu, pa))
    if c >= 2:
        for ch, pu, pa in _readings(key - 2 * one, honors):
            if pa < 0:
                out.append((ch, pu, i))
    _memo[(key, honors)] = out
    return out


def decompositions(tiles: TileInput, *, copies: int = 4) -> list[Decomposition]:
    """Every distinct reading of 3k+2 concealed tiles as k sets and a pair; [] if there is none.

    >>> decompositions("11122233m")[0].to_notation()
    '111m222m33m'
    """
    key, n = prepare(tiles, 0, copies)
    if n % 3 != 2:
        return []
    groups = [
        (_readings(key & SUIT_MASK, False), 0),
        (_readings((key >> 36) & SUIT_MASK, False), 9),
        (_readings((key >> 72) & SUIT_MASK, False), 18),
        (_readings(key >> 108, True), 27),
    ]
    if any(not g for g, _ in groups):
        return []
    out: list[Decomposition] = []
    seen: set[Decomposition] = set()
    for combo in itertools.product(*(g for g, _ in groups)):
        pairs = [pa + base for (_, _, pa), (_, base) in zip(combo, groups, strict=True) if pa >= 0]
        if len(pairs) != 1:
            continue
        chows = tuple(
            sorted(c + base for (ch, _, _), (_, base) in zip(combo, groups, strict=True) for c in ch)
        )
        pungs = tuple(
            sorted(p + base for (_, pu, _), (_, base) in zip(combo, groups, strict=True) for p in pu)
        )
        d = Decomposition(chows, pungs, pairs[0])
        if d not in seen:
            seen.add(d)
            out.append(d)
    return out


def group_readings(key: int, honors: bool) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """The readings of one group key (a suit's 9 or the honours' 7 counts, 4 bits a kind) as sets and at
    most one pair: (chow starts, pung tiles, pair tile or −1), relative to the group, possibly repeated
    (memoised by the key)."""
    return _readings(key, honors)
