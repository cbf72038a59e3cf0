"""Playing through the server: many hands with hidden information checked on every message, timers and
auto-play, disconnects, the verifiable deal, the ledger afterwards, and the load generator."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from erma.lab.loadtest import run_load
from erma.server.commitment import deal_digest
from erma.store import Store

from .conftest import Client, Running, run_async, start_server, stop_server
from .test_protocol import play_until_hand_end


@pytest.mark.parametrize("room", ["cuopai-novice", "classic-novice", "wushuang-novice", "wenzhou-novice"])
def test_hands_in_every_room_hide_the_opponent(server: Running, room: str, tmp_path: Path) -> None:
    async def go() -> list[dict]:
        c = Client(server)
        await c.connect()
        await c.send({"type": "queue", "room": room, "opponent": "bot"})
        m = await c.expect("match")
        ends = []
        for hand in range(2):
            ends.append(await play_until_hand_end(c, m["match"], m["seat"]))  # checks every message
            if hand == 0:
                await c.send({"type": "next", "match": m["match"]})
        await c.send({"type": "leave", "match": m["match"]})
        await c.expect("match_end")
        await c.close()
        return ends

    ends = run_async(go())
    assert len(ends) == 2 and ends[1]["result"]["reason"] in ("win", "draw", "escape")
    # the deal is verifiable: each hand's revealed seed and salt give the digest sent at the deal
    for end in ends:
        assert deal_digest(end["salt"], end["seed"]) == end["digest"]


def test_verify_a_served_record(server: Running, tmp_path: Path) -> None:
    async def go() -> tuple[str, int]:
        c = Client(server)
        await c.connect()
        await c.send({"type": "queue", "room": "cuopai-novice", "opponent": "bot"})
        m = await c.expect("match")
        end = await play_until_hand_end(c, m["match"], m["seat"])
        await c.close()
        return c.token, end["record_id"]

    token, record_id = run_async(go())
    record = httpx.get(
        server.url + f"/api/games/{record_id}", headers={"Authorization": f"Bearer {token}"}
    ).json()
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record))
    ok = subprocess.run(
        [sys.executable, "-m", "erma.cli", "verify", str(path)], capture_output=True, text=True
    )
    assert ok.returncode == 0, ok.stderr
    record["seed"] = "0" * 64  # a different seed would not match the digest sent with the deal
    path.write_text(json.dumps(record))
    bad = subprocess.run(
        [sys.executable, "-m", "erma.cli", "verify", str(path)], capture_output=True, text=True
    )
    assert bad.returncode == 1 and "digest" in bad.stderr
    other = httpx.post(server.url + "/api/guest").json()["token"]
    assert (
        httpx.get(
            server.url + f"/api/games/{record_id}", headers={"Authorization": f"Bearer {other}"}
        ).status_code
        == 404
    )


def test_timeouts_lead_to_autoplay_and_the_hand_finishes(tmp_path: Path) -> None:
    srv, thread, running = start_server(tmp_path, timeouts=True, time_scale=0.02)
    try:

        async def go() -> dict:
            c = Client(running)
            await c.connect()
            await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot"})
            await c.expect("match")
            end = await c.expect("hand_end", timeout=60)  # never act: the timers play for us
            views = [
                m["view"] for m in c.seen if m["type"] == "view" and m["view"]["seat"] == m["view"]["actor"]
            ]
            assert any(v.get("deadline_ms") is not None for v in views)
            assert any(m["type"] == "view" and m["view"]["autoplay"] for m in c.seen)
            await c.close()
            return end

        end = run_async(go())
        assert end["result"]["reason"] in ("win", "draw")
    finally:
        stop_server(srv, thread, running)


@pytest.mark.parametrize("policy", ["greedy", "tsumogiri"])
def test_autoplay_policy_is_played(tmp_path: Path, policy: str) -> None:
    """``autoplay_policy``: the greedy stand-in plays ordinary actions; ``tsumogiri`` applies the engine's
    timeout action (a ``timeout`` event naming what it applied) for the absent player."""
    rooms = tmp_path / "rooms.toml"
    rooms.write_text(
        '[[room]]\nid = "r"\nname_zh = "r"\nname_en = "r"\nrules = "classic64"\ntier = "novice"\n'
        f'entry_min = 100\nbean_rate = 1\noptions = {{ autoplay_policy = "{policy}" }}\n',
        encoding="utf-8",
    )
    srv, thread, running = start_server(tmp_path, timeouts=True, time_scale=0.02, rooms_file=str(rooms))
    try:

        async def go() -> list[dict]:
            c = Client(running)
            await c.connect()
            await c.send({"type": "queue", "room": "r", "opponent": "bot"})
            m = await c.expect("match")
            await c.expect("hand_end", timeout=60)  # never act
            await c.close()
            return [
                x["event"] for x in c.seen if x["type"] == "event" and x["event"].get("seat") == m["seat"]
            ]

        mine = run_async(go())
        timeouts = [e for e in mine if e["type"] == "timeout"]
        acted = [e for e in mine if e["type"] in ("discard", "pung", "chow", "kong", "win")]
        assert acted
        if policy == "tsumogiri":
            assert len(timeouts) >= len([e for e in acted if e["type"] == "discard"]) > 0
        else:
            assert timeouts == []  # the greedy stand-in plays ordinary actions, from the first timeout on
    finally:
        srv.should_exit = True
        thread.join(10)


def test_a_player_away_at_the_end_of_the_hand_forfeits(server: Running) -> None:
    """A disconnect is not an escape: auto-play finishes the hand; still away at its end, one forfeits."""

    async def go() -> list[dict]:
        c = Client(server)
        await c.connect()
        await c.send({"type": "queue", "room": "cuopai-novice", "opponent": "bot"})
        await c.expect("match")
        await c.expect("view")
        await c.ws.close()  # gone: auto-play takes the seat at once
        headers = {"Authorization": f"Bearer {c.token}"}
        for _ in range(600):
            games = httpx.get(server.url + "/api/games", headers=headers).json()["games"]
            if games:
                me = httpx.get(server.url + "/api/me", headers=headers).json()
                return [games[0]["summary"], me]
            await asyncio.sleep(0.1)
        raise AssertionError("the hand did not end")

    summary, me = run_async(go())
    assert summary["reason"] == "forfeit" and summary["forfeited_by"] == me["account"]["name"]
    # cuopai: the escape penalty is 13 points at the room's 10 beans a point, taken from the stake
    assert me["balance"] == 10_000 - 130


def test_ledger_is_sound_after_play(tmp_path: Path) -> None:
    srv, thread, running = start_server(tmp_path)
    try:
        summary = run_async(run_load([running.ws_url], tables=4, seconds=3, room="cuopai-novice"))
    finally:
        stop_server(srv, thread, running)
    assert summary["tables_started"] == 4 and summary["hands_completed"] >= 4
    assert summary["errors"] == 0 and summary["matches_lost"] == 0
    assert summary["latency_ms"]["p99"] > 0
    assert summary["client_lag_ms"]["max"] >= summary["client_lag_ms"]["p99"] >= 0

    async def check() -> list[str]:
        store = await Store.open(None, tmp_path)
        try:
            return await store.check()
        finally:
            await store.close()

    assert run_async(check()) == []


def test_a_resync_after_two_hands_resends_every_message_as_sent(server: Running) -> None:
    """Earlier hands' messages are kept compacted (JSON text) but come back exactly as they were sent."""

    async def go() -> None:
        c = Client(server)
        await c.connect()
        await c.send({"type": "queue", "room": "cuopai-novice", "opponent": "bot"})
        m = await c.expect("match")
        match = m["match"]
        for hand in range(2):
            await play_until_hand_end(c, match, m["seat"])
            if hand == 0:
                await c.send({"type": "next", "match": match})
        await c.drain()
        live = {x["v"]: x for x in c.seen if x.get("match") == match and "v" in x and x["type"] != "snapshot"}
        hand_starts = [v for v, x in live.items() if x["type"] == "hand_start"]
        assert len(hand_starts) == 2
        await c.send({"type": "resync", "match": match, "version": -1})
        again: dict[int, dict] = {}
        while True:
            msg = await c.recv()
            if msg["type"] == "snapshot":
                break
            again[msg["v"]] = msg
        assert again == live and len(again) == max(live) + 1
        await c.send({"type": "leave", "match": match})
        await c.close()

    run_async(go())
