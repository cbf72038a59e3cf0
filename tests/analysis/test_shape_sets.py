"""Shanten, useful tiles and waits over the shapes a rule set can win (``Shapes``, ``allowed``): the hot
functions (``overall``, ``draws_below``, ``discard_values``) against the shape functions one by one, and the
public API with ``shapes=``."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from erma.analysis import Shapes, is_win, shanten, shanten_by_shape, useful_tiles, waits
from erma.analysis import shapes as s
from erma.analysis.tables import INC
from erma.errors import InvalidHandError

ORPHANS = (0, 8, 9, 17, 18, 26, *range(27, 34))
KNIT = (0, 3, 6, 10, 13, 16, 20, 23, 26)
MASKS = (1, 3, 7, 5, 9, 17, 25, 31, 15)
"""Regular alone, + seven pairs (erqs), + thirteen orphans (cuopai13), and other mixes up to all five."""


def _key(tiles: list[int]) -> int:
    return sum(INC[t] for t in tiles)


def _least(key: int, n: int, jokers: int, allowed: int) -> int:
    """The shanten as the shape functions give it one by one, over the allowed shapes."""
    return min(
        s.SHAPE_FUNCS[name](key, n, jokers)
        for name in s.shapes_for(n)
        if name != s.EIGHT_PAIRS and s.SHAPE_FLAGS[name].value & (allowed | 1)
    )


@settings(max_examples=250, deadline=None, derandomize=True)
@given(
    pool=st.sampled_from(["any", "orphans", "knit", "pairs"]),
    size=st.sampled_from([10, 11, 13, 14]),
    jokers=st.integers(0, 1),
    allowed=st.sampled_from(MASKS),
    seed=st.integers(0, 2**32 - 1),
)
def test_overall_draws_and_discards_count_only_the_allowed_shapes(
    pool: str, size: int, jokers: int, allowed: int, seed: int
) -> None:
    rng = random.Random(seed)
    kinds = {
        "any": tuple(range(34)),
        "orphans": ORPHANS,
        "knit": (*KNIT, *range(27, 34)),
        "pairs": tuple(range(0, 34, 3)),
    }[pool]
    tiles = rng.sample([t for t in kinds for _ in range(3)], size - jokers)
    key, n = _key(tiles), size
    assert s.overall(key, n, jokers, allowed) == _least(key, n, jokers, allowed), (sorted(tiles), allowed)
    if n % 3 == 1:
        now = s.overall(key, n, jokers, allowed)
        after = [s.overall(key + INC[t], n + 1, jokers, allowed) for t in range(34)]
        for below in (0, now):
            expected = tuple(t for t in range(34) if after[t] < below)
            assert s.draws_below(key, n, tuple(range(34)), below, jokers, allowed) == expected
    else:
        held = sorted(set(tiles))
        expected_d = tuple((d, s.overall(key - INC[d], n - 1, jokers, allowed)) for d in held)
        assert s.discard_values(key, n, jokers, allowed) == expected_d


def test_the_issue_hand_counts_regular_and_seven_pairs_only() -> None:
    """345679m1234567z: 全不靠's 3 is no shanten where no table wins it; regular 5, seven pairs 6."""
    hand = "345679m1234567z"
    assert shanten(hand) == 3  # every MCR shape (the plain API)
    assert shanten(hand, shapes=Shapes.MCR) == 3
    assert shanten(hand, shapes=Shapes.REGULAR | Shapes.SEVEN_PAIRS) == 5
    assert shanten(hand, shapes=["regular", "seven_pairs"]) == 5
    assert shanten_by_shape(hand, shapes=Shapes.REGULAR | Shapes.SEVEN_PAIRS) == {
        "regular": 5,
        "seven_pairs": 6,
    }


def test_useful_tiles_and_waits_follow_the_shapes() -> None:
    knitted = "147m258p369s1234z"  # 全不靠, ready (13 tiles: 5z, 6z, 7z complete it)
    assert waits(knitted) == [31, 32, 33]
    assert waits(knitted, shapes=Shapes.REGULAR | Shapes.SEVEN_PAIRS | Shapes.THIRTEEN_ORPHANS) == []
    assert is_win("147m258p369s12345z")
    assert not is_win("147m258p369s12345z", shapes=Shapes.REGULAR | Shapes.SEVEN_PAIRS)
    wide = useful_tiles(knitted)
    narrow = useful_tiles(knitted, shapes=Shapes.REGULAR | Shapes.SEVEN_PAIRS)
    assert narrow != wide and shanten(knitted, shapes=Shapes.REGULAR | Shapes.SEVEN_PAIRS) > 0
    # thirteen orphans stays where the table wins it
    orphans = "19m19p19s1234567z"
    assert waits(orphans, shapes=Shapes.REGULAR | Shapes.SEVEN_PAIRS | Shapes.THIRTEEN_ORPHANS) == [
        *ORPHANS[:6],
        *range(27, 34),
    ]
    assert waits(orphans, shapes=Shapes.REGULAR | Shapes.SEVEN_PAIRS) == []


def test_unknown_shape_names_are_refused() -> None:
    with pytest.raises(InvalidHandError, match="unknown shape 'dragon'"):
        shanten("1234m", shapes=["dragon"])
