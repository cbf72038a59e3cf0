"""The hub (大厅): live connections, the lobby, matchmaking and the tables of one server process (a socket's
own machinery is in :mod:`erma.server.connection`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter, deque
from collections.abc import Collection, Coroutine, Sequence
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from erma.server import outbound as O
from erma.server import protocol as P
from erma.server.addresses import client_address
from erma.server.backends import Backend, LocalBackend, match_log
from erma.server.commitment import commitment
from erma.server.config import Room, Settings
from erma.server.connection import CLOSE_MOVED, Bucket, Connection, Latency
from erma.server.friend_desk import FriendDesk
from erma.server.friends import FRIEND_PREFIX, friend_room
from erma.server.ports import OwnedTable
from erma.server.restore import restore_table
from erma.server.seats import SeatConn, SeatInfo, disconnected, hand_start_index, reconnected
from erma.server.sessions import SessionWatch
from erma.server.stalls import StallWatch
from erma.server.sweeper import Sweeper
from erma.server.table import Table
from erma.server.thinker import Thinker
from erma.store.accounts import session_key

log = logging.getLogger("erma.hub")

BOT_NAMES = {
    "random": "机器人·随机",
    "greedy": "机器人·贪心",
    "level1": "机器人·新手 L1",
    "level2": "机器人·入门 L2",
    "level3": "机器人·中级 L3",
    "level4": "机器人·高级 L4",
    "level5": "机器人·高手 L5",
}
"""The bots that fill seats (each with its account), by registry name, and the name their seat shows. A
player's bot match takes the level the player chose (``queue.level``), else the level nearest the player's
rating (:func:`erma.server.pairing.nearest_bot`, anchors in erma/ratings/anchors.toml); a seat nobody came
for in quick match takes the room's ``bot_level`` (docs/bots.md)."""


class Hub:
    """Everything live in one process: the host of its tables and of its backend (:class:`erma.server.ports.
    TableHost`, :class:`erma.server.ports.BackendHost`)."""

    def __init__(
        self, settings: Settings, rooms: dict[str, Room], store: Any, backend: Backend | None = None
    ) -> None:
        self.settings = settings
        self.rooms = rooms
        self.store = store
        self.backend = backend or LocalBackend()
        self.connections: dict[int, Connection] = {}
        self.tables: dict[str, Table] = {}
        """The matches this process owns."""
        self.seat_of: dict[int, tuple[str, int]] = {}
        """account id → (match id, seat): a cache of the backend's seats for the sockets here."""
        self.bot_accounts: dict[str, int] = {}
        self.metrics: Counter[str] = Counter()
        self.latency = Latency()
        self.loop_lag = Latency()
        """How late the event loop wakes a timer (ms): every message waits this long behind other work."""
        self._lag_task: asyncio.Task[None] | None = None
        self.thinker = Thinker(settings.bot_workers)
        """Where bots (and auto-play) think."""
        self.started = time.time()
        self._matcher: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._rate: deque[tuple[float, int]] = deque(maxlen=11)
        self._addr_buckets: dict[str, Bucket] = {}
        self.sweeper = Sweeper(self)
        self.stopping = False
        self.sessions = SessionWatch(
            lambda: self.connections.values(), store, settings.session_check_s, self.metrics
        )
        """Closes the sockets whose session ended (4401 "signed out")."""
        self.backend.on_signout = self.sessions.poke
        self.stalls = StallWatch(
            lambda: list(self.connections.values()),
            self._gone,
            settings.send_backlog_max,
            settings.send_stall_s,
            self.metrics,
        )
        """Closes the sockets that stopped reading (4408 "not reading"): their seats go to auto-play."""
        self.friends = FriendDesk(self)
        """The friend tables (好友房) and quick chat."""

    async def start(self) -> None:
        """Create the bot accounts and start matchmaking."""
        from erma.store.house import bot_account

        for bot in BOT_NAMES:
            self.bot_accounts[bot] = await bot_account(self.store, bot)
        self.thinker.start()
        await self.backend.start(self)
        self._matcher = asyncio.create_task(self._match_loop())
        self._lag_task = asyncio.create_task(self._watch_lag())
        self.sweeper.start()  # no stake stranded: open holds nobody owns are resolved (erma.server.sweeper)
        self.sessions.start()
        self.stalls.start()

    async def stop(self) -> None:
        """Stop matchmaking; a distributed backend hands this process's matches over to the others; the
        remaining tables stop (their open units are refunded or settled by whoever carries on)."""
        self.sweeper.stop()
        self.stopping = True
        if self._matcher:
            self._matcher.cancel()
        if self._lag_task:
            self._lag_task.cancel()
        await self.sessions.stop()
        await self.stalls.stop()
        await self.backend.stop()
        for table in list(self.tables.values()):
            if table.task:
                table.task.cancel()
        for conn in list(self.connections.values()):
            await conn.close("server stopping")
        self.thinker.stop()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run a coroutine in the background (kept referenced until it ends)."""
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def actions_per_second(self) -> float:
        """Actions applied by this process's tables over the last ten seconds or so, per second."""
        self._sample()
        (t0, a0), (t1, a1) = self._rate[0], self._rate[-1]
        return (a1 - a0) / (t1 - t0) if t1 > t0 else 0.0

    def _sample(self) -> None:
        now = time.monotonic()
        if not self._rate or now - self._rate[-1][0] >= 1:
            self._rate.append((now, self.metrics["actions"]))

    # ---------------------------------------------------------------------------- sockets

    def _limited(self, conn: Connection, bucket: Bucket | None, address: str) -> bool:
        """Whether this message is over the socket's or the address's rate (then it is not handled)."""
        now = time.monotonic()
        addr_rate = self.settings.addr_msg_rate
        if addr_rate > 0:
            ab = self._addr_buckets.get(address)
            if ab is None:
                if len(self._addr_buckets) > 10_000:  # forget the addresses that went quiet
                    self._addr_buckets = {a: b for a, b in self._addr_buckets.items() if not b.full(now)}
                ab = self._addr_buckets[address] = Bucket(addr_rate, 2 * addr_rate, now)
            if not ab.take(now):
                return True
        return bucket is not None and not bucket.take(now)

    async def serve_socket(self, ws: WebSocket) -> None:
        """Read one client's messages until it goes away; a bad message gets an error and nothing else;
        a flood gets an error, then (still flooding) the socket is closed."""
        await ws.accept()
        conn = Connection(ws, self.backend.pid, self.latency)
        self.metrics["sockets_opened"] += 1
        if "token" in ws.query_params:  # a token in a URL ends up in logs and histories: refused
            conn.send(O.Error("token_in_url", "send the session token in hello, never in the URL").to_dict())
            await conn.close("token in the URL", code=1008)
            await self._gone(conn)
            return
        address = client_address(ws, self.settings.trusted_proxies)
        conn.address = address
        s = self.settings
        bucket = Bucket(s.msg_rate, s.msg_burst, time.monotonic()) if s.msg_rate > 0 else None
        abuse = Bucket(max(s.msg_rate, 1), max(10, s.msg_burst), time.monotonic())
        """Messages over the limit: an error for the first of a run; when these run out, the socket closes."""
        warned = False
        try:
            while True:
                try:
                    raw = await ws.receive()
                except (WebSocketDisconnect, RuntimeError):
                    break
                if raw["type"] == "websocket.disconnect":
                    break
                if self._limited(conn, bucket, address):
                    self.metrics["rate_limited"] += 1
                    if not abuse.take(time.monotonic()):
                        conn.send(
                            O.Error("rate_limited", "too many messages: closing the connection").to_dict()
                        )
                        await conn.close("too many messages", code=1008)
                        break
                    if not warned:
                        conn.send(
                            O.Error(
                                "rate_limited", "too many messages; slow down or be disconnected"
                            ).to_dict()
                        )
                        warned = True
                    continue
                warned = False
                data = raw.get("text")
                if data is None:
                    data = raw.get("bytes") or b""
                try:
                    msg = P.parse_message(data)
                except P.ProtocolError as exc:
                    conn.send(O.Error(exc.code, str(exc), exc.seq).to_dict())
                    continue
                except Exception:  # parse_message raises nothing else; never let it close the socket
                    log.exception("parsing a message")
                    conn.send(O.Error("bad_message", "the message could not be read").to_dict())
                    continue
                try:
                    await self._dispatch(conn, msg)
                except Exception:  # never let one message kill the socket or a table
                    log.exception("message %r", msg)
                    conn.send(O.Error("server_error", "the server could not handle that message").to_dict())
        finally:
            await self._gone(conn)

    async def _gone(self, conn: Connection) -> None:
        if conn.ended:  # (closed for not reading, then its reader ended too)
            return
        conn.ended = True
        conn.closed = True
        conn.outbox.put_nowait(None)
        aid = conn.account_id
        if aid is not None and self.connections.get(aid) is conn:
            del self.connections[aid]
            with contextlib.suppress(Exception):
                await self.backend.unqueue(aid)
            where = self.seat_of.get(aid)
            if where and where[0] in self.tables:
                table = self.tables[where[0]]
                await table.inbox.put((where[1], disconnected(conn.cid)))
            with contextlib.suppress(Exception):
                await self.backend.disconnected(conn)
            self.seat_of.pop(aid, None)
        self.metrics["sockets_closed"] += 1

    async def _dispatch(self, conn: Connection, msg: Any) -> None:
        if isinstance(msg, P.Ping):
            conn.send(O.Pong(msg.t).to_dict())
            return
        if isinstance(msg, P.Hello):
            await self._hello(conn, msg)
            return
        if conn.account_id is None:
            conn.send(O.Error("not_authenticated", "send hello with a session token first").to_dict())
            return
        aid = conn.account_id
        if isinstance(msg, P.Rooms):
            conn.send(O.Rooms([r.public() for r in self.rooms.values()]).to_dict())
        elif isinstance(msg, P.Queue):
            await self._queue(conn, msg)
        elif isinstance(msg, P.Cancel):
            await self.backend.unqueue(aid)
            conn.send(O.Cancelled().to_dict())
        elif isinstance(msg, P.LOBBY_TYPES):
            await self.friends.handle(conn, msg)
        else:  # match messages
            if isinstance(msg, P.Act):
                conn.sent_at[msg.seq] = time.monotonic()
                if len(conn.sent_at) > 64:
                    conn.sent_at.pop(min(conn.sent_at))
            where = self.seat_of.get(aid)
            if where is None or where[0] != msg.match:
                where = await self.backend.seat_of(aid)
            table = self.tables.get(msg.match) if where and where[0] == msg.match else None
            if table is not None and where is not None:
                await table.inbox.put((where[1], msg))
                return
            if (
                where is not None
                and where[0] == msg.match
                and await self.backend.forward(conn, where[0], where[1], msg.model_dump())
            ):
                return
            seq = getattr(msg, "seq", None)
            conn.send(
                O.Error("no_such_match", f"you are not playing match {msg.match!r}", seq, msg.match).to_dict()
            )

    async def _hello(self, conn: Connection, msg: P.Hello) -> None:
        account = await self.store.account_for_session(msg.token)
        if account is None:
            conn.send(O.Error("bad_token", "unknown or expired session token").to_dict())
            return
        old = self.connections.get(account.id)
        conn.account_id, conn.name = account.id, account.name
        conn.session = session_key(msg.token)
        conn.entropy = msg.entropy
        self.connections[account.id] = conn
        if old is not None and old is not conn:  # one live socket per account: the new one wins
            old.send(O.Replaced("signed in elsewhere").to_dict())
            old.account_id = None
            await old.close("replaced by a new connection")
        balance = await self.store.balance(account.id)
        conn.send(
            O.Welcome(P.PROTOCOL_VERSION, account.id, account.name, account.is_guest, balance).to_dict()
        )
        await self.backend.connected(conn)
        where = await self.backend.seat_of(account.id)
        if where is None:
            await self.friends.on_hello(conn)
            for m in await self.backend.take_missed(account.id):  # a match that ended while away
                if m.get("v", 0) > msg.resume.get(m.get("match", ""), -1):  # (not what the client has)
                    conn.send(m)
            return
        since = msg.resume.get(where[0], -1)
        table = self.tables.get(where[0])
        if table is not None:
            self.seat_of[account.id] = where
            notice = O.MatchNotice(
                table.id,
                where[1],
                room=table.room.id,
                players=O.players(table.seats),
                hands=table.room.rules.match_hands or None,
                resumed=True,
            )
            conn.send(notice.to_dict())
            await table.inbox.put((where[1], reconnected(conn, since)))
            return
        # owned by another process: relay it (the owner sends what was missed, then a snapshot)
        self.seat_of[account.id] = where
        conn.send(O.MatchNotice(where[0], where[1], resumed=True).to_dict())
        await self.backend.attach(conn, where[0], where[1], since)

    # ------------------------------------------------------------------------- matchmaking

    async def _queue(self, conn: Connection, msg: P.Queue) -> None:
        aid = conn.account_id
        assert aid is not None
        room = self.rooms.get(msg.room)
        if room is None:
            conn.send(O.Error("no_such_room", f"unknown room {msg.room!r}").to_dict())
            return
        playing = await self.backend.seat_of(aid)
        if playing is not None:
            conn.send(O.Error("already_playing", f"you are playing match {playing[0]!r}").to_dict())
            return
        balance = await self.store.balance(aid)
        if balance < room.entry_min:
            conn.send(
                O.Error(
                    "not_enough_beans", f"room {room.id} needs {room.entry_min} beans; you have {balance}"
                ).to_dict()
            )
            return
        await self.backend.unqueue(aid)
        await self.friends.leave(aid)  # (a friend table waiting for this player is closed)
        if room.tier == "tutorial":  # 新手教程: its fixed wall against the greedy bot (server/tutorial.py)
            await self._open_table(room, [aid], with_bot=True, bot="greedy")
            return
        if msg.opponent == "bot":
            await self._open_table(
                room, [aid], with_bot=True, bot=f"level{msg.level}" if msg.level is not None else None
            )
            return
        rating = await self.store.rating_of(aid, room.rules.family)
        await self.backend.enqueue(room.id, aid, rating)
        conn.send(O.Queued(room.id, self.settings.bot_fill_s).to_dict())
        await self._pair(room)

    async def _pair(self, room: Room) -> None:
        for _, pairs, _ in await self.backend.pop_round([room.id], float("inf")):  # pairs by rating
            for pair in pairs:
                await self._open_table(room, pair, with_bot=False)

    async def _watch_lag(self, every: float = 0.05) -> None:
        """Measure the event loop's lag (how much later than asked a short sleep ends); a lag over 100 ms is
        logged as a warning (the players felt it)."""
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(every)
            lag = max(0.0, (loop.time() - start - every) * 1000)
            self.loop_lag.observe(lag)
            if lag > 100:
                log.warning(
                    "event loop lag %.0f ms (%d tables, %d sockets)",
                    lag,
                    len(self.tables),
                    len(self.connections),
                )

    async def _match_loop(self) -> None:
        while True:
            await asyncio.sleep(0.1)
            self._sample()
            try:  # one round trip for every room's queue with Redis
                wait = self.settings.bot_fill_s * self.settings.time_scale
                for room_id, pairs, waited in await self.backend.pop_round(list(self.rooms), wait):
                    room = self.rooms[room_id]
                    for pair in pairs:
                        await self._open_table(room, pair, with_bot=False)
                    for aid in waited:
                        await self._open_table(room, [aid], with_bot=True, bot=f"level{room.bot_level}")
            except Exception as exc:  # Redis away for a moment: matchmaking waits
                log.warning("matchmaking paused: %s", exc)
                await asyncio.sleep(0.5)

    async def _open_table(
        self,
        room: Room,
        accounts: list[int],
        with_bot: bool,
        bot: str | None = None,
        match_id: str | None = None,
    ) -> None:
        """Open a table for ``accounts``; with ``with_bot`` the seat left goes to the bot ``bot`` (a registry
        name), or to the level nearest the player's rating. ``match_id``: a friend table's (else a new
        one)."""
        match_id = match_id or secrets.token_hex(8)
        seats = []
        for aid in accounts:
            account = await self.store.account(aid)
            seats.append(SeatInfo(account_id=aid, name=account.name if account else str(aid)))
        if with_bot:
            from erma.bots import make_bot

            bot = bot or await self._bot_for(room, accounts[0])
            seats.append(
                SeatInfo(account_id=self.bot_accounts[bot], name=BOT_NAMES[bot], bot=make_bot(bot, match_id))
            )
        table = Table(self, match_id, room, seats)
        await self.backend.open_match(table)
        players = O.players(seats)
        for seat, s in enumerate(seats):
            if s.bot is None:
                await self.backend.set_seat(s.account_id, match_id, seat)
                message = O.MatchNotice(
                    match_id,
                    seat,
                    room=room.id,
                    players=players,
                    hands=room.rules.match_hands or None,
                    commitment=commitment(table.match.secret, 1),
                ).to_dict()
                s.conn = self.connections.get(s.account_id)
                if s.conn is not None:
                    s.entropy = getattr(s.conn, "entropy", None)
                    self.seat_of[s.account_id] = (match_id, seat)
                    s.conn.send(message)
                else:  # the player's socket is on another process (or nowhere): relay through it
                    s.conn = await self.backend.seat_conn(s.account_id, match_id, seat, message)
        self.start_table(table)
        match_log(
            "open", match_id, room=room.id, accounts=[s.account_id for s in seats], pid=self.backend.pid
        )

    async def _bot_for(self, room: Room, account_id: int) -> str:
        """The bot level nearest the player's rating in the room's rule family (greedy without a rating)."""
        from erma.ratings import anchors
        from erma.server.pairing import DEFAULT_RATING, nearest_bot

        rating = await self.store.rating_of(account_id, room.rules.family)
        levels = {name: r.mu for name, r in anchors().items()}
        found = nearest_bot(DEFAULT_RATING if rating is None else rating, levels, self.bot_accounts)
        return found or "greedy"

    def room_of(self, room_id: str) -> Room | None:
        """A room by id: the rooms file's, or a friend table's (:func:`erma.server.friends.friend_room`)."""
        return self.rooms.get(room_id) or friend_room(self.rooms, room_id)

    def start_table(self, table: Table) -> None:
        """Run a table owned by this process."""
        self.tables[table.id] = table
        self.metrics["matches_started"] += 1
        table.task = asyncio.create_task(table.run())

    def take_over(
        self,
        match_id: str,
        room: Room,
        meta: dict[str, Any],
        entries: list[dict[str, Any]],
        seat_logs: list[list[dict[str, Any]]],
        epoch: int,
        conns: Sequence[SeatConn | None],
        moved: Collection[int] = (),
    ) -> Table:
        """Own a match another process ran (its backend found it unowned): rebuild its table from its
        essentials, its log and its seats' streams, seat each person's connection (None: away, auto-play after
        the reconnect grace counted from now; ``moved``: away because their socket's process is gone, never
        charged a forfeit for it, see ``SeatInfo.moved``), and run it."""
        table = restore_table(self, match_id, room, meta, entries, seat_logs)
        table.epoch = epoch
        for seat, (s, conn) in enumerate(zip(table.seats, conns, strict=True)):
            if s.is_bot:
                continue
            if conn is not None:
                s.conn = conn
            else:
                s.autoplay = True
                s.away_since = time.monotonic()
                s.away_v = hand_start_index(s.log)  # its endings from there are kept for its next hello
                s.moved = seat in moved
        self.start_table(table)
        return table

    async def table_done(self, table: OwnedTable) -> None:
        """A table finished: free its seats (before match_end goes out, so the players can queue again)."""
        self.tables.pop(table.id, None)
        self._unseat(table)
        self.metrics["matches_finished"] += 1
        if table.id.startswith(FRIEND_PREFIX):  # the friend table waits for a rematch
            try:
                await self.friends.match_over(table.id, [s.account_id for s in table.seats])
            except Exception as exc:
                log.warning("friend match %s: the table could not be told it ended: %r", table.id, exc)
        for s in table.seats:
            if not s.is_bot:
                try:
                    await self.backend.clear_seat(s.account_id, table.id)
                except Exception:  # Redis away: the seat entry expires with the match's keys
                    log.warning("could not free the seat of %s in %s", s.account_id, table.id)

    def table_lost(self, table: OwnedTable) -> None:
        """A table stopped without ending its match (another process carries on). Fenced (a newer owner
        took it while this process was frozen or cut off), the sockets here of its players are closed with
        :data:`~erma.server.connection.CLOSE_MOVED`: their clients reconnect at once, to the new owner."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        self._unseat(table)
        if table.fenced and not self.stopping:
            for s in table.seats:
                conn = self.connections.get(s.account_id)
                if not s.is_bot and conn is not None:
                    self.metrics["moved_sockets"] += 1
                    self.spawn(conn.close("moved", code=CLOSE_MOVED))

    def _unseat(self, table: OwnedTable) -> None:
        """Forget where the sockets here sit at ``table``."""
        for s in table.seats:
            if self.seat_of.get(s.account_id, ("",))[0] == table.id:
                del self.seat_of[s.account_id]
