"""How many concurrent tables one server process holds with p99 action→event latency under 100 ms.

Starts `erma serve` on one core (taskset -c 0, a temporary SQLite database) and runs the load generator on the
other core (taskset -c 1) at increasing table counts; each table is a bot-driven client playing a bot through
the real websocket protocol, with human-like think times (mean ``--think`` seconds). Prints the curve:
tables → hands completed, errors, latency p50/p99.

Usage: .venv/bin/python benchmarks/server.py [--levels 50,100,200,400,600] [--seconds 20] [--think 1.0]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="50,100,200,400,600")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--room", default="cuopai-novice")
    args = parser.parse_args()

    data = tempfile.mkdtemp(prefix="erma-bench-")
    port = free_port()
    erma = [sys.executable, "-m", "erma.cli"]
    server = subprocess.Popen(
        [*pinned(0), *erma, "serve", "--port", str(port), "--data", data],
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
        for level in [int(x) for x in args.levels.split(",")]:
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
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=args.seconds * 10 + 120)
            lines = out.stdout.strip().splitlines()
            if not lines:
                print(f"{level:>5} tables: loadtest failed: {out.stderr.strip()[-300:]}")
                break
            summary = json.loads(lines[-1])
            curve.append(summary)
            lat = summary["latency_ms"]
            ok = "ok" if lat["p99"] < 100 else "over 100 ms"
            print(
                f"{level:>5} tables: {summary['tables_started']:>5} started, "
                f"{summary['hands_completed']:>5} hands, {summary['actions']:>6} actions, "
                f"errors {summary['errors']}, lost {summary['matches_lost']}, "
                f"p50 {lat['p50']:>7} ms, p99 {lat['p99']:>7} ms  {ok}",
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
