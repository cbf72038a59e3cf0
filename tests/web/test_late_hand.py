"""Late in a hand: both rivers long (温州's are the longest: 20 and more discards each) on a phone upright and
sideways, both languages, with my decision buttons showing. The page must not scroll, the whole hand and every
decision button stay on the screen, and each river's newest discard is seen (the rivers' third and fourth rows
made a phone's page scroll: the newest discard and the buttons below the screen's foot). The desktop sizes are
held to the same.

The late hand is a real 温州 hand at my discard whose view is given long rivers (real tiles, the last one the
newest discard) before each measure, as test_phone.py gives it many waits."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Page
from tests.web.test_client import enter_as_guest, play_bot
from tests.web.test_phone import LOADED, MANY_WAITS, PRESETS, phone_page, to_my_discard

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: The view given long rivers: ``n`` discards each (the opponent's one more, its last the newest), then
#: rendered with ``decide``'s decision buttons (MANY_WAITS: six waits, then the claim or my turn's buttons).
LONG_RIVERS = """(n) => {
  const v = window.erma.state.view;
  const kinds = ['1m', '9m', '1p', '9p', '1s', '9s', '1z', '2z', '3z', '4z', '5z', '6z', '7z', '2m', '8m',
                 '2p', '8p', '2s', '8s', '3m', '7m', '3p', '7p', '3s', '7s', '4m', '6m', '4p'];
  const me = v.seat, opp = 1 - me;
  v.discards = [];
  v.discards[me] = kinds.slice(0, n);
  v.discards[opp] = kinds.slice(1, n + 2);
  v.last_discard = v.discards[opp].at(-1);
  window.erma.state.lastDiscarder = opp;
  return v.discards.map((d) => d.length);
}"""

#: What a player needs, and where it is: the page's scroll, the hand and the decision buttons (and the foot's)
#: outside the screen, each river's last tile seen (what is at its centre is that tile).
LATE_SEEN = """() => {
  document.getAnimations().forEach((a) => { try { a.finish(); } catch (e) {} });
  const W = innerWidth, H = innerHeight;
  const box = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
  const off = [];
  const sel = '[data-testid=my-hand] .tile, [data-testid=actions] .btn, .foot .btn';
  for (const e of document.querySelectorAll(sel)) {
    const r = e.getBoundingClientRect();
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) {
      off.push(`${e.dataset.testid || e.dataset.tile || e.className} ${box(r)}`);
    }
  }
  const rivers = {};
  for (const who of ['opp', 'me']) {
    const river = document.querySelector(`[data-testid=river-${who}]`);
    const tiles = river.querySelectorAll('.tile');
    const last = tiles[tiles.length - 1], r = last.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const rows = new Set([...tiles].map((t) => Math.round(t.getBoundingClientRect().top))).size;
    rivers[who] = {n: tiles.length, rows, seen: at === last, last: box(r), tile: Math.round(r.width),
                   at: at ? `${at.tagName}.${at.className}` : 'nothing'};
  }
  const se = document.scrollingElement;
  return {off, rivers, W, H, scroll: se.scrollHeight, scrollW: se.scrollWidth,
          buttons: document.querySelectorAll('[data-testid=actions] .btn').length};
}"""

SIZES = [(390, 844), (844, 390), (360, 740), (740, 360), (960, 720), (1366, 768)]


def late_problems(seen: dict[str, Any], where: str) -> list[str]:
    bad = []
    if seen["scroll"] > seen["H"] or seen["scrollW"] > seen["W"]:
        bad.append(f"{where}: the page scrolls ({seen['scrollW']}×{seen['scroll']})")
    if seen["off"]:
        bad.append(f"{where}: off the screen: {seen['off']}")
    for who, r in seen["rivers"].items():
        if not r["seen"]:
            bad.append(f"{where}: the {who} river's newest discard not seen: {r}")
    return bad


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_long_rivers_keep_the_page_still(browser: Any, web_server: Any, lang: str) -> None:
    """Every size, 18 and 24 discards a river, my turn (自摸 杠 报听) and the opponent's discard (和 碰 吃 杠
    过). (Every case is measured before the test fails: one run says all that is wrong.)"""
    p: Page = phone_page(browser, web_server.url, lang)
    bad: list[str] = []
    figures: list[str] = []
    try:
        enter_as_guest(p)
        play_bot(p, PRESETS["wenzhou2p"])
        to_my_discard(p)
        for w, h in SIZES:
            p.page.set_viewport_size({"width": w, "height": h})
            for n, decide in ((18, "turn"), (24, "claim"), (24, "turn")):
                p.page.evaluate(LONG_RIVERS, n)
                p.page.evaluate(MANY_WAITS, [6, decide])
                p.page.wait_for_function(LOADED)
                seen = p.page.evaluate(LATE_SEEN)
                where = f"{n} discards, {decide}, {lang} {w}×{h}"
                rv = seen["rivers"]
                figures.append(
                    f"{where}: document {seen['scrollW']}×{seen['scroll']}, rows {rv['opp']['rows']}/"
                    f"{rv['me']['rows']}, river tile {rv['me']['tile']} px, {seen['buttons']} buttons"
                )
                if n == 24 and decide == "turn" and (w, h) in ((390, 844), (844, 390)):
                    p.shot(f"late-hand-{lang}-{w}x{h}")
                bad += late_problems(seen, where)
                if seen["buttons"] < 3:
                    bad.append(f"{where}: {seen['buttons']} buttons")
        print("\n".join(figures))
        assert bad == [], "\n".join(bad)
    finally:
        p.close()
    assert p.errors == [], p.errors
