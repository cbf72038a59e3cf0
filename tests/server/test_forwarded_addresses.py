"""Forged forwarded addresses: a client that writes ``X-Forwarded-For`` itself must not choose the address
its sign-up, login, guest and message limits count. Only a proxy listed in ``trusted_proxies`` is believed
(none by default, loopback included), and then only as far as the trusted hops go (docs/operations.md)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from erma.server.addresses import ForwardedProto, TrustedProxies

from .conftest import free_port, run_async, start_server, stop_server

# -- the walk ------------------------------------------------------------------------------------------------


def test_no_proxy_is_trusted_by_default_not_even_loopback() -> None:
    none = TrustedProxies.parse(())
    assert none.resolve("127.0.0.1", ["203.0.113.9"]) == "127.0.0.1"
    assert none.resolve("::1", ["203.0.113.9"]) == "::1"
    assert none.resolve("198.51.100.4", ["203.0.113.9, 127.0.0.1"]) == "198.51.100.4"


def test_the_walk_goes_from_the_right_and_stops_at_the_first_untrusted_hop() -> None:
    proxies = TrustedProxies.parse("127.0.0.1, 10.0.0.0/8")
    # nginx appends its peer to what the client sent: the forged entries stay to the left of it
    assert proxies.resolve("127.0.0.1", ["6.6.6.6, 198.51.100.4"]) == "198.51.100.4"
    assert proxies.resolve("127.0.0.1", ["6.6.6.6", "198.51.100.4, 10.1.2.3"]) == "198.51.100.4"
    # a chain of trusted hops is followed; when every hop is trusted, the leftmost is the client
    assert proxies.resolve("127.0.0.1", ["10.0.0.1, 10.0.0.2"]) == "10.0.0.1"
    # no header: the proxy itself
    assert proxies.resolve("127.0.0.1", []) == "127.0.0.1"
    # an untrusted peer's header is never read
    assert proxies.resolve("198.51.100.4", ["10.0.0.1"]) == "198.51.100.4"
    # garbage ends the walk at the last hop believed
    assert proxies.resolve("127.0.0.1", ["198.51.100.4, not-an-ip"]) == "127.0.0.1"
    assert proxies.resolve("127.0.0.1", ["not-an-ip, 198.51.100.4"]) == "198.51.100.4"


def test_addresses_are_canonical_so_spellings_do_not_make_new_keys() -> None:
    proxies = TrustedProxies.parse(["::1"])
    assert proxies.resolve("::1", ["2001:db8:0:0::1"]) == "2001:db8::1"
    assert proxies.resolve("::1", ["[2001:db8::1]"]) == "2001:db8::1"
    assert proxies.resolve("::ffff:198.51.100.4", []) == "198.51.100.4"
    assert TrustedProxies.parse("127.0.0.1").resolve("::ffff:127.0.0.1", ["198.51.100.4"]) == "198.51.100.4"


def test_a_bad_entry_is_refused_naming_the_setting() -> None:
    with pytest.raises(ValueError, match=r"trusted_proxies: 'localhost' is not an IP address"):
        TrustedProxies.parse("127.0.0.1,localhost")
    r = subprocess.run(
        [sys.executable, "-m", "erma.cli", "serve", "--setting", "trusted_proxies=10.0.0.0/33"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "trusted_proxies: '10.0.0.0/33' is not an IP address" in r.stderr


# -- erma serve as shipped (its uvicorn settings included) ---------------------------------------------------


def _serve(tmp: Path, *settings: str) -> Iterator[str]:
    port = free_port()
    cmd = [sys.executable, "-m", "erma.cli", "serve", "--port", str(port), "--data", str(tmp)]
    for s in ("guest_per_address=3", "login_per_address=3", *settings):
        cmd += ["--setting", s]
    env = {k: v for k, v in os.environ.items() if k != "FORWARDED_ALLOW_IPS"}
    log = tmp / "serve.log"
    proc = subprocess.Popen(cmd, stdout=log.open("wb"), stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, log.read_text()[-2000:]
            assert time.monotonic() < deadline, "erma serve did not start"
            try:
                if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(20)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    yield from _serve(tmp_path)


@pytest.fixture
def behind_loopback_proxy(tmp_path: Path) -> Iterator[str]:
    yield from _serve(tmp_path, "trusted_proxies=127.0.0.1,::1")


def _guests(url: str, forged: list[str]) -> list[int]:
    return [
        httpx.post(url + "/api/guest", headers={"X-Forwarded-For": f}, timeout=10).status_code for f in forged
    ]


FORGED = [f"203.0.113.{i}" for i in range(1, 7)]


def test_a_forged_forwarded_for_from_loopback_does_not_change_the_limited_address(served: str) -> None:
    codes = _guests(served, FORGED)
    assert codes == [200, 200, 200, 429, 429, 429]  # one address: the peer's, whatever the header says
    logins = [
        httpx.post(
            served + "/api/login",
            json={"name": f"nobody{i}", "password": "wrong password"},  # a name each: no per-name backoff
            headers={"X-Forwarded-For": f},
            timeout=10,
        )
        for i, f in enumerate(FORGED[:4])
    ]
    assert [r.status_code for r in logins] == [401, 401, 401, 429]
    assert logins[-1].json()["limit"] == "login_per_address"


def test_a_trusted_proxy_s_forwarded_for_names_the_client(behind_loopback_proxy: str) -> None:
    url = behind_loopback_proxy
    assert _guests(url, FORGED) == [200] * 6  # six clients behind the proxy, each with its own allowance
    same = _guests(url, ["198.51.100.7"] * 3 + ["6.6.6.6, 198.51.100.7"])
    assert same == [200, 200, 200, 429]  # the client's own forged entry (left of its proxy's) is not read


# -- the websocket's message rate per address ----------------------------------------------------------------


async def _flood(ws_url: str, forged: list[str], each: int) -> bool:
    """Open a socket per forged header, send ``each`` messages on each; whether any was told
    ``rate_limited``."""
    sockets = [await websockets.connect(ws_url, additional_headers={"X-Forwarded-For": f}) for f in forged]
    try:
        for ws in sockets:
            for _ in range(each):
                await ws.send(json.dumps({"type": "nonsense"}))
        limited = False
        for ws in sockets:
            for _ in range(each):
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 2))
                except (TimeoutError, websockets.ConnectionClosed):
                    break
                limited = limited or msg.get("code") == "rate_limited"
        return limited
    finally:
        for ws in sockets:
            await ws.close()


@pytest.mark.parametrize(("trusted", "expected"), [((), True), (("127.0.0.1",), False)])
def test_the_message_rate_per_address_counts_the_believed_address(
    tmp_path: Path, trusted: tuple[str, ...], expected: bool
) -> None:
    # all the sockets of one address: 2 * addr_msg_rate = 16 messages at once; two sockets send 12 each,
    # with different forged headers: one address (24 > 16) unless the proxy (loopback) is trusted
    srv, thread, running = start_server(tmp_path, msg_rate=0, addr_msg_rate=8, trusted_proxies=trusted)
    try:
        assert run_async(_flood(running.ws_url, ["203.0.113.1", "203.0.113.2"], 12)) == expected
    finally:
        stop_server(srv, thread, running)


# -- the scheme behind a TLS proxy ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "peer", "trusted", "proto", "scheme"),
    [
        ("http", "127.0.0.1", (), b"https", "http"),  # by default nobody's header is read
        ("http", "127.0.0.1", ("127.0.0.1",), b"https", "https"),
        ("http", "198.51.100.4", ("127.0.0.1",), b"https", "http"),  # an untrusted peer's header
        ("http", "127.0.0.1", ("127.0.0.1",), b"https, http", "http"),  # the nearest hop's word counts
        ("http", "127.0.0.1", ("127.0.0.1",), b"gopher", "http"),
        ("websocket", "127.0.0.1", ("127.0.0.1",), b"https", "wss"),
        ("websocket", "198.51.100.4", ("127.0.0.1",), b"https", "ws"),
    ],
)
def test_x_forwarded_proto_is_believed_only_from_a_trusted_proxy(
    kind: str, peer: str, trusted: tuple[str, ...], proto: bytes, scheme: str
) -> None:
    seen: dict[str, str] = {}

    async def app(scope: dict[str, object], receive: object, send: object) -> None:
        seen["scheme"] = str(scope["scheme"])

    plain = "ws" if kind == "websocket" else "http"
    headers = [(b"x-forwarded-proto", proto)]
    scope = {"type": kind, "scheme": plain, "client": (peer, 5000), "headers": headers}
    asyncio.run(ForwardedProto(app, trusted)(scope, None, None))
    assert seen["scheme"] == scheme
