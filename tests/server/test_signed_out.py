"""Sockets end with their session: after log out everywhere, a password change or the session's expiry an
open socket is closed with 4401 "signed out" within a few seconds (erma.server.sessions), even one seated at
a table; the sockets of live sessions stay open."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from erma.server.sessions import SIGNED_OUT

from .conftest import Client, Running, run_async, start_server, stop_server

WITHIN_S = 3.0
"""How soon after its session ended a socket must be closed (docs/protocol.md: within a few seconds)."""


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def closed_with(c: Client, timeout: float) -> tuple[int | None, float]:
    """Read until the server closes the socket: (close code, seconds it took); (None, timeout) if open."""
    start = time.monotonic()
    try:
        while True:
            await c.recv(max(0.01, timeout - (time.monotonic() - start)))
    except websockets.ConnectionClosed as closed:
        return (closed.rcvd.code if closed.rcvd else None), time.monotonic() - start
    except TimeoutError:
        return None, timeout


async def seated(running: Running, token: str | None = None) -> tuple[Client, dict[str, Any]]:
    """A signed-in socket playing a bot (its match notice)."""
    c = Client(running, token)
    await c.connect()
    await c.send({"type": "queue", "room": "cuopai-novice", "opponent": "bot"})
    return c, await c.expect("match")


def test_logout_everywhere_closes_the_open_socket_signed_out(server: Running) -> None:
    async def go() -> None:
        player, _ = await seated(server)
        other = Client(server)  # another account: its socket stays
        await other.connect()
        async with httpx.AsyncClient() as http:
            r = await http.post(server.url + "/api/logout_all", headers=auth(player.token))
        assert r.status_code == 200 and r.json()["revoked"] == 1
        code, took = await closed_with(player, WITHIN_S + 2)
        assert code == SIGNED_OUT == 4401 and took < WITHIN_S
        assert player.ws.close_reason == "signed out"
        await other.send({"type": "ping", "t": 1})
        assert (await other.expect("pong"))["t"] == 1
        again = Client(server, player.token)  # the revoked token cannot sign a new socket in
        again.ws = await websockets.connect(server.ws_url)
        await again.send({"type": "hello", "token": player.token})
        assert (await again.expect("error"))["code"] == "bad_token"
        await again.close()
        await other.close()

    run_async(go())


def test_logout_of_one_session_closes_its_socket(server: Running) -> None:
    async def go() -> None:
        player, _ = await seated(server)
        async with httpx.AsyncClient() as http:
            r = await http.post(server.url + "/api/logout", headers=auth(player.token))
        assert r.status_code == 200
        code, took = await closed_with(player, WITHIN_S + 2)
        assert code == SIGNED_OUT and took < WITHIN_S

    run_async(go())


def test_password_change_closes_the_sockets_of_the_old_sessions(server: Running) -> None:
    async def go() -> None:
        async with httpx.AsyncClient() as http:
            r = await http.post(
                server.url + "/api/register", json={"name": "Keeper", "password": "old secret"}
            )
            first = r.json()["token"]
            r = await http.post(server.url + "/api/login", json={"name": "Keeper", "password": "old secret"})
            second = r.json()["token"]
            player, _ = await seated(server, first)
            wrong = {"password": "not it", "new_password": "new secret"}
            r = await http.post(server.url + "/api/password", json=wrong, headers=auth(second))
            assert r.status_code == 401 and r.json()["error"] == "bad_login"
            assert (await closed_with(player, 0.5))[0] is None  # a refused change ends nothing
            body = {"password": "old secret", "new_password": "new secret"}
            r = await http.post(server.url + "/api/password", json=body, headers=auth(second))
            assert r.status_code == 200, r.text
            code, took = await closed_with(player, WITHIN_S + 2)
            assert code == SIGNED_OUT and took < WITHIN_S
            fresh = r.json()["token"]
            assert (await http.get(server.url + "/api/me", headers=auth(fresh))).status_code == 200
            for old in (first, second):
                assert (await http.get(server.url + "/api/me", headers=auth(old))).status_code == 401
            r = await http.post(server.url + "/api/login", json={"name": "Keeper", "password": "new secret"})
            assert r.status_code == 200
            back = Client(server, fresh)  # the new session plays on
            assert (await back.connect())["type"] == "welcome"
            await back.close()

    run_async(go())


def test_session_expiry_closes_the_open_socket(tmp_path: Path) -> None:
    srv, thread, running = start_server(tmp_path, session_ttl_s=2.0, session_check_s=0.5)
    try:

        async def go() -> None:
            player, _ = await seated(running)
            start = time.monotonic()
            code, _ = await closed_with(player, 10)
            took = time.monotonic() - start
            # SQLite's clock has whole seconds: the session ends 1–2 s after it was made, the check follows
            assert code == SIGNED_OUT and took < 2.0 + 1.0 + WITHIN_S

        run_async(go())
    finally:
        stop_server(srv, thread, running)


@pytest.mark.parametrize(("every", "closes"), [(1.0, True), (60.0, False)])
def test_a_session_revoked_by_another_process_closes_the_socket_at_the_next_check(
    tmp_path: Path, every: float, closes: bool
) -> None:
    """No log-out request reaches this process (another process's store revokes): its periodic check closes
    the socket; with checks only every 60 s it is still open after 4 s (what the check is for)."""
    from erma.store import Store

    srv, thread, running = start_server(tmp_path, session_check_s=every)
    try:

        async def go() -> None:
            player, _ = await seated(running)
            other = await Store.open(None, running.settings.data_dir)
            try:
                account = await other.account_for_session(player.token)
                assert await other.revoke_sessions(account.id) == 1
            finally:
                await other.close()
            code, took = await closed_with(player, 1.0 + WITHIN_S)
            if closes:
                assert code == SIGNED_OUT and took < 1.0 + WITHIN_S
            else:
                assert code is None

        run_async(go())
    finally:
        stop_server(srv, thread, running)
