"""The sweeper (清扫): no stake is ever stranded in escrow.

A table holds each hand's stakes (``escrow:<match>:<hand>``) and ends the unit with one terminal transaction
(settle, refund or forfeit). A crash, or a database outage longer than ``db_retry_window_s``, can leave a hold
open. The sweeper runs at server start and every ``sweep_interval_s``, on every process, and resolves each
hold at least ``sweep_min_age_s`` old by this rule:

1. **The match is held** — a table of this process runs it, or (several processes) another process has its
   lease or its log is live awaiting a takeover: the sweeper leaves it alone. The owner, or whoever takes it
   over by replaying its log, settles the hand exactly as the log decided.
2. **Nobody holds the match** — its table is gone and no log of it is live (the match ended without settling
   the hand, or its process died with the embedded backend): there is no stored result anyone could replay,
   so nobody pays: the unit is **refunded** (everyone gets back exactly what it put up; reason ``sweep``).

Exactly once: a refund is the unit's terminal transaction (key ``{unit}:end``), so two processes sweeping at
once, or a sweeper racing a late owner, write it once; the loser's call returns ``False``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from erma.server.backends import match_log
from erma.store.transient import is_transient

log = logging.getLogger("erma.sweeper")


@dataclass
class Swept:
    """What one sweep did."""

    refunded: list[str] = field(default_factory=list)
    """The units refunded now."""
    held: list[str] = field(default_factory=list)
    """The open units whose match somebody holds (left to the owner)."""
    beans: int = 0
    """The beans given back."""


async def sweep(store: Any, held: Callable[[str], Awaitable[bool]], min_age_s: float) -> Swept:
    """One sweep: each hold open ``min_age_s`` or longer, resolved by the rule above; ``held(match)`` says
    whether some process holds the match."""
    out = Swept()
    for hold in await store.open_holds(min_age_s):
        if await held(hold.match):
            out.held.append(hold.unit)
            continue
        if await store.refund(hold.unit, reason="sweep"):
            out.refunded.append(hold.unit)
            out.beans += hold.beans
            match_log("swept", hold.match, unit=hold.unit, op="refund", beans=hold.beans, age_s=hold.age_s)
    return out


class Sweeper:
    """The sweeps of one server process: one at start, then one every ``sweep_interval_s`` (0: start only)."""

    def __init__(self, hub: Any) -> None:
        self.hub = hub
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._loop())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def once(self) -> Swept:
        """Sweep now, counting what it did in the hub's metrics."""
        hub = self.hub
        done = await sweep(hub.store, hub.backend.match_held, hub.settings.sweep_min_age_s)
        hub.metrics["sweeps"] += 1
        hub.metrics["swept_units"] += len(done.refunded)
        if done.refunded:
            log.warning("swept %d open hold(s), %d beans refunded", len(done.refunded), done.beans)
        return done

    async def _loop(self) -> None:
        interval = self.hub.settings.sweep_interval_s
        while True:
            try:
                await self.once()
            except Exception as exc:  # the database away: the next sweep tries again
                if is_transient(exc):
                    log.warning("sweep skipped, the database is away: %s", type(exc).__name__)
                else:
                    log.exception("sweep failed")
            if interval <= 0:
                return
            await asyncio.sleep(interval)
