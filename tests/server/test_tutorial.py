"""The tutorial tables (新手教程, erma.server.tutorial): hidden from the room list, served moves, a hand
that, played with those moves over the socket, goes exactly as the engine's tutorial play says, and costs
nothing: points only and unrated, played to the end or skipped (an escape)."""

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
        welcome = await c.connect()
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
                me = httpx.get(server.url + "/api/me", headers={"Authorization": f"Bearer {c.token}"}).json()
                await c.close()
                name = welcome["account"]["name"]
                return {
                    **msg,
                    "me": seat,
                    "before": welcome["balance"],
                    "after": me["balance"],
                    "name": name,
                }, record
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
    # a won tutorial hand moves no beans and no rating (points only, unrated)
    assert end["bean_rate"] == 0 and end["beans"] == [0, 0], end
    assert end["after"] == end["before"]
    assert unrated(server, end["name"])


def unrated(server: Running, name: str) -> bool:
    """Whether a player has no rated hand in any family (GET /api/players/{name})."""
    prof = httpx.get(server.url + f"/api/players/{name}").json()
    return all(not f.get("hands") and not f.get("matches") for f in prof["families"].values())


def test_skipping_the_tutorial_costs_nothing(server: Running) -> None:
    """跳过教程 mid-hand is a leave: an escape at a points-only table, no beans, no rating."""

    async def go() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        c = Client(server)
        welcome = await c.connect()
        await c.send({"type": "queue", "room": "tutorial-cuopai789", "opponent": "any"})
        m = await c.expect("match")
        await c.expect("view", "snapshot", timeout=30)
        await c.send({"type": "leave", "match": m["match"]})
        end = await c.expect("hand_end", timeout=30)
        me = httpx.get(server.url + "/api/me", headers={"Authorization": f"Bearer {c.token}"}).json()
        await c.close()
        return welcome, end, me

    welcome, end, me = run_async(go())
    assert end["result"]["reason"] == "escape", end["result"]
    assert end["beans"] == [0, 0] and me["balance"] == welcome["balance"]
    assert unrated(server, welcome["account"]["name"])
