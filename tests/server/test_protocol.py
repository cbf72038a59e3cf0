"""The protocol through real websockets: a full match against a bot, reconnection, retries, bad messages,
and hidden information on every message."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from erma.ratings import anchors
from erma.server.hub import BOT_NAMES
from erma.server.pairing import nearest_bot

from .conftest import METRICS_TOKEN, Client, Running, choose, run_async

PUBLIC_TILE_EVENTS = {
    "discard",
    "chow",
    "pung",
    "kong",
    "akong",
    "xkong",
    "flower",
    "win",
    "haidi_pick",
    "deal",
}


def assert_hides(msg: dict[str, Any], seat: int, revealed: list[str] | None = None) -> None:
    """Nothing in a message to ``seat`` shows the other seat's concealed tiles (before the hand's end).
    A drawn tile is shown only if it is one of the hand's revealed (public) tiles."""
    if msg["type"] == "event":
        e = msg["event"]
        if e["type"] == "deal" and revealed is not None:
            revealed[:] = e.get("revealed", [])
        if e.get("seat") == 1 - seat and e["type"] not in PUBLIC_TILE_EVENTS:
            assert not {"tiles", "gave", "got", "kind", "kinds", "meld", "options"} & set(e), e
            if e["type"] == "draw" and "tile" in e:
                assert revealed is not None and e["tile"] in revealed, e
    if msg["type"] in ("view", "snapshot"):
        view = msg["view"]
        assert view["seat"] == seat
        assert isinstance(view["opponent_hand_count"], int)
        assert "result" not in view or view["phase"] == "end"
        if view["phase"] != "end":
            for m in view["melds"][1 - seat]:
                assert "?" in m or m.startswith("(")


async def play_until_hand_end(
    client: Client, match: str, seat: int, *, max_msgs: int = 5000
) -> dict[str, Any]:
    """Answer every view that asks this seat to act; return the hand_end message."""
    acted: set[int] = set()
    revealed: list[str] = []
    for _ in range(max_msgs):
        msg = await client.recv(30)
        assert msg["type"] != "error", msg
        assert_hides(msg, seat, revealed)
        if msg["type"] == "hand_end":
            return msg
        if msg["type"] in ("view", "snapshot"):
            view = msg["view"]
            if view["legal"] and view["actor"] == seat and view["decision"] not in acted:
                acted.add(view["decision"])
                await client.act(match, choose(view))
    raise AssertionError("the hand did not end")


def test_full_match_against_a_bot(server: Running) -> None:
    async def go() -> None:
        c = Client(server)
        welcome = await c.connect()
        start_balance = welcome["balance"]
        await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot"})
        m = await c.expect("match")
        match, seat = m["match"], m["seat"]
        start = await c.expect("hand_start")
        end = await play_until_hand_end(c, match, seat)
        assert end["digest"] == start["digest"]
        result = end["result"]
        assert result["reason"] in ("win", "draw")
        bal = end["balances"][seat]
        assert bal == start_balance + result["deltas"][seat] * end["bean_rate"] or result["reason"] == "draw"
        assert end["beans"][seat] == bal - start_balance and sum(end["beans"]) == 0
        # the record is stored and fetchable
        headers = {"Authorization": f"Bearer {c.token}"}
        games = httpx.get(server.url + "/api/games", headers=headers).json()["games"]
        assert games and games[0]["id"] == end["record_id"]
        record = httpx.get(server.url + f"/api/games/{end['record_id']}", headers=headers).json()
        assert record["seed"] == end["seed"] and record["salt"] == end["salt"]
        await c.send({"type": "leave", "match": match})
        await c.expect("match_end")
        me = httpx.get(server.url + "/api/me", headers=headers).json()
        assert me["balance"] == bal
        await c.close()

    run_async(go())


def test_bad_messages_get_errors_and_change_nothing(server: Running) -> None:
    async def go() -> None:
        c = Client(server)
        await c.connect()
        for bad, code in [
            (b"\x00\xff garbage", "bad_json"),
            ("{not json", "bad_json"),
            ("[1, 2]", "bad_message"),
            (json.dumps({"type": "fly"}), "unknown_type"),
            (json.dumps({"type": "queue"}), "bad_message"),
            ("x" * 20000, "too_large"),
            (
                json.dumps({"type": "action", "match": "nope", "seq": 1, "action": "discard 1m"}),
                "no_such_match",
            ),
        ]:
            await c.send(bad)
            reply = await c.expect("error")
            assert reply["code"] == code, (bad[:30], reply)
        await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot"})
        m = await c.expect("match")
        match, seat = m["match"], m["seat"]
        view = (await c.expect("view"))["view"]
        while view["actor"] != seat or not view["legal"]:
            view = (await c.expect("view"))["view"]
        before = view
        await c.act(match, "discard 9z")  # malformed tile
        assert (await c.expect("error"))["code"] == "illegal_action"
        await c.act(match, "fly away")
        assert (await c.expect("error"))["code"] == "illegal_action"
        not_held = next(
            f"discard {t}"
            for t in ("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m")
            if f"discard {t}" not in before["legal"]
        )
        await c.act(match, not_held)  # forged: a tile the seat does not hold
        assert (await c.expect("error"))["code"] == "illegal_action"
        await c.send({"type": "resync", "match": match, "version": c.versions[match]})
        snap = (await c.expect("snapshot"))["view"]
        assert snap["hand"] == before["hand"] and snap["legal"] == before["legal"]
        # a retried action is applied once
        action = choose(snap)
        await c.act(match, action, seq=100)
        ack = await c.expect("ack")
        assert ack["seq"] == 100
        await c.act(match, action, seq=100)
        again = await c.expect("ack", "error")
        assert again["type"] == "ack" and again["seq"] == 100
        await c.send({"type": "resync", "match": match, "version": c.versions[match]})
        after = (await c.expect("snapshot"))["view"]
        assert len(after["discards"][seat]) <= len(before["discards"][seat]) + 1
        await c.close()

    run_async(go())


def test_reconnection_restores_the_exact_view(server: Running) -> None:
    async def go() -> None:
        c = Client(server)
        await c.connect()
        await c.send({"type": "queue", "room": "cuopai-novice", "opponent": "bot"})
        m = await c.expect("match")
        match, seat = m["match"], m["seat"]
        acted: set[int] = set()
        for _ in range(6):  # play a few turns
            msg = await c.expect("view")
            view = msg["view"]
            if view["actor"] == seat and view["legal"] and view["decision"] not in acted:
                acted.add(view["decision"])
                await c.act(match, choose(view))
        await c.drain()
        last = [x for x in c.seen if x.get("type") in ("view", "snapshot")][-1]
        seen_version = c.versions[match]
        await c.ws.close()
        d = Client(server, token=c.token)
        welcome = await d.connect(resume={match: seen_version})
        assert welcome["type"] == "welcome"
        again = await d.expect("match")
        assert again["resumed"] and again["match"] == match
        snap = (await d.expect("snapshot"))["view"]
        for key in ("hand", "melds", "discards", "wall", "phase", "riichi", "revealed"):
            assert snap[key] == last["view"][key], key
        await d.close()

    run_async(go())


def test_a_second_socket_replaces_the_first(server: Running) -> None:
    async def go() -> None:
        a = Client(server)
        await a.connect()
        b = Client(server, token=a.token)
        await b.connect()
        replaced = await a.expect("replaced")
        assert replaced["type"] == "replaced"
        await b.send({"type": "ping", "t": 1.5})
        assert (await b.expect("pong"))["t"] == 1.5
        await b.close()

    run_async(go())


def test_quick_match_pairs_two_people(server: Running) -> None:
    async def go() -> None:
        a, b = Client(server), Client(server)
        await a.connect()
        await b.connect()
        await a.send({"type": "queue", "room": "classic-novice"})
        await b.send({"type": "queue", "room": "classic-novice"})
        ma, mb = await a.expect("match"), await b.expect("match")
        assert ma["match"] == mb["match"] and {ma["seat"], mb["seat"]} == {0, 1}
        assert not any(p["bot"] for p in ma["players"])
        ends = await asyncio.gather(
            play_until_hand_end(a, ma["match"], ma["seat"]), play_until_hand_end(b, mb["match"], mb["seat"])
        )
        assert ends[0]["result"] == ends[1]["result"]
        assert ends[0]["balances"] == ends[1]["balances"]
        await a.close()
        await b.close()

    run_async(go())


def test_rest_api(server: Running) -> None:
    r = httpx.post(server.url + "/api/register", json={"name": "alice", "password": "correct horse"})
    assert r.status_code == 200, r.text
    assert (
        httpx.post(server.url + "/api/register", json={"name": "alice", "password": "x"}).status_code == 400
    )
    assert (
        httpx.post(server.url + "/api/login", json={"name": "alice", "password": "wrong"}).status_code == 401
    )
    token = httpx.post(server.url + "/api/login", json={"name": "alice", "password": "correct horse"}).json()[
        "token"
    ]
    me = httpx.get(server.url + "/api/me", headers={"Authorization": f"Bearer {token}"}).json()
    assert me["account"]["name"] == "alice" and me["balance"] > 0
    assert httpx.get(server.url + "/api/me").status_code == 401
    rooms = httpx.get(server.url + "/api/rooms").json()["rooms"]
    assert {r["rules"] for r in rooms} >= {"cuopai789", "classic64"}
    assert httpx.post(server.url + "/api/login", content=b"[").status_code == 400
    assert httpx.get(server.url + "/metrics").status_code == 401  # the operator's only
    operator = {"Authorization": f"Bearer {METRICS_TOKEN}"}
    metrics = httpx.get(server.url + "/metrics", headers=operator).text
    assert "erma_sockets" in metrics
    lag = {
        line.split()[0]: float(line.split()[1])
        for line in metrics.splitlines()
        if line.startswith("erma_loop_lag_ms_")
    }
    assert lag["erma_loop_lag_ms_count"] > 0  # the loop's lag is measured from the start
    assert lag['erma_loop_lag_ms_bucket{le="+Inf"}'] == lag["erma_loop_lag_ms_count"]


def test_a_bot_match_at_a_chosen_level(server: Running) -> None:
    """人机对战: the player names the bot's level (1–5), or gets the bot nearest its rating; the seat shows
    the level."""

    async def go() -> None:
        c = Client(server)
        await c.connect()
        await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot", "level": 9})
        assert (await c.expect("error"))["code"] == "bad_message"
        await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot", "level": 5})
        m = await c.expect("match")
        bot = next(p for p in m["players"] if p["bot"])
        assert bot["level"] == 5 and "L5" in bot["name"]
        view = (await c.expect("view"))["view"]
        assert [p["level"] for p in view["players"] if p["bot"]] == [5]
        await c.send({"type": "leave", "match": m["match"]})
        await c.expect("match_end")
        # no level asked: the bot whose anchor is nearest the player's rating (after the escape, a loss)
        me = httpx.get(server.url + "/api/me", headers={"Authorization": f"Bearer {c.token}"}).json()
        prof = httpx.get(server.url + f"/api/players/{me['account']['name']}").json()
        mu = (
            prof["families"]["standard"]["rating"]["mu"]
            if "families" in prof
            else prof["standard"]["rating"]["mu"]
        )
        expected = nearest_bot(mu, {n: r.mu for n, r in anchors().items()}, BOT_NAMES)
        await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot"})
        m = await c.expect("match")
        assert [p["name"] for p in m["players"] if p["bot"]] == [BOT_NAMES[expected]]
        await c.close()

    run_async(go())
