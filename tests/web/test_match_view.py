"""A match you can see (issue 35), at a 390×844 phone in both languages, against the bot: 第 k/n 局 and both
running scores at every hand, the dealer marked; the result screen with every hand's line as its settlement
said, the total, 复盘 of a hand and back; an escape shown as an escape, never as a draw; a guest asked before
logging out (which destroys the account) and offered the upgrade there."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.conftest import Running
from tests.web.conftest import Page, serve
from tests.web.test_table import fits, touch_targets, translated

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HANDS = 3
ROOMS = f"""
[[room]]
id = "web-short"
name_zh = "经典 三局场"
name_en = "Classic · three hands"
rules = "classic64"
options = {{ match_hands = {HANDS}, next_hand_timeout_s = 60.0 }}
tier = "novice"
entry_min = 100
bean_rate = 1
"""
ROOM_IDS = ["web-short"]
SEE = """() => {
  const s = window.erma.state;
  const text = (sel) => { const e = document.querySelector(sel); return e ? e.textContent : null; };
  return {screen: s.screen, hand: s.view ? s.view.hand_no : null, seat: s.match ? s.match.seat : null,
          dealer: s.view ? s.view.dealer : null, handOf: text('[data-testid=hand-of]'),
          me: text('[data-testid=score-me]'), opp: text('[data-testid=score-opp]'),
          dealerBadge: [...document.querySelectorAll('.seat .who')].map(
            (w) => Boolean(w.querySelector('.badge.dealer')) && w.closest('.seat').classList.contains('me'))};
}"""


@pytest.fixture(scope="module")
def short_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    yield from serve(
        tmp_path_factory, "short", ROOMS, bot_pause_s=0.02, claim_window_s=0.02, timeouts=True, time_scale=1.0
    )


def phone(browser: Any, url: str, lang: str = "zh") -> Page:
    return Page(browser, url, width=390, height=844, touch=True, lang=lang)


def guest_at_bot_table(p: Page) -> None:
    p.page.goto(p.url)
    p.page.click("[data-testid=guest]")
    p.page.wait_for_selector("[data-testid=balance]")
    p.page.click(".room[data-room=web-short] [data-testid=bot]")
    p.page.wait_for_selector("[data-testid=table]")


def signed(v: int) -> str:
    return f"+{v}" if v > 0 else str(v)


def test_running_score_and_result_screen(browser: Any, short_server: Running) -> None:
    p = phone(browser, short_server.url)
    try:
        guest_at_bot_table(p)
        p.page.click("[data-testid=autoplay]")  # 托管 plays the hands; the test watches
        seen: dict[int, dict[str, Any]] = {}
        ends: list[dict[str, Any]] = []
        deadline = time.monotonic() + 50
        while time.monotonic() < deadline:
            st = p.page.evaluate(SEE)
            if st["screen"] == "table" and st["hand"] and st["hand"] not in seen and st["me"] is not None:
                seen[st["hand"]] = st
                fits(p, f"table, hand {st['hand']}")
                if st["hand"] == 2:
                    p.page.evaluate("() => document.getAnimations().forEach((a) => a.finish())")
                    p.shot("match-score-phone")
            if st["screen"] == "settle":
                end = p.page.evaluate("() => window.erma.state.end")
                if end and (not ends or ends[-1]["seed"] != end["seed"]):
                    ends.append(end)
                if p.page.locator("[data-testid=result-open]").count():
                    break
                if p.page.locator("[data-testid=next-hand]").count():
                    p.page.click("[data-testid=next-hand]")
            p.page.wait_for_timeout(120)
        else:
            pytest.fail(f"the match did not end: hands seen {sorted(seen)}, ends {len(ends)}")
        assert len(ends) == HANDS and sorted(seen) == list(range(1, HANDS + 1))
        me = seen[1]["seat"]
        total = [0, 0]
        for k in range(1, HANDS + 1):
            st = seen[k]
            # 第 k/n 局, and each seat's score before hand k (the sum of the hands before it)
            assert st["handOf"].endswith(f"第 {k}/{HANDS} 局"), st["handOf"]
            assert st["me"] == signed(total[me]) and st["opp"] == signed(total[1 - me]), (k, st, total)
            assert st["dealerBadge"].count(True) + st["dealerBadge"].count(False) == 2
            assert any(st["dealerBadge"]) == (st["dealer"] == me), st  # the 庄 badge by the dealer's name
            deltas = ends[k - 1]["result"]["deltas"]
            total = [total[0] + deltas[0], total[1] + deltas[1]]

        # the match is over: the settlement says so and leads to the result screen
        p.page.click("[data-testid=result-open]")
        p.page.wait_for_selector("[data-testid=result]")
        rows = p.page.eval_on_selector_all(
            "[data-testid=result-lines] tr.line",
            "rows => rows.map((r) => ({how: r.dataset.how, text: r.innerText}))",
        )
        assert len(rows) == HANDS
        for row, end in zip(rows, ends, strict=True):
            r = end["result"]
            want = {"win": "self_draw" if r.get("how") in ("self", "haidi") else "discard"}.get(
                r["reason"], r["reason"]
            )
            assert row["how"] == want, (row, r)
            assert signed(r["deltas"][me]) in row["text"].split(), (row, r["deltas"])
        total_row = p.page.inner_text("[data-testid=result-lines] tr.total")
        assert signed(total[me]) in total_row.split(), (total_row, total)
        winner = p.page.inner_text("[data-testid=result-winner]")
        if total[me] > total[1 - me]:
            assert "你赢了" in winner
        elif total[me] < total[1 - me]:
            assert "赢了这场比赛" in winner and "你" not in winner
        else:
            assert winner == "平局"
        assert p.page.locator("[data-testid=rematch]").count() == 0  # (a room's match: no rematch)
        fits(p, "result")
        touch_targets(p)
        translated(p, "result")
        p.shot("match-result-phone", full_page=True)

        # 复盘 a hand from the result, and back to the result
        p.page.locator("[data-testid=result-review]").first.click()
        p.page.wait_for_function("() => window.erma.state.screen === 'review'")
        p.page.wait_for_selector("[data-testid=review-close]", timeout=30000)
        p.page.locator("[data-testid=review-close]").first.click()
        p.page.wait_for_selector("[data-testid=result]")

        p.page.click("[data-testid=lang]")
        p.page.wait_for_selector("[data-testid=result]")
        assert "Total" in p.page.inner_text("[data-testid=result-lines]")
        fits(p, "result (English)")
        translated(p, "result (English)")
        p.page.click("[data-testid=lobby]")
        p.page.wait_for_selector("[data-testid=lobby]")
        assert p.errors == [], p.errors
    finally:
        p.close()


def test_an_escape_is_shown_as_an_escape(browser: Any, short_server: Running) -> None:
    p = phone(browser, short_server.url, lang="en")
    try:
        guest_at_bot_table(p)
        p.page.on("dialog", lambda d: d.accept())  # "leaving mid-hand is an escape": yes
        p.page.wait_for_function("() => window.erma.state.view && window.erma.state.view.phase !== 'end'")
        p.page.click("[data-testid=leave]")
        p.page.wait_for_selector("[data-testid=result-open], [data-testid=result]", timeout=20000)
        if p.page.locator("[data-testid=result-open]").count():
            p.page.click("[data-testid=result-open]")
        p.page.wait_for_selector("[data-testid=result]")
        rows = p.page.eval_on_selector_all(
            "[data-testid=result-lines] tr.line",
            "rows => rows.map((r) => ({how: r.dataset.how, text: r.innerText}))",
        )
        assert [r["how"] for r in rows] == ["escape"], rows
        assert "escaped" in rows[0]["text"] and "drawn" not in rows[0]["text"], rows
        fits(p, "escape result")
        # the lobby's history says so too (a record's summary: reason "escape" or "forfeit")
        p.page.click("[data-testid=lobby]")
        p.page.wait_for_selector(".history .game")
        line = p.page.inner_text(".history .game >> nth=0")
        assert "escape" in line and "Draw" not in line, line
    finally:
        p.close()
    assert p.errors == [], p.errors


def test_guest_logout_asks_first_and_offers_the_upgrade(browser: Any, short_server: Running) -> None:
    p = phone(browser, short_server.url)
    try:
        p.page.goto(p.url)
        p.page.click("[data-testid=guest]")
        p.page.wait_for_selector("[data-testid=balance]")
        token = p.page.evaluate("() => localStorage.getItem('erma.token')")
        # asked first: cancelling keeps the guest signed in
        p.page.click("[data-testid=logout]")
        dialog = p.page.locator("[data-testid=logout-dialog]")
        dialog.wait_for()
        text = dialog.inner_text()
        balance = p.page.inner_text("[data-testid=balance]")
        assert "丢失" in text and balance in text, text  # it says the beans go
        fits(p, "logout question")
        p.page.click("[data-testid=logout-cancel]")
        assert dialog.count() == 0
        assert p.page.evaluate("() => localStorage.getItem('erma.token')") == token

        # the upgrade right there: the same account, named, still signed in
        name = f"friend{int(time.time() * 1000) % 10**9}"
        p.page.click("[data-testid=logout]")
        p.page.fill("[data-testid=upgrade-name]", name)
        p.page.fill("[data-testid=upgrade-password]", "s3cret-pass")
        p.page.click("[data-testid=upgrade-keep]")
        p.page.wait_for_function(
            "(n) => window.erma.state.account && window.erma.state.account.name === n", arg=name
        )
        assert p.page.evaluate("() => window.erma.state.account.guest") is False
        assert p.page.locator("[data-testid=logout-dialog]").count() == 0
        # a named account logs out without the question
        p.page.click("[data-testid=logout]")
        p.page.wait_for_selector("[data-testid=guest]")
        assert p.page.locator("[data-testid=logout-dialog]").count() == 0

        # a guest who confirms is logged out (the session ends on the server too)
        p.page.click("[data-testid=guest]")
        p.page.wait_for_selector("[data-testid=balance]")
        token = p.page.evaluate("() => localStorage.getItem('erma.token')")
        p.page.click("[data-testid=logout]")
        p.page.click("[data-testid=logout-confirm]")
        p.page.wait_for_selector("[data-testid=guest]")
        assert p.page.evaluate("() => localStorage.getItem('erma.token')") is None
        r = httpx.get(short_server.url + "/api/me", headers={"Authorization": f"Bearer {token}"}, timeout=5)
        assert r.status_code == 401
    finally:
        p.close()
    assert p.errors == [], p.errors
