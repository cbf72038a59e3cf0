"""Scaling across processes: tables held at p99 < 100 ms by one `erma serve` process and by two, in one run.

Both set-ups run on one PostgreSQL database and one Redis (``--redis``), so the only difference is the
number of processes: one process pinned to core 0, and two processes pinned to cores 0 and 1. Both set-ups
are started at the beginning and warmed up; then each level of tables is run on one process and right after
on two (the machine's other work drifts over minutes: measuring the two set-ups side by side at each level
keeps them in the same conditions). The load generator (`erma loadtest`, tables spread over the set-up's
URLs, human-like think times, table starts spread over ``--ramp`` seconds per hundred tables) runs unpinned:
on a two-core machine it shares the cores with the servers, which understates the two-process figure.

Each level reports, besides the latency, the CPU each server process used (with its bot worker), the load
generator's CPU and its own loop lag, and the CPU the rest of the machine used meanwhile (other work, the
database, Redis) with the load average: a level measured while the machine was busy with other work says so.
Two latencies per level: over the whole run, and steady — the actions sent while every table was playing
(from 5 s after the last table started until the run's time was up). Table starts cost more than play (a
guest sign-up, a session, the queue, the match, the deal: about ten ledger transactions), so the whole-run p99
also measures how fast tables arrive (50 a second at 2 s per hundred); the steady p99 is the tables held. A
level is held when its steady p99 < 100 ms and no match is lost; a set-up stops after two levels in a row not
held (a burst of other work can spoil one level), and its figure is the largest level it held (the figure by
the whole-run p99 is printed too).

Usage: .venv/bin/python benchmarks/scale.py [--levels 200,400,600,800,1000,1200] [--seconds 30] [--think 1.0]
         [--ramp 2.0] [--warmup 30] [--db postgresql://postgres@127.0.0.1/postgres]
         [--redis redis://127.0.0.1:6379/0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

import asyncpg
import httpx
from sqlalchemy.engine import make_url

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


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


def _stat(pid: int) -> list[str]:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its live children (the bot worker) (Linux /proc)."""
    total = 0.0
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            stat = _stat(int(p))
            if int(p) == pid or int(stat[1]) == pid:
                total += (int(stat[11]) + int(stat[12])) / TICK
        except (OSError, IndexError, ValueError):
            continue
    return total


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (not idle, not waiting for I/O) (Linux /proc/stat)."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return 0.0
    return (sum(fields) - fields[3] - fields[4]) / TICK


METRICS_TOKEN = "benchmark-operator"
OPERATOR = {"Authorization": f"Bearer {METRICS_TOKEN}"}
OPERATOR_SETTINGS = ["--setting", f"metrics_token={METRICS_TOKEN}", "--setting", "addr_msg_rate=0"]
"""/metrics behind the operator's token; no per-address limit (every table's client is on this machine)."""


def loop_lag(port: int) -> tuple[int, int]:
    """(samples of a server's loop lag over 50 ms, all samples) from /metrics."""
    try:
        text = httpx.get(f"http://127.0.0.1:{port}/metrics", headers=OPERATOR, timeout=5).text
    except httpx.HTTPError:
        return 0, 0
    values = dict(line.split() for line in text.splitlines() if line.startswith("erma_loop_lag"))
    count = int(float(values.get("erma_loop_lag_ms_count", 0)))
    return count - int(float(values.get('erma_loop_lag_ms_bucket{le="50"}', 0))), count


def start(n: int, db: str, redis: str, prefix: str) -> list[tuple[subprocess.Popen[bytes], int]]:
    erma = [sys.executable, "-m", "erma.cli"]
    procs = []
    for i in range(n):
        port = free_port()
        cmd = [*pinned(i % (os.cpu_count() or 1)), *erma, "serve", "--port", str(port), "--db", db]
        cmd += ["--redis", redis, "--setting", f"redis_prefix={prefix}", *OPERATOR_SETTINGS]
        procs.append((subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), port))
        for _ in range(300):  # one at a time: the first one migrates the database
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
    return procs


def level(
    procs: list[tuple[subprocess.Popen[bytes], int]], tables: int, args: argparse.Namespace, seconds: float
) -> dict[str, Any]:
    ports = [p for _, p in procs]
    cmd = [sys.executable, "-m", "erma.cli", "loadtest", "--tables", str(tables), "--seconds", str(seconds)]
    for port in ports:
        cmd += ["--url", f"ws://127.0.0.1:{port}/ws"]
    cmd += ["--think", str(args.think), "--room", args.room, "--json"]
    cmd += ["--ramp", str(args.ramp * tables / 100)]
    servers0 = [cpu_seconds(proc.pid) for proc, _ in procs]
    lag0 = [loop_lag(port) for port in ports]
    busy0, t0 = machine_busy(), time.monotonic()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        gen = subprocess.Popen(cmd, stdout=out, stderr=err, text=True)
        load = []
        while True:  # reaped here, with its resource usage
            pid, _, usage = os.wait4(gen.pid, os.WNOHANG)
            if pid:
                break
            time.sleep(1)
            load.append(os.getloadavg()[0])
        gen.returncode = 0
        gen_cpu = usage.ru_utime + usage.ru_stime
        out.seek(0)
        err.seek(0)
        lines, error = out.read().strip().splitlines(), err.read()
    wall = time.monotonic() - t0
    busy = machine_busy() - busy0
    servers = [round(cpu_seconds(proc.pid) - c, 1) for (proc, _), c in zip(procs, servers0, strict=True)]
    lag1 = [loop_lag(port) for port in ports]
    if not lines:
        raise RuntimeError(f"loadtest failed: {error.strip()[-300:]}")
    summary: dict[str, Any] = json.loads(lines[-1])
    summary.pop("lost", None)
    summary["wall_s"] = round(wall, 1)
    summary["server_cpu_s"] = servers
    summary["loadgen_cpu_s"] = round(gen_cpu, 1)
    summary["others_cpu_s"] = round(max(0.0, busy - sum(servers) - gen_cpu), 1)
    summary["load_average"] = round(sum(load) / len(load), 2) if load else None
    summary["loop_lag_over_50ms"] = [b[0] - a[0] for a, b in zip(lag0, lag1, strict=True)]
    return summary


def held(s: dict[str, Any], key: str = "steady_latency_ms") -> bool:
    return bool(s[key]["p99"] < 100 and s[key].get("actions", 1) and not s["matches_lost"])


def line(n: int, s: dict[str, Any]) -> str:
    lat, steady, lag = s["latency_ms"], s["steady_latency_ms"], s.get("client_lag_ms", {})
    ok = "held" if held(s) else "over"
    cpu = "+".join(f"{c:.1f}" for c in s["server_cpu_s"])
    return (
        f"{n} process{'es' if n > 1 else '  '} {s['tables']:>5} tables: {s['hands_completed']:>5} hands, "
        f"{s['actions']:>6} actions, errors {s['errors']}, lost {s['matches_lost']}, "
        f"p50 {lat['p50']:>6} ms, p99 {lat['p99']:>7} ms; steady p50 {steady['p50']:>6} ms, p99 "
        f"{steady['p99']:>7} ms ({steady['actions']} actions) {ok} | server CPU {cpu} s, loop lag > 50 ms "
        f"{'+'.join(map(str, s['loop_lag_over_50ms']))}; load generator {s['loadgen_cpu_s']} s (its lag p99 "
        f"{lag.get('p99')} ms); rest of the machine {s['others_cpu_s']} s; over {s['wall_s']} s, "
        f"load average {s['load_average']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="200,400,600,800,1000,1200")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--ramp", type=float, default=2.0, help="seconds of table starts per 100 tables")
    parser.add_argument("--warmup", type=int, default=30, help="tables of a first, unreported level")
    parser.add_argument("--room", default="cuopai-novice")
    parser.add_argument(
        "--db", default=os.environ.get("ERMA_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
    )
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()

    name = f"erma_bench_scale_{secrets.token_hex(4)}"
    asyncio.run(admin(args.db, f'CREATE DATABASE "{name}"'))
    db = make_url(args.db).set(database=name).render_as_string(hide_password=False)
    setups: dict[int, list[tuple[subprocess.Popen[bytes], int]]] = {}
    curves: dict[int, list[dict[str, Any]]] = {1: [], 2: []}
    try:
        for n in (1, 2):
            setups[n] = start(n, db, args.redis, f"bench{secrets.token_hex(3)}")
        if args.warmup:  # the first tables warm each process's lazy tables up
            for n in (1, 2):
                s = level(setups[n], args.warmup * n, args, 10)
                print(f"{n} process(es): warm-up, p99 {s['latency_ms']['p99']} ms (not reported)", flush=True)
        over = {1: 0, 2: 0}  # levels not held in a row
        for tables in [int(x) for x in args.levels.split(",")]:
            for n in (1, 2):
                if over[n] < 2:
                    s = level(setups[n], tables, args, args.seconds)
                    curves[n].append(s)
                    print(line(n, s), flush=True)
                    over[n] = 0 if held(s) else over[n] + 1
            if min(over.values()) >= 2:
                break
    finally:
        for procs in setups.values():
            for proc, _ in procs:
                proc.terminate()
        for procs in setups.values():
            for proc, _ in procs:
                proc.wait(30)
        asyncio.run(admin(args.db, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    results: dict[str, Any] = {}
    for n in (1, 2):
        steady = [c["tables"] for c in curves[n] if held(c)]
        whole = [c["tables"] for c in curves[n] if held(c, "latency_ms")]
        results[str(n)] = {
            "curve": curves[n],
            "max_tables_steady_p99_under_100ms": max(steady, default=0),
            "max_tables_whole_run_p99_under_100ms": max(whole, default=0),
        }
    for key in ("steady", "whole_run"):
        one = results["1"][f"max_tables_{key}_p99_under_100ms"]
        two = results["2"][f"max_tables_{key}_p99_under_100ms"]
        results[f"scaling_{key}"] = round(two / one, 2) if one else None
        print(
            json.dumps(
                {
                    "by": f"{key} p99",
                    "one_process": one,
                    "two_processes": two,
                    "scaling": results[f"scaling_{key}"],
                }
            )
        )
    print(json.dumps(results))


if __name__ == "__main__":
    main()
