"""The facts of a winning hand that every reading shares (:class:`HandFacts`), with the reference's
corrections of the win flags.

>>> from erma.scoring.context import read_record
>>> f = hand_facts(read_record({"packs": [["PENG", "1z", 1]], "hand": "123456789m6z", "win_tile": "6z"}))
>>> f.text, f.melded_sets, f.suits, f.honors, f.unique_wait
('123456789m11166z', 1, 1, True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from erma.scoring.context import WinContext, read_record
from erma.scoring.features import (
    F_ALL_MELDED,
    F_CONCEALED,
    F_DISCARD,
    F_FLOWERS,
    F_KONG_INVOLVED,
    F_KONG_OR_ROBBING,
    F_LAST_TILE,
    F_ONE_SUIT,
    F_OUTSIDE_ONLY,
    F_SELF_DRAWN,
    F_SIMPLES_ONLY,
    F_TERMINALS_ONLY,
    F_THREE_SUITS,
    F_TWO_SUITS,
    F_WALL_LAST,
    M_DRAGONS,
    M_HONORS,
    M_WINDS,
)
from erma.scoring.groups import KONG, Group, declared_group
from erma.scoring.suits import RANKS, RANKS_FACTS, SuitInfos, suit_infos_of, wait_info
from erma.scoring.waits import unique_wait_infos
from erma.tiles import NUM_KINDS, Tile

_F_SUITS: Final = (0, F_ONE_SUIT, F_TWO_SUITS, F_THREE_SUITS)
"""The suit fact by the number of suits present."""
_WIN_GROUP: Final = tuple(min(t // 9, 3) for t in range(NUM_KINDS))
"""The group of each kind: 0–2 the suits, 3 the honours."""
_WIN_PART: Final = tuple(1 << (4 * (t - 9 * min(t // 9, 3))) for t in range(NUM_KINDS))
"""One tile of each kind, packed within its group."""


class HandFacts:
    """What every reading of one hand shares: the corrected win flags, the packed counts, the tiles, and
    the hand's facts as ``F_*`` bits (:attr:`features`). The rarer views of the same facts (counts, kinds,
    suits, ranks, …) are properties computed from these when a detector asks.

    A plain class with its own ``__init__`` (compiled, a native class: a dataclass's generated
    ``__init__`` would run as interpreted Python in the compiled build)."""

    __slots__ = (
        "_unique_wait",
        "declared",
        "features",
        "flower_count",
        "flowers",
        "k0",
        "k1",
        "k2",
        "k3",
        "kong_involved",
        "last_tile",
        "mask",
        "melded_sets",
        "prevalent_wind",
        "robbing",
        "seat_wind",
        "self_drawn",
        "source",
        "suit_infos",
        "text",
        "tiles",
        "wall_last",
        "win_tile",
    )

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
    k0: int
    """The standing tiles with the winning tile in the characters (m), packed 4 bits a kind (a small int)."""
    k1: int
    """… in the dots (p)."""
    k2: int
    """… in the bamboo (s)."""
    k3: int
    """… in the honours (z). :attr:`key` joins the four."""
    mask: int
    """The kinds present, one bit a kind (bit t for kind t)."""
    features: int
    """The hand facts (``F_*`` bits up to F_RANKS_6_9, and F_KONG_OR_ROBBING) that hold."""
    tiles: tuple[Tile, ...]
    """Every tile of the hand, sorted (kongs give four)."""
    text: str
    """The whole hand in mpsz (``part_text(tiles)``), joined from per-suit texts."""
    suit_infos: SuitInfos
    """The per-suit memo entries of :attr:`full_key` (counts, tiles, kinds, readings, … of each suit)."""
    _unique_wait: int
    """:attr:`unique_wait` once computed (1 / 0), −1 before."""

    def __init__(
        self,
        source: WinContext | Mapping[str, Any],
        win_tile: Tile,
        declared: tuple[Group, ...],
        melded_sets: int,
        self_drawn: bool,
        last_tile: bool,
        kong_involved: bool,
        wall_last: bool,
        seat_wind: int,
        prevalent_wind: int,
        robbing: bool,
        flowers: tuple[Tile, ...],
        flower_count: int,
        k0: int,
        k1: int,
        k2: int,
        k3: int,
        mask: int,
        features: int,
        tiles: tuple[Tile, ...],
        text: str,
        suit_infos: SuitInfos,
    ) -> None:
        self.source = source
        self.win_tile = win_tile
        self.declared = declared
        self.melded_sets = melded_sets
        self.self_drawn = self_drawn
        self.last_tile = last_tile
        self.kong_involved = kong_involved
        self.wall_last = wall_last
        self.seat_wind = seat_wind
        self.prevalent_wind = prevalent_wind
        self.robbing = robbing
        self.flowers = flowers
        self.flower_count = flower_count
        self.k0 = k0
        self.k1 = k1
        self.k2 = k2
        self.k3 = k3
        self.mask = mask
        self.features = features
        self.tiles = tiles
        self.text = text
        self.suit_infos = suit_infos
        self._unique_wait = -1

    def __repr__(self) -> str:
        return f"HandFacts({self.text!r} + {self.win_tile}, features={self.features:#x})"

    @property
    def ctx(self) -> WinContext:
        """The win context (read from the record on first use when the facts came straight from one)."""
        src = self.source
        if not isinstance(src, WinContext):
            src = self.source = read_record(src)
        return src

    @property
    def key(self) -> int:
        """The standing tiles with the winning tile, packed 4 bits a kind (joined from the four groups)."""
        return self.k0 | self.k1 << 36 | self.k2 << 72 | self.k3 << 108

    @property
    def full_key(self) -> int:
        """Every tile of the hand (declared sets too), packed 4 bits a kind."""
        m0, m1, m2, m3 = self.suit_infos
        return m0.key | m1.key << 36 | m2.key << 72 | m3.key << 108

    @property
    def counts(self) -> list[int]:
        """Count of each kind over the whole hand (declared sets, standing tiles, winning tile)."""
        m0, m1, m2, m3 = self.suit_infos
        return [*m0.counts, *m1.counts, *m2.counts, *m3.counts]

    @property
    def standing(self) -> list[int]:
        """Count of each kind among the standing tiles with the winning tile."""
        m0, m1, m2, m3 = suit_infos_of(self.k0, self.k1, self.k2, self.k3)
        return [*m0.counts, *m1.counts, *m2.counts, *m3.counts]

    @property
    def kinds(self) -> tuple[Tile, ...]:
        """The kinds present, sorted."""
        m0, m1, m2, m3 = self.suit_infos
        return m0.kinds + m1.kinds + m2.kinds + m3.kinds

    @property
    def n_kinds(self) -> int:
        """The number of kinds present (``mask.bit_count()``, from the groups' kinds: no method call)."""
        m0, m1, m2, m3 = self.suit_infos
        return len(m0.kinds) + len(m1.kinds) + len(m2.kinds) + len(m3.kinds)

    @property
    def suits(self) -> int:
        """Number of suits present (0–3)."""
        m = self.mask
        return (m & 0x1FF != 0) + (m >> 9 & 0x1FF != 0) + (m >> 18 & 0x1FF != 0)

    @property
    def honors(self) -> bool:
        """Any honour present."""
        return self.mask & M_HONORS != 0

    @property
    def winds(self) -> bool:
        """Any wind present."""
        return self.mask & M_WINDS != 0

    @property
    def dragons(self) -> bool:
        """Any dragon present."""
        return self.mask & M_DRAGONS != 0

    @property
    def ranks(self) -> tuple[int, int]:
        """Lowest and highest rank (1–9) of the suited tiles; (0, 0) if none."""
        m = self.mask
        return RANKS[(m | m >> 9 | m >> 18) & 0x1FF]

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
        if self._unique_wait < 0:
            win = self.win_tile
            # 13 standing tiles may also wait for seven pairs (not with more than 8 kinds in the hand)
            seven = not self.declared and self.n_kinds <= 8
            k0, k1, k2, k3 = self.k0, self.k1, self.k2, self.k3
            wg = _WIN_GROUP[win]
            one = _WIN_PART[win]
            if wg == 0:
                k0 -= one
            elif wg == 1:
                k1 -= one
            elif wg == 2:
                k2 -= one
            else:
                k3 -= one
            m0, m1, m2, m3 = self.suit_infos  # a group without declared sets: its info holds the waits
            unique = unique_wait_infos(
                wait_info(m0, k0, 0),
                wait_info(m1, k1, 1),
                wait_info(m2, k2, 2),
                wait_info(m3, k3, 3),
                k0,
                k1,
                k2,
                k3,
                seven,
            )
            self._unique_wait = 1 if unique else 0
        return self._unique_wait == 1


def hand_facts(ctx: WinContext) -> HandFacts:
    """The shared facts of a hand, with the reference's corrections of the win flags."""
    win = ctx.win_tile
    # the four groups' keys, each a small int (no 136-bit key summed tile by tile)
    k0 = k1 = k2 = k3 = 0
    for t in (*ctx.concealed, win):
        if t < 9:
            k0 += 1 << (4 * t)
        elif t < 18:
            k1 += 1 << (4 * (t - 9))
        elif t < 27:
            k2 += 1 << (4 * (t - 18))
        else:
            k3 += 1 << (4 * (t - 27))
    return build_facts(
        ctx,
        tuple([declared_group(m) for m in ctx.melds]) if ctx.melds else (),
        k0,
        k1,
        k2,
        k3,
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
    k0: int,
    k1: int,
    k2: int,
    k3: int,
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
    """:func:`hand_facts` from the hand's parts: its declared sets, the standing tiles with the winning
    tile packed per group (m, p, s, z: four small ints), and the win context's values (``source`` is kept
    for :attr:`HandFacts.ctx`). Both the checked path (a WinContext) and score_record's plain-record path
    end here."""
    has_kong = False
    melded_sets = 0
    f0, f1, f2, f3 = k0, k1, k2, k3
    for g in declared:
        gi = g.group
        if gi == 0:
            f0 += g.part
        elif gi == 1:
            f1 += g.part
        elif gi == 2:
            f2 += g.part
        else:
            f3 += g.part
        if g.melded:
            melded_sets += 1
        if g.kind == KONG:
            has_kong = True
    m0, m1, m2, m3 = suit_infos_of(f0, f1, f2, f3)
    s0 = m0.bits
    s1 = m1.bits
    s2 = m2.bits
    wg = _WIN_GROUP[win]
    shift = 4 * (win - 9 * wg)
    if wg == 0:
        standing_win = (k0 >> shift) & 15
        fixed_win = ((f0 >> shift) & 15) - standing_win
    elif wg == 1:
        standing_win = (k1 >> shift) & 15
        fixed_win = ((f1 >> shift) & 15) - standing_win
    elif wg == 2:
        standing_win = (k2 >> shift) & 15
        fixed_win = ((f2 >> shift) & 15) - standing_win
    else:
        standing_win = (k3 >> shift) & 15
        fixed_win = ((f3 >> shift) & 15) - standing_win
    last = (fourth_tile and standing_win == 1) or fixed_win == copies - 1
    kong = about_kong
    if kong:
        kong = has_kong if self_drawn else fixed_win == 0 and standing_win == 1
    f = (
        (m0.only & m1.only & m2.only & m3.only)
        | m0.some
        | m1.some
        | m2.some
        | m3.some
        | _F_SUITS[(s0 != 0) + (s1 != 0) + (s2 != 0)]
        | RANKS_FACTS[s0 | s1 | s2]
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
    return HandFacts(  # positional (in pure Python much faster than keywords)
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
        k0,
        k1,
        k2,
        k3,
        s0 | s1 << 9 | s2 << 18 | m3.bits << 27,
        f,
        m0.tiles + m1.tiles + m2.tiles + m3.tiles,
        m0.text + m1.text + m2.text + m3.text,
        (m0, m1, m2, m3),
    )


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
    "k0",
    "k1",
    "k2",
    "k3",
    "mask",
    "features",
    "tiles",
    "text",
    "suit_infos",
]
"""HandFacts's fields, in the order of its constructor's parameters."""
