"""Strict types (docs/protocol.md, "Validation"): a field takes only its own JSON type and an action only its
canonical text — ``level: "3"``, ``seq: true``, ``" discard 7p "`` are refused with an error naming the
field, the socket stays usable and the right message then works. The REST bodies and query numbers alike."""

from __future__ import annotations

import json
from typing import Any

import httpx

from .conftest import Client, Running, run_async

BAD_FIELDS: list[tuple[dict[str, Any] | str, str]] = [
    ({"type": "queue", "room": "classic-novice", "opponent": "bot", "level": "3"}, "level"),
    ({"type": "queue", "room": "classic-novice", "opponent": "bot", "level": 3.0}, "level"),
    ({"type": "queue", "room": "classic-novice", "opponent": "bot", "level": True}, "level"),
    ({"type": "queue", "room": 7}, "room"),
    ({"type": "action", "match": "m", "seq": True, "action": "pass"}, "seq"),
    ({"type": "action", "match": "m", "seq": "1", "action": "pass"}, "seq"),
    ({"type": "action", "match": 12, "seq": 1, "action": "pass"}, "match"),
    ({"type": "autoplay", "match": "m", "on": 1}, "on"),
    ({"type": "autoplay", "match": "m", "on": "true"}, "on"),
    ({"type": "review", "match": "m", "on": 0}, "on"),
    ({"type": "resync", "match": "m", "version": "5"}, "version"),
    ({"type": "resync", "match": "m", "version": 5.0}, "version"),
    ({"type": "hello", "token": "t", "resume": {"m": "3"}}, "resume.m"),
    ({"type": "ping", "t": "1"}, "t"),
    ({"type": "ping", "t": True}, "t"),
    ('{"type": "ping", "t": 1, "t": "x"}', "t"),  # a key twice: which one counts?
    ({"type": "friend_create", "rules": "cuopai789", "hands": "4"}, "hands"),
    ({"type": "friend_create", "rules": "cuopai789", "hands": 4.0}, "hands"),
    ({"type": "friend_create", "rules": "cuopai789", "hands": 5}, "hands"),
    ({"type": "friend_create", "rules": "x" * 33, "hands": 4}, "rules"),
    ({"type": "friend_create", "rules": "cuopai789", "hands": 4, "stakes": "gold"}, "stakes"),
    ({"type": "friend_create", "rules": "cuopai789", "hands": 4, "private": True}, "private"),
    ({"type": "friend_join", "code": 12345}, "code"),
    ({"type": "friend_join", "number": 123456}, "number"),
    ({"type": "friend_join", "number": "0123456"}, "number"),
    ({"type": "friend_join", "code": "A" * 300}, "code"),
    ({"type": "friend_cancel", "code": "A" * 16}, "code"),
    ({"type": "rematch", "match": "m"}, "match"),
    ({"type": "chat", "phrase": "hello there"}, "phrase"),
    ({"type": "chat", "phrase": ["hurry"]}, "phrase"),
]

_BOTZONE = {"m": "W", "p": "B", "s": "T"}
_HONOR_LETTERS = "ESWNPFC"


def other_notation(tile: str) -> str:
    """The same tile in a notation the parser reads but the server does not write (Botzone, letters)."""
    digit, suit = tile[0], tile[1]
    return _BOTZONE[suit] + digit if suit in _BOTZONE else _HONOR_LETTERS[int(digit) - 1]


async def refused(c: Client, message: dict[str, Any] | str, field: str) -> dict[str, Any]:
    """Send a bad message: one error naming ``field``, then the socket still answers a ping."""
    await c.send(message if isinstance(message, str) else json.dumps(message))
    reply = await c.recv()
    assert reply["type"] == "error", (message, reply)
    assert reply["code"] in ("bad_message", "bad_json"), (message, reply)
    assert f"{field}:" in reply["message"] or f'"{field}"' in reply["message"], (message, reply)
    await c.send({"type": "ping", "t": 7})
    assert await c.recv() == {"type": "pong", "t": 7}
    return reply


def test_wrong_types_are_refused_naming_the_field(server: Running) -> None:
    async def go() -> None:
        c = Client(server)
        await c.connect()
        for message, field in BAD_FIELDS:
            await refused(c, message, field)
        # the socket is as good as new: the right message works
        await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot", "level": 3})
        match = await c.expect("match")
        assert match["players"][1 - match["seat"]]["level"] == 3
        await c.close()

    run_async(go())


def test_padded_or_non_canonical_action_text_is_refused(server: Running) -> None:
    async def go() -> None:
        c = Client(server)
        await c.connect()
        await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot"})
        m = await c.expect("match")
        match, seat = m["match"], m["seat"]
        while True:  # this seat's turn, with a discard to make
            msg = await c.expect("view", timeout=30)
            view = msg["view"]
            if view["actor"] == seat and view["phase"] == "turn" and view["legal"]:
                break
            if view["actor"] == seat and view["legal"]:
                await c.act(match, "pass" if "pass" in view["legal"] else view["legal"][0])
        discard = next(a for a in view["legal"] if a.startswith("discard ") and "riichi" not in a)
        tile = discard.split()[1]
        bad = [
            f" {discard} ",
            f"{discard} ",
            f"discard  {tile}",
            f"discard\t{tile}",
            f"discard {other_notation(tile)}",
        ]
        for text in bad:
            reply = await refused(c, {"type": "action", "match": match, "seq": 1, "action": text}, "action")
            assert reply["seq"] == 1 and json.dumps(discard) in reply["message"], reply
        await c.act(match, discard, seq=1)  # a refused action does not use up its seq
        ack = await c.expect("ack", "error")
        assert ack == {"type": "ack", "match": match, "seq": 1}, ack
        await c.close()

    run_async(go())


def test_rest_bodies_and_numbers_are_strict(server: Running) -> None:
    with httpx.Client(base_url=server.url) as client:
        for body, field in [
            ({"name": "strict1", "password": "a password", "admin": True}, "admin"),
            ({"name": 12345, "password": "a password"}, "name"),
            ({"name": "strict1", "password": 123456789}, "password"),
            ({"name": "strict1"}, "password"),
        ]:
            r = client.post("/api/register", json=body)
            assert r.status_code == 400 and r.json()["error"] == "invalid_input", (body, r.text)
            assert r.json()["message"].startswith(f"{field}:"), (body, r.text)
        assert (
            client.post("/api/register", json={"name": "strict1", "password": "a password"}).status_code
            == 200
        )
        for limit in [" 5", "5 ", "+5", "5_0", "05", "٥", "0", "501"]:
            r = client.get("/api/leaderboard/standard", params={"limit": limit})
            assert r.status_code == 400 and r.json()["error"] == "invalid_input", (limit, r.text)
        assert client.get("/api/leaderboard/standard", params={"limit": "5"}).status_code == 200
