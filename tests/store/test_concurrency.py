"""The ledger under concurrency: one terminal transaction per unit, no balance below zero, conservation."""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import time

import pytest
import sqlalchemy as sa

from erma.errors import InsufficientBeansError
from erma.store import Store
from erma.store.schema import transactions
from tests.store.conftest import opened

#: Random units per backend in the conservation test (about 15–30 s each on a 2-core machine).
UNITS = int(os.environ.get("ERMA_STORE_UNITS", "3000"))


def unit() -> str:
    return f"c-{secrets.token_hex(6)}"


async def terminal_count(s: Store, u: str) -> int:
    async with s.engine.connect() as conn:
        q = sa.select(sa.func.count()).where(
            transactions.c.unit == u, transactions.c.kind.in_(("settle", "refund", "forfeit"))
        )
        return int((await conn.execute(q)).scalar_one())


def ending(s: Store, u: str, a: int, b: int, i: int):  # type: ignore[no-untyped-def]
    """The i-th of a mix of terminal calls for unit u."""
    match i % 3:
        case 0:
            return s.settle(u, {a: 100 + i, b: -100 - i})
        case 1:
            return s.refund(u)
        case _:
            return s.forfeit(u, b, 50 + i)


def test_concurrent_endings_of_one_unit_write_one_terminal(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, b = (await s.create_guest()).id, (await s.create_guest()).id
            for _ in range(5):
                u = unit()
                held = await asyncio.gather(*(s.hold(u, {a: 1000, b: 1000}) for _ in range(5)))
                assert held == [{a: 1000, b: 1000}] * 5  # idempotent under concurrency too
                results = await asyncio.gather(*(ending(s, u, a, b, i) for i in range(24)))
                assert results.count(True) == 1, results
                assert await terminal_count(s, u) == 1
            assert await s.balance(a) + await s.balance(b) == 20_000
            assert await s.check() == []

    asyncio.run(body())


def test_two_stores_on_one_database_write_one_terminal(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s1, opened(db_url) as s2:
            assert s1.engine is not s2.engine
            a, b = (await s1.create_guest()).id, (await s2.create_guest()).id
            for _ in range(5):
                u = unit()
                await asyncio.gather(s1.hold(u, {a: 700, b: 900}), s2.hold(u, {a: 700, b: 900}))
                calls = [ending(s, u, a, b, i) for i in range(12) for s in (s1, s2)]
                results = await asyncio.gather(*calls)
                assert results.count(True) == 1, results
                assert await terminal_count(s1, u) == 1
            assert await s1.balance(a) + await s2.balance(b) == 20_000
            assert await s1.check() == []

    asyncio.run(body())


def test_concurrent_units_never_overdraw(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url, signup_grant=100) as s:
            poor = (await s.create_guest()).id
            rich = [(await s.create_guest()).id for _ in range(4)]

            async def one(i: int) -> int:
                u = unit()
                try:
                    held = await s.hold(u, {poor: 30, rich[i % 4]: 30})
                except InsufficientBeansError:
                    return 0
                await asyncio.sleep(0)
                await s.settle(u, {poor: -30, rich[i % 4]: 30})
                return held[poor]

            paid = await asyncio.gather(*(one(i) for i in range(30)))
            assert sum(paid) == 100  # 30 + 30 + 30 + 10, then nothing more to put up
            assert sorted(p for p in paid if p) == [10, 30, 30, 30]
            assert await s.balance(poor) == 0
            assert await s.check() == []

    asyncio.run(body())


async def random_units(s: Store, units: int, players: int, workers: int, seed: int) -> None:
    """``units`` random hands by ``workers`` concurrent tables over ``players`` accounts: hold, then
    settle (capped deltas), refund or forfeit at random; broke players take their daily relief."""
    rng = random.Random(seed)
    ids = [(await s.create_guest()).id for _ in range(players)]
    todo = list(range(units))
    day = 0

    async def table(w: int) -> None:
        nonlocal day
        while todo:
            n = todo.pop()
            a, b = rng.sample(ids, 2)
            u = f"r{seed}-{n}"
            try:
                held = await s.hold(u, {a: rng.randint(1, 4000), b: rng.randint(1, 4000)})
            except InsufficientBeansError:
                for x in (a, b):
                    await s.daily_relief(x, f"2026-01-{1 + day % 28:02d}")
                day += 1
                await s.refund(u)
                continue
            assert min(held.values()) > 0
            r = rng.random()
            if r < 0.7:
                d = rng.randint(-6000, 6000)
                assert await s.settle(u, {a: d, b: -d})
            elif r < 0.85:
                assert await s.refund(u)
            else:
                assert await s.forfeit(u, rng.choice((a, b)), rng.randint(0, 5000))
            if rng.random() < 0.05:  # a late duplicate changes nothing
                assert not await s.settle(u, {a: 1, b: -1})

    await asyncio.gather(*(table(w) for w in range(workers)))


async def issued(s: Store) -> int:
    return -await s.balance(s.issuance_id)


def test_thousands_of_random_units_conserve_beans(fresh_db) -> None:  # type: ignore[no-untyped-def]
    url = fresh_db()

    async def body() -> None:
        async with opened(url) as s:
            start = time.perf_counter()
            await random_units(s, units=UNITS, players=12, workers=8, seed=1)
            elapsed = time.perf_counter() - start
            assert await s.check() == []
            async with s.engine.connect() as conn:
                users = (
                    await conn.execute(sa.text("SELECT SUM(balance) FROM accounts WHERE kind = 'user'"))
                ).scalar()
                escrow = (
                    await conn.execute(sa.text("SELECT SUM(balance) FROM accounts WHERE kind = 'escrow'"))
                ).scalar()
            assert escrow == 0  # every unit ended
            assert users == await issued(s)  # issued = held by the players
            print(f"{UNITS} units in {elapsed:.1f} s")

    asyncio.run(body())


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("ERMA_SLOW"), reason="soak: set ERMA_SLOW=1")
def test_soak(fresh_db) -> None:  # type: ignore[no-untyped-def]
    url = fresh_db()

    async def body() -> None:
        async with opened(url) as s1, opened(url) as s2:
            await asyncio.gather(
                random_units(s1, units=20_000, players=40, workers=16, seed=2),
                random_units(s2, units=20_000, players=40, workers=16, seed=3),
            )
            assert await s1.check() == []

    asyncio.run(body())
