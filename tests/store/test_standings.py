"""The standings read back: the leaderboard's order, the caller's place, and its argument checks."""

from __future__ import annotations

import asyncio
import random

import pytest

from erma.errors import InvalidInputError
from tests.store.conftest import opened
from tests.store.test_ratings import hand


def test_leaderboard_orders_by_rank_and_finds_the_caller(db_url: str) -> None:
    async def body() -> None:
        async with opened(db_url) as s:
            fam = "wenzhou"
            players = [await s.create_guest() for _ in range(5)]
            rng = random.Random(7)
            for _ in range(30):
                a, b = rng.sample(players, 2)
                await hand(s, a.id, b.id, rng.choice((0, 1)), fam)
            board = await s.leaderboard(fam, limit=3, account_id=players[0].id)
            assert board["family"] == fam and board["players"] >= 5 and len(board["top"]) == 3
            keys = [(-r["rank"]["level"], -r["rank"]["points"], -r["rating"]["mu"]) for r in board["top"]]
            assert keys == sorted(keys) and [r["position"] for r in board["top"]] == [1, 2, 3]
            full = await s.leaderboard(fam, limit=500)
            where = [r["account_id"] for r in full["top"]].index(players[0].id) + 1
            assert board["me"]["position"] == where
            assert (await s.leaderboard(fam, account_id=10**9))["me"] is None
            with pytest.raises(InvalidInputError, match="family"):
                await s.leaderboard("mcr")
            with pytest.raises(InvalidInputError, match="limit"):
                await s.leaderboard(fam, limit=0)

    asyncio.run(body())
