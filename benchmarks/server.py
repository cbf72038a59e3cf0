"""How many concurrent tables one server process holds with p99 action→event latency under 100 ms.

Starts `erma serve` on one core (taskset -c 0, a temporary SQLite database) and runs the load generator on the
other core (taskset -c 1) at increasing table counts; each table is a bot-driven client playing a bot through
the real websocket protocol, with human-like think times (mean ``--think`` seconds). Prints the curve:
tables → hands completed, errors, latency p50/p99.

Each level also reports the server's CPU time and its event-loop lag (the /metrics histogram) over the level.
Table starts are spread over ``--ramp`` seconds per hundred tables (players do not all arrive in one instant).

Usage: .venv/bin/python benchmarks/server.py [--levels 100,200,400,500,600,800] [--seconds 30] [--think 1.0]
       [--bot-level 1..5]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pinned(core: int) -> list[str]:
    return ["taskset", "-c", str(core)] if shutil.which("taskset") and (os.cpu_count() or 1) > 1 else []


def _stat(pid: int) -> list[str]:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time so far of a process and its live children (the bot worker) (Linux /proc)."""
    try:
        pids = [pid] + [int(p) for p in os.listdir("/proc") if p.isdigit() and _ppid(int(p)) == pid]
        ticks = os.sysconf("SC_CLK_TCK")
        return sum(int(x) for p in pids for x in _stat(p)[11:13]) / ticks
    except OSError:
        return 0.0


def _ppid(pid: int) -> int:
    try:
        return int(_stat(pid)[1])
    except (OSError, IndexError, ValueError):
        return -1


METRICS_TOKEN = "benchmark-operator"
OPERATOR = {"Authorization": f"Bearer {METRICS_TOKEN}"}
OPERATOR_SETTINGS = ["--setting", f"metrics_token={METRICS_TOKEN}", "--setting", "addr_msg_rate=0"]
"""/metrics behind the operator's token; no per-address limit (every table's client is on this machine)."""


def loop_lag(port: int) -> tuple[int, int]:
    """(samples of the server's loop lag over 50 ms, all samples) from /metrics."""
    try:
        text = httpx.get(f"http://127.0.0.1:{port}/metrics", headers=OPERATOR, timeout=5).text
    except httpx.HTTPError:
        return 0, 0
    lines = [line.split() for line in text.splitlines() if line.startswith("erma_loop_lag")]
    values = {name: float(value) for name, value in lines}
    count = int(values.get("erma_loop_lag_ms_count", 0))
    return count - int(values.get('erma_loop_lag_ms_bucket{le="50"}', 0)), count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="100,200,400,500,600,800")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--ramp", type=float, default=2.0, help="seconds of table starts per 100 tables")
    parser.add_argument("--warmup", type=int, default=30, help="tables of a first, unreported level")
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--room", default="cuopai-novice")
    parser.add_argument(
        "--bot-level", type=int, default=None, help="the bots' level (1–5; default: the room's)"
    )
    args = parser.parse_args()

    data = tempfile.mkdtemp(prefix="erma-bench-")
    port = free_port()
    erma = [sys.executable, "-m", "erma.cli"]
    server = subprocess.Popen(
        [*pinned(0), *erma, "serve", "--port", str(port), "--data", data, *OPERATOR_SETTINGS],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    curve = []
    try:
        for _ in range(300):
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        levels = [int(x) for x in args.levels.split(",")]
        for i, level in enumerate(([args.warmup] if args.warmup else []) + levels):
            warm = bool(args.warmup) and i == 0  # the first tables warm the server's lazy tables up
            cmd = [
                *pinned(1),
                *erma,
                "loadtest",
                "--url",
                f"ws://127.0.0.1:{port}/ws",
                "--tables",
                str(level),
            ]
            cmd += ["--seconds", str(args.seconds), "--think", str(args.think), "--room", args.room, "--json"]
            cmd += ["--ramp", str(args.ramp * level / 100)]
            if args.bot_level is not None:
                cmd += ["--bot-level", str(args.bot_level)]
            if warm:
                cmd[cmd.index("--seconds") + 1] = "10"
            cpu0, lag0 = cpu_seconds(server.pid), loop_lag(port)
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=args.seconds * 10 + 120)
            cpu1, lag1 = cpu_seconds(server.pid), loop_lag(port)
            lines = out.stdout.strip().splitlines()
            if not lines:
                print(f"{level:>5} tables: loadtest failed: {out.stderr.strip()[-300:]}")
                break
            summary = json.loads(lines[-1])
            summary["server_cpu_s"] = round(cpu1 - cpu0, 1)
            summary["loop_lag_over_50ms"] = lag1[0] - lag0[0]
            summary["loop_lag_samples"] = lag1[1] - lag0[1]
            if warm:
                print(f"{level:>5} tables: warm-up, p99 {summary['latency_ms']['p99']} ms (not reported)")
                continue
            curve.append(summary)
            lat = summary["latency_ms"]
            ok = "ok" if lat["p99"] < 100 else "over 100 ms"
            print(
                f"{level:>5} tables: {summary['tables_started']:>5} started, "
                f"{summary['hands_completed']:>5} hands, {summary['actions']:>6} actions, "
                f"errors {summary['errors']}, lost {summary['matches_lost']}, "
                f"p50 {lat['p50']:>7} ms, p99 {lat['p99']:>7} ms  {ok}; "
                f"server CPU {summary['server_cpu_s']} s over {summary['seconds']} s, "
                f"loop lag > 50 ms {summary['loop_lag_over_50ms']}/{summary['loop_lag_samples']}; "
                f"loadtest's own lag p99 {summary.get('client_lag_ms', {}).get('p99')} ms",
                flush=True,
            )
    finally:
        server.terminate()
        server.wait(20)
        shutil.rmtree(data, ignore_errors=True)
    held = [c["tables"] for c in curve if c["latency_ms"]["p99"] < 100 and c["matches_lost"] == 0]
    print(json.dumps({"curve": curve, "max_tables_p99_under_100ms": max(held, default=0)}))


if __name__ == "__main__":
    main()
