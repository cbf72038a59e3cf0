"""The web client's side of the reconnect timer: an ``away`` message about the opponent shows "opponent away"
with the time left of its grace (m:ss, counting down), in the interface's language, then "auto-play" when the
grace is over; ``back`` (or the match's end) takes it away. It fits the top bar at a phone's width."""

from __future__ import annotations

import pytest

from tests.web.conftest import Page

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SEND = """async (msg) => {
  const m = await import(new URL("messages.js", document.baseURI).href);
  m.onMessage(msg);
}"""
AWAY = "() => { const s = document.querySelector('#away'); return s.hidden ? null : s.textContent; }"
FITS = """() => { const s = document.querySelector('#away').getBoundingClientRect();
  return s.right <= window.innerWidth && s.left >= 0
    && document.documentElement.scrollWidth <= window.innerWidth; }"""

WIDTHS = """() => [document.querySelector('#away').getBoundingClientRect().right, window.innerWidth,
  document.documentElement.scrollWidth, document.querySelector('#topbar').scrollWidth]"""


def test_opponent_away_shows_its_countdown_in_both_languages(phone: Page) -> None:
    p = phone.page
    p.goto(phone.url)
    p.click("[data-testid=guest]")
    p.wait_for_selector("[data-testid=balance]")
    p.wait_for_function("() => window.erma.state.rooms.length > 0")
    p.click(".room[data-room=web-cuopai] [data-testid=bot]")
    p.wait_for_selector("[data-testid=table]")
    match = p.evaluate("() => window.erma.state.match.id")
    other = 1 - p.evaluate("() => window.erma.state.match.seat")
    assert p.evaluate(AWAY) is None

    p.evaluate(SEND, {"type": "away", "match": match, "seat": other, "deadline_ms": 25_000, "grace_s": 30})
    first = p.evaluate(AWAY) or ""
    assert "对手离线" in first and "0:25" in first, first
    p.wait_for_timeout(1300)
    assert "0:24" in (p.evaluate(AWAY) or "") or "0:23" in (p.evaluate(AWAY) or "")
    assert p.evaluate(FITS), p.evaluate(WIDTHS)
    phone.shot("opponent_away_zh_390")
    p.evaluate(SEND, {"type": "back", "match": match, "seat": other})
    assert p.evaluate(AWAY) is None

    p.click("[data-testid=lang]")
    p.evaluate(SEND, {"type": "away", "match": match, "seat": other, "deadline_ms": 800, "grace_s": 3})
    assert p.evaluate(AWAY) == "Opponent away — 0:01"
    p.wait_for_timeout(1200)
    assert p.evaluate(AWAY) == "Opponent away — auto-play"
    phone.shot("opponent_away_en_390")
    assert p.evaluate(FITS), p.evaluate(WIDTHS)
    p.evaluate(SEND, {"type": "match_end", "match": match, "scores": [0, 0], "hands": 0})
    assert p.evaluate(AWAY) is None
    p.click("[data-testid=lang]")  # (back to Chinese for the next tests)
