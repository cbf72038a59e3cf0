"""``erma loadtest``: many tables of bot-driven clients through the real protocol, with latency figures.

Each table is one client (a guest account) playing a bot in a room, through the websocket protocol only. With
several URLs the tables are spread over them (table i on URL i mod n); a table whose server goes away
reconnects to the next URL with the versions it saw and carries on (retrying an unacknowledged action with the
same seq); a socket closed with code 4409 (``moved``: its match went to another process) reconnects at once.
Latency is measured from sending an action to receiving the first event that follows it. Bounded in time: it
stops by itself after ``seconds``: a client then leaves its match at the next hand's end or, still in the hand
``give_up_s / 2`` later (human think times), escapes at its next turn (逃跑, ``escaped``: the protocol's
``leave`` during a hand); it gives up on a client still running ``give_up_s`` after the end (``stuck``: a
table that stalled).

What went wrong is counted in the JSON, and their sum is ``failures`` (``erma loadtest`` exits 1 if it is not
0): ``matches_lost`` (a match that could not be finished), ``ended_early`` (a ``match_end`` the client did not
ask for by leaving, before the match's length: a forfeit, a table that failed), ``stuck`` (clients given up),
and ``errors`` (error messages, by code in ``error_codes``, and connections that could not be opened).

Each action names the hand and decision it answers (``hand``, ``decision``: the view's ``hand_no`` and
``decision``, as the web client sends them), so an action chosen on a view that is no longer current — one of
the stream's messages resent after a takeover, which the client reads as they come — is refused as ``stale``
instead of landing on a later decision: counted in ``stale``, not an error.
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

REFUSALS = ("illegal_action", "not_your_decision", "not_shown")
"""The refusals a retried action may meet when its decision was taken meanwhile."""

CLOSE_MOVED = 4409
"""The close code of a socket whose match moved to another process (erma.server.connection.CLOSE_MOVED: the
lab does not import the server)."""


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
    refused_retries: int = 0
    """Actions sent again (unacknowledged across a reconnection or a quiet spell), or chosen on a view
    replayed after a reconnection, that the server refused because their decision had been taken meanwhile
    (by auto-play after the reconnect grace): not errors."""
    stale: int = 0
    """Actions the server refused as ``stale`` (their view's decision was no longer current: a view among the
    messages resent after a takeover or a reconnection, read before the snapshot behind it): not errors."""
    moved: int = 0
    """Sockets the server closed with code 4409 (``moved``: their match went to another process), each
    reconnected at once."""
    ended_early: int = 0
    """Matches that ended without this client leaving, before their length (a forfeit, a failed table)."""
    stuck: int = 0
    """Clients still running ``give_up_s`` after the run's time was up: given up."""
    escaped: int = 0
    """Clients still in a hand ``give_up_s / 2`` after the run's time was up that left at their next turn (an
    escape, 逃跑: a hand with human think times can outlast ``give_up_s``): not failures."""
    error_codes: dict[str, int] = field(default_factory=dict)
    """The error messages received, by code."""
    error_samples: list[dict[str, Any]] = field(default_factory=list)
    """The first five error messages, each with what its table saw just before (for diagnosis)."""
    lost: list[dict[str, Any]] = field(default_factory=list)
    """What the lost, ended-early and stuck tables saw last (for diagnosis)."""
    live: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Each running table's match and last messages (what a stuck one saw)."""

    def error(self, code: str) -> None:
        """Count an error message (or a connection that failed: ``connect``)."""
        self.errors += 1
        self.error_codes[code] = self.error_codes.get(code, 0) + 1

    @property
    def failures(self) -> int:
        """Everything that went wrong: lost, ended early, stuck, errors."""
        return self.matches_lost + self.ended_early + self.stuck + self.errors

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
            "failures": self.failures,
            "errors": self.errors,
            "error_codes": dict(sorted(self.error_codes.items())),
            "error_samples": self.error_samples,
            "matches_lost": self.matches_lost,
            "ended_early": self.ended_early,
            "stuck": self.stuck,
            "escaped": self.escaped,
            "reconnects": self.reconnects,
            "connect_failures": self.connect_failures,
            "retries": self.retries,
            "moved": self.moved,
            "stale": self.stale,
            "refused_retries": self.refused_retries,
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


def _action(match: str, seq: int, choice: str, decision: tuple[Any, Any]) -> dict[str, Any]:
    """An action message naming the hand and decision it answers (when the view named them)."""
    msg: dict[str, Any] = {"type": "action", "match": match, "seq": seq, "action": choice}
    hand, number = decision
    if hand is not None and number is not None:
        msg["hand"], msg["decision"] = hand, number
    return msg


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
    escape_at: float,
    think: float,
    stats: LoadStats,
    rng: random.Random,
    delay: float = 0.0,
    client: httpx.AsyncClient | None = None,
    level: int | None = None,
) -> None:
    """One table's client: plays until ``until``, leaves at a hand's end, escapes a hand still running at
    ``escape_at``."""
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
    length: int | None = None  # the match's length in hands (None: until someone leaves)
    ended = 0  # hand_ends seen
    stats.live[index] = live = {"match": None, "last": trail}
    retried: set[int] = set()  # the seqs sent again
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
                catching_up = match is not None  # the missed messages replayed, until the snapshot
                while True:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), 2)
                    except TimeoutError:
                        # an action not acknowledged may have been lost while its match changed process
                        if time.monotonic() - quiet_since > 60:
                            raise
                        if not resumed and time.monotonic() - quiet_since > 5:
                            finished = True  # the match ended while we were away (its match_end was lost)
                            if not leaving:
                                stats.ended_early += 1
                                lost = {"match": match, "ended_early": "while away", "last": trail}
                                stats.lost.append(lost)
                            return
                        if pending is not None and match is not None:
                            await ws.send(json.dumps(_action(match, *pending)))
                            retried.add(pending[0])
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
                        if msg.get("code") == "stale":
                            stats.stale += 1  # chosen on a view no longer current: refused, nothing applied
                            if pending is not None and msg.get("seq") == pending[0]:
                                pending = None
                            continue
                        if msg.get("seq") in retried and msg.get("code") in REFUSALS:
                            stats.refused_retries += 1  # a retry whose decision was taken meanwhile
                            continue
                        stats.error(str(msg.get("code")))
                        if len(stats.error_samples) < 5:
                            stats.error_samples.append({**msg, "last": trail[-6:]})
                        continue
                    if kind == "ack" and pending is not None and msg.get("seq") == pending[0]:
                        pending = None
                    if kind == "match" and msg.get("resumed"):
                        resumed = True
                    if kind == "match" and not msg.get("resumed"):
                        match = live["match"] = msg["match"]
                        length = msg.get("hands")
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
                        if kind == "snapshot":
                            catching_up = False
                        if kind == "snapshot" and pending is not None:
                            if pending[2] == decision:  # maybe lost on the way: the same seq again
                                stats.retries += 1
                                retried.add(pending[0])
                                await ws.send(json.dumps(_action(match, *pending)))
                                continue
                            pending = None
                        if (
                            view["legal"]
                            and view["actor"] == view["seat"]
                            and not leaving
                            and decision != last
                        ):
                            if time.monotonic() >= escape_at and not catching_up:
                                # long past the time: escape at this turn rather than play the hand out
                                leaving = True
                                stats.escaped += 1
                                await ws.send(json.dumps({"type": "leave", "match": match}))
                                continue
                            last = decision
                            if think:
                                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                            seq += 1
                            choice = _choose(view, rng)
                            pending = (seq, choice, decision)
                            if catching_up:  # a replayed view: its decision may be taken already
                                retried.add(seq)
                            await ws.send(json.dumps(_action(match, seq, choice, decision)))
                            sent_at = time.monotonic()
                    elif kind == "hand_end":
                        stats.hands_completed += 1
                        ended += 1
                        if time.monotonic() >= until:
                            leaving = True
                            await ws.send(json.dumps({"type": "leave", "match": match}))
                        else:
                            entropy = f"{rng.getrandbits(128):032x}"
                            await ws.send(json.dumps({"type": "next", "match": match, "entropy": entropy}))
                    elif kind == "match_end":
                        finished = True
                        if not leaving and (length is None or msg.get("hands", ended) < length):
                            stats.ended_early += 1
                            stats.lost.append({"match": match, "ended_early": msg, "last": trail})
                        return
        except (OSError, websockets.WebSocketException, TimeoutError) as exc:
            attempt += 1
            stats.reconnects += 1
            if isinstance(exc, websockets.ConnectionClosed) and exc.rcvd and exc.rcvd.code == CLOSE_MOVED:
                stats.moved += 1  # the match moved to another process: back at once, no backoff
                continue
            if not connected:  # the socket could not even be opened (a wrong URL, a server not there)
                stats.error("connect")
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
    give_up_s: float = 30.0,
) -> dict[str, Any]:
    """Play ``tables`` tables for about ``seconds`` seconds, their starts spread over the first ``ramp``
    seconds; returns the summary. ``level`` (1–5): each table asks for a bot of that level (人机对战),
    else the room's ``bot_level``. A client still running ``give_up_s`` after the ``seconds`` is given up
    (``stuck``).

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
                    until + give_up_s / 2,
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
        _, running = await asyncio.wait(tasks, timeout=max(0.0, until + give_up_s - time.monotonic()))
        for i, task in enumerate(tasks):
            if task in running:  # stuck past the end: given up
                task.cancel()
                stats.stuck += 1
                stats.lost.append({"stuck": True, **stats.live.get(i, {})})
        await asyncio.gather(*tasks, return_exceptions=True)
    watcher.cancel()
    for task in tasks:
        if not task.cancelled() and task.exception() is not None:
            stats.error("client_failed")
            stats.matches_lost += 1
    return stats.summary(time.monotonic() - t0, tables)
