"""``shapes.may_complete`` and ``shapes.may_be_ready``, the quick tests before the win check's and 报听's
shape tables: they never refuse a hand ``shapes.overall`` calls complete (ready after a discard), for every
shape set a rule set can win, and they refuse most hands that are not."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from erma.analysis import shapes
from erma.analysis.tables import INC

ORPHANS = (0, 8, 9, 17, 18, 26, *range(27, 34))
MASKS = (1, 3, 5, 7, 31, 33)
"""Regular only; + seven pairs (the erqs and MCR-without-knits presets); + orphans; all MCR; 温州's."""
POOLS = {"any": tuple(range(34)), "one suit": (*range(9), *range(27, 34))}


def _counts(tiles: list[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def _shanten(c: list[int], n: int, allowed: int) -> int:
    return shapes.overall(sum(x * INC[t] for t, x in enumerate(c)), n, 0, allowed)


def _complete(c: list[int], n: int, allowed: int) -> bool:
    return _shanten(c, n, allowed) == -1


def _built(rng: random.Random, kinds: tuple[int, ...], n: int, copies: int) -> list[int] | None:
    """A complete regular hand of n tiles (sets and a pair) from ``kinds``, or None past ``copies``."""
    tiles: list[int] = []
    while len(tiles) < n - 2:
        t = rng.choice(kinds)
        chow = t < 27 and t % 9 < 7 and t + 2 in kinds and rng.random() < 0.5
        tiles += [t, t + 1, t + 2] if chow else [t, t, t]
    tiles += [rng.choice(kinds)] * 2
    c = _counts(tiles)
    return tiles if max(c) <= copies else None


@settings(max_examples=400, deadline=None, derandomize=True)
@given(
    pool=st.sampled_from(["any", "one suit"]),
    n=st.sampled_from([2, 5, 8, 11, 14]),
    copies=st.sampled_from([4, 8]),
    how=st.sampled_from(["built", "built and changed", "seven pairs", "orphans", "drawn"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_never_refuses_a_complete_hand(pool: str, n: int, copies: int, how: str, seed: int) -> None:
    rng = random.Random(seed)
    kinds = POOLS[pool]
    tiles: list[int] | None
    if how.startswith("built"):
        tiles = _built(rng, kinds, n, copies)
        if tiles is None:
            return
        if how == "built and changed":  # one tile swapped: complete now and then
            tiles.remove(rng.choice(tiles))
            tiles.append(rng.choice(kinds))
    elif how == "seven pairs":
        tiles = [t for t in rng.sample(kinds, 7) for _ in range(2)] if n == 14 else []
    elif how == "orphans":
        tiles = [*ORPHANS, rng.choice(ORPHANS)] if n == 14 else []
        if tiles and rng.random() < 0.5:
            tiles[rng.randrange(14)] = rng.choice(kinds)
    else:
        tiles = rng.sample([t for t in kinds for _ in range(copies)], n)
    if len(tiles) != n:
        return
    c = _counts(tiles)
    added = rng.choice(tiles) if rng.random() < 0.5 else -1
    held = c[:]
    if added >= 0:
        held[added] -= 1  # the tile to add is not in the counts given
    for allowed in MASKS:
        if _complete(c, n, allowed):
            assert shapes.may_complete(held, added, n, allowed), (sorted(tiles), added, allowed)
    # one tile out and one in: a hand ready after a discard (or further off, now and then)
    for _ in range(2):
        tiles.remove(rng.choice(tiles))
        tiles.append(rng.choice(kinds))
        c = _counts(tiles)
        if max(c) > copies:
            return
        for allowed in MASKS:
            if _shanten(c, n, allowed) <= 0:
                assert shapes.may_be_ready(c, n, allowed), (sorted(tiles), allowed)


def test_refuses_what_counting_tells() -> None:
    regular = 1
    for tiles in (
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 27, 28],  # 东 and 南 lone
        [0, 0, 4, 4, 27, 27, 27, 28, 28, 28, 29, 29, 29, 8],  # 9万 lone (nothing a rank away)
        [0, 0, 0, 2, 4, 4, 4, 6, 7, 8, 8, 27, 27, 27],  # 3万 lone: 1万 and 5万 two ranks off, no 2万 or 4万
        [0, 1, 2, 3, 27, 27, 27, 28, 28, 28, 29, 29, 29, 30],  # 万 4 tiles (3k+1), 北 lone
        [0, 0, 1, 1, 27, 27, 27, 28, 28, 28, 29, 29, 30, 30],  # two pairs besides the sets
    ):
        c = _counts(tiles)
        assert not _complete(c, 14, regular) and not shapes.may_complete(c, -1, 14, regular), tiles
    assert not shapes.may_complete(_counts([0, 0, 0, 1, 2, 3]), -1, 6, 31), "3k+2 tiles only"
    seven = [t for t in (0, 2, 4, 6, 27, 28, 29) for _ in range(2)]
    assert shapes.may_complete(_counts(seven), -1, 14, 3)
    assert not shapes.may_complete(_counts(seven), -1, 14, 1)
    thirteen = [*ORPHANS, 27]
    assert shapes.may_complete(_counts(thirteen), -1, 14, 5)
    assert not shapes.may_complete(_counts(thirteen), -1, 14, 3)
    assert shapes.may_complete(_counts(thirteen[:-1]), 27, 14, 5), "the added tile counts"


def test_refuses_most_random_hands() -> None:
    """The point of the tests: random 14-tile hands of 万 and honours are nearly all refused as complete,
    and most as ready after a discard."""
    rng = random.Random(7)
    kinds = POOLS["one suit"]
    wall = [t for t in kinds for _ in range(4)]
    hands = [_counts(rng.sample(wall, 14)) for _ in range(2000)]
    assert sum(shapes.may_complete(c, -1, 14, 3) for c in hands) < 40
    assert sum(shapes.may_be_ready(c, 14, 3) for c in hands) < 1000


def test_ready_examples() -> None:
    assert shapes.may_be_ready(
        _counts([0, 1, 2, 3, 4, 5, 6, 7, 8, 27, 27, 28, 28, 30]), 14, 1
    )  # 西 out: ready
    three_lone = [0, 1, 2, 3, 4, 5, 6, 7, 8, 27, 27, 28, 29, 30]  # 南 西 北 lone: two touches fix two
    assert _shanten(_counts(three_lone), 14, 1) > 0 and not shapes.may_be_ready(_counts(three_lone), 14, 1)
    six_pairs = [t for t in (0, 2, 4, 6, 27, 28) for _ in range(2)] + [29, 30]
    assert shapes.may_be_ready(_counts(six_pairs), 14, 3) and not shapes.may_be_ready(
        _counts(six_pairs), 14, 1
    )
    twelve = [*ORPHANS[:12], 4, 4]
    assert shapes.may_be_ready(_counts(twelve), 14, 5) and not shapes.may_be_ready(_counts(twelve), 14, 1)
