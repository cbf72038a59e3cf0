"""The assist mechanics (辅助机制) of RULES §1.9–§1.10, each switched on by rule options in any family:

- the start exchange (开始时换牌, ``start_exchange_enabled``),
- the in-game triplet offer (游戏中换牌, ``triplet_offer_prob``),
- 搓牌, choosing the draw (``cuo_prob``),
- 海底捞月, a blind pick from the reserve when the wall runs out (``haidi_mode``).

Each draws its chances from the hand's generator in the order events happen. An assist never drives the
hand on: it says what comes next (:class:`Next`, or the tile a 搓牌 draws) and :mod:`erma.game.flow` does it.
"""

from __future__ import annotations

import enum

from erma.game import settle
from erma.game.flowers import replace_flower, show_flower
from erma.game.legal import cuo_kinds, find_win, pool, pool_reaches, waits_of
from erma.game.result import DrawSource
from erma.game.state import GameState, Phase
from erma.tiles import Tile, tile_to_mpsz, to_mpsz


class Next(enum.Enum):
    """What the flow does after an assist step (续行)."""

    WAIT = "wait"
    """Nothing: a seat is to decide, or the hand is over."""
    DEALER_TURN = "dealer_turn"
    """The start exchange is over: the dealer's first turn begins (no triplet offer)."""
    TURN = "turn"
    """The seat's turn goes on (a declared-ready hand plays itself)."""
    DRAW = "draw"
    """The seat draws from the head of the wall."""


# ------------------------------------------------------------------------------ start exchange


def exchange(state: GameState, seat: int) -> Next:
    """开始时换牌: give back the selected tiles for as many from random reserve positions."""
    me = state.seats[seat]
    chosen = sorted(me.selected)
    me.selected = []
    positions = state.rng.sample(range(len(state.reserve)), len(chosen)) if chosen else []
    got = [state.reserve[p] for p in positions]
    for p, t in zip(positions, chosen, strict=True):
        state.reserve[p] = t
    for t in chosen:
        me.remove(t)
    flowers = [t for t in got if t >= 34]
    for t in got:
        if t < 34:
            me.add(t)
    me.exchanged = True
    if chosen:
        state.counters["exchange"] += 1
    state.emit("exchange", seat, {"count": len(chosen)}, {"gave": to_mpsz(chosen), "got": to_mpsz(got)}, seat)
    for f in flowers:  # a flower from the reserve is shown and replaced from the tail (补花)
        show_flower(state, seat, f)
        if not replace_flower(state, seat):
            return Next.WAIT
    if seat == state.dealer and state.drawn is not None and not me.counts[state.drawn]:
        state.drawn = None
    state.exchange_order.pop(0)
    if state.exchange_order:
        state.actor = state.exchange_order[0]
        return Next.WAIT
    return Next.DEALER_TURN


# ------------------------------------------------------------------------------ triplet offer


def offer_triplet(state: GameState, seat: int) -> bool:
    """After a draw, maybe offer ``seat`` a triplet of a kind from the pool (True: the offer is made)."""
    rules = state.rules
    me = state.seats[seat]
    if rules.triplet_offer_prob <= 0 or me.riichi or me.triplet_offers >= rules.triplet_offer_max_per_hand:
        return False
    if not pool_reaches(state, 3) or state.rng.random() >= rules.triplet_offer_prob:
        return False
    counts = pool(state)
    eligible = [t for t in rules.kinds if counts[t] >= 3]
    me.triplet_offers += 1
    if rules.triplet_offer_bias == "helpful":
        kind = state.rng.choices(eligible, weights=[1 + me.counts[t] for t in eligible])[0]
    else:
        kind = state.rng.choice(eligible)
    state.offer = kind
    state.phase = Phase.TRIPLET
    state.counters["triplet_offer"] += 1
    state.emit("triplet_offer", seat, {}, {"kind": tile_to_mpsz(kind)}, seat, private=True)
    return True


def accept_triplet(state: GameState, seat: int, given: tuple[Tile, ...]) -> Next:
    """Take the offered triplet, giving three tiles back to where its copies were."""
    me = state.seats[seat]
    kind = state.offer
    assert kind is not None
    places: list[tuple[str, int]] = [("r", i) for i, t in enumerate(state.reserve) if t == kind]
    if state.rules.assist_pool == "reserve+wall":
        places += [
            ("w", i)
            for i in range(state.tail - 1, state.head - 1, -1)
            if state.wall[i] == kind and not state.wall_public[i]
        ]
    for (where, i), t in zip(places[:3], given, strict=True):
        if where == "r":
            state.reserve[i] = t
        else:
            state.wall[i] = t
    for t in given:
        me.remove(t)
    for _ in range(3):
        me.add(kind)
    if state.drawn is not None and not me.counts[state.drawn]:
        state.drawn = None
    state.offer = None
    state.counters["triplet_accept"] += 1
    state.emit(
        "triplet_accept", seat, {}, {"kind": tile_to_mpsz(kind), "gave": to_mpsz(given)}, seat, private=True
    )
    state.phase = Phase.TURN
    return Next.TURN


def decline_triplet(state: GameState, seat: int) -> Next:
    """Decline the offer; the turn goes on."""
    state.emit("triplet_decline", seat, {}, private=True, secret_to=seat)
    state.offer = None
    state.phase = Phase.TURN
    return Next.TURN


# --------------------------------------------------------------------------------------- 搓牌


def offer_cuo(state: GameState, seat: int) -> bool:
    """At the start of a turn, maybe offer ``seat`` to choose its draw (True: the offer is made)."""
    rules = state.rules
    me = state.seats[seat]
    if (
        rules.cuo_prob <= 0
        or (me.riichi and not rules.cuo_allowed_after_riichi)
        or me.cuo_offers >= rules.cuo_max_per_hand
        or all(state.wall_public[state.head : state.tail])
    ):
        return False
    if not pool_reaches(state, 1) or state.rng.random() >= rules.cuo_prob:
        return False
    me.cuo_offers += 1
    state.phase = Phase.CUO
    state.actor = seat
    kinds = [tile_to_mpsz(t) for t in cuo_kinds(state, seat)]
    state.emit("cuo_offer", seat, {}, {"kinds": kinds}, seat, private=True)
    return True


def take_cuo(state: GameState, seat: int, kind: Tile) -> tuple[Tile, bool]:
    """Take the chosen kind from the pool: the reserve's first copy (the wall's head tile takes its place),
    else the hidden wall's copy nearest the head; with no copy in the pool, the head tile. The opponent sees
    a 搓牌 draw either way. Returns the tile drawn and whether it is public (the flow draws it)."""
    state.counters["cuo"] += 1
    tile, public = kind, False
    if kind in state.reserve:
        i = state.reserve.index(kind)
        state.reserve[i] = state.wall[state.head]
        state.head += 1
    else:
        j = next(
            (i for i in range(state.head, state.tail) if state.wall[i] == kind and not state.wall_public[i]),
            None,
        )
        if j is None:
            tile, public = state.wall[state.head], state.wall_public[state.head]
            state.head += 1
        else:
            del state.wall[j]
            del state.wall_public[j]
            state.tail -= 1
    state.emit("cuo", seat, {}, {"kind": tile_to_mpsz(kind)}, seat)
    return tile, public


def decline_cuo(state: GameState, seat: int) -> Next:
    """Draw normally instead."""
    state.emit("cuo_decline", seat, {}, private=True, secret_to=seat)
    return Next.DRAW


# ----------------------------------------------------------------------------------- 海底捞月


def exhaust(state: GameState) -> None:
    """The wall is out: the 海底捞月 phase for ready seats (``haidi_mode=pick_reserve``), else a 流局."""
    rules = state.rules
    if rules.haidi_mode == "pick_reserve" and state.reserve:
        if rules.haidi_ready_means == "declared":
            eligible = list(state.riichi_order)
        else:
            ready = [s for s in (state.dealer, 1 - state.dealer) if waits_of(state, s)]
            eligible = [s for s in state.riichi_order if s in ready]
            eligible += [s for s in ready if s not in eligible]
        if eligible:
            state.haidi_queue = eligible if rules.haidi_second_player_if_first_fails else eligible[:1]
            state.haidi_picks_left = rules.haidi_picks
            state.phase = Phase.HAIDI
            state.actor = state.haidi_queue[0]
            state.counters["haidi"] += 1
            state.emit("haidi", state.actor, {"reserve": len(state.reserve)})
            return
    settle.draw_end(state)


def haidi_pick(state: GameState, seat: int, index: int) -> None:
    """Pick reserve position ``index``: a win if it completes the hand, else the next pick or the 流局."""
    t = state.reserve[index]
    me = state.seats[seat]
    found = None
    if t < 34:  # (a flower picked completes nothing)
        me.add(t)
        state.drawn = t
        state.draw_kind = DrawSource.HAIDI
        found = find_win(state, seat, t, "haidi")
    state.emit("haidi_pick", seat, {"index": index, "tile": tile_to_mpsz(t), "wins": found is not None})
    if found is not None:
        state.reserve.pop(index)
        settle.finish_win(state, seat, t, "haidi", found)
        return
    if t < 34:
        me.remove(t)
    state.drawn = None
    state.haidi_picks_left -= 1
    if state.haidi_picks_left > 0 and len(state.reserve) > 1:
        state.reserve.pop(index)
        return
    state.haidi_queue.pop(0)
    if state.haidi_queue:
        state.haidi_picks_left = state.rules.haidi_picks
        state.actor = state.haidi_queue[0]
        return
    settle.draw_end(state)
