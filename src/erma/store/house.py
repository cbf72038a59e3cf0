"""The house's bot accounts (机器人账户): players in the ledger like anyone, that nobody can log into.

A bot seat stakes and pays beans like a person, so double entry holds in bot games too. A bot account's
name contains ``:`` (no person can register it) and has no password. When its balance falls below what a
table stakes, the house tops it up from issuance — a normal, logged grant transaction.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from erma.store import ledger
from erma.store.accounts import BOT_PREFIX, name_key
from erma.store.engine import run_read, run_write
from erma.store.schema import accounts as A
from erma.store.schema import transactions as T
from erma.store.store import Store

BOT_FLOAT = 1_000_000
"""The balance a bot account is topped up to."""


async def bot_account(store: Store, bot: str) -> int:
    """The id of the bot's account, created (with its float) on first use."""
    name = BOT_PREFIX + bot

    async def find(conn: AsyncConnection) -> int | None:
        q = sa.select(A.c.id).where(A.c.name_key == name_key(name), A.c.kind == "user")
        return (await conn.execute(q)).scalar_one_or_none()

    found = await run_read(store.engine, find)
    if found is not None:
        return int(found)

    async def create(conn: AsyncConnection) -> int:
        row = (
            await conn.execute(
                sa.insert(A)
                .values(kind="user", name=name, name_key=name_key(name), is_guest=False)
                .returning(A.c.id)
            )
        ).one()
        await ledger.grant(conn, store.issuance_id, row.id, BOT_FLOAT, "grant", f"bot-float:{row.id}")
        return int(row.id)

    try:
        return await run_write(store.engine, create)
    except IntegrityError:  # another process made it first
        again = await run_read(store.engine, find)
        assert again is not None
        return int(again)


async def top_up(store: Store, account_id: int, at_least: int) -> int:
    """Grant the bot account back to its float if its balance is below ``at_least``; returns beans granted."""
    balance = await store.balance(account_id)
    if balance >= at_least:
        return 0

    async def count(conn: AsyncConnection) -> int:
        q = sa.select(sa.func.count()).select_from(T).where(T.c.key.like(f"bot-topup:{account_id}:%"))
        return int((await conn.execute(q)).scalar_one())

    n = await run_read(store.engine, count)
    amount = BOT_FLOAT - balance

    async def grant(conn: AsyncConnection) -> None:
        await ledger.grant(
            conn, store.issuance_id, account_id, amount, "grant", f"bot-topup:{account_id}:{n}"
        )

    try:
        await run_write(store.engine, grant)
    except IntegrityError:  # another table topped it up at the same moment
        return 0
    return amount
