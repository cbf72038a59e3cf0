"""Standings read back (排行榜): a rule family's leaderboard, a player's rating and public profile.

The rows are written by :mod:`erma.store.ratings` when rated matches end; the functions here only read them,
inside a transaction the :class:`~erma.store.store.Store` opens.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from erma.ratings import FRESH, Standing, family
from erma.store.ratings import anchor_of, row_standing
from erma.store.schema import accounts as A
from erma.store.schema import rated_hand_players as HP
from erma.store.schema import rated_hands as H
from erma.store.schema import ratings as RT


async def rating_of(conn: AsyncConnection, account_id: int, fam: str) -> float | None:
    """The account's mu in the family (its anchor's for a bot), or ``None`` if it has no rated hand there."""
    fam = family(fam).value
    name = (await conn.execute(sa.select(A.c.name).where(A.c.id == account_id))).scalar_one_or_none()
    anchor = anchor_of(name) if name is not None else None
    if anchor is not None:
        return anchor.mu
    q = sa.select(RT.c.mu).where(RT.c.account_id == account_id, RT.c.family == fam)
    mu = (await conn.execute(q)).scalar_one_or_none()
    return None if mu is None else float(mu)


def describe(standing: Standing) -> dict[str, Any]:
    """A standing as the API shows it: rank, rating, its 90% interval, the hands of its rated matches, the
    rated matches."""
    lo, hi = standing.rating.interval()
    return {
        "rank": standing.rank.describe(),
        "rating": {"mu": standing.rating.mu, "sigma": standing.rating.sigma, "interval": [lo, hi]},
        "hands": standing.hands,
        "matches": standing.matches,
    }


def _order() -> list[Any]:
    return [RT.c.level.desc(), RT.c.points.desc(), RT.c.mu.desc(), RT.c.account_id]


async def leaderboard(conn: AsyncConnection, fam: str, limit: int, account_id: int | None) -> dict[str, Any]:
    """The top ``limit`` of a family (by level, points, then mu), and ``account_id``'s own place."""
    fam = family(fam).value
    q = (
        sa.select(RT, A.c.name)
        .select_from(RT.join(A, A.c.id == RT.c.account_id))
        .where(RT.c.family == fam)
        .order_by(*_order())
        .limit(limit)
    )
    top = [
        {"position": i + 1, "name": r.name, "account_id": r.account_id, **describe(row_standing(r))}
        for i, r in enumerate(await conn.execute(q))
    ]
    total = (
        await conn.execute(sa.select(sa.func.count()).select_from(RT).where(RT.c.family == fam))
    ).scalar_one()
    me = None
    if account_id is not None:
        row = (
            await conn.execute(
                sa.select(RT, A.c.name)
                .select_from(RT.join(A, A.c.id == RT.c.account_id))
                .where(RT.c.family == fam, RT.c.account_id == account_id)
            )
        ).first()
        if row is not None:
            ahead = sa.or_(
                RT.c.level > row.level,
                sa.and_(RT.c.level == row.level, RT.c.points > row.points),
                sa.and_(RT.c.level == row.level, RT.c.points == row.points, RT.c.mu > row.mu),
                sa.and_(
                    RT.c.level == row.level,
                    RT.c.points == row.points,
                    RT.c.mu == row.mu,
                    RT.c.account_id < row.account_id,
                ),
            )
            n = (
                await conn.execute(
                    sa.select(sa.func.count()).select_from(RT).where(RT.c.family == fam, ahead)
                )
            ).scalar_one()
            me = {
                "position": n + 1,
                "name": row.name,
                "account_id": row.account_id,
                **describe(row_standing(row)),
            }
    return {"family": fam, "players": total, "top": top, "me": me}


async def profile(conn: AsyncConnection, account_id: int, history: int) -> dict[str, Any]:
    """A player's standing and figures per family, and the rating history (the last ``history`` hands)."""
    out: dict[str, Any] = {}
    rows = {r.family: r for r in await conn.execute(sa.select(RT).where(RT.c.account_id == account_id))}
    me = HP.alias("me")
    for fam in ("standard", "wenzhou"):
        row = rows.get(fam)
        standing = row_standing(row) if row is not None else FRESH
        won = sa.or_(H.c.winner == me.c.seat, sa.and_(H.c.escaper.is_not(None), H.c.escaper != me.c.seat))
        stats = (
            await conn.execute(
                sa.select(
                    sa.func.count(),
                    sa.func.count().filter(won),
                    sa.func.sum(me.c.fans),
                    sa.func.count().filter(H.c.winner == me.c.seat),
                    sa.func.count().filter(me.c.dealt_in),
                )
                .select_from(me.join(H, H.c.id == me.c.hand_id))
                .where(me.c.account_id == account_id, H.c.family == fam)
            )
        ).one()
        hands, wins, fans, fan_wins, dealt_in = stats
        q = (
            sa.select(
                H.c.id, H.c.created, me.c.mu_after, me.c.sigma_after, me.c.level_after, me.c.points_after
            )
            .select_from(me.join(H, H.c.id == me.c.hand_id))
            .where(me.c.account_id == account_id, H.c.family == fam)
            .order_by(H.c.id.desc())
            .limit(history)
        )
        points = [
            {
                "hand": r.id,
                "created": r.created.isoformat() if hasattr(r.created, "isoformat") else str(r.created),
                "mu": r.mu_after,
                "sigma": r.sigma_after,
                "level": r.level_after,
                "points": r.points_after,
            }
            for r in await conn.execute(q)
        ][::-1]
        out[fam] = {
            **describe(standing),
            "hands_played": hands,
            "wins": wins,
            "win_rate": wins / hands if hands else None,
            "average_fans": (fans or 0) / fan_wins if fan_wins else None,
            "deal_in_rate": dealt_in / hands if hands else None,
            "history": points,
        }
    return out
