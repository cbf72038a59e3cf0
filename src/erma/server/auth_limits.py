"""Rate limits on sign-up and login (登录限流), per client address and per account name.

A sliding window per key: at most ``count`` attempts in ``window_s`` seconds. A refused attempt is answered
429 with a JSON error naming the limit (``limit``), what it allows, and ``retry_after`` (also the
``Retry-After`` header). The windows live in the process: with several server processes each counts its own
(a client spread over N processes gets N times the allowance; docs/ratings.md).
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limit:
    """At most ``count`` attempts per ``window_s`` seconds (``count`` 0: no limit)."""

    name: str
    """What the error names, e.g. ``login_per_address``."""
    count: int
    window_s: float
    what: str
    """The attempts, in words (``login attempts from this address``)."""


class Refused(Exception):
    """An attempt over a limit."""

    def __init__(self, limit: Limit, retry_after: int, message: str | None = None) -> None:
        self.limit = limit
        self.retry_after = retry_after
        super().__init__(
            message
            or f"too many {limit.what}: at most {limit.count} per {limit.window_s:g} s; "
            f"try again in {retry_after} s"
        )

    def body(self) -> dict[str, object]:
        """The JSON error."""
        return {
            "error": "rate_limited",
            "limit": self.limit.name,
            "allowed": self.limit.count,
            "window_s": self.limit.window_s,
            "retry_after": self.retry_after,
            "message": str(self),
        }


class Limiter:
    """Sliding windows of attempts by (limit, key)."""

    MAX_KEYS = 100_000

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._hits: dict[tuple[str, str], deque[float]] = {}

    def check(self, *checks: tuple[Limit, str]) -> None:
        """Count one attempt against each (limit, key), or raise :class:`Refused` (counting nothing) if any
        limit is reached."""
        now = self.clock()
        windows = []
        for limit, key in checks:
            if limit.count <= 0:
                continue
            q = self._hits.setdefault((limit.name, key), deque())
            while q and q[0] <= now - limit.window_s:
                q.popleft()
            if len(q) >= limit.count:
                raise Refused(limit, max(1, math.ceil(q[0] + limit.window_s - now)))
            windows.append(q)
        for q in windows:
            q.append(now)
        if len(self._hits) > self.MAX_KEYS:
            self._prune(now)

    def _prune(self, now: float) -> None:
        longest = 24 * 3600.0
        for key in [k for k, q in self._hits.items() if not q or q[-1] <= now - longest]:
            del self._hits[key]
