"""The deal (发牌): shuffle, choose the dealer, and hand the state to the family to start the hand.

A hand is ``(rules, seed, dealer, prevalent wind)`` plus the actions applied in order; everything random
comes from one ``random.Random(seed)`` consumed in the order events happen (RULES.md §0.3).
:func:`deal_tiles` is the deal of RULES §0.3 (in-play set, reserve, revealed bonus tiles, flowers, the start
exchange), which a family calls from its ``start`` hook.
"""

from __future__ import annotations

import random

from erma.errors import IllegalActionError
from erma.game import flow
from erma.game.family import family_for
from erma.game.result import DrawSource
from erma.game.state import GameState, Phase, Seat
from erma.rules import RuleSet
from erma.tiles import Tile, next_kind, tile_to_mpsz, to_mpsz

COUNTERS = ("cuo", "triplet_offer", "triplet_accept", "exchange", "haidi", "flower")
"""How often each random event happened in a hand (``GameState.counters``)."""


def roll_dealer(rules: RuleSet, rng: random.Random) -> tuple[int, tuple[int, ...]]:
    """The first dealer and the dice that chose it: by the rule set's dice (RULES §1.4, §2.2; each roll in
    order, ``highest_roll`` rolls again on a tie) or a coin (``first_dealer=random``: no dice)."""
    if rules.first_dealer == "random":
        return rng.randrange(2), ()
    if rules.dealer_dice == "sum_parity":
        d = (rng.randint(1, 6), rng.randint(1, 6))
        return (0 if sum(d) % 2 else 1), d
    rolls: list[int] = []
    while True:
        a = (rng.randint(1, 6), rng.randint(1, 6))
        b = (rng.randint(1, 6), rng.randint(1, 6))
        rolls += [*a, *b]
        if sum(a) != sum(b):
            return (0 if sum(a) > sum(b) else 1), tuple(rolls)


def new_hand(
    rules: RuleSet,
    seed: str,
    dealer: int | None = None,
    prevalent_wind: int | None = None,
    deck: list[Tile] | None = None,
    *,
    streak: int = 0,
) -> GameState:
    """Shuffle and deal one hand. ``dealer=None`` chooses the dealer with the hand's generator first.

    ``deck`` (tests and puzzles) replaces the shuffle with a given order of the rule set's full tile list;
    the generator still drives every later random event. ``streak`` is the dealer's streak (a family may
    set the base by it); a family with pre-deal choices (买底 / 顶底) deals after them.
    """
    family = family_for(rules)
    rng = random.Random(seed)
    dealer_drawn = dealer is None
    dice: tuple[int, ...] = ()
    if dealer is None:
        dealer, dice = roll_dealer(rules, rng)
    tiles = rules.tile_list()
    if deck is not None:
        if sorted(deck) != tiles:
            raise IllegalActionError(
                f"deck: not a permutation of the {rules.name} tile set "
                f"({len(deck)} tiles, {len(tiles)} expected)"
            )
        tiles = list(deck)
    else:
        rng.shuffle(tiles)
    state = GameState(
        rules=rules,
        family=family,
        seed=seed,
        deck=list(deck) if deck is not None else None,
        dealer_drawn=dealer_drawn,
        dealer_dice=dice,
        rng=rng,
        dealer=dealer,
        prevalent_wind=rules.prevalent_wind if prevalent_wind is None else prevalent_wind,
        seats=[Seat(), Seat()],
        wall=tiles,
        wall_public=[False] * len(tiles),
        head=0,
        tail=len(tiles),
        reserve=[],
        bonus_kinds=[],
        revealed=[],
        streak=streak,
    )
    state.counters = dict.fromkeys(COUNTERS, 0)
    family.start(state)
    return state


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
    state.emit(
        "deal",
        None,
        {
            "dealer": dealer,
            "prevalent_wind": state.prevalent_wind,
            "seat_winds": [state.seat_wind(0), state.seat_wind(1)],
            "wall": state.wall_left,
            "reserve": len(reserve),
            "revealed": [tile_to_mpsz(t) for t in revealed],
            "bonus_kinds": [tile_to_mpsz(t) for t in bonus],
        },
    )
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
            if not flow.replace_flower(state, s):
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
