"""The Redis backend's relay (转发): sockets here playing matches owned elsewhere, clients' messages routed to
a match's owner, and the supervised subscriber that carries the processes' publications."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from redis.exceptions import RedisError

from erma.server import protocol as P
from erma.server.backends.redis.ownership import RedisOwnership
from erma.server.backends.redis.wire import Relay, RemoteSeat, dumps, received
from erma.server.ports import Socket
from erma.server.seats import disconnected, reconnected

log = logging.getLogger("erma.redis")


class RedisRelay(RedisOwnership):
    """Routing between the processes."""

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

    async def announce_signout(self) -> None:
        with contextlib.suppress(RedisError, OSError):  # (each process checks on its own anyway)
            await self.redis.publish(self.k("all"), dumps({"k": "signout", "p": self.pid}))

    async def _to_owner(self, match: str, data: dict[str, Any]) -> bool:
        """Publish to the match's owner; False if no process received it."""
        owner = self.owners.get(match)
        if owner == self.pid and (self.hub is None or match not in self.hub.tables):
            owner = None  # (a match this process lost: never publish to itself for it)
        if owner is None:
            owner = await self.redis.get(self.mk(match, "lease"))
            if owner is None:
                return False
            self.owners[match] = owner
        if owner == self.pid:
            if self.hub is not None and match in self.hub.tables:
                await self._on(data)
                return True
            self.owners.pop(match, None)  # the lease names this process, whose table is gone: nobody serves
            return False
        if await self.redis.publish(self.k("p", owner), dumps(data)):
            assert self.hub is not None
            self.hub.metrics["routed"] += 1
            return True
        self.owners.pop(match, None)
        return False

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
                            await self._on(received(msg["data"]))
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
        elif kind == "tell":  # a friend table's news or a chat for a socket here
            conn3 = hub.connections.get(d["a"])
            if conn3 is not None:
                conn3.send(d["msg"])
        elif kind == "owner":
            self.owners[d["m"]] = d["p"]
        elif kind == "signout" and d.get("p") != self.pid and self.on_signout is not None:
            self.on_signout()
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
