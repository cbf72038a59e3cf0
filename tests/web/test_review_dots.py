"""The 复盘 review on a phone: its decision dots are a finger's target.

On a 390×844 touch screen the strip's dots (a tap goes to that decision) were 24 px, under the 32 px a
thumb needs; now each is a 32 px target (its coloured dot drawn inside), the strip still no wider than
the screen."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Page
from tests.web.test_client import enter_as_guest, play_bot

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DOTS = """() => [...document.querySelectorAll('[data-testid=review-strip] .dot')].map((d) => {
  const r = d.getBoundingClientRect();
  return [r.left, r.top, r.width, r.height];
})"""


def test_review_dots_are_finger_sized_on_a_phone(browser: Any, web_server: Any) -> None:
    p = Page(browser, web_server.url, 390, 844, touch=True)
    try:
        enter_as_guest(p)
        play_bot(p, "web-plain")
        p.page.click("[data-testid=autoplay]")  # 托管: the hand plays itself to its settlement
        p.page.wait_for_selector("[data-testid=review-open]", timeout=120_000)
        p.page.click("[data-testid=review-open]")
        p.page.wait_for_selector("[data-testid=review-strip] .dot", timeout=120_000)
        dots = p.page.evaluate(DOTS)
        assert len(dots) >= 2, dots
        small = [(round(w), round(h)) for _, _, w, h in dots if w < 32 or h < 32]
        assert small == [], f"dots under 32 px: {small}"
        assert max(x + w for x, _, w, _ in dots) <= 390
        x, y, w, h = dots[1]  # a tap near the target's corner still goes to that decision
        p.page.touchscreen.tap(x + w * 0.2, y + h * 0.2)
        p.page.wait_for_function(
            "() => document.querySelector('[data-testid=review]').dataset.decision === '1'"
        )
        p.page.locator("[data-testid=review-strip]").scroll_into_view_if_needed()
        p.shot("review-dots-phone")
    finally:
        p.close()
    assert p.errors == [], p.errors
