"""Step 2 of the pipeline, *detect*: one small predicate per fan id, shared by every table.

Three sorts of detector:

- a **fan detector** ``f(view) -> list[Hit]`` reads one reading and returns the fan's instances (empty:
  the fan does not apply). It declares the shapes it reads; on other shapes it is not asked.
- a **set-group predicate** ``f(a, b[, c[, d]]) -> bool`` says whether some chows (their lowest tiles) or
  pungs (their tiles), given in reference order, form the fan. Which groups are tried, and how often a
  set may be reused, is the pipeline's business (不得相同, 套算一次: :mod:`erma.scoring.combine`).
- a **fallback** applies when nothing else counts (无番和).

A fan detector may declare the facts it ``needs`` (``F_*`` bits of :mod:`erma.scoring.features`, such as
``F_PUNG | F_HONORS``): the pipeline then skips it on readings where one of them does not hold, which
saves the call. The bits must be necessary conditions (a detector that would find a hit without them is
wrong); leaving ``needs`` out is always correct. When they are also sufficient — the detector then finds
exactly one instance, the whole hand or the winning tile, as most tile make-up and situation fans do — it
may say so with ``exact="hand"`` or ``exact="win"``, and the pipeline writes that hit itself instead of
asking it (tests/scoring/test_exact.py holds every such detector to its word).

A hit names the sets or tiles that make one instance: a tuple of tile tuples, e.g. ``((0, 1, 2), (0, 1, 2))``
for 一般高 123m123m.

Adding a fan is one function here and one row in each table that scores it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import Final

from erma.scoring.features import (
    ALL_SHAPES,
    F_ALL_MELDED,
    F_CONCEALED,
    F_CONCEALED_PUNGS,
    F_DISCARD,
    F_DRAGON_PUNG,
    F_EDGE_PAIR,
    F_EDGE_PUNG,
    F_FLOWERS,
    F_FOUR_COPIES,
    F_GREEN_ONLY,
    F_HONORS,
    F_KONG,
    F_KONG_INVOLVED,
    F_KONG_OR_ROBBING,
    F_LAST_TILE,
    F_NO_CHOW,
    F_NO_HONORS,
    F_NO_PUNG,
    F_ONE_SUIT,
    F_OUTSIDE_ONLY,
    F_PAIR_FIVE,
    F_PUNG,
    F_RANKS_1_4,
    F_RANKS_4_6,
    F_RANKS_6_9,
    F_REVERSIBLE_ONLY,
    F_SELF_DRAWN,
    F_SIMPLES_ONLY,
    F_SUITED_PAIR,
    F_TERMINALS_ONLY,
    F_THREE_SUITS,
    F_TWO_SUITS,
    F_WAIT_CLOSED,
    F_WAIT_EDGE,
    F_WAIT_SINGLE,
    F_WAIT_SPOT,
    F_WALL_LAST,
    F_WIND_PUNG,
    F_WINDS_DRAGONS,
    HONORS_KNITTED,
    KNITTED,
    REGULAR,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
)
from erma.scoring.groups import CHOW, KONG
from erma.scoring.readings import HandView
from erma.scoring.table import set_known_ids
from erma.tiles import (
    BAMBOOS,
    DOTS,
    DRAGONS,
    EAST,
    GREENS,
    NORTH,
    SOUTH,
    WEST,
    WHITE,
    Tile,
)

Part = tuple[Tile, ...]
Hit = tuple[Part, ...]
Detector = Callable[[HandView], list[Hit]]

REVERSIBLE: Final = frozenset(
    (*(DOTS[i] for i in (0, 1, 2, 3, 4, 7, 8)), *(BAMBOOS[i] for i in (1, 3, 4, 5, 7, 8)), WHITE)
)
"""推不倒 tiles: 1234589p, 245689s, 白."""
GREEN_SET: Final = frozenset(GREENS)
WINDS_SET: Final = frozenset((EAST, SOUTH, WEST, NORTH))
DRAGON_SET: Final = frozenset(DRAGONS)

SET_SHAPES: Final = frozenset({REGULAR, KNITTED})
"""Shapes with sets (a 组合龙 reading has one set beside the knitted straight)."""
TILE_SHAPES: Final = frozenset({REGULAR, SEVEN_PAIRS, KNITTED})
"""Shapes whose tile make-up (suits, ranks, terminals) is scored."""


@dataclass(frozen=True, slots=True)
class FanSpec:
    """A registered detector."""

    id: str
    """The fan id the tables use."""
    shapes: frozenset[str]
    """The shapes it reads."""
    detect: Detector | None = None
    """The fan detector, for fan detectors."""
    family: str = ""
    """``chows`` or ``pungs`` for set-group predicates."""
    arity: int = 0
    """How many sets a set-group predicate takes."""
    predicate: Callable[..., bool] | None = None
    """The set-group predicate."""
    fallback: bool = False
    """Applies only when no other fan that counts for the minimum does (无番和)."""
    needs: int = 0
    """Facts (``F_*`` bits of :mod:`erma.scoring.features`) without which the detector finds nothing."""
    exact: str = ""
    """``"hand"`` / ``"win"``: with its needs met (on a shape it reads) the detector finds exactly one
    instance, the whole hand / the winning tile, and nothing otherwise; "" = ask it."""


REGISTRY: dict[str, FanSpec] = {}
"""Every known fan id → its detector."""


def fan(
    fan_id: str, shapes: frozenset[str] = ALL_SHAPES, needs: int = 0, exact: str = ""
) -> Callable[[Detector], Detector]:
    """Register a fan detector (``needs``: the ``F_*`` facts it cannot do without; ``exact``: they
    decide it, see above)."""
    if exact not in ("", "hand", "win"):
        raise ValueError(f"fan {fan_id!r}: exact is 'hand', 'win' or '', not {exact!r}")

    def deco(fn: Detector) -> Detector:
        REGISTRY[fan_id] = FanSpec(fan_id, shapes, detect=fn, needs=needs, exact=exact)
        return fn

    return deco


def fallback(fan_id: str) -> Callable[[Detector], Detector]:
    """Register a fallback fan (scored when nothing else counts)."""

    def deco(fn: Detector) -> Detector:
        REGISTRY[fan_id] = FanSpec(fan_id, ALL_SHAPES, detect=fn, fallback=True)
        return fn

    return deco


def group(fan_id: str, family: str, arity: int) -> Callable[[Callable[..., bool]], Callable[..., bool]]:
    """Register a set-group predicate over ``arity`` chows or pungs (given in reference order)."""

    def deco(fn: Callable[..., bool]) -> Callable[..., bool]:
        REGISTRY[fan_id] = FanSpec(fan_id, frozenset({REGULAR}), family=family, arity=arity, predicate=fn)
        return fn

    return deco


set_known_ids(lambda: REGISTRY.keys())

_NONE: Final[list[Hit]] = []
_F_ANY_SUIT: Final = F_ONE_SUIT | F_TWO_SUITS | F_THREE_SUITS
_F_FULL_FLUSH: Final = F_ONE_SUIT | F_NO_HONORS
_F_HALF_FLUSH: Final = F_ONE_SUIT | F_HONORS
_F_ALL_TYPES: Final = F_THREE_SUITS | F_WINDS_DRAGONS
_LOW_BITS: Final = sum(1 << (4 * t) for t in range(34))
_SET_TILES: Final = attrgetter("tiles")


# A whole-hand hit is ``[(v.facts.tiles,)]``, a winning-tile hit ``[((v.facts.win_tile,),)]`` (written
# out in each detector: a helper call costs as much as the rest of a small detector).


def _suit(t: Tile) -> int:
    return t // 9


# ------------------------------------------------------------------------------ special shapes


@fan("thirteen_orphans", frozenset({THIRTEEN_ORPHANS}), exact="hand")
def thirteen_orphans(v: HandView) -> list[Hit]:
    """十三幺 Thirteen Orphans: the 13 terminals and honours and one duplicate."""
    return [(v.facts.tiles,)]


@fan("greater_honors_and_knitted_tiles", frozenset({HONORS_KNITTED}))
def greater_honors_and_knitted_tiles(v: HandView) -> list[Hit]:
    """七星不靠 Greater Honors and Knitted Tiles: all 7 honours and 7 knitted suited tiles."""
    return [(v.facts.tiles,)] if sum(1 for t in v.facts.kinds if t < 27) == 7 else _NONE


@fan("lesser_honors_and_knitted_tiles", frozenset({HONORS_KNITTED}), exact="hand")
def lesser_honors_and_knitted_tiles(v: HandView) -> list[Hit]:
    """全不靠 Lesser Honors and Knitted Tiles: 14 singles of a knitted sequence and honours."""
    return [(v.facts.tiles,)]


@fan("knitted_straight", frozenset({HONORS_KNITTED, KNITTED}))
def knitted_straight(v: HandView) -> list[Hit]:
    """组合龙 Knitted Straight: 147, 258, 369 each in a different suit."""
    if v.shape == KNITTED:
        return [(v.knitted,)]
    suited = tuple(t for t in v.facts.kinds if t < 27)
    return [(suited,)] if len(suited) == 9 else _NONE


@fan("seven_pairs", frozenset({SEVEN_PAIRS}), exact="hand")
def seven_pairs(v: HandView) -> list[Hit]:
    """七对 Seven Pairs (a four of a kind gives two pairs)."""
    return [(v.facts.tiles,)]


@fan("seven_shifted_pairs", frozenset({SEVEN_PAIRS}), needs=F_ONE_SUIT | F_NO_HONORS)
def seven_shifted_pairs(v: HandView) -> list[Hit]:
    """连七对 Seven Shifted Pairs: seven consecutive pairs of one suit."""
    kinds = v.facts.kinds
    st = v.facts.standing
    one_run = (
        len(kinds) == 7 and kinds[0] < 27 and kinds[6] == kinds[0] + 6 and _suit(kinds[0]) == _suit(kinds[6])
    )
    return [(v.facts.tiles,)] if one_run and all(st[t] == 2 for t in kinds) else _NONE


@fan("nine_gates", frozenset({REGULAR}), needs=F_ONE_SUIT | F_NO_HONORS | F_CONCEALED)
def nine_gates(v: HandView) -> list[Hit]:
    """九莲宝灯 Nine Gates: concealed 1112345678999 of one suit, won on any tile of it."""
    f = v.facts
    win = f.win_tile
    if f.declared or win >= 27:
        return _NONE
    base = 9 * _suit(win)
    c = list(f.standing[base : base + 9])
    c[win - base] -= 1
    return [(v.facts.tiles,)] if c == [3, 1, 1, 1, 1, 1, 1, 1, 3] else _NONE


# ----------------------------------------------------------------------------- tile make-up


@fan("all_green", TILE_SHAPES, needs=F_GREEN_ONLY, exact="hand")
def all_green(v: HandView) -> list[Hit]:
    """绿一色 All Green: only 23468s and 发."""
    return [(v.facts.tiles,)] if all(t in GREEN_SET for t in v.facts.kinds) else _NONE


@fan("all_terminals", TILE_SHAPES, needs=F_TERMINALS_ONLY, exact="hand")
def all_terminals(v: HandView) -> list[Hit]:
    """清幺九 All Terminals: only 1s and 9s."""
    return [(v.facts.tiles,)] if v.features & F_TERMINALS_ONLY else _NONE


@fan("all_honors", TILE_SHAPES, needs=F_OUTSIDE_ONLY | F_HONORS)
def all_honors(v: HandView) -> list[Hit]:
    """字一色 All Honors."""
    return [(v.facts.tiles,)] if not v.features & _F_ANY_SUIT else _NONE


@fan("all_terminals_and_honors", TILE_SHAPES, needs=F_OUTSIDE_ONLY, exact="hand")
def all_terminals_and_honors(v: HandView) -> list[Hit]:
    """混幺九 All Terminals and Honors: only terminals and honours."""
    return [(v.facts.tiles,)] if v.features & F_OUTSIDE_ONLY else _NONE


@fan("all_simples", TILE_SHAPES, needs=F_SIMPLES_ONLY, exact="hand")
def all_simples(v: HandView) -> list[Hit]:
    """断幺 All Simples: no terminal or honour."""
    return [(v.facts.tiles,)] if v.features & F_SIMPLES_ONLY else _NONE


@fan("reversible_tiles", TILE_SHAPES, needs=F_REVERSIBLE_ONLY, exact="hand")
def reversible_tiles(v: HandView) -> list[Hit]:
    """推不倒 Reversible Tiles: only 1234589p, 245689s and 白."""
    return [(v.facts.tiles,)] if all(t in REVERSIBLE for t in v.facts.kinds) else _NONE


@fan("full_flush", TILE_SHAPES, needs=F_ONE_SUIT | F_NO_HONORS, exact="hand")
def full_flush(v: HandView) -> list[Hit]:
    """清一色 Full Flush: one suit, no honours."""
    return [(v.facts.tiles,)] if v.features & _F_FULL_FLUSH == _F_FULL_FLUSH else _NONE


@fan("half_flush", TILE_SHAPES, needs=F_ONE_SUIT | F_HONORS, exact="hand")
def half_flush(v: HandView) -> list[Hit]:
    """混一色 Half Flush: one suit and honours."""
    return [(v.facts.tiles,)] if v.features & _F_HALF_FLUSH == _F_HALF_FLUSH else _NONE


@fan("one_voided_suit", TILE_SHAPES, needs=F_TWO_SUITS, exact="hand")
def one_voided_suit(v: HandView) -> list[Hit]:
    """缺一门 One Voided Suit: exactly one suit absent."""
    return [(v.facts.tiles,)] if v.features & F_TWO_SUITS else _NONE


@fan("no_honors", TILE_SHAPES, needs=F_NO_HONORS, exact="hand")
def no_honors(v: HandView) -> list[Hit]:
    """无字 No Honors."""
    return [(v.facts.tiles,)] if v.features & F_NO_HONORS else _NONE


@fan("all_types", TILE_SHAPES, needs=F_THREE_SUITS | F_WINDS_DRAGONS, exact="hand")
def all_types(v: HandView) -> list[Hit]:
    """五门齐 All Types: three suits, a wind and a dragon."""
    return [(v.facts.tiles,)] if v.features & _F_ALL_TYPES == _F_ALL_TYPES else _NONE


def _range_fan(lo: int, hi: int) -> Detector:
    def detect(v: HandView) -> list[Hit]:
        f = v.facts
        return [(v.facts.tiles,)] if not f.honors and lo <= f.ranks[0] and f.ranks[1] <= hi else _NONE

    return detect


fan("upper_tiles", TILE_SHAPES, F_NO_HONORS | F_RANKS_6_9)(_range_fan(7, 9))  # 全大 Upper Tiles: only 7 8 9
fan("middle_tiles", TILE_SHAPES, F_NO_HONORS | F_RANKS_4_6, "hand")(
    _range_fan(4, 6)
)  # 全中 Middle Tiles: only 4 5 6
fan("lower_tiles", TILE_SHAPES, F_NO_HONORS | F_RANKS_1_4)(_range_fan(1, 3))  # 全小 Lower Tiles: only 1 2 3
fan("upper_four", TILE_SHAPES, F_NO_HONORS | F_RANKS_6_9, "hand")(
    _range_fan(6, 9)
)  # 大于五 Upper Four: only 6–9
fan("lower_four", TILE_SHAPES, F_NO_HONORS | F_RANKS_1_4, "hand")(
    _range_fan(1, 4)
)  # 小于五 Lower Four: only 1–4


@fan("tile_hog", TILE_SHAPES, needs=F_FOUR_COPIES)
def tile_hog(v: HandView) -> list[Hit]:
    """四归一 Tile Hog: all four copies of a kind used, not as a kong (each; 无双: 4+ outside kongs)."""
    k = v.facts.full_key  # 4 bits a kind
    if v.melded_kongs or v.concealed_kongs:
        for g in v.sets:
            if g.kind == KONG:
                k -= g.key
    hog = (k >> 2 | k >> 3) & _LOW_BITS  # the low bit of each kind's count of 4 or more
    hits: list[Hit] = []
    while hog:
        low = hog & -hog
        hits.append((((low.bit_length() - 1) >> 2,) * 4,))
        hog ^= low
    return hits


# ----------------------------------------------------------------------------------- the sets


@fan("all_pungs", frozenset({REGULAR}), needs=F_NO_CHOW | F_PUNG)
def all_pungs(v: HandView) -> list[Hit]:
    """碰碰和 All Pungs: four pungs or kongs."""
    return [tuple(map(_SET_TILES, v.sets))] if len(v.pungs) == 4 else _NONE


def _every_set(v: HandView, chow_ok: Callable[[int], bool], pung_ok: Callable[[Tile], bool]) -> list[Hit]:
    for g in v.sets:
        if not (chow_ok(g.tile) if g.kind == CHOW else pung_ok(g.tile)):
            return _NONE
    if not pung_ok(v.pair):
        return _NONE
    return [(*map(_SET_TILES, v.sets), (v.pair, v.pair))]


@fan("outside_hand", frozenset({REGULAR}), needs=F_EDGE_PAIR)
def outside_hand(v: HandView) -> list[Hit]:
    """全带幺 Outside Hand: every set and the pair hold a terminal or an honour."""
    return _every_set(v, lambda t: t % 9 in (0, 6), lambda t: t >= 27 or t % 9 in (0, 8))


@fan("all_five", frozenset({REGULAR}), needs=F_PAIR_FIVE)
def all_five(v: HandView) -> list[Hit]:
    """全带五 All Five: every set and the pair hold a 5."""
    return _every_set(v, lambda t: t % 9 in (2, 3, 4), lambda t: t < 27 and t % 9 == 4)


@fan("all_even_pungs", frozenset({REGULAR}), needs=F_NO_CHOW | F_SUITED_PAIR | F_NO_HONORS)
def all_even_pungs(v: HandView) -> list[Hit]:
    """全双刻 All Even Pungs: pungs and pair of 2 4 6 8 only."""
    return _every_set(v, lambda t: False, lambda t: t < 27 and t % 9 in (1, 3, 5, 7))


@fan("pure_terminal_chows", frozenset({REGULAR}), needs=F_PAIR_FIVE | F_NO_PUNG | F_ONE_SUIT | F_NO_HONORS)
def pure_terminal_chows(v: HandView) -> list[Hit]:
    """一色双龙会 Pure Terminal Chows: 123 123 789 789 and 55 of one suit."""
    p = v.pair
    if len(v.chows) != 4 or p >= 27 or p % 9 != 4:
        return _NONE
    base = p - 4
    if sorted(v.chows) == [base, base, base + 6, base + 6]:
        return _every_set(v, lambda t: True, lambda t: True)
    return _NONE


@fan(
    "three_suited_terminal_chows",
    frozenset({REGULAR}),
    needs=F_PAIR_FIVE | F_NO_PUNG | F_THREE_SUITS | F_NO_HONORS,
)
def three_suited_terminal_chows(v: HandView) -> list[Hit]:
    """三色双龙会 Three-Suited Terminal Chows: 123 and 789 in two suits, 55 in the third."""
    p = v.pair
    if len(v.chows) != 4 or p >= 27 or p % 9 != 4:
        return _NONE
    others = [s for s in range(3) if s != _suit(p)]
    want = sorted(9 * s + r for s in others for r in (0, 6))
    if sorted(v.chows) == want:
        return _every_set(v, lambda t: True, lambda t: True)
    return _NONE


@fan("all_chows", SET_SHAPES, needs=F_NO_PUNG | F_SUITED_PAIR)
def all_chows(v: HandView) -> list[Hit]:
    """平和 All Chows: chows only and a suited pair (组合龙: its one set is a chow)."""
    if v.pair < 27 and not v.pungs:  # every pung and kong is in v.pungs
        return [(*map(_SET_TILES, v.sets), (v.pair, v.pair))]
    return _NONE


@fan("little_four_winds", frozenset({REGULAR}), needs=F_WIND_PUNG)
def little_four_winds(v: HandView) -> list[Hit]:
    """小四喜 Little Four Winds: three wind pungs and a wind pair."""
    winds = [g.tiles for g in v.sets if g.kind != CHOW and g.tile in WINDS_SET]
    if len(winds) == 3 and v.pair in WINDS_SET:
        return [(*winds, (v.pair, v.pair))]
    return _NONE


@fan("little_three_dragons", frozenset({REGULAR}), needs=F_DRAGON_PUNG)
def little_three_dragons(v: HandView) -> list[Hit]:
    """小三元 Little Three Dragons: two dragon pungs and a dragon pair."""
    dragons = [g.tiles for g in v.sets if g.kind != CHOW and g.tile in DRAGON_SET]
    if len(dragons) == 2 and v.pair in DRAGON_SET:
        return [(*dragons, (v.pair, v.pair))]
    return _NONE


_EDGE_PUNG: Final = tuple(t in WINDS_SET or (t < 27 and t % 9 in (0, 8)) for t in range(34))
"""幺九刻 kinds: terminals and winds."""


@fan("dragon_pung", SET_SHAPES, needs=F_DRAGON_PUNG)
def dragon_pung(v: HandView) -> list[Hit]:
    """箭刻 Dragon Pung: a pung or kong of 中 发 白 (each)."""
    return [(g.tiles,) for g in v.sets if g.kind != CHOW and g.tile in DRAGON_SET]


@fan("pung_of_terminals_or_honors", SET_SHAPES, needs=F_EDGE_PUNG)
def pung_of_terminals_or_honors(v: HandView) -> list[Hit]:
    """幺九刻 Pung of Terminals or Honors: a pung or kong of a terminal or a wind (each)."""
    return [(g.tiles,) for g in v.sets if g.kind != CHOW and _EDGE_PUNG[g.tile]]


@fan("prevalent_wind", SET_SHAPES, needs=F_WIND_PUNG)
def prevalent_wind(v: HandView) -> list[Hit]:
    """圈风刻 Prevalent Wind: a pung or kong of the prevalent wind."""
    w = EAST + v.facts.prevalent_wind
    return [(g.tiles,) for g in v.sets if g.tile == w and g.kind != CHOW]


@fan("seat_wind", SET_SHAPES, needs=F_WIND_PUNG)
def seat_wind(v: HandView) -> list[Hit]:
    """门风刻 Seat Wind: a pung or kong of the seat wind."""
    w = EAST + v.facts.seat_wind
    return [(g.tiles,) for g in v.sets if g.tile == w and g.kind != CHOW]


def _concealed_pungs(n: int) -> Detector:
    def detect(v: HandView) -> list[Hit]:
        if v.concealed_pungs != n:
            return _NONE
        return [tuple(g.tiles for g in v.sets if g.kind != CHOW and not g.melded)]

    return detect


fan("two_concealed_pungs", SET_SHAPES, F_CONCEALED_PUNGS)(_concealed_pungs(2))  # 双暗刻
fan("three_concealed_pungs", SET_SHAPES, F_CONCEALED_PUNGS)(_concealed_pungs(3))  # 三暗刻
fan("four_concealed_pungs", SET_SHAPES, F_CONCEALED_PUNGS)(_concealed_pungs(4))  # 四暗刻


def _kongs(melded: int, concealed: int, total: int = 0) -> Detector:
    """Kong fans: at least ``melded`` claimed and ``concealed`` concealed kongs, or exactly ``total``."""

    def detect(v: HandView) -> list[Hit]:
        mk, ck = v.melded_kongs, v.concealed_kongs
        ok = mk + ck == total if total else mk >= melded and ck >= concealed
        return [tuple(g.tiles for g in v.sets if g.kind == KONG)] if ok else _NONE

    return detect


def _kong_each(melded: bool) -> Detector:
    """One hit per kong of the kind (a table may count each, as cuopai13's 明杠 / 暗杠 do)."""

    def detect(v: HandView) -> list[Hit]:
        return [(g.tiles,) for g in v.sets if g.kind == KONG and g.melded == melded]

    return detect


fan("melded_kong", SET_SHAPES, F_KONG)(_kong_each(True))  # 明杠 Melded Kong
fan("concealed_kong", SET_SHAPES, F_KONG)(_kong_each(False))  # 暗杠 Concealed Kong
fan("two_melded_kongs", SET_SHAPES, F_KONG)(_kongs(2, 0))  # 双明杠 Two Melded Kongs
fan("concealed_kong_and_melded_kong", SET_SHAPES, F_KONG)(_kongs(1, 1))  # 明暗杠
fan("two_concealed_kongs", SET_SHAPES, F_KONG)(_kongs(0, 2))  # 双暗杠 Two Concealed Kongs
fan("three_kongs", SET_SHAPES, F_KONG)(_kongs(0, 0, 3))  # 三杠 Three Kongs
fan("four_kongs", SET_SHAPES, F_KONG)(_kongs(0, 0, 4))  # 四杠 Four Kongs


@fan("concealed_hand", SET_SHAPES, needs=F_CONCEALED | F_DISCARD, exact="hand")
def concealed_hand(v: HandView) -> list[Hit]:
    """门前清 Concealed Hand: no claimed set, won on a discard."""
    return [(v.facts.tiles,)] if v.facts.melded_sets == 0 and not v.facts.self_drawn else _NONE


@fan("fully_concealed_hand", SET_SHAPES, needs=F_CONCEALED | F_SELF_DRAWN, exact="hand")
def fully_concealed_hand(v: HandView) -> list[Hit]:
    """不求人 Fully Concealed Hand: no claimed set, self-drawn."""
    return [(v.facts.tiles,)] if v.facts.melded_sets == 0 and v.facts.self_drawn else _NONE


@fan("melded_hand", frozenset({REGULAR}), needs=F_ALL_MELDED | F_DISCARD, exact="hand")
def melded_hand(v: HandView) -> list[Hit]:
    """全求人 Melded Hand: four claimed sets, won on a discard (onto the pair)."""
    return [(v.facts.tiles,)] if v.facts.melded_sets == 4 and not v.facts.self_drawn else _NONE


def _wait(kind: int) -> Detector:
    def detect(v: HandView) -> list[Hit]:
        if v.wait_kind() != kind:
            return _NONE
        win = v.facts.win_tile
        if kind == 3:
            return [((win, win),)]
        for g in v.sets:
            if g.kind == CHOW and not g.declared and g.tile <= win <= g.tile + 2:
                return [(g.tiles,)]
        return [((v.facts.win_tile,),)]

    return detect


fan("edge_wait", SET_SHAPES, F_WAIT_SPOT | F_WAIT_EDGE)(_wait(1))  # 边张 Edge Wait (unique)
fan("closed_wait", SET_SHAPES, F_WAIT_SPOT | F_WAIT_CLOSED)(_wait(2))  # 嵌张 Closed Wait (unique)
fan("single_wait", SET_SHAPES, F_WAIT_SPOT | F_WAIT_SINGLE)(_wait(3))  # 单钓将 Single Wait (unique)


# ------------------------------------------------------------------------------ the situation


@fan("self_drawn", needs=F_SELF_DRAWN, exact="win")
def self_drawn(v: HandView) -> list[Hit]:
    """自摸 Self-Drawn."""
    return [((v.facts.win_tile,),)] if v.facts.self_drawn else _NONE


@fan("last_tile", needs=F_LAST_TILE, exact="win")
def last_tile(v: HandView) -> list[Hit]:
    """和绝张 Last Tile: the winning tile is the last copy."""
    return [((v.facts.win_tile,),)] if v.facts.last_tile else _NONE


@fan("last_tile_draw", needs=F_WALL_LAST | F_SELF_DRAWN, exact="win")
def last_tile_draw(v: HandView) -> list[Hit]:
    """妙手回春 Last Tile Draw: self-drawn on the last wall tile."""
    return [((v.facts.win_tile,),)] if v.facts.wall_last and v.facts.self_drawn else _NONE


@fan("last_tile_claim", needs=F_WALL_LAST | F_DISCARD, exact="win")
def last_tile_claim(v: HandView) -> list[Hit]:
    """海底捞月 Last Tile Claim: won on the last discard."""
    return [((v.facts.win_tile,),)] if v.facts.wall_last and not v.facts.self_drawn else _NONE


@fan("out_with_replacement_tile", needs=F_KONG_INVOLVED | F_SELF_DRAWN)
def out_with_replacement_tile(v: HandView) -> list[Hit]:
    """杠上开花 Out with Replacement Tile: self-drawn on a kong's replacement tile (not a robbed kong)."""
    f = v.facts
    return [((v.facts.win_tile,),)] if f.kong_involved and f.self_drawn and not f.robbing else _NONE


@fan("robbing_the_kong", needs=F_KONG_OR_ROBBING)
def robbing_the_kong(v: HandView) -> list[Hit]:
    """抢杠和 Robbing The Kong: won on the tile of the opponent's added kong (maybe scored as self-drawn)."""
    f = v.facts
    return [((v.facts.win_tile,),)] if f.robbing or (f.kong_involved and not f.self_drawn) else _NONE


@fan("flower_tiles", needs=F_FLOWERS)
def flower_tiles(v: HandView) -> list[Hit]:
    """花牌 Flower Tiles: one per flower."""
    f = v.facts
    if f.flowers:
        return [((t,),) for t in f.flowers]
    return [()] * f.flower_count


@fallback("chicken_hand")
def chicken_hand(v: HandView) -> list[Hit]:
    """无番和 Chicken Hand: no other fan (flowers apart)."""
    return [(v.facts.tiles,)]


# --------------------------------------------------------------------- chow groups (lowest tiles)


def _same_suit(*ts: Tile) -> bool:
    s = _suit(ts[0])
    return all(_suit(t) == s for t in ts)


@group("four_pure_shifted_chows", "chows", 4)
def four_pure_shifted_chows(a: Tile, b: Tile, c: Tile, d: Tile) -> bool:
    """一色四步高 Four Pure Shifted Chows: four chows of one suit stepping by 1 or by 2."""
    return _same_suit(a, d) and (b - a == c - b == d - c) and b - a in (1, 2)


@group("quadruple_chow", "chows", 4)
def quadruple_chow(a: Tile, b: Tile, c: Tile, d: Tile) -> bool:
    """一色四同顺 Quadruple Chow: four identical chows."""
    return a == b == c == d


def _mixed(a: Tile, b: Tile, c: Tile) -> bool:
    return len({_suit(a), _suit(b), _suit(c)}) == 3


@group("mixed_shifted_chows", "chows", 3)
def mixed_shifted_chows(a: Tile, b: Tile, c: Tile) -> bool:
    """三色三步高 Mixed Shifted Chows: chows stepping by 1 in three suits."""
    r = sorted((a % 9, b % 9, c % 9))
    return _mixed(a, b, c) and r[1] == r[0] + 1 and r[2] == r[1] + 1


@group("mixed_triple_chow", "chows", 3)
def mixed_triple_chow(a: Tile, b: Tile, c: Tile) -> bool:
    """三色三同顺 Mixed Triple Chow: the same chow in three suits."""
    return _mixed(a, b, c) and a % 9 == b % 9 == c % 9


@group("mixed_straight", "chows", 3)
def mixed_straight(a: Tile, b: Tile, c: Tile) -> bool:
    """花龙 Mixed Straight: 123, 456, 789 in three different suits."""
    return _mixed(a, b, c) and sorted((a % 9, b % 9, c % 9)) == [0, 3, 6]


@group("pure_straight", "chows", 3)
def pure_straight(a: Tile, b: Tile, c: Tile) -> bool:
    """清龙 Pure Straight: 123 456 789 of one suit."""
    return _same_suit(a, c) and a % 9 == 0 and b == a + 3 and c == a + 6


@group("pure_shifted_chows", "chows", 3)
def pure_shifted_chows(a: Tile, b: Tile, c: Tile) -> bool:
    """一色三步高 Pure Shifted Chows: three chows of one suit stepping by 1 or by 2."""
    return _same_suit(a, c) and b - a == c - b and b - a in (1, 2)


@group("pure_triple_chow", "chows", 3)
def pure_triple_chow(a: Tile, b: Tile, c: Tile) -> bool:
    """一色三同顺 Pure Triple Chow: three identical chows."""
    return a == b == c


@group("pure_double_chow", "chows", 2)
def pure_double_chow(a: Tile, b: Tile) -> bool:
    """一般高 Pure Double Chow: two identical chows."""
    return a == b


@group("mixed_double_chow", "chows", 2)
def mixed_double_chow(a: Tile, b: Tile) -> bool:
    """喜相逢 Mixed Double Chow: the same chow in two suits."""
    return _suit(a) != _suit(b) and a % 9 == b % 9


@group("short_straight", "chows", 2)
def short_straight(a: Tile, b: Tile) -> bool:
    """连六 Short Straight: two chows of one suit making six in a row."""
    return _suit(a) == _suit(b) and abs(a - b) == 3


@group("two_terminal_chows", "chows", 2)
def two_terminal_chows(a: Tile, b: Tile) -> bool:
    """老少副 Two Terminal Chows: 123 and 789 of one suit."""
    return _suit(a) == _suit(b) and {a % 9, b % 9} == {0, 6}


# ---------------------------------------------------------------------------- pung groups (tiles)


@group("four_pure_shifted_pungs", "pungs", 4)
def four_pure_shifted_pungs(a: Tile, b: Tile, c: Tile, d: Tile) -> bool:
    """一色四节高 Four Pure Shifted Pungs: four pungs of one suit stepping by 1."""
    return d < 27 and _same_suit(a, d) and b == a + 1 and c == a + 2 and d == a + 3


@group("big_four_winds", "pungs", 4)
def big_four_winds(a: Tile, b: Tile, c: Tile, d: Tile) -> bool:
    """大四喜 Big Four Winds: pungs or kongs of all four winds."""
    return {a, b, c, d} == WINDS_SET


@group("mixed_shifted_pungs", "pungs", 3)
def mixed_shifted_pungs(a: Tile, b: Tile, c: Tile) -> bool:
    """三色三节高 Mixed Shifted Pungs: pungs stepping by 1 in three suits."""
    r = sorted((a % 9, b % 9, c % 9))
    return max(a, b, c) < 27 and _mixed(a, b, c) and r[1] == r[0] + 1 and r[2] == r[1] + 1


@group("triple_pung", "pungs", 3)
def triple_pung(a: Tile, b: Tile, c: Tile) -> bool:
    """三同刻 Triple Pung: same-number pungs in three suits."""
    return max(a, b, c) < 27 and _mixed(a, b, c) and a % 9 == b % 9 == c % 9


@group("pure_shifted_pungs", "pungs", 3)
def pure_shifted_pungs(a: Tile, b: Tile, c: Tile) -> bool:
    """一色三节高 Pure Shifted Pungs: three pungs of one suit stepping by 1."""
    return c < 27 and _same_suit(a, c) and b == a + 1 and c == a + 2


@group("big_three_winds", "pungs", 3)
def big_three_winds(a: Tile, b: Tile, c: Tile) -> bool:
    """三风刻 Big Three Winds: pungs or kongs of three winds."""
    return a in WINDS_SET and b in WINDS_SET and c in WINDS_SET


@group("big_three_dragons", "pungs", 3)
def big_three_dragons(a: Tile, b: Tile, c: Tile) -> bool:
    """大三元 Big Three Dragons: pungs or kongs of all three dragons."""
    return {a, b, c} == DRAGON_SET


@group("double_pung", "pungs", 2)
def double_pung(a: Tile, b: Tile) -> bool:
    """双同刻 Double Pung: same-number pungs in two suits (无双: two pungs of one kind are not)."""
    return a < 27 and b < 27 and a != b and a % 9 == b % 9


@group("two_dragons_pungs", "pungs", 2)
def two_dragons_pungs(a: Tile, b: Tile) -> bool:
    """双箭刻 Two Dragons Pungs: pungs or kongs of two dragons."""
    return a in DRAGON_SET and b in DRAGON_SET


__all__ = ["REGISTRY", "FanSpec", "Hit", "Part", "fallback", "fan", "group"]
