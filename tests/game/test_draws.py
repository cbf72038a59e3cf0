"""The native draws give what ``random.Random`` gives: the same permutations, choices and generator state."""

from __future__ import annotations

import random

import pytest

from erma.game.draws import below, choice, shuffle


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 64, 71, 128, 136, 144])
def test_shuffle_is_the_library_shuffle(size: int) -> None:
    for seed in range(40):
        mine, theirs = random.Random(f"s:{seed}"), random.Random(f"s:{seed}")
        a, b = list(range(size)), list(range(size))
        shuffle(mine, a)
        theirs.shuffle(b)
        assert a == b
        assert mine.getstate() == theirs.getstate()


def test_choice_and_below_are_the_library_draws() -> None:
    mine, theirs = random.Random(7), random.Random(7)
    for n in range(1, 300):
        seq = list(range(n))
        assert choice(mine, seq) == theirs.choice(seq)
        assert below(mine, n) == theirs.randrange(n)
    assert mine.getstate() == theirs.getstate()
    with pytest.raises(IndexError):
        choice(mine, [])
