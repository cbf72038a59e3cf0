"""The session watch (会话检查): every socket ends with its session.

A socket is signed in by the session token of its ``hello``. When that session ends — log out, log out
everywhere (``/api/logout_all``), a password change (every session of the account is revoked), or its expiry
— the socket is closed with :data:`SIGNED_OUT` (4401 "signed out") within ``session_check_s`` seconds, on
every server process: each process re-checks the sessions of its own sockets against the database, one query
(per 500 sessions) every ``session_check_s``. The database is where sessions live, so this needs nothing
else (no Redis message that a restarting subscriber could miss), and it is the only way to notice an expiry,
which no request announces. On top of it, for speed, the process that handled a log-out checks at once
(:meth:`SessionWatch.poke`) and, with Redis, announces it on ``P:all`` so that every other process checks at
once too (best effort: a lost announcement only means the periodic check closes the socket).
A closed seat is played by auto-play after the reconnect grace, as for any lost socket (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from erma.server.connection import CloseCode, Connection

log = logging.getLogger("erma.sessions")


SIGNED_OUT = CloseCode.SIGNED_OUT


class SessionWatch:
    """Closes the sockets of this process whose session is no longer live.

    ``sockets``: the signed-in sockets of this process (called at each check); ``store``: has
    ``live_sessions(keys) -> set[str]``; ``every``: seconds between checks (0: never, except when poked);
    ``metrics``: counts ``signed_out``, the sockets closed because their session ended.
    """

    def __init__(
        self,
        sockets: Callable[[], Iterable[Connection]],
        store: Any,
        every: float,
        metrics: Counter[str] | None = None,
    ) -> None:
        self.sockets = sockets
        self.store = store
        self.every = every
        self.metrics: Counter[str] = Counter() if metrics is None else metrics
        self._poked = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start checking in the background."""
        self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        """Stop checking."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    def poke(self) -> None:
        """Check now (a session of this process's store was just ended)."""
        self._poked.set()

    async def _loop(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), self.every if self.every > 0 else None)
            self._poked.clear()
            try:
                await self.check()
            except Exception as exc:  # the database away for a moment: try again at the next check
                log.warning("session check failed: %s", exc)

    async def check(self) -> int:
        """Close every socket whose session has ended; how many were closed."""
        conns = [c for c in self.sockets() if c.session is not None and not c.closed]
        if not conns:
            return 0
        live = await self.store.live_sessions(c.session for c in conns)
        ended = [c for c in conns if c.session not in live and not c.closed]
        for conn in ended:
            conn.session = None
        self.metrics["signed_out"] += len(ended)
        await asyncio.gather(*(conn.close("signed out", code=SIGNED_OUT) for conn in ended))
        return len(ended)
