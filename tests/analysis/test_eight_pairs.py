"""八对 (温州 eight pairs) against a brute-force reference, with and without jokers."""

from __future__ import annotations

import random

import pytest

from erma.analysis import EIGHT_PAIRS, eight_pairs_shanten, is_win, shanten_by_shape
from erma.analysis.api import pack
from erma.analysis.shapes import eight_pairs, eight_pairs_counts
from erma.errors import InvalidHandError

from . import naive


def _hand(rng: random.Random, size: int, kinds: int) -> list[int]:
    """A random hand drawn from a few kinds, so that pairs and quads are common."""
    chosen = rng.sample(range(34), kinds)
    wall = [t for t in chosen for _ in range(4)]
    return rng.sample(wall, size)


def _counts(hand: list[int]) -> tuple[int, ...]:
    return tuple(hand.count(t) for t in range(34))


@pytest.mark.parametrize("four_as_two", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_eight_pairs_equals_brute_force(seed: int, four_as_two: bool) -> None:
    rng = random.Random(seed * 7 + four_as_two)
    for i in range(25):
        size = (16, 17)[i % 2]
        hand = _hand(rng, size, rng.randint(5, 7 if four_as_two else 10))
        expected = naive.eight_pairs(_counts(hand), four_as_two)
        assert eight_pairs(pack(hand), size, 0, four_as_two) == expected, (hand, four_as_two)
        assert eight_pairs_counts(list(_counts(hand)), size, 0, four_as_two) == expected, (hand, four_as_two)


@pytest.mark.parametrize("seed", range(3))
def test_eight_pairs_with_jokers_equals_brute_force(seed: int) -> None:
    rng = random.Random(100 + seed)
    for i in range(10):
        jokers = 1 + i % 3
        size = (16, 17)[i % 2]
        four = i % 4 == 3
        hand = _hand(rng, size - jokers, rng.randint(4, 6 if four else 8))
        expected = naive.eight_pairs_with_jokers(_counts(hand), jokers, four)
        assert eight_pairs_shanten(hand, jokers=jokers, four_as_two=four) == expected, (hand, jokers)
        assert eight_pairs_counts(list(_counts(hand)), size, jokers, four) == expected, (hand, jokers)


@pytest.mark.parametrize("four_as_two", [False, True])
def test_the_key_and_the_counts_agree_with_eight_copies(four_as_two: bool) -> None:
    """The packed key (read through the groups' memoised facts) and the counts give one answer, also with
    eight copies of a kind and any number of jokers."""
    rng = random.Random(7 + four_as_two)
    for _ in range(300):
        size = rng.choice((15, 16, 17))
        jokers = rng.randint(0, 3)
        chosen = rng.sample(range(34), rng.randint(3, 10))
        hand = rng.sample([t for t in chosen for _ in range(8)], size - jokers)
        counts = list(_counts(hand))
        got = eight_pairs(pack(hand), size, jokers, four_as_two)
        assert got == eight_pairs_counts(counts, size, jokers, four_as_two), (hand, jokers)
        if size != 15 and not jokers and max(counts) <= 4:
            assert got == naive.eight_pairs(tuple(counts), four_as_two), hand


def test_eight_pairs_examples() -> None:
    assert is_win("112233m4455p6677s1z1z3z", shapes=[EIGHT_PAIRS])  # RULES §3.9 W1
    assert is_win("112233m4455p667s1z1z3z", jokers=1, shapes=[EIGHT_PAIRS])  # W2: the joker pairs 7s
    assert not is_win("111122m4455p6677s11z3z", shapes=[EIGHT_PAIRS])  # four 1m: one pair only
    assert eight_pairs_shanten("111122m4455p6677s11z3z", four_as_two=True) == -1
    assert shanten_by_shape("112233m4455p6677s1z3z")[EIGHT_PAIRS] == 0
    assert is_win([], jokers=17, shapes=[EIGHT_PAIRS])
    with pytest.raises(InvalidHandError, match="16 or 17"):
        eight_pairs_shanten("1122m")
    assert eight_pairs(pack([0, 0]), 2) == 99  # not a shape of two tiles
