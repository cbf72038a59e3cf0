"""``erma loadtest``: many tables of bot-driven clients through the real protocol, with latency figures.

Each table is one client (a guest account) playing a bot in a room, through the websocket protocol only.
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
    latencies_ms: list[float] = field(default_factory=list)

    def summary(self, seconds: float, tables: int) -> dict[str, Any]:
        """The JSON summary."""
        lat = sorted(self.latencies_ms)

        def pct(p: float) -> float:
            return round(lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else 0.0

        return {
            "tables": tables,
            "seconds": round(seconds, 2),
            "tables_started": self.tables_started,
            "hands_completed": self.hands_completed,
            "errors": self.errors,
            "matches_lost": self.matches_lost,
            "reconnects": self.reconnects,
            "actions": len(lat),
            "latency_ms": {
                "p50": pct(0.5),
                "p99": pct(0.99),
                "mean": round(statistics.fmean(lat), 2) if lat else 0,
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
    urls: list[str], index: int, room: str, until: float, think: float, stats: LoadStats, rng: random.Random
) -> None:
    base = urls[index % len(urls)]
    http = base.replace("ws://", "http://").replace("wss://", "https://").rsplit("/ws", 1)[0]
    async with httpx.AsyncClient(timeout=10) as client:
        token = (await client.post(http + "/api/guest")).json()["token"]
    match: str | None = None
    versions: dict[str, int] = {}
    attempt = 0
    finished = False
    while not finished and time.monotonic() < until + 30:
        url = urls[(index + attempt) % len(urls)]
        try:
            async with websockets.connect(url, max_size=2**22, open_timeout=10) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token, "resume": versions}))
                seq = 0
                sent_at: float | None = None
                last: tuple[Any, Any] = (None, None)
                if match is None:
                    await ws.send(json.dumps({"type": "queue", "room": room, "opponent": "bot"}))
                leaving = False
                while True:
                    raw = await asyncio.wait_for(ws.recv(), 60)
                    msg = json.loads(raw)
                    kind = msg["type"]
                    if "match" in msg and "v" in msg:
                        versions[msg["match"]] = max(versions.get(msg["match"], -1), msg["v"])
                    if kind == "error":
                        stats.errors += 1
                        continue
                    if kind == "match" and not msg.get("resumed"):
                        match = msg["match"]
                        stats.tables_started += 1
                    elif kind == "event" and sent_at is not None:
                        stats.latencies_ms.append((time.monotonic() - sent_at) * 1000)
                        sent_at = None
                    elif kind in ("view", "snapshot") and match is not None:
                        view = msg["view"]
                        decision = (view.get("hand_no"), view.get("decision"))
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
                            await ws.send(
                                json.dumps(
                                    {
                                        "type": "action",
                                        "match": match,
                                        "seq": seq + 1000 * attempt,
                                        "action": _choose(view, rng),
                                    }
                                )
                            )
                            sent_at = time.monotonic()
                    elif kind == "hand_end":
                        stats.hands_completed += 1
                        if time.monotonic() >= until:
                            leaving = True
                            await ws.send(json.dumps({"type": "leave", "match": match}))
                        else:
                            await ws.send(json.dumps({"type": "next", "match": match}))
                    elif kind == "match_end":
                        finished = True
                        return
        except (OSError, websockets.WebSocketException, TimeoutError):
            attempt += 1
            stats.reconnects += 1
            await asyncio.sleep(0.5)
    if not finished:
        stats.matches_lost += 1


async def run_load(
    urls: list[str],
    tables: int,
    seconds: float,
    room: str = "cuopai-novice",
    think: float = 0.0,
    seed: int = 1,
) -> dict[str, Any]:
    """Play ``tables`` tables for about ``seconds`` seconds; returns the summary."""
    stats = LoadStats()
    rng = random.Random(seed)
    t0 = time.monotonic()
    until = t0 + seconds
    tasks = [
        asyncio.create_task(_table(urls, i, room, until, think, stats, random.Random(rng.random())))
        for i in range(tables)
    ]
    done = await asyncio.gather(*tasks, return_exceptions=True)
    for d in done:
        if isinstance(d, BaseException):
            stats.errors += 1
            stats.matches_lost += 1
    return stats.summary(time.monotonic() - t0, tables)
