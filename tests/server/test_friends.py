"""Friend tables (好友房) through a real server: the invite, codes that seat nobody (made up, expired, full),
the lookup rate limit, a whole 4-hand friend match with its visible score and summary, the rematch, and
quick chat."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx

from .conftest import Client, Running, run_async, start_server, stop_server


async def seated(c: Client, timeout: float = 0.6) -> bool:
    """Whether the client got a ``match`` message (was seated) within ``timeout``."""
    try:
        await c.expect("match", timeout=timeout)
    except TimeoutError:
        return False
    return True


async def create(c: Client, **fields: Any) -> dict[str, Any]:
    await c.send({"type": "friend_create", "rules": "cuopai789", "hands": 4, **fields})
    return await c.expect("friend", "error")


async def play_match(c: Client, match: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Let 托管 play this seat to the match's end, confirming each next hand: the hand_starts and the
    match_end (the hand_ends in ``c.hand_ends``)."""
    starts = []
    c.hand_ends = []  # type: ignore[attr-defined]
    await c.send({"type": "autoplay", "match": match, "on": True})
    await c.send({"type": "next", "match": match})
    while True:
        m = await c.recv(timeout=60)
        if m["type"] == "hand_start":
            starts.append(m)
            await c.send({"type": "autoplay", "match": match, "on": True})
        elif m["type"] == "hand_end":
            c.hand_ends.append(m)  # type: ignore[attr-defined]
            await c.send({"type": "next", "match": match})
        elif m["type"] == "match_end":
            return starts, m


def test_invite_codes_that_seat_nobody(server: Running) -> None:
    running = server

    async def go() -> None:
        if True:
            host, friend, third = Client(running), Client(running), Client(running)
            for c in (host, friend, third):
                await c.connect()
            invite = await create(host)
            assert invite["type"] == "friend", invite
            code, number = invite["code"], invite["number"]
            assert invite["url"] == f"/join/{code}" and len(code) == 16 and len(number) == 6
            assert invite["players"][1] is None and invite["seat"] == 0 and invite["expires_at"] > time.time()
            # a made-up code and a made-up number: not found, nobody seated
            for join in ({"code": "A" * 16}, {"number": "999999" if number != "999999" else "999998"}):
                await friend.send({"type": "friend_join", **join})
                err = await friend.expect("error")
                assert err["code"] == "friend_not_found", err
                assert not await seated(friend)
            # bad input: the socket survives with a clear error
            await friend.send({"type": "friend_join", "code": "short"})
            err = await friend.expect("error")
            assert err["code"] == "bad_message" and "code" in err["message"]
            # the real code seats the friend and the match starts at once
            await friend.send({"type": "friend_join", "code": code})
            assert (await friend.expect("friend"))["players"][1] is not None
            m = await friend.expect("match")
            assert m["seat"] == 1 and m["match"].startswith("fr-") and m["hands"] == 4
            assert (await host.expect("match"))["seat"] == 0
            # full: a third person is refused, by code and by number, and seated nowhere
            for join in ({"code": code}, {"number": number}):
                await third.send({"type": "friend_join", **join})
                err = await third.expect("error")
                assert err["code"] == "friend_full", err
            assert not await seated(third)
            assert httpx.get(f"{running.url}/api/friend/{code}").json()["state"] == "full"
            # cancelled by its creator before anyone came: closed, costs nothing, the code seats nobody
            own = await create(third)
            await third.send({"type": "friend_cancel"})
            assert (await third.expect("friend_closed"))["reason"] == "cancelled"
            await third.send({"type": "friend_cancel"})
            assert (await third.expect("error"))["code"] == "not_friend_table"
            assert httpx.get(f"{running.url}/api/friend/{own['code']}").json()["state"] == "expired"
            await friend.send({"type": "friend_cancel"})  # a table whose match is being played: leave it
            assert (await friend.expect("error"))["code"] == "already_playing"
            for c in (host, friend, third):
                await c.close()

    run_async(go())


def test_an_expired_code_seats_nobody(tmp_path: Path) -> None:
    srv, thread, running = start_server(tmp_path, friend_ttl_s=1.0)
    try:

        async def go() -> None:
            host, late = Client(running), Client(running)
            await host.connect()
            await late.connect()
            lonely = await create(host)
            closed = await host.expect("friend_closed", timeout=5)
            assert closed["reason"] == "expired"
            assert httpx.get(f"{running.url}/api/friend/{lonely['code']}").json()["state"] == "expired"
            for join in ({"code": lonely["code"]}, {"number": lonely["number"]}):
                await late.send({"type": "friend_join", **join})
                assert (await late.expect("error"))["code"] == "friend_expired"
            assert not await seated(late)
            await host.close()
            await late.close()

        run_async(go())
    finally:
        stop_server(srv, thread, running)


def test_lookups_answer_and_are_rate_limited(tmp_path: Path) -> None:
    srv, thread, running = start_server(tmp_path, friend_lookups_per_address=6)
    try:

        async def go() -> None:
            host = Client(running)
            await host.connect()
            invite = await create(host)
            open_ = httpx.get(f"{running.url}/api/friend/{invite['code']}").json()
            assert open_ == {
                "state": "open",
                "code": invite["code"],
                "number": invite["number"],
                "rules": "cuopai789",
                "hands": 4,
                "stakes": "points",
                "room": None,
                "bean_rate": 0,
                "host": open_["host"],
                "pair_cap": running.settings.friend_pair_cap,
            }
            by_number = httpx.get(f"{running.url}/api/friend", params={"number": invite["number"]}).json()
            assert by_number["code"] == invite["code"]
            assert httpx.get(f"{running.url}/api/friend/nothing-here-1234").json() == {"state": "not_found"}
            assert (
                httpx.get(f"{running.url}/api/friend", params={"number": "12"}).json()["state"] == "not_found"
            )
            assert httpx.get(f"{running.url}/api/friend").status_code == 400
            for _ in range(2):  # 6 in all
                assert httpx.get(f"{running.url}/api/friend/{invite['code']}").status_code == 200
            over = httpx.get(f"{running.url}/api/friend/{invite['code']}")
            assert over.status_code == 429 and over.json()["error"] == "friend_rate"
            # the socket's joins count against the same address
            guesser = Client(running)
            await guesser.connect()
            await guesser.send({"type": "friend_join", "code": invite["code"]})
            assert (await guesser.expect("error"))["code"] == "friend_rate"
            assert not await seated(guesser)
            await host.close()
            await guesser.close()

        run_async(go())
    finally:
        stop_server(srv, thread, running)


def test_a_four_hand_friend_match_to_the_end_then_a_rematch(server: Running) -> None:
    async def go() -> None:
        host, friend = Client(server), Client(server)
        welcome = [await host.connect(), await friend.connect()]
        invite = await create(host)
        await friend.send({"type": "friend_join", "number": invite["number"]})
        mh, mf = await host.expect("match"), await friend.expect("match")
        assert mh["match"] == mf["match"] and mh["hands"] == 4
        (starts, end), (_, end_f) = await asyncio.gather(
            play_match(host, mh["match"]), play_match(friend, mf["match"])
        )
        # the match one can see: hand k of 4, the dealer, the running score before each hand
        assert [s["hand_no"] for s in starts] == [1, 2, 3, 4]
        assert all(s["dealer"] in (0, 1) for s in starts)
        assert starts[0]["scores"] == [0, 0]
        assert {**end, "v": 0} == {**end_f, "v": 0}  # (each seat's stream has its own version)
        assert end["hands"] == 4 and end["friend"] is True and len(end["lines"]) == 4
        total = [sum(ln["points"][i] for ln in end["lines"]) for i in (0, 1)]
        assert total == end["scores"]
        assert all(line["how"] in ("self_draw", "discard", "draw") for line in end["lines"])
        running = [0, 0]
        for line, start in zip(end["lines"], starts, strict=True):
            assert start["scores"] == running
            running = [running[i] + line["points"][i] for i in (0, 1)]
        assert end["winner"] == (None if total[0] == total[1] else (0 if total[0] > total[1] else 1))
        # points only: no beans moved, no rating
        assert end["beans"] == [0, 0] and end["rating"] == [None, None]
        me = [
            httpx.get(server.url + "/api/me", headers={"Authorization": f"Bearer {c.token}"}).json()
            for c in (host, friend)
        ]
        assert [m["balance"] for m in me] == [w["balance"] for w in welcome]
        # rematch: both press, a new match at the same table (no new link)
        await host.send({"type": "rematch"})
        assert (await host.expect("rematch"))["want"] == [True, False]
        assert (await friend.expect("rematch"))["want"] == [True, False]
        await friend.send({"type": "rematch"})
        assert (await friend.expect("rematch"))["want"] == [True, True]
        again_h, again_f = await host.expect("match"), await friend.expect("match")
        assert again_h["match"] == again_f["match"] != mh["match"]
        assert again_h["seat"] == 0 and again_h["hands"] == 4
        await host.send({"type": "next", "match": again_h["match"]})
        await friend.send({"type": "next", "match": again_f["match"]})
        first = await friend.expect("hand_start", timeout=15)
        assert first["hand_no"] == 1 and first["scores"] == [0, 0]
        assert httpx.get(f"{server.url}/api/friend/{invite['code']}").json()["state"] == "full"
        await host.close()
        await friend.close()

    run_async(go())


async def friends_at_table(running: Running, **create_fields: Any) -> tuple[Client, Client, str]:
    """A host and a friend seated at a new friend table: (host, friend, match id)."""
    host, friend = Client(running), Client(running)
    host.welcome = await host.connect()  # type: ignore[attr-defined]
    friend.welcome = await friend.connect()  # type: ignore[attr-defined]
    invite = await create(host, **create_fields)
    assert invite["type"] == "friend", invite
    await friend.send({"type": "friend_join", "code": invite["code"]})
    m = await host.expect("match")
    await friend.expect("match")
    return host, friend, m["match"]


def balance(running: Running, c: Client) -> int:
    me = httpx.get(running.url + "/api/me", headers={"Authorization": f"Bearer {c.token}"}).json()
    return int(me["balance"])


def test_quick_chat_is_rate_limited_and_bots_never_chat(server: Running) -> None:
    async def go() -> None:
        host, friend, match = await friends_at_table(server)
        for c in (host, friend):
            await c.send({"type": "next", "match": match})
        for c in (host, friend):
            await c.expect("hand_start", timeout=15)
        await host.send({"type": "chat", "phrase": "hurry"})
        got = [await c.expect("chat") for c in (host, friend)]
        assert got[0] == got[1] == {"type": "chat", "seat": 0, "phrase": "hurry"}  # (no stream version)
        await host.send({"type": "chat", "phrase": "thanks"})  # within 3 s: dropped, with a clear error
        err = await host.expect("error")
        assert err["code"] == "chat_rate", err
        await friend.send({"type": "chat", "phrase": "smile"})  # (each player has their own clock)
        assert (await host.expect("chat")) == {"type": "chat", "seat": 1, "phrase": "smile"}
        await friend.send({"type": "chat", "phrase": "free text"})  # no free text
        err = await friend.expect("error")
        assert err["code"] == "bad_message" and "phrase" in err["message"]
        await friend.send({"type": "chat", "phrase": "oops", "to": 0})
        assert (await friend.expect("error"))["code"] == "bad_message"
        # the table goes on: the match is still there for both
        await host.send({"type": "resync", "match": match, "version": -1})
        assert (await host.expect("snapshot"))["match"] == match
        # a bot is no one to chat with
        solo = Client(server)
        await solo.connect()
        await solo.send({"type": "queue", "room": "cuopai-novice", "opponent": "bot"})
        await solo.expect("match")
        await solo.send({"type": "chat", "phrase": "hurry"})
        assert (await solo.expect("error"))["code"] == "no_opponent"
        for c in (host, friend, solo):
            await c.close()

    run_async(go())
    # chat is not part of any game record
    server.assert_no_traceback()


def test_an_escape_is_an_escape_not_a_draw(server: Running) -> None:
    async def go() -> dict[str, Any]:
        host, friend, match = await friends_at_table(server)
        await host.send({"type": "next", "match": match})
        await friend.send({"type": "next", "match": match})
        await friend.expect("hand_start", timeout=15)
        await friend.send({"type": "leave", "match": match})  # during the hand: 逃跑
        end = await host.expect("match_end", timeout=15)
        games = httpx.get(server.url + "/api/games", headers={"Authorization": f"Bearer {host.token}"}).json()
        await host.close()
        await friend.close()
        return {"end": end, "games": games}

    got = run_async(go())
    end = got["end"]
    assert end["lines"] == [{"hand_no": 1, "winner": 0, "how": "escape", "points": end["lines"][0]["points"]}]
    assert end["winner"] == 0
    games = got["games"]["games"] if isinstance(got["games"], dict) else got["games"]
    assert games and games[0]["summary"]["reason"] == "escape" and games[0]["summary"]["how"] == "escape"


def test_a_bean_friend_table_settles_exactly_and_the_pair_cap_holds(tmp_path: Path) -> None:
    cap = 40
    hands: list[dict[str, Any]] = []
    srv, thread, running = start_server(tmp_path, friend_pair_cap=cap)
    try:
        # the form and a bean table's card say the setting's cap and the rate (GET /api/rooms, /api/friend)
        assert httpx.get(f"{running.url}/api/rooms").json()["friend_pair_cap"] == cap
        rate = next(
            r["bean_rate"]
            for r in httpx.get(f"{running.url}/api/rooms").json()["rooms"]
            if r["id"] == "cuopai-novice"
        )

        async def card() -> dict[str, Any]:
            c = Client(running)
            await c.connect()
            invite = await create(c, stakes="beans", room="cuopai-novice")
            got = httpx.get(f"{running.url}/api/friend/{invite['code']}").json()
            await c.send({"type": "friend_cancel"})
            await c.close()
            return dict(got)

        got = run_async(card())
        assert (got["stakes"], got["room"], got["bean_rate"], got["pair_cap"]) == (
            "beans",
            "cuopai-novice",
            rate,
            cap,
        )

        async def go() -> tuple[list[dict[str, Any]], list[int], list[int], str]:
            host, friend, match = await friends_at_table(running, stakes="beans", room="cuopai-novice")
            before = [c.welcome["balance"] for c in (host, friend)]  # type: ignore[attr-defined]
            ends: list[dict[str, Any]] = []
            while True:  # matches until the pair's cap for the day is used up
                (_, end), _ = await asyncio.gather(play_match(host, match), play_match(friend, match))
                ends.append(end)
                hands.extend(host.hand_ends)  # type: ignore[attr-defined]
                await host.send({"type": "rematch"})
                reply = await host.expect("rematch", "error")
                if reply["type"] == "error":
                    assert reply["code"] == "pair_cap", reply
                    break
                await friend.send({"type": "rematch"})
                match = (await host.expect("match"))["match"]
                await friend.expect("match")
                assert len(ends) < 6, "the cap never ran out"
            after = [balance(running, c) for c in (host, friend)]
            await host.close()
            await friend.close()
            return ends, before, after, host.token

        ends, before, after, _ = run_async(go())
    finally:
        stop_server(srv, thread, running)
    seen = [(e["beans"], e["lines"], e["hands"]) for e in ends], [h["beans"] for h in hands], before, after
    moved = [sum(e["beans"][i] for e in ends) for i in (0, 1)]
    assert moved[0] == -moved[1], seen  # beans move between the two, none appear or vanish
    assert [a - b for a, b in zip(after, before, strict=True)] == moved, seen  # exactly what match_end said
    assert sum(abs(h["beans"][0]) for h in hands) == cap, seen  # the cap used up, never passed
    assert [sum(h["beans"][0] for h in hands), sum(h["beans"][1] for h in hands)] == moved
    assert all(e["rating"][0] is not None for e in ends), seen  # bean friend tables are rated like rooms
    from erma.cli import main

    assert main(["ledger", "check", "--db", str(tmp_path / "erma.db")]) == 0
