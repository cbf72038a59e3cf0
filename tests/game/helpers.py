"""Test helpers for the engine: decks from tile notation, conservation, a seeded random game."""

from __future__ import annotations

import random
from collections import Counter

from erma.game import Phase, apply, legal_actions, new_hand
from erma.game.families import wenzhou_wins as wz
from erma.game.state import GameState
from erma.rules import RuleSet
from erma.tiles import parse


def build_deck(
    rules: RuleSet,
    dealer: str,
    other: str,
    draws: str = "",
    tail: str = "",
    reserve: str = "",
    revealed: str = "",
) -> list[int]:
    """A full deck (the order the shuffle would give) that deals ``dealer`` (14 tiles) and ``other`` (13),
    then draws ``draws`` from the head in order, ``tail`` from the tail in order (first replacement first),
    with ``reserve`` first in the reserve and ``revealed`` as the in-play set's last tiles (bonus tiles).
    Every other tile fills the middle of the wall (then the reserve) in kind order."""
    d, o = parse(dealer), parse(other)
    assert len(d) == 14 and len(o) == 13, (len(d), len(o))
    order = [d[0:4], o[0:4], d[4:8], o[4:8], d[8:12], o[8:12], d[12:13], o[12:13], d[13:14]]
    dealt = [t for block in order for t in block]
    head, tl, res, rev = parse(draws), parse(tail), parse(reserve), parse(revealed)
    pool = Counter(rules.tile_list())
    for t in dealt + head + tl + res + rev:
        pool[t] -= 1
        assert pool[t] >= 0, f"too many copies of {t}"
    rest = [t for t in sorted(pool.elements())]
    n_in = rules.inplay_tiles if rules.inplay_tiles is not None else len(rules.tile_list())
    wall_len = n_in - 27
    middle_len = wall_len - len(head) - len(tl) - len(rev)
    middle, rest = rest[:middle_len], rest[middle_len:]
    wall = head + middle + list(reversed(tl)) + rev
    deck = dealt + wall + res + rest
    assert sorted(deck) == rules.tile_list()
    return deck


def tile_multiset(state: GameState) -> Counter[int]:
    """Every tile the state accounts for: hands, sets, rivers, flowers, undrawn wall, reserve, win tile."""
    c: Counter[int] = Counter()
    for s in state.seats:
        for t, n in enumerate(s.counts):
            c[t] += n
        for m in s.melds:
            if state.wild is not None:  # 温州: the 财神's kind in a set is played by 白板
                c.update(wz.phys_kind(t, state.wild) for t in m.tiles)
            else:
                c.update(m.tiles)
        c.update(s.discards)
        c.update(s.flowers)
    c.update(state.wall[state.head : state.tail])
    c.update(state.reserve)
    if state.flipped is not None and state.rules.caishen_flip_removed:
        c[state.flipped] += 1  # 温州: the flipped tile is out of play
    if state.rules.bonus_reveal_from == "reserve":
        c.update(state.revealed)
    result = state.result
    if result is not None and result.how is not None and result.how.value in ("discard", "rob"):
        assert result.tile is not None
        c.update([result.tile])
    return c


def drawn_out(state: GameState) -> Counter[int]:
    """Tiles that left the wall by draws (they are in hands, sets, rivers or flowers)."""
    return Counter(state.wall[: state.head] + state.wall[state.tail :])


def play_random(
    rules: RuleSet, seed: str, rng: random.Random, check: bool = True, max_steps: int = 2000
) -> GameState:
    """A game of uniformly random legal actions (checked apply); asserts conservation at every step."""
    state = new_hand(rules, seed)
    full = Counter(rules.tile_list())
    steps = 0
    while state.phase is not Phase.END:
        legal = legal_actions(state, state.actor)
        assert legal, (state.phase, state.actor)
        apply(state, state.actor, rng.choice(legal))
        steps += 1
        assert steps < max_steps
        if check:
            assert tile_multiset(state) == full
    return state


def build_wenzhou_deck(
    rules: RuleSet, seed: str, dealer: str, other: str, draws: str = "", tail: str = "", flip: str = "5m"
) -> list[int]:
    """A 温州 deck that deals ``dealer`` (17 tiles) and ``other`` (16), draws ``draws`` from the head and
    ``tail`` from the tail (first replacement first), and flips ``flip`` for the 财神. The flip position
    comes from the dice of ``random.Random(seed)`` (a given deck is not shuffled, so the dice come first);
    pass the same seed to ``new_hand`` and a dealer (no dealer dice)."""
    d, o = parse(dealer), parse(other)
    assert len(d) == 17 and len(o) == 16, (len(d), len(o))
    dealt = [t for r in range(4) for t in d[4 * r : 4 * r + 4] + o[4 * r : 4 * r + 4]] + d[16:]
    head, tl, flipped = parse(draws), parse(tail), parse(flip)
    pool = Counter(rules.tile_list())
    for t in dealt + head + tl + flipped:
        pool[t] -= 1
        assert pool[t] >= 0, f"too many copies of {t}"
    rest = sorted(pool.elements())
    remaining = dealt + head + rest + list(reversed(tl))
    rng = random.Random(seed)
    d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    at = len(rules.tile_list()) - (2 * min(d1, d2) - 1)
    deck = remaining[:at] + flipped + remaining[at:]
    assert sorted(deck) == rules.tile_list()
    return deck
