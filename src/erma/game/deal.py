"""The deal (发牌): the dealing helpers a family calls from its ``start`` hook.

:func:`emit_deal` is every family's ``deal`` event; :func:`deal_tiles` is the deal of RULES §0.3 (in-play
set, reserve, revealed bonus tiles, flowers, the start exchange). The shuffle and the dealer are
:mod:`erma.game.start`'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from erma.game import flow
from erma.game.flowers import replace_flower
from erma.game.result import DrawSource
from erma.game.state import GameState, Phase
from erma.tiles import Tile, next_kind, tile_to_mpsz, to_mpsz


def emit_deal(
    state: GameState,
    reserve: int,
    revealed: Sequence[Tile],
    bonus_kinds: Sequence[Tile],
    extra: Mapping[str, Any] | None = None,
) -> None:
    """The public ``deal`` event (发牌): the dealer, the winds, the wall and reserve left, the revealed tiles
    and the bonus kinds, then a family's ``extra`` facts."""
    data: dict[str, Any] = {
        "dealer": state.dealer,
        "prevalent_wind": state.prevalent_wind,
        "seat_winds": [state.seat_wind(0), state.seat_wind(1)],
        "wall": state.wall_left,
        "reserve": reserve,
        "revealed": [tile_to_mpsz(t) for t in revealed],
        "bonus_kinds": [tile_to_mpsz(t) for t in bonus_kinds],
    }
    if extra:
        data.update(extra)
    state.emit("deal", None, data)


def deal_tiles(state: GameState) -> None:
    """RULES §0.3 with the §1.2 in-play set and reserve, §1.7 revealed bonus tiles, 补花 and the §1.9.2
    start exchange: 13 + 13 and the dealer's 14th, then the dealer's first decision."""
    rules = state.rules
    tiles = state.wall
    dealer = state.dealer
    if rules.inplay_tiles is not None:
        n_in = rules.inplay_tiles + (0 if rules.inplay_includes_deal else 27)
        inplay, reserve = tiles[:n_in], tiles[n_in:]
    else:
        inplay, reserve = tiles, []
    public = [False] * len(inplay)
    revealed: list[Tile] = []
    k = rules.bonus_reveal_count
    if k:
        if rules.bonus_reveal_from == "inplay_tail":
            revealed = inplay[-k:]
            for i in range(len(inplay) - k, len(inplay)):
                public[i] = True
        else:
            revealed, reserve = reserve[:k], reserve[k:]
    bonus = [t if rules.bonus_kind == "revealed" else next_kind(t) for t in revealed]
    order = [dealer, 1 - dealer]
    pos = 0
    dealt: list[list[Tile]] = [[], []]
    for _ in range(3):
        for s in order:
            dealt[s].extend(inplay[pos : pos + 4])
            pos += 4
    for s in order:
        dealt[s].append(inplay[pos])
        pos += 1
    dealt[dealer].append(inplay[pos])
    pos += 1
    state.wall = inplay[pos:]
    state.wall_public = public[pos:]
    state.head = 0
    state.tail = len(inplay) - pos
    state.reserve = reserve
    state.bonus_kinds = bonus
    state.revealed = revealed
    emit_deal(state, len(reserve), revealed, bonus)
    seats = state.seats
    for s in order:
        for t in dealt[s]:
            if t < 34:
                seats[s].add(t)
            else:
                seats[s].flowers.append(t)
        state.emit("hand", s, {"count": len(dealt[s])}, {"tiles": to_mpsz(dealt[s])}, s)
    # 补花 after the deal: dealer first, then the other, until neither holds a flower
    for s in order:
        for f in list(seats[s].flowers):
            state.emit("flower", s, {"tile": tile_to_mpsz(f)})
            state.counters["flower"] += 1
            if not replace_flower(state, s):
                return
    last = dealt[dealer][-1]
    state.drawn = last if last < 34 and seats[dealer].counts[last] else None
    state.draw_kind = DrawSource.DEAL
    if rules.start_exchange_enabled and reserve:
        state.exchange_order = [dealer, 1 - dealer]
        state.phase = Phase.EXCHANGE
        state.actor = dealer
    else:
        flow.enter_turn(state, dealer, after_draw=False)
