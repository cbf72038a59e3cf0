"""The local backend (本地后端): everything a server process would share kept in the process — the embedded
default (``make run``), no Redis."""

from __future__ import annotations

import time
from typing import Any

from erma.server.backends.base import Backend, Seating
from erma.server.pairing import DEFAULT_RATING, pair_by_rating
from erma.server.ports import OwnedTable, Socket


class LocalBackend(Backend):
    """Everything in this process (the embedded mode): the queues, the seats, the endings kept; nothing to
    store, route or relay."""

    def __init__(self) -> None:
        super().__init__()
        self._queues: dict[str, list[tuple[int, float]]] = {}
        self._ratings: dict[int, float] = {}
        self._seats: dict[int, tuple[str, int]] = {}
        self._missed: dict[int, list[dict[str, Any]]] = {}

    # ------------------------------------------------------------------------ life cycle

    async def stop(self) -> None:
        """Nothing to hand over: the matches end with the process."""

    # ------------------------------------------------------------------------ matchmaking

    async def enqueue(self, room: str, account_id: int, rating: float | None = None) -> None:
        await self.unqueue(account_id)
        self._queues.setdefault(room, []).append((account_id, time.monotonic()))
        self._ratings[account_id] = DEFAULT_RATING if rating is None else rating

    async def unqueue(self, account_id: int) -> None:
        for q in self._queues.values():
            q[:] = [x for x in q if x[0] != account_id]
        self._ratings.pop(account_id, None)

    async def pop_pair(self, room: str) -> list[int] | None:
        q = self._queues.get(room, [])
        if len(q) < 2:
            return None
        window, widen = self._window()
        entries = [(aid, t, self._ratings.get(aid, DEFAULT_RATING)) for aid, t in q]
        pairs = pair_by_rating(entries, time.monotonic(), window, widen)
        if not pairs:
            return None
        q[:] = [x for x in q if x[0] not in pairs[0]]
        for aid in pairs[0]:
            self._ratings.pop(aid, None)
        return pairs[0]

    async def pop_waited(self, room: str, waited_s: float) -> list[int]:
        q = self._queues.get(room, [])
        now = time.monotonic()
        out = [aid for aid, t in q if now - t >= waited_s]
        q[:] = [x for x in q if x[0] not in out]
        for aid in out:
            self._ratings.pop(aid, None)
        return out

    async def pop_round(self, rooms: list[str], waited_s: float) -> list[Seating]:
        out = []
        for room in rooms:
            pairs = []
            while (pair := await self.pop_pair(room)) is not None:
                pairs.append(pair)
            waited = await self.pop_waited(room, waited_s)
            if pairs or waited:
                out.append((room, pairs, waited))
        return out

    # ------------------------------------------------------------------------------ seats

    async def seat_of(self, account_id: int) -> tuple[str, int] | None:
        return self._seats.get(account_id)

    async def set_seat(self, account_id: int, match: str, seat: int) -> None:
        self._seats[account_id] = (match, seat)

    async def clear_seat(self, account_id: int, match: str) -> None:
        if self._seats.get(account_id, ("",))[0] == match:
            del self._seats[account_id]

    async def stash_missed(self, account_id: int, messages: list[dict[str, Any]]) -> None:
        self._missed[account_id] = messages

    async def take_missed(self, account_id: int) -> list[dict[str, Any]]:
        return self._missed.pop(account_id, [])

    async def announce_signout(self) -> None:
        """Nothing to tell: every socket is here."""

    # ---------------------------------------------------------------------------- sockets

    async def connected(self, conn: Socket) -> None:
        """Nothing to record: every socket is here."""

    async def disconnected(self, conn: Socket) -> None:
        """Nothing to forget."""

    async def attach(self, conn: Socket, match: str, seat: int, since: int) -> bool:
        """No other process owns a match."""
        return False

    async def seat_conn(self, account_id: int, match: str, seat: int, message: dict[str, Any]) -> Any:
        return None

    async def forward(self, conn: Socket, match: str, seat: int, message: dict[str, Any]) -> bool:
        return False

    # ---------------------------------------------------------------------------- matches

    async def open_match(self, table: OwnedTable) -> None:
        """Nothing to record: the table holds its match."""

    def log(self, table: OwnedTable, entry: dict[str, Any]) -> None:
        """Nothing to store: the table keeps its log."""

    def log_seat(self, table: OwnedTable, seat: int, message: dict[str, Any]) -> None:
        """Nothing to store: the seat keeps its stream."""

    def deliver(self, table: OwnedTable, conn: Any, message: dict[str, Any]) -> None:
        """Send at once (nothing waits to be stored)."""
        conn.send(message)
        table.sent(message)

    async def barrier(self, table: OwnedTable) -> None:
        """Nothing is ever waiting to be stored."""

    async def close_match(self, table: OwnedTable) -> None:
        """Nothing to release."""

    def gauges(self) -> dict[str, float]:
        return {}
