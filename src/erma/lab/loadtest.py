"""``erma loadtest``: many tables of bot-driven clients through the real protocol, with latency figures.

Each table is one client (a guest account) playing a bot in a room, through the websocket protocol only. With
several URLs the tables are spread over them (table i on URL i mod n); a table whose server goes away
reconnects to the next URL with the versions it saw and carries on (retrying an unacknowledged action with the
same seq); ``matches_lost`` counts the matches that could not be finished.
Latency is measured from sending an action to receiving the first event that follows it. Bounded in time: it
stops by itself after ``seconds`` (clients leave their matches between hands or escape at the end).
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets


@dataclass
class LoadStats:
    """What a load run counted."""

    tables_started: int = 0
    hands_completed: int = 0
    errors: int = 0
    matches_lost: int = 0
    reconnects: int = 0
    connect_failures: int = 0
    """Connections that could not be opened (each also counts as an error)."""
    retries: int = 0
    lost: list[dict[str, Any]] = field(default_factory=list)
    """What the lost tables saw last (for diagnosis)."""
    latencies_ms: list[float] = field(default_factory=list)
    steady_ms: list[float] = field(default_factory=list)
    """The latencies of the actions sent while every table was playing: from 5 s after the last table
    started (the arrivals settled) until the run's time was up (then tables leave one by one)."""
    steady: tuple[float, float] = (0.0, 0.0)
    """That window, in ``time.monotonic()`` seconds."""
    lag_ms: list[float] = field(default_factory=list)
    """This process's own event-loop lag, sampled every 50 ms: a latency it shows is the instrument's."""

    def summary(self, seconds: float, tables: int) -> dict[str, Any]:
        """The JSON summary."""
        lat = sorted(self.latencies_ms)
        steady = sorted(self.steady_ms)

        def pct(p: float, lat: list[float] = lat) -> float:
            return round(lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else 0.0

        return {
            "tables": tables,
            "seconds": round(seconds, 2),
            "tables_started": self.tables_started,
            "hands_completed": self.hands_completed,
            "errors": self.errors,
            "matches_lost": self.matches_lost,
            "reconnects": self.reconnects,
            "connect_failures": self.connect_failures,
            "retries": self.retries,
            "lost": self.lost[:5],
            "actions": len(lat),
            "latency_ms": {
                "p50": pct(0.5),
                "p99": pct(0.99),
                "mean": round(statistics.fmean(lat), 2) if lat else 0,
            },
            "steady_latency_ms": {"actions": len(steady), "p50": pct(0.5, steady), "p99": pct(0.99, steady)},
            "client_lag_ms": {
                "p99": round(sorted(self.lag_ms)[int(0.99 * len(self.lag_ms))], 2) if self.lag_ms else 0.0,
                "max": round(max(self.lag_ms, default=0.0), 2),
            },
        }


def _choose(view: dict[str, Any], rng: random.Random) -> str:
    legal = view["legal"]
    if "win" in legal:
        return "win"
    if "exchange" in legal:
        return "exchange"
    if "pass" in legal:
        return "pass"
    drawn = view.get("drawn")
    plain = [a for a in legal if a.startswith("discard") and "riichi" not in a]
    if drawn and f"discard {drawn}" in plain and rng.random() < 0.5:
        return f"discard {drawn}"
    return str(rng.choice(plain) if plain else legal[0])


async def _table(
    urls: list[str],
    index: int,
    room: str,
    until: float,
    think: float,
    stats: LoadStats,
    rng: random.Random,
    delay: float = 0.0,
    client: httpx.AsyncClient | None = None,
    level: int | None = None,
) -> None:
    await asyncio.sleep(delay)
    base = urls[index % len(urls)]
    http = base.replace("ws://", "http://").replace("wss://", "https://").rsplit("/ws", 1)[0]
    if client is None:
        async with httpx.AsyncClient(timeout=10) as own:
            token = (await own.post(http + "/api/guest")).json()["token"]
    else:
        token = (await client.post(http + "/api/guest")).json()["token"]
    match: str | None = None
    versions: dict[str, int] = {}
    attempt = 0
    finished = False
    seq = 0  # one sequence for the whole match: a retry after a reconnection keeps its seq (idempotent)
    pending: tuple[int, str, Any] | None = None
    """The action not yet acknowledged: (seq, action, decision)."""
    last: tuple[Any, Any] = (None, None)
    leaving = False
    trail: list[str] = []
    connected = False
    while not finished and time.monotonic() < until + 30:
        url = urls[(index + attempt) % len(urls)]
        try:
            async with websockets.connect(url, max_size=2**22, open_timeout=10) as ws:
                connected = True
                await ws.send(json.dumps({"type": "hello", "token": token, "resume": versions}))
                sent_at: float | None = None
                if match is None:
                    queue: dict[str, Any] = {"type": "queue", "room": room, "opponent": "bot"}
                    if level is not None:
                        queue["level"] = level
                    await ws.send(json.dumps(queue))
                quiet_since = time.monotonic()
                resumed = (
                    match is None
                )  # after a reconnection the server names the match again, unless it ended
                while True:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), 2)
                    except TimeoutError:
                        # an action not acknowledged may have been lost while its match changed process
                        if time.monotonic() - quiet_since > 60:
                            raise
                        if not resumed and time.monotonic() - quiet_since > 5:
                            finished = True  # the match ended while we were away (its match_end was lost)
                            return
                        if pending is not None and match is not None:
                            action = {
                                "type": "action",
                                "match": match,
                                "seq": pending[0],
                                "action": pending[1],
                            }
                            await ws.send(json.dumps(action))
                        continue
                    quiet_since = time.monotonic()
                    msg = json.loads(raw)
                    kind = msg["type"]
                    trail.append(f"{kind}:{msg.get('v')}:{(msg.get('view') or {}).get('decision')}")
                    del trail[:-12]
                    if "match" in msg and "v" in msg:
                        versions[msg["match"]] = max(versions.get(msg["match"], -1), msg["v"])
                    if kind == "error":
                        if msg.get("code") == "no_such_match" and leaving:
                            continue  # the match ended as we left
                        stats.errors += 1
                        continue
                    if kind == "ack" and pending is not None and msg.get("seq") == pending[0]:
                        pending = None
                    if kind == "match" and msg.get("resumed"):
                        resumed = True
                    if kind == "match" and not msg.get("resumed"):
                        match = msg["match"]
                        stats.tables_started += 1
                        # ready for the first hand, with this seat's share of its seed
                        entropy = f"{rng.getrandbits(128):032x}"
                        await ws.send(json.dumps({"type": "next", "match": match, "entropy": entropy}))
                    elif kind == "event" and sent_at is not None:
                        ms = (time.monotonic() - sent_at) * 1000
                        stats.latencies_ms.append(ms)
                        if stats.steady[0] <= sent_at < stats.steady[1]:
                            stats.steady_ms.append(ms)
                        sent_at = None
                    elif kind in ("view", "snapshot") and match is not None:
                        view = msg["view"]
                        decision = (view.get("hand_no"), view.get("decision"))
                        if kind == "snapshot" and pending is not None:
                            if pending[2] == decision:  # maybe lost on the way: the same seq again
                                stats.retries += 1
                                action = {
                                    "type": "action",
                                    "match": match,
                                    "seq": pending[0],
                                    "action": pending[1],
                                }
                                await ws.send(json.dumps(action))
                                continue
                            pending = None
                        if (
                            view["legal"]
                            and view["actor"] == view["seat"]
                            and not leaving
                            and decision != last
                        ):
                            last = decision
                            if think:
                                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                            seq += 1
                            choice = _choose(view, rng)
                            pending = (seq, choice, decision)
                            await ws.send(
                                json.dumps({"type": "action", "match": match, "seq": seq, "action": choice})
                            )
                            sent_at = time.monotonic()
                    elif kind == "hand_end":
                        stats.hands_completed += 1
                        if time.monotonic() >= until:
                            leaving = True
                            await ws.send(json.dumps({"type": "leave", "match": match}))
                        else:
                            entropy = f"{rng.getrandbits(128):032x}"
                            await ws.send(json.dumps({"type": "next", "match": match, "entropy": entropy}))
                    elif kind == "match_end":
                        finished = True
                        return
        except (OSError, websockets.WebSocketException, TimeoutError) as exc:
            attempt += 1
            stats.reconnects += 1
            if not connected:  # the socket could not even be opened (a wrong URL, a server not there)
                stats.errors += 1
                stats.connect_failures += 1
                if attempt >= 3 * len(urls):
                    stats.lost.append({"match": None, "error": f"cannot connect to {url}: {exc}"})
                    stats.matches_lost += 1
                    return
            await asyncio.sleep(0.5)
    if not finished:
        stats.matches_lost += 1
        stats.lost.append({"match": match, "last": trail, "pending": pending})


async def run_load(
    urls: list[str],
    tables: int,
    seconds: float,
    room: str = "cuopai-novice",
    think: float = 0.0,
    seed: int = 1,
    ramp: float = 0.0,
    level: int | None = None,
) -> dict[str, Any]:
    """Play ``tables`` tables for about ``seconds`` seconds, their starts spread over the first ``ramp``
    seconds; returns the summary. ``level`` (1–5): each table asks for a bot of that level (人机对战),
    else the room's ``bot_level``.

    The tables share one HTTP client (making one costs milliseconds of CPU: hundreds at once would stall
    this process and show up as server latency)."""
    stats = LoadStats()
    rng = random.Random(seed)
    t0 = time.monotonic()
    until = t0 + seconds
    stats.steady = (t0 + ramp + 5, until)

    async def watch_lag() -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(0.05)
            stats.lag_ms.append(max(0.0, (loop.time() - start - 0.05) * 1000))

    watcher = asyncio.create_task(watch_lag())
    async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=50)) as client:
        tasks = [
            asyncio.create_task(
                _table(
                    urls,
                    i,
                    room,
                    until,
                    think,
                    stats,
                    random.Random(rng.random()),
                    ramp * i / tables,
                    client,
                    level,
                )
            )
            for i in range(tables)
        ]
        done = await asyncio.gather(*tasks, return_exceptions=True)
    watcher.cancel()
    for d in done:
        if isinstance(d, BaseException):
            stats.errors += 1
            stats.matches_lost += 1
    return stats.summary(time.monotonic() - t0, tables)
