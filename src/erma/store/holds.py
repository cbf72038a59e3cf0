"""Open holds (未结押注): a unit whose stakes are in escrow with no terminal transaction (settle, refund or
forfeit) yet. A hand in play has one; one that stays open long after its hand is a stake stranded by a crash
or an outage: ``erma ledger check`` reports it (:func:`erma.store.cli.ledger_check`) and the server's sweeper
ends it (:mod:`erma.server.sweeper`).

Ages are measured by the database's clock (the hold's ``created`` against ``CURRENT_TIMESTAMP``), so every
process and tool agrees on them.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from erma.store.schema import accounts as A
from erma.store.schema import transactions as T
from erma.store.schema import utc

_NOW = sa.func.current_timestamp(type_=sa.DateTime(timezone=True))


@dataclass(frozen=True)
class OpenHold:
    """A unit held and not ended."""

    unit: str
    beans: int
    """What its escrow holds."""
    age_s: float
    """Seconds since the hold, by the database's clock."""

    @property
    def match(self) -> str:
        """The match of a table's unit (``{match}:{hand}``)."""
        return self.unit.rpartition(":")[0] or self.unit

    def sentence(self) -> str:
        minutes = self.age_s / 60
        return (
            f"Unit {self.unit!r} has held {self.beans} beans in escrow for {minutes:.1f} min with no settle, "
            "refund or forfeit (an open hold)."
        )


async def open_holds(conn: AsyncConnection, older_than_s: float = 0.0) -> list[OpenHold]:
    """The open holds at least ``older_than_s`` seconds old, oldest first."""
    end = sa.alias(T, "ended")
    ended = sa.exists().where(end.c.key == T.c.unit + ":end")
    q = (
        sa.select(T.c.unit, A.c.balance, T.c.created, _NOW.label("now"))
        .select_from(T.join(A, A.c.name_key == "escrow:" + T.c.unit))
        .where(T.c.kind == "hold", A.c.kind == "escrow", A.c.balance > 0, ~ended)
        .order_by(T.c.created, T.c.id)
    )
    out = []
    for r in (await conn.execute(q)).all():
        age = (utc(r.now) - utc(r.created)).total_seconds()
        if age >= older_than_s:
            out.append(OpenHold(unit=r.unit, beans=int(r.balance), age_s=max(0.0, age)))
    return out
