"""Two ``erma serve`` processes on one PostgreSQL and one Redis: a match played across them, its owner killed
in mid-hand and the match finished on the other, Redis restarted in mid-match, a graceful hand-over; the
ledger's invariants after each."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest
import websockets

from erma.game.record import verify
from erma.lab.loadtest import run_load

from ..server.conftest import Client, choose, run_async
from ..server.test_protocol import assert_hides
from .conftest import Cluster, Node


async def play(
    client: Client,
    match: str,
    seat: int,
    *,
    hands: int = 1,
    think: float = 0.0,
    fallback: list[Node] | None = None,
    timeout: float = 30,
) -> list[dict[str, Any]]:
    """Answer every decision of this seat; after each hand_end confirm the next hand, and after ``hands``
    hands leave; until match_end. If the socket goes away, reconnect to a live node of ``fallback`` with the
    versions seen (``hello.resume``). Returns the hand_end messages."""
    ends: list[dict[str, Any]] = []
    st: dict[str, Any] = {"last": None, "pending": None, "revealed": []}
    client.acted = 0  # type: ignore[attr-defined]
    deadline = time.monotonic() + timeout
    while True:
        try:
            try:
                msg = await client.recv(1.5)
            except TimeoutError:
                # quiet: an action not acknowledged may have been lost on the way (Redis restarting, an
                # owner changing); a retry with the same seq is idempotent
                assert time.monotonic() < deadline, "no message for too long"
                if st["pending"] is not None:
                    await client.act(match, st["pending"][1], seq=st["pending"][0])
                    client.retries = getattr(client, "retries", 0) + 1  # type: ignore[attr-defined]
                continue
            deadline = time.monotonic() + timeout
            done = await _answer(client, msg, match, seat, ends, hands, think, st)
        except websockets.ConnectionClosed:
            assert fallback, "the socket closed"
            node = next(n for n in fallback if n.proc.poll() is None and n.ws_url != client.running.ws_url)
            client.running = node  # type: ignore[assignment]
            client.reconnects = getattr(client, "reconnects", 0) + 1  # type: ignore[attr-defined]
            await client.connect(resume=dict(client.versions))
            continue
        if done:
            return ends


def _brief(m: dict[str, Any]) -> str:
    view = m.get("view") or {}
    extra = (
        f" d={view.get('decision')} actor={view.get('actor')} legal={view.get('legal', [])[:2]}"
        if view
        else ""
    )
    if m["type"] == "event":
        extra = f" {m['event']['type']}"
    return f"{m['type']} v={m.get('v')} seq={m.get('seq')}{extra}"


async def _answer(
    client: Client,
    msg: dict[str, Any],
    match: str,
    seat: int,
    ends: list[dict[str, Any]],
    hands: int,
    think: float,
    st: dict[str, Any],
) -> bool:
    """One message of :func:`play`; True at the match's end. A client acts at most once per decision; an
    action not yet acknowledged when a snapshot comes (a resync: it may have been lost on the way) is sent
    again with the same ``seq`` (idempotent)."""
    if msg["type"] == "error" and msg["code"] == "no_such_match" and "seq" not in msg and ends:
        return False  # a leave after the hand's end that crossed the opponent's: the match was already over
    assert msg["type"] != "error", (msg, [_brief(m) for m in client.seen[-40:]])
    assert_hides(msg, seat, st["revealed"])
    if msg["type"] == "ack" and st["pending"] and msg["seq"] == st["pending"][0]:
        st["pending"] = None
    if msg["type"] in ("view", "snapshot"):
        view = msg["view"]
        decision = (view.get("hand_no"), view["decision"])
        pending = st["pending"]
        if msg["type"] == "snapshot" and pending is not None:
            if pending[2] == decision:
                await client.act(match, pending[1], seq=pending[0])
                return False
            st["pending"] = None
        if view["legal"] and view["actor"] == seat and decision != st["last"]:
            st["last"] = decision
            if think:
                await asyncio.sleep(think)
            action = choose(view)
            st["pending"] = (client.seq + 1, action, decision)  # before sending: the socket may go now
            await client.act(match, action)
            client.acted += 1  # type: ignore[attr-defined]
    elif msg["type"] == "hand_end":
        ends.append(msg)
        kind = "leave" if len(ends) >= hands else "next"
        await client.send({"type": kind, "match": match})
    return bool(msg["type"] == "match_end")


async def pair_across(a: Node, b: Node) -> tuple[Client, Client, dict[str, Any], dict[str, Any]]:
    """A person on each node queues for a person; returns both clients and their match messages."""
    c1, c2 = Client(a), Client(b)  # type: ignore[arg-type]
    await c1.connect()
    await c2.connect()
    await c1.send({"type": "queue", "room": "cuopai-novice", "opponent": "any"})
    await c1.expect("queued")
    await c2.send({"type": "queue", "room": "cuopai-novice", "opponent": "any"})
    m1, m2 = await asyncio.gather(c1.expect("match"), c2.expect("match"))
    assert m1["match"] == m2["match"] and {m1["seat"], m2["seat"]} == {0, 1}
    assert all(not p["bot"] for p in m1["players"])
    return c1, c2, m1, m2


def owner_of(cluster: Cluster) -> Node:
    """The node owning the one live match."""
    for _ in range(100):
        for n in cluster.nodes:
            if n.proc.poll() is None and n.metrics().get("erma_matches", 0) >= 1:
                return n
        time.sleep(0.05)
    raise AssertionError("no node owns the match")


def test_a_match_played_across_two_processes(cluster: Cluster) -> None:
    a, b = cluster.start_node(), cluster.start_node()

    async def go() -> list[list[dict[str, Any]]]:
        c1, c2, m1, m2 = await pair_across(a, b)
        ends = await asyncio.gather(
            play(c1, m1["match"], m1["seat"], hands=2), play(c2, m2["match"], m2["seat"], hands=2)
        )
        await c1.close()
        await c2.close()
        return list(ends)

    ends = run_async(go())
    assert len(ends[0]) >= 1 and len(ends[1]) == len(ends[0])
    for e1, e2 in zip(ends[0], ends[1], strict=True):
        assert e1["record_id"] == e2["record_id"] and e1["result"] == e2["result"]
    routed = sum(n.metrics().get("erma_routed_total", 0) for n in (a, b))
    assert routed > 0, "the client on the other process plays through Redis"
    assert cluster.ledger_check() == []


def test_the_owner_killed_in_mid_hand_and_the_match_finished_on_the_other(cluster: Cluster) -> None:
    a, b = cluster.start_node(), cluster.start_node()

    async def go() -> tuple[list[list[dict[str, Any]]], Node, Client]:
        c1, c2, m1, m2 = await pair_across(a, b)
        owner = owner_of(cluster)
        nodes = [a, b]
        c1.acted = c2.acted = 0  # type: ignore[attr-defined]
        t1 = asyncio.create_task(play(c1, m1["match"], m1["seat"], hands=1, think=0.03, fallback=nodes))
        t2 = asyncio.create_task(play(c2, m2["match"], m2["seat"], hands=1, think=0.03, fallback=nodes))
        while c1.acted + c2.acted < 6:  # type: ignore[attr-defined]
            await asyncio.sleep(0.01)
        assert not any(m["type"] == "hand_end" for m in c1.seen), "the kill should come in mid-hand"
        await asyncio.to_thread(cluster.kill, owner)
        ends = await asyncio.gather(t1, t2)
        await c1.close()
        await c2.close()
        return list(ends), owner, c1

    (ends1, ends2), owner, c1 = run_async(go())
    survivor = a if owner is b else b
    assert survivor.metrics()["erma_takeovers_total"] >= 1
    assert len(ends1) == len(ends2) >= 1
    for e1, e2 in zip(ends1, ends2, strict=True):
        assert e1["record_id"] == e2["record_id"] and e1["result"] == e2["result"]
    # the hand that spanned the kill was stored once and replays exactly from its seed and actions
    record = httpx.get(
        survivor.url + f"/api/games/{ends1[0]['record_id']}",
        headers={"Authorization": f"Bearer {c1.token}"},
    ).json()
    assert verify(record) == []
    assert cluster.ledger_check() == [], cluster.logs()


def _interrupted_match(cluster: Cluster, interrupt: Any) -> tuple[list[list[dict[str, Any]]], Client]:
    """Two people on two nodes; ``interrupt(owner)`` runs after a few actions of the first hand (in a thread);
    both play on (reconnecting if need be) to the end of the match."""
    a, b = cluster.nodes

    async def go() -> tuple[list[list[dict[str, Any]]], Client]:
        c1, c2, m1, m2 = await pair_across(a, b)
        owner = owner_of(cluster)
        c1.acted = c2.acted = 0  # type: ignore[attr-defined]
        nodes = [a, b]
        t1 = asyncio.create_task(play(c1, m1["match"], m1["seat"], think=0.03, fallback=nodes))
        t2 = asyncio.create_task(play(c2, m2["match"], m2["seat"], think=0.03, fallback=nodes))
        while c1.acted + c2.acted < 6:  # type: ignore[attr-defined]
            await asyncio.sleep(0.01)
        assert not any(m["type"] == "hand_end" for m in c1.seen), "the interruption should come in mid-hand"
        await asyncio.to_thread(interrupt, owner)
        try:
            ends = await asyncio.wait_for(asyncio.gather(t1, t2), 30)
        except TimeoutError:
            raise AssertionError(
                f"the match did not end: {[_brief(m) for m in c1.seen[-12:]]} "
                f"{[_brief(m) for m in c2.seen[-12:]]}"
            ) from None
        await c1.close()
        await c2.close()
        return list(ends), c1

    return run_async(go())  # type: ignore[no-any-return]


def test_redis_restarted_in_mid_match_and_play_resumes(cluster: Cluster) -> None:
    if cluster.redis is None:
        pytest.skip("needs redis-server to run a private Redis it may restart")
    redis = cluster.redis
    cluster.start_node()
    cluster.start_node()

    def restart(owner: Node) -> None:
        redis.shutdown()  # redis-cli shutdown nosave: every key is gone
        time.sleep(0.5)
        redis.start()

    (ends1, ends2), _ = _interrupted_match(cluster, restart)
    assert len(ends1) == len(ends2) == 1 and ends1[0]["record_id"] == ends2[0]["record_id"]
    metrics = [n.metrics() for n in cluster.nodes]
    assert sum(m.get("erma_reseeds_total", 0) for m in metrics) >= 1  # the owner stored its match again
    assert sum(m.get("erma_redis_reconnects_total", 0) for m in metrics) >= 2
    assert cluster.ledger_check() == [], cluster.logs()


def test_graceful_shutdown_hands_the_match_over(cluster: Cluster) -> None:
    cluster.start_node()
    cluster.start_node()
    stopped: list[int] = []

    def stop(owner: Node) -> None:
        cluster.terminate(owner)  # SIGTERM
        stopped.append(owner.proc.returncode)

    (ends1, ends2), _ = _interrupted_match(cluster, stop)
    assert stopped in ([0], [-15])  # uvicorn raises the signal again once shut down
    assert '"event": "handover"' in "".join(n.log.read_text() for n in cluster.nodes)
    assert len(ends1) == len(ends2) == 1 and ends1[0]["record_id"] == ends2[0]["record_id"]
    survivor = next(n for n in cluster.nodes if n.proc.poll() is None)
    assert survivor.metrics()["erma_takeovers_total"] >= 1
    assert cluster.ledger_check() == [], cluster.logs()


def test_loadtest_spreads_tables_and_survives_a_killed_process(cluster: Cluster) -> None:
    a, b = cluster.start_node(), cluster.start_node()

    async def go() -> dict[str, Any]:
        load = asyncio.create_task(
            run_load([a.ws_url, b.ws_url], tables=6, seconds=3, room="cuopai-novice", think=0.02)
        )
        while (await asyncio.to_thread(b.metrics)).get("erma_actions_total", 0) < 20:
            await asyncio.sleep(0.05)  # b's tables are under way
        await asyncio.to_thread(cluster.kill, b)
        return await load

    summary = run_async(go())
    assert summary["tables_started"] == 6 and summary["matches_lost"] == 0, json.dumps(summary["lost"])
    assert summary["reconnects"] >= 1  # the tables still playing on b moved to a
    assert a.metrics()["erma_takeovers_total"] >= 1
    assert cluster.ledger_check() == [], cluster.logs()
