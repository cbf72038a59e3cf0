"""Game records (牌谱): a finished hand's JSON record and summary, one per settlement unit, linked to its
accounts in seat order; an account's game history reads them back, newest first.

The functions here run inside a transaction the :class:`~erma.store.store.Store` opens.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from erma.errors import InvalidInputError
from erma.store.inputs import check_id, check_json, check_unit
from erma.store.ledger import lock_users
from erma.store.schema import record_players as RP
from erma.store.schema import records as R
from erma.store.schema import utc


def check(unit: str, account_ids: list[int], record: dict[str, Any], summary: dict[str, Any]) -> None:
    """:class:`InvalidInputError` for a bad unit, account ids (a non-empty list, no repeats) or JSON."""
    check_unit(unit)
    if not isinstance(account_ids, list | tuple) or not account_ids:
        raise InvalidInputError(f"account ids {account_ids!r}: expected a non-empty list")
    for a in account_ids:
        check_id(a)
    if len(set(account_ids)) != len(account_ids):
        raise InvalidInputError(f"account ids {account_ids!r}: repeated")
    for what, value in (("record", record), ("summary", summary)):
        check_json(what, value, f"for unit {unit!r}")


async def of_unit(conn: AsyncConnection, unit: str) -> int | None:
    """The id of the unit's record, or ``None``."""
    return (await conn.execute(sa.select(R.c.id).where(R.c.unit == unit))).scalar_one_or_none()


async def save(
    conn: AsyncConnection, unit: str, account_ids: list[int], record: dict[str, Any], summary: dict[str, Any]
) -> int:
    """Insert the unit's record unless it has one; the record's id."""
    found = await of_unit(conn, unit)
    if found is not None:
        return found
    await lock_users(conn, account_ids)
    rid = (
        await conn.execute(sa.insert(R).values(unit=unit, record=record, summary=summary).returning(R.c.id))
    ).scalar_one()
    await conn.execute(
        sa.insert(RP), [{"record_id": rid, "account_id": a, "seat": i} for i, a in enumerate(account_ids)]
    )
    return int(rid)


async def games(conn: AsyncConnection, account_id: int, limit: int) -> list[dict[str, Any]]:
    """The account's last ``limit`` records, newest first: ``id``, ``unit``, ``created``, ``summary``."""
    q = (
        sa.select(R.c.id, R.c.unit, R.c.created, R.c.summary)
        .select_from(RP.join(R, R.c.id == RP.c.record_id))
        .where(RP.c.account_id == account_id)
        .order_by(R.c.id.desc())
        .limit(limit)
    )
    return [
        {"id": r.id, "unit": r.unit, "created": utc(r.created).isoformat(), "summary": r.summary}
        for r in (await conn.execute(q)).all()
    ]


async def get(conn: AsyncConnection, record_id: int) -> dict[str, Any] | None:
    """The stored record with its accounts in seat order (see :meth:`Store.get_record`), or ``None``."""
    row = (await conn.execute(sa.select(R).where(R.c.id == record_id))).first()
    q = sa.select(RP.c.account_id).where(RP.c.record_id == record_id).order_by(RP.c.seat)
    ids = list((await conn.execute(q)).scalars())
    if row is None:
        return None
    return {
        "id": row.id,
        "unit": row.unit,
        "created": utc(row.created).isoformat(),
        "account_ids": ids,
        "summary": row.summary,
        "record": row.record,
    }
