"""Wild tiles (财神) and the 8-copy set (无双) against brute-force references."""

from __future__ import annotations

import random

import pytest

from erma.analysis import decompositions, is_win, shanten, shanten_by_shape, useful_tiles, waits
from erma.analysis.api import pack
from erma.analysis.shapes import floor_of
from erma.errors import InvalidHandError

from . import naive


def _counts(hand: list[int]) -> tuple[int, ...]:
    return tuple(hand.count(t) for t in range(34))


@pytest.mark.parametrize("seed", range(4))
def test_jokers_equal_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    full = [t for t in range(34) for _ in range(4)]
    for i in range(30):
        jokers = 1 if i % 3 else 2
        total = (13, 14, 10, 11, 7, 8, 4, 5, 2)[i % 9]
        hand = rng.sample(full, total - jokers)
        mine = shanten_by_shape(hand, jokers=jokers)
        for name, value in mine.items():
            assert value == naive.with_jokers(name, _counts(hand), jokers), (hand, jokers, name)


def test_three_and_four_jokers() -> None:
    rng = random.Random(11)
    full = [t for t in range(34) for _ in range(4)]
    for _ in range(2):
        hand = rng.sample(full, 8)
        assert shanten_by_shape(hand, jokers=3)["regular"] == naive.with_jokers("regular", _counts(hand), 3)
    assert shanten("1m", jokers=4) == -1  # a 1m pung with two jokers and a joker pair
    assert is_win([], jokers=2) and shanten([], jokers=2) == -1
    assert shanten([], jokers=4) == 0


def test_joker_hand_examples() -> None:
    assert is_win("123m456p789s11z", jokers=0)
    assert is_win("123m456p789s1z", jokers=1)  # the joker pairs the east
    assert is_win("123m456p79s11z", jokers=1)  # the joker is 8s
    assert not is_win("1234m5p79s11z", jokers=1)
    assert waits("123m456p79s1z", jokers=1) == [25, 27]  # joker as 8s waits on 1z; joker as 1z waits on 8s
    # 1m and three jokers: any tile wins (it pairs with a joker beside a 1m-joker-joker set)
    assert useful_tiles("1m", jokers=3) == list(range(34))
    assert waits("1m", jokers=3) == list(range(34))
    # 17-tile hands (温州): five sets and a pair, with jokers
    assert is_win("123456789m123p44s", jokers=3)
    assert shanten("123456789m123p4s", jokers=3) == 0


@pytest.mark.parametrize("seed", range(2))
def test_useful_with_jokers_by_definition(seed: int) -> None:
    rng = random.Random(50 + seed)
    full = [t for t in range(34) for _ in range(4)]
    for i in range(12):
        jokers = 1 + i % 2
        hand = rng.sample(full, 13 - jokers)
        cur = shanten(hand, jokers=jokers)
        expected = [t for t in range(34) if hand.count(t) < 4 or cur <= 0]
        expected = [t for t in expected if shanten([*hand, t], jokers=jokers) < cur]
        assert useful_tiles(hand, jokers=jokers) == expected, hand
        # and shanten with the tile added agrees with brute force
        if jokers == 1 and expected:
            c = list(_counts(hand))
            c[expected[0]] += 1
            best = min(naive.with_jokers(name, tuple(c), jokers) for name in naive.SHAPES)
            assert shanten([*hand, expected[0]], jokers=jokers) == best


def test_jokers_are_validated() -> None:
    with pytest.raises(InvalidHandError, match="jokers"):
        shanten("123m", jokers=-1)
    assert shanten("123m456p789s111z", jokers=2) == -1  # 12 + 2 = 14 tiles
    with pytest.raises(InvalidHandError, match="15 tiles"):
        shanten("123m456p789s111z", jokers=3)


@pytest.mark.parametrize("seed", range(3))
def test_eight_copies_against_naive(seed: int) -> None:
    rng = random.Random(100 + seed)
    wall = [t for t in [*range(9), *range(27, 34)] for _ in range(8)]
    seen_high = 0
    for i in range(80):
        total = (13, 14)[i % 2]
        hand = rng.sample(wall, total)
        if i % 4 == 0:  # force many copies of one kind
            kind = rng.choice([*range(9), *range(27, 34)])
            hand = [kind] * rng.randint(5, 8) + [t for t in hand if t != kind]
            hand = hand[:total]
        c = _counts(hand)
        seen_high += max(c) > 4
        assert shanten(hand, copies=8) == naive.regular(c) or shanten(hand, copies=8) < naive.regular(c)
        assert shanten_by_shape(hand, copies=8)["regular"] == naive.regular(c), hand
        if total == 14:
            assert is_win(hand, copies=8, shapes=["regular"]) == naive.is_regular_win(c), hand
    assert seen_high > 10


def test_six_of_a_kind_is_two_pungs() -> None:
    hand = "111111m222m333m99m"
    assert is_win(hand, copies=8)
    readings = {d.to_notation() for d in decompositions(hand, copies=8)}
    assert "111m111m222m333m99m" in readings
    assert "123m123m123m111m99m" in readings
    with pytest.raises(InvalidHandError, match="more than 4 copies of 1m"):
        shanten(hand)


def test_fourteen_is_best_discard() -> None:
    rng = random.Random(3)
    full = [t for t in range(34) for _ in range(4)]
    for _ in range(150):
        hand = rng.sample(full, 14)
        best = min(shanten(hand[:i] + hand[i + 1 :]) for i in range(14))
        assert shanten(hand) == max(best - 0, -1) if best > 0 else shanten(hand) in (-1, 0)
        assert floor_of(14) == -1
        assert pack(hand) == pack(sorted(hand))
