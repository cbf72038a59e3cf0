"""The tutorial tables (新手教程, erma.server.tutorial): hidden from the room list, served moves, and a hand
that, played with those moves over the socket, goes exactly as the engine's tutorial play says."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from erma.teach.tutorial import SECRETS, play, script
from tests.server.conftest import Client, Running, run_async


def test_tutorial_rooms_are_hidden_and_their_moves_served(server: Running) -> None:
    rooms = httpx.get(server.url + "/api/rooms").json()["rooms"]
    assert rooms and not any(r["id"].startswith("tutorial-") for r in rooms)
    for preset in SECRETS:
        got = httpx.get(server.url + f"/api/tutorial/{preset}").json()
        assert got["room"] == f"tutorial-{preset}" and got["moves"] == script(preset)["moves"]
    missing = httpx.get(server.url + "/api/tutorial/classic64")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"


@pytest.mark.parametrize("preset", sorted(SECRETS))
def test_the_tutorial_hand_goes_as_the_engine_played_it(server: Running, preset: str) -> None:
    moves = script(preset)["moves"]

    async def go() -> tuple[dict[str, Any], dict[str, Any]]:
        c = Client(server)
        await c.connect()
        await c.send({"type": "queue", "room": f"tutorial-{preset}", "opponent": "any"})
        m = await c.expect("match")
        match, seat = m["match"], m["seat"]
        await c.send({"type": "next", "match": match, "hand": 1, "entropy": "ab" * 16})  # ignored here
        acted: set[int] = set()
        for _ in range(5000):
            msg = await c.recv(30)
            assert msg["type"] != "error", msg
            if msg["type"] == "hand_end":
                record = httpx.get(
                    server.url + f"/api/games/{msg['record_id']}",
                    headers={"Authorization": f"Bearer {c.token}"},
                ).json()
                await c.close()
                return {**msg, "me": seat}, record
            if msg["type"] in ("view", "snapshot"):
                view = msg["view"]
                d = view.get("decision")
                if view["legal"] and view["actor"] == seat and d not in acted:
                    acted.add(d)
                    batch = [moves[d]]
                    while batch[-1].startswith("select "):  # the start exchange: selections and the commit
                        batch.append(moves[d + len(batch)])
                    acted.update(range(d, d + len(batch)))
                    for a in batch:
                        await c.act(match, a)
        raise AssertionError("the hand did not end")

    end, record = run_async(go())
    expected = play(preset, SECRETS[preset]).state
    assert expected.result is not None
    assert end["result"]["winner"] == end["me"] == 0
    assert end["result"]["points"] == expected.result.points
    assert [list(a) for a in expected.actions] == [list(a) for a in record["actions"]]
