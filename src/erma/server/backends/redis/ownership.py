"""The Redis backend's ownership (所有权): each match's lease and fencing epoch, renewed in one call; a match
whose owner went away taken over here (rebuilt from its log), a match Redis lost stored again."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from redis.exceptions import RedisError

from erma.server.backends.base import Fenced, match_log
from erma.server.backends.redis.log import RedisLog
from erma.server.backends.redis.wire import RemoteSeat, dumps, in_pipe
from erma.server.ports import OwnedTable
from erma.server.seats import SeatConn

log = logging.getLogger("erma.redis")


class RedisOwnership(RedisLog):
    """Leases, takeovers and reseeds of the matches."""

    async def open_match(self, table: OwnedTable) -> None:
        epoch = await self._acquire(
            keys=[self.mk(table.id, "lease"), self.mk(table.id, "epoch")], args=[self.pid, self.lease_ms]
        )
        if not epoch:
            raise Fenced(f"match {table.id} is already owned")
        table.epoch = int(epoch)
        self.owners[table.id] = self.pid
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(self.mk(table.id, "meta"), dumps(table.meta()))
        pipe.sadd(self.k("live"), table.id)
        await pipe.execute()

    async def close_match(self, table: OwnedTable) -> None:
        mid, ttl = table.id, 600

        def close(pipe: Any) -> None:
            pipe.srem(self.k("live"), mid)
            for key in ("meta", "log", "epoch", "s:0", "s:1"):
                pipe.expire(self.mk(mid, key), ttl)

        self._queue("cmd", None, close)
        with contextlib.suppress(Exception):
            await self._flush()
            await self._del_if(keys=[self.mk(mid, "lease")], args=[self.pid])
        self.owners.pop(mid, None)

    async def match_held(self, match: str) -> bool:
        if self.hub is not None and match in self.hub.tables:
            return True
        pipe = self.redis.pipeline(transaction=False)
        pipe.exists(self.mk(match, "lease"))
        pipe.sismember(self.k("live"), match)
        try:
            lease, live = await pipe.execute()
        except (RedisError, OSError):
            return True  # cannot tell: never sweep a match that may still be played
        return bool(lease) or bool(live)

    # ---------------------------------------------------------------------- leases, scan

    async def _renew_loop(self) -> None:
        assert self.hub is not None
        while True:
            await asyncio.sleep(self.lease_ms / 3000)
            tables = [t for t in self.hub.tables.values() if not t.fenced]
            keys = [self.k("alive", self.pid)]
            args: list[Any] = [self.pid, self.lease_ms]
            for t in tables:
                keys += [self.mk(t.id, "lease"), self.mk(t.id, "epoch")]
                args.append(t.epoch)
            try:
                results = await self._renew(keys=keys, args=args)
                self.connected_to_redis = True
            except (RedisError, OSError):
                self.connected_to_redis = False
                continue
            for t, r in zip(tables, results, strict=True):
                if r == 0:
                    match_log("lease_lost", t.id, pid=self.pid, epoch=t.epoch)
                    self._fence(t)
                elif r == 3 or t.dirty:
                    try:
                        await self._reseed(t)
                    except (RedisError, OSError):
                        t.dirty = True

    async def _reseed(self, t: OwnedTable) -> None:
        """Store the whole match again from memory (Redis lost it, or some writes), then resync its seats."""
        assert self.hub is not None
        t.dirty = True  # nothing more is queued for it until this is done
        n_log = len(t.entries)
        n_seat = [len(s.log) for s in t.seats]
        epoch_key = self.mk(t.id, "epoch")
        pipe = self.redis.pipeline(transaction=False)
        streams = [self.mk(t.id, "log"), self.mk(t.id, "s", 0), self.mk(t.id, "s", 1)]
        in_pipe(pipe, self._reset, [epoch_key, *streams], [t.epoch])
        entries: list[Any] = []
        for i, e in enumerate(t.entries[:n_log]):
            entries += [1, f"{i + 1}-0", dumps(e)]
        for seat, s in enumerate(t.seats):
            for v, m in enumerate(s.log[: n_seat[seat]]):  # a message's v is its index in the seat's log
                entries += [2 + seat, f"{v + 1}-0", m if isinstance(m, str) else dumps(m)]
        keys, argv = self._write_args({t: entries}, [])
        in_pipe(pipe, self._write_script, keys, argv)
        pipe.set(self.mk(t.id, "meta"), dumps(t.meta()))
        pipe.sadd(self.k("live"), t.id)
        for seat, s in enumerate(t.seats):
            if not s.is_bot:
                pipe.set(self.k("seat", s.account_id), f"{t.id}|{seat}")
        results = await pipe.execute()
        if results[0] == -1 or results[1] == [-1]:
            self._fence(t)
            return
        t.dirty = False
        for i in range(n_log, len(t.entries)):  # logged while this ran
            self._queue("xadd", t, (1, f"{i + 1}-0", dumps(t.entries[i])))
        for seat, s in enumerate(t.seats):
            for v in range(n_seat[seat], len(s.log)):
                m = s.log[v]
                self._queue("xadd", t, (2 + seat, f"{v + 1}-0", m if isinstance(m, str) else dumps(m)))
        self.hub.metrics["reseeds"] += 1
        match_log("reseed", t.id, pid=self.pid, epoch=t.epoch, entries=len(t.entries))
        t.resync_all()

    async def _scan_loop(self) -> None:
        """Take over the live matches whose owner's lease ran out."""
        assert self.hub is not None
        while True:
            await asyncio.sleep(self.lease_ms / 2000)
            try:
                live = [m for m in await self.redis.smembers(self.k("live")) if m not in self.hub.tables]
                if not live:
                    continue
                pipe = self.redis.pipeline(transaction=False)
                for m in live:
                    pipe.exists(self.mk(m, "lease"))
                held = await pipe.execute()
                for m, h in zip(live, held, strict=True):
                    if not h:
                        await self._takeover(m)
            except (RedisError, OSError):
                continue
            except Exception:
                log.exception("scan")

    async def _takeover(self, match: str) -> None:
        """Own a match whose lease ran out: rebuild its table from its log and carry on."""
        hub = self.hub
        assert hub is not None
        if match in hub.tables or self._stopping:
            return
        epoch = await self._acquire(
            keys=[self.mk(match, "lease"), self.mk(match, "epoch")], args=[self.pid, self.lease_ms]
        )
        if not epoch:
            return
        raw = await self.redis.get(self.mk(match, "meta"))
        meta = json.loads(raw) if raw else None
        room = hub.room_of(meta["room"]) if meta else None
        if meta is None or room is None:
            log.error("match %s cannot be taken over: its essentials are gone", match)
            await self.redis.srem(self.k("live"), match)
            await self._del_if(keys=[self.mk(match, "lease")], args=[self.pid])
            return
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(self.mk(match, "log"))
        for seat in range(len(meta["seats"])):
            pipe.xrange(self.mk(match, "s", seat))
        got = await pipe.execute()
        entries = [json.loads(f["d"]) for _, f in got[0]]
        seat_logs = [[json.loads(f["d"]) for _, f in g] for g in got[1:]]
        self.owners[match] = self.pid
        conns: list[SeatConn | None] = []  # None: a bot, or a person away (auto-play after the grace)
        moved: list[int] = []  # persons whose socket is on a process no longer alive (frozen or dead)
        seen: dict[int, int] = {}
        """A socket here: the last version it was relayed (the stream after it is sent to it, gap-free)."""
        for seat, x in enumerate(meta["seats"]):
            if x["bot"]:
                conns.append(None)
                continue
            account_id = x["account"]
            local = hub.connections.get(account_id)
            where = await self.redis.get(self.k("conn", account_id))
            if local is not None:
                conns.append(local)
                hub.seat_of[account_id] = (match, seat)
                relay = self.relays.pop((match, seat), None)
                # what the old owner stored but had not sent yet (held by a pause, or in flight when it died)
                # is in the stream: the socket gets it from where its relay stood (all of it without one)
                seen[seat] = relay.last if relay is not None and relay.conn is local else -1
            elif where and await self.redis.exists(self.k("alive", where.split("|")[0])):
                pid, cid = where.split("|", 1)
                conns.append(RemoteSeat(self, pid, cid, match, seat))
            else:
                conns.append(None)
                if where:
                    moved.append(seat)
        table = hub.take_over(match, room, meta, entries, seat_logs, int(epoch), conns, moved)
        hub.metrics["takeovers"] += 1
        match_log(
            "takeover", match, pid=self.pid, epoch=table.epoch, entries=len(entries), resume=table.resume
        )
        await self.redis.publish(self.k("all"), dumps({"k": "owner", "m": match, "p": self.pid}))
        table.resync_all(seen)
