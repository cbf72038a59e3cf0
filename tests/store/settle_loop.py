"""A process that settles units in a loop until it is killed (for ``test_crash.py``).

Usage: ``python tests/store/settle_loop.py URL PREFIX``. Prints ``ready A B`` with the two account ids, then
``done N`` after each unit N has ended.
"""

from __future__ import annotations

import asyncio
import random
import sys

from argon2 import PasswordHasher

from erma.store import Store


async def main(url: str, prefix: str) -> None:
    store = await Store.open(url, password_hasher=PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    a, b = (await store.create_guest()).id, (await store.create_guest()).id
    print("ready", a, b, flush=True)
    rng = random.Random(prefix)
    n = 0
    while True:
        unit = f"{prefix}-{n}"
        held = await store.hold(unit, {a: rng.randint(1, 3000), b: rng.randint(1, 3000)})
        if len(held) == 2:
            d = rng.randint(-3000, 3000)
            if rng.random() < 0.8:
                await store.settle(unit, {a: d, b: -d})
            else:
                await store.forfeit(unit, rng.choice((a, b)), abs(d))
        print("done", n, flush=True)
        n += 1
        if await store.balance(a) == 0 or await store.balance(b) == 0:
            await store.daily_relief(a, f"2026-01-{1 + n % 28:02d}")
            await store.daily_relief(b, f"2026-01-{1 + n % 28:02d}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
