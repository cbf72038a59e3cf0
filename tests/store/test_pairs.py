"""What the ledger moved between accounts (erma.store.pairs): a match's net beans per account, and the beans
one pair moved at friend tables since a time (the daily pair cap): every ended hand counted once, by what
moved, an open hold not at all, another pair's or a matched table's hands not at all."""

from __future__ import annotations

import asyncio
import datetime as dt
import secrets

from tests.store.conftest import opened


def test_match_beans_and_pair_moved(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, b, c = [(await s.create_guest()).id for _ in range(3)]
            friend = "fr-" + secrets.token_hex(8)
            matched = secrets.token_hex(8)
            since = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5)
            assert await s.pair_moved("fr-", a, b, since) == 0
            await s.hold(f"{friend}:1", {a: 500, b: 500})
            await s.settle(f"{friend}:1", {a: 300, b: -300})  # a wins 300
            await s.hold(f"{friend}:2", {a: 500, b: 500})
            await s.forfeit(f"{friend}:2", a, 120)  # a escapes: pays 120
            await s.hold(f"{friend}:3", {a: 500, b: 500})
            await s.refund(f"{friend}:3")  # a draw moves nothing
            await s.hold(f"{friend}:4", {a: 500, b: 500})  # still open: nothing moved yet
            await s.hold(f"{matched}:1", {a: 500, b: 500})
            await s.settle(f"{matched}:1", {a: 400, b: -400})  # not a friend table's
            other = "fr-" + secrets.token_hex(8)
            await s.hold(f"{other}:1", {a: 500, c: 500})
            await s.settle(f"{other}:1", {a: 200, c: -200})  # another pair
            assert await s.pair_moved("fr-", a, b, since) == 300 + 120
            assert await s.pair_moved("fr-", b, a, since) == 300 + 120
            assert await s.pair_moved("fr-", a, c, since) == 200
            assert await s.pair_moved("fr-", a, b, dt.datetime.now(dt.UTC) + dt.timedelta(minutes=5)) == 0
            await s.refund(f"{friend}:4")
            assert await s.match_beans(friend, [a, b]) == [300 - 120, -300 + 120]
            assert await s.match_beans(matched, [b, a]) == [-400, 400]
            assert await s.check() == []

    asyncio.run(body())
