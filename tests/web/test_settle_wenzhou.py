"""温州's settlement on a phone: the reasons for the multiplier do not read as multiplied together.

A new player's first 温州 loss showed "Self-drawn ×2" and "No wild tile standing in ×2", both at full
strength, above "Base 10 × 2 = 20": two ×2 that read as ×4. The highest reason alone sets the multiplier
(erma.game.families.wenzhou_wins.classify); now only that row is at full strength, the others muted, and a
line says that only the highest counts."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Page
from tests.web.test_client import enter_as_guest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: A 温州 self-drawn hard win with its two ×2 reasons, as the server sends it (shown as a settlement).
SETTLE = """() => {
  const s = window.erma.state;
  s.match = {id: 'x', seat: 1, room: 'web-wenzhou', players: [{name: 'a'}, {name: 'b'}], over: false};
  s.end = {seed: null, bean_rate: 5, beans: [100, -100], balances: [10100, 9900], record_id: null,
           result: {reason: 'win', winner: 0, how: 'self', hand: '1112z444m567p789s55p', multiplier: 2,
                    grade: 'hard', shape: 'regular', base: 10, maidi: 0, win_points: 20, points: 20,
                    deltas: [20, -20], hands: ['1112z444m567p789s55p', '1199m'],
                    fans: [{id: 'self_drawn', name_zh: '自摸', name_en: 'Self-drawn', points: 2,
                            tiles: ['5p']},
                           {id: 'no_substitute', name_zh: '硬牌', name_en: 'No wild tile standing in',
                            points: 2, tiles: []}]}};
  s.screen = 'settle';
  window.erma.render();
}"""

ROWS = """() => [...document.querySelectorAll('[data-testid=fans] tr')].map((tr) => ({
  text: tr.innerText.replace(/\\s+/g, ' ').trim(),
  minor: tr.classList.contains('minor'),
  opacity: Math.min(...[...tr.cells].map((c) => Number(getComputedStyle(c).opacity))),
}))"""


@pytest.mark.parametrize(("lang", "size"), [("en", (390, 844)), ("zh", (844, 390))])
def test_one_reason_sets_the_multiplier(
    browser: Any, web_server: Any, lang: str, size: tuple[int, int]
) -> None:
    p = Page(browser, web_server.url, *size, touch=True, lang=lang)
    try:
        enter_as_guest(p)
        p.page.evaluate(SETTLE)
        p.page.wait_for_selector("[data-testid=fans]")
        rows = p.page.evaluate(ROWS)
        reasons = [r for r in rows if r["text"].endswith("×2")]
        assert len(reasons) == 2, rows
        full = [r["text"] for r in reasons if r["opacity"] > 0.9]
        assert len(full) == 1, f"reasons at full strength (they read as multiplied): {full}"
        note = "Only the highest reason counts" if lang == "en" else "只算最高的一项"
        line = p.page.locator("[data-testid=fans] tr", has_text=note)
        assert line.count() == 1, rows
        line.scroll_into_view_if_needed()
        box = line.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size[0] + 1, box
        assert ("Base 10 × 2 = 20" if lang == "en" else "底 10 × 2 = 20") in p.page.inner_text(
            "[data-testid=fans]"
        )
        p.shot(f"settle-wenzhou-reasons-{lang}-{size[0]}")
    finally:
        p.close()
    assert p.errors == [], p.errors
