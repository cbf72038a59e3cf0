"""The reconnect timer (issue 37 item 2): when a seat's socket closes, the opponent still at the table is
told (``away``, with the time left of the reconnect grace counted from when the message reaches it), and told
again when the seat is back (``back``). Before, the remaining seat was told nothing: it saw its opponent's
moves stop, then auto-play's come, with no clock to read.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from .conftest import Client, run_async, start_server, stop_server

SCALE = 0.5  # reconnect_grace_s 3 s → 1.5 s


def test_the_remaining_seat_is_told_away_with_a_deadline_and_back(tmp_path: Path) -> None:
    srv, thread, running = start_server(tmp_path, time_scale=SCALE)
    grace = running.settings.reconnect_grace_s * SCALE

    async def go() -> tuple[dict[str, Any], float, dict[str, Any], int]:
        a, b = Client(running), Client(running)
        await a.connect()
        await b.connect()
        await a.send({"type": "queue", "room": "classic-novice", "opponent": "any"})
        await a.expect("queued")
        await b.send({"type": "queue", "room": "classic-novice", "opponent": "any"})
        ma = await a.expect("match")
        await b.expect("match", timeout=20)
        match = ma["match"]
        for c in (a, b):
            await c.send({"type": "next", "match": match})
        await a.expect("hand_start")
        await b.expect("hand_start")
        await a.drain(0.2)
        await a.close()  # seat a's socket drops
        closed = time.monotonic()
        away = await b.expect("away", timeout=10)
        came = time.monotonic() - closed
        assert not [m for m in b.seen if m["type"] == "back"]
        a2 = Client(running, token=a.token)  # the page is reloaded: back with resume
        await a2.connect(resume=a.versions)
        back = await b.expect("back", timeout=10)
        for c in (a2, b):
            await c.send({"type": "leave", "match": match})
        await asyncio.sleep(0.2)
        await a2.close()
        await b.close()
        return away, came, back, ma["seat"]

    try:
        away, came, back, seat_a = run_async(go())
    finally:
        stop_server(srv, thread, running)
    assert away["type"] == "away" and away["seat"] == seat_a
    assert away["grace_s"] == grace
    # the time left when it reached the seat: the grace less the (short) time the close took to be noticed
    assert 0 < away["deadline_ms"] <= grace * 1000
    assert away["deadline_ms"] >= (grace - came) * 1000 - 100, (away, came)
    assert "v" in away and away["match"]  # a message of the seat's stream (replayed on its reconnection)
    assert back["type"] == "back" and back["seat"] == seat_a
    assert back["v"] > away["v"]
