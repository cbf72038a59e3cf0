"""Random draws (随机抽取) as ``random.Random`` makes them, in compiled code.

:func:`shuffle` and :func:`choice` take the same bits from the generator in the same order as
``Random.shuffle`` and ``Random.choice`` (CPython's ``_randbelow``: ``getrandbits`` of the bound's bit length,
again while the draw is not below the bound), so every result is the one the library gives; compiled, the
loop runs natively instead of through the library's Python frames (a shuffle of 128 tiles is 127 draws).
``tests/game/test_draws.py`` checks both against the library.
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def _bits(n: int) -> int:
    """``n.bit_length()`` of a positive int, as a native loop."""
    k = 0
    while n:
        n >>= 1
        k += 1
    return k


def below(rng: random.Random, n: int) -> int:
    """A uniform int in [0, n) as ``rng._randbelow(n)`` draws it (n > 0)."""
    k = _bits(n)
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: random.Random, x: list[T]) -> None:
    """``rng.shuffle(x)``: the same permutation from the same draws (:func:`below` written into the loop,
    the generator's method looked up once)."""
    getrandbits = rng.getrandbits
    i = len(x) - 1
    while i >= 1:
        n = i + 1
        k = _bits(n)
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
        i -= 1


def choice(rng: random.Random, seq: list[T]) -> T:
    """``rng.choice(seq)``: the same element from the same draw."""
    if not seq:
        raise IndexError("Cannot choose from an empty sequence")
    return seq[below(rng, len(seq))]
