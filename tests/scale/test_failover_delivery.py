"""Nothing a seat is owed is lost on failover: the owner of a match is killed in mid-hand (SIGKILL) and the
other process takes the match over; each seat — the one whose socket died with the owner and reconnects to
the new owner, and the one already on the new owner — receives every message of its stream, versions ``v``
without a gap, to the match_end (docs/operations.md, "Failover")."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from ..server.conftest import Client, run_async
from .conftest import Cluster
from .test_cluster import _brief, owner_of, pair_across, play


def gaps(client: Client, match: str) -> list[int]:
    """The versions of the seat's stream that never reached the client (a snapshot's ``v`` is where it stands,
    not a message of the stream)."""
    seen = {m["v"] for m in client.seen if m.get("match") == match and "v" in m and m["type"] != "snapshot"}
    return sorted(set(range(max(seen) + 1)) - seen) if seen else []


def test_no_message_is_lost_when_the_owner_is_killed_in_mid_hand(cluster: Cluster) -> None:
    # a pause after each discard long enough that the owner dies with messages stored but not yet sent
    a = cluster.start_node(claim_window_s=1.5)
    b = cluster.start_node(claim_window_s=1.5)

    async def go() -> tuple[Client, Client, str]:
        c1, c2, m1, m2 = await pair_across(a, b)
        owner = owner_of(cluster)
        nodes = [a, b]
        c1.acted = c2.acted = 0  # type: ignore[attr-defined]
        t1 = asyncio.create_task(play(c1, m1["match"], m1["seat"], hands=2, think=0.02, fallback=nodes))
        t2 = asyncio.create_task(play(c2, m2["match"], m2["seat"], hands=2, think=0.02, fallback=nodes))
        while c1.acted + c2.acted < 6:  # type: ignore[attr-defined]
            await asyncio.sleep(0.01)
        while not any(m["type"] == "event" and m["event"]["type"] == "discard" for m in c1.seen[-1:]):
            await asyncio.sleep(0.005)  # just after a discard: the pause holds what follows it
        assert not any(m["type"] == "hand_end" for m in c1.seen), "the kill should come in mid-hand"
        await asyncio.to_thread(cluster.kill, owner)
        await asyncio.wait_for(asyncio.gather(t1, t2), 60)
        await c1.close()
        await c2.close()
        return c1, c2, m1["match"]

    c1, c2, match = run_async(go())
    survivor = next(n for n in (a, b) if n.proc.poll() is None)
    assert survivor.metrics()["erma_takeovers_total"] >= 1
    for c in (c1, c2):
        assert any(m["type"] == "match_end" for m in c.seen)
        assert gaps(c, match) == [], (gaps(c, match), [_brief(m) for m in c.seen[-30:]], cluster.logs())
    assert cluster.ledger_check() == []


def test_a_seat_dropped_with_its_owner_gets_its_match_end_after_the_takeover(cluster: Cluster) -> None:
    """The owner dies in mid-hand with one seat's socket on it; that seat does not come back until the match
    is over (its opponent plays on and leaves on the new owner; the away seat forfeits). Its next hello, on
    the new owner, brings the hand_end and the match_end it missed, after the version it had (``resume``)."""
    a, b = cluster.start_node(), cluster.start_node()

    async def go() -> tuple[Client, Client, str, dict[str, Any]]:
        c1, c2, m1, m2 = await pair_across(a, b)
        owner = owner_of(cluster)
        victim, stayer = (c1, c2) if c1.running.ws_url == owner.ws_url else (c2, c1)
        mv, ms = (m1, m2) if victim is c1 else (m2, m1)
        victim.acted = stayer.acted = 0  # type: ignore[attr-defined]
        tv = asyncio.create_task(play(victim, mv["match"], mv["seat"], hands=1, think=0.02))
        ts = asyncio.create_task(play(stayer, ms["match"], ms["seat"], hands=1, think=0.02, fallback=[a, b]))
        while victim.acted + stayer.acted < 6:  # type: ignore[attr-defined]
            await asyncio.sleep(0.01)
        assert not any(m["type"] == "hand_end" for m in victim.seen), "the kill should come in mid-hand"
        await asyncio.to_thread(cluster.kill, owner)
        with contextlib.suppress(AssertionError):  # "the socket closed": this seat stays away
            await tv
        await asyncio.wait_for(ts, 60)
        resume = dict(victim.versions)
        survivor = next(n for n in (a, b) if n.proc.poll() is None)
        victim.running = survivor  # type: ignore[assignment]
        victim.seen.clear()
        await victim.connect(resume=resume)
        end = await victim.expect("match_end", timeout=10)
        await victim.close()
        await stayer.close()
        return victim, stayer, mv["match"], {"resume": resume, "end": end}

    victim, stayer, match, got = run_async(go())
    end, since = got["end"], got["resume"][match]
    assert end["match"] == match and end["v"] > since
    missed = [m for m in victim.seen if m.get("match") == match]
    assert [m["type"] for m in missed] == ["hand_end", "match_end"], [_brief(m) for m in missed]
    assert all(m["v"] > since for m in missed)
    assert any(m["type"] == "match_end" for m in stayer.seen)
    assert cluster.ledger_check() == []
