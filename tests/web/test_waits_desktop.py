"""A ready hand's waits on a desktop window (温州's 财神 give a dozen): none is lost. The hint strip keeps its
place beside the seat and its buttons (a hover must not move the hand), so what does not fit scrolls sideways
inside the strip and comes into view at its end — before, the strip clipped them (at 960 px the second of two
long waits was cut, the rest of six never shown). Measured at 960×720 and 1366×768, both languages, with the
decision buttons showing (the phone sizes: tests/web/test_phone.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Page
from tests.web.test_client import enter_as_guest, play_bot
from tests.web.test_phone import LOADED, MANY_WAITS, PRESETS, WAITS_SEEN, to_my_discard, waits_problems

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DESKTOPS = [(960, 720), (1366, 768)]

#: The strip turned to its end (as a wheel or a swipe would), a frame later: its last wait wholly in it.
LAST_IN_REACH = """() => new Promise((done) => {
  const s = document.querySelector('[data-testid=hints]');
  s.scrollLeft = s.scrollWidth;
  requestAnimationFrame(() => requestAnimationFrame(() => {
    const sr = s.getBoundingClientRect(), r = [...s.querySelectorAll('.wait')].at(-1).getBoundingClientRect();
    const got = {ok: r.left >= sr.left - 1 && r.right <= sr.right + 1, left: s.scrollLeft,
                 wait: [r.left, r.right].map(Math.round), strip: [sr.left, sr.right].map(Math.round)};
    s.scrollLeft = 0;
    done(got);
  }));
})"""


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", DESKTOPS, ids=[f"{w}x{h}" for w, h in DESKTOPS])
def test_many_waits_are_reachable_on_a_desktop(
    browser: Any, web_server: Any, lang: str, size: tuple[int, int]
) -> None:
    p = Page(browser, web_server.url, *size, touch=False, lang=lang)
    try:
        enter_as_guest(p)
        play_bot(p, PRESETS["wenzhou2p"])
        to_my_discard(p)
        bad: list[str] = []
        for n, decide in ((2, "claim"), (6, "claim"), (6, "turn"), (12, "turn")):
            assert p.page.evaluate(MANY_WAITS, [n, decide]) == "waits"
            p.page.wait_for_function(LOADED)
            seen = p.page.evaluate(WAITS_SEEN)
            where = f"{n} waits, {decide}, {lang} {size}"
            if n == 6 and decide == "claim":
                p.shot(f"desktop-waits6-{lang}-{size[0]}x{size[1]}")
            if seen["clipped"]:  # beyond the strip's edge: a scroll of it shows them
                reach = p.page.evaluate(LAST_IN_REACH)
                if not reach["ok"]:
                    bad.append(f"{where}: waits out of reach: {reach} {seen}")
            if n == 2 and seen["clipped"]:
                bad.append(f"{where}: two waits do not fit: {seen}")
            bad += waits_problems(p, seen, where, hover=decide == "turn")
        assert bad == [], "\n".join(bad)
    finally:
        p.close()
    assert p.errors == [], p.errors
