"""The thinker (思考): bots choose their actions in worker processes, off the event loop and off its GIL.

A bot thinking in a thread of the server process holds the GIL for its whole decision (0.3 ms typically,
several ms at worst), and the event loop, with every other table's messages, waits behind it; in worker
processes the loop keeps its interpreter to itself and the operating system shares the CPU in fine slices.

A decision travels as the bot's kind, a seed, the view and the legal actions, and comes back as the index of
the choice. The seed is the table's (match, seat, decision number), so a bot holds no state between
decisions: whichever worker thinks, and after a takeover by another process, the same decision gets the same
answer. ``workers=0`` thinks in a thread of this process instead (tests, tiny hosts).
A worker that dies is replaced; the decision it held is thought again in a thread, so no table waits forever.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import multiprocessing
import os
import pickle
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from erma.bots import Bot, BotView, make_bot
from erma.game.actions import Action
from erma.hand import Meld
from erma.rules import RuleSet

log = logging.getLogger("erma.thinker")


_VIEW_FIELDS = tuple(f.name for f in dataclasses.fields(BotView))
_MELD_FIELDS = tuple(f.name for f in dataclasses.fields(Meld))
_MELDS = tuple(i for i, n in enumerate(_VIEW_FIELDS) if n in ("melds", "opponent_melds"))
_RULES = _VIEW_FIELDS.index("rules")
_DROPPED = tuple(_VIEW_FIELDS.index(n) for n in ("legal", "result"))
"""Sent apart (the legal actions, as text) or never needed by a deciding bot (the result)."""

Packed = tuple[Any, ...]
"""A view as plain values: slotted dataclasses pickle through ``dataclasses.fields`` on every object, which
made pickling the largest part of sending a decision (the rule set, sent once, travels as cached bytes)."""


def _pack(view: BotView) -> Packed:
    values = [getattr(view, name) for name in _VIEW_FIELDS]
    for i in _MELDS:
        values[i] = tuple(tuple(getattr(m, n) for n in _MELD_FIELDS) for m in values[i])
    values[_RULES] = None
    for i in _DROPPED:
        values[i] = None
    return tuple(values)


def _unpack(values: Packed, rules: RuleSet | None) -> BotView:
    v = list(values)
    for i in _MELDS:
        v[i] = tuple(Meld(*m) for m in v[i])
    v[_RULES] = rules
    v[_DROPPED[0]] = ()
    return BotView(*v)


@functools.lru_cache(maxsize=64)
def _rules_from(data: bytes) -> RuleSet:
    return pickle.loads(data)  # type: ignore[no-any-return]


@functools.lru_cache(maxsize=8192)
def _action(text: str) -> Action:
    return Action.parse(text)


def _think(name: str, seed: str, view: Packed | None, rules: bytes | None, legal: list[str]) -> int:
    """In a worker: the index in ``legal`` of what the bot ``name``, seeded with ``seed``, chooses."""
    actions = [_action(a) for a in legal]
    full = None if view is None else _unpack(view, None if rules is None else _rules_from(rules))
    return actions.index(make_bot(name, seed).choose(full, actions))  # type: ignore[arg-type]


def _worker_start(parent: int) -> None:
    """In a new worker: exit when the server process is gone (even killed with SIGKILL, which leaves a pool's
    workers waiting on their queue forever)."""
    import erma.bots.greedy  # noqa: F401  (imported before the first decision arrives)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="erma-parent-watch", daemon=True).start()


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
        self._rules: dict[int, tuple[RuleSet, bytes]] = {}

    def start(self) -> None:
        """Start the worker processes (a fresh interpreter each: no inherited sockets, threads or locks)."""
        if self.workers > 0 and self._pool is None:
            ctx = multiprocessing.get_context("spawn")
            pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=ctx,
                initializer=_worker_start,
                initargs=(os.getpid(),),
            )
            for _ in range(self.workers):
                pool.submit(_warm)
            self._pool = pool

    def stop(self) -> None:
        """Stop the workers (decisions in flight are abandoned; their tables are stopping too)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def choose(self, bot: Bot, seed: str, view: BotView | None, legal: list[Action]) -> Action:
        """What a bot like ``bot`` (its kind), seeded with ``seed``, chooses among ``legal``."""
        self.decisions += 1
        rules = None
        if view is not None and view.rules is not None:
            known = self._rules.get(id(view.rules))
            if known is None or known[0] is not view.rules:
                known = self._rules[id(view.rules)] = (view.rules, pickle.dumps(view.rules))
            rules = known[1]
        args = (bot.name, seed, None if view is None else _pack(view), rules, [a.to_str() for a in legal])
        pool = self._pool
        if pool is not None:
            loop = asyncio.get_running_loop()
            try:
                return legal[await loop.run_in_executor(pool, _think, *args)]
            except BrokenProcessPool:
                log.warning("a bot worker died; starting new workers")
                self.restarts += 1
                if self._pool is pool:
                    self._pool = None
                    pool.shutdown(wait=False, cancel_futures=True)
                    self.start()
        return legal[await asyncio.to_thread(_think, *args)]

    def counters(self) -> dict[str, int]:
        """Counters for /metrics."""
        return {"bot_decisions": self.decisions, "bot_worker_restarts": self.restarts}
