"""Ratings in the store (评分): the rating step when a rated match ends, inside the terminal ledger
transaction of its last hand, and the rebuild from the stored records (the leaderboard and a player's
profile read the standings back: :mod:`erma.store.standings`).

The rated unit is a match (一场): a block of consecutive hands between the same two seats (the room's
``rated_hands``), won by the seat with more points over the block, lost by a seat that leaves it. Every rated
hand is stored with its block and its index there (:func:`apply`, in the hand's terminal ledger transaction);
the hand that ends its block also rates the match, in that same transaction: the rating rows of the players
are locked (after the ledger's own locks, in ascending account order), read, advanced by
:func:`erma.ratings.play`, written, and the match appended to ``rated_matches``. A block that ends between
hands (a seat leaves, the table stops) is rated by :func:`close` in its own transaction. So a rating never
moves without the beans of the match's last hand, nor those beans without the rating. Any two matches that
share a player are serialised by that player's rating row, and their ``rated_matches`` ids follow that order:
replaying the stored matches in id order (:func:`rebuild`) gives every standing again, bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from erma.errors import InvalidInputError
from erma.ratings import (
    FRESH,
    LEVELS,
    Played,
    Rank,
    Rating,
    Standing,
    anchored,
    anchors,
    family,
    match_winner,
    play,
    replay,
)
from erma.store.accounts import BOT_PREFIX
from erma.store.schema import accounts as A
from erma.store.schema import rated_hand_players as HP
from erma.store.schema import rated_hands as H
from erma.store.schema import rated_matches as M
from erma.store.schema import ratings as RT
from erma.store.schema import upsert


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
    points: tuple[int, int] = (0, 0)
    """Each seat's points in the hand (the match's outcome is their sum over its block)."""
    block: str = ""
    """The rated match (block of hands) the hand belongs to; ``""``: a match of this one hand (its unit)."""
    index: int = 1
    """The hand's place in its block (1 for the first)."""
    closes: bool = True
    """The block ends with this hand (its last hand; a hand with an escaper always ends it)."""

    def checked(self) -> RatedHand:
        """Itself, or :class:`InvalidInputError` naming what is wrong."""
        family(self.family)
        p = self.points
        if not isinstance(p, tuple) or len(p) != 2 or any(type(x) is not int for x in p):
            raise InvalidInputError(f"rated hand points {p!r}: expected two ints (each seat's points)")
        if not isinstance(self.block, str) or len(self.block) > 100:
            raise InvalidInputError(f"rated hand block {self.block!r}: expected a string of at most 100")
        if type(self.index) is not int or self.index < 1:
            raise InvalidInputError(f"rated hand index {self.index!r}: expected an int ≥ 1")
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


def row_standing(row: Any) -> Standing:
    """A ``ratings`` row as a :class:`Standing`."""
    return Standing(Rating(row.mu, row.sigma), Rank(row.level, row.points), row.hands, row.matches)


async def _people(conn: AsyncConnection, what: str, ids: list[int]) -> list[Rating | None]:
    """Each account's anchor (``None`` for a person); :class:`InvalidInputError` if one is no player."""
    names = {
        r.id: r.name
        for r in await conn.execute(sa.select(A.c.id, A.c.name).where(A.c.id.in_(ids), A.c.kind == "user"))
    }
    missing = [a for a in ids if a not in names]
    if missing:
        raise InvalidInputError(f"{what}: no player account(s) {missing}")
    return [anchor_of(names[a]) for a in ids]


async def _standings(
    conn: AsyncConnection, fam: str, ids: list[int], fixed_ratings: list[Rating | None]
) -> tuple[Standing, Standing]:
    """Both seats' standings, the people's rating rows created if new and locked (ascending account id)."""
    people = sorted(a for a, anchor in zip(ids, fixed_ratings, strict=True) if anchor is None)
    rows: dict[int, Standing] = {}
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
                "matches": 0,
            }
            for a in people
        ]
        await conn.execute(upsert(conn, RT).values(fresh).on_conflict_do_nothing())
        q = (
            sa.select(RT)
            .where(RT.c.family == fam, RT.c.account_id.in_(people))
            .order_by(RT.c.account_id)
            .with_for_update()
        )
        rows = {r.account_id: row_standing(r) for r in await conn.execute(q)}
    before = [
        anchored(anchor) if anchor is not None else rows[a]
        for a, anchor in zip(ids, fixed_ratings, strict=True)
    ]
    return before[0], before[1]


async def _rate_match(
    conn: AsyncConnection,
    fam: str,
    block: str,
    ids: list[int],
    fixed_ratings: list[Rating | None],
    before: tuple[Standing, Standing],
    leaver: int | None,
) -> tuple[Standing, Standing]:
    """Rate the block's match (its hands are stored) and store it; the standings after."""
    q = (
        sa.select(HP.c.seat, HP.c.hand_points)
        .select_from(H.join(HP, HP.c.hand_id == H.c.id))
        .where(H.c.block == block)
        .order_by(H.c.id, HP.c.seat)
    )
    rows = list(await conn.execute(q))
    points = [(rows[i].hand_points or 0, rows[i + 1].hand_points or 0) for i in range(0, len(rows), 2)]
    winner = match_winner(points, leaver)
    fixed = (fixed_ratings[0] is not None, fixed_ratings[1] is not None)
    after = play(
        before, None if leaver is not None else winner, escaper=leaver, fixed=fixed, hands=len(points)
    )
    await conn.execute(
        sa.insert(M).values(block=block, family=fam, winner=winner, leaver=leaver, hands=len(points))
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
                matches=s.matches,
            )
        )
    return after


async def _closed(conn: AsyncConnection, block: str) -> bool:
    q = sa.select(M.c.id).where(M.c.block == block)
    return (await conn.execute(q)).first() is not None


async def apply(conn: AsyncConnection, unit: str, hand: RatedHand) -> None:
    """Store one rated hand inside the caller's transaction (the hand's terminal ledger transaction); if it
    ends its block, rate the match there too."""
    fam = family(hand.family).value
    ids = list(hand.accounts)
    block = hand.block or unit
    fixed_ratings = await _people(conn, f"rated hand {unit!r}", ids)
    before = await _standings(conn, fam, ids, fixed_ratings)
    if await _closed(conn, block):
        raise InvalidInputError(f"rated hand {unit!r}: its match {block!r} has already ended")
    first = (
        (
            await conn.execute(
                sa.select(HP.c.account_id)
                .select_from(H.join(HP, HP.c.hand_id == H.c.id))
                .where(H.c.block == block)
                .order_by(H.c.id, HP.c.seat)
                .limit(2)
            )
        )
        .scalars()
        .all()
    )
    if first and list(first) != ids:
        raise InvalidInputError(f"rated hand {unit!r}: match {block!r} is between {list(first)}, not {ids}")
    hand_id = (
        await conn.execute(
            sa.insert(H)
            .values(
                unit=unit,
                family=fam,
                winner=hand.winner,
                escaper=hand.escaper,
                block=block,
                block_index=hand.index,
            )
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
                "anchor": fixed_ratings[seat] is not None,
                "fans": hand.fans if winner == seat else 0,
                "dealt_in": hand.dealt_in and winner == 1 - seat,
                "hand_points": hand.points[seat],
                "mu_before": before[seat].rating.mu,
                "sigma_before": before[seat].rating.sigma,
                "mu_after": before[seat].rating.mu,
                "sigma_after": before[seat].rating.sigma,
                "level_after": before[seat].rank.level,
                "points_after": before[seat].rank.points,
            }
            for seat in (0, 1)
        ],
    )
    if hand.closes or hand.escaper is not None:
        after = await _rate_match(conn, fam, block, ids, fixed_ratings, before, hand.escaper)
        await _after(conn, hand_id, after)


async def _after(conn: AsyncConnection, hand_id: int, after: tuple[Standing, Standing]) -> None:
    """The match's last hand shows the standings after the match (the profile's history)."""
    for seat in (0, 1):
        s = after[seat]
        await conn.execute(
            sa.update(HP)
            .where(HP.c.hand_id == hand_id, HP.c.seat == seat)
            .values(
                mu_after=s.rating.mu,
                sigma_after=s.rating.sigma,
                level_after=s.rank.level,
                points_after=s.rank.points,
            )
        )


async def close(conn: AsyncConnection, block: str, leaver: int | None) -> bool:
    """Rate a match whose block ended between hands, before its last hand (a seat left, the table stopped):
    account ``leaver`` (if it is one of the seats) loses, else the points of the hands played decide. False if
    the block has no rated hand or has already been rated."""
    q = (
        sa.select(H.c.id, H.c.family, HP.c.seat, HP.c.account_id)
        .select_from(H.join(HP, HP.c.hand_id == H.c.id))
        .where(H.c.block == block)
        .order_by(H.c.id.desc(), HP.c.seat)
        .limit(2)
    )
    last = list(await conn.execute(q))
    if not last:
        return False
    fam, ids = last[0].family, [last[0].account_id, last[1].account_id]
    fixed_ratings = await _people(conn, f"rated match {block!r}", ids)
    before = await _standings(conn, fam, ids, fixed_ratings)  # (locks: a concurrent close waits here)
    if await _closed(conn, block):
        return False
    seat = ids.index(leaver) if leaver in ids else None
    after = await _rate_match(conn, fam, block, ids, fixed_ratings, before, seat)
    await _after(conn, last[0].id, after)
    return True


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """What :func:`rebuild` found."""

    hands: int
    """Rated hands read."""
    standings: int
    """(account, family) standings recomputed."""
    differences: list[str]
    """Each stored standing that differs from the replay (or is missing, or has no match), and each stored
    match whose outcome its hands do not give, as a sentence."""
    matches: int = 0
    """Rated matches replayed."""


async def rebuild(conn: AsyncConnection, write: bool) -> Rebuilt:
    """Replay every rated match in id order (its players and hands found by its block) and compare with the
    stored standings; with ``write``, store the replay's values where they differ (and drop standings the
    replay does not have)."""
    names = {r.id: r.name for r in await conn.execute(sa.select(A.c.id, A.c.name).where(A.c.kind == "user"))}
    q = (
        sa.select(H.c.block, HP.c.seat, HP.c.account_id, HP.c.hand_points)
        .select_from(H.join(HP, HP.c.hand_id == H.c.id))
        .order_by(H.c.id, HP.c.seat)
    )
    rows = list(await conn.execute(q))
    blocks: dict[str, tuple[tuple[int, int], list[tuple[int | None, int | None]]]] = {}
    for i in range(0, len(rows), 2):
        r0, r1 = rows[i], rows[i + 1]
        accounts, points = blocks.setdefault(r0.block, ((r0.account_id, r1.account_id), []))
        points.append((r0.hand_points, r1.hand_points))
    diffs: list[str] = []
    matches: list[Played] = []
    for m in await conn.execute(sa.select(M).order_by(M.c.id)):
        if m.block not in blocks:
            diffs.append(f"match {m.block}: stored but no rated hand")
            continue
        accounts, points = blocks[m.block]
        if len(points) != m.hands:
            diffs.append(f"match {m.block}: stored with {m.hands} hands, its block has {len(points)}")
        known = [(a, b) for a, b in points if a is not None and b is not None]
        if (
            len(known) == len(points) and match_winner(known, m.leaver) != m.winner
        ):  # (points kept since 0003)
            diffs.append(
                f"match {m.block}: stored winner {m.winner}, its hands give {match_winner(known, m.leaver)}"
            )
        matches.append(
            Played(
                m.family,
                accounts,
                m.winner if m.leaver is None else None,
                m.leaver,
                (anchor_of(names[accounts[0]]), anchor_of(names[accounts[1]])),
                len(points),
            )
        )
    now = replay(matches)
    stored = {(r.account_id, r.family): r for r in await conn.execute(sa.select(RT))}
    for key, s in sorted(now.items()):
        r = stored.get(key)
        got = row_standing(r) if r is not None else None
        if got != s:
            diffs.append(f"account {key[0]} {key[1]}: stored {got}, replay {s}")
            if write:
                values = {
                    "mu": s.rating.mu,
                    "sigma": s.rating.sigma,
                    "level": s.rank.level,
                    "points": s.rank.points,
                    "hands": s.hands,
                    "matches": s.matches,
                }
                if r is None:
                    await conn.execute(sa.insert(RT).values(account_id=key[0], family=key[1], **values))
                else:
                    await conn.execute(
                        sa.update(RT).where(RT.c.account_id == key[0], RT.c.family == key[1]).values(**values)
                    )
    for key in sorted(set(stored) - set(now)):
        r = stored[key]
        if r.matches == 0 and row_standing(r) == Standing(FRESH.rating, FRESH.rank, 0, 0):
            continue  # a player whose only match is still being played (its block not yet ended)
        diffs.append(f"account {key[0]} {key[1]}: stored but no rated match")
        if write:
            await conn.execute(sa.delete(RT).where(RT.c.account_id == key[0], RT.c.family == key[1]))
    return Rebuilt(len(rows) // 2, len(now), diffs, len(matches))


LEVEL_NAMES = [{"zh": lv.zh, "en": lv.en, "threshold": lv.threshold} for lv in LEVELS]
