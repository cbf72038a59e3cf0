"""Friend tables (好友房) across processes: two ``erma serve`` on one PostgreSQL and one Redis. The host's
socket is on process A, the friend opens the link on process B: the friend is seated at the right table, the
match is played to its end, both rematch and chat across the processes, and the ledger checks green; the
process running a friend match is killed and the other finishes it."""

from __future__ import annotations

import asyncio

import httpx

from ..server.conftest import Client, run_async
from ..server.test_friends import create, play_match
from .conftest import Cluster
from .test_cluster import owner_of, play


def test_a_friend_joining_through_the_other_process(cluster: Cluster) -> None:
    a = cluster.start_node()
    b = cluster.start_node()

    async def go() -> None:
        host, friend = Client(a), Client(b)
        await host.connect()
        await friend.connect()
        invite = await create(host, stakes="beans", room="cuopai-novice")
        assert invite["type"] == "friend", invite
        # the lookup on B finds the table A made
        found = httpx.get(f"{b.url}/api/friend/{invite['code']}").json()
        assert found["state"] == "open" and found["number"] == invite["number"]
        await friend.send({"type": "friend_join", "code": invite["code"]})
        seen_by_host = await host.expect("friend")  # told on A that B seated the friend
        assert seen_by_host["players"][1] is not None and seen_by_host["expires_at"] is None
        mh, mf = await host.expect("match"), await friend.expect("match")
        assert mh["match"] == mf["match"] and (mh["seat"], mf["seat"]) == (0, 1)
        # a third person, on A, finds it full
        third = Client(a)
        await third.connect()
        await third.send({"type": "friend_join", "number": invite["number"]})
        assert (await third.expect("error"))["code"] == "friend_full"
        # chat from B reaches A
        await friend.send({"type": "chat", "phrase": "well_played"})
        assert (await host.expect("chat")) == {"type": "chat", "seat": 1, "phrase": "well_played"}
        (starts, end), (_, end_f) = await asyncio.gather(
            play_match(host, mh["match"]), play_match(friend, mf["match"])
        )
        assert [s["hand_no"] for s in starts] == list(range(1, end["hands"] + 1))
        assert end["friend"] is True and end_f["lines"] == end["lines"]
        assert end["beans"][0] == -end["beans"][1] == -end_f["beans"][1]
        # rematch: asked on A and on B, a new match at the same table
        await host.send({"type": "rematch"})
        assert (await friend.expect("rematch"))["want"] == [True, False]
        await friend.send({"type": "rematch"})
        again_h, again_f = await host.expect("match"), await friend.expect("match")
        assert again_h["match"] == again_f["match"] != mh["match"]
        for c in (host, friend):
            await c.send({"type": "next", "match": again_h["match"]})
        assert (await host.expect("hand_start", timeout=20))["hand_no"] == 1
        await host.send({"type": "leave", "match": again_h["match"]})
        await friend.expect("match_end", timeout=20)
        for c in (host, friend, third):
            await c.close()

    try:
        run_async(go())
    except BaseException:
        print(cluster.logs())
        raise
    assert cluster.ledger_check() == []


def test_a_friend_match_survives_the_loss_of_its_process(cluster: Cluster) -> None:
    """The process that seated the friend (and so runs the match) is killed in mid-hand: the other takes
    the match over from its log (the friend table's room read back from its id), both play on to the end,
    the ledger checks green, and the table still rematches."""
    a, b = cluster.start_node(), cluster.start_node()

    async def go() -> None:
        host, friend = Client(a), Client(b)
        await host.connect()
        await friend.connect()
        invite = await create(host, stakes="beans", room="cuopai-novice")
        await friend.send({"type": "friend_join", "code": invite["code"]})
        mh, mf = await host.expect("match"), await friend.expect("match")
        owner = owner_of(cluster)
        nodes = [a, b]
        host.acted = friend.acted = 0  # type: ignore[attr-defined]
        t1 = asyncio.create_task(play(host, mh["match"], 0, hands=1, think=0.03, fallback=nodes))
        t2 = asyncio.create_task(play(friend, mf["match"], 1, hands=1, think=0.03, fallback=nodes))
        while host.acted + friend.acted < 6:  # type: ignore[attr-defined]
            await asyncio.sleep(0.01)
        assert not any(m["type"] == "hand_end" for m in host.seen), "the kill should come in mid-hand"
        await asyncio.to_thread(cluster.kill, owner)
        ends = await asyncio.wait_for(asyncio.gather(t1, t2), 40)
        assert len(ends[0]) == len(ends[1]) >= 1
        assert ends[0][0]["record_id"] == ends[1][0]["record_id"]
        for c in (host, friend):
            await c.drain()
        # the table is still the friends': both ask, a new match starts on the process left
        await host.send({"type": "rematch"})
        await friend.send({"type": "rematch"})
        again = [await c.expect("match", timeout=15) for c in (host, friend)]
        assert again[0]["match"] == again[1]["match"] != mh["match"]
        await host.send({"type": "leave", "match": again[0]["match"]})
        for c in (host, friend):
            await c.close()

    try:
        run_async(go())
    except BaseException:
        print(cluster.logs())
        raise
    survivor = a if cluster.nodes[1].proc.poll() is not None else b
    assert survivor.metrics()["erma_takeovers_total"] >= 1
    assert cluster.ledger_check() == []
