"""Several real ``erma serve`` processes on one PostgreSQL database and one Redis.

Redis: a private ``redis-server`` (the flags of .ci/run, on a free port, in a temporary folder) so that a test
may shut it down and start it again without touching the machine's shared Redis; without the binary, the
machine's Redis at ``ERMA_TEST_REDIS`` (default ``redis://127.0.0.1:6379/0``) with a fresh key prefix.
PostgreSQL: a fresh database on ``ERMA_TEST_PG`` per test, dropped at the end. Without either service the
tests are skipped, except under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from sqlalchemy.engine import make_url

from erma.store import Store

from ..server.conftest import METRICS_TOKEN, free_port

OPERATOR = {"Authorization": f"Bearer {METRICS_TOKEN}"}

PG_ADMIN = os.environ.get("ERMA_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
SHARED_REDIS = os.environ.get("ERMA_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _unavailable(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(why)
    pytest.skip(why)


async def _admin(sql: str) -> None:
    conn = await asyncpg.connect(PG_ADMIN, timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


class RedisServer:
    """A private redis-server that a test can stop and start again on the same port."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.dir = tmp
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        subprocess.run(
            [
                "redis-server",
                "--daemonize", "yes",
                "--bind", "127.0.0.1",
                "--port", str(self.port),
                "--save", "",
                "--appendonly", "no",
                "--dir", str(self.dir),
                "--logfile", str(self.dir / "redis.log"),
                "--pidfile", str(self.dir / "redis.pid"),
            ],
            check=True,
        )  # fmt: skip
        for _ in range(100):
            if self.ping():
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def ping(self) -> bool:
        r = subprocess.run(
            ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True, check=False
        )
        return r.stdout.strip() == "PONG"

    def shutdown(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.port), "shutdown", "nosave"], capture_output=True)
        for _ in range(100):
            if not self.ping():
                return
            time.sleep(0.05)


@dataclass
class Node:
    """One ``erma serve`` process."""

    port: int
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def metrics(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for line in httpx.get(self.url + "/metrics", headers=OPERATOR, timeout=5).text.splitlines():
            if line and not line.startswith("#") and "{" not in line:
                name, value = line.split()
                out[name] = float(value)
        return out

    def pid_label(self) -> str:
        for line in httpx.get(self.url + "/metrics", headers=OPERATOR, timeout=5).text.splitlines():
            if line.startswith("erma_process_info"):
                return line.split('pid="')[1].split('"')[0]
        raise AssertionError("no erma_process_info")


@dataclass
class Cluster:
    """Server processes on one database and one Redis."""

    tmp: Path
    db_url: str
    redis_url: str
    prefix: str
    redis: RedisServer | None
    nodes: list[Node] = field(default_factory=list)

    def start_node(
        self, *, module: str = "erma.cli", env: dict[str, str] | None = None, **settings: Any
    ) -> Node:
        """Start ``erma serve`` (``module``: a stand-in for ``erma.cli`` with test hooks, run with ``env``
        added to the environment)."""
        port = free_port()
        log = self.tmp / f"node-{port}.log"
        opts = {
            "time_scale": 0.2,
            "bot_fill_s": 20.0,  # x time_scale: 4 s for two people to meet
            "claim_window_s": 0.05,
            "bot_pause_s": 0.0,
            "timeouts": False,
            "redis_prefix": self.prefix,
            "shutdown_grace_s": 1,
            "msg_rate": 500,  # tests play at five times a person's pace
            "metrics_token": METRICS_TOKEN,
            **settings,
        }
        cmd = [
            sys.executable, "-m", module, "serve", "--port", str(port),
            "--db", self.db_url, "--redis", self.redis_url, "--lease-ms", "1000",
        ]  # fmt: skip
        for k, v in opts.items():
            cmd += ["--setting", f"{k}={v}"]
        proc = subprocess.Popen(
            cmd, stdout=log.open("wb"), stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}
        )
        node = Node(port, proc, log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"erma serve exited ({proc.returncode}): {log.read_text()[-3000:]}")
            try:
                if httpx.get(node.url + "/healthz", timeout=1).status_code == 200:
                    self.nodes.append(node)
                    return node
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        proc.kill()
        raise RuntimeError(f"erma serve did not start: {log.read_text()[-3000:]}")

    def kill(self, node: Node) -> None:
        """SIGKILL: no shutdown, no hand-over."""
        node.proc.send_signal(signal.SIGKILL)
        node.proc.wait(10)

    def terminate(self, node: Node, timeout: float = 20) -> None:
        """SIGTERM: a graceful shutdown that hands the node's matches over."""
        node.proc.send_signal(signal.SIGTERM)
        node.proc.wait(timeout)

    def stop_all(self) -> None:
        for node in self.nodes:
            if node.proc.poll() is None:
                node.proc.kill()
                node.proc.wait(10)

    def ledger_check(self) -> list[str]:
        async def go() -> list[str]:
            store = await Store.open(self.db_url)
            try:
                return await store.check()
            finally:
                await store.close()

        return asyncio.run(go())

    def logs(self) -> str:
        return "\n".join(f"--- {n.log.name}\n{n.log.read_text()[-4000:]}" for n in self.nodes)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    try:
        asyncio.run(_admin("SELECT 1"))
    except (TimeoutError, OSError, asyncpg.PostgresError) as e:
        _unavailable(f"PostgreSQL at {PG_ADMIN} is not reachable: {e}")
    redis: RedisServer | None = None
    if shutil.which("redis-server") and shutil.which("redis-cli"):
        redis = RedisServer(tmp_path)
        redis.start()
        redis_url = redis.url
    else:
        redis_url = SHARED_REDIS
        import redis as redis_lib

        try:
            redis_lib.Redis.from_url(redis_url, socket_connect_timeout=2).ping()
        except redis_lib.RedisError as e:
            _unavailable(f"Redis at {redis_url} is not reachable: {e}")
    name = f"erma_scale_{os.getpid()}_{secrets.token_hex(4)}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    db_url = make_url(PG_ADMIN).set(database=name).render_as_string(hide_password=False)
    c = Cluster(tmp_path, db_url, redis_url, f"t{secrets.token_hex(4)}", redis)
    try:
        yield c
    finally:
        c.stop_all()
        if redis is not None:
            redis.shutdown()
        with contextlib.suppress(Exception):
            asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
