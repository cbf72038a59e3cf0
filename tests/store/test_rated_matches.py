"""Rated matches in the store: a block of hands is rated once, by its net points, when its last hand settles
(in that transaction); a seat that leaves mid-block loses; a block ended between hands is rated by
``close_match``; the rebuild finds the blocks from the stored hands and equals what is stored."""

from __future__ import annotations

import asyncio
import random
import secrets

import pytest
import sqlalchemy as sa

from erma.errors import InvalidInputError
from erma.ratings import FRESH, play
from erma.store import Store
from erma.store.house import bot_account
from erma.store.ratings import RatedHand
from erma.store.schema import rated_matches, ratings
from tests.store.conftest import opened


async def hand(
    s: Store,
    ids: tuple[int, int],
    points: tuple[int, int],
    block: str,
    index: int,
    closes: bool,
    escaper: int | None = None,
) -> bool:
    """One settled hand of a block: the seat with the positive points won it (an escape: forfeit)."""
    u = f"{block}:{index}"
    await s.hold(u, {ids[0]: 100, ids[1]: 100})
    winner = None if escaper is not None or points[0] == points[1] else (0 if points[0] > points[1] else 1)
    rated = RatedHand(
        "standard", ids, winner, escaper, points=points, block=block, index=index, closes=closes
    )
    if escaper is not None:
        return await s.forfeit(u, ids[escaper], 40, rated=rated)
    if winner is None:
        return await s.refund(u, rated=rated)
    return await s.settle(u, {ids[winner]: abs(points[0]), ids[1 - winner]: -abs(points[0])}, rated=rated)


async def standing(s: Store, account: int) -> dict:  # type: ignore[type-arg]
    name = (await s.account(account)).name  # type: ignore[union-attr]
    return (await s.profile(name))["families"]["standard"]  # type: ignore[index,no-any-return]


async def match_rows(s: Store, *blocks: str) -> list[tuple[str, int | None, int | None, int]]:
    """The rated matches of these blocks, in the order they were rated."""
    async with s.engine.connect() as conn:
        q = (
            sa.select(
                rated_matches.c.block, rated_matches.c.winner, rated_matches.c.leaver, rated_matches.c.hands
            )
            .where(rated_matches.c.block.in_(blocks))
            .order_by(rated_matches.c.id)
        )
        return [tuple(r) for r in await conn.execute(q)]  # type: ignore[misc]


def block() -> str:
    return f"m-{secrets.token_hex(5)}:b1"


def test_a_block_is_rated_once_by_its_net_points_at_its_last_hand(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, b = (await s.create_guest()).id, (await s.create_guest()).id
            m = block()
            # b wins two hands of three, a wins the big one: a has more points over the block
            assert await hand(s, (a, b), (-2, 2), m, 1, False)
            assert await hand(s, (a, b), (-3, 3), m, 2, False)
            mid = await standing(s, a)
            assert mid["hands_played"] == 2 and mid["matches"] == 0  # stored, not yet rated
            assert mid["rating"]["mu"] == FRESH.rating.mu and mid["rank"]["points"] == FRESH.rank.points
            assert await match_rows(s, m) == []
            assert await hand(s, (a, b), (12, -12), m, 3, True)
            want = play((FRESH, FRESH), 0, hands=3)
            pa, pb = await standing(s, a), await standing(s, b)
            assert pa["rating"]["mu"] == want[0].rating.mu and pb["rating"]["mu"] == want[1].rating.mu
            assert (pa["matches"], pa["hands"], pa["wins"]) == (1, 3, 1)  # one match won, one hand of 3 won
            assert pa["rank"]["level"] == want[0].rank.level and pa["rank"]["points"] == want[0].rank.points
            assert [p["mu"] for p in pa["history"]] == [FRESH.rating.mu] * 2 + [want[0].rating.mu]
            assert await match_rows(s, m) == [(m, 0, None, 3)]
            with pytest.raises(InvalidInputError, match="already ended"):
                await hand(s, (a, b), (1, -1), m, 4, True)  # the block is closed
            assert await hand(s, (b, a), (1, -1), f"{m}x", 1, False)
            with pytest.raises(InvalidInputError, match="is between"):  # a block keeps its seats
                await hand(s, (a, b), (1, -1), f"{m}x", 2, True)

    asyncio.run(body())


def test_equal_points_draw_the_match_and_move_no_rating(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, b = (await s.create_guest()).id, (await s.create_guest()).id
            m = block()
            assert await hand(s, (a, b), (5, -5), m, 1, False)
            assert await hand(s, (a, b), (0, 0), m, 2, False)  # a drawn hand (流局)
            assert await hand(s, (a, b), (-5, 5), m, 3, True)
            pa = await standing(s, a)
            assert (pa["rating"]["mu"], pa["rating"]["sigma"]) == (FRESH.rating.mu, FRESH.rating.sigma)
            assert (pa["matches"], pa["hands"], pa["hands_played"]) == (1, 3, 3)
            assert await match_rows(s, m) == [(m, None, None, 3)]

    asyncio.run(body())


def test_a_seat_that_escapes_mid_block_loses_the_match_whatever_the_points(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, b = (await s.create_guest()).id, (await s.create_guest()).id
            m = block()
            assert await hand(s, (a, b), (30, -30), m, 1, False)
            # a far ahead, then escapes in hand 2 of 8: the escape ends the block, a loses it
            assert await hand(s, (a, b), (-10, 10), m, 2, False, escaper=0)
            want = play((FRESH, FRESH), None, escaper=0, hands=2)
            pa, pb = await standing(s, a), await standing(s, b)
            assert pa["rating"]["mu"] == want[0].rating.mu < FRESH.rating.mu < pb["rating"]["mu"]
            assert await match_rows(s, m) == [(m, 1, 0, 2)]
            assert (await s.rebuild_ratings(write=False)).differences == []

    asyncio.run(body())


def test_a_block_ended_between_hands_is_rated_once_by_close_match(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, b = (await s.create_guest()).id, (await s.create_guest()).id
            bot = await bot_account(s, "greedy")
            m1, m2, m3 = block(), block(), block()
            # a leaves between hands while ahead: a loses
            assert await hand(s, (a, b), (20, -20), m1, 1, False)
            assert await s.close_match(m1, leaver=a)
            assert not await s.close_match(m1, leaver=b)  # rated once (a retry, another process)
            # the table stops with nobody leaving (a seat's balance below the entry): the points decide
            assert await hand(s, (a, bot), (-4, 4), m2, 1, False)
            assert await hand(s, (a, bot), (-1, 1), m2, 2, False)
            assert await s.close_match(m2, leaver=None)
            assert not await s.close_match(m3)  # no rated hand in it: nothing to rate
            assert await match_rows(s, m1, m2, m3) == [(m1, 1, 0, 1), (m2, 1, None, 2)]
            first = play((FRESH, FRESH), None, escaper=0, hands=1)
            pa = await standing(s, a)
            assert pa["matches"] == 2 and pa["rating"]["mu"] < first[0].rating.mu  # lost both
            assert (await standing(s, b))["rating"]["mu"] == first[1].rating.mu
            assert (await s.rebuild_ratings(write=False)).differences == []
            with pytest.raises(InvalidInputError, match="block"):
                await s.close_match("")

    asyncio.run(body())


def test_rebuild_finds_the_blocks_and_equals_stored_under_concurrent_matches(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            players = [(await s.create_guest()).id for _ in range(5)]
            ids = [*players, await bot_account(s, "level2")]
            rng = random.Random(18)
            earlier = await s.rebuild_ratings(write=False)  # (the database is shared by the tests)

            plans = []  # each table's match of up to 4 hands, drawn before any runs
            for t in range(40):
                pair = rng.sample(ids, 2)
                n = rng.randint(1, 4)
                hands = [
                    (rng.choice((-8, -2, 0, 3, 6)), 0 if rng.random() < 0.05 else None) for _ in range(n)
                ]
                plans.append((t, (pair[0], pair[1]), hands))

            async def one(t: int, pair: tuple[int, int], hands: list[tuple[int, int | None]]) -> None:
                m = f"t{t}-{secrets.token_hex(3)}:b1"
                for i, (pts, escaper) in enumerate(hands, 1):
                    last = i == len(hands) or escaper is not None
                    assert await hand(s, pair, (pts, -pts), m, i, last, escaper)
                    if last:
                        return

            for start in range(0, 40, 8):  # tables at once, several sharing players
                await asyncio.gather(*(one(*plan) for plan in plans[start : start + 8]))
            await hand(s, (players[0], players[1]), (5, -5), "open:b1", 1, False)  # a block still open
            done = await s.rebuild_ratings(write=False)
            assert done.differences == [] and done.matches == earlier.matches + 40
            assert done.hands >= earlier.hands + 41
            async with s.engine.begin() as conn:  # a stored outcome its hands do not give is reported
                first = (await conn.execute(sa.select(rated_matches).order_by(rated_matches.c.id))).first()
                assert first is not None
                flipped = 0 if first.winner != 0 else 1
                await conn.execute(
                    sa.update(rated_matches).where(rated_matches.c.id == first.id).values(winner=flipped)
                )
            found = await s.rebuild_ratings(write=False)
            assert any(first.block in d and "its hands give" in d for d in found.differences)
            async with s.engine.begin() as conn:
                await conn.execute(
                    sa.update(rated_matches).where(rated_matches.c.id == first.id).values(winner=first.winner)
                )
                await conn.execute(
                    sa.update(ratings).where(ratings.c.account_id == players[2]).values(sigma=1.0)
                )
            found = await s.rebuild_ratings(write=True)
            assert len(found.differences) >= 1 and str(players[2]) in found.differences[0]
            assert (await s.rebuild_ratings(write=False)).differences == []
            assert await s.check() == []

    asyncio.run(body())
