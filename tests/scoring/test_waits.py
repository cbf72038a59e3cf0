"""erma.scoring.waits: the wait count used for 独听 agrees with the listed waits."""

from __future__ import annotations

import random

from erma.scoring.waits import pack_counts, regular_wait_count, regular_waits_key


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
