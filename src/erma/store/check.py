"""The ledger's invariants, checked against the database: :func:`breaches` lists every breach as a sentence.

1. Every transaction's entries sum to zero.
2. All balances sum to zero (beans are only moved, never made, outside the issuance account).
3. The issuance account is negative by exactly what was granted (sign-up and relief), and appears in
   grants only.
4. Every cached balance equals the sum of its account's entries, and each entry's ``balance_after`` is the
   running sum of its account's entries.
5. No user or escrow balance is, or ever was, below zero.
6. Each unit has at most one hold and at most one terminal transaction (settle, refund or forfeit), keyed
   ``{unit}:hold`` and ``{unit}:end``; escrow entries belong to their own unit's transactions.
7. A unit with a terminal transaction has nothing left in escrow.

Time-based checks (escrow held too long) are left to the server, which owns the clock.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from erma.store.schema import TERMINAL_KINDS
from erma.store.schema import accounts as A
from erma.store.schema import entries as E
from erma.store.schema import transactions as T

#: At most this many examples per kind of breach (then a count of the rest).
EXAMPLES = 10

GRANT_KINDS = ("grant", "relief")


def _report(out: list[str], rows: Sequence[Any], sentence: Callable[[Any], str]) -> None:
    out.extend(sentence(row) for row in rows[:EXAMPLES])
    if len(rows) > EXAMPLES:
        out.append(f"… and {len(rows) - EXAMPLES} more like the last.")


async def breaches(conn: AsyncConnection) -> list[str]:
    """Every breach of the invariants above, as a sentence; ``[]`` if the ledger is sound."""
    out: list[str] = []

    async def rows(q: sa.Executable) -> list[Any]:
        return list((await conn.execute(q)).all())

    # 1. Transactions balance.
    q = (
        sa.select(T.c.id, T.c.key, sa.func.sum(E.c.delta).label("total"))
        .select_from(E.join(T, T.c.id == E.c.transaction_id))
        .group_by(T.c.id, T.c.key)
        .having(sa.func.sum(E.c.delta) != 0)
        .order_by(T.c.id)
    )
    _report(
        out, await rows(q), lambda r: f"Transaction {r.id} ({r.key}) has entries summing to {r.total}, not 0."
    )

    # 2. Balances sum to zero.
    total = (await conn.execute(sa.select(sa.func.coalesce(sa.func.sum(A.c.balance), 0)))).scalar_one()
    if total != 0:
        out.append(f"The balances of all accounts sum to {total}, not 0.")

    # 3. Issuance is minus what was granted, and only grants touch it.
    issuance = (await conn.execute(sa.select(A.c.id, A.c.balance).where(A.c.kind == "issuance"))).all()
    if len(issuance) != 1:
        out.append(f"There are {len(issuance)} issuance accounts, not 1.")
    granted = (
        await conn.execute(
            sa.select(sa.func.coalesce(sa.func.sum(E.c.delta), 0))
            .select_from(E.join(T, T.c.id == E.c.transaction_id).join(A, A.c.id == E.c.account_id))
            .where(T.c.kind.in_(GRANT_KINDS), A.c.kind != "issuance")
        )
    ).scalar_one()
    for row in issuance:
        if row.balance != -granted:
            out.append(f"The issuance account holds {row.balance}, but {granted} beans were granted.")
    q = (
        sa.select(T.c.id, T.c.key, T.c.kind)
        .select_from(E.join(T, T.c.id == E.c.transaction_id).join(A, A.c.id == E.c.account_id))
        .where(A.c.kind == "issuance", T.c.kind.not_in(GRANT_KINDS))
        .order_by(T.c.id)
    )
    _report(
        out, await rows(q), lambda r: f"Transaction {r.id} ({r.key}) is a {r.kind} but moves issuance beans."
    )

    # 4. Cached balances and running balances agree with the entries.
    sums = (
        sa.select(E.c.account_id, sa.func.sum(E.c.delta).label("total")).group_by(E.c.account_id).subquery()
    )
    q = (
        sa.select(A.c.id, A.c.name, A.c.balance, sa.func.coalesce(sums.c.total, 0).label("total"))
        .select_from(A.outerjoin(sums, sums.c.account_id == A.c.id))
        .where(A.c.balance != sa.func.coalesce(sums.c.total, 0))
        .order_by(A.c.id)
    )
    _report(
        out,
        await rows(q),
        lambda r: f"Account {r.id} ({r.name}) has balance {r.balance} but its entries sum to {r.total}.",
    )
    running = sa.select(
        E.c.id,
        E.c.account_id,
        E.c.balance_after,
        sa.func.sum(E.c.delta).over(partition_by=E.c.account_id, order_by=E.c.id).label("running"),
    ).subquery()
    q = sa.select(running).where(running.c.running != running.c.balance_after).order_by(running.c.id)
    _report(
        out,
        await rows(q),
        lambda r: (
            f"Entry {r.id} of account {r.account_id} records balance {r.balance_after}, "
            f"but the entries up to it sum to {r.running}."
        ),
    )

    # 5. Nothing below zero but issuance, now or ever.
    q = (
        sa.select(A.c.id, A.c.name, A.c.balance)
        .where(A.c.kind != "issuance", A.c.balance < 0)
        .order_by(A.c.id)
    )
    _report(out, await rows(q), lambda r: f"Account {r.id} ({r.name}) has a negative balance, {r.balance}.")
    q = (
        sa.select(E.c.id, E.c.account_id, E.c.balance_after)
        .select_from(E.join(A, A.c.id == E.c.account_id))
        .where(A.c.kind != "issuance", E.c.balance_after < 0)
        .order_by(E.c.id)
    )
    _report(
        out,
        await rows(q),
        lambda r: f"Entry {r.id} left account {r.account_id} at a negative balance, {r.balance_after}.",
    )

    # 6. One hold and one terminal transaction per unit, keyed by the unit; escrow stays in its unit.
    for kinds, label, suffix in ((("hold",), "hold", ":hold"), (TERMINAL_KINDS, "terminal", ":end")):
        q = (
            sa.select(T.c.unit, sa.func.count().label("n"))
            .where(T.c.kind.in_(kinds))
            .group_by(T.c.unit)
            .having(sa.func.count() > 1)
            .order_by(T.c.unit)
        )
        out.extend(f"Unit {r.unit!r} has {r.n} {label} transactions, not 1." for r in await rows(q))
        q = (
            sa.select(T.c.id, T.c.key, T.c.unit)
            .where(T.c.kind.in_(kinds), sa.or_(T.c.unit.is_(None), T.c.key != T.c.unit + suffix))
            .order_by(T.c.id)
        )
        out.extend(
            f"Transaction {r.id} is a {label} transaction of unit {r.unit!r} but its key is {r.key!r}, "
            f"not {str(r.unit) + suffix!r}."
            for r in await rows(q)
        )
    q = (
        sa.select(E.c.id, T.c.id.label("tx"), T.c.key, A.c.name)
        .select_from(E.join(T, T.c.id == E.c.transaction_id).join(A, A.c.id == E.c.account_id))
        .where(A.c.kind == "escrow", sa.or_(T.c.unit.is_(None), A.c.name_key != "escrow:" + T.c.unit))
        .order_by(E.c.id)
    )
    _report(
        out,
        await rows(q),
        lambda r: f"Entry {r.id} moves beans of {r.name} in transaction {r.tx} ({r.key}), not of that unit.",
    )

    # 7. Ended units have an empty escrow.
    q = (
        sa.select(T.c.unit, A.c.balance)
        .select_from(T.join(A, A.c.name_key == "escrow:" + T.c.unit))
        .where(T.c.kind.in_(TERMINAL_KINDS), A.c.balance != 0)
        .order_by(T.c.unit)
    )
    _report(
        out,
        await rows(q),
        lambda r: f"Unit {r.unit!r} has ended but {r.balance} beans are still in its escrow.",
    )
    return out
