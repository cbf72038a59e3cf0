"""The web client's side of the friend protocol (docs/protocol.md, issue 35), fed the protocol's messages
itself so that it is checked apart from the server's side: what the friend form and the join page send, the
invite a `friend` message shows, the refusal pages (not found / expired / full) that seat no one, chat bubbles
by the sender's seat with mute and the gentle `chat_rate`, and the result screen of a friend match from a
`match_end` with lines, beans and ratings (an escape shown as an escape), 再来一局 with who has asked. At
390×844 in both languages. (tests/web/test_friend.py plays the same flow against the real server.)"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest

from tests.server.conftest import Running
from tests.web.conftest import Page
from tests.web.test_table import fits, touch_targets, translated

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# every message the page sends on its socket (net.send, queued or not), kept in window.__sent
SPY = """async () => {
  const m = await import(new URL("socket.js", document.baseURI).href);
  if (m.net.__spied) return;
  const send = m.net.send.bind(m.net);
  m.net.send = (msg) => { (window.__sent ||= []).push(msg); send(msg); };
  m.net.__spied = true;
}"""
# the real bot match goes quiet (its socket closed for good) before the fed messages
STOP = """async () => (await import(new URL("socket.js", document.baseURI).href)).net.close()"""
FEED = """async (msg) => {
  const m = await import(new URL("extras.js", document.baseURI).href);
  m.receive(msg);
}"""
CODE = "Zx8Qm2r_Tk4-Pa9W"


def tap(p: Page, selector: str) -> None:
    """Click a button of the table, which the stream re-draws under the pointer many times a second."""
    p.page.wait_for_selector(selector)
    p.page.eval_on_selector(selector, "(b) => b.click()")


def phone(browser: Any, url: str, lang: str = "zh") -> Page:
    return Page(browser, url, width=390, height=844, touch=True, lang=lang)


def sent(p: Page, kind: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = p.page.evaluate(
        "(k) => (window.__sent || []).filter((m) => m.type === k)", kind
    )
    return out


def feed(p: Page, msg: dict[str, Any]) -> None:
    p.page.evaluate(FEED, msg)


def guest(p: Page) -> None:
    p.page.goto(p.url)
    p.page.click("[data-testid=guest]")
    p.page.wait_for_selector("[data-testid=balance]")
    p.page.wait_for_function("() => window.erma.state.rooms.length > 0")
    p.page.evaluate(SPY)


def fits_both_ways(p: Page, where: str) -> None:
    """Nothing outside the screen at 390×844, nor turned sideways (844×390)."""
    fits(p, where)
    p.page.set_viewport_size({"width": 844, "height": 390})
    p.page.wait_for_timeout(100)
    fits(p, f"{where}, landscape")
    p.page.set_viewport_size({"width": 390, "height": 844})
    p.page.wait_for_timeout(100)


def serve_join(p: Page, url: str) -> None:
    """/join/<code> answered with the client page (as the server does), whatever this server's version."""
    page = httpx.get(url + "/", timeout=5).text
    p.page.route("**/join/*", lambda r: r.fulfill(status=200, content_type="text/html", body=page))


def friend_msg(seat: int, players: list[Any], expires: float | None) -> dict[str, Any]:
    return {
        "type": "friend",
        "code": CODE,
        "number": "407215",
        "url": f"/join/{CODE}",
        "rules": "cuopai789",
        "hands": 4,
        "stakes": "points",
        "room": None,
        "bean_rate": None,
        "expires_at": expires,
        "seat": seat,
        "players": players,
        "host": 0,
    }


def test_the_form_sends_the_protocols_create_and_a_friend_message_shows_the_invite(
    browser: Any, web_server: Running
) -> None:
    p = phone(browser, web_server.url)
    try:
        guest(p)
        p.page.click("[data-testid=friend-open]")
        p.page.select_option("[data-testid=friend-rules]", "wenzhou2p")
        p.page.check("[data-testid=hands-16]")
        p.page.check("[data-testid=stakes-beans]")
        room = p.page.input_value("[data-testid=friend-room]")
        assert room == "web-wenzhou"  # the bean rooms of the chosen rules
        assert "20000" in p.page.inner_text("[data-testid=pair-cap]")
        fits_both_ways(p, "form")
        touch_targets(p)
        p.shot("client-friend-form")
        p.page.click("[data-testid=friend-create]")
        p.page.wait_for_function("() => (window.__sent || []).some((m) => m.type === 'friend_create')")
        assert sent(p, "friend_create") == [
            {
                "type": "friend_create",
                "rules": "wenzhou2p",
                "hands": 16,
                "stakes": "beans",
                "room": "web-wenzhou",
            }
        ]
        me = p.page.evaluate("() => window.erma.state.account.name")
        p.page.wait_for_timeout(300)  # (this server does not know friend_create: its error comes first)
        feed(p, friend_msg(0, [{"name": me, "bot": False}, None], time.time() + 1800))
        p.page.wait_for_selector("[data-testid=invite]")
        assert p.page.input_value("[data-testid=invite-link]") == f"{web_server.url}/join/{CODE}"
        assert p.page.inner_text("[data-testid=invite-number]") == "407215"
        fits_both_ways(p, "invite")
        touch_targets(p)
        translated(p, "invite")
        p.shot("client-friend-invite")
        p.page.click("[data-testid=friend-cancel]")
        assert sent(p, "friend_cancel") == [{"type": "friend_cancel"}]
        feed(p, {"type": "friend_closed", "reason": "cancelled"})
        p.page.wait_for_selector("[data-testid=lobby]")
    finally:
        p.close()


@pytest.mark.parametrize("state", ["not_found", "expired", "full"])
def test_refused_codes_get_their_page_and_seat_no_one(browser: Any, web_server: Running, state: str) -> None:
    p = phone(browser, web_server.url, lang="en")
    try:
        body = (
            {"state": state} if state == "not_found" else {"state": state, "code": CODE, "rules": "classic64"}
        )
        p.page.route(
            f"**/api/friend/{CODE}",
            lambda r: r.fulfill(status=200, content_type="application/json", body=json.dumps(body)),
        )
        serve_join(p, web_server.url)
        p.page.goto(f"{web_server.url}/join/{CODE}")
        p.page.wait_for_selector(f"[data-testid=join][data-state={state}]")
        p.page.evaluate(SPY)
        text = p.page.inner_text("[data-testid=join]")
        assert {"not_found": "not found", "expired": "expired", "full": "full"}[state] in text, text
        assert p.page.locator("[data-testid=join-go], [data-testid=join-guest]").count() == 0
        assert sent(p, "friend_join") == [] and p.page.evaluate("() => window.erma.state.match") is None
        fits(p, state)
        p.shot(f"client-join-{state}")
    finally:
        p.close()
    assert p.errors == [], p.errors


def test_the_join_page_is_two_presses_and_a_refusal_at_join_is_said(
    browser: Any, web_server: Running
) -> None:
    p = phone(browser, web_server.url)
    try:
        info = {
            "state": "open",
            "code": CODE,
            "number": "407215",
            "rules": "cuopai789",
            "hands": 8,
            "stakes": "points",
            "host": "阿明",
        }
        p.page.route(
            f"**/api/friend/{CODE}",
            lambda r: r.fulfill(status=200, content_type="application/json", body=json.dumps(info)),
        )
        serve_join(p, web_server.url)
        p.page.goto(f"{web_server.url}/join/{CODE}")
        p.page.wait_for_selector("[data-testid=join][data-state=open]")
        p.page.evaluate(SPY)
        card = p.page.inner_text("[data-testid=join]")
        assert "阿明" in card and "8 局" in card and "只计分" in card, card
        fits_both_ways(p, "join card")
        touch_targets(p)
        p.shot("client-join-card")
        p.page.click("[data-testid=join-guest]")  # press 1
        p.page.click("[data-testid=join-go]")  # press 2
        p.page.wait_for_function("() => (window.__sent || []).some((m) => m.type === 'friend_join')")
        assert sent(p, "friend_join") == [{"type": "friend_join", "code": CODE}]
        p.page.wait_for_timeout(300)
        feed(p, {"type": "error", "code": "friend_full", "message": "the table is full"})
        p.page.wait_for_selector("[data-testid=join][data-state=full]")
        assert "已满" in p.page.inner_text("[data-testid=join]")
    finally:
        p.close()


def test_chat_bubbles_mute_and_the_result_of_a_friend_match(browser: Any, web_server: Running) -> None:
    p = phone(browser, web_server.url)
    try:
        guest(p)
        p.page.click(".room[data-room=web-classic] [data-testid=bot]")
        p.page.wait_for_function("() => window.erma.state.view && window.erma.state.view.hand")
        assert p.page.locator("[data-testid=chat-open]").count() == 0  # bots never chat
        p.page.evaluate(STOP)  # (the bot's table goes quiet: what follows is fed)
        # the opponent made a person (a friend table), the table drawn again
        p.page.evaluate(
            "() => { const s = window.erma.state; const o = 1 - s.match.seat;"
            " for (const ps of [s.match.players, s.view.players])"
            "   if (ps && ps[o]) { ps[o].bot = false; ps[o].name = '阿明'; }"
            " window.erma.render(); }"
        )
        seat = p.page.evaluate("() => window.erma.state.match.seat")
        p.page.wait_for_selector("[data-testid=chat-open]")
        fits_both_ways(p, "table with the chat button")
        touch_targets(p)
        tap(p, "[data-testid=chat-open]")
        fits(p, "chat panel")
        touch_targets(p)
        p.shot("client-chat-panel")
        tap(p, "[data-testid=chat-hurry]")
        assert sent(p, "chat") == [{"type": "chat", "phrase": "hurry"}]
        feed(p, {"type": "chat", "seat": 1 - seat, "phrase": "well_played"})
        bubble = p.page.locator("[data-testid=bubble-opp]")
        assert bubble.inner_text() == "打得好"
        p.shot("client-chat-bubble")
        opp_name = p.page.locator(".seat.opp .who").bounding_box()
        box = bubble.bounding_box()
        assert opp_name and box and box["y"] >= opp_name["y"] + opp_name["height"] - 1  # by the sender's name
        feed(p, {"type": "error", "code": "chat_rate", "message": "one chat per 3 s"})
        assert "3 秒" in p.page.inner_text("#toast")
        tap(p, "[data-testid=chat-open]")
        tap(p, "[data-testid=chat-mute]")
        tap(p, "[data-testid=chat-close]")
        p.page.evaluate("() => document.querySelectorAll('.chat-bubble').forEach((b) => b.remove())")
        feed(p, {"type": "chat", "seat": 1 - seat, "phrase": "angry"})
        assert p.page.locator("[data-testid=bubble-opp]").count() == 0  # muted
        feed(p, {"type": "chat", "seat": seat, "phrase": "thumbs"})
        assert p.page.inner_text("[data-testid=bubble-me]") == "👍"  # (one's own still shows)

        # the match ends (the protocol's match_end of a rated bean friend table): the result screen
        match = p.page.evaluate("() => window.erma.state.match.id")
        me = seat
        pts = lambda a, b: [a, b] if me == 0 else [b, a]  # noqa: E731 (points as [mine, theirs] → by seat)
        feed(
            p,
            {
                "type": "match_end",
                "match": match,
                "scores": pts(30, -30),
                "hands": 3,
                "friend": True,
                "winner": me,
                "lines": [
                    {"hand_no": 1, "winner": me, "how": "self_draw", "points": pts(24, -24)},
                    {"hand_no": 2, "winner": None, "how": "draw", "points": [0, 0]},
                    {"hand_no": 3, "winner": me, "how": "escape", "points": pts(6, -6)},
                ],
                "beans": pts(300, -300),
                "rating": [{"before": 25.0, "after": 26.34}, {"before": 27.5, "after": 26.1}],
            },
        )
        p.page.wait_for_selector("[data-testid=result]")
        rows = p.page.eval_on_selector_all(
            "[data-testid=result-lines] tr.line", "rs => rs.map((r) => [r.dataset.how, r.innerText])"
        )
        assert [r[0] for r in rows] == ["self_draw", "draw", "escape"]
        assert "阿明 逃跑" in rows[2][1] and "流局" not in rows[2][1]  # an escape, not a draw
        assert "+24" in rows[0][1] and "+30" in p.page.inner_text("[data-testid=result-lines] tr.total")
        assert "+300" in p.page.inner_text("[data-testid=result-beans]")
        rating = p.page.inner_text("[data-testid=result-rating]")
        assert "+1.3" in rating and "25.0 → 26.3" in rating and "-1.4" in rating, rating
        assert "你赢了" in p.page.inner_text("[data-testid=result-winner]")
        fits_both_ways(p, "result")
        touch_targets(p)
        translated(p, "result")
        p.page.click("[data-testid=rematch]")
        assert sent(p, "rematch") == [{"type": "rematch"}]
        assert p.page.is_disabled("[data-testid=rematch]")
        feed(p, {"type": "rematch", "want": [me == 0, me == 1]})
        feed(p, {"type": "rematch", "want": [True, True]})
        assert "对手想再来一局" in p.page.inner_text("[data-testid=rematch-status]")
        p.shot("client-result", full_page=True)
        p.page.click("[data-testid=lang]")
        p.page.wait_for_selector("[data-testid=result]")
        assert "Amin" not in p.page.inner_text("[data-testid=result]")
        assert "阿明 escaped" in p.page.inner_text("[data-testid=result-lines]")
        fits(p, "result (English)")
        translated(p, "result (English)")
    finally:
        p.close()


def test_a_rate_limited_lookup_says_so(browser: Any, web_server: Running) -> None:
    p = phone(browser, web_server.url, lang="en")
    try:
        body = json.dumps({"error": "friend_rate", "message": "too many friend look-ups"})
        p.page.route(
            f"**/api/friend/{CODE}",
            lambda r: r.fulfill(status=429, content_type="application/json", body=body),
        )
        serve_join(p, web_server.url)
        p.page.goto(f"{web_server.url}/join/{CODE}")
        p.page.wait_for_selector("[data-testid=join][data-state=rate]")
        assert "Too many look-ups" in p.page.inner_text("[data-testid=join]")
        assert p.page.locator("[data-testid=join-go], [data-testid=join-guest]").count() == 0
        fits(p, "rate limited")
    finally:
        p.close()
    # (the browser logs the 429 itself; nothing else)
    assert all("429" in e for e in p.errors), p.errors
