"""A hand's start in one ledger transaction (issue 34, the server path): ``Store.hold_reading`` holds the
stakes, returns the balances before the hold, and tops a short bot account up to its float first — what took
a balances read, a top-up (a read, a count, a grant) and a hold."""

from __future__ import annotations

import asyncio

from tests.store.conftest import opened
from tests.store.test_ledger import pair, unit


def test_hold_reading_holds_and_returns_the_balances_before(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, b = await pair(s)
            u = unit()
            held, before = await s.hold_reading(u, {a: 3000, b: 2000})
            assert held == {a: 3000, b: 2000} and before == [10_000, 10_000]
            assert (await s.balance(a), await s.balance(b)) == (7000, 8000)
            # idempotent: the first hold's amounts, the balances as they are now; nothing moves
            assert await s.hold_reading(u, {a: 5, b: 5}) == ({a: 3000, b: 2000}, [7000, 8000])
            assert await s.hold(u, {a: 5, b: 5}) == {a: 3000, b: 2000}  # one unit, whichever call held it
            assert await s.settle(u, {a: 1000, b: -1000})
            assert (await s.balance(a), await s.balance(b)) == (11_000, 9000)
            assert await s.check() == []

    asyncio.run(body())


def test_a_short_bot_is_topped_up_to_its_float_in_the_same_transaction(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            person, bot = await pair(s, beans=(10_000, 500))
            u = unit()
            held, before = await s.hold_reading(u, {person: 3000, bot: 3000}, {bot: 50_000})
            assert before == [10_000, 500]  # as they were, the top-up not counted
            assert held == {person: 3000, bot: 3000}  # the whole stake, after the top-up
            assert await s.balance(bot) == 47_000
            kinds = [(x["kind"], x["delta"]) for x in await s.history(bot, 2)]
            assert kinds == [("hold", -3000), ("grant", 49_500)]
            # not short: no grant
            u2 = unit()
            await s.hold_reading(u2, {person: 3000, bot: 3000}, {bot: 50_000})
            assert [x["kind"] for x in await s.history(bot, 1)] == ["hold"]
            assert await s.balance(bot) == 44_000
            assert await s.refund(u) and await s.refund(u2)
            assert await s.check() == []

    asyncio.run(body())
