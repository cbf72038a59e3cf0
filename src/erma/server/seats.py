"""A table's seats (座位): who sits there and how their messages reach them, the table's mailbox, and the
helpers that read a seat's message stream (reconnection, takeover)."""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Protocol

from erma.bots.base import Bot
from erma.game.state import GameState


class SeatConn(Protocol):
    """Where a seat's messages go: a socket here (connection.Connection) or one on another process."""

    cid: str

    def send(self, message: dict[str, Any]) -> None:
        """Send (queue) a message to the player."""


@dataclass
class SeatInfo:
    """A seat at a table: a person (with a connection, maybe away) or a bot."""

    account_id: int
    name: str
    bot: Bot | None = None
    conn: SeatConn | None = None
    autoplay: bool = False
    timeouts: int = 0
    last_seq: int = -1
    acked: dict[int, dict[str, Any]] = field(default_factory=dict)
    log: list[dict[str, Any] | str] = field(default_factory=list)
    held: deque[dict[str, Any] | float] = field(default_factory=deque)
    """Messages posted but not yet sent, in order; a number among them is a pause of that many seconds (after
    one's own discard) that starts when the messages before it have gone out."""
    hold_until: float = 0.0
    """The current pause ends then (nothing more goes out to this seat before)."""
    sent_v: int = -1
    """The version of the last stream message let out (sent, or due to a seat away)."""
    sent_events: int = 0
    """How many of the hand's engine events (the seat's and hidden ones) its stream has passed."""
    event_no: int = 0
    """How many events of the current hand this seat was sent: its own event numbering (``event.v``)."""
    needs_view: bool = False
    """An action of this seat was accepted: a view follows even if it caused no event."""
    away_v: int | None = None
    """The stream's length when the seat's socket closed (the endings it missed are sent on its return)."""
    confirmed: bool = False
    away_since: float | None = None
    """When the seat's socket closed (None while connected or after it came back)."""
    moved: bool = False
    """Taken over without its socket (搬迁): the player's socket was on a process that lost the match (frozen,
    fenced or killed), so the player is away through no doing of their own. Until they are back, auto-play
    stands in after the reconnect grace (counted from the takeover) and the hand is settled by its result,
    never as a forfeit (docs/protocol.md, "Moved")."""
    left: bool = False
    entropy: str | None = None
    """The seat's contribution to the next hand's seed (from ``next``, or ``hello`` as a fallback)."""

    compacted: int = 0
    """``log[:compacted]`` (the hands before the current one) is JSON text, see :meth:`compact_log`."""

    @property
    def is_bot(self) -> bool:
        return self.bot is not None

    def compact_log(self) -> None:
        """Keep the messages logged so far as JSON text: one string instead of a score of dicts and lists per
        view, none of which the garbage collector then walks. (A table keeps every message of the match for
        reconnections; only the current hand is read as objects.)"""
        for i in range(self.compacted, len(self.log)):
            m = self.log[i]
            if not isinstance(m, str):
                self.log[i] = json.dumps(m, ensure_ascii=False, separators=(",", ":"))
        self.compacted = len(self.log)


class Inbox:
    """A table's mailbox of ``(seat, message)``: ``put`` never waits; ``get`` waits at most ``timeout``
    seconds and gives None if nothing came. (``asyncio.wait_for(queue.get(), t)`` makes a task per wait and
    raises on every timeout: a table waits several times per action.)"""

    def __init__(self) -> None:
        self._items: deque[tuple[int, Any]] = deque()
        self._arrivals: deque[float] = deque()
        self._waiter: asyncio.Future[None] | None = None
        self.arrived = 0.0
        """When the message :meth:`get` gave last was put (``time.monotonic()``)."""

    async def put(self, item: tuple[int, Any]) -> None:
        """Add a message (never waits; a coroutine for the callers that await it)."""
        self.put_nowait(item)

    def put_nowait(self, item: tuple[int, Any]) -> None:
        """Add a message and wake the table."""
        self._items.append(item)
        self._arrivals.append(time.monotonic())
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def empty(self) -> bool:
        """Whether no message waits."""
        return not self._items

    def take_all(self) -> list[tuple[int, Any]]:
        """Every message waiting, in order (the inbox is then empty)."""
        items = list(self._items)
        self._items.clear()
        self._arrivals.clear()
        return items

    async def get(self, timeout: float | None) -> tuple[int, Any] | None:
        """The next message, waiting up to ``timeout`` seconds (None: as long as it takes) for one."""
        if not self._items:
            loop = asyncio.get_running_loop()
            waiter = self._waiter = loop.create_future()
            timer = loop.call_later(timeout, _wake, waiter) if timeout is not None else None
            try:
                await waiter
            finally:
                self._waiter = None
                if timer is not None:
                    timer.cancel()
        if not self._items:
            return None
        self.arrived = self._arrivals.popleft()
        return self._items.popleft()


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


def logged(message: dict[str, Any] | str) -> dict[str, Any]:
    """A message of a seat's stream as a dict (compacted ones are JSON text)."""
    return json.loads(message) if isinstance(message, str) else message


def hand_end_posted(seats: list[SeatInfo]) -> bool:
    """Whether the current hand's hand_end is in the (first person's) stream."""
    for s in seats:
        if not s.is_bot:
            for m in map(logged, reversed(s.log)):
                if m["type"] == "hand_end":
                    return True
                if m["type"] == "hand_start":
                    return False
            return False
    return False


def hand_start_index(log: list[dict[str, Any] | str]) -> int:
    """Where the last hand begins in a seat's stream (its ``hand_start``; 0 if none): after a takeover, what a
    seat away may not have seen starts there at the latest (a hand that ends with a seat away ends the match,
    so no seat is away across two hands' ends)."""
    for i in range(len(log) - 1, -1, -1):
        if logged(log[i])["type"] == "hand_start":
            return i
    return 0


def global_index(state: GameState, seat: int, n: int) -> int:
    """How many of the hand's engine events come up to (and with) the ``n``-th one ``seat`` may see."""
    if n == 0:
        return 0
    seen = 0
    for i, e in enumerate(state.events):
        if e.for_seat(seat) is not None:
            seen += 1
            if seen == n:
                return i + 1
    return len(state.events)


def events_sent(log: list[dict[str, Any] | str]) -> int:
    """How many of the current hand's events (in the seat's own numbering) a seat's stream already holds."""
    for m in map(logged, reversed(log)):
        if m["type"] == "event":
            return int(m["event"]["v"]) + 1
        if m["type"] == "hand_start":
            return 0
    return 0


@dataclass(frozen=True)
class Disconnected:
    """Internal message: a seat's socket closed (``cid``: which one, if known)."""

    cid: str | None = None


@dataclass(frozen=True)
class Reconnected:
    """Internal message: a seat is back on a new socket and has seen up to ``since``."""

    conn: SeatConn
    since: int


def disconnected(cid: str | None = None) -> Disconnected:
    """The message a table receives when a seat's socket closes."""
    return Disconnected(cid)


def reconnected(conn: SeatConn, since: int) -> Reconnected:
    """The message a table receives when a seat comes back."""
    return Reconnected(conn, since)
