"""A decision's clock starts when its view goes out (issue 38, the refusals under ``redis_pause``): with Redis
paused the owner's writer holds every message (nothing reaches a player before what was logged before it is
stored), and the clock used to run meanwhile, so a player shown the decision late was timed out (auto-play)
and its answer, sent at once, refused. Here the backend holds every message for longer than a turn's clock,
as a paused Redis does, then lets them all out in order; the player answers each view at once, naming its
hand and decision, and no answer is refused.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from erma.server.backends.local import LocalBackend
from erma.server.table import Table

from .conftest import Client, choose, run_async, start_server, stop_server

SCALE = 0.1  # the turn's clock 1.5 s, a claim's 0.8 s
HOLD_S = 2.5  # longer than either


class Holding:
    """Wraps LocalBackend.deliver: while ``on``, messages wait (in order) until the hold ends."""

    def __init__(self) -> None:
        self.on = False
        self.held: list[tuple[Any, Any, Any, dict[str, Any]]] = []
        self.lock = threading.Lock()
        self.holds = 0

    def start(self, loop: asyncio.AbstractEventLoop, seconds: float) -> None:
        self.on = True
        self.holds += 1
        loop.call_later(seconds, self.end)

    def end(self) -> None:
        self.on = False
        held, self.held = self.held, []
        for backend, table, conn, message in held:
            ORIGINAL(backend, table, conn, message)


ORIGINAL = LocalBackend.deliver


def test_a_view_held_back_by_the_backend_starts_its_clock_when_it_goes_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    holding = Holding()

    def deliver(self: LocalBackend, table: Any, conn: Any, message: dict[str, Any]) -> None:
        if holding.on:
            holding.held.append((self, table, conn, message))
        else:
            ORIGINAL(self, table, conn, message)

    monkeypatch.setattr(LocalBackend, "deliver", deliver)
    srv, thread, running = start_server(tmp_path, timeouts=True, time_scale=SCALE, bot_pause_s=0.0)
    server_loop: list[asyncio.AbstractEventLoop] = []

    def hold_now() -> None:  # on the server's loop (as the writer waits on Redis there)
        holding.start(asyncio.get_running_loop(), HOLD_S)

    async def go() -> tuple[list[dict[str, Any]], int]:
        c = Client(running)
        await c.connect()
        await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot"})
        m = await c.expect("match")
        match, seat = m["match"], m["seat"]
        await c.send({"type": "next", "match": match})
        errors: list[dict[str, Any]] = []
        answered = 0
        acted: set[tuple[int, int]] = set()
        while holding.holds < 3 or holding.on:
            msg = await c.recv(30)
            if msg["type"] == "error":
                errors.append(msg)
            if msg["type"] == "hand_end":
                await c.send({"type": "next", "match": match})
            if msg["type"] != "view":
                continue
            view = msg["view"]
            key = (view["hand_no"], view["decision"])
            if view["actor"] != seat or not view["legal"] or key in acted:
                continue
            acted.add(key)
            c.seq += 1
            action = {"type": "action", "match": match, "seq": c.seq, "action": choose(view)}
            await c.send({**action, "hand": view["hand_no"], "decision": view["decision"]})
            answered += 1
            if answered % 4 == 0 and not holding.on:  # the next messages are held back
                server_loop[0].call_soon_threadsafe(hold_now)
        await c.drain(0.5)
        errors += [m for m in c.seen[-50:] if m["type"] == "error" and m not in errors]
        await c.send({"type": "leave", "match": match})
        await c.close()
        return errors, answered

    original_run = Table.run

    async def run(self: Table) -> None:  # the server's loop: the one its tables run on
        server_loop.append(asyncio.get_running_loop())
        await original_run(self)

    monkeypatch.setattr(Table, "run", run)
    try:
        errors, answered = run_async(go())
    finally:
        stop_server(srv, thread, running)
    assert holding.holds >= 3 and answered > 8
    assert errors == [], errors  # before: each held decision timed out, its answer refused as stale
