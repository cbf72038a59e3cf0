"""How the hand was won (和牌方式): concealed or claimed, the unique wait, the draw or the discard, the
last tile, kongs, flowers, and the fallback 无番和."""

from __future__ import annotations

from erma.scoring.detectors.registry import NONE, SET_SHAPES, Detector, Hit, fallback, fan
from erma.scoring.features import (
    F_ALL_MELDED,
    F_CONCEALED,
    F_DISCARD,
    F_FLOWERS,
    F_KONG_INVOLVED,
    F_KONG_OR_ROBBING,
    F_LAST_TILE,
    F_SELF_DRAWN,
    F_WAIT_CLOSED,
    F_WAIT_EDGE,
    F_WAIT_SINGLE,
    F_WAIT_SPOT,
    F_WALL_LAST,
    REGULAR,
)
from erma.scoring.groups import CHOW
from erma.scoring.readings import HandView

# ------------------------------------------------------------------------- concealment and the wait


@fan("concealed_hand", SET_SHAPES, needs=F_CONCEALED | F_DISCARD, exact="hand")
def concealed_hand(v: HandView) -> list[Hit]:
    """门前清 Concealed Hand: no claimed set, won on a discard."""
    return [(v.facts.tiles,)] if v.facts.melded_sets == 0 and not v.facts.self_drawn else NONE


@fan("fully_concealed_hand", SET_SHAPES, needs=F_CONCEALED | F_SELF_DRAWN, exact="hand")
def fully_concealed_hand(v: HandView) -> list[Hit]:
    """不求人 Fully Concealed Hand: no claimed set, self-drawn."""
    return [(v.facts.tiles,)] if v.facts.melded_sets == 0 and v.facts.self_drawn else NONE


@fan("melded_hand", frozenset({REGULAR}), needs=F_ALL_MELDED | F_DISCARD, exact="hand")
def melded_hand(v: HandView) -> list[Hit]:
    """全求人 Melded Hand: four claimed sets, won on a discard (onto the pair)."""
    return [(v.facts.tiles,)] if v.facts.melded_sets == 4 and not v.facts.self_drawn else NONE


def _wait(kind: int) -> Detector:
    def detect(v: HandView) -> list[Hit]:
        if v.wait_kind() != kind:
            return NONE
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
    return [((v.facts.win_tile,),)] if v.facts.self_drawn else NONE


@fan("last_tile", needs=F_LAST_TILE, exact="win")
def last_tile(v: HandView) -> list[Hit]:
    """和绝张 Last Tile: the winning tile is the last copy."""
    return [((v.facts.win_tile,),)] if v.facts.last_tile else NONE


@fan("last_tile_draw", needs=F_WALL_LAST | F_SELF_DRAWN, exact="win")
def last_tile_draw(v: HandView) -> list[Hit]:
    """妙手回春 Last Tile Draw: self-drawn on the last wall tile."""
    return [((v.facts.win_tile,),)] if v.facts.wall_last and v.facts.self_drawn else NONE


@fan("last_tile_claim", needs=F_WALL_LAST | F_DISCARD, exact="win")
def last_tile_claim(v: HandView) -> list[Hit]:
    """海底捞月 Last Tile Claim: won on the last discard."""
    return [((v.facts.win_tile,),)] if v.facts.wall_last and not v.facts.self_drawn else NONE


@fan("out_with_replacement_tile", needs=F_KONG_INVOLVED | F_SELF_DRAWN)
def out_with_replacement_tile(v: HandView) -> list[Hit]:
    """杠上开花 Out with Replacement Tile: self-drawn on a kong's replacement tile (not a robbed kong)."""
    f = v.facts
    return [((v.facts.win_tile,),)] if f.kong_involved and f.self_drawn and not f.robbing else NONE


@fan("robbing_the_kong", needs=F_KONG_OR_ROBBING)
def robbing_the_kong(v: HandView) -> list[Hit]:
    """抢杠和 Robbing The Kong: won on the tile of the opponent's added kong (maybe scored as self-drawn)."""
    f = v.facts
    return [((v.facts.win_tile,),)] if f.robbing or (f.kong_involved and not f.self_drawn) else NONE


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
