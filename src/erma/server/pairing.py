"""Matchmaking by rating (按分匹配): who in a room's queue plays whom, and which bot fills a seat.

The queue is taken oldest first: each player still unpaired is offered the nearest rating among the others,
and they are paired if the gap is within ``window + widen_per_s × wait`` (the wait of the longer-waiting of
the two): close ratings at once, wider gaps as people wait. Whoever has waited the bot-fill time is seated
with the bot whose anchor is nearest their rating. The Redis backend runs the same rule in a Lua script
(``erma.server.backends.redis.scripts.POP_ROUND``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

DEFAULT_RATING = 25.0
"""The rating of someone with no rated hand in the family (a new player's mu)."""


def pair_by_rating(
    queue: Iterable[tuple[int, float, float]], now: float, window: float, widen_per_s: float
) -> list[list[int]]:
    """Pairs from ``queue`` — (account, time queued, rating) in queue order — by the rule above.

    >>> q = [(1, 0.0, 25.0), (2, 1.0, 10.0), (3, 2.0, 24.0), (4, 3.0, 12.0)]
    >>> pair_by_rating(q, now=3.0, window=2.0, widen_per_s=0.0)
    [[1, 3], [2, 4]]
    >>> pair_by_rating([(1, 0.0, 25.0), (2, 0.0, 15.0)], now=5.0, window=2.0, widen_per_s=1.0)
    []
    >>> pair_by_rating([(1, 0.0, 25.0), (2, 0.0, 15.0)], now=8.0, window=2.0, widen_per_s=1.0)
    [[1, 2]]
    """
    entries = list(queue)
    used: set[int] = set()
    pairs: list[list[int]] = []
    for a, (aid, ta, ra) in enumerate(entries):
        if a in used:
            continue
        best, gap = -1, 0.0
        for b, (_, _, rb) in enumerate(entries):
            if b == a or b in used:
                continue
            d = abs(ra - rb)
            if best < 0 or d < gap:
                best, gap = b, d
        if best < 0:
            continue
        wait = now - min(ta, entries[best][1])
        if gap <= window + widen_per_s * wait:
            used.update((a, best))
            pairs.append([aid, entries[best][0]])
    return pairs


def nearest_bot(rating: float, anchors: Mapping[str, float], available: Iterable[str]) -> str | None:
    """The available bot whose anchor is nearest ``rating`` (ties: the stronger), or ``None`` if no
    available bot has an anchor.

    >>> nearest_bot(12.0, {"random": 5.0, "greedy": 25.0}, ["greedy", "random"])
    'random'
    >>> nearest_bot(15.0, {"random": 5.0, "greedy": 25.0}, ["greedy", "random"])
    'greedy'
    """
    options = [(abs(anchors[b] - rating), -anchors[b], b) for b in available if b in anchors]
    return min(options)[2] if options else None
