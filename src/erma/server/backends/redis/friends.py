"""The friend tables (好友房) of every process, kept in Redis (:class:`erma.server.friends.FriendBook`).

Keys: ``P:fr:c:{code}`` (the table as JSON), ``P:fr:n:{number}`` (the code a 房间号 names), ``P:fr:a:{A}``
(the code of the table account ``A`` sits at); each expires :data:`~erma.server.friends.KEEP_S` after its
table could last change. A change is a ``WATCH``/``MULTI`` transaction on the table's key: two processes
seating two friends at once, one of them wins and the other is told the table is full."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, TypeVar

from redis.exceptions import WatchError

from erma.server.friends import KEEP_S, FriendBook, FriendTable, new_number

T = TypeVar("T")


class RedisFriendBook(FriendBook):
    """Friend tables shared through Redis."""

    def __init__(self, redis: Any, key: Callable[..., str]) -> None:
        self.redis = redis
        self.k = key

    def _ttl_ms(self, table: FriendTable) -> int:
        return int((max(0.0, table.expires_at - time.time()) + KEEP_S) * 1000)

    async def add(self, table: FriendTable) -> FriendTable:
        ttl = self._ttl_ms(table)
        while not await self.redis.set(self.k("fr", "n", table.number), table.code, nx=True, px=ttl):
            table.number = new_number()
        await self.redis.set(self.k("fr", "c", table.code), json.dumps(table.to_json()), px=ttl)
        return table

    async def get(self, code: str) -> FriendTable | None:
        raw = await self.redis.get(self.k("fr", "c", code))
        return None if raw is None else FriendTable.from_json(json.loads(raw))

    async def code_of_number(self, number: str) -> str | None:
        got = await self.redis.get(self.k("fr", "n", number))
        return str(got) if got else None

    async def update(self, code: str, change: Callable[[FriendTable], T]) -> tuple[FriendTable, T] | None:
        key = self.k("fr", "c", code)
        async with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    await pipe.watch(key)
                    raw = await pipe.get(key)
                    if raw is None:
                        return None
                    table = FriendTable.from_json(json.loads(raw))
                    out = change(table)  # (raises: the pipeline is reset, nothing kept)
                    pipe.multi()
                    pipe.set(key, json.dumps(table.to_json()), px=self._ttl_ms(table))
                    pipe.pexpire(self.k("fr", "n", table.number), self._ttl_ms(table))
                    await pipe.execute()
                    return table, out
                except WatchError:
                    continue

    async def code_of(self, account_id: int) -> str | None:
        got = await self.redis.get(self.k("fr", "a", account_id))
        return str(got) if got else None

    async def bind(self, account_id: int, code: str) -> None:
        await self.redis.set(self.k("fr", "a", account_id), code, px=int(KEEP_S * 1000))

    async def unbind(self, account_id: int, code: str) -> None:
        key = self.k("fr", "a", account_id)
        if await self.redis.get(key) == code:
            await self.redis.delete(key)
