"""The fault suite (故障演练): two ``erma serve`` processes on PostgreSQL + Redis under ``erma loadtest``, one
fault injected at a time, and what each fault cost.

    .venv/bin/python benchmarks/faults.py            # the long cases (30 tables, faults of 5-10 s)
    .venv/bin/python benchmarks/faults.py --short    # small cases, a couple of minutes in all
    .venv/bin/python benchmarks/faults.py --short --only owner_stopped,owner_killed --json

Each case starts on a fresh database and a fresh Redis key prefix: a private ``redis-server`` (on a free
port, in a temporary folder) for every case, so that it may be restarted or paused; a private PostgreSQL
(``initdb`` + ``pg_ctl``, as the ``postgres`` user when run as root) for the PostgreSQL restart, and the
shared one (``ERMA_TEST_PG``, default ``postgresql://postgres@127.0.0.1:5432/test``, a fresh database dropped
afterwards) for the others. Then ``erma loadtest`` plays bot tables spread over both processes, the fault
comes a third of the way through, and each row says:

- ``lost``: matches ``erma loadtest`` could not finish; ``early``: matches that ended without the client
  leaving (a forfeit, a failed table); ``stuck``: clients given up past the end;
- ``forfeits``: forfeit transactions in the ledger less the load test's own escapes (``escaped``: a client
  still in a hand long after the run's time leaves it): each one left is wrong;
- ``open holds``: escrow accounts still holding beans once the load test is over (stakes stranded);
- ``tracebacks``: in the servers' logs; ``check``: the problems ``Store.check`` (``erma ledger check``) finds;
- ``errors``: error messages the clients received, by code; ``stale``: actions refused as ``stale`` (chosen on
  a view no longer current, as a view among the messages resent after a takeover: not an error).

Faults: ``redis_restart`` (shut down without saving, started again), ``redis_pause`` (SIGSTOP then SIGCONT),
``pg_restart`` (a fast shutdown, started again), ``owner_stopped`` (one server process stopped for three
leases and more, then resumed), ``owner_killed`` (SIGKILL; the other carries on).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from sqlalchemy.engine import make_url

PG_ADMIN = os.environ.get("ERMA_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
FAULTS = ("redis_restart", "redis_pause", "pg_restart", "owner_stopped", "owner_killed")
NO_DB_RETRY = ("redis_restart", "redis_pause", "owner_stopped", "owner_killed")
"""The cases that do not need the store to survive a database outage."""
TOKEN = secrets.token_hex(16)
"""The operator token of the servers started here (their /metrics)."""


@dataclass(frozen=True)
class Size:
    """How big a case is."""

    tables: int
    seconds: float
    lease_ms: int
    down_s: float
    """How long a Redis or PostgreSQL restart keeps it down, a pause lasts."""
    stopped_s: float
    """How long an owner stays stopped."""
    time_scale: float


LONG = Size(tables=30, seconds=40, lease_ms=3000, down_s=10, stopped_s=10, time_scale=1.0)
SHORT = Size(tables=6, seconds=12, lease_ms=1000, down_s=3, stopped_s=3.5, time_scale=0.2)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait(check: Callable[[], bool], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not happen in {timeout} s")


class Redis:
    """A private redis-server that can be shut down, started again, paused."""

    def __init__(self, folder: Path) -> None:
        self.port, self.dir = free_port(), folder
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        subprocess.run(
            ["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port", str(self.port),
             "--save", "", "--appendonly", "no", "--dir", str(self.dir),
             "--logfile", str(self.dir / "redis.log"), "--pidfile", str(self.dir / "redis.pid")],
            check=True,
        )  # fmt: skip
        _wait(self.ping, "redis-server start")

    def ping(self) -> bool:
        r = subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True)
        return r.stdout.strip() == "PONG"

    def pid(self) -> int:
        return int((self.dir / "redis.pid").read_text())

    def shutdown(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.port), "shutdown", "nosave"], capture_output=True)
        _wait(lambda: not self.ping(), "redis-server shutdown")


class Postgres:
    """A private PostgreSQL cluster (initdb + pg_ctl; as ``postgres`` when this runs as root)."""

    def __init__(self, folder: Path) -> None:
        self.port, self.dir = free_port(), folder / "pg"
        self.admin = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *cmd: str) -> None:
        if os.geteuid() == 0:
            cmd = ("runuser", "-u", "postgres", "--", *cmd)
        subprocess.run(cmd, check=True, capture_output=True)

    def init(self) -> None:
        self.dir.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run("initdb", "-D", str(self.dir), "-U", "postgres", "-A", "trust")
        self.start()

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.dir), "-o", opts, "-l", str(self.dir / "log"), "-w", "start")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.dir), "-m", "fast", "-w", "stop")


async def _admin(url: str, sql: str) -> Any:
    conn = await asyncpg.connect(url, timeout=5)
    try:
        return await conn.fetch(sql)
    finally:
        await conn.close()


@dataclass
class Node:
    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"


def start_node(db: str, redis: str, prefix: str, size: Size, folder: Path) -> Node:
    port = free_port()
    log = folder / f"node-{port}.log"
    settings = {
        "time_scale": size.time_scale,
        "claim_window_s": 0.05 if size.time_scale < 1 else 0.5,
        "bot_pause_s": 0.0,
        "redis_prefix": prefix,
        "shutdown_grace_s": 1,
        "msg_rate": 500,
        "metrics_token": TOKEN,
    }
    cmd = [sys.executable, "-m", "erma.cli", "serve", "--port", str(port), "--db", db, "--redis", redis,
           "--lease-ms", str(size.lease_ms)]  # fmt: skip
    for k, v in settings.items():
        cmd += ["--setting", f"{k}={v}"]
    proc = subprocess.Popen(cmd, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    node = Node(proc, port, log)

    def up() -> bool:
        if proc.poll() is not None:
            raise RuntimeError(f"erma serve exited: {log.read_text()[-2000:]}")
        try:
            return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    _wait(up, "erma serve start")
    return node


def owner_with_most(nodes: list[Node]) -> Node:
    """The node owning the most matches (``erma_matches`` of its /metrics)."""
    best, most = nodes[0], -1.0
    for n in nodes:
        with contextlib.suppress(httpx.HTTPError, ValueError):
            text = httpx.get(
                f"http://127.0.0.1:{n.port}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=2
            ).text
            for line in text.splitlines():
                if line.startswith("erma_matches ") and float(line.split()[1]) > most:
                    best, most = n, float(line.split()[1])
    return best


@contextlib.contextmanager
def database(admin: str) -> Iterator[str]:
    name = f"erma_faults_{os.getpid()}_{secrets.token_hex(4)}"
    asyncio.run(_admin(admin, f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(admin).set(database=name).render_as_string(hide_password=False)
    finally:
        with contextlib.suppress(Exception):
            asyncio.run(_admin(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def inject(fault: str, size: Size, redis: Redis, pg: Postgres | None, nodes: list[Node]) -> str:
    """Inject one fault; returns what was done."""
    if fault == "redis_restart":
        redis.shutdown()
        time.sleep(size.down_s)
        redis.start()
        return f"Redis shut down (nosave), started again {size.down_s:g} s later"
    if fault == "redis_pause":
        pid = redis.pid()
        os.kill(pid, signal.SIGSTOP)
        time.sleep(size.down_s)
        os.kill(pid, signal.SIGCONT)
        return f"Redis paused {size.down_s:g} s"
    if fault == "pg_restart":
        assert pg is not None
        pg.stop()
        time.sleep(size.down_s)
        pg.start()
        return f"PostgreSQL stopped (fast), started again {size.down_s:g} s later"
    owner = owner_with_most(nodes)
    if fault == "owner_stopped":
        os.kill(owner.proc.pid, signal.SIGSTOP)
        time.sleep(size.stopped_s)
        os.kill(owner.proc.pid, signal.SIGCONT)
        return f"one server process stopped {size.stopped_s:g} s (lease {size.lease_ms} ms), then resumed"
    if fault == "owner_killed":
        owner.proc.kill()
        owner.proc.wait(10)
        return "one server process killed (SIGKILL)"
    raise ValueError(f"unknown fault {fault!r}")


async def _ledger(db: str) -> tuple[int, int, list[str]]:
    """(forfeit transactions, escrow accounts holding beans, Store.check's problems)."""
    from erma.store import Store

    forfeits = (await _admin(db, "SELECT count(*) AS n FROM ledger_transactions WHERE kind = 'forfeit'"))[0]
    holds = (await _admin(db, "SELECT count(*) AS n FROM accounts WHERE kind = 'escrow' AND balance <> 0"))[0]
    store = await Store.open(db)
    try:
        problems = await store.check()
    finally:
        await store.close()
    return int(forfeits["n"]), int(holds["n"]), list(problems)


def run_case(fault: str, size: Size, folder: Path, pg: Postgres | None) -> dict[str, Any]:
    """One fault on fresh services; its row."""
    case = folder / fault
    case.mkdir()
    redis = Redis(case)
    redis.start()
    nodes: list[Node] = []
    admin = pg.admin if fault == "pg_restart" and pg is not None else PG_ADMIN
    try:
        with database(admin) as db:
            prefix = f"f{secrets.token_hex(4)}"
            nodes = [start_node(db, redis.url, prefix, size, case) for _ in range(2)]
            give_up = 30.0
            cmd = [sys.executable, "-m", "erma.cli", "loadtest", "--json", "--tables", str(size.tables),
                   "--seconds", str(size.seconds), "--think", "0.05" if size.time_scale < 1 else "0.5",
                   "--give-up", str(give_up), "--url", nodes[0].ws, "--url", nodes[1].ws]  # fmt: skip
            load = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            time.sleep(size.seconds / 3)
            done = inject(fault, size, redis, pg if fault == "pg_restart" else None, nodes)
            out, err = load.communicate(timeout=size.seconds + give_up + 120)
            lines = out.strip().splitlines()
            if not lines:
                raise RuntimeError(f"loadtest failed: {err[-1000:]}")
            summary = json.loads(lines[-1])
            time.sleep(1)  # the last settlements land
            forfeits, holds, problems = asyncio.run(_ledger(db))
            for n in nodes:
                if n.proc.poll() is None:
                    n.proc.send_signal(signal.SIGTERM)
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        n.proc.wait(20)
            tracebacks = sum(n.log.read_text(errors="replace").count("Traceback") for n in nodes)
            return {
                "fault": fault,
                "done": done,
                "tables": summary["tables_started"],
                "hands": summary["hands_completed"],
                "lost": summary["matches_lost"],
                "early": summary.get("ended_early", 0),
                "forfeits": forfeits - summary.get("escaped", 0),
                "escaped": summary.get("escaped", 0),
                "stuck": summary.get("stuck", 0),
                "open_holds": holds,
                "tracebacks": tracebacks,
                "check": problems,
                "errors": summary.get("error_codes", {"?": summary["errors"]} if summary["errors"] else {}),
                "moved": summary.get("moved", 0),
                "stale": summary.get("stale", 0),
                "error_samples": summary.get("error_samples", []),
                "reconnects": summary["reconnects"],
            }
    finally:
        for n in nodes:
            if n.proc.poll() is None:
                n.proc.kill()
                n.proc.wait(10)
        redis.shutdown()


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as a Markdown table."""
    head = ["fault", "tables", "hands", "lost", "ended early", "forfeits", "stuck", "open holds"]
    head += ["tracebacks", "check", "errors", "stale"]
    out = ["| " + " | ".join(head) + " |", "|---" + "|---:" * 8 + "|---|---|---:|"]
    for r in rows:
        errors = ", ".join(f"{k} {v}" for k, v in r["errors"].items()) or "0"
        check = "ok" if not r["check"] else f"{len(r['check'])} problems"
        out.append(
            f"| {r['fault']} | {r['tables']} | {r['hands']} | {r['lost']} | {r['early']} | {r['forfeits']} | "
            f"{r['stuck']} | {r['open_holds']} | {r['tracebacks']} | {check} | {errors} | {r['stale']} |"
        )
    return "\n".join(out)


def bad(row: dict[str, Any]) -> bool:
    """Whether a row shows any loss."""
    keys = ("lost", "early", "forfeits", "stuck", "open_holds", "tracebacks")
    return any(row[k] for k in keys) or bool(row["check"]) or bool(row["errors"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--short", action="store_true", help="small cases, quickly")
    parser.add_argument("--only", default="", help=f"comma-separated faults of {', '.join(FAULTS)}")
    parser.add_argument("--json", action="store_true", help="one JSON object per case, then nothing else")
    args = parser.parse_args(argv)
    faults = [f for f in args.only.split(",") if f] or list(FAULTS)
    unknown = set(faults) - set(FAULTS)
    if unknown:
        parser.error(f"unknown faults: {', '.join(sorted(unknown))}")
    if not (shutil.which("redis-server") and shutil.which("redis-cli")):
        parser.error("needs redis-server and redis-cli (a private Redis it may restart)")
    size = SHORT if args.short else LONG
    rows = []
    with tempfile.TemporaryDirectory(prefix="erma-faults-") as tmp:
        folder = Path(tmp)
        if os.geteuid() == 0:
            os.chmod(folder, 0o755)
        pg: Postgres | None = None
        try:
            if "pg_restart" in faults:
                pg = Postgres(folder)
                pg.init()
            for fault in faults:
                row = run_case(fault, size, folder, pg)
                rows.append(row)
                if args.json:
                    print(json.dumps(row), flush=True)
                else:
                    print(f"{fault}: {row['done']}", file=sys.stderr, flush=True)
        finally:
            if pg is not None:
                pg.stop()
    if not args.json:
        print(table(rows))
    return 1 if any(bad(r) for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
