"""The guided first hand (新手教程) in English on a phone: its prompts are English.

A new player reading English met "搓牌! This time you may choose your draw…" at the 搓牌 step, while the table
below it said "Cuopai! Choose the tile you draw" (the 海底捞月 prompt was the same)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web.conftest import Page
from tests.web.test_client import enter_as_guest
from tests.web.test_teach import READY

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: Han characters shown on the page outside the top bar (its brand 二麻 and the 中文 switch are meant).
HAN = r"""() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const e = n.parentElement;
    if (!e || e.closest('#topbar') || !e.getClientRects().length) continue;
    const text = n.textContent.trim();
    if (/[\u3400-\u9fff]/.test(text)) out.push(text.slice(0, 50));
  }
  return out;
}"""


def test_the_cuopai_tutorial_speaks_english(browser: Any, web_server: Any) -> None:
    """Upright, touch, English: the prompt at each step up to the first discard (start exchange, 搓牌) and
    the whole page under the top bar without a Chinese word."""
    p = Page(browser, web_server.url, 390, 844, touch=True, lang="en")
    seen: dict[str, list[str]] = {}
    try:
        enter_as_guest(p)
        p.page.click("[data-testid=tutorial-cuopai789]")
        p.page.wait_for_selector("[data-testid=table]")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            p.page.wait_for_function(READY, timeout=30000)
            step = p.page.get_attribute("#tutorial", "data-step") or ""
            if step not in seen:
                seen[step] = p.page.evaluate(HAN)
            if step in ("discard", "end"):
                break
            p.page.locator(".tut-target").first.tap()
            p.page.wait_for_timeout(60)
        assert "cuo" in seen, list(seen)
        assert {step: han for step, han in seen.items() if han} == {}
    finally:
        p.close()
    assert p.errors == [], p.errors
