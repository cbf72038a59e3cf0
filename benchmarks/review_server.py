"""The review (复盘) through the server: how long a player waits for a hand's review, how fast it comes back
from the store, and that the event loop keeps serving while reviews compute (they run in the review workers).

Starts ``erma serve`` (a temporary SQLite database, ``review_workers``), stores ``--hands`` self-play hands
(greedy against greedy, one preset) for a guest, then asks for the review of the guest's seat of each hand one
after another (``GET /api/games/{id}/review``, polling the 202), while a thread asks ``/healthz`` every 50 ms.
Prints: the wait for each review (request to 200: p50 / p95 / max), the same request again (served from the
store), /healthz latency during the reviews (p50 / p99 / max) and the server's loop-lag samples over 50 ms
(its /metrics histogram, sampled every 0.25 s).

Usage: .venv/bin/python benchmarks/review_server.py [--hands 20] [--preset cuopai789] [--workers 1] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

METRICS_TOKEN = "benchmark-operator"
OPERATOR = {"Authorization": f"Bearer {METRICS_TOKEN}"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def hands(preset: str, n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` self-play hands of ``preset`` (greedy against greedy) as records."""
    from erma.bots import make_bot
    from erma.game.record import to_record
    from erma.lab.selfplay import bot_seed, hand_seed, play_hand
    from erma.rules import find_ruleset

    rules = find_ruleset(preset)
    out = []
    for i in range(n):
        bots = [make_bot("greedy", bot_seed(seed, i, s)) for s in (0, 1)]
        out.append(to_record(play_hand(rules, hand_seed(seed, i), bots)))
    return out


def store_hands(data: Path, records: list[dict[str, Any]], me: int) -> list[tuple[int, int]]:
    """Store the hands with ``me`` at alternate seats; (game id, my seat) each."""
    from erma.store import Store

    async def run() -> list[tuple[int, int]]:
        store = await Store.open(None, data)
        try:
            other = (await store.create_guest()).id
            out = []
            for i, record in enumerate(records):
                seat = i % 2
                ids = [me, other] if seat == 0 else [other, me]
                summary = {"room": "bench", "rules": record["rules"], "winner": None, "points": 0}
                out.append((await store.save_record(f"bench-review-{i}", ids, record, summary), seat))
            return out
        finally:
            await store.close()

    return asyncio.run(run())


def lag_over_50(url: str) -> tuple[int, int]:
    text = httpx.get(url + "/metrics", headers=OPERATOR, timeout=5).text
    values = dict(line.split() for line in text.splitlines() if line.startswith("erma_loop_lag_ms"))
    count = int(float(values.get("erma_loop_lag_ms_count", 0)))
    return count - int(float(values.get('erma_loop_lag_ms_bucket{le="50"}', 0))), count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--preset", default="cuopai789")
    parser.add_argument("--workers", type=int, default=1, help="review_workers (0: a thread of the server)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    records = hands(args.preset, args.hands, args.seed)
    data = Path(tempfile.mkdtemp(prefix="erma-bench-review-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    settings = [f"metrics_token={METRICS_TOKEN}", f"review_workers={args.workers}", "review_wait_s=0.5"]
    server = subprocess.Popen(
        [sys.executable, "-m", "erma.cli", "serve", "--port", str(port), "--data", str(data)]
        + [x for s in settings for x in ("--setting", s)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            try:
                if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        token = httpx.post(url + "/api/guest").json()["token"]
        me_headers = {"Authorization": f"Bearer {token}"}
        me = httpx.get(url + "/api/me", headers=me_headers).json()["account"]["id"]
        games = store_hands(data, records, me)

        health: list[float] = []
        done = threading.Event()

        def ping() -> None:
            with httpx.Client() as client:
                while not done.is_set():
                    t0 = time.perf_counter()
                    client.get(url + "/healthz")
                    health.append((time.perf_counter() - t0) * 1000)
                    time.sleep(0.05)

        pinger = threading.Thread(target=ping, daemon=True)
        lag_before = lag_over_50(url)
        pinger.start()
        waits, cached, decisions = [], [], []
        with httpx.Client(headers=me_headers, timeout=300) as client:
            for game, _seat in games:
                t0 = time.perf_counter()
                while (reply := client.get(f"{url}/api/games/{game}/review")).status_code == 202:
                    time.sleep(0.25)
                waits.append(time.perf_counter() - t0)
                assert reply.status_code == 200, reply.text
                decisions.append(len(reply.json()["decisions"]))
                t0 = time.perf_counter()
                assert client.get(f"{url}/api/games/{game}/review").status_code == 200
                cached.append((time.perf_counter() - t0) * 1000)
        done.set()
        pinger.join(5)
        lag_after = lag_over_50(url)
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(data, ignore_errors=True)

    print(f"{args.preset}: {len(games)} hands (greedy vs greedy, seed {args.seed}), workers {args.workers}")
    print(f"  decisions per reviewed seat: mean {statistics.mean(decisions):.1f}, max {max(decisions)}")
    print(
        f"  wait for a review (request to 200, s): p50 {quantile(waits, 0.5):.2f}"
        f"  p95 {quantile(waits, 0.95):.2f}  max {max(waits):.2f}"
    )
    print(f"  again, from the store (ms): p50 {quantile(cached, 0.5):.1f}  p95 {quantile(cached, 0.95):.1f}")
    print(
        f"  /healthz meanwhile ({len(health)} requests, ms): p50 {quantile(health, 0.5):.1f}"
        f"  p99 {quantile(health, 0.99):.1f}  max {max(health):.1f}"
    )
    print(
        f"  server loop-lag samples over 50 ms during the run: {lag_after[0] - lag_before[0]}"
        f" of {lag_after[1] - lag_before[1]}"
    )


if __name__ == "__main__":
    main()
