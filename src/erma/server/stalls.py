"""The stall watch (不读检查): a socket that stops reading does not hold its table.

A table never waits on a socket: each socket has a writer that hands its queued messages to the connection in
order. A client that reads nothing (a phone put away, a client that hangs) stops acknowledging what it is
sent once its receive buffer is full (a phone asleep at once), while the seat counts as present and what is
sent to it piles up in the kernel, then in the server's buffer, then in the socket's queue. Every
``check_every`` seconds this watch closes, with :data:`NOT_READING` (4408 "not reading"), each socket of the
process that made no read progress for ``send_stall_s`` — something waited to reach the client all along
and the count of bytes it acknowledged (TCP, ``tcpi_bytes_acked``) did not grow; where the kernel does not
say, the writer waited that long on one message — or whose queue holds more than ``send_backlog_max``
messages. The queue is dropped, the close frame offered for 2 s, then the connection is cut; the hub lets the
seat go as for any lost socket, so the normal disconnect path takes over: auto-play (托管) after the
reconnect grace, ``hello`` with ``resume`` to come back (docs/protocol.md, "Timers, auto-play, disconnects").

A slow reader (one that reads everything, late) keeps acknowledging and is never closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import struct
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable

from erma.server.connection import CloseCode, Connection

log = logging.getLogger("erma.stalls")

NOT_READING = CloseCode.NOT_READING

_BYTES_ACKED = 120
"""The offset of ``tcpi_bytes_acked`` (u64) in Linux's ``struct tcp_info`` (Linux 4.1 and later)."""


def read_progress(conn: Connection) -> tuple[int, int] | None:
    """(bytes of this socket its peer has acknowledged, bytes waiting to reach it: queued here or in the
    kernel's send queue), None where the kernel does not tell."""
    transport = conn.transport
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is None or not hasattr(socket, "TCP_INFO"):
        return None
    try:
        import fcntl
        import termios

        info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 160)
        (acked,) = struct.unpack_from("=Q", info, _BYTES_ACKED)
        (unsent,) = struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0\0\0\0"))
    except (OSError, ValueError, ImportError, struct.error):
        return None
    return int(acked), int(unsent) + int(transport.get_write_buffer_size()) + conn.backlog()


class StallWatch:
    """Closes the sockets of this process that stopped reading (see the module).

    ``sockets``: the signed-in sockets (called at each check); ``gone``: what the hub does with a closed
    socket (lets its seat and account go; called once the socket is closed, whatever its reader saw);
    ``metrics``: counts ``not_reading``, the sockets closed so.
    """

    def __init__(
        self,
        sockets: Callable[[], Iterable[Connection]],
        gone: Callable[[Connection], Awaitable[None]],
        backlog_max: int,
        stall_s: float,
        metrics: Counter[str] | None = None,
    ) -> None:
        self.sockets = sockets
        self.gone = gone
        self.backlog_max = backlog_max
        self.stall_s = stall_s
        self.metrics: Counter[str] = Counter() if metrics is None else metrics
        self.check_every = min(1.0, stall_s / 4) if stall_s > 0 else 1.0
        self._task: asyncio.Task[None] | None = None
        self._closing: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        """Start watching in the background (nothing to watch if both bounds are off)."""
        if self.backlog_max > 0 or self.stall_s > 0:
            self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        """Stop watching."""
        for task in [self._task, *self._closing]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    def stalled(self, conn: Connection, now: float) -> bool:
        """Whether a socket stopped reading: its queue over ``backlog_max``, or no read progress for
        ``stall_s`` (see the module)."""
        if conn.closed:
            return False
        if self.backlog_max > 0 and conn.backlog() > self.backlog_max:
            return True
        if self.stall_s <= 0:
            return False
        progress = read_progress(conn)
        if progress is None:
            return conn.stuck_for(now) >= self.stall_s
        acked, waiting = progress
        if waiting == 0 or conn.progress is None or conn.progress[0] != acked:
            conn.progress = (acked, now)
            return False
        return now - conn.progress[1] >= self.stall_s

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.check_every)
            self.check()

    def check(self) -> int:
        """Start closing every socket that stopped reading; how many."""
        now = time.monotonic()
        found = [c for c in self.sockets() if self.stalled(c, now)]
        for conn in found:
            log.info("socket %s (account %s) is not reading: closed", conn.cid, conn.account_id)
            task = asyncio.create_task(self._close(conn))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)
        self.metrics["not_reading"] += len(found)
        return len(found)

    async def _close(self, conn: Connection) -> None:
        await conn.close("not reading", code=NOT_READING, drop=True)
        await self.gone(conn)
