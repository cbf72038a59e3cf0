"""The web client in Debian's Chromium: a whole hand by clicks, refresh mid-hand, a claim prompt, the language
switch, and no console errors on any page (the `page` fixture checks that after each test)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from erma.analysis.shapes import overall
from erma.analysis.tables import INC
from erma.tiles import parse, parse_tile
from tests.web.conftest import Page, sync_api

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

STATE = """() => {
  const s = window.erma.state;
  const v = s.view;
  return {screen: s.screen, phase: v ? v.phase : null, legal: v ? v.legal || [] : [],
          hand: v ? v.hand : null, wall: v ? v.wall : null, melds: v ? v.melds : null,
          discards: v ? v.discards : null, match: s.match ? s.match.id : null,
          hints: v ? v.hints || {} : {}, decision: v ? v.decision : null, caishen: v ? v.caishen : null,
          offer: v ? v.offer || null : null};
}"""
MY_TURN = (
    "() => { const s = window.erma.state; return s.screen === 'settle' || "
    "(s.screen === 'table' && s.view && (s.view.legal || []).length > 0); }"
)


def state(p: Page) -> dict[str, Any]:
    result: dict[str, Any] = p.page.evaluate(STATE)
    return result


def enter_as_guest(p: Page) -> None:
    p.page.goto(p.url)
    p.page.click("[data-testid=guest]")
    p.page.wait_for_selector("[data-testid=balance]")
    p.page.wait_for_function("() => window.erma.state.rooms.length > 0")


def play_bot(p: Page, room: str) -> None:
    p.page.click(f".room[data-room={room}] [data-testid=bot]")
    p.page.wait_for_selector("[data-testid=table]")


def wait_my_turn(p: Page, timeout: float = 20) -> dict[str, Any]:
    p.page.wait_for_function(MY_TURN, timeout=timeout * 1000)
    return state(p)


def click(p: Page, selector: str) -> bool:
    """Click if there; False when the element went away under a re-render (the caller looks again)."""
    loc = p.page.locator(selector)
    if loc.count() == 0:
        return False
    try:
        loc.first.click(timeout=3000)
    except Exception:
        return False
    return True


def best_discard(st: dict[str, Any]) -> str | None:
    """A careful player's discard (standard rules): one the server's hints say keeps the hand ready (the most
    unseen waits), else one of the least shanten."""
    after = st["hints"].get("after_discard") or {}
    if after:
        return max(after, key=lambda t: sum(w["unseen"] for w in after[t]))
    options = {a.split()[1] for a in st["legal"] if a.startswith("discard ") and not a.endswith("riichi")}
    if not options:
        return None
    hand = [t for t in parse(st["hand"]) if t < 34]
    key = sum(INC[t] for t in hand)
    return min(sorted(options), key=lambda x: overall(key - INC[parse_tile(x)], len(hand) - 1))


def best_triplet(st: dict[str, Any]) -> list[str] | None:
    """The triplet offer: the three tiles to give that bring the hand nearest to a win, or None to decline."""
    hand = [t for t in parse(st["hand"]) if t < 34]
    key = sum(INC[t] for t in hand)
    best, give = overall(key, len(hand)), None
    offer = 3 * INC[parse_tile(st["offer"])] if st["offer"] else 0
    for a in st["legal"]:
        if a.startswith("accept "):
            given = parse(a.split()[1])
            sh = overall(key - sum(INC[t] for t in given) + offer, len(hand))
            if sh < best:
                best, give = sh, split_tiles(a.split()[1])
    return give


def split_tiles(text: str) -> list[str]:
    """ "5m5m9m" → ["5m", "5m", "9m"]."""
    return [text[i : i + 2] for i in range(0, len(text), 2)]


def best_cuo(st: dict[str, Any]) -> str | None:
    """搓牌: the kind to draw that brings the hand nearest to a win."""
    kinds = [a.split()[1] for a in st["legal"] if a.startswith("cuo ")]
    hand = [t for t in parse(st["hand"]) if t < 34]
    key = sum(INC[t] for t in hand)
    return min(kinds, key=lambda x: overall(key + INC[parse_tile(x)], len(hand) + 1)) if kinds else None


def move(p: Page, st: dict[str, Any], claim: bool = False, smart: bool = False) -> str:
    """One decision by clicking, like a player: win when offered, else the prompt's choice, else discard
    (the drawn tile, or with ``smart`` the best discard)."""
    legal, phase = st["legal"], st["phase"]
    if "win" in legal and click(p, "[data-testid=act-win]"):
        return "win"
    if claim:
        for name in ("pung", "chow", "kong"):
            if any(a.split()[0] == name for a in legal) and click(p, f"[data-testid=act-{name}]"):
                return name
    if phase == "exchange":
        for i in (0, 1):
            click(p, f"[data-testid=my-hand] .tile[data-index='{i}']")
        click(p, "[data-testid=act-exchange]")
        return "exchange"
    if phase == "triplet" and smart:
        give = best_triplet(st)
        if give is None:
            click(p, "[data-testid=act-pass]")
            return "pass"
        for x in give:
            click(p, f"[data-testid=my-hand] .tile[data-tile='{x}']:not(.selected) >> nth=0")
        click(p, "[data-testid=act-accept]")
        return "accept"
    if phase == "triplet":
        for i in (0, 1, 2):
            click(p, f"[data-testid=my-hand] .tile[data-index='{i}']")
        if p.page.locator("[data-testid=act-accept]:enabled").count():
            click(p, "[data-testid=act-accept]")
            return "accept"
        click(p, "[data-testid=act-pass]")
        return "pass"
    if phase == "cuo":
        kind = best_cuo(st) if smart else None
        if not (kind and click(p, f"[data-testid=cuo-grid] .pick[data-tile='{kind}']")):
            click(p, "[data-testid=cuo-grid] .pick")
        return "cuo"
    if phase == "haidi":
        click(p, "[data-testid=haidi-grid] .pick")
        return "pick"
    if phase in ("maidi", "dingdi"):
        click(p, f"[data-testid=act-{phase}]")
        return phase
    if "pass" in legal:
        click(p, "[data-testid=act-pass]")
        return "pass"
    tile = best_discard(st) if smart and phase == "turn" else None
    if tile and click(p, f"[data-testid=my-hand] .tile.can[data-tile='{tile}'] >> nth=-1"):
        return "discard"
    if click(p, "[data-testid=my-hand] .tile.drawn.can") or click(
        p, "[data-testid=my-hand] .tile.can >> nth=-1"
    ):
        return "discard"
    return "none"


def test_lobby_and_language_switch(page: Page) -> None:
    p = page
    p.page.goto(p.url)
    p.page.wait_for_selector("[data-testid=guest]")
    assert "游客" in p.page.inner_text("[data-testid=guest]")
    p.page.click("[data-testid=guest]")
    p.page.wait_for_selector("[data-testid=balance]")
    p.page.wait_for_selector(".room[data-room=web-cuopai]")
    assert int(p.page.inner_text("[data-testid=balance]")) > 0
    assert "人机对战" in p.page.inner_text(".room[data-room=web-cuopai]")
    p.shot("lobby-first")
    p.page.click("[data-testid=lang]")
    assert "Play a bot" in p.page.inner_text(".room[data-room=web-cuopai]")
    assert "Cuopai · test" in p.page.inner_text(".room[data-room=web-cuopai]")
    p.page.reload()  # remembered
    p.page.wait_for_selector(".room[data-room=web-cuopai]")
    assert "Play a bot" in p.page.inner_text(".room[data-room=web-cuopai]")
    assert p.page.evaluate("() => document.documentElement.lang") == "en"
    p.page.click("[data-testid=lang]")
    assert "人机对战" in p.page.inner_text(".room[data-room=web-cuopai]")
    p.page.click("[data-testid=relief]")  # the daily relief answers (granted or not) without an error
    p.page.wait_for_selector("#toast:not([hidden])")


def quiet(p: Page) -> None:
    """Wait (a while) until the callouts and banners have gone, for a screenshot."""
    try:
        p.page.wait_for_function("() => !document.querySelector('#fx').children.length", timeout=8000)
    except sync_api.TimeoutError:
        return  # banners queued one after another: the screenshot shows one
    p.page.wait_for_timeout(200)


def strip(p: Page) -> dict[str, Any]:
    """The hint strip as shown: its mode and each wait's tile and text."""
    result: dict[str, Any] = p.page.evaluate(
        """() => { const h = document.querySelector('[data-testid=hints]');
          return {mode: h.dataset.mode || null, text: h.innerText,
                  waits: [...h.querySelectorAll('.wait')].map(w => [w.dataset.tile, w.innerText])}; }"""
    )
    return result


def check_waits_shown(p: Page, waits: list[dict[str, Any]]) -> None:
    shown = strip(p)["waits"]
    assert [tile for tile, _ in shown] == [w["tile"] for w in waits]
    for (_, text), w in zip(shown, waits, strict=True):
        assert f"剩{w['unseen']}张" in text
        if w["points"] is not None:
            assert f"{w['points']}番" in text


def hover_hints(p: Page, st: dict[str, Any]) -> bool:
    """On my turn with a discard that leaves the hand ready: hovering it shows the waits it leaves."""
    after = st["hints"].get("after_discard") or {}
    if not after:
        return False
    p.page.mouse.move(5, 300)  # off the hand: the strip lists the discards that leave the hand ready
    p.page.wait_for_function(
        "() => document.querySelector('[data-testid=hints]').dataset.mode === 'ready'", timeout=3000
    )
    assert p.page.locator("[data-testid=my-hand] .tile.ready").count() >= len(after)
    tile = best_discard(st)
    p.page.hover(f"[data-testid=my-hand] .tile.can[data-tile='{tile}'] >> nth=-1")
    p.page.wait_for_function("() => document.querySelector('[data-testid=hints]').dataset.mode === 'after'")
    check_waits_shown(p, after[tile])
    return True


def test_a_guest_plays_a_whole_hand_by_clicks(page: Page) -> None:
    p = page
    enter_as_guest(p)
    play_bot(p, "web-events")
    seen: set[str] = set()
    shot = False
    deadline = time.monotonic() + 90
    hands = 1
    while time.monotonic() < deadline:
        st = wait_my_turn(p)
        if st["screen"] == "settle":
            if shot or hands == 3 or time.monotonic() > deadline - 40:
                break
            # no ready hand this time (the bot was quicker): the screenshot of the hints needs one
            p.page.click("[data-testid=next-hand]")
            hands += 1
            continue
        seen.add(st["phase"])
        if st["hints"].get("waits"):  # a ready hand between turns (a claim prompt): its waits and worth
            assert strip(p)["mode"] == "waits"
            check_waits_shown(p, st["hints"]["waits"])
            seen.add("waits")
        if st["phase"] == "turn" and hover_hints(p, st):
            seen.add("after_discard")
            if not shot:
                quiet(p)
                if state(p)["legal"]:
                    p.shot("table-hints")  # mid-hand, hovering a discard that leaves the hand ready
                    shot = True
        move(p, st, smart=True)
        p.page.wait_for_timeout(60)
    p.page.wait_for_selector("[data-testid=settlement]", timeout=10000)
    assert "exchange" in seen and "turn" in seen
    text = p.page.inner_text("[data-testid=settlement]")
    assert any(w in text for w in ("你赢了", "对手胡了", "流局"))
    # the bean change is the server's actual one (hand_end.beans), not deltas × rate
    end = p.page.evaluate(
        "() => { const s = window.erma.state; return {beans: s.end.beans, seat: s.match.seat}; }"
    )
    shown = p.page.locator("[data-testid=beans] .beanline .delta").all_inner_texts()
    me = end["seat"]
    assert [int(x.replace("+", "")) for x in shown] == [end["beans"][me], end["beans"][1 - me]]
    p.page.wait_for_timeout(300)
    p.shot("settlement-events", full_page=True)
    # replay of the finished hand, step by step
    p.page.click("[data-testid=replay]")
    p.page.wait_for_selector("[data-testid=replay]")
    for _ in range(5):
        p.page.click("[data-testid=replay-next]")
    assert p.page.get_attribute("[data-testid=replay]", "data-step") == "5"
    assert p.page.locator("[data-testid=replay] [data-testid=my-hand] .tile").count() >= 13
    p.page.click("[data-testid=replay-close]")
    p.page.wait_for_selector("[data-testid=settlement]")


def test_refresh_mid_hand_restores_the_table(phone: Page) -> None:
    p = phone  # on a phone-sized screen
    enter_as_guest(p)
    play_bot(p, "web-plain")
    moves = 0
    while True:  # a few moves into a hand; a hand won within them (a quick win) gives way to the next
        st = wait_my_turn(p)
        if st["screen"] == "settle":
            p.page.click("[data-testid=next-hand]")
            p.page.wait_for_function("() => window.erma.state.screen === 'table'")
            moves = 0
            continue
        if moves == 4:
            break
        move(p, st)
        moves += 1
        p.page.wait_for_timeout(100)
    before = st
    assert before["screen"] == "table"
    p.page.wait_for_timeout(1500)  # let callouts fade
    p.shot("table-phone-refresh")
    beans = p.page.inner_text("#beans")
    p.page.reload()
    p.page.wait_for_selector("[data-testid=table]")
    after = wait_my_turn(p)
    assert p.page.inner_text("#beans") == beans  # the balance is shown the same way after a reload
    assert after["match"] == before["match"]
    assert after["hand"] == before["hand"] and after["wall"] == before["wall"]
    assert after["discards"] == before["discards"]
    assert p.page.locator("[data-testid=my-hand] .tile").count() == len(
        [c for c in before["hand"] if c.isdigit()]
    )
    # and play goes on from the restored table (the action's seq continues after the refresh)
    rivers = sum(len(d) for d in after["discards"])
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        st = state(p)
        if st["screen"] != "table" or sum(len(d) for d in st["discards"]) > rivers:
            break
        if st["legal"]:
            move(p, st)  # a click can miss while the table re-renders (auto-play switched off): look again
        p.page.wait_for_timeout(300)
    else:
        raise AssertionError("no discard was played after the refresh")


def test_a_claim_prompt_appears_and_works(page: Page) -> None:
    p = page
    enter_as_guest(p)
    play_bot(p, "web-plain")
    deadline = time.monotonic() + 90
    claimed = None
    while time.monotonic() < deadline and claimed is None:
        st = wait_my_turn(p)
        if st["screen"] == "settle":
            p.page.click("[data-testid=next-hand]")
            continue
        if st["phase"] == "claim" and any(a.split()[0] in ("chow", "pung", "kong") for a in st["legal"]):
            assert p.page.locator("[data-testid=act-pass]").count() == 1
            me = p.page.evaluate("() => window.erma.state.view.seat")
            melds_before = len(st["melds"][me])
            kind = move(p, st, claim=True)
            if kind in ("chow", "pung", "kong"):
                p.page.wait_for_function(
                    "() => { const v = window.erma.state.view; "
                    f"return v && v.melds[{me}].length > {melds_before}; }}",
                    timeout=10000,
                )
                assert p.page.locator(".seat.me .melds .meld").count() == melds_before + 1
                claimed = kind
                p.page.wait_for_timeout(400)
                p.shot("claim")
            continue
        move(p, st)
        p.page.wait_for_timeout(50)
    assert claimed, "no claim prompt came up"


INJECT = """(tile) => {
  const v = window.erma.state.view;
  v.hints = {after_discard: {[tile]: [{tile: '3m', unseen: 2, points: 4, points_self: 6},
                                       {tile: '6m', unseen: 0, points: null, points_self: null}]}};
  window.erma.render();
}"""


def test_hints_strip_and_one_action_per_decision(page: Page) -> None:
    """The strip renders the server's hints as given (waits, unseen, worth on a discard and self-drawn), and a
    decision is answered once however often the client is asked to act on it."""
    p = page
    enter_as_guest(p)
    play_bot(p, "web-plain")
    st = wait_my_turn(p)
    while st["phase"] != "turn":
        move(p, st)
        p.page.wait_for_timeout(100)
        st = wait_my_turn(p)
    p.page.wait_for_timeout(300)
    st = state(p)
    tile = sorted(a.split()[1] for a in st["legal"] if a.startswith("discard ") and not a.endswith("riichi"))[
        0
    ]
    p.page.evaluate(INJECT, tile)
    assert strip(p)["mode"] == "ready" and p.page.locator("[data-testid=hints] .tile").count() == 1
    assert p.page.locator("[data-testid=my-hand] .tile.ready").count() >= 1
    assert p.page.locator("[data-testid=my-hand] .tile.ready").count() == (
        p.page.locator(f"[data-testid=my-hand] .tile.can[data-tile='{tile}']").count()
    )
    p.page.hover(f"[data-testid=my-hand] .tile.ready[data-tile='{tile}'] >> nth=0")
    shown = strip(p)
    assert shown["mode"] == "after"
    assert [w[0] for w in shown["waits"]] == ["3m", "6m"]
    assert "剩2张" in shown["waits"][0][1] and "4番 · 自摸6番" in shown["waits"][0][1]
    assert p.page.locator("[data-testid=hints] .wait.dead.nofan[data-tile='6m']").count() == 1
    assert "剩0张" in shown["waits"][1][1] and "番数不够" in shown["waits"][1][1]
    p.page.mouse.move(5, 300)
    p.page.wait_for_function("() => document.querySelector('[data-testid=hints]').dataset.mode === 'ready'")
    # between turns: the waits of the ready hand
    p.page.evaluate(
        """() => { const v = window.erma.state.view;
          v.hints = {waits: [{tile: '1p', unseen: 3, points: 2, points_self: 2}]}; window.erma.render(); }"""
    )
    shown = strip(p)
    assert shown["mode"] == "waits" and [w[0] for w in shown["waits"]] == ["1p"]
    assert (
        "剩3张" in shown["waits"][0][1]
        and "2番" in shown["waits"][0][1]
        and "自摸" not in shown["waits"][0][1]
    )
    # one action per decision: asked twice (a double click), the client sends once
    seq = "() => JSON.parse(localStorage.getItem('erma.seq') || '{}')[window.erma.state.match.id] || 0"
    before = p.page.evaluate(seq)
    p.page.evaluate(f"() => {{ window.erma.act('discard {tile}'); window.erma.act('discard {tile}'); }}")
    assert p.page.evaluate(seq) == before + 1
    p.page.wait_for_function(
        "() => { const v = window.erma.state.view; return v.discards[v.seat].length > 0; }", timeout=10000
    )


def test_a_wenzhou_hand_by_clicks(page: Page) -> None:
    """温州: the 买底 / 顶底 prompt, the 财神 on the table and in the hand, the multiplier at settlement."""
    p = page
    enter_as_guest(p)
    play_bot(p, "web-wenzhou")
    prompted = False
    shot = False
    won = None
    deadline = time.monotonic() + 75
    while time.monotonic() < deadline and won is None:
        st = wait_my_turn(p)
        if st["screen"] == "settle":
            result = p.page.evaluate("() => window.erma.state.end.result")
            if result["reason"] == "win":
                won = result
                break
            p.page.click("[data-testid=next-hand]")  # a 流局: play the next hand
            continue
        if st["phase"] in ("maidi", "dingdi"):
            assert p.page.locator("[data-testid=stake-prompt]").count() == 1
            assert p.page.locator(f"[data-testid=act-{st['phase']}]").count() == 1
            assert p.page.locator("[data-testid=act-pass]").count() == 1
            prompted = True
        if st["caishen"]:
            cs = p.page.locator("[data-testid=caishen] .cs-head .tile")
            assert cs.get_attribute("data-tile") == st["caishen"]
            if parse_tile(st["caishen"]) in parse(st["hand"]):
                assert p.page.locator("[data-testid=my-hand] .tile.caishen").count() >= 1
            if not shot and st["phase"] == "turn" and sum(len(d) for d in st["discards"]) >= 6:
                quiet(p)
                if state(p)["legal"]:
                    p.shot("table-wenzhou")
                    shot = True
        move(p, st)
        p.page.wait_for_timeout(60)
    assert prompted, "no 买底 / 顶底 prompt"
    assert won is not None, "no win within the time"
    p.page.wait_for_selector("[data-testid=settlement]")
    mult = p.page.inner_text("[data-testid=multiplier]")
    assert mult.startswith(f"×{won['multiplier']}")
    assert {1: "软胡", 2: "硬胡", 4: "双翻"}[won["multiplier"]] in mult
    text = p.page.inner_text("[data-testid=fans]")
    assert f"底 {won['base']} × {won['multiplier']}" in text and f"= {won['win_points']}" in text
    p.page.wait_for_timeout(300)
    p.shot("settlement-wenzhou", full_page=True)


def test_touch_first_tap_picks_second_discards(browser: Any, web_server: Any) -> None:
    """A touch screen (no hover): a first tap picks a tile (raised, its hints shown), a second discards it."""
    p = Page(browser, web_server.url, width=390, height=844)
    p.context.close()
    p.context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="zh-CN", has_touch=True, is_mobile=True
    )
    p.page = p.context.new_page()
    p.page.on("console", lambda m: m.type == "error" and p.errors.append(m.text))
    p.page.on("pageerror", lambda e: p.errors.append(f"uncaught: {e}"))
    try:
        assert p.page.evaluate("() => matchMedia('(hover: none)').matches")
        enter_as_guest(p)
        play_bot(p, "web-plain")
        st = wait_my_turn(p)
        while st["phase"] != "turn":
            move(p, st)
            p.page.wait_for_timeout(100)
            st = wait_my_turn(p)
        me = p.page.evaluate("() => window.erma.state.view.seat")
        before = len(st["discards"][me])
        tile = p.page.locator("[data-testid=my-hand] .tile.can >> nth=0")
        kind = tile.get_attribute("data-tile")
        tile.tap()
        p.page.wait_for_selector(f"[data-testid=my-hand] .tile.picked[data-tile='{kind}']")
        assert strip(p)["mode"] == "after"
        assert len(state(p)["discards"][me]) == before  # not yet discarded
        p.page.locator(f"[data-testid=my-hand] .tile.picked[data-tile='{kind}']").tap()
        # read the river's newest tile in the same moment it grows (the bot may claim it right after)
        newest = p.page.wait_for_function(
            f"() => {{ const d = window.erma.state.view.discards[{me}];"
            f" return d.length > {before} ? d[d.length - 1] : null; }}",
            timeout=10000,
        ).json_value()
        assert newest == kind
    finally:
        p.close()
    assert p.errors == [], f"console errors: {p.errors}"
