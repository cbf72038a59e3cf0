"""A frozen owner hands its players over: two ``erma serve`` processes on PostgreSQL + Redis; the process
owning a person's match is stopped (SIGSTOP) for three leases, so the other takes the match over, then
resumed (SIGCONT). The woken process finds itself fenced and closes the person's socket with code 4409
(``moved``); the client reconnects at once, plays on at the new owner, and is charged no forfeit for the hand
the freeze interrupted."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any

import asyncpg
import websockets

from ..server.conftest import Client, choose, run_async
from .conftest import Cluster, Node
from .test_cluster import _brief

REFUSALS = ("illegal_action", "not_your_decision", "not_shown")
"""What an action sent to the frozen owner may get when it is sent again later (auto-play may have taken
that decision meanwhile)."""


async def play_through(c: Client, match: str, seat: int, nodes: list[Node], hands: int) -> dict[str, Any]:
    """Play ``hands`` hands (then leave) to the match's end, reconnecting to the other node whenever the
    socket closes; returns what happened: closes (their codes), refusals, errors, hand_ends."""
    seen: dict[str, Any] = {"closes": [], "refusals": [], "errors": [], "ends": [], "match_end": None}
    last: Any = None
    pending: dict[str, Any] | None = None
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        try:  # the socket may close under a receive or a send alike: reconnect either way
            try:
                msg = await c.recv(2)
            except TimeoutError:
                continue
            kind = msg["type"]
            if kind == "error":
                seen["refusals" if msg["code"] in REFUSALS else "errors"].append(msg)
            elif kind in ("view", "snapshot"):
                view = msg["view"]
                decision = (view.get("hand_no"), view["decision"])
                if view["legal"] and view["actor"] == seat and decision != last:
                    last = decision
                    await asyncio.sleep(0.05)
                    await c.act(match, choose(view))
                    c.acted += 1  # type: ignore[attr-defined]
            elif kind == "hand_end":
                seen["ends"].append(msg)
                pending = {"type": "leave" if len(seen["ends"]) >= hands else "next", "match": match}
                await c.send(pending)
                pending = None
            elif kind == "match_end":
                seen["match_end"] = msg
                return seen
        except websockets.ConnectionClosed as exc:
            seen["closes"].append(exc.rcvd.code if exc.rcvd else -1)
            c.running = next(n for n in nodes if n is not c.running)  # type: ignore[assignment]
            await c.connect(resume=dict(c.versions))
            if pending is not None:  # a confirmation the close cut off: the new owner still waits for it
                await c.send(pending)
                pending = None
    raise AssertionError(f"the match did not end: {[_brief(x) for x in c.seen[-15:]]}")


async def _forfeits(db_url: str) -> int:
    conn = await asyncpg.connect(db_url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM ledger_transactions WHERE kind = 'forfeit'"))
    finally:
        await conn.close()


def test_a_frozen_owner_hands_its_player_over(cluster: Cluster) -> None:
    a, b = cluster.start_node(), cluster.start_node()
    lease_s = 1.0  # the Cluster's --lease-ms

    async def go() -> dict[str, Any]:
        c = Client(a)  # type: ignore[arg-type]
        await c.connect()
        await c.send({"type": "queue", "room": "cuopai-novice", "opponent": "bot"})
        m = await c.expect("match")
        assert a.metrics()["erma_matches"] == 1, "the match is owned where it was asked for"
        await c.send({"type": "next", "match": m["match"], "entropy": "ab" * 16})
        c.acted = 0  # type: ignore[attr-defined]
        task = asyncio.create_task(play_through(c, m["match"], m["seat"], [a, b], hands=2))
        while c.acted < 3:  # type: ignore[attr-defined]
            await asyncio.sleep(0.01)
        assert not any(x["type"] == "hand_end" for x in c.seen), "the freeze should come in mid-hand"
        os.kill(a.proc.pid, signal.SIGSTOP)
        try:
            await asyncio.sleep(3 * lease_s)
        finally:
            os.kill(a.proc.pid, signal.SIGCONT)
        seen = await task
        await c.close()
        return seen

    seen = run_async(go())
    assert b.metrics()["erma_takeovers_total"] >= 1
    assert a.metrics()["erma_moved_sockets_total"] >= 1
    assert 4409 in seen["closes"], "the woken owner closed the socket with code 4409 (moved)"
    assert seen["errors"] == [], "never no_such_match (nor any other error) for the match the player is in"
    assert len(seen["ends"]) == 2, "the match went on after the hand the freeze interrupted"
    assert run_async(_forfeits(cluster.db_url)) == 0, "no forfeit charged for a hand the freeze interrupted"
    assert cluster.ledger_check() == [], cluster.logs()
