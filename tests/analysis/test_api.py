"""The public analysis API: shapes, waits, useful tiles, decompositions and bad input."""

from __future__ import annotations

import random

import pytest

from erma.analysis import (
    SHAPES,
    decompositions,
    is_win,
    regular_shanten,
    shanten,
    shanten_by_shape,
    useful_tiles,
    waits,
)
from erma.errors import InvalidHandError, InvalidNotationError
from erma.tiles import parse

from . import naive


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("123m456p789s11122z", True),
        ("11223344556677z", True),  # seven pairs of honours
        ("11112233445566m", True),  # four of a kind gives two pairs
        ("19m19p19s12345677z", True),  # thirteen orphans
        ("147m258p369s12345z", True),  # 全不靠
        ("147m258p369s11122z", True),  # 组合龙 + pung + pair
        ("147m258p369s1237z", False),  # 13 tiles are never complete
        ("123m456p789s1234z", False),
        ("11z", True),
    ],
)
def test_is_win(hand: str, expected: bool) -> None:
    assert is_win(hand) is expected


def test_is_win_with_shapes() -> None:
    assert not is_win("11223344556677z", shapes=["regular"])
    assert is_win("11223344556677z", shapes=["seven_pairs"])
    with pytest.raises(InvalidHandError, match="unknown shape 'pairs'"):
        is_win("11z", shapes=["pairs"])


def test_shanten_by_shape_keys() -> None:
    assert list(shanten_by_shape("123m456p789s1155z")) == list(SHAPES)
    assert list(shanten_by_shape("123m456p789s1z")) == ["regular", "knitted_straight"]
    assert list(shanten_by_shape("123m456p7s")) == ["regular"]
    assert list(shanten_by_shape("1234m")) == ["regular"]
    assert list(shanten_by_shape("123456789m1234567p")) == ["regular", "eight_pairs"]  # 16 tiles (温州)
    assert shanten("123456789m1234567p") == 0  # five sets, waiting on 7p for the pair
    assert regular_shanten("19m19p19s1234567z") == 8


def test_regular_matches_naive_on_every_size() -> None:
    rng = random.Random(5)
    full = [t for t in range(34) for _ in range(4)]
    for n in (1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 16, 17):
        for _ in range(40):
            hand = rng.sample(full, n)
            c = tuple(hand.count(t) for t in range(34))
            assert shanten_by_shape(hand)["regular"] == naive.regular(c), hand
            if n in (13, 14):
                for name, value in shanten_by_shape(hand).items():
                    assert value == max(naive.SHAPES[name](c), -1), (hand, name)


def test_waits_and_useful() -> None:
    assert waits("1112345678999m") == list(range(9))
    assert waits("1112345678999m", exposed=[]) == list(range(9))
    assert waits("2223m") == [0, 2, 3]  # 1m (22+123), 3m (222+33), 4m (22+234)
    assert waits("1m") == [0]
    assert waits("1m", exposed="111m") == []  # the player holds every 1m
    assert useful_tiles("123m456p789s1155z") == [27, 31]
    assert useful_tiles("19m19p19s1234567z") == sorted(parse("19m19p19s1234567z"))
    with pytest.raises(InvalidHandError, match="3k\\+1"):
        useful_tiles("11z")
    with pytest.raises(InvalidHandError, match="3k\\+1"):
        waits("123m11z")


def _random_complete(rng: random.Random) -> list[int]:
    hand: list[int] = []
    for _ in range(4):
        if rng.random() < 0.5:
            start = rng.choice([t for t in range(27) if t % 9 <= 6])
            hand += [start, start + 1, start + 2]
        else:
            hand += [rng.randrange(34)] * 3
    hand += [rng.randrange(34)] * 2
    return hand


def _naive_readings(
    counts: list[int], pair_done: bool = False
) -> set[tuple[tuple[int, ...], tuple[int, ...], int]]:
    i = next((k for k, n in enumerate(counts) if n), -1)
    if i < 0:
        return {((), (), -1)} if pair_done else set()
    out = set()
    if counts[i] >= 3:
        counts[i] -= 3
        out |= {(ch, tuple(sorted((i, *pu))), pa) for ch, pu, pa in _naive_readings(counts, pair_done)}
        counts[i] += 3
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for k in (i, i + 1, i + 2):
            counts[k] -= 1
        out |= {(tuple(sorted((i, *ch))), pu, pa) for ch, pu, pa in _naive_readings(counts, pair_done)}
        for k in (i, i + 1, i + 2):
            counts[k] += 1
    if counts[i] >= 2 and not pair_done:
        counts[i] -= 2
        out |= {(ch, pu, i) for ch, pu, _ in _naive_readings(counts, True)}
        counts[i] += 2
    return out


def test_decompositions_match_naive() -> None:
    rng = random.Random(9)
    for _ in range(300):
        hand = _random_complete(rng)
        if max(hand.count(t) for t in hand) > 4:
            continue
        mine = {(d.chows, d.pungs, d.pair) for d in decompositions(hand)}
        assert mine == _naive_readings([hand.count(t) for t in range(34)]), hand
        assert len(mine) == len(decompositions(hand))  # no duplicates


def test_decompositions_examples() -> None:
    assert decompositions("123m456p789s1234z") == []
    assert decompositions("1234m") == []  # 3k+1
    readings = [d.to_notation() for d in decompositions("111222333m11z")]
    assert sorted(readings) == ["111m222m333m11z", "123m123m123m11z"]
    assert len(decompositions("11122233344455m")) == 4


@pytest.mark.parametrize(
    ("tiles", "error", "fragment"),
    [
        ("123m45", InvalidNotationError, "no suit letter"),
        ("11111m23456789m", InvalidHandError, "more than 4 copies of 1m"),
        ("123m", InvalidHandError, "3 tiles"),
        ("1m1f", InvalidHandError, "flower 1f"),
        ("123456789m123456789p", InvalidHandError, "18 tiles"),
        ([0, 1, 99], InvalidNotationError, "99"),
        ([0, 1, "x", 3], InvalidNotationError, "'x'"),
    ],
)
def test_bad_input_names_what_is_wrong(tiles: object, error: type[Exception], fragment: str) -> None:
    with pytest.raises(error) as info:
        shanten(tiles)  # type: ignore[arg-type]
    assert fragment in str(info.value)


def test_copies_option_checked() -> None:
    with pytest.raises(InvalidHandError, match="copies must be 4 or 8"):
        shanten("1m", copies=5)
