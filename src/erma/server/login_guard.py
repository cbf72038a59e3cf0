"""Failed-login backoff (登录失败退避): a wrong password slows the one who types it, not the account's owner.

Three counters, none of which locks an account:

- **Per (name, address) pair**: the first ``free`` failures cost nothing; after the k-th failure beyond them
  the pair waits ``base_s · 2^k`` seconds (at most ``max_s``) before its next attempt; an attempt earlier is
  refused (429 ``login_backoff``) without looking at the password. A success resets the pair; a pair idle for
  the auth window beyond its delay is forgotten.
- **Per name, all addresses**: at most ``per_name.count`` failures per window spread over any addresses; past
  that, addresses that have not logged in to the name successfully share one attempt per ``slow_s``
  (429 ``login_slowed``), and addresses that have (for ``known_s``) are not slowed.
- Per address (spraying many names): the window of :mod:`erma.server.auth_limits` (``login_per_address``).

All of it lives in the process, like the windows (each server process counts its own).
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from erma.server.auth_limits import Limit, Refused


@dataclass(frozen=True, slots=True)
class Backoff:
    """Growing delays after failures: ``free`` failures without delay, then ``base_s``, doubling, up to
    ``max_s``."""

    free: int = 3
    base_s: float = 1.0
    max_s: float = 300.0

    def delay(self, failures: int) -> float:
        """Seconds to wait after ``failures`` failures in a row."""
        if failures < self.free:
            return 0.0
        return min(self.max_s, self.base_s * 2.0 ** min(failures - self.free, 60))


class LoginGuard:
    """The per-pair backoff and the per-name slowdown (the module's docstring); ``name`` is the account
    name's key (``name_key``), ``address`` the client address."""

    MAX_KEYS = 100_000
    KNOWN_PER_NAME = 16

    def __init__(
        self,
        backoff: Backoff,
        per_name: Limit,
        slow_s: float,
        known_s: float = 30 * 24 * 3600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.backoff, self.per_name, self.slow_s, self.known_s = backoff, per_name, slow_s, known_s
        self.clock = clock
        self.pair_limit = Limit(
            "login_backoff", backoff.free, per_name.window_s, "failed logins to this name from this address"
        )
        self.slow_limit = Limit(
            "login_slowed", per_name.count, per_name.window_s, "failed logins to this name from all addresses"
        )
        self._pairs: dict[tuple[str, str], tuple[int, float]] = {}
        self._failures: dict[str, deque[float]] = {}
        self._next_slow: dict[str, float] = {}
        self._known: dict[str, dict[str, float]] = {}
        self._pruned = -math.inf

    def _pair(self, name: str, address: str, now: float) -> tuple[int, float]:
        failures, last = self._pairs.get((name, address), (0, -math.inf))
        if failures and now - last > self.per_name.window_s + self.backoff.delay(failures):
            del self._pairs[(name, address)]
            return 0, -math.inf
        return failures, last

    def wait(self, name: str, address: str) -> float:
        """Seconds until this pair may try again (0: now)."""
        now = self.clock()
        failures, last = self._pair(name, address, now)
        return max(0.0, last + self.backoff.delay(failures) - now)

    def known(self, name: str, address: str) -> bool:
        """Whether this address logged in to the name within ``known_s``."""
        when = self._known.get(name, {}).get(address)
        return when is not None and self.clock() - when <= self.known_s

    def admit(self, name: str, address: str) -> None:
        """Let one attempt through, or raise :class:`Refused` (429) without it costing anything."""
        now = self.clock()
        failures, last = self._pair(name, address, now)
        wait = last + self.backoff.delay(failures) - now
        if wait > 0:
            message = (
                f"{failures} failed logins to this name from this address: wait {wait:.1f} s "
                f"(the wait doubles with each further failure, up to {self.backoff.max_s:g} s)"
            )
            raise Refused(self.pair_limit, max(1, math.ceil(wait)), message)
        if self.per_name.count <= 0 or self.known(name, address):
            return
        recent = self._recent(name, now)
        if len(recent) < self.per_name.count:
            return
        ready = self._next_slow.get(name, -math.inf)
        if now < ready:
            message = (
                f"this name had {len(recent)} failed logins in {self.per_name.window_s:g} s: from an address "
                f"that has not logged in to it, one attempt per {self.slow_s:g} s; try again in "
                f"{ready - now:.1f} s"
            )
            raise Refused(self.slow_limit, max(1, math.ceil(ready - now)), message)
        self._next_slow[name] = now + self.slow_s

    def failed(self, name: str, address: str) -> None:
        """Count a wrong password."""
        now = self.clock()
        failures, _ = self._pair(name, address, now)
        self._pairs[(name, address)] = (failures + 1, now)
        self._recent(name, now).append(now)
        if len(self._pairs) + len(self._failures) > self.MAX_KEYS and now - self._pruned > 10.0:
            self._prune(now)  # at most every 10 s: a prune that finds everything live costs a full pass

    def succeeded(self, name: str, address: str) -> None:
        """A right password: the pair starts afresh and the address is known to the name."""
        now = self.clock()
        self._pairs.pop((name, address), None)
        known = self._known.setdefault(name, {})
        known[address] = now
        if len(known) > self.KNOWN_PER_NAME:
            del known[min(known, key=known.__getitem__)]
        if len(self._known) > self.MAX_KEYS:
            for key in [k for k, v in self._known.items() if max(v.values()) < now - self.known_s]:
                del self._known[key]

    def _recent(self, name: str, now: float) -> deque[float]:
        q = self._failures.setdefault(name, deque())
        while q and q[0] <= now - self.per_name.window_s:
            q.popleft()
        return q

    def _prune(self, now: float) -> None:
        self._pruned = now
        for pair in list(self._pairs):
            self._pair(*pair, now)
        for name in [k for k in self._failures if not self._recent(k, now)]:
            del self._failures[name]
            self._next_slow.pop(name, None)
