"""A PostgreSQL restart under load: what one `erma serve` process loses when its database goes away.

Starts a private PostgreSQL (initdb and pg_ctl in a temporary folder, on a free port; as root it runs as the
``postgres`` user) and one ``erma serve`` on it, drives ``--tables`` bot tables with ``erma loadtest`` for
``--seconds``, and ``--at`` seconds in stops PostgreSQL (``pg_ctl -m fast``: every connection closed, as a
restart does) for ``--down`` seconds. After the load and ``--settle`` seconds more (the sweeper's turn) it
prints one JSON object:

- ``tables``, ``hands_completed``, ``errors``, ``matches_lost``: the load test's own counts;
- ``tables_failed``: tables that died (``table … failed`` in the server's log); ``db_lost_matches``: matches
  ended by an outage longer than the window (``erma_db_lost_matches_total``); ``db_waits``: tables that
  waited;
- ``tracebacks``: tracebacks in the server's log;
- ``open_holds`` and ``open_hold_beans``: stakes still in escrow with no settle, refund or forfeit;
- ``ledger_breaches``: ``erma ledger check``'s invariants.

Usage: .venv/bin/python benchmarks/db_outage.py [--tables 30] [--seconds 40] [--at 10] [--down 10]
         [--settle 8] [--setting db_retry_window_s=30 ...]
(``--setting`` is passed to ``erma serve``; the script adds ``time_scale=0.25``, a metrics token, and
``sweep_min_age_s=0 sweep_interval_s=2`` unless ``--no-sweep-settings``, for a server that has no sweeper.)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from erma.lab.loadtest import run_load
from erma.store import Store

ROOT = Path(__file__).parents[1]
TOKEN = "db-outage-token"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Postgres:
    """A private PostgreSQL cluster in a temporary folder."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
        self.bin = Path(found[-1]).parent if found else Path(shutil.which("pg_ctl") or "pg_ctl").parent
        self.tmp = Path(tempfile.mkdtemp(prefix="erma-outage-"))
        os.chmod(self.tmp, 0o755)
        self.data = self.tmp / "data"
        self.sock = self.tmp / "sock"
        self.port = free_port()
        self.root = os.geteuid() == 0
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def run(self, *args: str) -> None:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=120)

    def init(self) -> None:
        self.sock.mkdir()
        if self.root:
            shutil.chown(self.tmp, "postgres")
            shutil.chown(self.sock, "postgres")
        self.run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")
        self.start()

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.sock} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.tmp / "pg.log"), "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self.run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop("immediate")
        shutil.rmtree(self.tmp, ignore_errors=True)


def metrics(url: str) -> dict[str, float]:
    out: dict[str, float] = {}
    text = httpx.get(url + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10).text
    for line in text.splitlines():
        if line and not line.startswith("#") and "{" not in line:
            name, value = line.split()
            out[name] = float(value)
    return out


async def ledger(url: str) -> tuple[list[str], int, int]:
    store = await Store.open(url)
    try:
        holds = await store.open_holds()
        return await store.check(), len(holds), sum(h.beans for h in holds)
    finally:
        await store.close()


async def drive(args: argparse.Namespace, pg: Postgres, ws: str) -> dict[str, Any]:
    async def outage() -> None:
        await asyncio.sleep(args.at)
        await asyncio.to_thread(pg.stop)
        await asyncio.sleep(args.down)
        await asyncio.to_thread(pg.start)

    fault = asyncio.create_task(outage())
    summary = await run_load([ws], tables=args.tables, seconds=args.seconds, room=args.room)
    await fault
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--at", type=float, default=10.0, help="when the database goes away (s into the run)")
    parser.add_argument("--down", type=float, default=10.0, help="how long it stays away (s)")
    parser.add_argument("--settle", type=float, default=8.0, help="wait after the load (the sweeper's turn)")
    parser.add_argument("--room", default="cuopai-novice")
    parser.add_argument("--setting", action="append", default=[], help="an erma serve --setting NAME=VALUE")
    parser.add_argument("--no-sweep-settings", action="store_true")
    args = parser.parse_args()

    pg = Postgres()
    pg.init()
    port = free_port()
    settings = ["time_scale=0.25", f"metrics_token={TOKEN}", *args.setting]
    if not args.no_sweep_settings:
        settings += ["sweep_min_age_s=0", "sweep_interval_s=2"]
    cmd = [sys.executable, "-m", "erma.cli", "serve", "--port", str(port), "--db", pg.url]
    for s in settings:
        cmd += ["--setting", s]
    log = pg.tmp / "serve.log"
    url = f"http://127.0.0.1:{port}"
    with open(log, "wb") as out:
        server = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        for _ in range(300):
            try:
                if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        summary = asyncio.run(drive(args, pg, f"ws://127.0.0.1:{port}/ws"))
        time.sleep(args.settle)
        m = metrics(url)
        breaches, holds, beans = asyncio.run(ledger(pg.url))
    finally:
        server.terminate()
        server.wait(30)
        text = log.read_text(errors="replace")
        pg.remove()
    report = {
        "tables": args.tables,
        "down_s": args.down,
        "settings": settings,
        "hands_completed": summary["hands_completed"],
        "errors": summary["errors"],
        "matches_lost": summary["matches_lost"],
        "tables_failed": len(re.findall(r"table \w+ failed", text)),
        "db_lost_matches": int(m.get("erma_db_lost_matches_total", 0)),
        "db_waits": int(m.get("erma_db_waits_total", 0)),
        "swept_units": int(m.get("erma_swept_units_total", 0)),
        "tracebacks": text.count("Traceback (most recent call last)"),
        "open_holds": holds,
        "open_hold_beans": beans,
        "ledger_breaches": len(breaches),
    }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
