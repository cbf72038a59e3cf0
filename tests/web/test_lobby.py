"""The lobby's bot level picker (人机对战) on a touch phone, upright (390×844) and sideways (844×390), in both
languages: the chosen level's line (how that level plays) is shown as text beside the picker, changes with the
level, is gone for "auto" and lies inside the screen. Screenshots for docs/screenshots/."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.conftest import Page
from tests.web.test_client import enter_as_guest
from tests.web.test_table import fits

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CJK = re.compile(r"[\u4e00-\u9fff]")


SEEN = """(e) => {
  e.scrollIntoView({block: 'center'});
  const r = e.getBoundingClientRect();
  const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return Boolean(at && (at === e || e.contains(at)));
}"""

GAP = """() => {
  const box = (id) => document.querySelector(`[data-testid=${id}]`).getBoundingClientRect();
  return box('bot-level-hint').top - box('bot-level').bottom;
}"""


def inside(p: Page, selector: str) -> dict[str, float]:
    """The element's box, scrolled to the middle of the screen, asserted inside the viewport and not covered
    (by the sticky top bar): it may be scrolled to, never cut."""
    loc = p.page.locator(selector)
    assert loc.evaluate(SEEN), f"{selector} is covered"
    box = loc.bounding_box()
    size = p.page.viewport_size
    assert box is not None and box["width"] > 0 and box["height"] > 0, selector
    assert box["x"] >= -0.5 and box["x"] + box["width"] <= size["width"] + 0.5, (selector, box, size)
    assert box["y"] >= -0.5 and box["y"] + box["height"] <= size["height"] + 0.5, (selector, box, size)
    return box


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(("width", "height"), [(390, 844), (844, 390)], ids=["upright", "sideways"])
def test_the_bot_levels_line_is_shown_beside_the_picker(
    browser: Any, web_server: Any, lang: str, width: int, height: int
) -> None:
    p = Page(browser, web_server.url, width, height, touch=True, lang=lang)
    try:
        enter_as_guest(p)
        picker = p.page.locator("[data-testid=bot-level]")
        line = p.page.locator("[data-testid=bot-level-hint]")
        picker.select_option("")
        assert not line.is_visible()  # "auto" (by my rating) has no line of its own
        seen = {}
        for level in "12345":
            picker.select_option(level)
            assert line.is_visible(), level
            text = line.inner_text().strip()
            # the option's own title, in the page's language (lang/zh.js, lang/en.js), is the text shown
            assert text and text == picker.locator(f"option[value='{level}']").get_attribute("title")
            assert bool(CJK.search(text)) == (lang == "zh"), text
            inside(p, "[data-testid=bot-level]")
            inside(p, "[data-testid=bot-level-hint]")
            gap = p.page.evaluate(GAP)
            assert 0 <= gap < 24, gap  # just under the picker, not over it
            fits(p, f"lobby {lang} {width}x{height} level {level}")
            seen[level] = text
        assert len(set(seen.values())) == 5, seen  # each level its own line
        assert ("点炮" in seen["5"]) if lang == "zh" else ("dealing in" in seen["5"])
        orient = "upright" if width < height else "sideways"
        picker.select_option("3")  # the longest line in both languages
        inside(p, "[data-testid=bot-level-hint]")
        p.shot(f"phone-{orient}-lobby-bot-level-{lang}")
        p.page.reload()  # the remembered level comes back with its line
        p.page.wait_for_selector("[data-testid=bot-level-hint]")
        assert line.is_visible() and line.inner_text().strip() == seen["3"]
    finally:
        p.close()
    assert p.errors == [], p.errors


def test_the_phones_back_button_closes_a_rules_page(browser: Any, web_server: Any) -> None:
    """A rules page is a step in the browser's history: back (the phone's back button or gesture) returns to
    the lobby instead of leaving the game; closed by its own button, it leaves no step behind."""
    p = Page(browser, web_server.url, 390, 844, touch=True)
    try:
        enter_as_guest(p)
        p.page.locator(".rules-link[data-rules=cuopai789]").tap()
        p.page.wait_for_selector("[data-testid=rules-page]")
        p.page.go_back()
        p.page.wait_for_selector("[data-testid=lobby]")
        assert p.page.url.rstrip("/") == web_server.url.rstrip("/")
        p.page.locator(".rules-link[data-rules=classic64]").tap()
        p.page.wait_for_selector("[data-testid=rules-page]")
        p.page.locator(".rules-head > button.ghost >> nth=0").tap()  # 返回大厅
        p.page.wait_for_selector("[data-testid=lobby]")
        p.page.wait_for_function("() => history.state === null")
        p.page.go_back()  # no empty step left: back now leaves the page, as before the rules page was opened
        p.page.wait_for_url("about:blank")
    finally:
        p.close()
    assert p.errors == [], p.errors
