"""Matchmaking by rating: the pairing rule, the in-process backend's queue, the bot level by rating."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace

from erma.server.backends import LocalBackend
from erma.server.config import Settings
from erma.server.pairing import nearest_bot, pair_by_rating


def test_pairs_are_nearest_and_the_window_widens_with_the_wait() -> None:
    q = [(1, 0.0, 20.0), (2, 0.0, 30.0), (3, 0.0, 21.5), (4, 0.0, 29.0)]
    assert pair_by_rating(q, now=0.0, window=2.0, widen_per_s=1.0) == [[1, 3], [2, 4]]
    far = [(1, 0.0, 10.0), (2, 5.0, 20.0)]
    assert pair_by_rating(far, now=7.0, window=2.0, widen_per_s=1.0) == []  # 10 apart > 2 + 7
    assert pair_by_rating(far, now=8.0, window=2.0, widen_per_s=1.0) == [[1, 2]]  # 10 ≤ 2 + 8
    rng = random.Random(3)
    for _ in range(200):
        q = [(i, rng.uniform(0, 10), rng.uniform(0, 40)) for i in range(rng.randrange(0, 12))]
        pairs = pair_by_rating(q, now=10.0, window=1.0, widen_per_s=0.5)
        flat = [a for p in pairs for a in p]
        assert len(flat) == len(set(flat))  # nobody twice
        rating = {a: r for a, _, r in q}
        waited = {a: t for a, t, _ in q}
        for a, b in pairs:
            assert abs(rating[a] - rating[b]) <= 1.0 + 0.5 * (10.0 - min(waited[a], waited[b]))


def test_local_backend_pairs_by_rating() -> None:
    async def go() -> None:
        backend = LocalBackend()
        backend.hub = SimpleNamespace(settings=Settings(rating_window=2.0, rating_widen_per_s=0.0))  # type: ignore[assignment]
        for account, rating in ((1, 25.0), (2, 10.0), (3, 24.0), (4, 11.0), (5, 40.0)):
            await backend.enqueue("r", account, rating)
        got = await backend.pop_round(["r"], waited_s=float("inf"))
        assert got == [("r", [[1, 3], [2, 4]], [])]
        assert [a for a, _ in backend._queues["r"]] == [5]
        await backend.enqueue("r", 6, None)  # no rating yet: a new player's 25
        assert await backend.pop_round(["r"], waited_s=float("inf")) == []
        assert await backend.pop_round(["r"], waited_s=0.0) == [("r", [], [5, 6])]

    asyncio.run(go())


def test_the_bot_nearest_the_rating_fills_the_seat() -> None:
    anchors = {"level1": 5.0, "level2": 10.0, "level3": 15.0, "greedy": 25.0}
    assert nearest_bot(9.0, anchors, ["level1", "level2", "greedy"]) == "level2"
    assert nearest_bot(9.0, anchors, ["level1", "greedy"]) == "level1"
    assert nearest_bot(30.0, anchors, anchors) == "greedy"
    assert nearest_bot(9.0, anchors, ["unanchored"]) is None


def test_a_low_rated_player_gets_the_bot_level_nearest_their_rating(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import httpx
    import sqlalchemy as sa

    from erma.ratings import anchors
    from erma.server.hub import BOT_NAMES
    from erma.store import Store
    from erma.store.schema import ratings

    from .conftest import Client, run_async, start_server

    srv, thread, running = start_server(tmp_path)
    try:
        low = httpx.post(running.url + "/api/guest").json()
        new = httpx.post(running.url + "/api/guest").json()

        async def set_rating() -> None:  # as if the player had lost many hands
            store = await Store.open(None, tmp_path)
            try:
                async with store.engine.begin() as conn:
                    await conn.execute(
                        sa.insert(ratings).values(
                            account_id=low["account"]["id"],
                            family="standard",
                            mu=anchors()["random"].mu + 1,
                            sigma=2.0,
                            level=0,
                            points=10,
                            hands=40,
                        )
                    )
            finally:
                await store.close()

        run_async(set_rating())

        async def opponent(token: str) -> str:
            c = Client(running, token)
            await c.connect()
            await c.send({"type": "queue", "room": "cuopai-novice", "opponent": "bot"})
            m = await c.expect("match")
            await c.close()
            return str(next(p["name"] for p in m["players"] if p["bot"]))

        assert run_async(opponent(low["token"])) == BOT_NAMES["random"]
        assert run_async(opponent(new["token"])) == BOT_NAMES["greedy"]  # unrated: a new player's 25
    finally:
        srv.should_exit = True
        thread.join(10)
