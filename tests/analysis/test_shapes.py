"""``shapes.draws_below`` (the draws that win or bring a hand closer, all at once) and
``shapes.discard_values`` (the shanten after each discard) against ``shapes.overall``, one tile at a time."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from erma.analysis import shapes
from erma.analysis.tables import INC

ALL_KINDS = tuple(range(34))
ORPHANS = (0, 8, 9, 17, 18, 26, *range(27, 34))
KNIT = (0, 3, 6, 10, 13, 16, 20, 23, 26)
"""147万 258筒 369条: a knitted straight's tiles."""


def _key(tiles: list[int]) -> int:
    return sum(INC[t] for t in tiles)


def _check(tiles: list[int], jokers: int, kinds: tuple[int, ...] = ALL_KINDS) -> None:
    key, n = _key(tiles), len(tiles) + jokers
    after = [shapes.overall(key + INC[t], n + 1, jokers) for t in kinds]
    for below in range(-1, 9):
        expected = tuple(t for t, v in zip(kinds, after, strict=True) if v < below)
        assert shapes.draws_below(key, n, kinds, below, jokers) == expected, (sorted(tiles), jokers, below)
    if tiles:  # the same hand with one more tile of each kind drawn, then each held kind discarded
        for t in {*tiles[:3], kinds[0]}:
            full = key + INC[t]
            held = sorted({*tiles, t})
            expected_d = tuple((d, shapes.overall(full - INC[d], n, jokers)) for d in held)
            assert shapes.discard_values(full, n + 1, jokers) == expected_d, (sorted(tiles), t, jokers)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    pool=st.sampled_from(["any", "orphans", "knit", "one suit"]),
    size=st.sampled_from([1, 4, 7, 9, 10, 12, 13, 15, 16]),
    jokers=st.integers(0, 2),
    copies=st.sampled_from([4, 8]),
    seed=st.integers(0, 2**32 - 1),
)
def test_every_draw_as_overall_reads_it(pool: str, size: int, jokers: int, copies: int, seed: int) -> None:
    """Every size a hand is weighed at (3k+1 before the draw, and the others), with jokers, with 8 copies,
    and hands drawn towards the special shapes (thirteen orphans, the knitted shapes) whose branch
    ``draws_below`` searches only as far as it asks."""
    rng = random.Random(seed)
    kinds = {
        "any": ALL_KINDS,
        "orphans": ORPHANS,
        "knit": (*KNIT, *range(27, 34)),
        "one suit": (*range(9), *range(27, 34)),
    }[pool]
    full = [t for t in kinds for _ in range(copies - 1)]  # room for the drawn copy
    tiles = rng.sample(full, max(0, size - jokers))
    _check(tiles, jokers)


def test_examples_of_each_shape() -> None:
    """Ready hands of each shape: the kinds that complete them, as one overall call per kind finds them."""
    hands = [
        [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8],  # 九莲宝灯: every 万 wins
        [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33],  # 十三幺, thirteen-sided
        [0, 0, 4, 4, 9, 9, 13, 13, 27, 27, 30, 30, 33],  # 七对, one odd tile
        [0, 3, 6, 10, 13, 16, 20, 23, 27, 28, 29, 30, 31],  # 全不靠, one missing
        [0, 3, 6, 10, 13, 16, 27, 28, 29, 30, 31, 32, 33],  # 全不靠 of every honour: any 369条 wins
        [0, 3, 6, 10, 13, 16, 20, 23, 26, 1, 2, 5, 5],  # 组合龙 and a set, a pair to make
    ]
    for tiles in hands:
        _check(tiles, 0)
    assert shapes.draws_below(_key(hands[0]), 13, ALL_KINDS, 0) == tuple(range(9))
    assert len(shapes.draws_below(_key(hands[1]), 13, ALL_KINDS, 0)) == 13
    assert shapes.draws_below(_key(hands[4]), 13, ALL_KINDS, 0) == (20, 23, 26)
    # fourteen tiles where a discard leaves thirteen orphans, or 全不靠, just below the regular shape (the
    # bounds' edges)
    for tiles in (
        [1, 3, 8, 8, 11, 12, 16, 18, 26, 29, 30, 31, 32, 33],
        [0, 0, 8, 9, 10, 15, 17, 18, 22, 27, 27, 29, 30, 31],
        [1, 3, 6, 7, 8, 10, 15, 27, 28, 30, 30, 31, 32, 33],
    ):
        key = _key(tiles)
        expected = tuple((d, shapes.overall(key - INC[d], 13)) for d in sorted(set(tiles)))
        assert shapes.discard_values(key, 14) == expected
