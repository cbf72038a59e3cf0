"""The Redis backend on its own (no server process): the writer — one write per batch, a message reaching its
socket only after the entries queued before it are stored, exactly as stored, a fenced match storing nothing
and reaching nobody, Redis that lost the match or its scripts —, the leases renewed in one call, one round of
matchmaking over every room in one call, and the envelope of a relayed seat message."""

from __future__ import annotations

import asyncio
import json
import secrets
import shutil
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis as redis_lib

from erma.server.backends import Fenced
from erma.server.backends.redis import RedisBackend, RemoteSeat
from erma.server.backends.redis.wire import received
from erma.server.config import Settings

from ..server.conftest import run_async
from .conftest import SHARED_REDIS, RedisServer, _unavailable


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    if shutil.which("redis-server") and shutil.which("redis-cli"):
        server = RedisServer(tmp_path)
        server.start()
        try:
            yield server.url
        finally:
            server.shutdown()
        return
    try:
        redis_lib.Redis.from_url(SHARED_REDIS, socket_connect_timeout=2).ping()
    except redis_lib.RedisError as e:
        _unavailable(f"Redis at {SHARED_REDIS} is not reachable: {e}")
    yield SHARED_REDIS


class FakeHub:
    def __init__(self) -> None:
        self.tables: dict[str, Any] = {}
        self.metrics: Counter[str] = Counter()
        self.connections: dict[int, Any] = {}
        self.rooms: dict[str, Any] = {}

    def spawn(self, coro: Any) -> None:
        raise AssertionError("nothing is spawned here")


class FakeTable:
    def __init__(self) -> None:
        self.id = secrets.token_hex(8)
        self.epoch = 0
        self.dirty = self.fenced = False
        self.task: asyncio.Task[None] | None = None
        self.entries: list[dict[str, Any]] = []
        self.seats: list[Any] = []
        self.clock_view: dict[str, Any] | None = None

    def meta(self) -> dict[str, Any]:
        return {"room": "r", "secret": "s", "seats": []}

    def starts_clock(self, message: dict[str, Any]) -> bool:
        return message is self.clock_view

    def sent(self, message: dict[str, Any]) -> None:
        """(No decision's clock here.)"""


class Socket:
    """A local connection that records, for each message it gets, what Redis held at that moment."""

    cid = "c1"

    def __init__(self, sync: redis_lib.Redis, backend: RedisBackend, table: FakeTable) -> None:
        self.sync = sync
        self.log_key, self.seat_key = backend.mk(table.id, "log"), backend.mk(table.id, "s", 0)
        self.got: list[tuple[str, int, int]] = []

    def send(self, message: dict[str, Any]) -> None:
        raise AssertionError(f"a stored message goes out as its stored text: {message}")

    def send_text(self, text: str) -> None:
        self.got.append((text, self.sync.xlen(self.log_key), self.sync.xlen(self.seat_key)))


def test_messages_go_out_after_their_entries_are_stored_and_a_fenced_match_goes_quiet(redis_url: str) -> None:
    sync = redis_lib.Redis.from_url(redis_url, decode_responses=True)

    async def go() -> None:
        backend = RedisBackend(redis_url, Settings(redis_prefix=f"w{secrets.token_hex(3)}"))
        hub = FakeHub()
        await backend.start(hub)  # type: ignore[arg-type]
        try:
            table = FakeTable()
            await backend.open_match(table)  # type: ignore[arg-type]
            hub.tables[table.id] = table
            sock = Socket(sync, backend, table)
            listener = sync.pubsub()
            listener.subscribe(backend.k("p", "elsewhere"))

            def act(n: int) -> dict[str, Any]:
                entry = {"t": "act", "s": 0, "a": f"discard {n}m", "q": n}
                table.entries.append(entry)
                backend.log(table, entry)  # type: ignore[arg-type]
                message = {"type": "event", "event": {"n": n, "名": "东"}, "match": table.id, "v": n}
                backend.log_seat(table, 0, message)  # type: ignore[arg-type]
                backend.deliver(table, sock, message)  # type: ignore[arg-type]
                backend.publish_text("elsewhere", f"about {n}", table)  # type: ignore[arg-type]
                return message

            sent = [act(n) for n in range(3)]
            await backend.barrier(table)  # type: ignore[arg-type]
            # one write for the batch; each message went out with its own entries (and all before it) stored
            assert [(log_n, seat_n) for _, log_n, seat_n in sock.got] == [(3, 3)] * 3
            seat_key = backend.mk(table.id, "s", 0)
            stored = [f["d"] for _, f in sync.xrange(seat_key)]
            assert [t for t, _, _ in sock.got] == stored  # the socket gets the stored text itself
            assert [m["v"] for m in sent] == [int(i.split("-")[0]) - 1 for i, _ in sync.xrange(seat_key)]
            assert [i for i, _ in sync.xrange(backend.mk(table.id, "log"))] == ["1-0", "2-0", "3-0"]

            # Redis lost its script cache: the write loads the script again and carries on
            sync.script_flush()
            act(3)
            await backend.barrier(table)  # type: ignore[arg-type]
            assert len(sock.got) == 4 and sync.xlen(backend.mk(table.id, "log")) == 4

            # a newer owner took the match (its epoch moved on): nothing more is stored, sent or published
            sync.incr(backend.mk(table.id, "epoch"))
            act(4)
            with pytest.raises(Fenced):
                await backend.barrier(table)  # type: ignore[arg-type]
            assert table.fenced
            assert len(sock.got) == 4 and sync.xlen(backend.mk(table.id, "log")) == 4
            assert sync.xlen(seat_key) == 4
            published = []
            while (m := listener.get_message(timeout=0.2)) is not None:
                if m["type"] == "message":
                    published.append(m["data"])
            assert published == [f"about {n}" for n in range(4)]

            # Redis lost the match (no epoch): the table is marked for storing again from memory
            other = FakeTable()
            await backend.open_match(other)  # type: ignore[arg-type]
            sync.delete(backend.mk(other.id, "epoch"))
            other.entries.append({"t": "next", "s": 0})
            backend.log(other, other.entries[-1])  # type: ignore[arg-type]
            await backend._flush()
            assert other.dirty and not other.fenced
            listener.close()
        finally:
            for task in backend._tasks:
                task.cancel()
            await backend.redis.aclose()

    run_async(go())


def test_leases_renewed_in_one_call_and_a_lost_one_fences_its_table(redis_url: str) -> None:
    sync = redis_lib.Redis.from_url(redis_url, decode_responses=True)

    async def go() -> None:
        backend = RedisBackend(redis_url, Settings(redis_prefix=f"w{secrets.token_hex(3)}", lease_ms=300))
        hub = FakeHub()
        await backend.start(hub)  # type: ignore[arg-type]
        try:
            kept, lost, gone = FakeTable(), FakeTable(), FakeTable()
            for t in (kept, lost, gone):
                await backend.open_match(t)  # type: ignore[arg-type]
                hub.tables[t.id] = t
            sync.incr(backend.mk(lost.id, "epoch"))  # another process took it over
            sync.delete(backend.mk(gone.id, "lease"))  # ran out, nobody took it: this owner takes it again
            await asyncio.sleep(0.4)  # more than one renewal (every lease / 3)
            assert lost.fenced and not kept.fenced and not gone.fenced
            assert sync.get(backend.mk(gone.id, "lease")) == backend.pid
            assert 0 < sync.pttl(backend.mk(kept.id, "lease")) <= 300
            assert sync.exists(backend.k("alive", backend.pid))
        finally:
            for task in backend._tasks:
                task.cancel()
            await backend.redis.aclose()

    run_async(go())


def test_one_round_of_matchmaking_over_every_room(redis_url: str) -> None:
    async def go() -> None:
        backend = RedisBackend(redis_url, Settings(redis_prefix=f"w{secrets.token_hex(3)}"))
        try:
            for account in (1, 2, 3, 4, 5):
                await backend.redis.zadd(backend.k("q", "a"), {str(account): 100.0 + account})
            await backend.redis.zadd(backend.k("q", "b"), {"7": time.time() - 1})
            await backend.redis.zadd(backend.k("q", "c"), {"8": time.time()})
            got = await backend.pop_round(["a", "b", "c", "d"], waited_s=0.5)
            # room a: two pairs in queue order, then the fifth (it waited long enough for a bot); room b: its
            # one player waited long enough; room c: not yet
            assert got == [("a", [[1, 2], [3, 4]], [5]), ("b", [], [7])]
            assert await backend.redis.zrange(backend.k("q", "c"), 0, -1) == ["8"]
            assert await backend.pop_round(["a", "b", "d"], waited_s=0.5) == []
        finally:
            await backend.redis.aclose()

    run_async(go())


def test_a_relayed_seat_message_is_forwarded_as_its_text_and_old_envelopes_still_read() -> None:
    seat = RemoteSeat(None, "p1", "p1:7", "m1", 1)  # type: ignore[arg-type]
    message = {
        "type": "view",
        "view": {"names": ["东", 'say ,"msg": hi'], "x": {"msg": 1}},
        "match": "m1",
        "v": 9,
    }
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    data = seat.envelope(message, text)
    got = received(data)
    assert got["text"] == text and (got["k"], got["m"], got["s"], got["cid"]) == ("out", "m1", 1, "p1:7")
    assert (got["v"], got["t"]) == (9, "view")
    assert json.loads(data)["msg"] == message  # a process of the earlier version reads it whole
    old = json.dumps({"k": "out", "m": "m1", "s": 1, "cid": "p1:7", "msg": message}, separators=(",", ":"))
    got = received(old)  # as that version publishes it
    assert json.loads(got["text"]) == message and (got["v"], got["t"]) == (9, "view")
    assert received('{"k":"in","m":"m1","msg":{"type":"action"}}') == {
        "k": "in",
        "m": "m1",
        "msg": {"type": "action"},
    }


def test_matchmaking_by_rating_in_the_lua_round_matches_the_python_rule(redis_url: str) -> None:
    from types import SimpleNamespace

    from erma.server.pairing import pair_by_rating

    async def go() -> None:
        settings = Settings(
            redis_prefix=f"r{secrets.token_hex(3)}", rating_window=2.0, rating_widen_per_s=1.0
        )
        backend = RedisBackend(redis_url, settings)
        backend.hub = SimpleNamespace(settings=settings, rooms={"a": None})  # type: ignore[assignment]
        try:
            now = time.time()
            queued = [(1, now - 3, 25.0), (2, now - 2, 10.0), (3, now - 1, 24.0), (4, now, 40.0)]
            for account, t, rating in queued:
                await backend.redis.zadd(backend.k("q", "a"), {str(account): t})
                await backend.redis.hset(backend.k("qr", "a"), str(account), repr(rating))
            got = await backend.pop_round(["a"], waited_s=float("inf"))
            # 1 and 3 are 1 apart: paired; 2 (nearest 3, 14 apart after 2 s) and 4 wait
            assert got == [("a", [[1, 3]], [])]
            assert got[0][1] == pair_by_rating(queued, now, 2.0, 1.0)
            assert await backend.redis.hgetall(backend.k("qr", "a")) == {"2": "10.0", "4": "40.0"}
            await backend.redis.zadd(backend.k("q", "a"), {"2": now - 30})  # 2 has waited 30 s: 2 + 30 ≥ 30
            got = await backend.pop_round(["a"], waited_s=float("inf"))
            assert got == [("a", [[2, 4]], [])]
            await backend.enqueue("a", 9, 12.5)
            assert await backend.redis.hget(backend.k("qr", "a"), "9") == "12.5"
            await backend.unqueue(9)
            assert await backend.redis.hget(backend.k("qr", "a"), "9") is None
        finally:
            await backend.redis.aclose()

    run_async(go())


def test_the_sweeper_is_told_who_holds_a_match(redis_url: str) -> None:
    """A match is held while a table here runs it, another process has its lease, or its log is live awaiting
    a takeover; only a match with none of them is the sweeper's (erma.server.sweeper)."""
    sync = redis_lib.Redis.from_url(redis_url, decode_responses=True)

    async def go() -> None:
        backend = RedisBackend(redis_url, Settings(redis_prefix=f"h{secrets.token_hex(3)}"))
        hub = FakeHub()
        await backend.start(hub)  # type: ignore[arg-type]
        try:
            here = FakeTable()
            await backend.open_match(here)  # type: ignore[arg-type]
            hub.tables[here.id] = here
            assert await backend.match_held(here.id)
            elsewhere, orphan, gone = "m-elsewhere", "m-orphan", "m-gone"
            sync.set(backend.mk(elsewhere, "lease"), "other-pid", px=60_000)
            sync.sadd(backend.k("live"), orphan)  # its owner's lease ran out: a takeover will settle it
            assert await backend.match_held(elsewhere) and await backend.match_held(orphan)
            assert not await backend.match_held(gone)
        finally:
            for task in backend._tasks:
                task.cancel()
            await backend.redis.aclose()

    run_async(go())


def test_the_writer_reports_a_decisions_view_sent_once_it_went_out(redis_url: str) -> None:
    """The clock of a decision starts when its view goes out (server/streams.py ``sent``): the writer reports
    the view a table marked (``clock_view``) after the socket got it, and no other message."""
    sync = redis_lib.Redis.from_url(redis_url, decode_responses=True)

    async def go() -> None:
        backend = RedisBackend(redis_url, Settings(redis_prefix=f"w{secrets.token_hex(3)}"))
        hub = FakeHub()
        await backend.start(hub)  # type: ignore[arg-type]
        try:
            table = FakeTable()
            await backend.open_match(table)  # type: ignore[arg-type]
            hub.tables[table.id] = table
            sock = Socket(sync, backend, table)
            reported: list[tuple[int, int]] = []
            table.sent = lambda m: reported.append((m["v"], len(sock.got)))  # type: ignore[method-assign]
            for v in range(3):
                message = {"type": "view" if v == 1 else "event", "match": table.id, "v": v}
                if v == 1:
                    table.clock_view = message
                backend.log_seat(table, 0, message)  # type: ignore[arg-type]
                backend.deliver(table, sock, message)  # type: ignore[arg-type]
                assert reported == []  # (queued: nothing has gone out yet)
            await backend.barrier(table)  # type: ignore[arg-type]
            assert reported == [(1, 2)]  # the view alone, reported as soon as it went out (the 2nd message)
        finally:
            await backend.stop()

    run_async(go())
