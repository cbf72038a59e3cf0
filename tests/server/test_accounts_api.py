"""The account endpoints: guest upgrade keeping beans and history, log out one session or everywhere,
sign-up and login rate limits (429 naming the limit), and a played hand rated in its settlement."""

from __future__ import annotations

from pathlib import Path

import httpx

from erma.server.auth_limits import Limit, Limiter, Refused

from .conftest import Client, Running, run_async, start_server
from .test_protocol import play_until_hand_end


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_guest_plays_upgrades_and_keeps_beans_history_and_rating(server: Running) -> None:
    async def go() -> tuple[str, dict, int]:
        c = Client(server)
        await c.connect()
        await c.send({"type": "queue", "room": "cuopai-novice", "opponent": "bot"})
        m = await c.expect("match")
        end = await play_until_hand_end(c, m["match"], m["seat"])
        await c.send({"type": "leave", "match": m["match"]})
        await c.expect("match_end")
        await c.close()
        return c.token, end, m["seat"]

    token, end, seat = run_async(go())
    me = httpx.get(server.url + "/api/me", headers=auth(token)).json()
    guest_name = me["account"]["name"]
    games = httpx.get(server.url + "/api/games", headers=auth(token)).json()["games"]
    assert len(games) == 1
    before = httpx.get(server.url + f"/api/players/{guest_name}").json()["families"]["standard"]
    assert before["hands_played"] == 1  # rated in the hand's settlement
    result = end["result"]
    won = result.get("winner") == seat or (result["reason"] == "escape" and result["escaper"] != seat)
    assert before["wins"] == int(won)

    r = httpx.post(
        server.url + "/api/upgrade", json={"name": "Phoenix", "password": "rise again"}, headers=auth(token)
    )
    assert r.status_code == 200, r.text
    assert r.json()["account"] == {"id": me["account"]["id"], "name": "Phoenix", "guest": False}
    after = httpx.get(server.url + "/api/me", headers=auth(token)).json()  # the same session goes on
    assert after["balance"] == me["balance"] and after["history"] == me["history"]
    assert httpx.get(server.url + "/api/games", headers=auth(token)).json()["games"] == games
    profile = httpx.get(server.url + "/api/players/phoenix").json()
    assert profile["name"] == "Phoenix" and not profile["guest"]
    assert profile["families"]["standard"] == before
    assert httpx.get(server.url + f"/api/players/{guest_name}").status_code == 404
    again = httpx.post(
        server.url + "/api/upgrade", json={"name": "Other", "password": "rise again"}, headers=auth(token)
    )
    assert again.status_code == 400 and again.json()["error"] == "not_a_guest"
    login = httpx.post(server.url + "/api/login", json={"name": "Phoenix", "password": "rise again"})
    assert login.status_code == 200 and login.json()["balance"] == me["balance"]


def test_logout_and_logout_everywhere(server: Running) -> None:
    r = httpx.post(server.url + "/api/register", json={"name": "Leaver", "password": "see you"})
    first = r.json()["token"]
    second = httpx.post(server.url + "/api/login", json={"name": "Leaver", "password": "see you"}).json()[
        "token"
    ]
    third = httpx.post(server.url + "/api/login", json={"name": "Leaver", "password": "see you"}).json()[
        "token"
    ]
    assert httpx.post(server.url + "/api/logout", headers=auth(first)).json() == {"ended": True}
    assert httpx.get(server.url + "/api/me", headers=auth(first)).status_code == 401
    assert httpx.get(server.url + "/api/me", headers=auth(second)).status_code == 200
    assert httpx.post(server.url + "/api/logout_all", headers=auth(second)).json() == {"revoked": 2}
    for token in (second, third):
        assert httpx.get(server.url + "/api/me", headers=auth(token)).status_code == 401
    assert httpx.post(server.url + "/api/logout", headers=auth(second)).status_code == 401
    assert httpx.post(server.url + "/api/logout_all").status_code == 401


def test_signup_and_login_are_rate_limited(tmp_path: Path) -> None:
    srv, thread, running = start_server(tmp_path, signup_per_address=3, login_per_address=4, auth_window_s=60)
    try:
        url = running.url
        codes = [
            httpx.post(url + "/api/register", json={"name": f"Spam{i}", "password": "spam spam"}).status_code
            for i in range(4)
        ]
        assert codes == [200, 200, 200, 429]
        r = httpx.post(url + "/api/register", json={"name": "Spam9", "password": "spam spam"})
        body = r.json()
        assert (
            r.status_code == 429 and body["error"] == "rate_limited" and body["limit"] == "signup_per_address"
        )
        assert "sign-ups from this address" in body["message"] and int(r.headers["Retry-After"]) >= 1
        tries = [
            httpx.post(url + "/api/login", json={"name": "Spam0", "password": "wrong"}) for _ in range(2)
        ]
        assert [t.status_code for t in tries] == [401, 401]
        # failures lock nobody out (tests/server/test_lockout.py): the right password still works
        assert (
            httpx.post(url + "/api/login", json={"name": "Spam0", "password": "spam spam"}).status_code == 200
        )
        # four counted from this address (refused attempts do not count): the fifth is refused
        assert (
            httpx.post(url + "/api/login", json={"name": "Spam1", "password": "spam spam"}).status_code == 200
        )
        last = httpx.post(url + "/api/login", json={"name": "Spam2", "password": "spam spam"})
        assert last.status_code == 429 and last.json()["limit"] == "login_per_address"
    finally:
        srv.should_exit = True
        thread.join(10)


def test_limiter_windows_slide() -> None:
    now = [0.0]
    lim = Limiter(clock=lambda: now[0])
    per = Limit("x", 2, 10.0, "tries")
    lim.check((per, "a"))
    lim.check((per, "a"))
    try:
        lim.check((per, "a"))
        raise AssertionError("not refused")
    except Refused as r:
        assert r.retry_after == 10 and r.body()["limit"] == "x"
    lim.check((per, "b"))  # another key
    now[0] = 10.5
    lim.check((per, "a"))  # the first attempts left the window
    off = Limit("off", 0, 10.0, "tries")
    for _ in range(100):
        lim.check((off, "a"))


def test_sessions_expire_by_the_server_setting(tmp_path: Path) -> None:
    import time

    srv, thread, running = start_server(tmp_path, session_ttl_s=3.0)
    try:
        token = httpx.post(running.url + "/api/guest").json()["token"]
        assert httpx.get(running.url + "/api/me", headers=auth(token)).status_code == 200
        time.sleep(4.1)  # SQLite's CURRENT_TIMESTAMP has whole seconds: an expiry is exact to within 1 s
        r = httpx.get(running.url + "/api/me", headers=auth(token))
        assert r.status_code == 401 and r.json()["error"] == "not_authenticated"
    finally:
        srv.should_exit = True
        thread.join(10)
