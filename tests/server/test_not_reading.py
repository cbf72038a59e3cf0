"""Timers from delivery (issue 37 item 2): a seat that stops reading does not hold the table, a seat that
reads late is never taken for a leaver.

The client that never reads has a tiny TCP receive buffer and its websocket library stops reading after one
unread message (``max_queue=1``): it signs in, sits down against a bot, says ``next`` and from then on reads
nothing and acts on nothing, while it asks for a ``resync`` every 0.1 s (more than its buffers hold). The
hand plays on through the turn clock and auto-play; the client acknowledges nothing more, and after
``send_stall_s`` the server closes it (4408 "not reading"): the socket is let go and the seat is away, as
after any lost socket; the match is not held and ends (the seat away at the hand's end forfeits it; a hand
that ended before the cut ends it between hands), and the player finds the ending on its next ``hello``.
Before, the socket stayed open with its queue growing and the seat counted present (uvicorn's close at its
keepalive timeout waits, forever, for the unread buffer to drain).

The late reader reads every message but handles each 1.5 s after it came (a slow phone): it is never closed
and plays hand after hand, every ``next`` in time (this passed on the code before too: a guard).
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from .conftest import METRICS_TOKEN, Client, Running, choose, run_async, start_server, stop_server

SCALE = 0.2
STALL_S = 1.0  # send_stall_s (not scaled)
LAG_S = 1.5  # the late reader's lag
LATE_SCALE = 0.3  # (the late reader's clocks: 4.5 s a turn, 2.4 s a claim, 4.5 s to the next hand)
HANDS = 2


def metrics(running: Running) -> dict[str, float]:
    """The server's counters and gauges, by name."""
    text = httpx.get(
        running.url + "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}, timeout=5
    ).text
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#") and "{" not in line:
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


async def wait_for(running: Running, test: Any, timeout: float) -> tuple[bool, float]:
    """Poll the metrics until ``test(metrics)`` holds; whether it did and when."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if test(await asyncio.to_thread(metrics, running)):
            return True, time.monotonic() - start
        await asyncio.sleep(0.2)
    return False, time.monotonic() - start


def test_a_seat_that_stops_reading_is_let_go_and_the_match_goes_on(tmp_path: Path) -> None:
    srv, thread, running = start_server(
        tmp_path, timeouts=True, time_scale=SCALE, bot_pause_s=0.0, send_stall_s=STALL_S
    )
    token = httpx.post(running.url + "/api/guest").json()["token"]

    async def go() -> tuple[bool, float, bool, float, list[str]]:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # (before connecting: the window)
        sock.connect(("127.0.0.1", int(running.url.rsplit(":", 1)[1])))
        sock.setblocking(False)
        ws = await websockets.connect(running.ws_url, sock=sock, max_queue=1, ping_interval=None)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.send(json.dumps({"type": "queue", "room": "classic-novice", "opponent": "bot"}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if msg["type"] == "match":
                break
        await ws.send(json.dumps({"type": "next", "match": msg["match"]}))
        # from here on it reads nothing, and asks (a resync every 0.1 s) for more than its buffers hold
        resync = json.dumps({"type": "resync", "match": msg["match"], "version": -1})

        async def ask() -> None:
            while True:
                await ws.send(resync)
                await asyncio.sleep(0.1)

        asking = asyncio.create_task(ask())
        cut, _ = await wait_for(running, lambda m: m["erma_sockets"] == 0, 30)  # (let go: away)
        closed = (await asyncio.to_thread(metrics, running)).get("erma_not_reading_total", 0)
        asking.cancel()
        over, over_after = await wait_for(running, lambda m: m["erma_matches"] == 0, 60)
        ws.transport.abort()
        back = Client(running, token)
        await back.connect()
        seen = []
        with_end = False
        while not with_end:
            try:
                m = await back.recv(10)
            except TimeoutError:
                break
            seen.append(m["type"])
            with_end = m["type"] == "match_end"
        await back.close()
        return cut, closed, over, over_after, seen

    try:
        cut, closed, over, over_after, seen = run_async(go())
    finally:
        stop_server(srv, thread, running)
    assert cut, "the socket that reads nothing was still open (its seat present) after 30 s"
    assert closed == 1  # (closed for not reading: 4408)
    # the match ended (auto-play played the seat away): nothing held
    assert over, f"the match was held {over_after:.0f} s after the socket was closed"
    # the player, back, learns how the match ended (with the hand's end if the hand ended while it was away)
    assert seen and seen[-1] == "match_end", seen


def test_a_seat_that_reads_late_is_never_a_leaver(tmp_path: Path) -> None:
    srv, thread, running = start_server(
        tmp_path, timeouts=True, time_scale=LATE_SCALE, bot_pause_s=0.0, send_stall_s=STALL_S
    )

    async def go() -> list[dict[str, Any]]:
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
        ends: list[dict[str, Any]] = []
        acted: set[tuple[int, int]] = set()
        try:
            while len(ends) < HANDS:
                came, msg = await asyncio.wait_for(inbox.get(), 60)
                await asyncio.sleep(max(0.0, came + LAG_S - time.monotonic()))  # handled 1.5 s late
                if msg["type"] == "view":
                    view = msg["view"]
                    key = (view["hand_no"], view["decision"])
                    if view["actor"] == m["seat"] and view["legal"] and key not in acted:
                        acted.add(key)
                        await c.act(match, choose(view))
                elif msg["type"] == "hand_end":
                    ends.append(msg)
                    if len(ends) < HANDS:
                        await c.send({"type": "next", "match": match})
                elif msg["type"] == "match_end":
                    ends.append(msg)
                    break
        finally:
            reader.cancel()
        await c.send({"type": "leave", "match": match})
        await c.close()
        return ends

    try:
        ends = run_async(go())
        closed = metrics(running).get("erma_not_reading_total", 0)
    finally:
        stop_server(srv, thread, running)
    assert [e["type"] for e in ends] == ["hand_end"] * HANDS, ends  # hand after hand: each next in time
    assert closed == 0
