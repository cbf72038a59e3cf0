"""The leaderboard and profile pages (ranks.html) in Chromium, in both languages, with the rating chart; a
guest who played upgrades to a named account on the page and keeps its beans, history and rating."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.server.conftest import Client, Running, run_async
from tests.server.test_protocol import play_until_hand_end
from tests.web.conftest import Page

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def played_guest(server: Running, hands: int = 2) -> str:
    """A guest's token after ``hands`` hands against the bot (rated)."""

    async def go() -> str:
        c = Client(server)
        await c.connect()
        await c.send({"type": "queue", "room": "web-plain", "opponent": "bot"})
        m = await c.expect("match")
        for hand in range(hands):
            await play_until_hand_end(c, m["match"], m["seat"])
            if hand < hands - 1:
                await c.send({"type": "next", "match": m["match"]})
        await c.send({"type": "leave", "match": m["match"]})
        await c.expect("match_end")
        await c.close()
        return c.token

    token: str = run_async(go())
    return token


def me(server: Running, token: str) -> dict[str, Any]:
    got: dict[str, Any] = httpx.get(
        server.url + "/api/me", headers={"Authorization": f"Bearer {token}"}
    ).json()
    return got


def open_as(p: Page, token: str, path: str, lang: str = "zh") -> None:
    p.page.goto(p.url)
    p.page.evaluate(f"() => {{ localStorage.setItem('erma.token', '{token}'); }}")
    p.page.evaluate(f"() => {{ localStorage.setItem('erma.lang', '{lang}'); }}")
    p.page.goto(p.url + path)


def test_leaderboard_and_profile_render_in_both_languages(page: Page, web_server: Running) -> None:
    token = played_guest(web_server)
    name = me(web_server, token)["account"]["name"]
    p = page
    open_as(p, token, "/ranks.html#board=standard")
    p.page.wait_for_selector("[data-testid=leaderboard] [data-testid=board-row], [data-testid=my-row]")
    assert "段位" in p.page.inner_text("[data-testid=leaderboard]")
    mine = p.page.locator("[data-testid=leaderboard] [data-testid=my-row]")
    assert mine.count() >= 1 and name in mine.first.inner_text()  # the player's own position
    p.shot("ranks-board-zh")
    p.page.click("[data-testid=rk-lang]")
    p.page.wait_for_function(
        "() => document.querySelector('[data-testid=leaderboard] th:nth-child(3)').textContent === 'Rank'"
    )
    assert "Your position" in p.page.inner_text("[data-testid=leaderboard]")
    p.page.click("[data-testid=tab-wenzhou]")
    p.page.wait_for_function("() => location.hash === '#board=wenzhou'")
    p.page.wait_for_selector("[data-testid=unrated]")  # never played 温州
    p.page.click("[data-testid=tab-standard]")
    p.page.wait_for_selector("[data-testid=my-row]")
    p.page.locator("[data-testid=my-row] [data-testid=player-link]").first.click()
    p.page.wait_for_selector("[data-testid=profile-standard] [data-testid=rating-chart]")
    text = p.page.inner_text("[data-testid=profile-standard]")
    assert "Rating history" in text and "Win rate" in text and "Deal-in rate" in text
    assert p.page.inner_text("[data-testid=profile-standard] [data-testid=stat-hands]").endswith("2")
    # the 2 hands were one rated match (left before its 8th hand: lost, rated when the table stopped)
    assert p.page.inner_text("[data-testid=profile-standard] [data-testid=stat-matches]").endswith("1")
    points = p.page.get_attribute("[data-testid=profile-standard] [data-testid=chart-line]", "points")
    assert points is not None and len(points.split()) == 2  # one point per rated hand
    assert p.page.locator("[data-testid=profile-standard] [data-testid=chart-band]").count() == 1
    p.shot("ranks-profile-en")
    p.page.click("[data-testid=rk-lang]")
    p.page.wait_for_function(
        "() => document.querySelector('[data-testid=profile-name]').textContent.startsWith('个人资料')"
    )
    assert "评分走势" in p.page.inner_text("[data-testid=profile-standard]")
    assert "点炮率" in p.page.inner_text("[data-testid=profile-standard]")
    assert p.page.locator("[data-testid=profile-standard] [data-testid=rating-chart]").count() == 1
    p.shot("ranks-profile-zh")
    p.page.goto(p.url + "/ranks.html#player=nobody-at-all")
    p.page.wait_for_selector("[data-testid=profile] .err")
    assert p.errors == ["Failed to load resource: the server responded with a status of 404 (Not Found)"]
    p.errors.clear()  # the browser logs the expected 404 of the unknown player


ROWS_ON_A_PHONE = """() => {
  const table = document.querySelector('[data-testid=leaderboard] table');
  const lines = (c) => {  // the text's lines: the distinct tops of its line boxes
    const r = document.createRange();
    r.selectNodeContents(c);
    return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
  };
  const broken = [...table.querySelectorAll('th, td.num, td.rank')]
    .filter((c) => lines(c) > (c.querySelector('small.range') ? 2 : 1)).map((c) => c.textContent);
  return {broken, wide: table.getBoundingClientRect().right > innerWidth};
}"""


def test_the_leaderboard_reads_on_a_phone(browser: Any, web_server: Running) -> None:
    """At 390 px: headings, ranks and numbers each on one line (the rating's range in small print under it),
    the table inside the screen."""
    token = played_guest(web_server)
    p = Page(browser, web_server.url, 390, 844, touch=True)
    try:
        open_as(p, token, "/ranks.html#board=standard")
        p.page.wait_for_selector("[data-testid=leaderboard] [data-testid=my-row]")
        got = p.page.evaluate(ROWS_ON_A_PHONE)
        assert got == {"broken": [], "wide": False}, got
        assert "多半在" in p.page.inner_text("[data-testid=my-row] small.range")
    finally:
        p.close()
    assert p.errors == [], p.errors


def test_lobby_links_to_the_ranks(page: Page) -> None:
    p = page
    p.page.goto(p.url)
    link = p.page.wait_for_selector("[data-testid=ranks-link]")
    assert link.inner_text() == "段位榜"
    p.page.click("[data-testid=lang]")
    p.page.wait_for_function(
        "() => document.querySelector('[data-testid=ranks-link]').textContent === 'Ranks'"
    )
    p.page.click("[data-testid=ranks-link]")
    p.page.wait_for_selector("[data-testid=leaderboard]")
    assert p.page.url.endswith("/ranks.html")


def test_a_guest_upgrades_on_the_page_and_keeps_balance_and_history(page: Page, web_server: Running) -> None:
    token = played_guest(web_server, hands=1)
    before = me(web_server, token)
    games = httpx.get(web_server.url + "/api/games", headers={"Authorization": f"Bearer {token}"}).json()[
        "games"
    ]
    assert before["account"]["guest"] and len(games) == 1
    p = page
    open_as(p, token, "/ranks.html", lang="en")
    p.page.wait_for_selector("[data-testid=upgrade-form]")
    assert str(before["balance"]) in p.page.inner_text("[data-testid=account-beans]")
    sizes = "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
    form = "[data-testid=upgrade-form]"
    fields = p.page.eval_on_selector_all(f"{form} input, {form} button", sizes)
    assert fields and min(fields) >= 16, fields  # a phone zooms into a smaller field it focuses
    p.page.fill("[data-testid=up-name]", "Lotus")
    p.page.fill("[data-testid=up-password]", "short")  # refused: the error is shown, nothing changes
    p.page.click("[data-testid=upgrade]")
    p.page.wait_for_selector("[data-testid=account-note].err")
    assert me(web_server, token)["account"]["guest"]
    assert p.errors == ["Failed to load resource: the server responded with a status of 400 (Bad Request)"]
    p.errors.clear()  # the browser logs the refused sign-up's 400
    p.page.fill("[data-testid=up-password]", "a lotus blooms")
    p.page.click("[data-testid=upgrade]")
    p.page.wait_for_selector("[data-testid=account-note].ok")
    assert "Lotus" in p.page.inner_text("[data-testid=account-note]")
    assert p.page.locator("[data-testid=upgrade-form]").count() == 0
    after = me(web_server, token)  # the same session goes on
    assert after["account"] == {"id": before["account"]["id"], "name": "Lotus", "guest": False}
    assert after["balance"] == before["balance"] and after["history"] == before["history"]
    assert (
        httpx.get(web_server.url + "/api/games", headers={"Authorization": f"Bearer {token}"}).json()["games"]
        == games
    )
    profile = httpx.get(web_server.url + "/api/players/Lotus").json()
    assert profile["families"]["standard"]["hands_played"] == 1
    login = httpx.post(web_server.url + "/api/login", json={"name": "Lotus", "password": "a lotus blooms"})
    assert login.status_code == 200 and login.json()["balance"] == before["balance"]
    p.shot("ranks-upgraded")
    p.page.click("[data-testid=logout-all]")
    p.page.wait_for_selector("[data-testid=logged-out]")
    assert (
        httpx.get(web_server.url + "/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    )
