"""The server's messages as sent: each outbound class gives exactly the JSON object of docs/protocol.md —
its keys in their order, the keys left out when they do not apply."""

from __future__ import annotations

import json
from typing import Any

from erma.bots import make_bot
from erma.game.result import EndReason, HandResult
from erma.server import outbound as O
from erma.server.seats import SeatInfo


def wire(message: dict[str, Any]) -> str:
    """The text a socket sends (key order kept)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def test_lobby_messages() -> None:
    assert wire(O.Pong(1.5).to_dict()) == '{"type":"pong","t":1.5}'
    assert wire(O.Pong(None).to_dict()) == '{"type":"pong","t":null}'
    assert wire(O.Cancelled().to_dict()) == '{"type":"cancelled"}'
    assert wire(O.Replaced("signed in elsewhere").to_dict()) == (
        '{"type":"replaced","message":"signed in elsewhere"}'
    )
    assert wire(O.Queued("r", 8.0).to_dict()) == '{"type":"queued","room":"r","bot_after_s":8.0}'
    assert wire(O.Rooms([{"id": "r"}]).to_dict()) == '{"type":"rooms","rooms":[{"id":"r"}]}'
    assert wire(O.Welcome(1, 7, "甲", True, 100).to_dict()) == (
        '{"type":"welcome","protocol":1,"account":{"id":7,"name":"甲","guest":true},"balance":100}'
    )


def test_errors_leave_out_what_does_not_apply() -> None:
    assert wire(O.Error("bad_token", "no").to_dict()) == '{"type":"error","code":"bad_token","message":"no"}'
    assert wire(O.Error("x", "y", 0, "m").to_dict()) == (
        '{"type":"error","code":"x","message":"y","seq":0,"match":"m"}'
    )
    assert (
        wire(O.Error("x", "y", None, "m").to_dict())
        == '{"type":"error","code":"x","message":"y","match":"m"}'
    )


def test_match_notices() -> None:
    seats = [
        SeatInfo(account_id=1, name="甲"),
        SeatInfo(account_id=2, name="机器人", bot=make_bot("level3", "m")),
    ]
    players = O.players(seats)
    assert players == [
        {"name": "甲", "bot": False, "level": None},
        {"name": "机器人", "bot": True, "level": 3},
    ]
    new = O.MatchNotice("m", 0, room="r", players=players, hands=None, commitment="c").to_dict()
    assert list(new) == ["type", "match", "seat", "room", "players", "hands", "commitment"]
    assert new["hands"] is None and new["commitment"] == "c"
    resumed = O.MatchNotice("m", 1, room="r", players=players, hands=8, resumed=True).to_dict()
    assert list(resumed) == ["type", "match", "seat", "room", "players", "hands", "resumed"]
    assert resumed["resumed"] is True
    assert wire(O.MatchNotice("m", 1, resumed=True).to_dict()) == (
        '{"type":"match","match":"m","seat":1,"resumed":true}'
    )


def test_match_messages() -> None:
    assert wire(
        O.HandStart(2, 1, "d", "classic64", "r", dealer=0, scores=[3, -3], bean_rate=0).to_dict()
    ) == (
        '{"type":"hand_start","hand_no":2,"seat":1,"digest":"d","rules":"classic64","room":"r",'
        '"dealer":0,"scores":[3,-3],"bean_rate":0}'
    )
    assert (
        wire(O.Event({"type": "draw", "v": 0}).to_dict()) == '{"type":"event","event":{"type":"draw","v":0}}'
    )
    assert wire(O.View({"a": 1}).to_dict()) == '{"type":"view","view":{"a":1}}'
    assert (
        wire(O.Snapshot("m", 4, {"a": 1}).to_dict()) == '{"type":"snapshot","match":"m","v":4,"view":{"a":1}}'
    )
    assert wire(O.Ack("m", 3).to_dict()) == '{"type":"ack","match":"m","seq":3}'
    assert wire(O.Ack("m", 3, dup=True).to_dict()) == '{"type":"ack","match":"m","seq":3,"dup":true}'
    line = {"hand_no": 1, "winner": 1, "how": "escape", "points": [-13, 13]}
    end = O.MatchEnd([5, -5], 2, lines=[line], beans=[-130, 130], winner=1, friend=True).to_dict()
    assert wire(end) == (
        '{"type":"match_end","scores":[5,-5],"hands":2,'
        '"lines":[{"hand_no":1,"winner":1,"how":"escape","points":[-13,13]}],'
        '"beans":[-130,130],"rating":[null,null],"winner":1,"friend":true}'
    )


def test_friend_messages() -> None:
    invite = O.Friend("c" * 16, "123456", "cuopai789", 4, "points", None, 0, 1.5, 0, [None, None]).to_dict()
    assert list(invite) == [
        "type", "code", "number", "url", "rules", "hands", "stakes", "room", "bean_rate", "expires_at",
        "seat", "players", "host",
    ]  # fmt: skip
    assert invite["url"] == "/join/" + "c" * 16 and invite["host"] == 0
    assert O.FriendClosed("expired").to_dict() == {"type": "friend_closed", "reason": "expired"}
    assert O.RematchWant([True, False]).to_dict() == {"type": "rematch", "want": [True, False]}
    assert O.Chat(1, "thanks").to_dict() == {"type": "chat", "seat": 1, "phrase": "thanks"}


def test_hand_end_with_and_without_the_deal_proof() -> None:
    result = HandResult(EndReason.ESCAPE, (-8, 8), escaper=0, points=8)
    proof = {"server_seed": "s", "commitment": "c", "contributions": ["a", ""]}
    end = O.HandEnd(result, "seed", "salt", "dig", 12, [90, 110], [-10, 10], 5, [-8, 8], proof, None)
    first, second = end.to_dict(), end.to_dict()
    assert list(first) == [
        "type",
        "result",
        "seed",
        "salt",
        "digest",
        "record_id",
        "balances",
        "beans",
        "bean_rate",
        "scores",
        "server_seed",
        "commitment",
        "contributions",
        "next_commitment",
    ]
    assert first["result"] == result.to_json() and first["result"] is not second["result"]
    bare = O.HandEnd(result, "seed", "salt", "dig", 12, [90, 110], [-10, 10], 5, [-8, 8], {}, "n").to_dict()
    assert list(bare)[-2:] == ["scores", "next_commitment"] and bare["next_commitment"] == "n"


def test_db_wait_is_a_state_outside_the_stream() -> None:
    assert wire(O.DbWait("m", True).to_dict()) == '{"type":"db_wait","match":"m","waiting":true}'
    assert wire(O.DbWait("m", False).to_dict()) == '{"type":"db_wait","match":"m","waiting":false}'
