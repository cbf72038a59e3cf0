"""Ratings in the store: rated in the hand's terminal transaction (all or nothing with the beans), bot
anchors fixed, the profile after rated hands, and the rebuild equal to what is stored (the leaderboard:
test_standings.py)."""

from __future__ import annotations

import asyncio
import random
import secrets

import pytest
import sqlalchemy as sa

from erma.errors import InvalidInputError
from erma.ratings import FRESH, anchors, play
from erma.store import Store
from erma.store.house import bot_account
from erma.store.ratings import RatedHand
from erma.store.schema import rated_hands, ratings
from tests.store.conftest import opened


def unit() -> str:
    return f"r-{secrets.token_hex(6)}"


async def rated_count(s: Store, u: str) -> int:
    async with s.engine.connect() as conn:
        q = sa.select(sa.func.count()).select_from(rated_hands).where(rated_hands.c.unit == u)
        return int((await conn.execute(q)).scalar_one())


async def hand(s: Store, a: int, b: int, winner: int | None, family: str = "standard") -> bool:
    u = unit()
    await s.hold(u, {a: 100, b: 100})
    points = (0, 0) if winner is None else (6, -6) if winner == 0 else (-6, 6)
    rated = RatedHand(
        family, (a, b), winner=winner, fans=6 if winner is not None else 0, dealt_in=True, points=points
    )
    if winner is None:
        return await s.refund(u, rated=rated)
    return await s.settle(u, {(a, b)[winner]: 50, (a, b)[1 - winner]: -50}, rated=rated)


def test_a_settlement_rates_the_hand_once(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, b = (await s.create_guest()), (await s.create_guest())
            u = unit()
            await s.hold(u, {a.id: 100, b.id: 100})
            rated = RatedHand("standard", (a.id, b.id), winner=0, fans=8, dealt_in=True, points=(8, -8))
            results = await asyncio.gather(
                *(s.settle(u, {a.id: 50, b.id: -50}, rated=rated) for _ in range(6))
            )
            assert results.count(True) == 1
            assert await rated_count(s, u) == 1
            want = play((FRESH, FRESH), 0)
            pa = (await s.profile(a.name))["families"]["standard"]  # type: ignore[index]
            pb = (await s.profile(b.name))["families"]["standard"]  # type: ignore[index]
            assert pa["rating"]["mu"] == want[0].rating.mu and pb["rating"]["mu"] == want[1].rating.mu
            assert pa["rank"]["level"] == want[0].rank.level and pa["rank"]["points"] == want[0].rank.points
            assert (
                pa["hands_played"],
                pa["wins"],
                pa["win_rate"],
                pa["average_fans"],
                pa["deal_in_rate"],
            ) == (
                1,
                1,
                1.0,
                8.0,
                0.0,
            )
            assert (pb["hands_played"], pb["wins"], pb["average_fans"], pb["deal_in_rate"]) == (
                1,
                0,
                None,
                1.0,
            )
            lo, hi = pa["rating"]["interval"]
            assert lo < pa["rating"]["mu"] < hi
            assert [p["mu"] for p in pa["history"]] == [want[0].rating.mu]
            # the other family is untouched
            assert (await s.profile(a.name))["families"]["wenzhou"]["hands_played"] == 0  # type: ignore[index]

    asyncio.run(body())


def test_a_failed_settlement_moves_no_rating(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            a, b = (await s.create_guest()), (await s.create_guest())
            u = unit()
            await s.hold(u, {a.id: 100, b.id: 100})
            stranger = 10**9  # the rating step fails inside the transaction: the beans stay held too
            with pytest.raises(InvalidInputError, match="no player account"):
                await s.settle(u, {a.id: 50, b.id: -50}, rated=RatedHand("standard", (a.id, stranger), 0))
            assert await rated_count(s, u) == 0
            assert await s.balance(a.id) == 9_900
            async with s.engine.connect() as conn:
                q = sa.select(sa.func.count()).select_from(ratings).where(ratings.c.account_id == a.id)
                assert (await conn.execute(q)).scalar_one() == 0
            with pytest.raises(InvalidInputError, match="family"):
                await s.settle(u, {a.id: 50, b.id: -50}, rated=RatedHand("riichi", (a.id, b.id), 0))
            with pytest.raises(InvalidInputError, match="winner"):
                await s.settle(u, {a.id: 50, b.id: -50}, rated=RatedHand("standard", (a.id, b.id), 2))
            won = RatedHand("standard", (a.id, b.id), 0, points=(5, -5))
            assert await s.settle(u, {a.id: 50, b.id: -50}, rated=won)
            assert await s.balance(a.id) == 10_050 and await rated_count(s, u) == 1

    asyncio.run(body())


def test_bots_are_fixed_anchors_and_draws_move_nothing(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            p = await s.create_guest()
            bot = await bot_account(s, "greedy")
            for winner in (0, 1, 0, None):
                assert await hand(s, p.id, bot, winner)
            prof = (await s.profile(p.name))["families"]["standard"]  # type: ignore[index]
            assert prof["hands_played"] == 4 and prof["wins"] == 2
            hist = prof["history"]
            assert hist[-1]["mu"] == hist[-2]["mu"]  # the draw
            async with s.engine.connect() as conn:
                q = sa.select(sa.func.count()).select_from(ratings).where(ratings.c.account_id == bot)
                assert (await conn.execute(q)).scalar_one() == 0  # the anchor has no moving rating
            assert anchors()["greedy"].mu == 25.0

    asyncio.run(body())


def test_rebuild_equals_stored_and_repairs_a_tampered_rating(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            players = [await s.create_guest() for _ in range(6)]
            bot = await bot_account(s, "random")
            rng = random.Random(11)
            ids = [p.id for p in players] + [bot]

            async def one(i: int) -> None:
                a, b = rng.sample(ids, 2)
                await hand(s, a, b, rng.choice((0, 1, None)), rng.choice(("standard", "wenzhou")))

            for start in range(0, 120, 8):  # concurrent hands, several sharing players
                await asyncio.gather(*(one(i) for i in range(start, start + 8)))
            done = await s.rebuild_ratings(write=False)
            assert done.differences == [] and done.hands >= 120
            async with s.engine.begin() as conn:
                await conn.execute(
                    sa.update(ratings)
                    .where(ratings.c.account_id == players[0].id)
                    .values(mu=ratings.c.mu + 1)
                )
            found = await s.rebuild_ratings(write=True)
            assert len(found.differences) >= 1 and str(players[0].id) in found.differences[0]
            assert (await s.rebuild_ratings(write=False)).differences == []
            assert await s.check() == []

    asyncio.run(body())
