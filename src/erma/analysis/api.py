"""The public analysis functions: win test, shanten (by shape), useful tiles and waits.

``tiles`` is a list of kinds or a notation string; it is the concealed part of a hand (3k+1 or 3k+2
tiles, k = 0…5, jokers included). Keyword options: ``jokers`` wild tiles that may stand for any kind
(财神), counted on top of ``tiles``; ``copies`` the copy limit of the tile set (4, or 8 for 无双).

>>> shanten("123m456p789s1155z")
0
>>> waits("123m456p789s1155z")
[27, 31]
>>> shanten_by_shape("19m19p19s1234567z")["thirteen_orphans"]
0

``shapes`` keeps only the shapes a rule set can win (:class:`~erma.analysis.shapes.Shapes`;
``erma.rules.winnable_shapes`` derives it from a rule set and its fan table):

>>> from erma.analysis import Shapes
>>> shanten("345679m1234567z"), shanten("345679m1234567z", shapes=Shapes.REGULAR | Shapes.SEVEN_PAIRS)
(3, 5)
"""

from __future__ import annotations

from collections.abc import Iterable

from erma.analysis import shapes as _s
from erma.analysis.tables import INC, regular_value
from erma.errors import InvalidHandError
from erma.tiles import NUM_KINDS, Tile, parse, to_mpsz

TileInput = str | Iterable[int]
ShapesInput = _s.Shapes | Iterable[str] | None
"""Which winning shapes count: a :class:`~erma.analysis.shapes.Shapes` set, shape names, or None (the five
MCR shapes; 八对 where the tile count allows it). The regular shape always counts."""


_ADD3 = sum(3 << (4 * t) for t in range(NUM_KINDS))
_HIGH = sum(8 << (4 * t) for t in range(NUM_KINDS))


def prepare(tiles: TileInput, jokers: int = 0, copies: int = 4, *, what: str = "hand") -> tuple[int, int]:
    """Parse and validate: returns the packed key and n (tiles + jokers).

    Raises InvalidHandError (or InvalidNotationError) naming the input and what is wrong. A list of
    kinds within 0–33, at most 4 copies each, takes a fast path.
    """
    if type(jokers) is not int or jokers < 0:
        raise InvalidHandError(f"jokers must be a count ≥ 0, not {jokers!r}")
    if type(tiles) is list or type(tiles) is tuple:
        size = len(tiles)
        n = size + jokers
        if 1 <= n <= 17 and n % 3 and copies == 4 and size < 16:
            try:
                if not size or (min(tiles) >= 0 and max(tiles) < NUM_KINDS):
                    key = 0
                    for t in tiles:
                        key += INC[t]
                    if not (key + _ADD3) & _HIGH:
                        return key, n
            except TypeError:
                pass
    return _prepare_slow(tiles, jokers, copies, what)


def _describe(tiles: TileInput) -> str:
    if isinstance(tiles, str):
        return repr(tiles)
    try:
        return repr(to_mpsz(list(tiles)))
    except ValueError:
        return repr(tiles)


def _prepare_slow(tiles: TileInput, jokers: int, copies: int, what: str) -> tuple[int, int]:
    ts = parse(tiles)
    shown = _describe(ts if not isinstance(tiles, str) else tiles)
    if copies not in (4, 8):
        raise InvalidHandError(f"copies must be 4 or 8, not {copies!r}")
    seen = [0] * NUM_KINDS
    for t in ts:
        if t >= NUM_KINDS:
            raise InvalidHandError(f"{what} {shown}: flower {to_mpsz([t])} is not part of a hand")
        seen[t] = seen[t] + 1
        if seen[t] > copies:
            raise InvalidHandError(f"{what} {shown}: more than {copies} copies of {to_mpsz([t])}")
    n = len(ts) + jokers
    if n % 3 == 0 or not 1 <= n <= 17:
        raise InvalidHandError(
            f"{what} {shown}: {n} tiles; a concealed part has 3k+1 or 3k+2 tiles (1, 2, 4, 5, … 16, 17)"
        )
    return pack(ts), n


def pack(tiles: Iterable[Tile]) -> int:
    """The packed count key of some tiles (4 bits a kind)."""
    key = 0
    for t in tiles:
        key += INC[t]
    return key


def count_of(key: int, tile: Tile) -> int:
    """How many of a kind a packed key holds."""
    return (key >> (4 * tile)) & 15


def shape_mask(shapes: ShapesInput) -> int:
    """The ``int`` flag set of a ``shapes`` argument (None: :data:`~erma.analysis.shapes.ALL` and 八对);
    the regular shape is always in it. An unknown shape name is an InvalidHandError."""
    if shapes is None:
        return _s.ALL | _s.Shapes.EIGHT_PAIRS.value
    if isinstance(shapes, _s.Shapes):
        return shapes.value | 1
    mask = 1
    for name in _checked_shapes(shapes):
        mask |= _s.SHAPE_FLAGS[name].value
    return mask


def _names(n: int, shapes: ShapesInput) -> list[str]:
    """The shapes n tiles can take, of those ``shapes`` allows (names, in :data:`SHAPES` order)."""
    mask = shape_mask(shapes)
    return [name for name in _s.shapes_for(n) if _s.SHAPE_FLAGS[name].value & mask]


def is_win(tiles: TileInput, *, jokers: int = 0, copies: int = 4, shapes: ShapesInput = None) -> bool:
    """和牌: do the tiles (3k+2) form a complete hand of one of the shapes (all MCR shapes by default)?

    >>> is_win("11223344556677z")
    True
    """
    key, n = prepare(tiles, jokers, copies)
    if n % 3 != 2:
        return False
    if shapes is None:
        return _s.overall(key, n, jokers) == -1
    return any(_s.SHAPE_FUNCS[name](key, n, jokers) == -1 for name in _names(n, shapes))


def shanten(tiles: TileInput, *, jokers: int = 0, copies: int = 4, shapes: ShapesInput = None) -> int:
    """向听数: the least over the shapes the tile count allows (of ``shapes``); −1 complete, 0 ready.

    >>> shanten("1122334455667z")
    0
    >>> shanten("1122334455667z", shapes=["regular"])
    3
    """
    if shapes is not None:
        key, n = prepare(tiles, jokers, copies)
        return min(_s.SHAPE_FUNCS[name](key, n, jokers) for name in _names(n, shapes))
    if type(tiles) is list and not jokers and copies == 4 and 0 < len(tiles) < 16 and len(tiles) % 3:
        # the hot path of prepare(), inlined: a plain list of kinds, no jokers, 4 copies
        try:
            if min(tiles) >= 0 and max(tiles) < NUM_KINDS:
                key = 0
                for t in tiles:
                    key += INC[t]
                if not (key + _ADD3) & _HIGH:
                    return _s.overall(key, len(tiles), 0)
        except TypeError:
            pass
    key, n = prepare(tiles, jokers, copies)
    return _s.overall(key, n, jokers)


def regular_shanten(tiles: TileInput, *, jokers: int = 0, copies: int = 4) -> int:
    """Shanten of the regular shape (sets and a pair) alone."""
    key, n = prepare(tiles, jokers, copies)
    return _s.regular(key, n, jokers)


def shanten_by_shape(
    tiles: TileInput, *, jokers: int = 0, copies: int = 4, shapes: ShapesInput = None
) -> dict[str, int]:
    """Shanten of each shape the tile count allows: keys ``regular``, ``seven_pairs``,
    ``thirteen_orphans``, ``knitted_straight``, ``honors_and_knitted`` (only ``regular`` for counts
    that rule the others out; ``knitted_straight`` also for 10–11 tiles; ``regular`` and
    ``eight_pairs`` 八对 for 16–17 tiles), of those ``shapes`` allows."""
    key, n = prepare(tiles, jokers, copies)
    return {name: _s.SHAPE_FUNCS[name](key, n, jokers) for name in _names(n, shapes)}


def eight_pairs_shanten(
    tiles: TileInput, *, jokers: int = 0, copies: int = 4, four_as_two: bool = False
) -> int:
    """八对 (温州): shanten of eight pairs + one odd tile for a 16- or 17-tile concealed part.

    >>> eight_pairs_shanten("11223344m5566p77s1z3z", jokers=1)  # 7 pairs, 1z with the joker, odd 3z
    -1
    >>> eight_pairs_shanten("11112233m4455p667s1z")  # four 1m are one pair without four_as_two
    1
    """
    key, n = prepare(tiles, jokers, copies)
    if n not in (16, 17):
        raise InvalidHandError(f"hand {tiles!r}: 八对 needs 16 or 17 tiles, not {n}")
    return _s.eight_pairs(key, n, jokers, four_as_two)


def _checked_shapes(shapes: Iterable[str]) -> list[str]:
    out = list(shapes)
    for name in out:
        if name not in _s.SHAPE_FUNCS:
            raise InvalidHandError(f"unknown shape {name!r}; shapes are {', '.join(_s.SHAPE_FUNCS)}")
    return out


# ------------------------------------------------------------------------------------- useful tiles


def _has_neighbour(key: int, t: Tile) -> bool:
    r = t % 9
    return any(0 <= r + d <= 8 and (key >> (4 * (t + d))) & 15 for d in (-2, -1, 1, 2))


def _regular_useful(key: int, sets: int, jokers: int, copies: int, floor: int, out: set[Tile]) -> int:
    """Add to ``out`` the kinds that lower the regular shanten of ``key``; return that shanten.

    Follows the reference: a kind held ``copies`` times is skipped unless the hand is ready, and a kind
    not held is tried only if it has a suited neighbour within two.
    """
    cur = max(floor, regular_value(key, sets) - jokers)
    for t in range(NUM_KINDS):
        c = (key >> (4 * t)) & 15
        if c >= copies and cur > 0:
            continue
        if c == 0 and not jokers and (t >= 27 or not _has_neighbour(key, t)):
            continue  # without jokers an isolated new tile lowers nothing
        if max(floor - 1, regular_value(key + INC[t], sets) - jokers) < cur:
            out.add(t)
    return cur


def useful_by_shape(
    tiles: TileInput, *, jokers: int = 0, copies: int = 4, shapes: ShapesInput = None
) -> dict[str, tuple[int, list[Tile]]]:
    """For each shape (of those ``shapes`` allows): (shanten, kinds that lower it). Defined for 3k+1 tiles.

    The kinds are those of the reference calculator: for the regular shape, a kind already held
    ``copies`` times counts only once the hand is ready (so a ready hand lists every completing kind);
    for the knitted straight, the missing tiles of the best sequences and the kinds that help the rest.
    """
    key, n = prepare(tiles, jokers, copies)
    if n % 3 != 1:
        raise InvalidHandError(
            f"hand {tiles!r}: useful tiles are defined for 3k+1 tiles, not {n}; discard first"
        )
    result: dict[str, tuple[int, list[Tile]]] = {}
    for name in _names(n, shapes):
        result[name] = _useful_one(name, key, n, jokers, copies)
    return result


def _useful_one(name: str, key: int, n: int, jokers: int, copies: int) -> tuple[int, list[Tile]]:
    out: set[Tile] = set()
    if jokers:  # by definition (the reference has no jokers, so none of its shortcuts apply)
        fn = _s.SHAPE_FUNCS[name]
        cur = fn(key, n, jokers)
        for t in range(NUM_KINDS):
            if (cur <= 0 or count_of(key, t) < copies) and fn(key + INC[t], n + 1, jokers) < cur:
                out.add(t)
    elif name == _s.REGULAR:
        cur = _regular_useful(key, (n - 1) // 3, jokers, copies, 0, out)
    elif name == _s.KNITTED_STRAIGHT:
        pats = _s.knitted_patterns(key, n)
        raw = min(v for v, _ in pats)
        cur = max(0, raw - jokers)
        for v, perm in pats:
            if v != raw:
                continue
            rem = _s.knitted_remainder(key, perm)
            for suit, cls in enumerate(perm):
                for r in range(cls, 9, 3):
                    t = 9 * suit + r
                    if not (key >> (4 * t)) & 15:
                        out.add(t)
            _regular_useful(rem, (n - 1) // 3 - 3, jokers, copies, -99, out)
    else:
        fn = _s.SHAPE_FUNCS[name]
        cur = fn(key, n, jokers)
        for t in range(NUM_KINDS):
            if fn(key + INC[t], n + 1, jokers) < cur:
                out.add(t)
    return cur, sorted(out)


def useful_tiles(
    tiles: TileInput, *, jokers: int = 0, copies: int = 4, shapes: ShapesInput = None
) -> list[Tile]:
    """有效牌: the kinds that lower the shanten, united over the shapes (of ``shapes``) at the minimum.

    >>> useful_tiles("1245m")  # 12m 45m: any of 1–6m makes a set or a pair
    [0, 1, 2, 3, 4, 5]
    """
    by = useful_by_shape(tiles, jokers=jokers, copies=copies, shapes=shapes)
    best = min(v for v, _ in by.values())
    out: set[Tile] = set()
    for v, kinds in by.values():
        if v == best:
            out.update(kinds)
    return sorted(out)


def waits(
    tiles: TileInput,
    *,
    jokers: int = 0,
    copies: int = 4,
    exposed: TileInput = (),
    shapes: ShapesInput = None,
) -> list[Tile]:
    """听牌: the kinds that complete the hand (3k+1 tiles), leaving out a kind whose every copy the
    player already holds in ``tiles`` and ``exposed`` (the tiles of their own declared sets).

    >>> waits("1112345678999m")  # 九莲宝灯 nine gates: every 万
    [0, 1, 2, 3, 4, 5, 6, 7, 8]
    >>> waits("1111m")  # the only completing kind, 1m, is all in hand
    []
    >>> waits("2p", exposed="222p")  # a pair wait on 2p whose other copies are in a pung
    []
    >>> waits("2p", exposed="2222p", copies=8)  # 无双 8 copies: four more 2p are left
    [10]
    """
    key, n = prepare(tiles, jokers, copies)
    if n % 3 != 1:
        raise InvalidHandError(f"hand {tiles!r}: waits are defined for 3k+1 tiles, not {n}")
    held = [count_of(key, t) for t in range(NUM_KINDS)]
    for t in parse(exposed):
        if 0 <= t < NUM_KINDS:
            held[t] = held[t] + 1
    allowed = [name for name in _names(n + 1, shapes) if shapes is not None or name in _s.SHAPES]
    out = []
    for t in range(NUM_KINDS):
        if held[t] >= copies:
            continue
        k2 = key + INC[t]
        if any(_s.SHAPE_FUNCS[name](k2, n + 1, jokers) == -1 for name in allowed):
            out.append(t)
    return out
