"""A table's store calls through a database blip (数据库重连): :class:`RetryingStore` retries each call that
fails with a transient error (:func:`erma.store.transient.is_transient`) with a capped exponential backoff,
for at most ``db_retry_window_s`` seconds a call, and tells the table when it starts and stops waiting (the
table shows its players a ``db_wait`` message and stops its clocks meanwhile).

Every store call a table makes is idempotent (a hold returns the first holdings, a unit's terminal
transaction is written once, a record once per unit, a top-up once per key), so a call whose commit went
through but whose answer was lost is safely made again. A failure that outlasts the window is raised as
:class:`DatabaseAway`; the table then ends its match and leaves the hand's hold to the sweeper
(:mod:`erma.server.sweeper`).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from erma.store.transient import is_transient

log = logging.getLogger("erma.db")

T = TypeVar("T")

#: The first pause after a failure, and the longest one (seconds).
BACKOFF_FIRST_S = 0.1
BACKOFF_MAX_S = 2.0


class DatabaseAway(Exception):
    """The database stayed unreachable for longer than the retry window."""


async def retrying(
    call: Callable[[], Awaitable[T]],
    window_s: float,
    on_wait: Callable[[bool], None] | None = None,
    what: str = "store call",
) -> T:
    """``call()``, made again after each transient failure until ``window_s`` seconds have passed since the
    first one; ``on_wait(True)`` at the first failure and ``on_wait(False)`` once a call passes after it.
    :class:`DatabaseAway` (from the last error) once the window is over; any other error at once."""
    started: float | None = None
    pause = BACKOFF_FIRST_S
    while True:
        try:
            result = await call()
        except Exception as exc:
            if not is_transient(exc):
                raise
            now = time.monotonic()
            if started is None:
                started = now
                log.warning("%s: database unreachable (%s), retrying for %.0f s", what, _short(exc), window_s)
                if on_wait is not None:
                    on_wait(True)
            if now - started >= window_s:
                raise DatabaseAway(f"{what}: the database was unreachable for {now - started:.1f} s") from exc
            await asyncio.sleep(min(pause, max(0.0, started + window_s - now)))
            pause = min(pause * 2, BACKOFF_MAX_S)
            continue
        if started is not None:
            log.warning("%s: database back after %.1f s", what, time.monotonic() - started)
            if on_wait is not None:
                on_wait(False)
        return result


def _short(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"


class RetryingStore:
    """A store whose coroutine methods are retried through transient errors (:func:`retrying`); any other
    attribute is the store's own."""

    def __init__(self, store: Any, window_s: float, on_wait: Callable[[bool], None] | None = None) -> None:
        self.store = store
        self.window_s = window_s
        self.on_wait = on_wait

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.store, name)
        if not inspect.iscoroutinefunction(attr):
            return attr

        async def call(*args: Any, **kwargs: Any) -> Any:
            return await retrying(lambda: attr(*args, **kwargs), self.window_s, self.on_wait, name)

        return call

    async def run(self, what: str, fn: Callable[[], Awaitable[T]]) -> T:
        """``fn()`` (several store calls, idempotent as a whole) retried as one."""
        return await retrying(fn, self.window_s, self.on_wait, what)
