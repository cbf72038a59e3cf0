"""The shipped deployment, for real: Debian's nginx, configured from deploy/nginx/erma.conf (only its ports,
certificate paths and upstream ports replaced), terminates TLS in front of two ``erma serve`` processes on
PostgreSQL + Redis. A guest plays a hand over wss through it, and a client that forges ``X-Forwarded-For``
from outside is still limited as the one address it has; deploy/backup.sh and deploy/restore.sh give a copy
whose ledger checks green.

nginx runs as a private instance (``-p TMP``, its own pid file, a free port, a self-signed certificate);
/etc/nginx and the system's nginx service are not touched."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
import websockets

from ..server.conftest import Client, free_port, run_async
from ..server.test_protocol import play_until_hand_end
from .conftest import Cluster, _admin, _unavailable

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx" / "erma.conf"
GUESTS_PER_ADDRESS = 3
"""guest_per_address of each of the two processes (each counts its own)."""


def _nginx() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
    if found is None:
        _unavailable("nginx is not installed (apt-get install -y nginx; .ci/run installs it)")
    assert found is not None
    return found


def site_for_test(text: str, *, https: int, http: int, cert: Path, key: Path, upstreams: list[int]) -> str:
    """The shipped site with only what must differ here replaced; each replacement must hit (the file's
    shape is part of what is tested)."""

    def sub(pattern: str, repl: str, count: int) -> None:
        nonlocal text
        text, n = re.subn(pattern, repl, text, flags=re.M)
        assert n == count, f"deploy/nginx/erma.conf: expected {count} x {pattern!r}, found {n}"

    sub(r"^(\s*)listen \[::\]:(80|443)( ssl)?;\n", "", 2)  # the test listens on loopback only
    sub(r"^(\s*)listen 443 ssl;", rf"\1listen 127.0.0.1:{https} ssl;", 1)
    sub(r"^(\s*)listen 80;", rf"\1listen 127.0.0.1:{http};", 1)
    sub(r"^(\s*)ssl_certificate\s+\S+;", rf"\1ssl_certificate {cert};", 1)
    sub(r"^(\s*)ssl_certificate_key\s+\S+;", rf"\1ssl_certificate_key {key};", 1)
    ports = iter(upstreams)
    text, n = re.subn(r"server 127\.0\.0\.1:800\d", lambda m: f"server 127.0.0.1:{next(ports)}", text)
    assert n == len(upstreams), f"deploy/nginx/erma.conf: {n} upstream servers, expected {len(upstreams)}"
    return text


@dataclass
class Edge:
    """nginx's address as a client sees it (what conftest.Client calls ``running``)."""

    url: str
    ws_url: str
    http_url: str
    tls: ssl.SSLContext


class TlsClient(Client):
    """conftest.Client over wss, trusting the test's self-signed certificate."""

    def __init__(self, edge: Edge, token: str) -> None:
        super().__init__(edge, token)  # type: ignore[arg-type]
        self.tls = edge.tls

    async def connect(self, resume: dict[str, int] | None = None) -> dict[str, Any]:
        self.ws = await websockets.connect(self.running.ws_url, max_size=2**22, ssl=self.tls)
        await self.send({"type": "hello", "token": self.token, "resume": resume or {}})
        return await self.expect("welcome")


def _https(edge: Edge, source: str) -> httpx.Client:
    """A client whose connections come from ``source`` (an address of 127.0.0.0/8 other than nginx's own)."""
    return httpx.Client(
        base_url=edge.url,
        verify=edge.tls,
        transport=httpx.HTTPTransport(verify=edge.tls, local_address=source),
    )


@pytest.fixture
def edge(cluster: Cluster, tmp_path: Path) -> Iterator[Edge]:
    nginx = _nginx()
    nodes = [
        cluster.start_node(trusted_proxies="127.0.0.1", guest_per_address=GUESTS_PER_ADDRESS)
        for _ in range(2)
    ]
    d = tmp_path / "nginx"
    (d / "logs").mkdir(parents=True)
    cert, key = d / "cert.pem", d / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    https, http = free_port(), free_port()
    site = site_for_test(
        SITE.read_text(), https=https, http=http, cert=cert, key=key, upstreams=[n.port for n in nodes]
    )
    (d / "erma.conf").write_text(site)
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers read and write only in this folder
    temp = "".join(
        f"    {k}_temp_path {d}/{k};\n" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (d / "nginx.conf").write_text(
        f"{user}worker_processes 1;\nerror_log {d}/logs/error.log info;\n"
        f"events {{ worker_connections 256; }}\n"
        f"http {{\n    access_log {d}/logs/access.log;\n{temp}    include {d}/erma.conf;\n}}\n"
    )
    args = [nginx, "-p", str(d), "-c", str(d / "nginx.conf"), "-g", f"daemon off; pid {d}/nginx.pid;"]
    check = subprocess.run([*args, "-t"], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=(d / "logs" / "stderr").open("wb"))
    tls = ssl.create_default_context(cafile=str(cert))
    e = Edge(f"https://127.0.0.1:{https}", f"wss://127.0.0.1:{https}/ws", f"http://127.0.0.1:{http}", tls)
    try:
        deadline = time.monotonic() + 15
        while True:
            assert proc.poll() is None, (d / "logs" / "error.log").read_text()[-2000:]
            try:
                if httpx.get(e.url + "/healthz", verify=tls, timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "nginx did not answer"
            time.sleep(0.1)
        yield e
    finally:
        proc.terminate()  # this test's own nginx (its master's pid), never the system's
        proc.wait(10)


def test_a_hand_through_nginx_and_forged_forwarded_for_is_limited_as_one_address(
    cluster: Cluster, edge: Edge
) -> None:
    with httpx.Client(verify=edge.tls) as plain:
        redirect = plain.get(edge.http_url + "/lobby?x=1", headers={"Host": "erma.example.org"})
    assert redirect.status_code == 301
    assert redirect.headers["location"] == "https://erma.example.org/lobby?x=1"
    with _https(edge, "127.0.0.4") as player:
        assert player.get("/metrics").status_code == 404  # the operator reads each process's metrics_port
        page = player.get("/")
        assert page.status_code == 200 and page.headers.get_list("strict-transport-security") == [
            "max-age=31536000"
        ]
        token = player.post("/api/guest").json()["token"]

    async def play() -> dict[str, Any]:
        c = TlsClient(edge, token)
        await c.connect()
        await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot"})
        m = await c.expect("match")
        end = await play_until_hand_end(c, m["match"], m["seat"])
        await c.send({"type": "leave", "match": m["match"]})
        await c.expect("match_end")
        await c.close()
        return end

    end = run_async(play())
    assert end["type"] == "hand_end" and end["result"]["reason"] in ("win", "draw", "escape")

    # One client (127.0.0.2) forging a new X-Forwarded-For for every request: nginx appends the address it
    # saw, the servers walk from the right, so all of them count against 127.0.0.2. Each of the two processes
    # allows GUESTS_PER_ADDRESS (each counts its own): at most twice that get through.
    forged = [f"203.0.113.{i}" for i in range(1, 11)]
    with _https(edge, "127.0.0.2") as attacker:
        codes = [attacker.post("/api/guest", headers={"X-Forwarded-For": f}).status_code for f in forged]
        also = attacker.post("/api/guest", headers={"X-Forwarded-For": "127.0.0.3"}).status_code
    assert set(codes) == {200, 429}, codes
    assert codes.count(200) <= 2 * GUESTS_PER_ADDRESS, codes
    assert codes[-1] == 429 and also == 429, (codes, also)
    # …and the address counted is the client's, not nginx's: another client is not limited.
    with _https(edge, "127.0.0.3") as other:
        assert other.post("/api/guest").status_code == 200
    assert cluster.ledger_check() == []


def test_backup_and_restore_into_a_fresh_database_checks_green(cluster: Cluster, tmp_path: Path) -> None:
    node = cluster.start_node()

    async def play() -> None:
        c = Client(node, httpx.post(node.url + "/api/guest").json()["token"])  # type: ignore[arg-type]
        await c.connect()
        await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot"})
        m = await c.expect("match")
        await play_until_hand_end(c, m["match"], m["seat"])
        await c.send({"type": "leave", "match": m["match"]})
        await c.expect("match_end")
        await c.close()

    run_async(play())
    cluster.terminate(node)
    env = {**os.environ, "ERMA": str(Path(sys.executable).with_name("erma"))}
    backup = subprocess.run(
        [str(ROOT / "deploy" / "backup.sh"), cluster.db_url, str(tmp_path / "dumps")],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert backup.returncode == 0, backup.stderr
    dump = Path(backup.stdout.strip())
    assert dump.is_file() and dump.parent == tmp_path / "dumps"

    copy = cluster.db_url.rsplit("/", 1)[0] + "/" + cluster.db_url.rsplit("/", 1)[1] + "_restored"
    name = copy.rsplit("/", 1)[1]
    try:
        restore = subprocess.run(
            [str(ROOT / "deploy" / "restore.sh"), str(dump), copy],
            capture_output=True, text=True, env=env, timeout=120,
        )  # fmt: skip
        assert restore.returncode == 0, restore.stdout + restore.stderr
        assert "ledger sound" in restore.stdout
        again = subprocess.run(
            [str(ROOT / "deploy" / "restore.sh"), str(dump), copy], capture_output=True, text=True, env=env
        )
        assert again.returncode == 2 and "exists already" in again.stderr  # never over a database

        async def rows(url: str) -> list[tuple[str, int]]:
            conn = await asyncpg.connect(url)
            try:
                tables = await conn.fetch(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
                )
                out = []
                for t in tables:
                    out.append((t[0], await conn.fetchval(f'SELECT count(*) FROM "{t[0]}"')))
                return out
            finally:
                await conn.close()

        original, restored = asyncio.run(rows(cluster.db_url)), asyncio.run(rows(copy))
        assert restored == original and dict(original)["accounts"] >= 2  # the guest and the bot at least
    finally:
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
