"""Detectors of the fans the two-player tables add to the MCR ones (RULES §2.9, §4.8).

``erqs``, ``classic64t3`` and ``mcr_subset`` (万 + honours, 4 or 8 copies) and ``cuopai13`` (three suits)
score these beside the MCR fans of the other :mod:`erma.scoring.detectors` modules; they register into
the same ``REGISTRY``. Values and exclusions are table data; here is only what each fan *is*.

>>> from erma.scoring import score_record
>>> r = score_record({"packs": [], "hand": "1122334455667z", "win_tile": "7z"}, table="erqs")
>>> [(f["name_zh"], f["points"]) for f in r["fans"]], r["total"]
([('大七星', 88)], 88)
"""

from __future__ import annotations

from typing import Final

from erma.scoring.detectors.kinds import WINDS_SET
from erma.scoring.detectors.registry import NONE, TILE_SHAPES, Hit, fallback, fan
from erma.scoring.features import ALL_SHAPES, REGULAR, SEVEN_PAIRS
from erma.scoring.groups import CHOW
from erma.scoring.readings import HandView
from erma.tiles import (
    BAMBOOS,
    DOTS,
    DRAGONS,
    EAST,
    FLOWERS,
    HONORS,
    NORTH,
    PLANTS,
    RED,
    SEASONS,
    WINDS,
    Tile,
)

PAIRS: Final = frozenset({SEVEN_PAIRS})
"""Seven-pairs fans."""
SETS: Final = frozenset({REGULAR})
"""Fans of the standard shape (four sets and a pair)."""

WHEELS: Final = DOTS[1:8]
"""大车轮: 2–8 筒."""
PEACOCK: Final = frozenset((BAMBOOS[0], BAMBOOS[4], BAMBOOS[6], BAMBOOS[8], RED))
"""红孔雀: 1 5 7 9 条 and 中."""


def _whole(v: HandView) -> list[Hit]:
    return [(v.facts.tiles,)]


def _win(v: HandView) -> list[Hit]:
    return [((v.facts.win_tile,),)]


def _pairs_of(v: HandView, kinds: tuple[Tile, ...]) -> list[Hit]:
    st = v.facts.standing
    return [tuple((t, t) for t in kinds)] if all(st[t] >= 2 for t in kinds) else NONE


# ------------------------------------------------------------------------------ seven pairs


@fan("big_seven_stars", PAIRS)
def big_seven_stars(v: HandView) -> list[Hit]:
    """大七星 Big Seven Stars: seven pairs made exactly of the seven honours, one pair each."""
    st = v.facts.standing
    return _whole(v) if all(st[t] == 2 for t in HONORS) else NONE


@fan("three_dragons_seven_pairs", PAIRS)
def three_dragons_seven_pairs(v: HandView) -> list[Hit]:
    """三元七对子 Three Dragons Seven Pairs: seven pairs including 中中 发发 白白."""
    return _pairs_of(v, DRAGONS)


@fan("four_winds_seven_pairs", PAIRS)
def four_winds_seven_pairs(v: HandView) -> list[Hit]:
    """四喜七对子 Four Winds Seven Pairs: seven pairs including all four wind pairs."""
    return _pairs_of(v, WINDS)


@fan("dragon_seven_pairs", PAIRS)
def dragon_seven_pairs(v: HandView) -> list[Hit]:
    """龙七对 Dragon Seven Pairs: seven pairs with one kind supplying two pairs (four of a kind)."""
    st = v.facts.standing
    hits: list[Hit] = [((t,) * st[t],) for t in v.facts.kinds if st[t] >= 4]
    return hits[:1]


@fan("big_wheels", PAIRS)
def big_wheels(v: HandView) -> list[Hit]:
    """大车轮 Big Wheels: seven pairs 22 33 44 55 66 77 88 筒."""
    st = v.facts.standing
    return _whole(v) if v.facts.kinds == WHEELS and all(st[t] == 2 for t in WHEELS) else NONE


# ---------------------------------------------------------------------------------- the sets


@fan("four_honor_pungs", SETS)
def four_honor_pungs(v: HandView) -> list[Hit]:
    """四字刻 Four Honor Pungs: four pungs or kongs of honours (winds or dragons)."""
    honors = [g.tiles for g in v.sets if g.kind != CHOW and g.tile >= 27]
    return [tuple(honors)] if len(honors) == 4 else NONE


@fan("little_three_winds", SETS)
def little_three_winds(v: HandView) -> list[Hit]:
    """小三风 Little Three Winds: pungs or kongs of two winds and a pair of a third."""
    winds = [g for g in v.sets if g.kind != CHOW and g.tile in WINDS_SET]
    kinds = {g.tile for g in winds}
    if len(kinds) == 2 and v.pair in WINDS_SET and v.pair not in kinds:
        return [(*(g.tiles for g in winds), (v.pair, v.pair))]
    return NONE


@fan("twice_pure_double_chow", SETS)
def twice_pure_double_chow(v: HandView) -> list[Hit]:
    """两杯口 Twice Pure Double Chow: two pairs of identical chows, 门清."""
    c = sorted(v.chows)
    if len(c) == 4 and c[0] == c[1] and c[2] == c[3] and v.facts.melded_sets == 0:
        return [tuple((t, t + 1, t + 2) for t in c)]
    return NONE


@fan("pure_outside_hand", SETS)
def pure_outside_hand(v: HandView) -> list[Hit]:
    """纯全带幺 Pure Outside Hand: every set and the pair hold a terminal; no honours."""
    if v.facts.honors or v.pair % 9 not in (0, 8):
        return NONE
    for g in v.sets:
        if g.tile % 9 not in ((0, 6) if g.kind == CHOW else (0, 8)):
            return NONE
    return [(*(g.tiles for g in v.sets), (v.pair, v.pair))]


@fan("northeast_express", SETS)
def northeast_express(v: HandView) -> list[Hit]:
    """东北新干线 Northeast Express: 123 456 789 of one suit, a pung of 东 and a pair of 北 (or reversed)."""
    pungs = {g.tile for g in v.sets if g.kind != CHOW}
    if not ((EAST in pungs and v.pair == NORTH) or (NORTH in pungs and v.pair == EAST)):
        return NONE
    chows = set(v.chows)
    for base in (0, 9, 18):
        if {base, base + 3, base + 6} <= chows:
            return _whole(v)
    return NONE


@fan("terminal_or_honor_pair", SETS)
def terminal_or_honor_pair(v: HandView) -> list[Hit]:
    """幺九头 Terminal or Honor Pair: the pair is a terminal (1, 9) or an honour."""
    p = v.pair
    return [((p, p),)] if p >= 27 or p % 9 in (0, 8) else NONE


@fan("pair_258", SETS)
def pair_258(v: HandView) -> list[Hit]:
    """二五八将 2-5-8 Pair: the pair is a suited 2, 5 or 8."""
    p = v.pair
    return [((p, p),)] if p < 27 and p % 9 in (1, 4, 7) else NONE


# ----------------------------------------------------------------------------- tile make-up


@fan("million_stones", TILE_SHAPES)
def million_stones(v: HandView) -> list[Hit]:
    """百万石 Million Stones: only 万, whose pips sum to 100 or more (every kong tile counts)."""
    f = v.facts
    if f.kinds[-1] >= 9:
        return NONE
    c = f.ctx
    pips = sum(c.concealed) + c.win_tile + len(c.concealed) + 1
    pips += sum(t + 1 for m in c.melds for t in m.tiles)  # a 无双 kong counts all its 5–8 tiles
    return _whole(v) if pips >= 100 else NONE


@fan("red_peacock", TILE_SHAPES)
def red_peacock(v: HandView) -> list[Hit]:
    """红孔雀 Red Peacock: only 1 5 7 9 条 and 中."""
    return _whole(v) if all(t in PEACOCK for t in v.facts.kinds) else NONE


# ------------------------------------------------------------------------------ the situation


@fan("heavenly_hand", ALL_SHAPES)
def heavenly_hand(v: HandView) -> list[Hit]:
    """天胡 Heavenly Hand: the dealer wins before their first discard."""
    c = v.facts.ctx
    return _whole(v) if c.is_initial and c.is_dealer and c.self_drawn else NONE


@fan("earthly_hand", ALL_SHAPES)
def earthly_hand(v: HandView) -> list[Hit]:
    """地胡 Earthly Hand: the non-dealer wins by self-draw on their first draw, nothing claimed or konged."""
    c = v.facts.ctx
    return _whole(v) if c.is_initial and not c.is_dealer and c.self_drawn else NONE


@fan("human_hand", ALL_SHAPES)
def human_hand(v: HandView) -> list[Hit]:
    """人胡 Human Hand: the non-dealer wins on the dealer's first discard."""
    c = v.facts.ctx
    return _win(v) if c.is_initial and not c.is_dealer and not c.self_drawn else NONE


@fan("declared_ready", ALL_SHAPES)
def declared_ready(v: HandView) -> list[Hit]:
    """报听 Declared Ready: the winner had declared ready."""
    return _win(v) if v.facts.ctx.declared_ready else NONE


@fan("declared_ready_concealed", ALL_SHAPES)
def declared_ready_concealed(v: HandView) -> list[Hit]:
    """立直 / 门清报听 Concealed Declared Ready: declared ready while 门清 (a concealed kong keeps it)."""
    f = v.facts
    return _win(v) if f.ctx.declared_ready and f.melded_sets == 0 else NONE


@fan("heavenly_ready", ALL_SHAPES)
def heavenly_ready(v: HandView) -> list[Hit]:
    """天听 Heavenly Ready: ready declared with the first discard, before any claim or kong."""
    return _win(v) if v.facts.ctx.declared_ready_first_turn else NONE


@fan("ready_one_shot", ALL_SHAPES)
def ready_one_shot(v: HandView) -> list[Hit]:
    """报听一发 Ready One Shot: won by the declarer's next own draw, nothing claimed or konged between."""
    c = v.facts.ctx
    return _win(v) if c.declared_ready and c.ready_one_shot else NONE


# ---------------------------------------------------------------------------- flowers, bonus


def _held(v: HandView, group: tuple[Tile, ...]) -> list[Hit]:
    c = v.facts.ctx
    if c.flowers:
        return [tuple((f,) for f in group)] if set(group) <= set(c.flowers) else NONE
    return [tuple((f,) for f in group)] if c.flower_count == len(FLOWERS) else NONE


@fan("four_seasons", ALL_SHAPES)
def four_seasons(v: HandView) -> list[Hit]:
    """春夏秋冬 Four Seasons: all four season flowers."""
    return _held(v, SEASONS)


@fan("four_plants", ALL_SHAPES)
def four_plants(v: HandView) -> list[Hit]:
    """梅兰竹菊 Four Plants: all four plant flowers."""
    return _held(v, PLANTS)


@fan("all_flowers", ALL_SHAPES)
def all_flowers(v: HandView) -> list[Hit]:
    """全花 All Flowers: all eight flowers."""
    return _held(v, FLOWERS)


@fan("no_flowers", ALL_SHAPES)
def no_flowers(v: HandView) -> list[Hit]:
    """无花牌 No Flowers: a win holding no flower, in a rule set that has flowers."""
    c = v.facts.ctx
    return _win(v) if c.flowers_in_play and c.flower_count == 0 else NONE


@fan("bonus_tiles", ALL_SHAPES)
def bonus_tiles(v: HandView) -> list[Hit]:
    """花牌 Bonus Tiles (cuopai789): one per copy of a bonus kind in the complete hand."""
    return [()] * v.facts.ctx.bonus_count


@fallback("plain_win")
def plain_win(v: HandView) -> list[Hit]:
    """推倒胡 Plain Win: a winning hand with no other fan (bonus tiles ignored)."""
    return _whole(v)


__all__ = ["PAIRS", "SETS"]
