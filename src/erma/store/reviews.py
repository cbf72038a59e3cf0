"""Reviews (复盘) kept with the records: one per stored hand and seat, written once and then read.

A review is the coach's JSON for one seat of a hand (``erma review --json``); the store keeps it as given,
beside a small summary of that seat (decisions, agreement, mistakes, value lost) that the per-player trend
reads without loading whole reviews. The first review written for a (record, seat) stays: a second write,
from a concurrent computation in another process, changes nothing.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from erma.store.schema import record_players as RP
from erma.store.schema import records as R
from erma.store.schema import reviews as RV
from erma.store.schema import upsert, utc


async def save(
    conn: AsyncConnection, record_id: int, seat: int, review: dict[str, Any], summary: dict[str, Any]
) -> bool:
    """Insert the review unless one is there; True if this call wrote it."""
    stmt = (
        upsert(conn, RV)
        .values(record_id=record_id, seat=seat, review=review, summary=summary)
        .on_conflict_do_nothing(index_elements=["record_id", "seat"])
        .returning(RV.c.record_id)
    )
    return (await conn.execute(stmt)).first() is not None


async def get(conn: AsyncConnection, record_id: int, seat: int) -> dict[str, Any] | None:
    """The stored review of (record, seat) as ``{"review", "created"}``, or None."""
    q = sa.select(RV.c.review, RV.c.created).where(RV.c.record_id == record_id, RV.c.seat == seat)
    row = (await conn.execute(q)).first()
    if row is None:
        return None
    return {"review": row.review, "created": utc(row.created).isoformat()}


async def recent(conn: AsyncConnection, account_id: int, limit: int) -> list[dict[str, Any]]:
    """The account's reviewed hands (its own seat only), newest hand first: ``id`` (the record), ``created``
    (the hand's time), ``rules``, ``room``, ``seat`` and the review's ``summary``."""
    q = (
        sa.select(R.c.id, R.c.created, R.c.summary.label("hand"), RV.c.seat, RV.c.summary)
        .select_from(
            RP.join(RV, sa.and_(RV.c.record_id == RP.c.record_id, RV.c.seat == RP.c.seat)).join(
                R, R.c.id == RP.c.record_id
            )
        )
        .where(RP.c.account_id == account_id)
        .order_by(R.c.id.desc())
        .limit(limit)
    )
    return [
        {
            "id": r.id,
            "created": utc(r.created).isoformat(),
            "rules": (r.hand or {}).get("rules"),
            "room": (r.hand or {}).get("room"),
            "seat": r.seat,
            "summary": r.summary,
        }
        for r in (await conn.execute(q)).all()
    ]
