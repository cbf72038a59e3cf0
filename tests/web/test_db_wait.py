"""The web client's side of a database blip: a ``db_wait`` message shows "reconnecting to the database" in
the status line, in the interface's language, stops the countdown shown, and goes away when the wait ends
(or the match does)."""

from __future__ import annotations

import pytest

from tests.web.conftest import Page

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SEND = """async (msg) => {
  const m = await import(new URL("messages.js", document.baseURI).href);
  m.onMessage(msg);
}"""
STATUS = "() => { const s = document.querySelector('#status'); return s.hidden ? null : s.textContent; }"


def test_db_wait_is_shown_in_both_languages_and_pauses_the_countdown(page: Page) -> None:
    p = page.page
    p.goto(page.url)
    p.click("[data-testid=guest]")
    p.wait_for_selector("[data-testid=balance]")
    p.wait_for_function("() => window.erma.state.rooms.length > 0")
    p.click(".room[data-room=web-cuopai] [data-testid=bot]")
    p.wait_for_selector("[data-testid=table]")
    match = p.evaluate("() => window.erma.state.match.id")
    assert p.evaluate(STATUS) is None

    p.evaluate("() => { window.erma.state.deadline = performance.now() + 10000; }")
    before = p.evaluate("() => window.erma.state.deadline")
    p.evaluate(SEND, {"type": "db_wait", "match": match, "waiting": True})
    assert "数据库" in (p.evaluate(STATUS) or "")
    p.wait_for_timeout(600)
    p.evaluate(SEND, {"type": "db_wait", "match": match, "waiting": False})
    assert p.evaluate(STATUS) is None
    after = p.evaluate("() => window.erma.state.deadline")
    assert after - before >= 500  # the countdown shown stood still while the server waited

    p.click("[data-testid=lang]")
    p.evaluate(SEND, {"type": "db_wait", "match": match, "waiting": True})
    assert "database" in (p.evaluate(STATUS) or "")
    p.evaluate(SEND, {"type": "match_end", "match": match, "scores": [0, 0], "hands": 0})
    assert p.evaluate(STATUS) is None
    p.click("[data-testid=lang]")  # (back to Chinese for the next tests)
