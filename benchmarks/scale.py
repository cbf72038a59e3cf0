"""Scaling across processes: tables held at p99 < 100 ms by one `erma serve` process and by two, in one run.

Both set-ups run on one PostgreSQL database and one Redis (``--redis``), so the only difference is the number
of processes: one process pinned to core 0, then two processes pinned to cores 0 and 1. The load generator
(`erma loadtest`, tables spread over the processes' URLs, human-like think times) runs unpinned: on a two-core
machine it shares the cores with the servers, which understates the two-process figure — the report says how
much CPU the load generator used. Each level runs ``--seconds``; a level is held when p99 < 100 ms and no
match is lost.

Usage: .venv/bin/python benchmarks/scale.py [--levels 100,200,300,400,600] [--seconds 20] [--think 1.0]
         [--db postgresql://postgres@127.0.0.1/postgres] [--redis redis://127.0.0.1:6379/0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import secrets
import shutil
import socket
import subprocess
import sys
import time
from typing import Any

import asyncpg
import httpx
from sqlalchemy.engine import make_url


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pinned(core: int) -> list[str]:
    return ["taskset", "-c", str(core)] if shutil.which("taskset") and (os.cpu_count() or 1) > 1 else []


async def admin(url: str, sql: str) -> None:
    conn = await asyncpg.connect(url, timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def start(n: int, db: str, redis: str, prefix: str) -> list[tuple[subprocess.Popen[bytes], int]]:
    erma = [sys.executable, "-m", "erma.cli"]
    procs = []
    for i in range(n):
        port = free_port()
        cmd = [*pinned(i % (os.cpu_count() or 1)), *erma, "serve", "--port", str(port), "--db", db]
        cmd += ["--redis", redis, "--setting", f"redis_prefix={prefix}"]
        procs.append((subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), port))
        for _ in range(300):  # one at a time: the first one migrates the database
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
    return procs


def level(ports: list[int], tables: int, seconds: float, think: float, room: str) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "erma.cli", "loadtest", "--tables", str(tables), "--seconds", str(seconds)]
    for port in ports:
        cmd += ["--url", f"ws://127.0.0.1:{port}/ws"]
    cmd += ["--think", str(think), "--room", room, "--ramp", str(min(10.0, seconds / 3)), "--json"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds * 10 + 120)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines = out.stdout.strip().splitlines()
    if not lines:
        raise RuntimeError(f"loadtest failed: {out.stderr.strip()[-300:]}")
    summary: dict[str, Any] = json.loads(lines[-1])
    summary.pop("lost", None)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary["loadgen_cpu_cores"] = round(cpu / wall, 2)
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="100,200,300,400,600")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--room", default="cuopai-novice")
    parser.add_argument(
        "--db", default=os.environ.get("ERMA_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
    )
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()

    name = f"erma_bench_scale_{secrets.token_hex(4)}"
    asyncio.run(admin(args.db, f'CREATE DATABASE "{name}"'))
    db = make_url(args.db).set(database=name).render_as_string(hide_password=False)
    results: dict[str, Any] = {}
    try:
        for n in (1, 2):
            procs = start(n, db, args.redis, f"bench{secrets.token_hex(3)}")
            curve = []
            try:
                for tables in [int(x) for x in args.levels.split(",")]:
                    s = level([p for _, p in procs], tables, args.seconds, args.think, args.room)
                    curve.append(s)
                    lat = s["latency_ms"]
                    ok = "ok" if lat["p99"] < 100 and s["matches_lost"] == 0 else "over"
                    print(
                        f"{n} process(es) {tables:>5} tables: {s['hands_completed']:>5} hands, "
                        f"{s['actions']:>6} actions, errors {s['errors']}, lost {s['matches_lost']}, "
                        f"p50 {lat['p50']:>7} ms, p99 {lat['p99']:>7} ms, load generator "
                        f"{s['loadgen_cpu_cores']} cores  {ok}",
                        flush=True,
                    )
                    if ok == "over":
                        break
            finally:
                for proc, _ in procs:
                    proc.terminate()
                for proc, _ in procs:
                    proc.wait(30)
            held = [c["tables"] for c in curve if c["latency_ms"]["p99"] < 100 and c["matches_lost"] == 0]
            results[str(n)] = {"curve": curve, "max_tables_p99_under_100ms": max(held, default=0)}
    finally:
        asyncio.run(admin(args.db, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    one, two = results["1"]["max_tables_p99_under_100ms"], results["2"]["max_tables_p99_under_100ms"]
    results["scaling"] = round(two / one, 2) if one else None
    print(json.dumps({"one_process": one, "two_processes": two, "scaling": results["scaling"]}))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
