"""Unbreakable parsing (docs/protocol.md, "Validation"): any message up to 8 KiB — any JSON value, any
nesting, any number, broken encodings — gets an ``error`` and the socket stays open; nothing the server
sends is invalid JSON; REST path parameters are validated; tokens never travel in URLs; floods are cut off."""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from erma.server import protocol as P
from erma.server.app import RedactTokens

from .conftest import Running, free_port, start_server, stop_server


def strict_json(raw: str | bytes) -> Any:
    """Parse what the server sent, refusing NaN and Infinity (not JSON)."""

    def bad(text: str) -> Any:
        raise AssertionError(f"the server sent {text}")

    return json.loads(raw, parse_constant=bad)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**30, max_value=10**4000)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=40),
    lambda kids: st.lists(kids, max_size=6) | st.dictionaries(st.text(max_size=10), kids, max_size=6),
    max_leaves=40,
)
typed = st.builds(
    lambda kind, extra: {"type": kind, **extra},
    st.sampled_from([*P.KNOWN_TYPES, "nope", ""]),
    st.dictionaries(
        st.sampled_from(["match", "seq", "action", "t", "token", "resume", "room", "opponent", "on"]),
        json_values,
        max_size=4,
    ),
)
deep = st.integers(min_value=1, max_value=4000).flatmap(
    lambda n: st.sampled_from(["[" * n + "]" * n, '{"a":' * min(n, 1300) + "1" + "}" * min(n, 1300)])
)
raw_bytes = st.binary(max_size=300)
huge_number = st.integers(min_value=1, max_value=8000).map(lambda n: '{"type":"ping","t":' + "9" * n + "}")
messages = (
    st.one_of(json_values, typed).map(lambda v: json.dumps(v, allow_nan=True))
    | deep
    | raw_bytes
    | huge_number
    | st.sampled_from(['{"type":"ping","t":NaN}', '{"type":"ping","t":-Infinity}', '{"t":1e999}'])
    | st.text(max_size=200)
)


@pytest.fixture
def unlimited(tmp_path: Path) -> Iterator[Running]:
    """A server without message rate limits (the fuzzer sends as fast as the server answers)."""
    srv, thread, running = start_server(tmp_path, msg_rate=0.0, addr_msg_rate=0.0)
    yield running
    stop_server(srv, thread, running)


@pytest.mark.parametrize("authenticated", [False, True])
def test_no_message_under_8_kib_closes_the_socket(unlimited: Running, authenticated: bool) -> None:
    server = unlimited
    token = httpx.post(server.url + "/api/guest").json()["token"]
    with connect(server.ws_url, max_size=2**22) as ws:
        if authenticated:
            ws.send(json.dumps({"type": "hello", "token": token}))
            assert strict_json(ws.recv(10))["type"] == "welcome"
        marks = iter(range(7_340_000_001, 10**10))  # (never a t that a generated ping might carry)

        @settings(
            max_examples=100,
            deadline=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        )
        @given(messages)
        def one(message: str | bytes) -> None:
            if len(message) > P.MAX_MESSAGE_BYTES:
                message = message[: P.MAX_MESSAGE_BYTES]
            try:
                ws.send(message)
                mark = next(marks)
                ws.send(json.dumps({"type": "ping", "t": mark}))
                replies = []
                while True:
                    reply = strict_json(ws.recv(10))
                    if reply == {"type": "pong", "t": mark}:
                        break
                    replies.append(reply)
            except ConnectionClosed as exc:
                raise AssertionError(f"the socket closed after {message[:200]!r}") from exc
            # one answer: an error naming what was wrong, or (a valid message) its reply
            assert len(replies) == 1, (message[:200], replies)
            reply = replies[0]
            if reply["type"] == "error":
                assert reply["code"] and reply["message"]
            else:
                assert reply["type"] in ("pong", "rooms", "welcome", "cancelled"), reply
                if reply["type"] == "pong":
                    assert reply["t"] is None or math.isfinite(reply["t"])

        one()


AUDIT = [
    "[" * 4000 + "]" * 4000,
    '{"a":' * 1300 + "1" + "}" * 1300,
    '{"type":"ping","t":' + "9" * 5000 + "}",
    '{"type":"ping","t":NaN}',
    '{"type":"ping","t":Infinity}',
    '{"type":"action","match":"x","seq":' + "1" * 30 + ',"action":"pass"}',
    '{"type":"\\ud800"}',
    b"\xff\xfe\x00",
]
"""The messages of the audit that killed sockets, and their kin."""


def test_the_audits_messages_get_an_error(server: Running) -> None:
    with connect(server.ws_url) as ws:
        for i, raw in enumerate(AUDIT):
            ws.send(raw)
            reply = strict_json(ws.recv(10))
            assert reply["type"] == "error" and reply["code"] == "bad_json", (raw[:40], reply)
            ws.send(json.dumps({"type": "ping", "t": i}))
            assert strict_json(ws.recv(10)) == {"type": "pong", "t": i}


def test_rest_path_parameters_are_validated(server: Running) -> None:
    token = httpx.post(server.url + "/api/guest").json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=server.url, headers=headers) as client:  # one keep-alive connection
        for game in ["9223372036854775808", "9" * 40, "0"]:  # numbers no game can have
            for path in (f"/api/games/{game}", f"/api/games/{game}/replay"):
                r = client.get(path)
                assert r.status_code == 404 and r.json()["error"] == "not_found", (path, r.text)
        for game in ["-1", "abc", "１２", "1e3"]:  # not numbers
            r = client.get(f"/api/games/{game}")
            assert r.status_code == 400 and r.json()["error"] == "invalid_input", (game, r.text)
        assert client.get("/api/me").status_code == 200  # the connection still serves


def test_tokens_only_in_the_authorization_header(server: Running) -> None:
    token = httpx.post(server.url + "/api/guest").json()["token"]
    r = httpx.get(server.url + "/api/me", params={"token": token})
    assert r.status_code == 400 and r.json()["error"] == "token_in_url"
    with connect(server.ws_url + f"?token={token}") as ws:
        reply = strict_json(ws.recv(10))
        assert reply["code"] == "token_in_url"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


def test_a_flood_gets_an_error_then_the_socket_is_closed(server: Running) -> None:
    with connect(server.ws_url, close_timeout=1) as ws:  # (the server stops reading once it closes)
        for _ in range(400):
            try:
                ws.send('{"type":"ping"}')
            except ConnectionClosed:
                break
        codes = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                reply = strict_json(ws.recv(10))
                if reply["type"] == "error":
                    codes.append(reply["code"])
    assert codes and set(codes) == {"rate_limited"}
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    # another socket of the same address still serves (the address's limit is far higher)
    with connect(server.ws_url) as ws:
        ws.send('{"type":"ping","t":2}')
        assert strict_json(ws.recv(10)) == {"type": "pong", "t": 2}


def test_metrics_need_the_operator_token(server: Running) -> None:
    assert httpx.get(server.url + "/metrics").status_code == 401
    wrong = httpx.get(server.url + "/metrics", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401


def test_an_address_is_limited_across_its_sockets(tmp_path: Path) -> None:
    srv, thread, running = start_server(tmp_path, msg_rate=0.0, addr_msg_rate=1.0)
    try:
        with connect(running.ws_url) as a, connect(running.ws_url) as b:
            for i in range(2):  # the address's bucket holds 2
                a.send(json.dumps({"type": "ping", "t": i}))
                assert strict_json(a.recv(10)) == {"type": "pong", "t": i}
            b.send('{"type":"ping","t":99}')  # another socket of the address: over its limit
            reply = strict_json(b.recv(10))
        assert reply["type"] == "error" and reply["code"] == "rate_limited"
    finally:
        stop_server(srv, thread, running)


def test_metrics_on_a_separate_listener(tmp_path: Path) -> None:
    port = free_port()
    srv, thread, running = start_server(tmp_path, metrics_token=None, metrics_port=port)
    try:
        assert httpx.get(running.url + "/metrics").status_code == 404  # not on the game listener
        r = httpx.get(f"http://127.0.0.1:{port}/metrics")
        assert r.status_code == 200 and "erma_sockets" in r.text
        assert httpx.get(f"http://127.0.0.1:{port}/api/me").status_code == 404
    finally:
        stop_server(srv, thread, running)


def test_a_token_in_a_logged_url_is_blanked() -> None:
    args = ("1.2.3.4", "GET", "/api/me?token=s3cr3t&x=1", "1.1", 400)
    record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d', args, None)
    RedactTokens().filter(record)
    assert "s3cr3t" not in record.getMessage() and "token=[redacted]&x=1" in record.getMessage()


def test_rest_bodies_have_the_same_limits(server: Running) -> None:
    for body in ["[" * 2000 + "]" * 2000, '{"name":' + "9" * 3000 + "}", '{"name":NaN}', "\xff"]:
        r = httpx.post(server.url + "/api/login", content=body.encode("utf-8", "surrogateescape"))
        assert r.status_code == 400 and r.json()["error"] == "invalid_input", (body[:20], r.text)
