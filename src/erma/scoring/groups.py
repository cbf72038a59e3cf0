"""The sets of a reading as groups (面子): chow, pung or kong, prebuilt, and the mpsz text of sets and hands.

>>> g = declared_group(Meld(MeldKind.PUNG, 27))
>>> g.kind == PUNG, g.tiles, g.text, g.melded
(True, (27, 27, 27), '111z', True)
>>> sorted((9, 18, 0), key=ref_key)  # the reference's order: m, s, p
[0, 18, 9]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from erma.analysis.tables import INC
from erma.frozen import reduce_frozen
from erma.hand import Meld, MeldKind
from erma.tiles import NUM_KINDS, Tile, to_mpsz

CHOW: Final = 0
"""顺子 (:attr:`Group.kind`)."""
PUNG: Final = 1
"""刻子."""
KONG: Final = 2
"""杠."""

REF_ORDER: Final[tuple[int, ...]] = (
    *range(0, 9),  # 1–9m
    *range(18, 27),  # 1–9p after the bamboo
    *range(9, 18),  # 1–9s
    27,
    28,
    29,
    30,  # 东南西北
    33,  # 白 last
    32,  # 发
    31,  # 中 first of the dragons
)
"""Sort key of each kind in the reference calculator's tile order (m, s, p, winds, 中 发 白)."""

ref_key = REF_ORDER.__getitem__
"""Sort key in the reference's tile order (a C-level look-up)."""
_BY_REF: Final = tuple(sorted(range(NUM_KINDS), key=REF_ORDER.__getitem__))
"""The kind at each position of the reference's order (the inverse of :data:`REF_ORDER`)."""


def ref_sorted(tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
    """``tuple(sorted(tiles, key=ref_key))``, sorting the positions as plain ints (no key calls); up to
    four tiles (a reading's chows or pungs) by comparisons written out, with no list."""
    n = len(tiles)
    if n <= 4:
        if n <= 1:
            return tiles
        a = REF_ORDER[tiles[0]]
        b = REF_ORDER[tiles[1]]
        if a > b:
            a, b = b, a
        if n == 2:
            return _BY_REF[a], _BY_REF[b]
        c = REF_ORDER[tiles[2]]
        if c < b:  # insert c
            if c < a:
                a, b, c = c, a, b
            else:
                b, c = c, b
        if n == 3:
            return _BY_REF[a], _BY_REF[b], _BY_REF[c]
        d = REF_ORDER[tiles[3]]
        if d < c:  # insert d
            if d < a:
                a, b, c, d = d, a, b, c
            elif d < b:
                b, c, d = d, b, c
            else:
                c, d = d, c
        return _BY_REF[a], _BY_REF[b], _BY_REF[c], _BY_REF[d]
    positions = [REF_ORDER[t] for t in tiles]
    positions.sort()
    return tuple([_BY_REF[i] for i in positions])


@dataclass(frozen=True, slots=True)
class Group:
    """One set of a reading (面子): chow, pung or kong (prebuilt: see :func:`make_group`). A slotted class,
    not a named tuple: detectors read its fields often, and slot reads are the interpreter's fast path."""

    kind: int
    """CHOW, PUNG or KONG."""
    tile: Tile
    """Lowest tile of a chow; the tile of a pung or kong."""
    declared: bool
    """A declared set (副露, or a concealed kong), not formed from the standing tiles."""
    melded: bool
    """Claimed from a discard (明); a concealed kong and standing sets are not."""
    size: int
    """Tiles of a kong: 4, or 5–8 for a 无双 extended kong (still one kong); 4 for a chow or a pung."""
    tiles: tuple[Tile, ...]
    """The tiles of the set (a field, not computed on each use: detectors read it often)."""
    key: int
    """The tiles packed 4 bits a kind (:data:`erma.analysis.tables.INC`)."""
    text: str
    """The tiles in mpsz (``123m``)."""
    group: int
    """The group of its tiles: 0–2 the suits (m, p, s), 3 the honours."""
    part: int
    """The tiles packed 4 bits a kind within their group (a small int: :attr:`key` is ``part`` shifted to
    the group's lanes)."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Rebuilt through the constructor (copy, pickle; also when compiled)."""
        return reduce_frozen(self)


def make_group(kind: int, tile: Tile, declared: bool, melded: bool, size: int = 4) -> Group:
    """A :class:`Group` with its tiles filled in."""
    if kind == CHOW:
        tiles: tuple[Tile, ...] = (tile, tile + 1, tile + 2)
    else:
        tiles = (tile,) * (size if kind == KONG else 3)
    valid = all(t < NUM_KINDS for t in tiles)  # (the prebuilt tables hold chows that cross a suit: unused)
    gi = min(tile // 9, 3)
    return Group(
        kind,
        tile,
        declared,
        melded,
        size,
        tiles,
        sum(INC[t] for t in tiles) if valid else 0,
        to_mpsz(tiles) if valid else "",
        gi,
        sum(1 << (4 * (t - 9 * gi)) for t in tiles) if valid else 0,
    )


_RANK_CHAR: Final = (
    tuple(str(t % 9 + 1) for t in range(27))
    + tuple(str(r) for r in range(1, 8))
    + tuple(str(r) for r in range(1, 9))
)
_SUIT_CHAR: Final = "m" * 9 + "p" * 9 + "s" * 9 + "z" * 7 + "f" * 8
PART_TEXTS: Final[dict[tuple[Tile, ...], str]] = {}
"""Memo of :func:`part_text` for parts of at most 4 tiles (sets and pairs)."""
_LAST: Final[list[tuple[tuple[Tile, ...], str]]] = [((), "")]
"""The last whole hand asked for and its text, one pair (replaced at once: safe across threads)."""


def part_text(part: tuple[Tile, ...]) -> str:
    """``to_mpsz(part)``, fast for the sorted parts of hits and readings (sets of a few tiles memoised)."""
    if len(part) > 4:
        last_part, last_text = _LAST[0]
        if part is last_part:
            return last_text
    else:
        got = PART_TEXTS.get(part)
        if got is not None:
            return got
    prev = ""
    out = []
    for i, t in enumerate(part):
        if not 0 <= t < 42 or (i and t < part[i - 1]):
            return to_mpsz(part)  # unsorted or not kinds: the general path (and its errors)
        c = _SUIT_CHAR[t]
        if c != prev:
            if prev:
                out.append(prev)
            prev = c
        out.append(_RANK_CHAR[t])
    out.append(prev)
    text = "".join(out)
    if len(part) <= 4:
        PART_TEXTS[part] = text
    else:
        _LAST[0] = (part, text)  # a whole hand is often asked for several times in a row (held: no reuse)
    return text


def _declared_group(kind: MeldKind, tile: Tile) -> Group:
    if kind is MeldKind.CHOW:
        return make_group(CHOW, tile, True, True)
    if kind is MeldKind.PUNG:
        return make_group(PUNG, tile, True, True)
    return make_group(KONG, tile, True, kind is not MeldKind.CONCEALED_KONG)


_DECLARED: Final[dict[tuple[MeldKind, Tile], Group]] = {
    (k, t): _declared_group(k, t)
    for k in MeldKind
    for t in range(NUM_KINDS)
    if k is not MeldKind.CHOW or (t < 27 and t % 9 <= 6)
}
"""Declared groups, built once."""
_DECLARED_CHOW: Final = tuple(_DECLARED.get((MeldKind.CHOW, t)) for t in range(NUM_KINDS))
_DECLARED_PUNG: Final = tuple(_DECLARED[MeldKind.PUNG, t] for t in range(NUM_KINDS))
_DECLARED_HIDDEN: Final = tuple(_DECLARED[MeldKind.CONCEALED_KONG, t] for t in range(NUM_KINDS))
_DECLARED_KONG: Final = tuple(_DECLARED[MeldKind.EXPOSED_KONG, t] for t in range(NUM_KINDS))


def declared_group(m: Meld) -> Group:
    """The group of a declared meld (prebuilt; enum members compared by identity, not hashed)."""
    k = m.kind
    if k is MeldKind.CHOW:
        g = _DECLARED_CHOW[m.tile]
        if g is not None:
            return g
    elif m.size <= 4:
        if k is MeldKind.PUNG:
            return _DECLARED_PUNG[m.tile]
        if k is MeldKind.CONCEALED_KONG:
            return _DECLARED_HIDDEN[m.tile]
        if k is MeldKind.EXPOSED_KONG or k is MeldKind.ADDED_KONG:
            return _DECLARED_KONG[m.tile]
    else:  # a 无双 extended kong (5–8 tiles) is one kong with all its tiles
        g = _declared_group(k, m.tile)
        return make_group(g.kind, g.tile, True, g.melded, m.size)
    return _declared_group(k, m.tile)


STANDING_PUNG: Final = tuple(make_group(PUNG, t, False, False) for t in range(NUM_KINDS))
"""The pung of each kind formed from the standing tiles, built once."""
STANDING_CHOW: Final = tuple(make_group(CHOW, t, False, False) for t in range(NUM_KINDS))
"""The chow from each kind formed from the standing tiles, built once (those that cross a suit unused)."""
