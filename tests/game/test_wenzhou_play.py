"""温州's play space: the quick test before the completeness test (wenzhou_play.may_complete)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from erma.game.families import wenzhou_play as wp
from erma.game.families import wenzhou_wins as wz
from erma.rules import RuleSet, find_ruleset


def rules(**over: Any) -> RuleSet:
    return find_ruleset("wenzhou2p", over)


def _complete_as_played(rng: Any, sets: int, eight: bool) -> list[int]:
    """Counts (as played, 白板's kind left empty) of ``sets`` random sets and a pair, or eight pairs and one
    tile."""
    c = [0] * 34
    kinds = [t for t in range(34) if t != wp.WHITE]
    if eight:
        for t in rng.sample(kinds, 9)[:8]:
            c[t] += 2
        c[rng.choice(kinds)] += 1
        return c
    for _ in range(sets):
        if rng.random() < 0.5:
            c[rng.choice(kinds)] += 3
        else:
            s = rng.randrange(27)
            s -= max(0, s % 9 - 6)
            for x in (s, s + 1, s + 2):
                c[x] += 1
    c[rng.choice(kinds)] += 2
    return c


@pytest.mark.parametrize("seed", range(3))
def test_may_complete_holds_for_every_complete_hand(seed: int) -> None:
    """The quick filter before is_complete: true for every complete hand (sets and a pair, 八对, 三财神; tiles
    made 财神, the 财神's kind held as 白板, a tile added), so check_win refuses nothing it would have won."""
    rng = random.Random(seed)
    refused = 0
    for four_as_two in (False, True):
        r = rules(four_of_kind_counts_as_two_pairs=four_as_two)
        for i in range(600):
            melds = i % 6 if i % 3 else 0
            played = _complete_as_played(rng, 5 - melds, eight=melds == 0 and i % 2 == 0)
            if i % 7 == 0:  # random tiles: mostly not complete
                played = [0] * 34
                for t in rng.sample([t for t in range(34) if t != wp.WHITE] * 4, 17 - 3 * melds):
                    played[t] += 1
            caishen = rng.randrange(34)
            jokers = min(i % 4, sum(played))
            tiles = [t for t in range(34) for _ in range(played[t])]
            for t in rng.sample(tiles, jokers):
                played[t] -= 1
            physical = list(played)
            physical[caishen] = jokers
            if caishen != wp.WHITE:
                physical[wp.WHITE] = played[caishen]
            if max(physical) > 4:
                continue
            key, j = wp.play_key(physical, caishen)
            complete = wz.is_complete(key, sum(physical), j, melds == 0, r)
            added = rng.choice([t for t in range(34) if physical[t]]) if i % 2 else -1
            if added >= 0:
                physical[added] -= 1
            quick = wp.may_complete(
                physical, sum(physical) + (added >= 0), caishen, added, melds == 0, four_as_two
            )
            assert quick or not complete, (played, caishen, jokers, melds)
            refused += not quick
    assert refused > 50  # it does refuse hands
