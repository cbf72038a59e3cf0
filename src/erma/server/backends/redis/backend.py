"""RedisBackend (Redis 后端): several ``erma serve`` processes on one Redis (and one database) act as one
server.

Keys (``P`` is ``Settings.redis_prefix``, ``M`` a match id, ``A`` an account id):

| Key | Type | Holds |
|---|---|---|
| ``P:q:{room}`` | sorted set | the room's queue: account ids by the time they queued |
| ``P:seat:A`` | string | ``M|seat``: where the account plays |
| ``P:conn:A`` | string | ``pid|cid``: which process holds the account's socket |
| ``P:alive:{pid}`` | string, expiring | a process's heartbeat |
| ``P:live`` | set | the live matches |
| ``P:m:M:meta`` | string | the match's essentials (room, seats, match secret) as JSON |
| ``P:m:M:lease`` | string, expiring | the owner's pid (``SET NX PX``, renewed) |
| ``P:m:M:epoch`` | integer | the fencing token: ``INCR`` at each takeover; every write checks it |
| ``P:m:M:log`` | stream | the match's log (hand starts, actions, settlement decisions), entry ids ``i-0`` |
| ``P:m:M:s:{seat}`` | stream | the seat's messages, entry id ``{v+1}-0`` |

Channels: ``P:p:{pid}`` (one per process: actions and socket events to an owner, seat messages to the
process relaying a socket) and ``P:all`` (ownership changes, hand-overs).

Pub/sub is at-most-once, so it only carries live traffic: the streams are the truth, versions (``v``) show a
relay what it missed, and it reads the gap from the seat's stream. The subscriber is supervised: after a
reconnection it resubscribes, re-registers its sockets, and asks each owner to resync; owners store their
matches again (the whole log from memory, fenced) if Redis lost them, then resync every seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from erma.server.backends.base import match_log
from erma.server.backends.redis.friends import RedisFriendBook
from erma.server.backends.redis.relay import RedisRelay
from erma.server.backends.redis.wire import dumps
from erma.server.friends import FriendBook
from erma.server.ports import BackendHost

log = logging.getLogger("erma.redis")


class RedisBackend(RedisRelay):
    """Matchmaking, seats, ownership, logs and routing shared by every process on one Redis: its queues and
    seats (:mod:`.queues`), its writer (:mod:`.log`), its matches' ownership (:mod:`.ownership`) and its relay
    (:mod:`.relay`), on one client (:mod:`.core`)."""

    async def start(self, hub: BackendHost) -> None:
        await super().start(hub)
        await self.redis.set(self.k("alive", self.pid), "1", px=self.lease_ms)
        self.connected_to_redis = True
        subscribed = asyncio.Event()
        self._tasks = [
            asyncio.create_task(self._listen(subscribed)),
            asyncio.create_task(self._write_loop()),
            asyncio.create_task(self._renew_loop()),
            asyncio.create_task(self._scan_loop()),
        ]
        await asyncio.wait_for(subscribed.wait(), 10)
        log.info("process %s on %s (lease %d ms)", self.pid, self.url, self.lease_ms)

    async def stop(self) -> None:
        """Hand every match over: stop its table, store what is queued, release its lease and ask the other
        processes to take it now."""
        hub = self.hub
        assert hub is not None
        self._stopping = True
        tables = list(hub.tables.values())
        for t in tables:
            t.handed_over = True
            if t.task:
                t.task.cancel()
        for t in tables:
            if t.task:
                with contextlib.suppress(BaseException):
                    await t.task
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._flush(), 5)
        for t in tables:
            with contextlib.suppress(Exception):
                await self._del_if(keys=[self.mk(t.id, "lease")], args=[self.pid])
                await self.redis.publish(self.k("all"), dumps({"k": "adopt", "m": t.id, "p": self.pid}))
                hub.metrics["handovers"] += 1
                match_log("handover", t.id, pid=self.pid, epoch=t.epoch)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await self.redis.delete(self.k("alive", self.pid))
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def friend_book(self) -> FriendBook:
        return RedisFriendBook(self.redis, self.k)

    async def tell(self, account_id: int, message: dict[str, Any]) -> bool:
        if await super().tell(account_id, message):
            return True
        got = await self.redis.get(self.k("conn", account_id))
        if not got:
            return False
        pid = got.split("|", 1)[0]
        return bool(
            await self.redis.publish(self.k("p", pid), dumps({"k": "tell", "a": account_id, "msg": message}))
        )

    async def match_people(self, match: str) -> list[tuple[int, bool]] | None:
        here = await super().match_people(match)
        if here is not None:
            return here
        raw = await self.redis.get(self.mk(match, "meta"))
        if not raw:
            return None
        return [(int(x["account"]), bool(x["bot"])) for x in json.loads(raw)["seats"]]

    def gauges(self) -> dict[str, float]:
        return {
            "relays": len(self.relays),
            "redis_queued_writes": len(self._ops),
            "redis_connected": int(self.connected_to_redis),
        }
