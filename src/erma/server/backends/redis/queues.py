"""The Redis backend's queues and seats (队列): matchmaking over every room's queue, where each account sits,
the endings kept for an account that was away."""

from __future__ import annotations

import json
import time
from typing import Any

from erma.server.backends.base import Seating
from erma.server.backends.redis.core import RedisCore
from erma.server.pairing import DEFAULT_RATING


class RedisQueues(RedisCore):
    """Matchmaking and seats shared by every process."""

    # ------------------------------------------------------------------------ matchmaking

    async def enqueue(self, room: str, account_id: int, rating: float | None = None) -> None:
        await self.unqueue(account_id)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(self.k("qr", room), str(account_id), repr(DEFAULT_RATING if rating is None else rating))
        pipe.zadd(self.k("q", room), {str(account_id): time.time()})
        await pipe.execute()

    async def unqueue(self, account_id: int) -> None:
        assert self.hub is not None
        pipe = self.redis.pipeline(transaction=False)
        for room in self.hub.rooms:
            pipe.zrem(self.k("q", room), str(account_id))
            pipe.hdel(self.k("qr", room), str(account_id))
        await pipe.execute()

    async def pop_pair(self, room: str) -> list[int] | None:
        """The two oldest in the queue, whatever their ratings (the hub pairs by rating: pop_round)."""
        got = await self._pop_pair(keys=[self.k("q", room)])
        return [int(got[0]), int(got[2])] if got else None

    async def pop_waited(self, room: str, waited_s: float) -> list[int]:
        got = await self._pop_waited(keys=[self.k("q", room)], args=[time.time() - waited_s])
        return [int(x) for x in got]

    async def pop_round(self, rooms: list[str], waited_s: float) -> list[Seating]:
        keys = [self.k("q", room) for room in rooms] + [self.k("qr", room) for room in rooms]
        window, widen = self._window()
        now = time.time()
        cutoff = "-inf" if waited_s == float("inf") else repr(now - waited_s)
        got = await self._pop_round(keys=keys, args=[cutoff, repr(now), window, widen, DEFAULT_RATING])
        out = []
        for room, (flat, waited) in zip(rooms, got, strict=True):
            if flat or waited:
                pairs = [[int(flat[i]), int(flat[i + 1])] for i in range(0, len(flat), 2)]
                out.append((room, pairs, [int(x) for x in waited]))
        return out

    # ------------------------------------------------------------------------------ seats

    async def seat_of(self, account_id: int) -> tuple[str, int] | None:
        got = await self.redis.get(self.k("seat", account_id))
        if not got:
            return None
        match, seat = got.split("|")
        return match, int(seat)

    async def set_seat(self, account_id: int, match: str, seat: int) -> None:
        await self.redis.set(self.k("seat", account_id), f"{match}|{seat}")

    async def clear_seat(self, account_id: int, match: str) -> None:
        for seat in (0, 1):
            await self._del_if(keys=[self.k("seat", account_id)], args=[f"{match}|{seat}"])

    MISSED_TTL_S = 7 * 24 * 3600

    async def stash_missed(self, account_id: int, messages: list[dict[str, Any]]) -> None:
        key = self.k("missed", account_id)
        text = json.dumps(messages, ensure_ascii=False, separators=(",", ":"))
        await self.redis.set(key, text, ex=self.MISSED_TTL_S)

    async def take_missed(self, account_id: int) -> list[dict[str, Any]]:
        text = await self.redis.getdel(self.k("missed", account_id))
        return list(json.loads(text)) if text else []
