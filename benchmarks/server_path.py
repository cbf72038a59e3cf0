"""The server path (issue 34): a table start and one action, timed, counted and profiled.

Starts a server in this process (uvicorn on the same asyncio loop as the client; a temporary SQLite database,
or ``--db`` PostgreSQL) and measures, one at a time so each figure is the path alone:

- **table start**: a guest signs up (``POST /api/guest``), says ``hello``, queues against a bot and is ready
  (``next``); from ``queue`` to the seat's first view (the hand dealt) is the table start (``start_grace_s``,
  a deliberate wait before the deal, set to 0). Every store
  transaction is counted by the store function that ran it (reads and writes apart), for the sign-up and for
  the table start;
- **action**: a client plays hands against the bot (no bot pause, no claim window); for each of its discards,
  the time from sending the action to its ``ack`` and to its own discard event coming back.

``--profile``: a cProfile of each phase (the client's share included; it is small), its top entries by
own time and by cumulative time printed.

Usage: .venv/bin/python benchmarks/server_path.py [--starts 40] [--hands 6] [--profile] [--top 25]
       [--db postgresql://postgres@127.0.0.1/postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import pstats
import socket
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import uvicorn
import websockets

from erma.server.app import create_app
from erma.server.config import Settings

COUNTS: Counter[str] = Counter()


def count_transactions() -> None:
    """Wrap the store's transaction runners (wherever a store module imported them) to count each run."""
    import erma.store.engine as engine

    real_write, real_read = engine.run_write, engine.run_read

    def label(fn: Callable[..., Any]) -> str:
        name = getattr(fn, "__qualname__", repr(fn)).replace(".<locals>", "").replace(".<lambda>", "")
        return name

    async def run_write(eng: Any, fn: Callable[..., Any], *a: Any, **k: Any) -> Any:
        COUNTS[f"write {label(fn)}"] += 1
        return await real_write(eng, fn, *a, **k)

    async def run_read(eng: Any, fn: Callable[..., Any], *a: Any, **k: Any) -> Any:
        COUNTS[f"read {label(fn)}"] += 1
        return await real_read(eng, fn, *a, **k)

    for name, module in list(sys.modules.items()):
        if name.startswith("erma.") and module is not None:
            if getattr(module, "run_write", None) is real_write:
                module.run_write = run_write  # type: ignore[attr-defined]
            if getattr(module, "run_read", None) is real_read:
                module.run_read = run_read  # type: ignore[attr-defined]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Client:
    def __init__(self, url: str) -> None:
        self.url = url
        self.ws: Any = None
        self.seq = 0

    async def sign_up(self, http: httpx.AsyncClient) -> None:
        token = (await http.post(self.url + "/api/guest")).json()["token"]
        self.ws = await websockets.connect(self.url.replace("http", "ws") + "/ws", max_size=2**22)
        await self.send({"type": "hello", "token": token, "resume": {}})
        await self.until("welcome")

    async def send(self, m: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(m))

    async def recv(self) -> dict[str, Any]:
        return json.loads(await asyncio.wait_for(self.ws.recv(), 30))  # type: ignore[no-any-return]

    async def until(self, *types: str) -> dict[str, Any]:
        seen = []
        try:
            while (m := await self.recv())["type"] not in types:
                seen.append(m["type"])
        except TimeoutError:
            raise TimeoutError(f"waited for {types}, got {seen}") from None
        return m


def choose(view: dict[str, Any]) -> str:
    legal = view["legal"]
    for first in ("win", "pass", "exchange"):
        if first in legal:
            return first
    drawn = view.get("drawn")
    if drawn and f"discard {drawn}" in legal:
        return f"discard {drawn}"
    plain = [a for a in legal if a.startswith("discard") and "riichi" not in a]
    return plain[-1] if plain else legal[0]


async def table_starts(url: str, n: int, room: str) -> tuple[list[float], Counter[str], Counter[str]]:
    """``n`` table starts one after another: their times (ms, queue → first view) and the transactions of
    the sign-ups and of the starts."""
    signup, start = Counter[str](), Counter[str]()
    times = []
    async with httpx.AsyncClient() as http:
        for _ in range(n):
            c = Client(url)
            COUNTS.clear()
            await c.sign_up(http)
            signup.update(COUNTS)
            COUNTS.clear()
            t0 = time.perf_counter()
            await c.send({"type": "queue", "room": room, "opponent": "bot"})
            m = await c.until("match")
            await c.send({"type": "next", "match": m["match"]})
            await c.until("view")
            times.append((time.perf_counter() - t0) * 1000)
            start.update(COUNTS)
            await c.send({"type": "leave", "match": m["match"]})
            await c.until("match_end")
            await c.ws.close()
    return times, signup, start


async def actions(url: str, hands: int, room: str) -> tuple[list[float], list[float]]:
    """Play ``hands`` hands against the bot; per discard, ms from the action sent to its ack and to its
    discard event."""
    to_ack, to_event = [], []
    async with httpx.AsyncClient() as http:
        c = Client(url)
        await c.sign_up(http)
    await c.send({"type": "queue", "room": room, "opponent": "bot"})
    m = await c.until("match")
    match, me = m["match"], m["seat"]
    await c.send({"type": "next", "match": match})
    done, acted = 0, set()
    sent: tuple[float, bool, bool] | None = None
    while done < hands:
        msg = await c.recv()
        now = time.perf_counter()
        if sent is not None:
            if msg["type"] == "ack" and not sent[1]:
                to_ack.append((now - sent[0]) * 1000)
                sent = (sent[0], True, sent[2])
            ev = msg.get("event") if msg["type"] == "event" else None
            if ev and ev.get("type") == "discard" and ev.get("seat") == me:
                to_event.append((now - sent[0]) * 1000)
                sent = None
        if msg["type"] == "view":
            view = msg["view"]
            key = (view["hand_no"], view["decision"])
            if view["actor"] == me and view["legal"] and key not in acted:
                acted.add(key)
                action = choose(view)
                c.seq += 1
                sent = (time.perf_counter(), False, True) if action.startswith("discard") else None
                await c.send({"type": "action", "match": match, "seq": c.seq, "action": action})
        elif msg["type"] == "hand_end":
            done += 1
            sent = None
            if done < hands:
                await c.send({"type": "next", "match": match})
        elif msg["type"] == "match_end":
            break
    await c.send({"type": "leave", "match": match})
    await c.ws.close()
    return to_ack, to_event


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else float("nan")


def top(profile: cProfile.Profile, n: int) -> str:
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats("tottime").print_stats(n)
    stats.sort_stats("cumulative").print_stats(n)
    return out.getvalue()


async def main_async(args: argparse.Namespace) -> None:
    tmp = tempfile.TemporaryDirectory()
    port = free_port()
    settings = Settings(
        port=port,
        data_dir=tmp.name,
        db_url=args.db,
        bot_pause_s=0.0,
        claim_window_s=0.0,
        start_grace_s=0.0,  # (a deliberate wait before the deal, not work)
        timeouts=False,
        msg_rate=1000.0,
        addr_msg_rate=0,
        metrics_token="path",
    )
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(settings), host="127.0.0.1", port=port, ws="websockets-sansio", log_level="warning"
        )
    )
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    count_transactions()
    url = f"http://127.0.0.1:{port}"
    await table_starts(url, 3, args.room)  # warm-up (the bot worker, the caches)
    prof = cProfile.Profile() if args.profile else None
    if prof:
        prof.enable()
    times, signup, start = await table_starts(url, args.starts, args.room)
    if prof:
        prof.disable()
    n = args.starts
    print(
        f"table start (queue → first view), {n} one after another: p50 {pct(times, 0.5):.1f} ms, "
        f"p90 {pct(times, 0.9):.1f} ms"
    )
    for title, counts in (("sign-up (guest, hello)", signup), ("table start", start)):
        total = sum(counts.values()) / n
        writes = sum(v for k, v in counts.items() if k.startswith("write")) / n
        print(f"  store transactions per {title}: {total:.1f} ({writes:.1f} writes)")
        for k, v in sorted(counts.items(), key=lambda kv: -kv[1]):
            print(f"    {v / n:4.1f}  {k}")
    if prof:
        print(top(prof, args.top))
    prof = cProfile.Profile() if args.profile else None
    if prof:
        prof.enable()
    to_ack, to_event = await actions(url, args.hands, args.room)
    if prof:
        prof.disable()
    print(
        f"action ({len(to_event)} discards): to ack p50 {pct(to_ack, 0.5):.2f} ms "
        f"p90 {pct(to_ack, 0.9):.2f} ms;"
        f" to its event p50 {pct(to_event, 0.5):.2f} ms p90 {pct(to_event, 0.9):.2f} ms"
    )
    if prof:
        print(top(prof, args.top))
    server.should_exit = True
    await serving
    tmp.cleanup()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--starts", type=int, default=40)
    ap.add_argument("--hands", type=int, default=6)
    ap.add_argument("--room", default="classic-novice")
    ap.add_argument("--db", default=None, help="a PostgreSQL URL (default: SQLite in a temporary directory)")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--top", type=int, default=25)
    asyncio.run(main_async(ap.parse_args()))


if __name__ == "__main__":
    main()
