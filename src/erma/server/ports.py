"""Ports (接口): what the server's objects need of one another, as protocols, so that none of them imports
the others to be typed.

- :class:`OwnedTable`: a table as the hub and the backends see it (a match this process owns).
- :class:`MatchBackend`: what a table needs of the backend (its log, its seats' streams, delivery).
- :class:`TableHost`: what a table needs of the hub.
- :class:`Socket`: a client socket as the backends see it.
- :class:`BackendHost`: what a backend needs of the hub.

:class:`erma.server.hub.Hub` implements both hosts, :class:`erma.server.table.Table` is an owned table, the
backends (:mod:`erma.server.backends`) are match backends.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Collection, Coroutine, Mapping, Sequence
from typing import Any, Protocol

from erma.server.config import Room, Settings
from erma.server.seats import Inbox, SeatConn, SeatInfo
from erma.server.thinker import Thinker


class OwnedTable(Protocol):
    """A match this process owns, as the hub and the backends see its table."""

    id: str
    seats: list[SeatInfo]
    inbox: Inbox
    task: asyncio.Task[None] | None
    entries: list[dict[str, Any]]
    """The match's log (see :class:`erma.server.table.Table`)."""
    epoch: int
    fenced: bool
    dirty: bool
    handed_over: bool
    resume: str | None
    """After a restore, where the table carries on from (see :class:`erma.server.table.Table`)."""
    clock_view: dict[str, Any] | None
    """The view that starts a decision's clock, until it has gone out (see :meth:`sent`)."""

    def meta(self) -> dict[str, Any]:
        """The match's essentials besides its log."""

    def resync_all(self, seen: Mapping[int, int] | None = None) -> None:
        """Send every connected seat a snapshot (after the messages past ``seen[seat]``, if given)."""

    def starts_clock(self, message: dict[str, Any]) -> bool:
        """Whether a message opens a clock of its seat (its :meth:`sent` is then awaited)."""

    def sent(self, message: dict[str, Any]) -> None:
        """A message handed to the backend's ``deliver`` has gone out (a decision's clock starts then)."""


class MatchBackend(Protocol):
    """What a table needs of the backend: its log and its seats' streams stored, its messages delivered."""

    def log(self, table: OwnedTable, entry: dict[str, Any]) -> None:
        """Append an entry to the match's log."""

    def log_seat(self, table: OwnedTable, seat: int, message: dict[str, Any]) -> None:
        """Append a message to a seat's stream."""

    def deliver(self, table: OwnedTable, conn: Any, message: dict[str, Any]) -> None:
        """Send a table's message to a seat's connection."""

    async def barrier(self, table: OwnedTable) -> None:
        """Wait until everything logged so far is stored."""

    async def close_match(self, table: OwnedTable) -> None:
        """The match is over: release it."""

    async def stash_missed(self, account_id: int, messages: list[dict[str, Any]]) -> None:
        """Keep the endings of a match that ended while its player was away."""

    async def take_missed(self, account_id: int) -> list[dict[str, Any]]:
        """The endings kept for an account (and forget them)."""


class TableHost(Protocol):
    """What a table needs of the hub: its settings, the store, the metrics, the bots' thinker, the backend,
    and to be told when it stops."""

    @property
    def settings(self) -> Settings: ...

    @property
    def store(self) -> Any: ...

    @property
    def metrics(self) -> Counter[str]: ...

    @property
    def thinker(self) -> Thinker: ...

    @property
    def backend(self) -> MatchBackend: ...

    async def table_done(self, table: OwnedTable) -> None:
        """The table finished its match."""

    def table_lost(self, table: OwnedTable) -> None:
        """The table stopped without ending its match (another process carries on)."""


class Socket(SeatConn, Protocol):
    """A client socket of this process, as the backends see it."""

    account_id: int | None
    closed: bool

    def send_text(self, text: str) -> None:
        """Send (queue) a message already encoded as JSON text."""


class BackendHost(Protocol):
    """What a backend needs of the hub: the settings and rooms, the sockets and tables here, the metrics,
    background tasks, and a match to take over."""

    @property
    def settings(self) -> Settings: ...

    @property
    def rooms(self) -> Mapping[str, Room]: ...

    @property
    def metrics(self) -> Counter[str]: ...

    def room_of(self, room_id: str) -> Room | None:
        """A room by its id: one of the rooms file's, or a friend table's (erma.server.friends)."""

    @property
    def connections(self) -> Mapping[int, Socket]: ...

    @property
    def tables(self) -> Mapping[str, OwnedTable]: ...

    @property
    def seat_of(self) -> dict[int, tuple[str, int]]:
        """account id → (match id, seat) for the sockets here."""

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run a coroutine in the background."""

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
    ) -> OwnedTable:
        """Own a match another process ran: rebuild its table, seat the connections found, run it
        (``moved``: the seats whose socket was on a process that is gone, see ``SeatInfo.moved``)."""
