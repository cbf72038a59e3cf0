"""The interned profile tables (erma.analysis.tables) stay aligned when threads intern at once (the server's
reviews run in threads)."""

from __future__ import annotations

import random
import threading
import time

import pytest

from erma.analysis import tables as T


def test_threads_interning_at_once_keep_profiles_and_values_aligned(monkeypatch: pytest.MonkeyPatch) -> None:
    value = T._value

    def slow_value(prof: T.Profile, n: int) -> int:
        time.sleep(0.0002)  # lets the other threads run between a profile's id and its values
        return value(prof, n)

    monkeypatch.setattr(T, "_value", slow_value)
    # profiles not yet interned, whose values differ (so that one profile's values at another's id shows)
    rng = random.Random(7)
    fresh: list[T.Profile] = []
    seen: set[tuple[int, ...]] = set()
    while len(fresh) < 160:
        prof = T.pack(tuple(rng.randint(-1, 4) for _ in range(12)))
        values = tuple(value(prof, n) for n in range(T.MAX_SETS + 1))
        if prof not in T._PROFILE_ID and prof not in fresh and values not in seen:
            fresh.append(prof)
            seen.add(values)
    barrier = threading.Barrier(8)

    def work(k: int) -> None:
        barrier.wait()
        for prof in fresh[k::8]:
            T.intern(prof)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(T.PROFILES) == len(T.VALUES)
    for prof in fresh:
        pid = T._PROFILE_ID[prof]
        assert T.PROFILES[pid] == prof
        assert T.VALUES[pid] == tuple(value(prof, n) for n in range(T.MAX_SETS + 1))


def test_profiles_pack_and_unpack() -> None:
    """A profile is its 12 entries packed 3 bits each (largest t plus one, 0 where unreachable)."""
    entries = (0, 1, 2, 3, 4, 5, -1, -1, 0, 5, -1, 2)
    assert T.unpack(T.pack(entries)) == entries
    assert T.pack((0,) + (-1,) * 11) == T._EMPTY
    # 123m: a chow (m = 1, t = 0) or a partial set and a single (m = 0, t = 1); no pair
    assert T.unpack(T.PROFILES[T.suit_pid(0x111)]) == (1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1)


def test_a_suit_read_block_by_block_has_the_profile_of_the_whole() -> None:
    """suit_pid combines the profiles of a suit's blocks (ranks two empty ranks apart): the same profile as
    the whole suit read at once (:func:`~erma.analysis.tables._profile`), 4 and 8 copies of a kind; honours
    kind by kind likewise."""
    rng = random.Random(11)
    for _ in range(3000):
        copies = rng.choice((4, 8))
        counts = [0] * 9
        for _ in range(rng.randint(1, 17)):
            r = rng.randrange(9)
            counts[r] = min(copies, counts[r] + 1)
        key = sum(c << (4 * r) for r, c in enumerate(counts))
        assert T.PROFILES[T.suit_pid(key)] == T._profile(key, False), counts
    # three blocks (1m, 4m, 9m), a block away from rank 1 (55m), a 嵌张 across one empty rank (13m)
    for key in (0, 0x100001001, 0x50000, 0x101):
        assert T.PROFILES[T.suit_pid(key)] == T._profile(key, False)
    for _ in range(1000):  # honours: kind by kind
        key = sum(rng.randint(0, 8) << (4 * r) for r in rng.sample(range(7), rng.randint(0, 7)))
        assert T.PROFILES[T.honor_pid(key)] == T._profile(key, True), hex(key)
