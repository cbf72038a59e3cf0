"""The thinker (思考): bots choose their actions in worker processes, off the event loop and off its GIL.

A bot thinking in a thread of the server process holds the GIL for milliseconds at a time, and with several
such threads the event loop waits for its turn at every switch: one table's bot then delays every other
table's messages (measured: single callbacks of the loop stretched to 300–500 ms at 500 tables). In worker
processes the loop keeps its interpreter to itself.

A decision travels as ``(bot, view, legal)`` and comes back as ``(action, bot)``: the bot's generator state
goes with it, so a bot plays the same whichever worker thinks for it (and the server stays deterministic
given the actions it logged). ``workers=0`` thinks in a thread of this process instead (tests, tiny hosts).
A worker that dies is replaced; the decision it held is thought again in a thread, so no table waits forever.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from erma.bots.base import Bot, BotView
from erma.game.actions import Action

log = logging.getLogger("erma.thinker")


def _think(bot: Bot, view: BotView | None, legal: list[Action]) -> tuple[Action, Bot]:
    """In a worker: the bot's choice, and the bot as it is after choosing (its generator moved on)."""
    return bot.choose(view, legal), bot  # type: ignore[arg-type]


def _warm() -> int:
    """In a worker: import what thinking needs before the first decision arrives."""
    import erma.bots.greedy  # noqa: F401

    return 0


class Thinker:
    """Bot decisions in ``workers`` processes (0: a thread of this process)."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._pool: Executor | None = None
        self.decisions = 0
        self.restarts = 0

    def start(self) -> None:
        """Start the worker processes (a fresh interpreter each: no inherited sockets, threads or locks)."""
        if self.workers > 0 and self._pool is None:
            ctx = multiprocessing.get_context("spawn")
            pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx)
            for _ in range(self.workers):
                pool.submit(_warm)
            self._pool = pool

    def stop(self) -> None:
        """Stop the workers (decisions in flight are abandoned; their tables are stopping too)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def choose(self, bot: Bot, view: BotView | None, legal: list[Action]) -> tuple[Action, Bot]:
        """The bot's choice among ``legal``, and the bot to keep using (its state after choosing)."""
        self.decisions += 1
        pool = self._pool
        if pool is not None:
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(pool, _think, bot, view, legal)
            except BrokenProcessPool:
                log.warning("a bot worker died; starting new workers")
                self.restarts += 1
                if self._pool is pool:
                    self._pool = None
                    pool.shutdown(wait=False, cancel_futures=True)
                    self.start()
        return await asyncio.to_thread(_think, bot, view, legal)

    def counters(self) -> dict[str, int]:
        """Counters for /metrics."""
        return {"bot_decisions": self.decisions, "bot_worker_restarts": self.restarts}
