"""好友房 on two phones (issue 35, must show): two separate browser contexts at 390×844. A opens a 4-hand
friend table; B, on a fresh browser, sits down from the link alone in two presses (enter as guest, 加入 /
Join) and the first hand is dealt; quick chat goes across (a bubble by the sender's name), mute silences it,
too fast is said; 托管 plays the whole match; both see the result screen, both press 再来一局 / Rematch and
the second match's first hand is dealt. A third browser finds the table full; made-up and cancelled codes are
refused without seating anyone. What a player feels: nothing outside the 390 px screen, 44 px targets, both
languages. Screenshots of the invite, the running score and the result go to docs/screenshots/ by hand."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import pytest

from tests.server.conftest import Running
from tests.web.conftest import ROOMS, Page, serve
from tests.web.test_table import fits, touch_targets, translated

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HANDS = 4
DEALT = (
    "() => { const s = window.erma.state; return s.screen === 'table' && Boolean(s.view && s.view.hand); }"
)
SEE = """() => {
  const s = window.erma.state;
  const text = (sel) => { const e = document.querySelector(sel); return e ? e.textContent : null; };
  return {screen: s.screen, hand: s.view ? s.view.hand_no : null, match: s.match ? s.match.id : null,
          handOf: text('[data-testid=hand-of]'), me: text('[data-testid=score-me]'),
          opp: text('[data-testid=score-opp]')};
}"""


@pytest.fixture(scope="module")
def friend_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    yield from serve(
        tmp_path_factory,
        "friend",
        ROOMS,
        bot_pause_s=0.02,
        claim_window_s=0.02,
        timeouts=True,
        time_scale=1.0,
    )


def tap(p: Page, selector: str) -> None:
    """Click a button of the table, which the stream re-draws under the pointer many times a second."""
    p.page.wait_for_selector(selector)
    p.page.eval_on_selector(selector, "(b) => b.click()")


def phone(browser: Any, url: str, lang: str = "zh") -> Page:
    return Page(browser, url, width=390, height=844, touch=True, lang=lang)


def settle(p: Page) -> None:
    p.page.evaluate("() => document.getAnimations().forEach((a) => { try { a.finish(); } catch (e) {} })")
    p.page.wait_for_timeout(150)


def open_table(a: Page, hands: int = HANDS) -> tuple[str, str]:
    """A (signed in) opens a points-only friend table of `hands` hands: its invite link and 房间号."""
    a.page.click("[data-testid=friend-open]")
    a.page.wait_for_selector("[data-testid=friend-form]")
    a.page.select_option("[data-testid=friend-rules]", "classic64")  # (the quickest hands to watch)
    a.page.check(f"[data-testid=hands-{hands}]")
    assert a.page.is_checked("[data-testid=stakes-points]")  # points only is the default
    a.page.click("[data-testid=friend-create]")
    a.page.wait_for_selector("[data-testid=invite]")
    link = a.page.input_value("[data-testid=invite-link]")
    number = a.page.inner_text("[data-testid=invite-number]")
    return link, number


def guest(p: Page) -> str:
    p.page.goto(p.url)
    p.page.click("[data-testid=guest]")
    p.page.wait_for_selector("[data-testid=balance]")
    name: str = p.page.evaluate("() => window.erma.state.account.name")
    return name


def toast_text(p: Page) -> str:
    text: str = p.page.evaluate(
        "() => { const t = document.querySelector('#toast'); return t.hidden ? '' : t.textContent; }"
    )
    return text


def test_two_phones_play_a_friend_match_and_a_rematch(browser: Any, friend_server: Running) -> None:
    a = phone(browser, friend_server.url, "zh")
    b = phone(browser, friend_server.url, "en")
    c = phone(browser, friend_server.url, "zh")
    try:
        host = guest(a)
        # ---------------------------------------------------------------- A: the form and the invite
        a.page.click("[data-testid=friend-open]")
        a.page.wait_for_selector("[data-testid=friend-form]")
        presets = a.page.eval_on_selector_all(
            "[data-testid=friend-rules] option", "os => os.map((o) => o.value)"
        )
        assert set(presets) >= {"cuopai789", "classic64", "wushuang128", "wenzhou2p"}  # every preset
        a.page.check("[data-testid=stakes-beans]")
        assert "豆" in a.page.inner_text("[data-testid=pair-cap]")  # the daily pair cap, said on the form
        assert a.page.locator("[data-testid=friend-room] option").count() >= 1
        fits(a, "friend form")
        touch_targets(a)
        a.page.check("[data-testid=stakes-points]")
        a.page.click("[data-testid=friend-back]")
        link, number = open_table(a)
        path = urlparse(link).path
        code = path.removeprefix("/join/")
        assert path.startswith("/join/") and re.fullmatch(r"[A-Za-z0-9_-]{11,}", code), (
            link
        )  # ≥ 64 random bits
        assert re.fullmatch(r"\d{6}", number), number
        assert a.page.locator("[data-testid=invite-copy]").count() == 1
        fits(a, "invite")
        touch_targets(a)
        translated(a, "invite")
        settle(a)
        a.shot("friend-invite-phone")
        a.page.click("[data-testid=lang]")
        settle(a)
        assert "Room number" in a.page.inner_text("[data-testid=invite]")
        fits(a, "invite (English)")
        a.shot("friend-invite-phone-en")
        a.page.click("[data-testid=lang]")

        # ---------------------------------------------------------------- B: from the link alone, two presses
        b.page.goto(link)
        b.page.wait_for_selector("[data-testid=join][data-state=open]")
        card = b.page.inner_text("[data-testid=join]")
        assert host in card and "4 hands" in card and "Points only" in card, card
        fits(b, "join card")
        touch_targets(b)
        settle(b)
        b.shot("friend-join-phone-en")
        presses = 0
        b.page.click("[data-testid=join-guest]")
        presses += 1
        b.page.click("[data-testid=join-go]")
        presses += 1
        b.page.wait_for_function(DEALT, timeout=20000)
        a.page.wait_for_function(DEALT, timeout=20000)
        assert presses == 2
        first = a.page.evaluate("() => window.erma.state.match.id")
        assert b.page.evaluate("() => window.erma.state.match.id") == first

        # a third browser finds the table full, and sits nowhere
        c.page.goto(link)
        c.page.wait_for_selector("[data-testid=join][data-state=full]")
        assert "已满" in c.page.inner_text("[data-testid=join]")
        assert c.page.evaluate("() => window.erma.state.match") is None

        # ---------------------------------------------------------------- quick chat, mute, too fast
        tap(a, "[data-testid=chat-open]")
        fits(a, "chat panel")
        tap(a, "[data-testid=chat-well_played]")
        b.page.wait_for_selector("[data-testid=bubble-opp][data-phrase=well_played]")
        assert b.page.inner_text("[data-testid=bubble-opp]") == "Well played"
        a.page.wait_for_selector("[data-testid=bubble-me]")
        tap(a, "[data-testid=chat-open]")
        tap(a, "[data-testid=chat-thanks]")  # within 3 s of the first: dropped, said gently
        a.page.wait_for_function("() => !document.querySelector('#toast').hidden")
        assert "3" in toast_text(a), toast_text(a)
        tap(b, "[data-testid=chat-open]")
        tap(b, "[data-testid=chat-mute]")
        tap(b, "[data-testid=chat-close]")
        a.page.wait_for_timeout(3200)
        tap(a, "[data-testid=chat-open]")
        tap(a, "[data-testid=chat-smile]")
        a.page.wait_for_selector("[data-testid=bubble-me][data-phrase=smile]")
        b.page.wait_for_timeout(800)
        assert b.page.locator("[data-testid=bubble-opp]").count() == 0  # muted for the rest of the match

        # ---------------------------------------------------------------- 托管 plays the match
        for p in (a, b):
            p.page.click("[data-testid=autoplay]")
        shots = {a: False, b: False}
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            done = 0
            for p in (a, b):
                st = p.page.evaluate(SEE)
                if st["screen"] == "result":
                    done += 1
                    continue
                if st["screen"] == "table" and st["hand"] and st["hand"] >= 2 and not shots[p] and st["me"]:
                    assert st["handOf"].endswith(
                        f"{st['hand']}/{HANDS} 局" if p is a else f"Hand {st['hand']}/{HANDS}"
                    )
                    fits(p, "running score")
                    p.page.evaluate("() => { document.querySelector('#notice').style.display = 'none'; }")
                    settle(p)
                    p.shot("friend-score-phone" if p is a else "friend-score-phone-en")
                    p.page.evaluate("() => { document.querySelector('#notice').style.display = ''; }")
                    shots[p] = True
                if st["screen"] == "settle":
                    for sel in ("[data-testid=result-open]", "[data-testid=next-hand]"):
                        if p.page.locator(sel).count():
                            p.page.locator(sel).first.click()
                            break
            if done == 2:
                break
            a.page.wait_for_timeout(150)
        else:
            pytest.fail("the friend match did not reach both result screens")
        assert all(shots.values())

        # ---------------------------------------------------------------- the result, on both phones
        for p, lang in ((a, "zh"), (b, "en")):
            rows = p.page.locator("[data-testid=result-lines] tr.line").count()
            assert rows == HANDS, rows
            fits(p, f"result ({lang})")
            touch_targets(p)
            translated(p, f"result ({lang})")
            settle(p)
            p.shot("friend-result-phone" if lang == "zh" else "friend-result-phone-en", full_page=True)
        scores_a = a.page.evaluate("() => window.erma.state.result.scores")
        assert scores_a == b.page.evaluate("() => window.erma.state.result.scores")

        # ------------------------------------------------ rematch: both press, a new match is dealt
        a.page.click("[data-testid=rematch]")
        b.page.wait_for_selector("[data-testid=rematch-status].asked")
        assert "rematch" in b.page.inner_text("[data-testid=rematch-status]")
        assert a.page.is_disabled("[data-testid=rematch]")
        b.page.click("[data-testid=rematch]")
        for p in (a, b):
            p.page.wait_for_function(
                "(m) => { const s = window.erma.state; return s.match && s.match.id !== m"
                " && s.screen === 'table' && s.view && s.view.hand && s.view.hand_no === 1; }",
                arg=first,
                timeout=20000,
            )
        second = a.page.evaluate("() => window.erma.state.match.id")
        assert b.page.evaluate("() => window.erma.state.match.id") == second != first
        for p in (a, b, c):
            assert p.errors == [], p.errors
    finally:
        for p in (a, b, c):
            p.close()


def test_made_up_and_cancelled_codes_seat_no_one(browser: Any, friend_server: Running) -> None:
    a = phone(browser, friend_server.url, "zh")
    c = phone(browser, friend_server.url, "en")
    try:
        # a made-up code: 不存在 / not found, on a fresh browser
        c.page.goto(friend_server.url + "/join/madeUpCode1234567")
        c.page.wait_for_selector("[data-testid=join][data-state=not_found]")
        assert "not found" in c.page.inner_text("[data-testid=join]")
        fits(c, "not found")
        assert c.page.evaluate("() => location.pathname") == "/"
        c.page.click("[data-testid=join-lobby]")
        c.page.wait_for_selector("[data-testid=guest]")

        # a table found by its number in the lobby, then cancelled by its host: 已过期 / expired
        guest(a)
        link, number = open_table(a, hands=8)
        guest(c)
        c.page.fill("[data-testid=join-number]", number)
        c.page.click("[data-testid=join-number-go]")
        c.page.wait_for_selector("[data-testid=join][data-state=open]")
        assert "8 hands" in c.page.inner_text("[data-testid=join]")
        a.page.click("[data-testid=friend-cancel]")
        a.page.wait_for_selector("[data-testid=lobby]")
        c.page.goto(link)
        c.page.wait_for_selector("[data-testid=join]:not([data-state=loading])")
        state = c.page.get_attribute("[data-testid=join]", "data-state")
        assert state in ("expired", "not_found"), state
        assert c.page.evaluate("() => window.erma.state.match") is None
        for p in (a, c):
            assert p.errors == [], p.errors
    finally:
        a.close()
        c.close()
