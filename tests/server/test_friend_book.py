"""The friend tables' parts (erma.server.friends): codes and numbers, a table's room read back from its id,
what a lookup says as a table lives, and the book — in the process and in Redis, where two processes seating
two friends at one table at once seat one of them."""

from __future__ import annotations

import asyncio
import re
import secrets
from typing import Any

import pytest

from erma.server.config import load_rooms
from erma.server.friends import (
    CODE_PATTERN,
    NUMBER_PATTERN,
    FriendState,
    FriendTable,
    LocalFriendBook,
    Lookup,
    Stakes,
    friend_room,
    friend_room_id,
    new_code,
    new_number,
)


def table(code: str | None = None, expires_at: float = 100.0) -> FriendTable:
    return FriendTable(
        code=code or new_code(),
        number=new_number(),
        rules="cuopai789",
        hands=8,
        stakes=Stakes.POINTS,
        room=None,
        bean_rate=0,
        accounts=[1, None],
        names=["甲", None],
        expires_at=expires_at,
    )


def test_codes_and_numbers() -> None:
    codes = {new_code() for _ in range(1000)}
    assert len(codes) == 1000 and all(re.match(CODE_PATTERN, c) for c in codes)  # 96 bits, URL-safe
    assert all(re.match(NUMBER_PATTERN, new_number()) for _ in range(1000))


def test_a_friend_room_from_its_id() -> None:
    rooms = load_rooms()
    points = friend_room(rooms, friend_room_id("wenzhou2p", 4, None))
    assert points is not None and points.rules.match_hands == 4 and points.rules.name == "wenzhou2p"
    assert (points.bean_rate, points.entry_min, points.rated) == (0, 0, False)
    beans = friend_room(rooms, friend_room_id("cuopai789", 16, "cuopai-pro"))
    assert beans is not None and beans.rated and beans.rules.match_hands == 16
    assert (beans.bean_rate, beans.entry_min) == (
        rooms["cuopai-pro"].bean_rate,
        rooms["cuopai-pro"].entry_min,
    )
    for bad in ("friend:cuopai789:5:points", "friend:nope:4:points", "friend:classic64:4:cuopai-pro", "x"):
        assert friend_room(rooms, bad) is None, bad


def test_what_a_lookup_says_as_the_table_lives() -> None:
    t = table(expires_at=100.0)
    assert t.lookup(99.0) is Lookup.OPEN and t.lookup(100.0) is Lookup.EXPIRED
    t.state = FriendState.PLAYING
    assert t.lookup(1e12) is Lookup.FULL  # (a table being played never expires)
    t.state = FriendState.ENDED
    assert t.lookup(99.0) is Lookup.FULL and t.lookup(101.0) is Lookup.EXPIRED
    t.state = FriendState.CLOSED
    assert t.lookup(0.0) is Lookup.EXPIRED
    assert FriendTable.from_json(t.to_json()) == t


async def exercise(book: Any) -> None:
    t = await book.add(table())
    assert await book.code_of_number(t.number) == t.code
    assert (await book.get(t.code)) == t and await book.get("missing") is None

    def sit(x: FriendTable, who: int) -> int:
        if x.accounts[1] is not None:
            raise LookupError("full")
        x.accounts[1] = who
        return who

    async def try_sit(who: int) -> int | None:
        try:
            done = await book.update(t.code, lambda x: sit(x, who))
        except LookupError:
            return None
        assert done is not None
        return done[1]  # type: ignore[no-any-return]

    seated = await asyncio.gather(*(try_sit(w) for w in range(2, 12)))
    winners = [w for w in seated if w is not None]
    assert len(winners) == 1 and (await book.get(t.code)).accounts == [1, winners[0]]
    assert await book.update("missing", lambda x: None) is None
    await book.bind(5, t.code)
    assert await book.code_of(5) == t.code
    await book.unbind(5, "other")
    assert await book.code_of(5) == t.code
    await book.unbind(5, t.code)
    assert await book.code_of(5) is None


def test_the_local_book() -> None:
    asyncio.run(exercise(LocalFriendBook()))


def test_the_redis_book_seats_one_of_two_at_once() -> None:
    redis = pytest.importorskip("redis.asyncio")
    from erma.server.backends.redis.friends import RedisFriendBook

    async def go() -> None:
        client = redis.Redis.from_url("redis://127.0.0.1:6379/0", decode_responses=True)
        try:
            await client.ping()
        except Exception:
            pytest.skip("no Redis on 127.0.0.1:6379")
        prefix = "test-friends-" + secrets.token_hex(4)
        try:
            await exercise(RedisFriendBook(client, lambda *p: ":".join([prefix, *map(str, p)])))
        finally:
            keys = [k async for k in client.scan_iter(prefix + ":*")]
            if keys:
                await client.delete(*keys)
            await client.aclose()

    asyncio.run(go())
