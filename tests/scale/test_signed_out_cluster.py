"""Sockets end with their session on every process: two ``erma serve`` on one PostgreSQL and one Redis; a
log-out everywhere or a password change handled by process A closes the socket signed in on process B with
4401 "signed out" within B's session check (erma.server.sessions); another account's socket on B stays."""

from __future__ import annotations

from typing import Any

import httpx

from erma.server.sessions import SIGNED_OUT

from ..server.conftest import Client, run_async
from ..server.test_signed_out import closed_with
from .conftest import Cluster

CHECK_S = 1.0
"""The nodes' ``session_check_s``."""
WITHIN_S = CHECK_S + 3.0


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def seated(node: Any, token: str) -> Client:
    c = Client(node, token)
    await c.connect()
    await c.send({"type": "queue", "room": "cuopai-novice", "opponent": "bot"})
    await c.expect("match")
    return c


def test_revoked_on_one_process_closes_the_socket_on_the_other(cluster: Cluster) -> None:
    a = cluster.start_node(session_check_s=CHECK_S)
    b = cluster.start_node(session_check_s=CHECK_S)

    async def go() -> None:
        async with httpx.AsyncClient() as http:
            # log out everywhere, asked of A; the socket is on B (at a table B owns)
            token = (await http.post(a.url + "/api/guest")).json()["token"]
            bystander = await seated(b, (await http.post(b.url + "/api/guest")).json()["token"])
            player = await seated(b, token)
            assert (await http.post(a.url + "/api/logout_all", headers=auth(token))).json()["revoked"] == 1
            code, took = await closed_with(player, WITHIN_S + 2)
            assert code == SIGNED_OUT and took < WITHIN_S, (code, took)

            # a password change asked of A; the socket is on B
            body = {"name": "Mover", "password": "old secret"}
            token = (await http.post(a.url + "/api/register", json=body)).json()["token"]
            player = await seated(b, token)
            change = {"password": "old secret", "new_password": "new secret"}
            r = await http.post(a.url + "/api/password", json=change, headers=auth(token))
            assert r.status_code == 200, r.text
            code, took = await closed_with(player, WITHIN_S + 2)
            assert code == SIGNED_OUT and took < WITHIN_S, (code, took)

            await bystander.send({"type": "ping", "t": 7})
            assert (await bystander.expect("pong"))["t"] == 7  # its session is live: still open
            await bystander.close()

    run_async(go())
    assert b.metrics()["erma_signed_out_total"] == 2
    assert cluster.ledger_check() == []


def test_the_announcement_over_redis_closes_the_socket_on_the_other_at_once(cluster: Cluster) -> None:
    """With the periodic check out of the way (every 60 s), process A's announcement on ``P:all`` alone makes
    process B check its sockets: the socket on B closes within a second."""
    a = cluster.start_node(session_check_s=60.0)
    b = cluster.start_node(session_check_s=60.0)

    async def go() -> float:
        async with httpx.AsyncClient() as http:
            token = (await http.post(a.url + "/api/guest")).json()["token"]
            player = await seated(b, token)
            assert (await http.post(a.url + "/api/logout_all", headers=auth(token))).json()["revoked"] == 1
            code, took = await closed_with(player, 5)
            assert code == SIGNED_OUT, (code, took)
            return took

    assert run_async(go()) < 1.0
