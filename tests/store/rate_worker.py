"""One of two processes ending rated hands of the same player at the same moments (for
``test_rating_concurrency.py``).

Usage: ``python tests/store/rate_worker.py URL PLAYER OPPONENT PREFIX N START K``: waits until the wall-clock
time START, then, N times, settles the already-held unit ``{PREFIX}-{i}`` (PLAYER wins even i, loses odd i)
with its rated outcome, the hands in rated matches of K (the K-th hand of each ends its match and rates
it); prints ``done N`` at the end.
"""

from __future__ import annotations

import asyncio
import sys
import time

from argon2 import PasswordHasher

from erma.store import Store
from erma.store.ratings import RatedHand


async def main(url: str, player: int, opponent: int, prefix: str, n: int, start: float, k: int) -> None:
    store = await Store.open(url, password_hasher=PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    try:
        await asyncio.sleep(max(0.0, start - time.time()))
        for i in range(n):
            winner = i % 2
            deltas = {player: 10, opponent: -10} if winner == 0 else {player: -10, opponent: 10}
            points = (10 + i, -10 - i) if winner == 0 else (-10, 10)  # (the player wins each match)
            block, index = f"{prefix}-m{i // k}", i % k + 1
            rated = RatedHand(
                "standard",
                (player, opponent),
                winner=winner,
                points=points,
                block=block,
                index=index,
                closes=index == k,
            )
            assert await store.settle(f"{prefix}-{i}", deltas, rated=rated)
        print("done", n, flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    u, p, o, pre, n, t, k = sys.argv[1:8]
    asyncio.run(main(u, int(p), int(o), pre, int(n), float(t), int(k)))
