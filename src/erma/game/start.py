"""The start of a hand (开局): the rule family, the shuffle and the dealer, then the family's deal.

A hand is ``(rules, seed, dealer, prevalent wind)`` plus the actions applied in order; everything random
comes from one ``random.Random(seed)`` consumed in the order events happen (RULES.md §0.3). The family
deals in its ``start`` hook (with :mod:`erma.game.deal`'s helpers).
"""

from __future__ import annotations

import random

from erma.errors import IllegalActionError
from erma.game.draws import shuffle
from erma.game.families import family_for
from erma.game.state import GameState, Seat
from erma.rules import RuleSet
from erma.tiles import Tile

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
        shuffle(rng, tiles)  # rng.shuffle(tiles), natively
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
