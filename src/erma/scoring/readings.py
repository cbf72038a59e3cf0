"""Step 1 of the pipeline, *decompose* (拆解): every reading of a winning hand, in the reference's order.

A reading (:class:`HandView`) fixes the hand's shape and, for the set shapes, its sets and pair; it is
what the detectors read. :func:`readings` returns the special shape first when there is one (seven
pairs, thirteen orphans, honours and knitted, knitted straight + a set + a pair), then the regular
readings (4 sets and a pair) when no special shape applies or it is seven pairs, which competes with
them (就高不就低). Regular readings come in the reference calculator's order (its sets sorted, reference
tile order m < s < p < 东南西北 < 中发白), which its tie-breaks depend on.

>>> from erma.scoring.context import read_record
>>> facts, views = readings(read_record({"packs": [], "hand": "111222333m789p5z", "win_tile": "5z"}))
>>> [v.describe() for v in views]
['111m 222m 333m 789p 55z', '123m 123m 123m 789p 55z']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, Final

from erma.analysis.decompose import group_readings
from erma.analysis.tables import INC, SUIT_MASK
from erma.hand import Meld, MeldKind
from erma.scoring.context import WinContext, read_record
from erma.scoring.waits import regular_wait_count, unique_wait_key
from erma.tiles import BAMBOOS, DOTS, GREENS, NUM_KINDS, TERMINALS_AND_HONORS, WHITE, Tile, to_mpsz

REGULAR: Final = "regular"
"""基本和型: four sets and a pair."""
SEVEN_PAIRS: Final = "seven_pairs"
"""七对: seven pairs, concealed."""
THIRTEEN_ORPHANS: Final = "thirteen_orphans"
"""十三幺."""
HONORS_KNITTED: Final = "honors_and_knitted"
"""全不靠 / 七星不靠: fourteen singles of a knitted sequence and the honours."""
KNITTED: Final = "knitted_straight"
"""组合龙 + a set + a pair."""
ALL_SHAPES: Final = frozenset({REGULAR, SEVEN_PAIRS, THIRTEEN_ORPHANS, HONORS_KNITTED, KNITTED})

CHOW: Final = 0
PUNG: Final = 1
KONG: Final = 2

# Facts of a reading, one bit each (HandView.features): a detector declares the ones it needs
# (``@fan(..., needs=F_PUNG | F_HONORS)``) and the pipeline skips it on readings that lack one.
# Hand facts (the same for every reading of a hand):
F_HONORS: Final = 1 << 0
"""Some honour tile."""
F_NO_HONORS: Final = 1 << 1
"""No honour tile."""
F_ONE_SUIT: Final = 1 << 2
"""Exactly one suit present."""
F_TWO_SUITS: Final = 1 << 3
"""Exactly two suits present."""
F_THREE_SUITS: Final = 1 << 4
"""All three suits present."""
F_WINDS_DRAGONS: Final = 1 << 5
"""Some wind and some dragon tile."""
F_SELF_DRAWN: Final = 1 << 6
"""自摸."""
F_DISCARD: Final = 1 << 7
"""Won on a discard (or a robbed kong)."""
F_CONCEALED: Final = 1 << 8
"""No claimed set (concealed kongs allowed)."""
F_ALL_MELDED: Final = 1 << 9
"""Four claimed sets."""
F_WALL_LAST: Final = 1 << 10
"""The last wall tile."""
F_LAST_TILE: Final = 1 << 11
"""和绝张 (after the corrections)."""
F_KONG_INVOLVED: Final = 1 << 12
"""杠上开花 / 抢杠和 flag (after the corrections)."""
F_FLOWERS: Final = 1 << 13
"""Some flower held."""
F_FOUR_COPIES: Final = 1 << 14
"""Some kind held four times or more."""
F_TERMINALS_ONLY: Final = 1 << 15
"""Only 1s and 9s."""
F_OUTSIDE_ONLY: Final = 1 << 16
"""Only terminals and honours."""
F_SIMPLES_ONLY: Final = 1 << 17
"""No terminal or honour."""
F_GREEN_ONLY: Final = 1 << 18
"""Only 23468s and 发."""
F_REVERSIBLE_ONLY: Final = 1 << 19
"""Only 1234589p, 245689s and 白."""
F_RANKS_1_4: Final = 1 << 20
"""Suited ranks all within 1–4 (or no suited tile)."""
F_RANKS_4_6: Final = 1 << 21
"""Suited ranks all within 4–6."""
F_RANKS_6_9: Final = 1 << 22
"""Suited ranks all within 6–9."""
# Reading facts:
F_CHOW: Final = 1 << 24
"""Some chow among the sets."""
F_NO_CHOW: Final = 1 << 25
"""No chow among the sets."""
F_PUNG: Final = 1 << 26
"""Some pung or kong among the sets."""
F_NO_PUNG: Final = 1 << 27
"""No pung or kong among the sets."""
F_KONG: Final = 1 << 28
"""Some kong."""
F_HONOR_PUNG: Final = 1 << 29
"""Some pung or kong of a wind or dragon."""
F_EDGE_PUNG: Final = 1 << 30
"""Some pung or kong of a terminal or wind (幺九刻)."""
F_CONCEALED_PUNGS: Final = 1 << 31
"""Two or more concealed pungs (暗刻)."""
F_PAIR_FIVE: Final = 1 << 32
"""The pair is a suited 5."""
F_SUITED_PAIR: Final = 1 << 33
"""The pair is suited."""
F_WAIT_SPOT: Final = 1 << 37
"""The winning tile may make a wait fan: it sits in a standing chow or the pair (always for 组合龙)."""
F_WAIT_EDGE: Final = 1 << 38
"""The reading's wait fan is 边张 (a unique wait; implies F_WAIT_SPOT)."""
F_WAIT_CLOSED: Final = 1 << 39
"""The reading's wait fan is 嵌张 (a unique wait; implies F_WAIT_SPOT)."""
F_WAIT_SINGLE: Final = 1 << 40
"""The reading's wait fan is 单钓将 (a unique wait; implies F_WAIT_SPOT)."""
_F_WAIT: Final = (0, F_WAIT_EDGE, F_WAIT_CLOSED, F_WAIT_SINGLE)
F_EDGE_PAIR: Final = 1 << 34
"""The pair is a terminal or an honour."""
F_WIND_PUNG: Final = 1 << 35
"""Some pung or kong of a wind."""
F_DRAGON_PUNG: Final = 1 << 36
"""Some pung or kong of a dragon."""
F_KONG_OR_ROBBING: Final = 1 << 23
"""A hand fact: the 杠上开花 / 抢杠和 flag (after the corrections) or ``WinContext.robbing``."""
# The reading's shape, one bit each (so that a reading's facts alone choose its detectors):
F_SHAPE_REGULAR: Final = 1 << 41
F_SHAPE_SEVEN_PAIRS: Final = 1 << 42
F_SHAPE_THIRTEEN_ORPHANS: Final = 1 << 43
F_SHAPE_HONORS_KNITTED: Final = 1 << 44
F_SHAPE_KNITTED: Final = 1 << 45
SHAPE_BITS: Final = {
    REGULAR: F_SHAPE_REGULAR,
    SEVEN_PAIRS: F_SHAPE_SEVEN_PAIRS,
    THIRTEEN_ORPHANS: F_SHAPE_THIRTEEN_ORPHANS,
    HONORS_KNITTED: F_SHAPE_HONORS_KNITTED,
    KNITTED: F_SHAPE_KNITTED,
}
"""The shape bit of each shape."""

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

KNITTED_SEQUENCES: Final[tuple[tuple[Tile, ...], ...]] = tuple(
    tuple(sorted(9 * suit + r for suit, cls in enumerate(perm) for r in range(cls, 9, 3)))
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)
"""The six knitted straights (组合龙): 147, 258, 369 each in a different suit."""


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


def make_group(kind: int, tile: Tile, declared: bool, melded: bool, size: int = 4) -> Group:
    """A :class:`Group` with its tiles filled in."""
    if kind == CHOW:
        tiles: tuple[Tile, ...] = (tile, tile + 1, tile + 2)
    else:
        tiles = (tile,) * (size if kind == KONG else 3)
    valid = all(t < NUM_KINDS for t in tiles)  # (the prebuilt tables hold chows that cross a suit: unused)
    return Group(
        kind,
        tile,
        declared,
        melded,
        size,
        tiles,
        sum(INC[t] for t in tiles) if valid else 0,
        to_mpsz(tiles) if valid else "",
    )


@dataclass(slots=True)
class HandFacts:
    """What every reading of one hand shares: the corrected win flags, the packed counts, the tiles, and
    the hand's facts as ``F_*`` bits (:attr:`features`). The rarer views of the same facts (counts, kinds,
    suits, ranks, …) are properties computed from these when a detector asks."""

    source: WinContext | Mapping[str, Any]
    """The win context, or the record it is read from when first asked (:attr:`ctx`)."""
    win_tile: Tile
    """和牌张."""
    declared: tuple[Group, ...]
    """The declared sets as groups."""
    melded_sets: int
    """Declared sets claimed from a discard (concealed kongs are not)."""
    self_drawn: bool
    """自摸."""
    last_tile: bool
    """和绝张 after the reference's corrections (never with a copy in hand; forced by three in sets)."""
    kong_involved: bool
    """杠上开花 / 抢杠和 after the corrections (needs a kong / a first copy)."""
    wall_last: bool
    """The last wall tile."""
    seat_wind: int
    """门风 0–3."""
    prevalent_wind: int
    """圈风 0–3."""
    robbing: bool
    """Won on a robbed added kong (``WinContext.robbing``)."""
    flowers: tuple[Tile, ...]
    """Flowers held, by kind, when the record names them."""
    flower_count: int
    """花牌 count."""
    key: int
    """The standing tiles with the winning tile, packed 4 bits a kind (:data:`erma.analysis.tables.INC`)."""
    full_key: int
    """Every tile of the hand (declared sets too), packed 4 bits a kind."""
    mask: int
    """The kinds present, one bit a kind (bit t for kind t)."""
    features: int
    """The hand facts (``F_*`` bits up to F_RANKS_6_9, and F_KONG_OR_ROBBING) that hold."""
    tiles: tuple[Tile, ...]
    """Every tile of the hand, sorted (kongs give four)."""
    text: str
    """The whole hand in mpsz (``part_text(tiles)``), joined from per-suit texts."""
    suit_infos: _SuitInfos
    """The per-suit memo entries of :attr:`full_key` (counts, tiles, kinds, readings, … of each suit)."""
    _unique_wait: bool | None = field(default=None, repr=False)

    @property
    def ctx(self) -> WinContext:
        """The win context (read from the record on first use when the facts came straight from one)."""
        src = self.source
        if not isinstance(src, WinContext):
            src = self.source = read_record(src)
        return src

    @property
    def counts(self) -> list[int]:
        """Count of each kind over the whole hand (declared sets, standing tiles, winning tile)."""
        m0, m1, m2, m3 = self.suit_infos
        return [*m0[0], *m1[0], *m2[0], *m3[0]]

    @property
    def standing(self) -> list[int]:
        """Count of each kind among the standing tiles with the winning tile."""
        return _unpack(self.key)

    @property
    def kinds(self) -> tuple[Tile, ...]:
        """The kinds present, sorted."""
        m0, m1, m2, m3 = self.suit_infos
        return m0[2] + m1[2] + m2[2] + m3[2]

    @property
    def suits(self) -> int:
        """Number of suits present (0–3)."""
        m = self.mask
        return (m & 0x1FF != 0) + (m >> 9 & 0x1FF != 0) + (m >> 18 & 0x1FF != 0)

    @property
    def honors(self) -> bool:
        """Any honour present."""
        return self.mask & _M_HONORS != 0

    @property
    def winds(self) -> bool:
        """Any wind present."""
        return self.mask & _M_WINDS != 0

    @property
    def dragons(self) -> bool:
        """Any dragon present."""
        return self.mask & _M_DRAGONS != 0

    @property
    def ranks(self) -> tuple[int, int]:
        """Lowest and highest rank (1–9) of the suited tiles; (0, 0) if none."""
        m = self.mask
        return _RANKS[(m | m >> 9 | m >> 18) & 0x1FF]

    @property
    def terminals_only(self) -> bool:
        """Only 1s and 9s (清幺九 tiles)."""
        return self.features & F_TERMINALS_ONLY != 0

    @property
    def outside_only(self) -> bool:
        """Only terminals and honours (混幺九 tiles)."""
        return self.features & F_OUTSIDE_ONLY != 0

    @property
    def simples_only(self) -> bool:
        """No terminal or honour (断幺 tiles)."""
        return self.features & F_SIMPLES_ONLY != 0

    @property
    def unique_wait(self) -> bool:
        """独听 of the standing tiles (regular and seven-pairs waits, copy limit ignored)."""
        if self._unique_wait is None:
            win = self.win_tile
            # 13 standing tiles may also wait for seven pairs (not with more than 8 kinds in the hand)
            self._unique_wait = unique_wait_key(
                self.key - INC[win], not self.declared and self.mask.bit_count() <= 8
            )
        return self._unique_wait


@dataclass(slots=True)
class HandView:
    """One reading of a winning hand: its shape and, for set shapes, its sets and pair."""

    facts: HandFacts
    """What all readings share."""
    shape: str
    """One of the shape names (REGULAR, SEVEN_PAIRS, …)."""
    sets: tuple[Group, ...] = ()
    """The sets: declared first, then those of the standing tiles (knitted: the one set beside the 组合龙)."""
    pair: Tile = -1
    """The pair's kind (雀头), −1 if the shape has none."""
    knitted: tuple[Tile, ...] = ()
    """The nine tiles of the knitted straight (组合龙), if the reading has one."""
    chows: tuple[Tile, ...] = ()
    """Lowest tile of each chow, in reference order."""
    pungs: tuple[Tile, ...] = ()
    """Tile of each pung and kong, in reference order."""
    concealed_pungs: int = 0
    """Concealed pungs and kongs (暗刻), after a discard completing a pung made it melded."""
    melded_kongs: int = 0
    """Claimed kongs (明杠, exposed or added)."""
    concealed_kongs: int = 0
    """Concealed kongs (暗杠)."""
    features: int = 0
    """The facts (``F_*`` bits) that hold for this reading: the hand's and the reading's."""
    _wait: int = field(default=-1, repr=False)

    def describe(self) -> str:
        """The reading in mpsz, sets then pair: ``123m 123m 123m 789p 55z``."""
        if self.shape in (SEVEN_PAIRS, THIRTEEN_ORPHANS, HONORS_KNITTED):
            return self.facts.text or part_text(self.facts.tiles)
        parts = list(map(_SET_TEXT, self.sets))
        if self.pair >= 0:
            parts.append(_PAIR_TEXT[self.pair])
        if self.knitted:
            parts.insert(0, part_text(self.knitted))
        return " ".join(parts)

    @property
    def concealed_sets(self) -> tuple[Group, ...]:
        """Sets formed from the standing tiles."""
        return tuple(g for g in self.sets if not g.declared)

    def wait_kind(self) -> int:
        """0 none, 1 边张, 2 嵌张, 3 单钓将: the reference's wait fan for this reading (unique waits only)."""
        if self._wait < 0:
            self._wait = self._wait_kind()
        return self._wait

    def _wait_kind(self) -> int:
        f = self.facts
        win = f.win_tile
        if self.shape == KNITTED:
            if f.declared:
                if win not in self.knitted or (f.key >> (4 * win)) & 15 == 3:
                    return 3
                return 0
            rest = f.key - INC[win]
            for t in self.knitted:
                rest -= INC[t]
            if regular_wait_count(rest) != 1:
                return 0
        elif self.shape != REGULAR:
            return 0
        pos = 0
        for g in self.sets:
            if g.declared or g.kind != CHOW:
                continue
            mid = g.tile + 1
            if mid == win:
                pos |= 2
            elif mid + 1 == win or mid - 1 == win:
                pos |= 1
        if self.pair == win:
            pos |= 4
        if not pos or (self.shape == REGULAR and not f.unique_wait):
            return 0
        if pos & 1:
            return 1
        if pos & 2:
            return 2
        return 3 if pos & 4 else 0


_RANK_CHAR: Final = (
    tuple(str(t % 9 + 1) for t in range(27))
    + tuple(str(r) for r in range(1, 8))
    + tuple(str(r) for r in range(1, 9))
)
_SUIT_CHAR: Final = "m" * 9 + "p" * 9 + "s" * 9 + "z" * 7 + "f" * 8
PART_TEXTS: dict[tuple[Tile, ...], str] = {}
"""Memo of :func:`part_text` for parts of at most 4 tiles (sets and pairs)."""
_LAST: list[tuple[tuple[Tile, ...], str]] = [((), "")]
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
_BIT: Final = tuple(1 << t for t in range(NUM_KINDS))
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


_STANDING_PUNG: Final = tuple(make_group(PUNG, t, False, False) for t in range(NUM_KINDS))
_STANDING_CHOW: Final = tuple(make_group(CHOW, t, False, False) for t in range(NUM_KINDS))
_PAIR_TEXT: Final = tuple(to_mpsz((t, t)) for t in range(NUM_KINDS))
"""mpsz of each pair, by tile."""
_SET_TEXT: Final = attrgetter("text")

_M_SUITS: Final = (0x1FF, 0x1FF << 9, 0x1FF << 18)
_M_HONORS: Final = 0x7F << 27
_M_WINDS: Final = 0xF << 27
_M_DRAGONS: Final = 0x7 << 31
_M_TERMINALS: Final = sum(1 << (9 * s + r) for s in range(3) for r in (0, 8))
_INC: Final = INC
_ODD_BITS: Final = sum(INC)
"""The low bit of every kind's count in a packed key."""
_M_EDGE_OR_HONOR: Final = _M_TERMINALS | _M_HONORS
_M_GREEN: Final = sum(1 << t for t in GREENS)
_M_REVERSIBLE: Final = sum(
    1 << t
    for t in (*(DOTS[i] for i in (0, 1, 2, 3, 4, 7, 8)), *(BAMBOOS[i] for i in (1, 3, 4, 5, 7, 8)), WHITE)
)
_M_EDGE_PUNG: Final = _M_TERMINALS | _M_WINDS
_F_SUITS: Final = (0, F_ONE_SUIT, F_TWO_SUITS, F_THREE_SUITS)
_F_NO_SETS: Final = F_NO_CHOW | F_NO_PUNG
_F_ALL_OF: Final = F_TERMINALS_ONLY | F_OUTSIDE_ONLY | F_SIMPLES_ONLY | F_GREEN_ONLY | F_REVERSIBLE_ONLY


def _all_of(mask: int) -> int:
    """The "only …" facts that hold for the kinds of ``mask`` (all of them for no kind)."""
    f = 0
    if mask & ~_M_TERMINALS == 0:
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
_RANKS: Final = tuple(((rm & -rm).bit_length(), rm.bit_length()) for rm in range(512))
_RANKS_FACTS: Final = tuple(_ranks_facts(rm) for rm in range(512))


_FACTS_ORDER: Final = [
    "source",
    "win_tile",
    "declared",
    "melded_sets",
    "self_drawn",
    "last_tile",
    "kong_involved",
    "wall_last",
    "seat_wind",
    "prevalent_wind",
    "robbing",
    "flowers",
    "flower_count",
    "key",
    "full_key",
    "mask",
    "features",
    "tiles",
    "text",
    "suit_infos",
]
_VIEW_ORDER: Final = [
    "facts",
    "shape",
    "sets",
    "pair",
    "knitted",
    "chows",
    "pungs",
    "concealed_pungs",
    "melded_kongs",
    "concealed_kongs",
    "features",
]
if [f.name for f in fields(HandFacts)][: len(_FACTS_ORDER)] != _FACTS_ORDER or [
    f.name for f in fields(HandView)
][: len(_VIEW_ORDER)] != _VIEW_ORDER:  # pragma: no cover - a guard for whoever reorders the fields
    raise RuntimeError("HandFacts / HandView fields were reordered: update build_facts and _view")


_SuitInfo = tuple[
    tuple[int, ...],
    tuple[Tile, ...],
    tuple[Tile, ...],
    int,
    int,
    str,
    int,
    int,
    tuple[list["_Part"], list["_Part"]],
]
"""Of one group's counts: (counts, tiles, kinds, presence bits, largest count, mpsz text, the "only …"
facts its kinds allow (combined with &), the facts it makes hold (combined with |), its readings as sets
without and with the pair)."""
_SuitInfos = tuple[_SuitInfo, _SuitInfo, _SuitInfo, _SuitInfo]
_SUIT_INFO: tuple[dict[int, _SuitInfo], ...] = ({}, {}, {}, {})
"""Memo, one per group (the three suits, the honours): the group's slice of a packed count key → info."""
_GROUP_LEN: Final = (9, 9, 9, 7)


def _suit_info(k: int, gi: int) -> _SuitInfo:
    """The :data:`_SuitInfo` of slice ``k`` of group ``gi``, computed and stored."""
    base = 9 * gi
    counts = tuple([(k >> (4 * i)) & 15 for i in range(_GROUP_LEN[gi])])
    tiles = tuple([base + i for i, n in enumerate(counts) for _ in range(n)])
    kinds = tuple([base + i for i, n in enumerate(counts) if n])
    bits = sum(1 << i for i, n in enumerate(counts) if n)
    high = max(counts)
    only = _SUIT_ALL[gi][bits] if gi < 3 else _HONOR_ALL[bits]
    some = (_HONOR_ANY[bits] if gi == 3 else 0) | (F_FOUR_COPIES if high >= 4 else 0)
    parts = _group_parts(k, base)
    got = (counts, tiles, kinds, bits, high, part_text(tiles) if tiles else "", only, some, parts)
    memo = _SUIT_INFO[gi]
    if len(memo) > 1 << 16:  # a bound far above what hands produce
        memo.clear()
    memo[k] = got
    return got


def _suit_infos(key: int) -> _SuitInfos:
    """The per-suit infos of a packed key (memoised)."""
    i0, i1, i2, i3 = _SUIT_INFO
    k = key & SUIT_MASK
    m0 = i0.get(k) or _suit_info(k, 0)
    k = (key >> 36) & SUIT_MASK
    m1 = i1.get(k) or _suit_info(k, 1)
    k = (key >> 72) & SUIT_MASK
    m2 = i2.get(k) or _suit_info(k, 2)
    k = key >> 108
    m3 = i3.get(k) or _suit_info(k, 3)
    return m0, m1, m2, m3


def _unpack(key: int) -> list[int]:
    """The count vector (34 kinds) of a packed key, from the per-suit memo."""
    m0, m1, m2, m3 = _suit_infos(key)
    return [*m0[0], *m1[0], *m2[0], *m3[0]]


def hand_facts(ctx: WinContext) -> HandFacts:
    """The shared facts of a hand, with the reference's corrections of the win flags."""
    win = ctx.win_tile
    return build_facts(
        ctx,
        tuple([declared_group(m) for m in ctx.melds]) if ctx.melds else (),
        sum(map(_INC.__getitem__, ctx.concealed), _INC[win]),
        win,
        ctx.self_drawn,
        ctx.fourth_tile,
        ctx.about_kong,
        ctx.wall_last,
        ctx.seat_wind,
        ctx.prevalent_wind,
        ctx.robbing,
        ctx.flowers,
        ctx.flower_count,
        ctx.copies,
    )


def build_facts(
    source: WinContext | Mapping[str, Any],
    declared: tuple[Group, ...],
    key: int,
    win: Tile,
    self_drawn: bool,
    fourth_tile: bool,
    about_kong: bool,
    wall_last: bool,
    seat_wind: int,
    prevalent_wind: int,
    robbing: bool,
    flowers: tuple[Tile, ...],
    flower_count: int,
    copies: int,
) -> HandFacts:
    """:func:`hand_facts` from the hand's parts: its declared sets, the packed standing tiles with the
    winning tile, and the win context's values (``source`` is kept for :attr:`HandFacts.ctx`). Both the
    checked path (a WinContext) and score_record's plain-record path end here."""
    has_kong = False
    melded_sets = 0
    full = key
    for g in declared:
        full += g.key
        if g.melded:
            melded_sets += 1
        if g.kind == KONG:
            has_kong = True
    i0, i1, i2, i3 = _SUIT_INFO
    k = full & SUIT_MASK
    m0 = i0.get(k) or _suit_info(k, 0)
    k = (full >> 36) & SUIT_MASK
    m1 = i1.get(k) or _suit_info(k, 1)
    k = (full >> 72) & SUIT_MASK
    m2 = i2.get(k) or _suit_info(k, 2)
    k = full >> 108
    m3 = i3.get(k) or _suit_info(k, 3)
    s0 = m0[3]
    s1 = m1[3]
    s2 = m2[3]
    shift = 4 * win
    standing_win = (key >> shift) & 15
    fixed_win = ((full >> shift) & 15) - standing_win
    last = (fourth_tile and standing_win == 1) or fixed_win == copies - 1
    kong = about_kong
    if kong:
        kong = has_kong if self_drawn else fixed_win == 0 and standing_win == 1
    f = (
        (m0[6] & m1[6] & m2[6] & m3[6])
        | m0[7]
        | m1[7]
        | m2[7]
        | m3[7]
        | _F_SUITS[(s0 != 0) + (s1 != 0) + (s2 != 0)]
        | _RANKS_FACTS[s0 | s1 | s2]
    )
    f |= F_SELF_DRAWN if self_drawn else F_DISCARD
    if melded_sets == 0:
        f |= F_CONCEALED
    elif melded_sets == 4:
        f |= F_ALL_MELDED
    if wall_last:
        f |= F_WALL_LAST
    if last:
        f |= F_LAST_TILE
    if kong:
        f |= F_KONG_INVOLVED | F_KONG_OR_ROBBING
    elif robbing:
        f |= F_KONG_OR_ROBBING
    if flower_count or flowers:
        f |= F_FLOWERS
    return HandFacts(  # positional, in field order (_FACTS_ORDER): much faster than keywords
        source,
        win,
        declared,
        melded_sets,
        self_drawn,
        last,
        kong,
        wall_last,
        seat_wind,
        prevalent_wind,
        robbing,
        flowers,
        flower_count,
        key,
        full,
        s0 | s1 << 9 | s2 << 18 | m3[3] << 27,
        f,
        m0[1] + m1[1] + m2[1] + m3[1],
        m0[5] + m1[5] + m2[5] + m3[5],
        (m0, m1, m2, m3),
    )


_ref_key = REF_ORDER.__getitem__
"""Sort key in the reference's tile order (a C-level look-up)."""


def _view(
    facts: HandFacts, shape: str, sets: tuple[Group, ...], pair: Tile, knitted: tuple[Tile, ...] = ()
) -> HandView:
    chows: list[Tile] = []
    pungs: list[Tile] = []
    cp = mk = ck = 0
    win_pungs = 0
    win_in_chow = False
    pos = 0  # as in HandView._wait_kind: 1 the winning tile ends a standing chow, 2 is its middle, 4 the pair
    win = facts.win_tile
    for g in sets:
        t = g.tile
        if g.kind == CHOW:
            chows.append(t)
            if not g.declared and t <= win <= t + 2:
                win_in_chow = True
                pos |= 2 if t + 1 == win else 1
        else:
            pungs.append(t)
            if g.kind == KONG:
                if g.melded:
                    mk += 1
                else:
                    ck += 1
                    cp += 1
            elif not g.melded:
                cp += 1
                if t == win:
                    win_pungs += 1
    f = facts.features | SHAPE_BITS[shape]
    if win_in_chow or pair == win or shape != REGULAR:
        f |= F_WAIT_SPOT
    if shape == REGULAR and not facts.self_drawn and not win_in_chow:
        # A discard completing a concealed pung makes it melded, unless it can sit in a concealed chow.
        cp -= win_pungs > 0  # one pung (无双: six of a kind are two pungs, one made melded)
    if chows:
        f |= F_CHOW
        if len(chows) > 1:
            chows.sort(key=_ref_key)
    else:
        f |= F_NO_CHOW
    if pungs:
        f |= F_PUNG
        pm = 0
        for t in pungs:
            pm |= 1 << t
        if pm & _M_HONORS:
            f |= F_HONOR_PUNG
            if pm & _M_WINDS:
                f |= F_WIND_PUNG
            if pm & _M_DRAGONS:
                f |= F_DRAGON_PUNG
        if pm & _M_EDGE_PUNG:
            f |= F_EDGE_PUNG
        if mk or ck:
            f |= F_KONG
        if len(pungs) > 1:
            pungs.sort(key=_ref_key)
    else:
        f |= F_NO_PUNG
    if cp >= 2:
        f |= F_CONCEALED_PUNGS
    if 0 <= pair < 27:
        f |= F_SUITED_PAIR
        if pair % 9 == 4:
            f |= F_PAIR_FIVE
        elif pair % 9 in (0, 8):
            f |= F_EDGE_PAIR
    elif pair >= 27:
        f |= F_EDGE_PAIR
    view = HandView(  # positional, in field order (_VIEW_ORDER)
        facts, shape, sets, pair, knitted, tuple(chows), tuple(pungs), cp, mk, ck, f
    )
    if f & F_WAIT_SPOT:  # the wait fan is a fact of the reading: the wait detectors need it
        if shape == REGULAR:  # HandView._wait_kind, from the loop above
            if pair == win:
                pos |= 4
            w = (1 if pos & 1 else 2 if pos & 2 else 3) if facts.unique_wait else 0
        else:
            w = view._wait_kind()
        view._wait = w
        if w:
            view.features = f | _F_WAIT[w]
    return view


_KNITTED_MASKS: Final = tuple(sum(1 << t for t in seq) for seq in KNITTED_SEQUENCES)
_KNITTED_KEYS: Final = tuple(sum(INC[t] for t in seq) for seq in KNITTED_SEQUENCES)
_ORPHANS_MASK: Final = sum(1 << t for t in TERMINALS_AND_HONORS)
_KNIT_CLASSES: Final = tuple(
    sum(1 << c for c in range(3) if all(b >> r & 1 for r in (c, c + 3, c + 6))) for b in range(512)
)
"""By a suit's 9-bit presence pattern: which of 147 (bit 0), 258 (bit 1), 369 (bit 2) it holds whole."""


def _special(facts: HandFacts) -> HandView | None:
    key = facts.key
    melds = facts.declared
    if not melds:
        if key & _ODD_BITS == 0:
            return HandView(facts, SEVEN_PAIRS, features=facts.features | _F_NO_SETS | F_SHAPE_SEVEN_PAIRS)
        nk = facts.mask.bit_count()
        if nk == 14:
            suited = facts.mask & ~_M_HONORS
            n_suited = suited.bit_count()
            if 7 <= n_suited <= 9 and any(suited & ~m == 0 for m in _KNITTED_MASKS):
                return HandView(
                    facts, HONORS_KNITTED, features=facts.features | _F_NO_SETS | F_SHAPE_HONORS_KNITTED
                )
        elif nk == 13 and facts.mask == _ORPHANS_MASK:
            return HandView(
                facts, THIRTEEN_ORPHANS, features=facts.features | _F_NO_SETS | F_SHAPE_THIRTEEN_ORPHANS
            )
    if len(melds) > 1:
        return None
    m = (
        facts.mask
    )  # the hand's kinds: a knitted straight needs 147, 258, 369 of distinct classes in the suits
    k0 = _KNIT_CLASSES[m & 0x1FF]
    k1 = _KNIT_CLASSES[m >> 9 & 0x1FF]
    k2 = _KNIT_CLASSES[m >> 18 & 0x1FF]
    if not (k0 and k1 and k2) or k0 | k1 | k2 != 7:
        return None
    present = (key | key >> 1 | key >> 2 | key >> 3) & _ODD_BITS  # one bit per standing kind (4 bits a kind)
    if 9 <= present.bit_count() < 14 - 3 * len(melds):  # the nine knitted kinds, and a pair somewhere
        for seq, k in zip(KNITTED_SEQUENCES, _KNITTED_KEYS, strict=True):
            if k & ~present == 0:
                rest = key - k
                if melds:
                    pairs = [t for t in range(NUM_KINDS) if (rest >> (4 * t)) & 15]
                    if len(pairs) != 1 or (rest >> (4 * pairs[0])) & 15 != 2:
                        return None
                    return _view(facts, KNITTED, facts.declared, pairs[0], seq)
                ds = _regular(rest)
                if len(ds) != 1:
                    return None
                chows, pungs, pair = ds[0]
                g = _STANDING_CHOW[chows[0]] if chows else _STANDING_PUNG[pungs[0]]
                return _view(facts, KNITTED, (g,), pair, seq)
    return None


@dataclass(frozen=True, slots=True)
class _Part:
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


_Reading = tuple[tuple[Tile, ...], tuple[Tile, ...], Tile]
"""(chow starts, pung tiles, pair tile or −1), absolute tiles, each sorted."""


def _pung_facts(pm: int) -> int:
    """The pung facts of the pungs and kongs whose kinds are the bits of ``pm``."""
    if not pm:
        return 0
    f = F_PUNG
    if pm & _M_HONORS:
        f |= F_HONOR_PUNG
        if pm & _M_WINDS:
            f |= F_WIND_PUNG
        if pm & _M_DRAGONS:
            f |= F_DRAGON_PUNG
    if pm & _M_EDGE_PUNG:
        f |= F_EDGE_PUNG
    return f


def _part(chows: tuple[Tile, ...], pungs: tuple[Tile, ...], pair: Tile, base: int) -> _Part:
    pos = [0] * _GROUP_LEN[base // 9]
    for t in chows:
        pos[t - base] |= 1
        pos[t - base + 1] |= 2
        pos[t - base + 2] |= 1
    for t in pungs:
        pos[t - base] |= 8
    return _Part(
        chows,
        pungs,
        pair,
        tuple(_STANDING_PUNG[t] for t in pungs),
        tuple(_STANDING_CHOW[t] for t in chows),
        tuple(sorted(pungs, key=_ref_key)),
        _pung_facts(sum(1 << t for t in set(pungs))),
        tuple(pos),
    )


def _group_parts(key: int, base: int) -> tuple[list[_Part], list[_Part]]:
    """The distinct readings of one group key without and with the pair, in absolute tiles (for the
    per-suit memo)."""
    bare: list[_Part] = []
    paired: list[_Part] = []
    seen: set[_Reading] = set()
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


_Combo = tuple[_Part, _Part, _Part, _Part]


def _combos(infos: _SuitInfos) -> tuple[list[_Combo], int]:
    """Every reading of a 3k+2 hand, given the per-suit infos of its packed key, as one part per group
    (unordered), and the group of the pair."""
    m0, m1, m2, m3 = infos[0][8], infos[1][8], infos[2][8], infos[3][8]
    # The pair sits in a group of 3k + 2 tiles, whose bare list is empty: the first group with paired
    # readings is the only one that can hold it (a second one would leave no bare reading for itself).
    if m0[1]:
        pi = 0
        g0, g1, g2, g3 = m0[1], m1[0], m2[0], m3[0]
    elif m1[1]:
        pi = 1
        g0, g1, g2, g3 = m0[0], m1[1], m2[0], m3[0]
    elif m2[1]:
        pi = 2
        g0, g1, g2, g3 = m0[0], m1[0], m2[1], m3[0]
    elif m3[1]:
        pi = 3
        g0, g1, g2, g3 = m0[0], m1[0], m2[0], m3[1]
    else:
        return [], 0
    if not (g0 and g1 and g2 and g3):
        return [], 0
    if len(g0) == 1 and len(g1) == 1 and len(g2) == 1 and len(g3) == 1:  # most hands: one reading
        return [(g0[0], g1[0], g2[0], g3[0])], pi
    return [(r0, r1, r2, r3) for r0 in g0 for r1 in g1 for r2 in g2 for r3 in g3], pi


def _regular(key: int) -> list[_Reading]:
    """Every reading of a packed 3k+2 key as sets and one pair (chows and pungs sorted), unordered."""
    combos, pi = _combos(_suit_infos(key))
    return [
        (r0.chows + r1.chows + r2.chows + r3.chows, r0.pungs + r1.pungs + r2.pungs + r3.pungs, c[pi].pair)
        for c in combos
        for r0, r1, r2, r3 in (c,)
    ]


TERMINALS_AND_HONORS_SORTED: Final = tuple(sorted(TERMINALS_AND_HONORS))


def readings(ctx: WinContext) -> tuple[HandFacts, list[HandView]]:
    """The hand's facts and every reading, special shape first, regular readings in reference order.

    An empty list means the hand does not win.
    """
    facts = hand_facts(ctx)
    return facts, readings_of(facts)


_PAIR_FACTS: Final = tuple(
    (F_SUITED_PAIR | (F_PAIR_FIVE if t % 9 == 4 else F_EDGE_PAIR if t % 9 in (0, 8) else 0))
    if t < 27
    else F_EDGE_PAIR
    for t in range(NUM_KINDS)
)
"""The pair facts by the pair's kind."""
_WIN_GROUP: Final = tuple(min(t // 9, 3) for t in range(NUM_KINDS))


def readings_of(facts: HandFacts) -> list[HandView]:
    """:func:`readings` of a hand's facts (however they were read)."""
    out: list[HandView] = []
    declared = facts.declared
    if len(declared) <= 1:  # the special shapes have at most one declared set
        special = _special(facts)
        if special is not None:
            out.append(special)
            if special.shape != SEVEN_PAIRS:
                return out
    combos, pi = _combos(facts.suit_infos if not declared else _suit_infos(facts.key))
    if not combos:
        return out
    if len(combos) > 1:
        combos.sort(key=_combo_order)
    # What the declared sets give every reading.
    dec_chows: tuple[Tile, ...] = ()
    dec_pungs: tuple[Tile, ...] = ()
    mk = ck = 0
    dec_facts = 0
    if declared:
        pm = 0
        for g in declared:
            if g.kind == CHOW:
                dec_chows += (g.tile,)
            else:
                dec_pungs += (g.tile,)
                pm |= 1 << g.tile
                if g.kind == KONG:
                    if g.melded:
                        mk += 1
                    else:
                        ck += 1
        dec_facts = _pung_facts(pm) | (F_KONG if mk or ck else 0)
    win = facts.win_tile
    wg = _WIN_GROUP[win]
    wi = win - 9 * wg
    discard = not facts.self_drawn
    for c in combos:
        r0, r1, r2, r3 = c
        pair = c[pi].pair
        pos = c[wg].win_pos[
            wi
        ]  # as in HandView._wait_kind: 1 / 2 the winning tile in a standing chow, 8 a pung
        sets = (
            declared
            + r0.pung_sets
            + r1.pung_sets
            + r2.pung_sets
            + r3.pung_sets
            + r0.chow_sets
            + r1.chow_sets
            + r2.chow_sets
        )
        chows = r0.chows + r2.chows + r1.chows  # m, s, p: the reference order
        pungs = r0.pungs + r2.pungs + r1.pungs + r3.ref_pungs
        if dec_chows:
            chows = tuple(sorted(chows + dec_chows, key=_ref_key))
        if dec_pungs:
            pungs = tuple(sorted(pungs + dec_pungs, key=_ref_key))
        f = (
            facts.features
            | F_SHAPE_REGULAR
            | dec_facts
            | r0.pung_facts
            | r1.pung_facts
            | r2.pung_facts
            | r3.pung_facts
            | _PAIR_FACTS[pair]
            | (F_CHOW if chows else F_NO_CHOW)
        )
        if not f & F_PUNG:
            f |= F_NO_PUNG
        cp = len(r0.pungs) + len(r1.pungs) + len(r2.pungs) + len(r3.pungs) + ck
        if discard and pos == 8:
            # A discard completing a concealed pung makes it melded, unless it can sit in a concealed chow
            # (无双: six of a kind are two pungs, one made melded).
            cp -= 1
        if cp >= 2:
            f |= F_CONCEALED_PUNGS
        w = 0
        if pos & 3 or pair == win:
            f |= F_WAIT_SPOT
            if facts.unique_wait:  # the wait fan is a fact of the reading: the wait detectors need it
                w = 1 if pos & 1 else 2 if pos & 2 else 3
                f |= _F_WAIT[w]
        view = HandView(facts, REGULAR, sets, pair, (), chows, pungs, cp, mk, ck, f)  # as _VIEW_ORDER
        view._wait = w
        out.append(view)
    return out


def _combo_order(c: _Combo) -> list[tuple[int, int]]:
    r0, r1, r2, r3 = c
    return _reading_order(
        (r0.chows + r1.chows + r2.chows + r3.chows, r0.pungs + r1.pungs + r2.pungs + r3.pungs, -1)
    )


def _reading_order(r: _Reading) -> list[tuple[int, int]]:
    return sorted([(REF_ORDER[t], 0) for t in r[1]] + [(REF_ORDER[t], 1) for t in r[0]])
