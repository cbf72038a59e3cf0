"""The backends' interface (后端): what one server process shares with the others.

A backend holds the matchmaking queues, where each player sits, who owns each match, each match's log (the
actions applied, hand by hand: enough to rebuild the table anywhere, the engine being deterministic) and each
seat's message stream, and it routes messages between processes.

- :class:`erma.server.backends.local.LocalBackend` keeps all of it in the process: the embedded default
  (``make run``), no Redis.
- :class:`erma.server.backends.redis.RedisBackend` shares it through Redis so that several ``erma serve``
  processes on one database and one Redis act as one server (docs/operations.md).

The hub and the tables call the same methods either way; a backend knows the hub and the tables only through
their ports (:mod:`erma.server.ports`).
"""

from __future__ import annotations

import json
import logging
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from erma.server.friends import FriendBook, LocalFriendBook
from erma.server.ports import BackendHost, OwnedTable, Socket

_mlog = logging.getLogger("erma.match")


def match_log(event: str, match: str, **fields: Any) -> None:
    """A structured log line about one match: one JSON object (``event``, ``match`` and the fields)."""
    if _mlog.isEnabledFor(logging.INFO):
        _mlog.info(json.dumps({"event": event, "match": match, **fields}, ensure_ascii=False, default=str))


Seating = tuple[str, list[list[int]], list[int]]
"""A room, the pairs taken out of its queue, and the accounts taken out after waiting for a bot."""


class Fenced(Exception):
    """This process no longer owns the match: a newer owner (a higher epoch) fences its writes."""


class Backend(ABC):
    """The interface the hub and the tables call (:class:`erma.server.backends.local.LocalBackend`,
    :class:`erma.server.backends.redis.RedisBackend`)."""

    distributed = False

    def __init__(self) -> None:
        self.pid = secrets.token_hex(4)
        """This process's id among the server processes."""
        self.hub: BackendHost | None = None
        self.on_signout: Callable[[], None] | None = None
        """Called when another process says sessions ended (the hub then checks its sockets' sessions)."""

    @abstractmethod
    async def announce_signout(self) -> None:
        """Tell the other processes that sessions ended, so they check their sockets now (one process:
        nothing to tell). Best effort: each process also checks on its own every ``session_check_s``."""

    # ------------------------------------------------------------------------ life cycle

    async def start(self, hub: BackendHost) -> None:
        """Begin serving ``hub``."""
        self.hub = hub

    @abstractmethod
    async def stop(self) -> None:
        """Stop; a distributed backend hands its matches over to the other processes."""

    # ------------------------------------------------------------------------ matchmaking

    @abstractmethod
    async def enqueue(self, room: str, account_id: int, rating: float | None = None) -> None:
        """Put an account in a room's queue (out of any other queue), with its rating in the room's rule
        family (``None``: a new player's) for matchmaking by rating (:mod:`erma.server.pairing`)."""

    def _window(self) -> tuple[float, float]:
        """The matchmaking window and how fast it widens (the settings')."""
        settings = self.hub.settings if self.hub is not None else None
        if settings is None:
            return 2.0, 1.0
        return settings.rating_window, settings.rating_widen_per_s

    @abstractmethod
    async def unqueue(self, account_id: int) -> None:
        """Take an account out of every queue."""

    @abstractmethod
    async def pop_pair(self, room: str) -> list[int] | None:
        """Two queued accounts of a room that matchmaking pairs now (nearest ratings within the window),
        taken out of the queue, or None."""

    @abstractmethod
    async def pop_waited(self, room: str, waited_s: float) -> list[int]:
        """The accounts that have waited ``waited_s`` in a room's queue, taken out of it."""

    @abstractmethod
    async def pop_round(self, rooms: list[str], waited_s: float) -> list[Seating]:
        """One round of matchmaking over ``rooms``: for each room with someone to seat, its pairs by rating
        (:func:`erma.server.pairing.pair_by_rating`) and then the accounts that have waited ``waited_s``
        (for a bot; ``inf``: none), all taken out of its queue."""

    # ------------------------------------------------------------------------------ seats

    @abstractmethod
    async def seat_of(self, account_id: int) -> tuple[str, int] | None:
        """(match id, seat) of the account's live match, wherever it runs."""

    @abstractmethod
    async def set_seat(self, account_id: int, match: str, seat: int) -> None:
        """Record where an account sits."""

    @abstractmethod
    async def clear_seat(self, account_id: int, match: str) -> None:
        """Forget the account's seat if it is in ``match``."""

    @abstractmethod
    async def stash_missed(self, account_id: int, messages: list[dict[str, Any]]) -> None:
        """Keep the endings (``hand_end``, ``match_end``) of a match that ended while its player was away,
        for the player's next ``hello``."""

    @abstractmethod
    async def take_missed(self, account_id: int) -> list[dict[str, Any]]:
        """The endings kept for an account (then forgotten)."""

    # ---------------------------------------------------------------------------- sockets

    @abstractmethod
    async def connected(self, conn: Socket) -> None:
        """A socket signed in here (a distributed backend records where, for routing)."""

    @abstractmethod
    async def disconnected(self, conn: Socket) -> None:
        """A signed-in socket went away."""

    @abstractmethod
    async def attach(self, conn: Socket, match: str, seat: int, since: int) -> bool:
        """Relay a match owned by another process to ``conn``; False if no other process owns it."""

    @abstractmethod
    async def seat_conn(self, account_id: int, match: str, seat: int, message: dict[str, Any]) -> Any:
        """A seat of a new match whose player's socket is not here: a stand-in connection that relays to
        the process holding it (after sending it ``message``, the match notice), or None."""

    @abstractmethod
    async def forward(self, conn: Socket, match: str, seat: int, message: dict[str, Any]) -> bool:
        """Send a client's message to the match's owner elsewhere; False if there is none."""

    # ---------------------------------------------------------------------------- matches

    @abstractmethod
    async def open_match(self, table: OwnedTable) -> None:
        """A new match owned here: record it (its lease, its essentials)."""

    @abstractmethod
    def log(self, table: OwnedTable, entry: dict[str, Any]) -> None:
        """Append an entry to the match's log (queued; :meth:`barrier` waits for it)."""

    @abstractmethod
    def log_seat(self, table: OwnedTable, seat: int, message: dict[str, Any]) -> None:
        """Append a message (with its ``v``) to a seat's stream (queued)."""

    @abstractmethod
    def deliver(self, table: OwnedTable, conn: Any, message: dict[str, Any]) -> None:
        """Send a table's message to a seat's connection (after what the table logged before it is stored)."""

    @abstractmethod
    async def barrier(self, table: OwnedTable) -> None:
        """Wait until everything logged so far is stored; :class:`Fenced` if the match is not ours."""

    @abstractmethod
    async def close_match(self, table: OwnedTable) -> None:
        """The match is over: release it."""

    async def match_held(self, match: str) -> bool:
        """Whether some process holds the match (a table here; distributed: a lease, or a live log awaiting
        a takeover). The sweeper (:mod:`erma.server.sweeper`) leaves its open holds to that process."""
        return self.hub is not None and match in self.hub.tables

    @abstractmethod
    def gauges(self) -> dict[str, float]:
        """Extra gauges for /metrics."""

    # ---------------------------------------------------------------------- friend tables

    def friend_book(self) -> FriendBook:
        """Where the friend tables (好友房) are kept: in this process (a distributed backend: shared)."""
        return LocalFriendBook()

    async def tell(self, account_id: int, message: dict[str, Any]) -> bool:
        """Send a message that belongs to no match's stream (a friend table's news, a chat) to the account's
        socket, wherever it is; False if it has none (a distributed backend: none known here)."""
        conn = self.hub.connections.get(account_id) if self.hub is not None else None
        if conn is None:
            return False
        conn.send(message)
        return True

    async def match_people(self, match: str) -> list[tuple[int, bool]] | None:
        """(account id, is a bot) of each seat of a live match, None if it is not known."""
        table = self.hub.tables.get(match) if self.hub is not None else None
        return None if table is None else [(s.account_id, s.is_bot) for s in table.seats]
