"""erma.scoring.waits: the packed wait count and 独听 check agree with the listed waits."""

from __future__ import annotations

import random

from erma.scoring.waits import (
    is_unique_wait,
    pack_counts,
    regular_wait_count,
    regular_waits_key,
    unique_wait_key,
)


def test_wait_count_is_the_number_of_waits() -> None:
    """regular_wait_count agrees with regular_waits_key on random tile counts of every size."""
    rng = random.Random(5)
    for _ in range(20000):
        c = [0] * 34
        kinds = rng.sample(range(34), rng.randint(1, 9)) if rng.random() < 0.5 else rng.sample(range(9), 5)
        for _ in range(rng.choice((1, 2, 4, 5, 7, 8, 10, 11, 13, 14))):
            t = rng.choice(kinds)
            if c[t] < 4:
                c[t] += 1
        key = pack_counts(c)
        assert regular_wait_count(key) == len(regular_waits_key(key)), c


def test_unique_wait_key_is_is_unique_wait() -> None:
    """The packed 独听 check (seven-pairs wait from the odd kinds) agrees with the one over counts."""
    rng = random.Random(6)
    for _ in range(20000):
        c = [0] * 34
        kinds = rng.sample(range(34), rng.randint(4, 9))
        if rng.random() < 0.5:  # pairs, often
            for t in kinds[:6]:
                c[t] = 2
        while sum(c) < 14:
            t = rng.choice(kinds)
            if c[t] < 4:
                c[t] += 1
        while sum(c) > 14:
            t = rng.choice([k for k in range(34) if c[k]])
            c[t] -= 1
        win = rng.choice([k for k in range(34) if c[k]])
        for sp in (False, True):
            rest = list(c)
            rest[win] -= 1
            assert unique_wait_key(pack_counts(rest), sp) == is_unique_wait(c, win, seven_pairs=sp), (c, win)
