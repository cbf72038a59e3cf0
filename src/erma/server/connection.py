"""A client socket (连接) of this process: its writer, the token buckets that limit its messages, the latency
histograms of the metrics."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from enum import IntEnum
from typing import Any

from starlette.websockets import WebSocket


class Latency:
    """A Prometheus histogram of action latencies (ms): from the action reaching a socket to its ack."""

    BUCKETS = (1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500)

    def __init__(self) -> None:
        self.counts = [0] * (len(self.BUCKETS) + 1)
        self.total = 0.0
        self.n = 0

    def observe(self, ms: float) -> None:
        """Count one latency."""
        i = 0
        while i < len(self.BUCKETS) and ms > self.BUCKETS[i]:
            i += 1
        self.counts[i] += 1
        self.total += ms
        self.n += 1

    def lines(self, name: str) -> list[str]:
        """The histogram in Prometheus text format."""
        out = [f"# TYPE {name} histogram"]
        running = 0
        for bound, c in zip(self.BUCKETS, self.counts, strict=False):
            running += c
            out.append(f'{name}_bucket{{le="{bound}"}} {running}')
        out.append(f'{name}_bucket{{le="+Inf"}} {self.n}')
        out += [f"{name}_sum {self.total:.3f}", f"{name}_count {self.n}"]
        return out


class CloseCode(IntEnum):
    """The websocket close codes the server uses (docs/protocol.md, "Close codes")."""

    POLICY = 1008
    """A token in the URL, or a flood of messages."""
    TOO_BIG = 1009
    """A frame over 64 KiB."""
    CLOSED = 4000
    """Replaced by a newer socket of the same account, or the server stopping."""
    SIGNED_OUT = 4401
    """The socket's session ended (log out, log out everywhere, password change, expiry): sign in again."""
    NOT_READING = 4408
    """(Reason ``not reading``.) The client stopped reading: its unsent messages passed ``send_backlog_max``
    or none went out for ``send_stall_s`` (:mod:`erma.server.stalls`); its seat is away as after any lost
    socket. Reconnect (with ``resume``)."""
    MOVED = 4409
    """(Reason ``moved``.) This process lost the socket's match to a newer owner (it was frozen or cut off
    from Redis): the client reconnects at once, without backoff, and its ``hello`` reaches the new owner."""


CLOSE_MOVED = CloseCode.MOVED

_cids = iter(range(1, 1 << 62))


class Bucket:
    """A token bucket (限流): ``rate`` messages a second on average, ``burst`` at once."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, now

    def take(self, now: float) -> bool:
        """Spend one token if there is one."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def full(self, now: float) -> bool:
        """Whether the bucket has refilled (an idle address's bucket can be forgotten)."""
        return self.tokens + (now - self.stamp) * self.rate >= self.burst


class Connection:
    """One client socket; a writer task sends queued messages in order so no table waits on a slow client."""

    def __init__(self, ws: WebSocket, pid: str = "", latency: Latency | None = None) -> None:
        self.ws = ws
        self.cid = f"{pid}:{next(_cids)}"
        """This socket's id among every process's sockets."""
        self.account_id: int | None = None
        self.name = ""
        self.address = ""
        """The client's address (erma.server.addresses): the per-address limits count it."""
        self.session: str | None = None
        """The session of the token this socket signed in with (its store key); the socket closes when that
        session ends (:mod:`erma.server.sessions`)."""
        self.outbox: asyncio.Queue[dict[str, Any] | str | None] = asyncio.Queue()
        self.closed = False
        self.latency = latency
        self.entropy: str | None = None
        """The contribution to a first hand's seed sent with hello (a fallback for ``next``'s)."""
        self.sent_at: dict[int, float] = {}
        """Action seq → when it reached this socket (for the latency histogram)."""
        self.sending_since: float | None = None
        """When the writer began handing the current message to the socket (None: it waits for one); a socket
        whose peer reads nothing stops taking messages, and this grows old (:mod:`erma.server.stalls`)."""
        self.progress: tuple[int, float] | None = None
        """(bytes the peer had acknowledged, when that count last grew or nothing waited): read progress."""
        self.ended = False
        """The hub has let this socket's seat and account go (its disconnect was handled)."""
        self.writer = asyncio.create_task(self._write())

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message for the client."""
        if not self.closed:
            if message.get("type") == "ack" and self.latency is not None:
                t = self.sent_at.pop(message.get("seq", -1), None)
                if t is not None:
                    self.latency.observe((time.monotonic() - t) * 1000)
            self.outbox.put_nowait(message)

    def send_text(self, text: str) -> None:
        """Queue a message already encoded as JSON text (a seat message as stored in its stream)."""
        if not self.closed:
            self.outbox.put_nowait(text)

    async def _write(self) -> None:
        while True:
            message = await self.outbox.get()
            if message is None:
                return
            try:
                if not isinstance(message, str):
                    message = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
                self.sending_since = time.monotonic()
                await self.ws.send_text(message)
                self.sending_since = None
            except Exception:  # the socket went away; the reader notices
                self.closed = True
                return

    def backlog(self) -> int:
        """How many messages wait to be handed to the socket."""
        return self.outbox.qsize()

    def stuck_for(self, now: float) -> float:
        """How long the writer has been handing one message to the socket (0 when it is not)."""
        return 0.0 if self.sending_since is None else now - self.sending_since

    async def close(self, reason: str = "", code: int = 4000, drop: bool = False) -> None:
        """Stop writing and close the socket: what is queued goes out first (``drop``: is dropped), then the
        close frame; a socket that takes neither within 2 s each (its peer reads nothing) is cut off."""
        if self.closed:
            return
        self.closed = True
        if drop:
            while not self.outbox.empty():
                self.outbox.get_nowait()
        self.outbox.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(self.writer), 2)
        if not self.writer.done():  # stuck handing a message to a socket that takes nothing
            self.writer.cancel()
        try:
            await asyncio.wait_for(self.ws.close(code=code, reason=reason[:100]), 2)
        except Exception:  # (a timeout: the close frame could not even be queued) the connection is dropped
            abort: Callable[[], None] | None = getattr(self.transport, "abort", None)
            if abort is not None:
                abort()

    @property
    def transport(self) -> Any:
        """The server's transport of this socket (:class:`KeepTransport`), None if unknown."""
        return self.ws.scope.get(TRANSPORT_KEY)


TRANSPORT_KEY = "erma.transport"
"""Where :class:`KeepTransport` leaves a websocket's transport in its ASGI scope."""


class KeepTransport:
    """ASGI middleware (the outermost): keeps, in a websocket's scope, the server's transport of the
    connection (uvicorn's), to see whether its peer still reads (:mod:`erma.server.stalls`) and to drop it at
    once when it does not (a peer that reads nothing never takes a close frame). ASGI has neither."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            transport = getattr(getattr(send, "__self__", None), "transport", None)
            if transport is not None:
                scope[TRANSPORT_KEY] = transport
        await self.app(scope, receive, send)
