"""The hub (大厅): live connections, the lobby, matchmaking and the tables of one server process."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import Counter
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from erma.server import protocol as P
from erma.server.config import Room, Settings
from erma.server.table import SeatInfo, Table, disconnected, reconnected

log = logging.getLogger("erma.hub")

BOT_NAMES = {"greedy": "机器人·贪心"}


class Connection:
    """One client socket; a writer task sends queued messages in order so no table waits on a slow client."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.account_id: int | None = None
        self.name = ""
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.closed = False
        self.writer = asyncio.create_task(self._write())

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message for the client."""
        if not self.closed:
            self.outbox.put_nowait(message)

    async def _write(self) -> None:
        while True:
            message = await self.outbox.get()
            if message is None:
                return
            try:
                await self.ws.send_text(json.dumps(message, ensure_ascii=False, separators=(",", ":")))
            except Exception:  # the socket went away; the reader notices
                self.closed = True
                return

    async def close(self, reason: str = "") -> None:
        """Stop writing and close the socket."""
        if self.closed:
            return
        self.closed = True
        self.outbox.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.writer, 2)
        with contextlib.suppress(Exception):
            await self.ws.close(code=4000, reason=reason[:100])


class Hub:
    """Everything live in one process."""

    def __init__(self, settings: Settings, rooms: dict[str, Room], store: Any) -> None:
        self.settings = settings
        self.rooms = rooms
        self.store = store
        self.connections: dict[int, Connection] = {}
        self.tables: dict[str, Table] = {}
        self.seat_of: dict[int, tuple[str, int]] = {}
        """account id → (match id, seat) of its live match."""
        self.queues: dict[str, list[tuple[int, float]]] = {r: [] for r in rooms}
        self.bot_accounts: dict[str, int] = {}
        self.metrics: Counter[str] = Counter()
        self.started = time.time()
        self._matcher: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Create the bot accounts and start matchmaking."""
        from erma.store.house import bot_account

        for bot in BOT_NAMES:
            self.bot_accounts[bot] = await bot_account(self.store, bot)
        self._matcher = asyncio.create_task(self._match_loop())

    async def stop(self) -> None:
        """Stop matchmaking and every table (their units are refunded by the ledger's recovery)."""
        if self._matcher:
            self._matcher.cancel()
        for table in list(self.tables.values()):
            if table.task:
                table.task.cancel()
        for conn in list(self.connections.values()):
            await conn.close("server stopping")

    # ---------------------------------------------------------------------------- sockets

    async def serve_socket(self, ws: WebSocket) -> None:
        """Read one client's messages until it goes away; a bad message gets an error and nothing else."""
        await ws.accept()
        conn = Connection(ws)
        self.metrics["sockets_opened"] += 1
        try:
            while True:
                try:
                    raw = await ws.receive()
                except (WebSocketDisconnect, RuntimeError):
                    break
                if raw["type"] == "websocket.disconnect":
                    break
                data = raw.get("text")
                if data is None:
                    data = raw.get("bytes") or b""
                try:
                    msg = P.parse_message(data)
                except P.ProtocolError as exc:
                    conn.send(P.error(exc.code, str(exc), exc.seq))
                    continue
                try:
                    await self._dispatch(conn, msg)
                except Exception:  # never let one message kill the socket or a table
                    log.exception("message %r", msg)
                    conn.send(P.error("server_error", "the server could not handle that message"))
        finally:
            await self._gone(conn)

    async def _gone(self, conn: Connection) -> None:
        conn.closed = True
        conn.outbox.put_nowait(None)
        aid = conn.account_id
        if aid is not None and self.connections.get(aid) is conn:
            del self.connections[aid]
            self._unqueue(aid)
            where = self.seat_of.get(aid)
            if where and where[0] in self.tables:
                table = self.tables[where[0]]
                await table.inbox.put((where[1], disconnected()))
        self.metrics["sockets_closed"] += 1

    def _all_queued(self) -> list[tuple[int, float]]:
        return [x for q in self.queues.values() for x in q]

    def _unqueue(self, account_id: int) -> None:
        for q in self.queues.values():
            q[:] = [x for x in q if x[0] != account_id]

    async def _dispatch(self, conn: Connection, msg: Any) -> None:
        if isinstance(msg, P.Ping):
            conn.send({"type": "pong", "t": msg.t})
            return
        if isinstance(msg, P.Hello):
            await self._hello(conn, msg)
            return
        if conn.account_id is None:
            conn.send(P.error("not_authenticated", "send hello with a session token first"))
            return
        aid = conn.account_id
        if isinstance(msg, P.Rooms):
            conn.send({"type": "rooms", "rooms": [r.public() for r in self.rooms.values()]})
        elif isinstance(msg, P.Queue):
            await self._queue(conn, msg)
        elif isinstance(msg, P.Cancel):
            self._unqueue(aid)
            conn.send({"type": "cancelled"})
        else:  # match messages
            where = self.seat_of.get(aid)
            table = self.tables.get(msg.match) if where and where[0] == msg.match else None
            if table is None:
                seq = getattr(msg, "seq", None)
                conn.send(
                    P.error("no_such_match", f"you are not playing match {msg.match!r}", seq, msg.match)
                )
                return
            await table.inbox.put((where[1], msg))  # type: ignore[index]

    async def _hello(self, conn: Connection, msg: P.Hello) -> None:
        account = await self.store.account_for_session(msg.token)
        if account is None:
            conn.send(P.error("bad_token", "unknown or expired session token"))
            return
        old = self.connections.get(account.id)
        conn.account_id, conn.name = account.id, account.name
        self.connections[account.id] = conn
        if old is not None and old is not conn:  # one live socket per account: the new one wins
            old.send({"type": "replaced", "message": "signed in elsewhere"})
            old.account_id = None
            await old.close("replaced by a new connection")
        balance = await self.store.balance(account.id)
        conn.send(
            {
                "type": "welcome",
                "protocol": P.PROTOCOL_VERSION,
                "account": {"id": account.id, "name": account.name, "guest": account.is_guest},
                "balance": balance,
            }
        )
        where = self.seat_of.get(account.id)
        if where and where[0] in self.tables:
            table = self.tables[where[0]]
            since = msg.resume.get(where[0], -1)
            conn.send(
                {"type": "match", "match": table.id, "seat": where[1], "room": table.room.id, "resumed": True}
            )
            await table.inbox.put((where[1], reconnected(conn, since)))

    # ------------------------------------------------------------------------- matchmaking

    async def _queue(self, conn: Connection, msg: P.Queue) -> None:
        aid = conn.account_id
        assert aid is not None
        room = self.rooms.get(msg.room)
        if room is None:
            conn.send(P.error("no_such_room", f"unknown room {msg.room!r}"))
            return
        if aid in self.seat_of:
            conn.send(P.error("already_playing", f"you are playing match {self.seat_of[aid][0]!r}"))
            return
        balance = await self.store.balance(aid)
        if balance < room.entry_min:
            conn.send(
                P.error(
                    "not_enough_beans", f"room {room.id} needs {room.entry_min} beans; you have {balance}"
                )
            )
            return
        self._unqueue(aid)
        if msg.opponent == "bot":
            await self._open_table(room, [aid], with_bot=True)
            return
        self.queues[room.id].append((aid, time.monotonic()))
        conn.send({"type": "queued", "room": room.id, "bot_after_s": self.settings.bot_fill_s})
        await self._pair(room)

    async def _pair(self, room: Room) -> None:
        q = self.queues[room.id]
        while len(q) >= 2:
            (a, _), (b, _) = q.pop(0), q.pop(0)
            await self._open_table(room, [a, b], with_bot=False)

    async def _match_loop(self) -> None:
        while True:
            await asyncio.sleep(0.1)
            now = time.monotonic()
            for room_id, q in self.queues.items():
                waited = [x for x in q if now - x[1] >= self.settings.bot_fill_s * self.settings.time_scale]
                for aid, _ in waited:
                    q.remove((aid, _))
                    await self._open_table(self.rooms[room_id], [aid], with_bot=True)

    async def _open_table(self, room: Room, accounts: list[int], with_bot: bool) -> None:
        match_id = secrets.token_hex(8)
        seats = []
        for aid in accounts:
            account = await self.store.account(aid)
            seats.append(SeatInfo(account_id=aid, name=account.name if account else str(aid)))
        if with_bot:
            from erma.bots import make_bot

            seats.append(
                SeatInfo(
                    account_id=self.bot_accounts["greedy"],
                    name=BOT_NAMES["greedy"],
                    bot=make_bot("greedy", match_id),
                )
            )
        table = Table(self, match_id, room, seats)
        for seat, s in enumerate(seats):
            if s.bot is None:
                self.seat_of[s.account_id] = (match_id, seat)
                s.conn = self.connections.get(s.account_id)
                if s.conn is not None:
                    s.conn.send(
                        {
                            "type": "match",
                            "match": match_id,
                            "seat": seat,
                            "room": room.id,
                            "players": [{"name": x.name, "bot": x.bot is not None} for x in seats],
                        }
                    )
        self.tables[match_id] = table
        self.metrics["matches_started"] += 1
        table.task = asyncio.create_task(table.run())

    def table_done(self, table: Table) -> None:
        """A table finished: free its seats."""
        self.tables.pop(table.id, None)
        for s in table.seats:
            if self.seat_of.get(s.account_id, ("",))[0] == table.id:
                del self.seat_of[s.account_id]
        self.metrics["matches_finished"] += 1
