"""The bean ledger's operations, one at a time: hold, settle, refund, forfeit, relief, history, check."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable

import pytest
import sqlalchemy as sa

from erma.errors import InsufficientBeansError, InvalidInputError
from erma.store import Store, ledger
from erma.store.schema import accounts, entries, transactions
from tests.store.conftest import opened


def unit() -> str:
    return f"u-{secrets.token_hex(6)}"


async def pair(s: Store, *, beans: tuple[int, int] | None = None) -> tuple[int, int]:
    """Two fresh guests; with ``beans``, first brought down to those balances by a settled unit each way."""
    a, b = (await s.create_guest()).id, (await s.create_guest()).id
    if beans is not None:
        for acc, target in zip((a, b), beans, strict=True):
            other = (await s.create_guest()).id
            u = unit()
            await s.hold(u, {acc: 10_000, other: 10_000})
            await s.settle(u, {acc: -(10_000 - target), other: 10_000 - target})
            assert await s.balance(acc) == target
    return a, b


def test_hold_settle_moves_the_result(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, b = await pair(s)
            u = unit()
            assert await s.hold(u, {a: 3000, b: 3000}) == {a: 3000, b: 3000}
            assert (await s.balance(a), await s.balance(b)) == (7000, 7000)
            assert await s.hold(u, {a: 50, b: 50}) == {a: 3000, b: 3000}  # idempotent: moves nothing
            assert (await s.balance(a), await s.balance(b)) == (7000, 7000)
            assert await s.settle(u, {a: 1200, b: -1200}, reason="win")
            assert (await s.balance(a), await s.balance(b)) == (11_200, 8800)
            assert not await s.settle(u, {a: 1200, b: -1200})
            assert not await s.refund(u)
            assert not await s.forfeit(u, a, 100)
            assert (await s.balance(a), await s.balance(b)) == (11_200, 8800)
            h = await s.history(a)
            assert [(x["kind"], x["delta"], x["balance_after"]) for x in h] == [
                ("settle", 4200, 11_200),
                ("hold", -3000, 7000),
                ("grant", 10_000, 10_000),
            ]
            assert h[0]["reason"] == "win" and h[0]["unit"] == u
            with pytest.raises(InvalidInputError, match="ended"):
                await s.hold(u, {a: 10, b: 10})
            assert await s.check() == []

    asyncio.run(body())


def test_a_loser_pays_at_most_what_was_held(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, b = await pair(s, beans=(10_000, 700))
            u = unit()
            assert await s.hold(u, {a: 5000, b: 5000}) == {a: 5000, b: 700}  # min(stake, balance)
            assert await s.balance(b) == 0
            assert await s.settle(u, {a: 3000, b: -3000})  # cap_by_balance: b pays 700
            assert (await s.balance(a), await s.balance(b)) == (10_700, 0)
            with pytest.raises(InsufficientBeansError):
                await s.hold(unit(), {a: 100, b: 100})
            assert await s.balance(a) == 10_700  # nothing was held for anyone
            assert await s.check() == []

    asyncio.run(body())


def test_settle_splits_among_winners_and_checks_its_input(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, b = await pair(s)
            c = (await s.create_guest()).id
            u = unit()
            await s.hold(u, {a: 1000, b: 1000, c: 1000})
            with pytest.raises(InvalidInputError, match="sum to zero"):
                await s.settle(u, {a: 10, b: -5})
            with pytest.raises(InvalidInputError):
                await s.settle(u, {a: 1.5, b: -1.5})  # type: ignore[dict-item]
            # c owes 3000 but put up 1000: the winners share 1000 as 2:1, rounded down, the rest to the first.
            assert await s.settle(u, {a: 2000, b: 1000, c: -3000})
            assert [await s.balance(x) for x in (a, b, c)] == [10_667, 10_333, 9000]
            assert await s.check() == []

    asyncio.run(body())


def test_refund_returns_everything(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, b = await pair(s)
            u = unit()
            await s.hold(u, {a: 400, b: 900})
            assert await s.refund(u)
            assert (await s.balance(a), await s.balance(b)) == (10_000, 10_000)
            assert not await s.refund(u)
            assert await s.refund(unit())  # nothing held: still the unit's one terminal transaction
            assert await s.check() == []

    asyncio.run(body())


def test_forfeit_shares_the_penalty(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, b = await pair(s)
            u = unit()
            await s.hold(u, {a: 1000, b: 1000})
            assert await s.forfeit(u, a, 600)
            assert (await s.balance(a), await s.balance(b)) == (9400, 10_600)
            # The penalty is capped by what the escaper put up.
            u = unit()
            await s.hold(u, {a: 300, b: 1000})
            assert await s.forfeit(u, a, 5000)
            assert (await s.balance(a), await s.balance(b)) == (9100, 10_900)
            # Three players, equal weights: 100 → 34 to the first in seat order, 33 to the next... here 50/50.
            c, d = (await s.create_guest()).id, (await s.create_guest()).id
            u = unit()
            await s.hold(u, {c: 500, a: 500, d: 500})
            assert await s.forfeit(u, a, 101)
            assert (await s.balance(c), await s.balance(d)) == (10_051, 10_050)
            u = unit()
            await s.hold(u, {c: 500, a: 500, d: 500})
            assert await s.forfeit(u, a, 100, shares={d: 3, c: 1})
            assert (await s.balance(c), await s.balance(d)) == (10_076, 10_125)
            with pytest.raises(InvalidInputError):
                await s.forfeit(unit(), a, 10, shares={a: 1})
            with pytest.raises(InvalidInputError):
                await s.forfeit(unit(), a, -1)
            assert await s.check() == []

    asyncio.run(body())


def test_daily_relief(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            rich, poor = await pair(s, beans=(10_000, 499))
            assert await s.daily_relief(rich, "2026-01-01") == 0
            results = await asyncio.gather(*(s.daily_relief(poor, "2026-01-01") for _ in range(6)))
            assert sorted(results) == [0, 0, 0, 0, 0, 2000]
            assert await s.balance(poor) == 2499
            assert await s.daily_relief(poor, "2026-01-01") == 0
            u = unit()
            await s.hold(u, {poor: 2499, rich: 2499})
            await s.settle(u, {poor: -2499, rich: 2499})
            assert await s.daily_relief(poor, "2026-01-01") == 0  # once a day
            assert await s.daily_relief(poor, "2026-01-02") == 2000
            with pytest.raises(InvalidInputError):
                await s.daily_relief(poor, "tomorrow")
            assert await s.check() == []

    asyncio.run(body())


def test_bad_input(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, _ = await pair(s)
            for stakes in ({}, {a: 0}, {a: -5}, {a: True}, {"x": 5}):
                with pytest.raises(InvalidInputError):
                    await s.hold(unit(), stakes)  # type: ignore[arg-type]
            with pytest.raises(InvalidInputError):
                await s.hold(unit(), {a: 10, 10**9: 10})
            with pytest.raises(InvalidInputError):
                await s.hold(unit(), {a: 10, s.issuance_id: 10})
            for bad_unit in ("", "x" * 101, "tab\there", 5):
                with pytest.raises(InvalidInputError):
                    await s.refund(bad_unit)  # type: ignore[arg-type]
            with pytest.raises(InvalidInputError):
                await s.balance(10**9)
            assert await s.check() == []

    asyncio.run(body())


def test_check_reports_tampering(fresh_db: Callable[[], str]) -> None:
    url = fresh_db()

    async def body() -> None:
        async with opened(url) as s:
            a, b = await pair(s)
            u = unit()
            await s.hold(u, {a: 100, b: 100})
            await s.settle(u, {a: 50, b: -50})
            assert await s.check() == []
            async with s.engine.begin() as conn:
                await conn.execute(sa.update(accounts).where(accounts.c.id == a).values(balance=1))
            found = await s.check()
            assert any(f"Account {a}" in x and "entries sum to 10050" in x for x in found), found
            assert any("sum to" in x and "not 0" in x for x in found), found
            async with s.engine.begin() as conn:
                await conn.execute(sa.update(accounts).where(accounts.c.id == a).values(balance=10_050))
                tx = (
                    await conn.execute(
                        sa.insert(transactions)
                        .values(kind="settle", key="forged", unit=u)
                        .returning(transactions.c.id)
                    )
                ).scalar_one()
                await conn.execute(
                    sa.insert(entries).values(transaction_id=tx, account_id=b, delta=5, balance_after=9955)
                )
            found = await s.check()
            assert any("has entries summing to 5" in x for x in found), found
            assert any("2 terminal transactions" in x for x in found), found
            assert any("its key is 'forged'" in x for x in found), found
            with pytest.raises(sa.exc.DBAPIError, match="append-only"):
                async with s.engine.begin() as conn:
                    await conn.execute(sa.delete(entries).where(entries.c.transaction_id == tx))

    asyncio.run(body())


def test_balances_reads_several_accounts_in_the_order_given(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, b = await pair(s, beans=(1234, 567))
            assert await s.balances([b, a]) == [567, 1234]
            assert await s.balances([a, a]) == [1234, 1234]
            with pytest.raises(InvalidInputError, match="no such account"):
                await s.balances([a, 10**9])
            with pytest.raises(InvalidInputError):
                await s.balances([a, "x"])  # type: ignore[list-item]

    asyncio.run(body())


def test_payouts_are_plain_functions_of_the_holdings() -> None:
    held = {1: 3000, 2: 1000}
    assert ledger.settle_payout("u", {1: 2500, 2: -2500}, "settle")(held) == {1: 4000, 2: 0}
    assert ledger.settle_payout("u", {1: -500, 2: 500}, "settle")(held) == {1: 2500, 2: 1500}
    assert ledger.forfeit_payout("u", 1, 2000, None)(held) == {1: 1000, 2: 3000}
    assert ledger.forfeit_payout("u", 1, 2000, {2: 1, 3: 1})(held) == {1: 1000, 2: 2000, 3: 1000}
    assert ledger.split(7, {3: 2, 1: 1}) == {3: 5, 1: 2}
    with pytest.raises(InvalidInputError, match="must sum to zero"):
        ledger.settle_payout("u", {1: 1, 2: 0}, "settle")
    with pytest.raises(InvalidInputError, match="other than the escaper"):
        ledger.forfeit_payout("u", 1, 10, {1: 1})
