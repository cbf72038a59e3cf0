"""The 报听 discard is turned sideways in the river where the server's view says it lies (``riichi_at``), and
stays there through a page reload (the mark comes with the view, not from the events this page saw). A guest
plays classic64 against the bot by clicks and declares 报听 when it is offered."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web.conftest import Page
from tests.web.test_client import click, enter_as_guest, move, play_bot, state, wait_my_turn

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

MARKS = """() => {
  const v = window.erma.state.view;
  const rivers = {};
  for (const who of ["me", "opp"]) {
    const tiles = [...document.querySelectorAll(`[data-testid=river-${who}] img`)];
    rivers[who] = tiles.map((e, i) => (e.classList.contains("sideways") ? i : -1)).filter((i) => i >= 0);
  }
  return {seat: v ? v.seat : null, at: v ? v.riichi_at : null, predicted: !!(v && v.predicted),
          discards: v ? v.discards : null, rivers};
}"""


MINE = (
    "() => { const v = window.erma.state.view; return !!(v && v.riichi_at && v.riichi_at[v.seat] !== null); }"
)
SETTLED = (
    "() => { const s = window.erma.state, v = s.view; return s.screen === 'settle' || (v && !v.predicted"
    " && (v.riichi_at[v.seat] !== null || v.phase === 'end' || (v.legal || []).length > 0)); }"
)


def marks(p: Page) -> dict[str, Any]:
    got: dict[str, Any] = p.page.evaluate(MARKS)
    return got


def check(p: Page) -> tuple[bool, dict[str, Any]]:
    """Each seat's sideways tile is the one ``riichi_at`` names (none where it is null); True once mine is."""
    m = marks(p)
    me = m["seat"]
    for s, who in ((me, "me"), (1 - me, "opp")):
        at = m["at"][s]
        assert m["rivers"][who] == ([] if at is None else [at]), m
    return m["at"][me] is not None, m


def declare(p: Page, st: dict[str, Any]) -> bool:
    """报听 by clicks: the button, then a tile whose discard declares."""
    tiles = [a.split()[1] for a in st["legal"] if a.startswith("discard ") and a.endswith(" riichi")]
    if not tiles or not click(p, "[data-testid=act-riichi]"):
        return False
    return click(p, f"[data-testid=my-hand] .tile.can[data-tile='{tiles[0]}'] >> nth=-1")


def test_the_declaring_discard_is_turned_sideways(page: Page) -> None:
    p = page
    enter_as_guest(p)
    play_bot(p, "web-classic")
    deadline = time.monotonic() + 150
    declared = False
    while time.monotonic() < deadline and not declared:
        st = wait_my_turn(p, timeout=40)
        if st["screen"] == "settle":
            p.page.click("[data-testid=next-hand]")
            p.page.wait_for_function("() => window.erma.state.screen === 'table'")
            continue
        if not state(p)["legal"]:
            continue
        m = marks(p)
        if not m["predicted"]:
            check(p)
        if any(a.endswith(" riichi") for a in st["legal"]) and declare(p, st):
            # the server's next view: marked, or the hand over (won on the declaring discard: no tile to mark)
            p.page.wait_for_function(SETTLED, timeout=20000)
            declared = bool(p.page.evaluate(MINE))
            continue
        move(p, st, smart=True)
        p.page.wait_for_timeout(60)
    assert declared, "no 报听 was offered in 150 s of classic64"
    mine, m = check(p)
    assert mine
    me = m["seat"]
    at = m["at"][me]
    tile = m["discards"][me][at]
    p.shot("riichi-sideways")
    digest = p.page.evaluate("() => window.erma.state.view.digest")
    p.page.reload()  # the mark comes back with the view
    p.page.wait_for_function(
        "() => { const s = window.erma.state;"
        " return s.view && (s.screen === 'table' || s.screen === 'settle'); }"
    )
    p.page.wait_for_timeout(300)
    if (
        p.page.evaluate("() => window.erma.state.screen") != "table"
        or p.page.evaluate("() => window.erma.state.view.digest") != digest
    ):
        return  # the hand ended meanwhile (the 报听 hand may win at once): nothing left to mark
    _, after = check(p)
    assert after["at"][me] == at and after["discards"][me][at] == tile
