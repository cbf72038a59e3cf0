"""The replay's line under the table says what happened in plain words, one's own moves included.

A new player watching a replay in English read "You discards North Wind" (and "You pungs", "You wins", "You
passes"; the 温州 stakes as "Opponent Buy the base", a flower as "You Flower Spring"): the opponent's sentence
with "You" put in its place. Now one's own lines have their own words ("You discard North Wind")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.conftest import Page
from tests.web.test_client import enter_as_guest, play_bot

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: One event of each kind the replay words, by seat 0 (me) and by seat 1 (the opponent).
LINES = """async () => {
  const m = await import('./replay.js');
  const events = [
    {type: 'draw', tile: '1m'}, {type: 'discard', tile: '4z'}, {type: 'discard', tile: '4z', riichi: true},
    {type: 'chow', meld: '123m'}, {type: 'pung', tile: '5p'}, {type: 'kong', tile: '7s'}, {type: 'pass'},
    {type: 'triplet_accept', kind: '1z'}, {type: 'haidi_pick', tile: '9m'}, {type: 'flower', tile: '1f'},
    {type: 'maidi', choice: true}, {type: 'maidi', choice: false},
    {type: 'dingdi', choice: true}, {type: 'dingdi', choice: false},
  ];
  const out = [];
  for (const seat of [0, 1]) for (const e of events) out.push(m.describeEvent({...e, seat}, 0));
  out.push(m.describeEvent({type: 'win', winner: 0, tile: '2m'}, 0));
  out.push(m.describeEvent({type: 'win', winner: 1, tile: '2m'}, 0));
  return out;
}"""

#: "You" and a verb that agrees with he/she ("You discards"), or "You"/"Opponent" glued to a capital word
#: ("You Flower", "Opponent Buy the base").
WRONG = re.compile(
    r"\bYou (?:discards|declares|chows|pungs|kongs|wins|passes|draws|picks|takes|sets|buys|tops|does)\b"
    r"|\bYou [A-Z]|\bOpponent [A-Z]"
)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_replay_line_reads_right(browser: Any, web_server: Any, lang: str) -> None:
    p = Page(browser, web_server.url, 390, 844, touch=True, lang=lang)
    try:
        enter_as_guest(p)
        lines = p.page.evaluate(LINES)
        assert all(lines) and not any("{" in x or "ev_" in x for x in lines), lines
        mine, theirs = lines[:14], lines[14:28]
        if lang == "en":
            wrong = [x for x in lines if WRONG.search(x)]
            assert wrong == [], f"lines a reader stumbles on: {wrong}"
            assert mine[1] == "You discard North Wind" and theirs[1] == "Opponent discards North Wind"
            assert mine[6] == "You pass" and theirs[6] == "Opponent passes"
            assert mine[10] == "You buy the base" and theirs[11] == "Opponent does not buy the base"
            assert lines[-2:] == ["You win (2 Characters)", "Opponent wins (2 Characters)"]
        else:
            assert all(not re.search(r"[A-Za-z]{3,}", x) for x in lines), lines
            assert mine[1] == "你打出 北风" and theirs[1] == "对手 打出 北风"
            assert mine[9] == "你补花 春" and theirs[10] == "对手 买底"
    finally:
        p.close()
    assert p.errors == [], p.errors


def test_a_real_replay_sideways_in_english(browser: Any, web_server: Any) -> None:
    """A hand played by 托管 on a sideways phone, its replay stepped through: one's own discards read "You
    discard …", never "You discards"."""
    p = Page(browser, web_server.url, 844, 390, touch=True, lang="en")
    try:
        enter_as_guest(p)
        play_bot(p, "web-classic")
        p.page.click("[data-testid=autoplay]")  # 托管: the hand plays itself to its settlement
        p.page.wait_for_selector("[data-testid=replay]", state="attached", timeout=120_000)
        p.page.click("[data-testid=settlement] [data-testid=replay]")
        p.page.wait_for_selector("[data-testid=replay-event]", timeout=20_000)
        steps = int(p.page.get_attribute(".replay-controls input.slider", "max") or 0)
        seen = [p.page.inner_text("[data-testid=replay-event]")]
        for _ in range(steps):
            p.page.click("[data-testid=replay-next]")
            seen.append(p.page.inner_text("[data-testid=replay-event]"))
        mine = [x for x in seen if x.startswith("You discard")]
        assert mine, seen
        wrong = [x for x in seen if WRONG.search(x)]
        assert wrong == [], f"lines a reader stumbles on: {wrong}"
        p.shot("replay-words-en-sideways")
    finally:
        p.close()
    assert p.errors == [], p.errors
