"""What the ledger moved between accounts (对手间流水): over one match, and between one pair of accounts at
friend tables in a day (the daily pair cap of :mod:`erma.server.friends`). Read from the ledger's entries:
nothing of its own is stored."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from erma.store.schema import TERMINAL_KINDS, utc
from erma.store.schema import entries as E
from erma.store.schema import transactions as T


async def match_beans(conn: AsyncConnection, match_id: str, account_ids: Sequence[int]) -> list[int]:
    """Each account's net change over the units ``{match_id}:{n}`` (holds and their terminal transactions:
    once every hand ended, what the match won or lost it)."""
    rows = await conn.execute(
        sa.select(E.c.account_id, sa.func.sum(E.c.delta))
        .join(T, E.c.transaction_id == T.c.id)
        .where(T.c.unit.startswith(f"{match_id}:", autoescape=True), E.c.account_id.in_(list(account_ids)))
        .group_by(E.c.account_id)
    )
    found = {int(a): int(total or 0) for a, total in rows}
    return [found.get(a, 0) for a in account_ids]


async def pair_moved(conn: AsyncConnection, prefix: str, a: int, b: int, since: dt.datetime) -> int:
    """The beans that moved between accounts ``a`` and ``b`` in the units whose match id begins with
    ``prefix`` and whose terminal transaction was written at ``since`` or later: the sum over those units of
    what one of them won or lost in it."""
    ended = (
        sa.select(T.c.unit, T.c.created)
        .where(
            T.c.unit.startswith(prefix, autoescape=True),
            T.c.kind.in_(TERMINAL_KINDS),
            T.c.created >= since - dt.timedelta(days=1),  # (SQLite compares text: the exact test below)
        )
        .subquery()
    )
    rows = await conn.execute(
        sa.select(T.c.unit, E.c.account_id, sa.func.sum(E.c.delta))
        .join(T, E.c.transaction_id == T.c.id)
        .where(T.c.unit.in_(sa.select(ended.c.unit)), E.c.account_id.in_([a, b]))
        .group_by(T.c.unit, E.c.account_id)
    )
    nets: dict[str, dict[int, int]] = {}
    for unit, account, total in rows:
        nets.setdefault(unit, {})[int(account)] = int(total or 0)
    when = await conn.execute(sa.select(ended.c.unit, ended.c.created))
    recent = {unit for unit, created in when if utc(created) >= since}
    return sum(abs(n[a]) for unit, n in nets.items() if unit in recent and a in n and b in n)
