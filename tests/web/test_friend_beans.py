"""A bean friend table in the browser (issue 35): A opens a 4-hand table at a bean room's rate, B joins by the
6-digit number typed in the lobby, 托管 plays the match; both result screens show the beans moved (the same
amounts, opposite signs, equal to the balances' change) and each player's rating change (bean tables are
rated), at 390×844."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import Running
from tests.web.conftest import ROOMS, Page, serve
from tests.web.test_table import fits, translated

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DEALT = (
    "() => { const s = window.erma.state; return s.screen === 'table' && Boolean(s.view && s.view.hand); }"
)


@pytest.fixture(scope="module")
def bean_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    yield from serve(
        tmp_path_factory, "beans", ROOMS, bot_pause_s=0.02, claim_window_s=0.02, timeouts=True, time_scale=1.0
    )


def guest(p: Page) -> int:
    p.page.goto(p.url)
    p.page.click("[data-testid=guest]")
    p.page.wait_for_selector("[data-testid=balance]")
    p.page.wait_for_function("() => window.erma.state.balance !== null")
    balance: int = p.page.evaluate("() => window.erma.state.balance")
    return balance


def test_a_bean_friend_match_shows_the_beans_and_the_ratings(browser: Any, bean_server: Running) -> None:
    a = Page(browser, bean_server.url, width=390, height=844, touch=True, lang="zh")
    b = Page(browser, bean_server.url, width=390, height=844, touch=True, lang="en")
    try:
        before = [guest(a), guest(b)]
        a.page.click("[data-testid=friend-open]")
        a.page.select_option("[data-testid=friend-rules]", "classic64")
        a.page.check("[data-testid=hands-4]")
        a.page.check("[data-testid=stakes-beans]")
        assert a.page.input_value("[data-testid=friend-room]") == "web-classic"
        a.page.click("[data-testid=friend-create]")
        a.page.wait_for_selector("[data-testid=invite]")
        number = a.page.inner_text("[data-testid=invite-number]")
        b.page.fill("[data-testid=join-number]", number)
        b.page.click("[data-testid=join-number-go]")
        b.page.wait_for_selector("[data-testid=join][data-state=open]")
        assert "Beans" in b.page.inner_text("[data-testid=join]")
        b.page.click("[data-testid=join-go]")
        for p in (a, b):
            p.page.wait_for_function(DEALT, timeout=20000)
            p.page.click("[data-testid=autoplay]")
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if all(p.page.evaluate("() => window.erma.state.screen") == "result" for p in (a, b)):
                break
            for p in (a, b):
                if p.page.evaluate("() => window.erma.state.screen") == "settle":
                    for sel in ("[data-testid=result-open]", "[data-testid=next-hand]"):
                        if p.page.locator(sel).count():
                            p.page.locator(sel).first.click()
                            break
            a.page.wait_for_timeout(150)
        else:
            pytest.fail("the bean friend match did not reach both result screens")
        res = [p.page.evaluate("() => window.erma.state.result") for p in (a, b)]
        seats = [p.page.evaluate("() => window.erma.state.match.seat") for p in (a, b)]
        assert res[0]["beans"] == res[1]["beans"] and sum(res[0]["beans"]) == 0
        assert res[0]["scores"] == res[1]["scores"]
        moved = [res[0]["beans"][seats[0]], res[1]["beans"][seats[1]]]
        assert (moved[0] == 0) == (res[0]["scores"] == [0, 0])  # beans move with the points
        for i, (p, lang) in enumerate(((a, "zh"), (b, "en"))):
            if moved[i]:
                text = p.page.inner_text("[data-testid=result-beans]")
                assert f"{moved[i]:+d}" in text, text
            rating = p.page.inner_text("[data-testid=result-rating]")  # bean tables are rated
            assert "→" in rating, rating
            fits(p, f"bean result ({lang})")
            translated(p, f"bean result ({lang})")
            p.shot(f"friend-beans-result-{lang}", full_page=True)
            # back in the lobby the balance is the one before the match plus the beans moved
            p.page.click("[data-testid=lobby]")
            p.page.wait_for_function("(n) => window.erma.state.balance === n", arg=before[i] + moved[i])
    finally:
        a.close()
        b.close()
    assert a.errors == [] and b.errors == [], (a.errors, b.errors)
