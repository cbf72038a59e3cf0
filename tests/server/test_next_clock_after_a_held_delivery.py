"""The clock to the next hand starts when the hand_end goes out (issue 37 item 2), as a decision's does
(tests/server/test_clock_after_a_held_delivery.py): with Redis paused the owner's writer holds every message
until what was logged before it is stored, and the next-hand clock used to run meanwhile (it counted from the
hand_end's release to the backend, after the pause). Here the backend holds each hand_end, and what follows
it, for longer than the whole clock to the next hand (``next_hand_timeout_s``, 1.5 s at this scale); the
client reads late too (it handles each message 0.3 s after it came) and answers ``next`` then. Before, that
``next`` came after the clock had run out: the match ended and the player was counted as the one who did not
confirm (the leaver of its rated match). Now the next hand is dealt, every time.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any

import pytest

from erma.server.backends.local import LocalBackend

from .conftest import Client, choose, run_async, start_server, stop_server

SCALE = 0.1  # next_hand_timeout_s 15 s → 1.5 s
HOLD_S = 2.5  # longer than that
LAG_S = 0.3  # the client handles each message this late
HANDS = 2

ORIGINAL = LocalBackend.deliver


def test_the_next_hand_clock_waits_for_a_held_hand_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    held: list[tuple[Any, Any, Any, dict[str, Any]]] = []
    holding = {"on": False, "holds": 0}

    def end() -> None:
        holding["on"] = False
        out = list(held)
        held.clear()
        for args in out:
            ORIGINAL(*args)

    def deliver(self: LocalBackend, table: Any, conn: Any, message: dict[str, Any]) -> None:
        if message.get("type") == "hand_end" and not holding["on"]:  # Redis pauses as the hand ends
            holding["on"] = True
            holding["holds"] += 1
            asyncio.get_running_loop().call_later(HOLD_S, end)
        if holding["on"]:
            held.append((self, table, conn, message))
        else:
            ORIGINAL(self, table, conn, message)

    monkeypatch.setattr(LocalBackend, "deliver", deliver)
    srv, thread, running = start_server(tmp_path, timeouts=True, time_scale=SCALE, bot_pause_s=0.0)

    async def go() -> list[str]:
        c = Client(running)
        await c.connect()
        await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot"})
        m = await c.expect("match")
        match = m["match"]
        await c.send({"type": "next", "match": match})
        inbox: asyncio.Queue[tuple[float, dict[str, Any]]] = asyncio.Queue()

        async def read() -> None:
            while True:
                inbox.put_nowait((time.monotonic(), await c.recv(120)))

        reader = asyncio.create_task(read())
        seen: list[str] = []
        acted: set[tuple[int, int]] = set()
        try:
            while seen.count("hand_end") < HANDS and "match_end" not in seen:
                came, msg = await asyncio.wait_for(inbox.get(), 60)
                await asyncio.sleep(max(0.0, came + LAG_S - time.monotonic()))  # read late
                if msg["type"] in ("hand_start", "hand_end", "match_end"):
                    seen.append(msg["type"])
                if msg["type"] == "view":
                    view = msg["view"]
                    key = (view["hand_no"], view["decision"])
                    if view["actor"] == m["seat"] and view["legal"] and key not in acted:
                        acted.add(key)
                        await c.act(match, choose(view))
                elif msg["type"] == "hand_end":
                    assert msg["next_ms"] == 1500
                    await c.send({"type": "next", "match": match})
            while "match_end" not in seen and seen[-1] != "hand_start":
                came, msg = await asyncio.wait_for(inbox.get(), 30)
                if msg["type"] in ("hand_start", "match_end"):
                    seen.append(msg["type"])
        finally:
            reader.cancel()
        await c.send({"type": "leave", "match": match})
        await c.close()
        with contextlib.suppress(BaseException):  # (cancelled, or ended by the close)
            await reader
        return seen

    try:
        seen = run_async(go())
    finally:
        stop_server(srv, thread, running)
    # every next, sent 0.3 s after its hand_end arrived (2.5 s after the server released it), was in time
    # (before: the first hand's next came too late, the match ended: [hand_start, hand_end, match_end])
    assert seen == ["hand_start", "hand_end"] * HANDS + ["hand_start"], seen
    assert holding["holds"] >= HANDS
