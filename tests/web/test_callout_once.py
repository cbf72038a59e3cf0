"""A claim's big word on a phone: shown once, on one line.

Tapping 碰 in the guided first hand, a new player saw "Pung!" twice, one over the other a little apart: the
client shows its own claim at once (moves.js) and showed it again when the server's event came back
(events.js). And the big words were squeezed into half the screen's width (a box centred by `left: 50%`
takes the width to the right of its left edge): "Buy the base!" broke into two lines over the hand at
390 px."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web.conftest import Page
from tests.web.test_client import enter_as_guest
from tests.web.test_teach import READY

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: Every big word put on the screen from now on, with the time it came.
WATCH = """() => {
  window.__words = [];
  new MutationObserver((list) => { for (const m of list) for (const n of m.addedNodes) {
    if (n.classList && n.classList.contains('callout'))
      window.__words.push(n.querySelector('.word').textContent);
  } }).observe(document.getElementById('fx'), {childList: true});
}"""


#: The server's view after the claim (not the client's own guess of it) has the meld.
MELDED = (
    "() => { const v = window.erma.state.view; return !v.predicted && (v.melds?.[v.seat] || []).length > 0; }"
)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_my_pung_is_called_out_once(browser: Any, web_server: Any, lang: str) -> None:
    p = Page(browser, web_server.url, 390, 844, touch=True, lang=lang)
    try:
        enter_as_guest(p)
        p.page.click("[data-testid=tutorial-cuopai789]")
        p.page.wait_for_selector("[data-testid=table]")
        deadline = time.monotonic() + 90
        step = ""
        while time.monotonic() < deadline:
            p.page.wait_for_function(READY, timeout=30000)
            step = p.page.get_attribute("#tutorial", "data-step") or ""
            if step in ("pung", "end"):
                break
            p.page.locator(".tut-target").first.tap()
            p.page.wait_for_timeout(60)
        assert step == "pung", step
        p.page.evaluate(WATCH)
        p.page.locator(".tut-target").first.tap()
        # the server's pung event comes back within the claim window and a view or two
        p.page.wait_for_function(MELDED, timeout=10000)
        p.page.wait_for_timeout(1500)
        words = p.page.evaluate("() => window.__words")
        pung = "Pung!" if lang == "en" else "碰!"
        assert words.count(pung) == 1, words
    finally:
        p.close()
    assert p.errors == [], p.errors


LINES = """async (text) => {
  const ui = await import('./ui.js');
  ui.callout(text, 'me');
  await new Promise((r) => setTimeout(r, 700));
  const w = [...document.querySelectorAll('#fx .callout .word')].pop();
  const r = w.getBoundingClientRect();
  return {left: r.left, right: r.right, height: r.height, font: parseFloat(getComputedStyle(w).fontSize)};
}"""


@pytest.mark.parametrize("size", [(390, 844), (360, 740)])
def test_a_big_word_stays_on_one_line(browser: Any, web_server: Any, size: tuple[int, int]) -> None:
    p = Page(browser, web_server.url, *size, touch=True, lang="en")
    try:
        enter_as_guest(p)
        for text in ("Buy the base!", "Top the base!"):
            box = p.page.evaluate(LINES, text)
            assert box["height"] < box["font"] * 1.6, f"{text!r} on more than one line: {box}"
            assert box["left"] >= 0 and box["right"] <= size[0], f"{text!r} off the screen: {box}"
    finally:
        p.close()
    assert p.errors == [], p.errors
