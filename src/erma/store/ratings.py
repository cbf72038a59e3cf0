"""Ratings in the store (评分): the rating step inside a hand's terminal ledger transaction, the
leaderboard, a player's profile, and the rebuild from the stored rated hands.

The step (:func:`apply`) runs in the same database transaction as the hand's settlement
(:meth:`erma.store.Store.settle` / ``forfeit`` / ``refund`` with ``rated=``): the rating rows of the hand's
players are locked (after the ledger's own locks, in ascending account order), read, advanced by
:func:`erma.ratings.play`, written, and the hand appended to ``rated_hands`` with each seat's before and
after.
So a rating never moves without the beans, nor the beans without the rating. Any two hands that share a
player are serialised by that player's rating row, and their ``rated_hands`` ids follow that order: replaying
the stored hands in id order (:func:`rebuild`) gives every rating again, bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from erma.errors import InvalidInputError
from erma.ratings import (
    FRESH,
    LEVELS,
    Hand,
    Rank,
    Rating,
    Standing,
    anchored,
    anchors,
    family,
    play,
    replay,
)
from erma.store.schema import accounts as A
from erma.store.schema import rated_hand_players as HP
from erma.store.schema import rated_hands as H
from erma.store.schema import ratings as RT

BOT_PREFIX = "bot:"


@dataclass(frozen=True, slots=True)
class RatedHand:
    """What a hand's settlement tells the ratings: plain values, no tiles."""

    family: str
    """The rule family (``standard`` or ``wenzhou``)."""
    accounts: tuple[int, int]
    """The two accounts in seat order."""
    winner: int | None
    """The winning seat, or ``None`` for a draw (流局) or an escape (see ``escaper``)."""
    escaper: int | None = None
    """The seat that escaped (逃跑): it loses."""
    fans: int = 0
    """The winner's fan total (番数)."""
    dealt_in: bool = False
    """The loser discarded the winning tile (点炮)."""

    def checked(self) -> RatedHand:
        """Itself, or :class:`InvalidInputError` naming what is wrong."""
        family(self.family)
        a = self.accounts
        if not isinstance(a, tuple) or len(a) != 2 or any(type(x) is not int for x in a) or a[0] == a[1]:
            raise InvalidInputError(f"rated hand accounts {a!r}: expected two different account ids")
        for what, seat in (("winner", self.winner), ("escaper", self.escaper)):
            if seat is not None and seat not in (0, 1):
                raise InvalidInputError(f"rated hand {what} {seat!r}: expected 0, 1 or None")
        if self.winner is not None and self.escaper is not None:
            raise InvalidInputError("a rated hand has a winner or an escaper, not both")
        if type(self.fans) is not int or self.fans < 0:
            raise InvalidInputError(f"rated hand fans {self.fans!r}: expected an int ≥ 0")
        return self


def anchor_of(name: str) -> Rating | None:
    """The fixed rating of a bot account's level (``bot:<level>``), or ``None`` (a person, or a bot with no
    anchor row: rated like a person)."""
    if not name.startswith(BOT_PREFIX):
        return None
    return anchors().get(name[len(BOT_PREFIX) :])


def _insert(conn: AsyncConnection) -> Any:
    return (postgresql if conn.dialect.name == "postgresql" else sqlite).insert(RT)


def _standing(row: Any) -> Standing:
    return Standing(Rating(row.mu, row.sigma), Rank(row.level, row.points), row.hands)


async def apply(conn: AsyncConnection, unit: str, hand: RatedHand) -> None:
    """Rate one hand inside the caller's transaction (the hand's terminal ledger transaction)."""
    fam = family(hand.family).value
    ids = list(hand.accounts)
    names = {
        r.id: r.name
        for r in await conn.execute(sa.select(A.c.id, A.c.name).where(A.c.id.in_(ids), A.c.kind == "user"))
    }
    missing = [a for a in ids if a not in names]
    if missing:
        raise InvalidInputError(f"rated hand {unit!r}: no player account(s) {missing}")
    fixed_ratings = [anchor_of(names[a]) for a in ids]
    people = sorted(a for a, anchor in zip(ids, fixed_ratings, strict=True) if anchor is None)
    if people:
        fresh = [
            {
                "account_id": a,
                "family": fam,
                "mu": FRESH.rating.mu,
                "sigma": FRESH.rating.sigma,
                "level": FRESH.rank.level,
                "points": FRESH.rank.points,
                "hands": 0,
            }
            for a in people
        ]
        await conn.execute(_insert(conn).values(fresh).on_conflict_do_nothing())
        q = (
            sa.select(RT)
            .where(RT.c.family == fam, RT.c.account_id.in_(people))
            .order_by(RT.c.account_id)
            .with_for_update()
        )
        rows = {r.account_id: _standing(r) for r in await conn.execute(q)}
    else:
        rows = {}
    before = tuple(
        anchored(anchor) if anchor is not None else rows[a]
        for a, anchor in zip(ids, fixed_ratings, strict=True)
    )
    fixed = (fixed_ratings[0] is not None, fixed_ratings[1] is not None)
    after = play((before[0], before[1]), hand.winner, escaper=hand.escaper, fixed=fixed)
    hand_id = (
        await conn.execute(
            sa.insert(H)
            .values(unit=unit, family=fam, winner=hand.winner, escaper=hand.escaper)
            .returning(H.c.id)
        )
    ).scalar_one()
    winner = hand.winner if hand.escaper is None else 1 - hand.escaper
    await conn.execute(
        sa.insert(HP),
        [
            {
                "hand_id": hand_id,
                "seat": seat,
                "account_id": ids[seat],
                "anchor": fixed[seat],
                "fans": hand.fans if winner == seat else 0,
                "dealt_in": hand.dealt_in and winner == 1 - seat,
                "mu_before": before[seat].rating.mu,
                "sigma_before": before[seat].rating.sigma,
                "mu_after": after[seat].rating.mu,
                "sigma_after": after[seat].rating.sigma,
                "level_after": after[seat].rank.level,
                "points_after": after[seat].rank.points,
            }
            for seat in (0, 1)
        ],
    )
    for seat in (0, 1):
        if fixed[seat]:
            continue
        s = after[seat]
        await conn.execute(
            sa.update(RT)
            .where(RT.c.account_id == ids[seat], RT.c.family == fam)
            .values(
                mu=s.rating.mu,
                sigma=s.rating.sigma,
                level=s.rank.level,
                points=s.rank.points,
                hands=s.hands,
            )
        )


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
    """A standing as the API shows it: rank, rating, its 90% interval, rated hands."""
    lo, hi = standing.rating.interval()
    return {
        "rank": standing.rank.describe(),
        "rating": {"mu": standing.rating.mu, "sigma": standing.rating.sigma, "interval": [lo, hi]},
        "hands": standing.hands,
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
        {"position": i + 1, "name": r.name, "account_id": r.account_id, **describe(_standing(r))}
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
                **describe(_standing(row)),
            }
    return {"family": fam, "players": total, "top": top, "me": me}


async def profile(conn: AsyncConnection, account_id: int, history: int) -> dict[str, Any]:
    """A player's standing and figures per family, and the rating history (the last ``history`` hands)."""
    out: dict[str, Any] = {}
    rows = {r.family: r for r in await conn.execute(sa.select(RT).where(RT.c.account_id == account_id))}
    me = HP.alias("me")
    for fam in ("standard", "wenzhou"):
        row = rows.get(fam)
        standing = _standing(row) if row is not None else FRESH
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


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """What :func:`rebuild` found."""

    hands: int
    """Rated hands replayed."""
    standings: int
    """(account, family) standings recomputed."""
    differences: list[str]
    """Each stored standing that differs from the replay (or is missing, or has no hands), as a sentence."""


async def rebuild(conn: AsyncConnection, write: bool) -> Rebuilt:
    """Replay every rated hand in id order and compare with the stored standings; with ``write``, store the
    replay's values where they differ (and drop standings the replay does not have)."""
    names = {r.id: r.name for r in await conn.execute(sa.select(A.c.id, A.c.name).where(A.c.kind == "user"))}
    q = (
        sa.select(H.c.id, H.c.family, H.c.winner, H.c.escaper, HP.c.seat, HP.c.account_id)
        .select_from(H.join(HP, HP.c.hand_id == H.c.id))
        .order_by(H.c.id, HP.c.seat)
    )
    rows = list(await conn.execute(q))
    hands: list[Hand] = []
    for i in range(0, len(rows), 2):
        r0, r1 = rows[i], rows[i + 1]
        accounts = (r0.account_id, r1.account_id)
        hands.append(
            Hand(
                r0.family,
                accounts,
                r0.winner,
                r0.escaper,
                (anchor_of(names[accounts[0]]), anchor_of(names[accounts[1]])),
            )
        )
    now = replay(hands)
    stored = {(r.account_id, r.family): r for r in await conn.execute(sa.select(RT))}
    diffs: list[str] = []
    for key, s in sorted(now.items()):
        r = stored.get(key)
        got = _standing(r) if r is not None else None
        if got != s:
            diffs.append(f"account {key[0]} {key[1]}: stored {got}, replay {s}")
            if write:
                values = {
                    "mu": s.rating.mu,
                    "sigma": s.rating.sigma,
                    "level": s.rank.level,
                    "points": s.rank.points,
                    "hands": s.hands,
                }
                if r is None:
                    await conn.execute(sa.insert(RT).values(account_id=key[0], family=key[1], **values))
                else:
                    await conn.execute(
                        sa.update(RT).where(RT.c.account_id == key[0], RT.c.family == key[1]).values(**values)
                    )
    for key in sorted(set(stored) - set(now)):
        diffs.append(f"account {key[0]} {key[1]}: stored but no rated hand")
        if write:
            await conn.execute(sa.delete(RT).where(RT.c.account_id == key[0], RT.c.family == key[1]))
    return Rebuilt(len(hands), len(now), diffs)


LEVEL_NAMES = [{"zh": lv.zh, "en": lv.en, "threshold": lv.threshold} for lv in LEVELS]
