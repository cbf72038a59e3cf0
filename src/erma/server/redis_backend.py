"""RedisBackend: several ``erma serve`` processes on one Redis (and one database) act as one server.

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
import time
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from erma.server import protocol as P
from erma.server.backend import Backend, Fenced, Seating, match_log
from erma.server.config import Settings
from erma.server.pairing import DEFAULT_RATING
from erma.server.ports import BackendHost, OwnedTable, Socket
from erma.server.seats import SeatConn, disconnected, reconnected

log = logging.getLogger("erma.redis")

_WRITE = """
local out, a = {}, 2
for g = 1, tonumber(ARGV[1]) do
  local k, n = (g - 1) * 4, tonumber(ARGV[a + 1])
  local e = redis.call('GET', KEYS[k + 1])
  local r = 1
  if not e then r = -2 elseif e ~= ARGV[a] then r = -1 end
  a = a + 2
  if r == 1 then
    for i = a, a + 3 * n - 1, 3 do
      redis.pcall('XADD', KEYS[k + 1 + tonumber(ARGV[i])], ARGV[i + 1], 'd', ARGV[i + 2])
    end
  end
  a = a + 3 * n
  out[g] = r
end
for i = a + 1, a + 3 * tonumber(ARGV[a]), 3 do
  local g = tonumber(ARGV[i])
  if g == 0 or out[g] ~= -1 then redis.call('PUBLISH', ARGV[i + 1], ARGV[i + 2]) end
end
return out
"""
"""One write of the owner's queue in one call. For each match (group ``g``: ``KEYS[4g-3..4g]`` are its
epoch, log and two seat streams; ``ARGV``: its epoch, ``n``, then ``n`` times stream 1-3, entry id, data) the
fence is checked once and the entries appended (an id already stored is a write already done: skipped); then
the publications (``ARGV``: their count, then group or 0, channel, data), after the entries queued before
them, a fenced match's dropped. Returns each group's 1 (stored), -1 (fenced: another owner's epoch) or -2 (no
epoch: Redis lost the match)."""
_ACQUIRE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return redis.call('INCR', KEYS[2]) end
return 0
"""
_RENEW = """
redis.call('SET', KEYS[1], '1', 'PX', ARGV[2])
local out, pid, ms = {}, ARGV[1], ARGV[2]
for i = 1, (#KEYS - 1) / 2 do
  local lease, epoch, mine = KEYS[2 * i], KEYS[2 * i + 1], ARGV[2 + i]
  local cur, e = redis.call('GET', lease), redis.call('GET', epoch)
  local r = 0
  if cur == pid then
    if e == mine then redis.call('PEXPIRE', lease, ms); r = 1
    elseif not e then redis.call('SET', epoch, mine); redis.call('PEXPIRE', lease, ms); r = 3 end
  elseif not cur then
    if not e then redis.call('SET', epoch, mine); redis.call('SET', lease, pid, 'PX', ms); r = 3
    elseif e == mine then redis.call('SET', lease, pid, 'PX', ms); r = 2 end
  end
  out[i] = r
end
return out
"""
"""The process's heartbeat (``KEYS[1]``) and its leases, in one call: for each match (``KEYS[2i]`` its lease,
``KEYS[2i+1]`` its epoch, ``ARGV[2+i]`` the epoch held here; ``ARGV[1]`` the pid, ``ARGV[2]`` the lease in
ms) 1: renewed, 2: taken again (it had run out, no one took it), 3: Redis had lost it (lease and epoch set
again: the match is to be stored again), 0: lost to a newer owner."""
_RESET = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
for i = 2, #KEYS do redis.call('DEL', KEYS[i]) end
return 1
"""
_DEL_IF = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
_POP_PAIR = """
if redis.call('ZCARD', KEYS[1]) >= 2 then return redis.call('ZPOPMIN', KEYS[1], 2) end
return {}
"""
_POP_ROUND = """
local out = {}
local n = #KEYS / 2
local now, window, widen = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
for i = 1, n do
  local q, rk = KEYS[i], KEYS[n + i]
  local pairs = {}
  local flat = redis.call('ZRANGE', q, 0, -1, 'WITHSCORES')
  if #flat >= 4 then
    local ids, ts, rs, used = {}, {}, {}, {}
    for j = 1, #flat, 2 do
      ids[#ids + 1] = flat[j]
      ts[#ts + 1] = tonumber(flat[j + 1])
    end
    local got = redis.call('HMGET', rk, unpack(ids))
    for j = 1, #ids do rs[j] = tonumber(got[j]) or tonumber(ARGV[5]) end
    for a = 1, #ids do
      if not used[a] then
        local best, gap = nil, nil
        for b = 1, #ids do
          if b ~= a and not used[b] then
            local d = math.abs(rs[a] - rs[b])
            if gap == nil or d < gap then best, gap = b, d end
          end
        end
        if best ~= nil and gap <= window + widen * (now - math.min(ts[a], ts[best])) then
          used[a], used[best] = true, true
          pairs[#pairs + 1] = ids[a]
          pairs[#pairs + 1] = ids[best]
        end
      end
    end
    if #pairs > 0 then
      redis.call('ZREM', q, unpack(pairs))
      redis.call('HDEL', rk, unpack(pairs))
    end
  end
  local waited = redis.call('ZRANGEBYSCORE', q, '-inf', ARGV[1])
  if #waited > 0 then
    redis.call('ZREM', q, unpack(waited))
    redis.call('HDEL', rk, unpack(waited))
  end
  out[i] = {pairs, waited}
end
return out
"""
"""Every room's queue in one call (``KEYS``: the queues, then their ratings hashes; ``ARGV``: the time before
which a queued id has waited for a bot, now, the rating window, its widening per second, the rating of an id
with none): its pairs by rating (the rule of :func:`erma.server.pairing.pair_by_rating`, as a flat list of
ids) and the ids that waited."""
_POP_WAITED = """
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if #ids > 0 then redis.call('ZREM', KEYS[1], unpack(ids)) end
return ids
"""


class RemoteSeat:
    """The stand-in for a player's socket held by another process: what the table sends it is published to
    that process, which relays it to the socket."""

    def __init__(self, backend: RedisBackend, pid: str, cid: str, match: str, seat: int) -> None:
        self.backend, self.pid, self.cid, self.match, self.seat = backend, pid, cid, match, seat

    def send(self, message: dict[str, Any]) -> None:
        """Publish a seat message to the relaying process."""
        self.backend.publish_text(self.pid, self.envelope(message, _dumps(message)))

    def envelope(self, message: dict[str, Any], text: str) -> str:
        """What is published for a seat message (its JSON ``text``): ``{"k":"out"``, the match, the seat, the
        socket, the message's ``v`` and type, and last ``"msg":`` the text as it is, which the relay sends on
        without decoding it (see :func:`_received`)."""
        head = {"k": "out", "m": self.match, "s": self.seat, "cid": self.cid}
        head["v"], head["t"] = message.get("v"), message.get("type")
        return _dumps(head)[:-1] + ',"msg":' + text + "}"


@dataclass
class Relay:
    """A socket here playing a match owned elsewhere: the last version it was sent."""

    conn: Socket
    match: str
    seat: int
    last: int


def _in_pipe(pipe: Any, script: Any, keys: list[Any], args: list[Any]) -> None:
    """Queue a script call in a pipeline (the pipeline loads the script if Redis does not have it)."""
    pipe.scripts.add(script)
    pipe.evalsha(script.sha, len(keys), *keys, *args)


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class RedisBackend(Backend):
    """Matchmaking, seats, ownership, logs and routing shared by every process on one Redis."""

    distributed = True

    def __init__(self, url: str, settings: Settings) -> None:
        super().__init__()
        self.url = url
        self.prefix = settings.redis_prefix
        self.lease_ms = settings.lease_ms
        self.redis: Any = aioredis.Redis.from_url(
            url, decode_responses=True, socket_connect_timeout=2, socket_timeout=5, health_check_interval=5
        )
        self.relays: dict[tuple[str, int], Relay] = {}
        self.owners: dict[str, str] = {}
        """Match id → owner pid (a cache; refreshed from the lease when a publish finds nobody)."""
        self._ops: list[tuple[str, Any, Any]] = []
        """The writer's queue, in order: ``xadd`` (a table's stream 1-3, entry id, data), ``pub`` (channel,
        data), ``send`` (a local connection, a message or its text), ``cmd`` (a function adding commands to a
        pipeline), ``fut`` (set once everything before it is stored)."""
        self._texts: dict[int, tuple[dict[str, Any], str]] = {}
        """``id(message)`` → (message, its JSON text) for seat messages stored but not yet delivered: the text
        that goes into the seat's stream is the one sent to the socket (each message is encoded once)."""
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False
        self.connected_to_redis = False
        self._write_script = self.redis.register_script(_WRITE)
        self._acquire = self.redis.register_script(_ACQUIRE)
        self._renew = self.redis.register_script(_RENEW)
        self._reset = self.redis.register_script(_RESET)
        self._del_if = self.redis.register_script(_DEL_IF)
        self._pop_pair = self.redis.register_script(_POP_PAIR)
        self._pop_waited = self.redis.register_script(_POP_WAITED)
        self._pop_round = self.redis.register_script(_POP_ROUND)

    # ------------------------------------------------------------------------------ keys

    def k(self, *parts: object) -> str:
        """A key or channel name."""
        return ":".join([self.prefix, *map(str, parts)])

    def mk(self, match: str, *parts: object) -> str:
        """A key of a match."""
        return self.k("m", match, *parts)

    # ------------------------------------------------------------------------ life cycle

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
                await self.redis.publish(self.k("all"), _dumps({"k": "adopt", "m": t.id, "p": self.pid}))
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

    def gauges(self) -> dict[str, float]:
        return {
            "relays": len(self.relays),
            "redis_queued_writes": len(self._ops),
            "redis_connected": int(self.connected_to_redis),
        }

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

    # ---------------------------------------------------------------------------- sockets

    async def connected(self, conn: Socket) -> None:
        await self.redis.set(self.k("conn", conn.account_id), f"{self.pid}|{conn.cid}")

    async def disconnected(self, conn: Socket) -> None:
        for key, relay in list(self.relays.items()):
            if relay.conn is conn:
                del self.relays[key]
                await self._to_owner(
                    relay.match, {"k": "gone", "m": relay.match, "s": relay.seat, "cid": conn.cid}
                )
        await self._del_if(keys=[self.k("conn", conn.account_id)], args=[f"{self.pid}|{conn.cid}"])

    async def attach(self, conn: Socket, match: str, seat: int, since: int) -> bool:
        self.relays[(match, seat)] = Relay(conn, match, seat, since)
        hello = {"k": "hello", "m": match, "s": seat, "cid": conn.cid, "p": self.pid, "since": since}
        if await self._to_owner(match, hello):
            return True
        # nobody serves it: take it over here if its lease has run out (else the scan will, soon)
        await self._takeover(match)
        return True

    async def forward(self, conn: Socket, match: str, seat: int, message: dict[str, Any]) -> bool:
        assert self.hub is not None
        relay = self.relays.get((match, seat))
        if relay is None or relay.conn is not conn:  # e.g. a socket that came before the match notice
            self.relays[(match, seat)] = Relay(conn, match, seat, -1)
        data = {"k": "in", "m": match, "s": seat, "cid": conn.cid, "p": self.pid, "msg": message}
        # an owner whose subscriber is reconnecting, a takeover under way, Redis restarting: try again for a
        # while (the client's own retry, same seq, is idempotent too)
        deadline = time.monotonic() + 2 * self.lease_ms / 1000
        live = True
        while True:
            try:
                if await self._to_owner(match, data):
                    return True
                live = bool(await self.redis.sismember(self.k("live"), match))
                if live:
                    self.hub.spawn(self._takeover(match))
            except (RedisError, OSError):
                live = True
            if time.monotonic() > deadline or conn.closed:
                if not live:  # over (or lost with Redis's data and its owner both)
                    return False
                self.hub.metrics["routed_lost"] += 1
                return True
            await asyncio.sleep(0.1)

    async def seat_conn(self, account_id: int, match: str, seat: int, message: dict[str, Any]) -> Any:
        got = await self.redis.get(self.k("conn", account_id))
        if not got:
            return None
        pid, cid = got.split("|", 1)
        self.publish(
            pid, {"k": "matched", "a": account_id, "m": match, "s": seat, "cid": cid, "msg": message}
        )
        return RemoteSeat(self, pid, cid, match, seat)

    async def _to_owner(self, match: str, data: dict[str, Any]) -> bool:
        """Publish to the match's owner; False if no process received it."""
        owner = self.owners.get(match)
        if owner is None:
            owner = await self.redis.get(self.mk(match, "lease"))
            if owner is None:
                return False
            self.owners[match] = owner
        if owner == self.pid and self.hub is not None and match in self.hub.tables:
            await self._on(data)
            return True
        if await self.redis.publish(self.k("p", owner), _dumps(data)):
            assert self.hub is not None
            self.hub.metrics["routed"] += 1
            return True
        self.owners.pop(match, None)
        return False

    # ---------------------------------------------------------------------------- matches

    async def open_match(self, table: OwnedTable) -> None:
        epoch = await self._acquire(
            keys=[self.mk(table.id, "lease"), self.mk(table.id, "epoch")], args=[self.pid, self.lease_ms]
        )
        if not epoch:
            raise Fenced(f"match {table.id} is already owned")
        table.epoch = int(epoch)
        self.owners[table.id] = self.pid
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(self.mk(table.id, "meta"), _dumps(table.meta()))
        pipe.sadd(self.k("live"), table.id)
        await pipe.execute()

    def log(self, table: OwnedTable, entry: dict[str, Any]) -> None:
        if not (table.dirty or table.fenced):
            self._queue("xadd", table, (1, f"{len(table.entries)}-0", _dumps(entry)))

    def log_seat(self, table: OwnedTable, seat: int, message: dict[str, Any]) -> None:
        if not (table.dirty or table.fenced):
            text = _dumps(message)
            texts = self._texts
            texts[id(message)] = (message, text)
            if len(texts) > 8192:  # never delivered (the seat was away): forget the oldest
                del texts[next(iter(texts))]
            self._queue("xadd", table, (2 + seat, f"{message['v'] + 1}-0", text))

    def deliver(self, table: OwnedTable, conn: Any, message: dict[str, Any]) -> None:
        got = self._texts.pop(id(message), None)
        text = got[1] if got is not None and got[0] is message else None
        if isinstance(conn, RemoteSeat):  # published after the stream writes queued before it
            data = conn.envelope(message, _dumps(message) if text is None else text)
            self.publish_text(conn.pid, data, table)
        elif text is not None and hasattr(conn, "send_text"):  # sent once the writes before it are stored
            self._queue("send", table, (conn, text))
        else:
            self._queue("send", table, (conn, message))

    def publish(self, pid: str, data: dict[str, Any]) -> None:
        """Queue a message to a process (in order with the stream writes)."""
        self.publish_text(pid, _dumps(data))

    def publish_text(self, pid: str, data: str, table: OwnedTable | None = None) -> None:
        """Queue a publication to a process, after the stream writes queued before it (and dropped if it is
        ``table``'s and a newer owner fences it)."""
        self._queue("pub", table, (self.k("p", pid), data))

    async def barrier(self, table: OwnedTable) -> None:
        deadline = time.monotonic() + 10
        while True:
            await self._flush()
            if table.fenced:
                raise Fenced(f"match {table.id}: a newer owner holds it")
            if not table.dirty or time.monotonic() > deadline:
                return
            await asyncio.sleep(0.1)  # Redis away: the log is stored again before any bean moves

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

    # ---------------------------------------------------------------------------- writer

    def _queue(self, kind: str, table: OwnedTable | None, args: Any) -> None:
        self._ops.append((kind, table, args))
        self._wake.set()

    async def _flush(self) -> None:
        """Wait until everything queued so far has been sent."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue("fut", None, fut)
        await fut

    async def _write_loop(self) -> None:
        """Send whatever is queued, one write at a time (order kept)."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._ops:
                if len(self._ops) <= 3000:
                    batch, self._ops = self._ops, []
                else:
                    batch, self._ops = self._ops[:3000], self._ops[3000:]
                await self._write(batch)

    async def _write(self, batch: list[tuple[str, Any, Any]]) -> None:
        """Store a batch in one call of the write script (each match's entries behind one check of its fence,
        then the publications), then deliver its messages: nothing reaches a player before the entries queued
        before it are stored, and nothing of a fenced match reaches anyone."""
        groups: dict[OwnedTable, list[Any]] = {}
        pubs: list[tuple[OwnedTable | None, str, str]] = []
        cmds = []
        for kind, table, args in batch:
            if kind == "xadd":
                groups.setdefault(table, []).extend(args)
            elif kind == "pub":
                if table is not None:
                    groups.setdefault(table, [])  # its fence is checked too
                pubs.append((table, *args))
            elif kind == "cmd":
                cmds.append(args)
        results: dict[OwnedTable, int] = {}
        if groups or pubs:
            keys, argv = self._write_args(groups, pubs)
            try:
                results = dict(zip(groups, await self._write_script(keys=keys, args=argv), strict=True))
            except (RedisError, OSError) as exc:
                log.warning("redis write failed (%s); the matches are stored again when it is back", exc)
                self.connected_to_redis = False
                for table, entries in groups.items():
                    if entries:
                        table.dirty = True
        if cmds:
            with contextlib.suppress(RedisError, OSError):
                pipe = self.redis.pipeline(transaction=False)
                for cmd in cmds:
                    cmd(pipe)
                await pipe.execute(raise_on_error=False)
        for table, r in results.items():
            if r == -1 and not table.fenced:
                self._fence(table)
            elif r == -2:
                table.dirty = True
        for kind, target, arg in batch:
            if kind == "fut":
                if not arg.done():
                    arg.set_result(None)
            elif kind == "send" and not target.fenced:
                conn, message = arg
                if isinstance(message, str):
                    conn.send_text(message)
                else:
                    conn.send(message)

    def _write_args(
        self, groups: dict[OwnedTable, list[Any]], pubs: list[tuple[OwnedTable | None, str, str]]
    ) -> tuple[list[str], list[Any]]:
        """KEYS and ARGV of the write script (:data:`_WRITE`)."""
        keys: list[str] = []
        argv: list[Any] = [len(groups)]
        index: dict[OwnedTable, int] = {}
        for g, (table, entries) in enumerate(groups.items(), 1):
            index[table] = g
            base = self.mk(table.id, "")
            keys += [base + "epoch", base + "log", base + "s:0", base + "s:1"]
            argv += [table.epoch, len(entries) // 3]
            argv += entries
        argv.append(len(pubs))
        for owner, channel, data in pubs:
            argv += [0 if owner is None else index[owner], channel, data]
        return keys, argv

    def _fence(self, table: OwnedTable) -> None:
        table.fenced = True
        match_log("fenced", table.id, pid=self.pid, epoch=table.epoch)
        if table.task is not None and table.task is not asyncio.current_task():
            table.task.cancel()

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
        _in_pipe(pipe, self._reset, [epoch_key, *streams], [t.epoch])
        entries: list[Any] = []
        for i, e in enumerate(t.entries[:n_log]):
            entries += [1, f"{i + 1}-0", _dumps(e)]
        for seat, s in enumerate(t.seats):
            for v, m in enumerate(s.log[: n_seat[seat]]):  # a message's v is its index in the seat's log
                entries += [2 + seat, f"{v + 1}-0", m if isinstance(m, str) else _dumps(m)]
        keys, argv = self._write_args({t: entries}, [])
        _in_pipe(pipe, self._write_script, keys, argv)
        pipe.set(self.mk(t.id, "meta"), _dumps(t.meta()))
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
            self._queue("xadd", t, (1, f"{i + 1}-0", _dumps(t.entries[i])))
        for seat, s in enumerate(t.seats):
            for v in range(n_seat[seat], len(s.log)):
                m = s.log[v]
                self._queue("xadd", t, (2 + seat, f"{v + 1}-0", m if isinstance(m, str) else _dumps(m)))
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
        room = hub.rooms.get(meta["room"]) if meta else None
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
                self.relays.pop((match, seat), None)
            elif where and await self.redis.exists(self.k("alive", where.split("|")[0])):
                pid, cid = where.split("|", 1)
                conns.append(RemoteSeat(self, pid, cid, match, seat))
            else:
                conns.append(None)
        table = hub.take_over(match, room, meta, entries, seat_logs, int(epoch), conns)
        hub.metrics["takeovers"] += 1
        match_log(
            "takeover", match, pid=self.pid, epoch=table.epoch, entries=len(entries), resume=table.resume
        )
        await self.redis.publish(self.k("all"), _dumps({"k": "owner", "m": match, "p": self.pid}))
        table.resync_all()

    # --------------------------------------------------------------------------- pub/sub

    async def _listen(self, subscribed: asyncio.Event) -> None:
        """The supervised subscriber: resubscribe after a lost connection, then resync."""
        again = False
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.k("p", self.pid), self.k("all"))
                subscribed.set()
                if again:
                    await self._resubscribed()
                again = True
                while True:
                    msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if msg is not None and msg["type"] == "message":
                        try:
                            await self._on(_received(msg["data"]))
                        except (RedisError, OSError):
                            raise
                        except Exception:
                            log.exception("message %r", msg["data"][:200])
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except (RedisError, OSError) as exc:
                self.connected_to_redis = False
                log.warning("redis subscriber lost (%s); reconnecting", exc)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(0.2)

    async def _resubscribed(self) -> None:
        """Back on Redis: register the sockets here again, mark the matches owned here for storing again,
        and ask the owners of the relayed matches for what was missed."""
        hub = self.hub
        assert hub is not None
        self.connected_to_redis = True
        hub.metrics["redis_reconnects"] += 1
        for conn in list(hub.connections.values()):
            await self.connected(conn)
        for t in hub.tables.values():
            t.dirty = True
        self.owners.clear()
        for r in list(self.relays.values()):
            hub.spawn(self._rehello(r))

    async def _rehello(self, r: Relay) -> None:
        """Ask a relayed match's owner for what this socket missed (the owner may need a moment to be back
        on Redis itself)."""
        for _ in range(20):
            if self.relays.get((r.match, r.seat)) is not r:
                return
            hello = {
                "k": "hello",
                "m": r.match,
                "s": r.seat,
                "cid": r.conn.cid,
                "p": self.pid,
                "since": r.last,
            }
            with contextlib.suppress(RedisError, OSError):
                if await self._to_owner(r.match, hello):
                    return
            await asyncio.sleep(self.lease_ms / 4000)

    async def _on(self, d: dict[str, Any]) -> None:
        hub = self.hub
        assert hub is not None
        kind = d["k"]
        if kind == "out":
            relay = self.relays.get((d["m"], d["s"]))
            if relay is not None and relay.conn.cid == d["cid"]:
                await self._relay(relay, d)
        elif kind in ("in", "hello", "gone"):
            table = hub.tables.get(d["m"])
            if table is None or table.fenced:
                return
            seat = d["s"]
            s = table.seats[seat]
            if kind == "gone":
                await table.inbox.put((seat, disconnected(d["cid"])))
                return
            if kind == "hello" or getattr(s.conn, "cid", None) != d["cid"]:
                since = d.get("since", len(s.log) - 1)
                conn: Any = RemoteSeat(self, d["p"], d["cid"], d["m"], seat)
                if d["p"] == self.pid:
                    conn = hub.connections.get(s.account_id) or conn
                await table.inbox.put((seat, reconnected(conn, since)))
            if kind == "in":
                await table.inbox.put((seat, P.parse_object(d["msg"])))
        elif kind == "matched":
            conn2 = hub.connections.get(d["a"])
            if conn2 is not None and conn2.cid == d["cid"]:
                self.relays[(d["m"], d["s"])] = Relay(conn2, d["m"], d["s"], -1)
                hub.seat_of[d["a"]] = (d["m"], d["s"])
                conn2.send(d["msg"])
        elif kind == "owner":
            self.owners[d["m"]] = d["p"]
        elif kind == "adopt" and d.get("p") != self.pid:
            hub.spawn(self._takeover(d["m"]))

    async def _relay(self, relay: Relay, d: dict[str, Any]) -> None:
        """Forward an owner's message (``d``: an ``out`` publication's header and ``text``) to the socket,
        first filling any gap from the seat's stream."""
        v, text = d["v"], d["text"]
        if v is None:  # acks, errors (an ack's latency is observed as it is sent)
            relay.conn.send(json.loads(text))
            return
        snapshot = d["t"] == "snapshot"
        upto = v if snapshot else v - 1
        if upto > relay.last:
            await self._fill(relay, upto)
        if snapshot or v > relay.last:
            relay.conn.send_text(text)
            relay.last = max(relay.last, v)
        if d["t"] == "match_end":
            self.relays.pop((relay.match, relay.seat), None)
            assert self.hub is not None
            if relay.conn.account_id is not None:
                self.hub.seat_of.pop(relay.conn.account_id, None)

    async def _fill(self, relay: Relay, upto: int) -> None:
        assert self.hub is not None
        entries = await self.redis.xrange(
            self.mk(relay.match, "s", relay.seat), f"{relay.last + 2}-0", f"{upto + 1}-0"
        )
        self.hub.metrics["gap_fills"] += 1
        for entry_id, fields in entries:
            v = int(entry_id.partition("-")[0]) - 1
            if v > relay.last:
                relay.conn.send_text(fields["d"])
                relay.last = v


def _received(data: str) -> dict[str, Any]:
    """A publication as a dict. A seat message's (``{"k":"out",`` … ``"msg":`` its text ``}``) is not decoded
    whole: its header is, and the text is kept as ``text`` (the ``msg`` key is the envelope's last; nothing in
    the header before it can contain ``,"msg":``). An envelope from a process of an earlier version (no ``v``,
    ``t`` in the header) has them read from the message."""
    if not data.startswith('{"k":"out",'):
        return json.loads(data)  # type: ignore[no-any-return]
    at = data.index(',"msg":')
    d: dict[str, Any] = json.loads(data[:at] + "}")
    d["text"] = data[at + 7 : -1]
    if "t" not in d:
        message = json.loads(d["text"])
        d["v"], d["t"] = message.get("v"), message.get("type")
    return d
