"""Decisions already made (docs/protocol.md, "Decisions already made"): a reconnection's snapshot does not
offer a decision auto-play (托管) took while the seat was away; an action naming a decision already taken is
refused as ``stale``; a ``next`` sent during hand k is refused and does not confirm hand k + 1."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Client, Running, choose, run_async, start_server, stop_server


@pytest.fixture
def slow_pause(tmp_path: Path) -> Iterator[Running]:
    """Real time, a 3 s pause after one's own discard and a short reconnect grace: auto-play takes an away
    seat's discard after 0.3 s and its stream then pauses long enough to reconnect inside the pause."""
    srv, thread, running = start_server(tmp_path, time_scale=1.0, claim_window_s=3.0, reconnect_grace_s=0.3)
    yield running
    stop_server(srv, thread, running)


async def my_turn(c: Client, match: str, seat: int) -> dict[str, Any]:
    """Play (passing claims) until this seat is offered a discard; that view."""
    while True:
        view = (await c.expect("view", timeout=30))["view"]
        if view["actor"] == seat and view["legal"]:
            if view["phase"] == "turn" and any(a.startswith("discard ") for a in view["legal"]):
                return view
            await c.act(match, "pass" if "pass" in view["legal"] else choose(view))


async def away_inside_a_pause(c: Client) -> tuple[str, int, dict[str, Any], dict[str, Any]] | None:
    """Queue against a bot, leave at this seat's first discard, come back inside the pause that follows the
    discard auto-play (托管) takes: (match, seat, the view left, the snapshot). None when the hand ended while
    the seat was away (auto-play's hand won or lost within the second, a forfeit: the match is over)."""
    await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot"})
    m = await c.expect("match")
    match, seat = m["match"], m["seat"]
    view = await my_turn(c, match, seat)
    await c.close()  # away: auto-play discards for this seat after the grace (0.3 s)
    await asyncio.sleep(1.0)  # ... and its stream pauses 3 s after that discard: back inside the pause
    c.seen.clear()
    await c.connect(resume={match: c.versions[match]})
    back = await c.expect("snapshot", "match_end")
    return None if back["type"] == "match_end" else (match, seat, view, back["view"])


def test_a_snapshot_does_not_offer_a_decision_autoplay_took(slow_pause: Running) -> None:
    async def go() -> None:
        c = Client(slow_pause)
        await c.connect()
        for _ in range(5):  # a deal is random: now and then auto-play's hand ends before the seat is back
            if (found := await away_inside_a_pause(c)) is not None:
                break
        else:
            raise AssertionError("five hands in a row ended within a second of auto-play")
        match, seat, view, snap = found
        offered = view["decision"]
        discard = next(a for a in view["legal"] if a.startswith("discard "))
        mine = [
            msg["event"]
            for msg in c.seen
            if msg["type"] == "event" and msg["event"]["type"] == "discard" and msg["event"]["seat"] == seat
        ]
        assert mine, "auto-play took the discard while the seat was away"
        assert not snap["legal"], f"the snapshot offers decision {snap['decision']} again: {snap['legal']}"
        assert "after_discard" not in snap["hints"]
        # an action answering that decision (a client's queued click, say) is refused, not applied later
        await c.send(
            {
                "type": "action",
                "match": match,
                "seq": 50,
                "action": discard,
                "hand": view["hand_no"],
                "decision": offered,
            }
        )
        reply = await c.expect("error", "ack")
        assert reply["type"] == "error" and reply["code"] == "stale", reply
        assert f"decision {offered} was already taken" in reply["message"], reply
        await c.close()

    run_async(go())


def test_next_sent_during_a_hand_does_not_confirm_the_next(server: Running) -> None:
    async def go() -> None:
        c = Client(server)
        await c.connect()
        await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot"})
        m = await c.expect("match")
        match, seat = m["match"], m["seat"]
        start = await c.expect("hand_start")
        assert start["hand_no"] == 1
        await c.send({"type": "next", "match": match})  # during hand 1: an old client's form
        await c.send({"type": "next", "match": match, "hand": 2})  # ... and one naming the hand it confirms
        refusals: list[dict[str, Any]] = []
        acted: set[int] = set()
        while True:  # play hand 1 to its end
            msg = await c.recv(30)
            if msg["type"] == "error":
                refusals.append(msg)
                continue
            if msg["type"] == "hand_end":
                break
            if msg["type"] == "view":
                view = msg["view"]
                if view["legal"] and view["actor"] == seat and view["decision"] not in acted:
                    acted.add(view["decision"])
                    await c.act(match, choose(view))
        # nothing confirmed hand 2: the match ends when its clock (next_hand_timeout_s) runs out
        after = await c.expect("hand_start", "match_end", timeout=30)
        assert after["type"] == "match_end" and after["hands"] == 1, after
        assert [r["code"] for r in refusals] == ["stale", "stale"], refusals
        assert all("hand 1 is not over" in r["message"] and r["match"] == match for r in refusals), refusals
        await c.close()

    run_async(go())


def test_next_naming_the_next_hand_deals_it(server: Running) -> None:
    async def go() -> None:
        c = Client(server)
        await c.connect()
        await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot"})
        m = await c.expect("match")
        match = m["match"]
        await c.send({"type": "next", "match": match, "hand": 1})
        await c.expect("hand_start")
        await c.send({"type": "autoplay", "match": match, "on": True})
        await c.expect("hand_end", timeout=60)
        await c.send({"type": "next", "match": match, "hand": 3})  # not the next hand
        reply = await c.expect("error")
        assert reply["code"] == "stale" and "hand 3 is not the next hand (hand 2)" in reply["message"], reply
        await c.send({"type": "next", "match": match, "hand": 2})
        start = await c.expect("hand_start", "match_end", "error", timeout=30)
        assert start["type"] == "hand_start" and start["hand_no"] == 2, start
        await c.close()

    run_async(go())
