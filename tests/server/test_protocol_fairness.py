"""No side channels (docs/fairness.md, "Fairness and hidden information"): a seat's stream is the same,
message for message and field for field, whether or not the opponent had hidden claim decisions.

Each preset's room is played twice on a fresh server with the same deal (the table's secrets fixed): once as
the rules are, once with the opponent's claim options taken away in the engine. The opponent passes every
claim it is offered, so the hand's public course is the same; the player probes the server with an action
right after each of its discards (answered with an error) and plays the hand out. Every message the player
receives — views, events, their numbering, the decision counter, errors — must be equal in the two runs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import erma.server.hub as hub_module
import erma.server.table as table_module
from erma.game.families import FAMILIES
from erma.rules import preset_names
from erma.server.config import load_rooms

from .conftest import Client, choose, run_async, start_server, stop_server
from .patched_serve import FixedSecrets, claim_hooks

RANDOM_KEYS = {"match", "record_id", "players", "deadline_ms"}
"""What differs between two runs for reasons of their own (ids, account names) and is not compared."""

PRESET_ROOMS = sorted({room.rules.name: room.id for room in load_rooms().values()}.values())
"""One room of each preset (the packaged rooms cover every preset: checked below)."""


def test_the_rooms_cover_every_preset() -> None:
    assert {room.rules.name for room in load_rooms().values()} == set(preset_names())


def normalise(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: normalise(v) for k, v in value.items() if k not in RANDOM_KEYS}
    if isinstance(value, list):
        return [normalise(v) for v in value]
    return value


async def play(
    client: Client, match: str, seat: int, *, probe: bool, passer: bool, stream: list[dict[str, Any]]
) -> dict[str, Any]:
    """Answer this seat's decisions until the hand ends (``passer``: pass every claim, win included);
    ``probe``: right after each own discard is acknowledged, send an action the server must refuse, and ask
    for a resync (its snapshot must show no more than waiting would)."""
    acted: set[int] = set()
    pending_discard: int | None = None
    for _ in range(20_000):
        msg = await client.recv(30)
        stream.append(msg)
        if msg["type"] == "hand_end":
            return msg
        if msg["type"] == "ack" and msg["seq"] == pending_discard and probe:
            pending_discard = None
            await client.act(match, "pass")
            version = client.versions.get(match, -1)
            await client.send({"type": "resync", "match": match, "version": version})
        if msg["type"] in ("view", "snapshot"):
            view = msg["view"]
            if view["legal"] and view["actor"] == seat and view["decision"] not in acted:
                acted.add(view["decision"])
                action = "pass" if passer and view["phase"] == "claim" else choose(view)
                await client.act(match, action)
                if action.startswith("discard"):
                    pending_discard = client.seq
    raise AssertionError("the hand did not end")


def one_run(tmp: Path, room: str, monkeypatch: pytest.MonkeyPatch, *, hide_claims: bool) -> dict[str, Any]:
    monkeypatch.setattr(table_module, "secrets", FixedSecrets)
    opponent: dict[str, int] = {}
    seen: list[int] = []
    for name, family in claim_hooks(lambda: opponent.get("seat"), hide_claims, seen).items():
        monkeypatch.setitem(FAMILIES, name, family)
    srv, thread, running = start_server(tmp, claim_window_s=0.5, bot_fill_s=60)
    try:
        mine, theirs = run_async(play_pair(running, running, room, opponent))
    finally:
        stop_server(srv, thread, running)
    return {"mine": mine, "theirs": theirs, "claim_options": len(seen)}


async def play_pair(
    mine_at: Any, theirs_at: Any, room: str, opponent: dict[str, int] | None = None, probe: bool = True
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One hand of two people (each on its server), the player first in the queue (seat 0); returns what
    each received. ``probe``: the player's probes must reach the table within the pause after its discard
    (``claim_window_s``)."""
    me, them = Client(mine_at), Client(theirs_at)
    await me.connect()
    await them.connect()
    await me.send({"type": "queue", "room": room, "opponent": "any"})
    await me.expect("queued")
    await them.send({"type": "queue", "room": room, "opponent": "any"})
    mine = await me.expect("match")
    theirs = await them.expect("match", timeout=20)
    if opponent is not None:
        opponent["seat"] = theirs["seat"]
    for c, entropy in ((me, "a1" * 16), (them, "b2" * 16)):  # ready, with fixed shares of the seed
        await c.send({"type": "next", "match": mine["match"], "entropy": entropy})
    mine_stream: list[dict[str, Any]] = [mine]
    their_stream: list[dict[str, Any]] = [theirs]
    await asyncio.gather(
        play(me, mine["match"], mine["seat"], probe=probe, passer=False, stream=mine_stream),
        play(them, theirs["match"], theirs["seat"], probe=False, passer=True, stream=their_stream),
    )
    # only the player leaves: had both, which of the two leaves came first would decide the match_end's
    # winner and rating change (the leaver loses), a race of the test's own and no part of what is compared
    await me.send({"type": "leave", "match": mine["match"]})
    while mine_stream[-1]["type"] != "match_end":  # (the replies still on their way included)
        mine_stream.append(await me.recv(10))
    await me.close()
    await them.close()
    return mine_stream, their_stream


def assert_same_stream(
    shown: list[dict[str, Any]], hidden: list[dict[str, Any]], probed: bool = True
) -> None:
    """The two runs' streams of the player are equal (but for ids and names), the numbering gapless. The
    replies to the player's own messages (acks, errors) are compared as their own sequence: where they fall
    among the stream's messages is a matter of timing (at a hand's end its last messages go out at once)."""
    a, b = normalise(shown), normalise(hidden)
    for part in (lambda m: "v" in m, lambda m: "v" not in m):
        x, y = [m for m in a if part(m)], [m for m in b if part(m)]
        for i, (p, q) in enumerate(zip(x, y, strict=False)):
            assert p == q, f"message {i} differs:\n{p}\n{q}"
        assert len(x) == len(y)
    # the probes were answered, the same way in both runs
    assert any(m["type"] == "error" for m in a) or not probed
    # the per-seat numbering has no gaps: events 0, 1, 2, … and stream versions 0, 1, 2, …
    # (a resync's snapshot repeats the last version, and may resend what was on its way)
    events = [m["event"]["v"] for m in shown if m["type"] == "event"]
    assert sorted(set(events)) == list(range(len(set(events))))
    versions = [m["v"] for m in shown if "v" in m and m["type"] != "snapshot"]
    assert sorted(set(versions)) == list(range(versions[0], versions[0] + len(set(versions))))


@pytest.fixture
def runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    def both(room: str) -> tuple[dict[str, Any], dict[str, Any]]:
        with monkeypatch.context() as m:
            shown = one_run(tmp_path / f"{room}-shown", room, m, hide_claims=False)
        with monkeypatch.context() as m:
            hidden = one_run(tmp_path / f"{room}-hidden", room, m, hide_claims=True)
        return shown, hidden

    yield both


@pytest.mark.parametrize("room", PRESET_ROOMS)
def test_the_opponents_claim_options_do_not_show(room: str, runs: Any) -> None:
    shown, hidden = runs(room)
    # the comparison can fail: the opponent had claim decisions (its own stream shows them), and in the
    # second run the same options were there to be taken away, and were
    assert shown["claim_options"] > 0 and hidden["claim_options"] > 0
    assert any(m["type"] == "view" and m["view"]["phase"] == "claim" for m in shown["theirs"])
    assert not any(m["type"] == "view" and m["view"]["phase"] == "claim" for m in hidden["theirs"])
    assert_same_stream(shown["mine"], hidden["mine"])


def test_a_snapshot_during_the_opponents_claim_decision_shows_its_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the opponent weighs a claim (longer than the pause), a resync shows the phase as its turn, with
    nothing of the decision in it (docs/protocol.md: the view's ``phase`` and ``actor``)."""
    monkeypatch.setattr(
        table_module, "secrets", FixedSecrets
    )  # a fixed deal, in which the opponent may claim
    monkeypatch.setattr(hub_module, "secrets", FixedSecrets)
    srv, thread, running = start_server(tmp_path, claim_window_s=0.05, bot_fill_s=60)

    async def go() -> tuple[int, dict[str, Any]]:
        me, them = Client(running), Client(running)
        await me.connect()
        await them.connect()
        await me.send({"type": "queue", "room": "classic-novice", "opponent": "any"})
        await me.expect("queued")
        await them.send({"type": "queue", "room": "classic-novice", "opponent": "any"})
        mine, theirs = await me.expect("match"), await them.expect("match")
        match = mine["match"]
        for c in (me, them):
            await c.send({"type": "next", "match": match})
        deciding, snapped = asyncio.Event(), asyncio.Event()
        found: dict[str, Any] = {}

        async def opponent() -> None:
            acted: set[int] = set()
            while "view" not in found:
                msg = await them.recv(30)
                if msg["type"] == "hand_end":
                    return
                view = msg.get("view")
                if msg["type"] != "view" or view["actor"] != theirs["seat"] or not view["legal"]:
                    continue
                if view["decision"] in acted:
                    continue
                acted.add(view["decision"])
                if view["phase"] == "claim":
                    deciding.set()  # weigh it until the other seat has looked
                    await asyncio.wait_for(snapped.wait(), 10)
                    await them.act(match, "pass")
                else:
                    await them.act(match, choose(view))

        async def player() -> None:
            acted: set[int] = set()
            while "view" not in found:
                if deciding.is_set():
                    await asyncio.sleep(0.2)  # well after the pause
                    await me.send({"type": "resync", "match": match, "version": me.versions[match]})
                    found["view"] = (await me.expect("snapshot"))["view"]
                    snapped.set()
                    return
                try:
                    msg = await me.recv(0.05)
                except TimeoutError:
                    continue
                if msg["type"] == "hand_end":
                    return
                view = msg.get("view")
                mine_to_act = msg["type"] == "view" and view["actor"] == mine["seat"] and view["legal"]
                if mine_to_act and view["decision"] not in acted:
                    acted.add(view["decision"])
                    await me.act(match, choose(view))

        await asyncio.gather(opponent(), player())
        await me.close()
        await them.close()
        return theirs["seat"], found

    try:
        seat, found = run_async(go())
    finally:
        stop_server(srv, thread, running)
    assert "view" in found, "the opponent was never offered a claim in this deal"
    view = found["view"]
    assert view["phase"] == "turn" and view["actor"] == seat
    assert view["legal"] == [] and "offer" not in view and "cuo_kinds" not in view
