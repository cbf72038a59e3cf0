"""The phone (issue 36) in Debian's Chromium as a touch phone: upright (390×844, 360×740) and sideways
(844×390, 740×360), every preset, both languages: the own hand's tiles (≥ 30 px upright, ≥ 40 px sideways),
nothing wider than the screen on the table and the settlement, the settlement and the match's end on one
sideways screen; the installed app (manifest, icons, service worker, an offline start up to the lobby's
"cannot reach the server"); touch (drag up to discard, one-tap discard), the screen kept awake and the
vibration; a player's polish (the escape's cost, 接炮 on one's own win, the draw worded for "you", the seed
explained, the upgrade in the lobby). Screenshots for docs/screenshots/.

One table per preset serves all four viewports and both languages (the language chip re-renders it), and its
hand is finished by 托管 (the server plays the seat at the bots' pace): the file runs in about a minute."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

from erma.game.engine import family_for
from erma.rules import find_ruleset
from tests.web.conftest import Page
from tests.web.test_client import enter_as_guest, move, play_bot, state, wait_my_turn

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

UPRIGHT = [(390, 844), (360, 740)]
SIDEWAYS = [(844, 390), (740, 360)]
PRESETS = {
    "cuopai789": "web-plain",
    "classic64": "web-classic",
    "wushuang128": "web-wushuang",
    "wenzhou2p": "web-wenzhou",
}

MEASURE = """() => {
  document.getAnimations().forEach((a) => { try { a.finish(); } catch (e) {} });
  const W = window.innerWidth;
  const wide = [];
  for (const e of document.querySelectorAll('#app *')) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (r.right > W + 0.5 || r.left < -0.5) {
      wide.push(`${e.tagName}.${e.className} ${r.left.toFixed(0)}..${r.right.toFixed(0)}`);
    }
  }
  const els = [...document.querySelectorAll('[data-testid=my-hand] .tile')];
  const tiles = els.map((t) => t.getBoundingClientRect());
  const covered = tiles.map((r) => document.elementFromPoint(r.left + r.width / 2, r.top + r.height * 0.6))
    .filter((e) => !(e && e.closest && e.closest('[data-testid=my-hand]')))
    .map((e) => e ? `${e.tagName}.${e.className}` : 'nothing');
  const hit = tiles.length - covered.length;
  const rows = new Set(els.map((t) => t.offsetTop)).size;  // (the layout's rows: a raised tile is in its row)
  return {doc: document.documentElement.scrollWidth, docH: document.documentElement.scrollHeight,
          W, H: window.innerHeight, wide: wide.slice(0, 5), n: tiles.length,
          tile: tiles.length ? Math.min(...tiles.map((r) => r.width)) : null,
          bottom: tiles.length ? Math.max(...tiles.map((r) => r.bottom)) : null, hit, covered, rows};
}"""

LOADED = """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() =>
  done([...document.querySelectorAll('#app img')].every((i) => i.complete && i.naturalWidth > 0)))))"""
FIGURES: list[str] = []
AUTOPLAY = "() => window.erma.send({type: 'autoplay', match: window.erma.state.match.id, on: true})"


def phone_page(browser: Any, url: str, lang: str, width: int = 390, height: int = 844) -> Page:
    return Page(browser, url, width, height, touch=True, lang=lang)


def set_lang(p: Page, lang: str) -> None:
    if p.page.evaluate("() => document.documentElement.lang") != ("zh-CN" if lang == "zh" else "en"):
        p.page.click("#lang")
    p.page.wait_for_function(f"() => document.documentElement.lang === '{'zh-CN' if lang == 'zh' else 'en'}'")


def at(p: Page, size: tuple[int, int]) -> dict[str, Any]:
    p.page.set_viewport_size({"width": size[0], "height": size[1]})
    p.page.wait_for_function(LOADED)  # (a re-render's new tiles have their height once loaded)
    got: dict[str, Any] = p.page.evaluate(MEASURE)
    return got


def check_table(p: Page, preset: str, lang: str, shot: bool) -> None:
    """Every viewport: the hand's tiles large enough, each one tappable (the tap lands on it), the document
    no wider than the screen, no element outside it."""
    for size in UPRIGHT + SIDEWAYS:
        m = at(p, size)
        upright = size[0] < size[1]
        FIGURES.append(
            f"table {preset} {lang} {size[0]}×{size[1]}: {m['n']} tiles of {m['tile']:.1f} px "
            f"in {m['rows']} row(s), document {m['doc']}×{m['docH']}"
        )
        where = f"{preset} {lang} {size}"
        if shot and size in ((390, 844), (740, 360)):
            p.shot(f"phone-table-{preset}-{lang}-{size[0]}")
        assert m["doc"] <= size[0], f"{where}: document {m['doc']} px wide"
        assert m["wide"] == [], f"{where}: outside the screen: {m['wide']}"
        assert m["tile"] >= (30 if upright else 40), f"{where}: hand tiles {m['tile']:.1f} px"
        assert m["hit"] == m["n"], f"{where}: only {m['hit']} of {m['n']} tiles take a tap: {m['covered']}"
        if upright:
            assert m["rows"] == 2 or m["n"] <= 9, f"{where}: the hand is not in two rows ({m['rows']})"


def check_settlement(p: Page, preset: str, lang: str, what: str, shot: bool) -> None:
    """Sideways on one screen (no scrolling either way); upright no wider than the screen."""
    for size in SIDEWAYS + UPRIGHT:
        m = at(p, size)
        FIGURES.append(f"{what} {preset} {lang} {size[0]}×{size[1]}: document {m['doc']}×{m['docH']}")
        where = f"{what} {preset} {lang} {size}"
        if size in ((844, 390), (740, 360)) and (shot or lang == "zh"):
            p.page.evaluate("() => { document.getElementById('notice').hidden = true; }")  # a passing line
            p.shot(f"phone-{what}-{preset}-{lang}-{size[0]}")
        assert m["doc"] <= size[0] and m["wide"] == [], f"{where}: {m['doc']} px wide, {m['wide']}"
        if size[0] > size[1]:
            assert m["docH"] <= size[1], f"{where}: {m['docH']} px tall on a {size[1]} px screen"
        elif what == "settlement":  # upright: its buttons in one row (a second one fell below the screen)
            tops = p.page.eval_on_selector_all(
                ".settle .end-actions .btn", "bs => bs.map((b) => Math.round(b.getBoundingClientRect().top))"
            )
            assert len(set(tops)) == 1, f"{where}: the buttons in {len(set(tops))} rows"


HAND_SEEN = """() => {
  const tiles = [...document.querySelectorAll('.replay .hand.mine .tile')];
  const hidden = [];  // a tile covered at its centre or its foot: its top, what elementFromPoint hits there
  for (const t of tiles) {
    const r = t.getBoundingClientRect();
    for (const y of [r.top + r.height / 2, r.bottom - 3]) {
      const at = document.elementFromPoint(r.left + r.width / 2, y);
      if (at && t.contains(at)) continue;
      hidden.push(`${Math.round(r.top)}: ${at ? `${at.tagName}.${at.className}` : 'nothing'}`);
      break;
    }
  }
  return [tiles.length - hidden.length, tiles.length, hidden.slice(0, 3)];
}"""


def check_replay(p: Page, preset: str) -> None:
    """The replay sideways as it opens (not scrolled): the own hand in sight, not under the controls (each
    tile's centre and foot; an opponent's meld by then made the row above taller and pushed the hand under
    them in 温州, whose 财神 box makes the centre tall)."""
    p.page.click(".settle [data-testid=replay]")
    p.page.wait_for_selector(".replay-controls")
    for _ in range(6):
        p.page.keyboard.press("ArrowRight")
    for size in SIDEWAYS:
        p.page.set_viewport_size({"width": size[0], "height": size[1]})
        p.page.evaluate("() => window.scrollTo(0, 0)")
        p.page.wait_for_timeout(100)
        seen, n, hidden = p.page.evaluate(HAND_SEEN)
        if n and seen != n:
            p.shot(f"phone-replay-{preset}-{size[0]}-hidden")
        assert n and seen == n, f"replay {preset} {size}: {seen} of {n} own tiles in sight, under {hidden}"
    p.page.set_viewport_size({"width": 390, "height": 844})
    p.page.click("[data-testid=replay-close]")
    p.page.wait_for_selector("[data-testid=settlement]")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_phone_table_and_settlement(browser: Any, web_server: Any, preset: str) -> None:
    """One hand of the preset on a touch phone, measured at the four sizes in both languages: on the table at
    my first turn, then (the hand finished by 托管) on the settlement, then at the match's end."""
    p = phone_page(browser, web_server.url, "zh")
    try:
        enter_as_guest(p)
        play_bot(p, PRESETS[preset])
        st = wait_my_turn(p, timeout=30)
        while st["phase"] != "turn" and st["screen"] == "table":  # past the stakes / exchange to a discard
            move(p, st)
            p.page.wait_for_timeout(60)
            st = wait_my_turn(p, timeout=30)
        shot = preset in ("cuopai789", "wenzhou2p")
        for lang in ("zh", "en"):
            set_lang(p, lang)
            check_table(p, preset, lang, shot)
        p.page.set_viewport_size({"width": 390, "height": 844})
        p.page.evaluate(AUTOPLAY)
        p.page.wait_for_selector("[data-testid=settlement]", timeout=60000)
        for lang in ("zh", "en"):
            set_lang(p, lang)
            check_settlement(p, preset, lang, "settlement", shot)
        check_replay(p, preset)
        # the player leaves between hands: the match's end, on the same screen
        p.page.evaluate("() => window.erma.send({type: 'leave', match: window.erma.state.match.id})")
        p.page.wait_for_selector("[data-testid=match-over]", timeout=10000)
        for lang in ("zh", "en"):
            set_lang(p, lang)
            check_settlement(p, preset, lang, "match-end", shot)
    finally:
        p.close()
        print("\n" + "\n".join(line for line in FIGURES if f" {preset} " in line))  # (pytest -s: docs/web.md)
    assert p.errors == [], p.errors


# ------------------------------------------------------------------------------ the installed app


def test_manifest_icons_and_service_worker_headers(web_server: Any) -> None:
    """The manifest names a full-screen app and icons that load; the service worker comes from the root scope,
    revalidated at each load, and the page's CSP lets both load (manifest-src and worker-src fall back to
    'self')."""
    url = web_server.url
    page = httpx.get(f"{url}/")
    # from the root, so a /join/<code> page (the same file) finds them too
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page.text
    assert httpx.get(f"{url}/join/AnyCode123").text == page.text
    csp = page.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    r = httpx.get(f"{url}/manifest.webmanifest")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/manifest+json")
    manifest = r.json()
    assert manifest["display"] in ("fullscreen", "standalone") and manifest["start_url"] == "./"
    sizes = {i["sizes"] for i in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any("maskable" in i.get("purpose", "") for i in manifest["icons"])
    for icon in manifest["icons"]:
        got = httpx.get(f"{url}/{icon['src']}")
        assert got.status_code == 200 and got.headers["content-type"] == icon["type"], icon
        if icon["type"] == "image/png":
            w, h = int.from_bytes(got.content[16:20], "big"), int.from_bytes(got.content[20:24], "big")
            assert f"{w}x{h}" == icon["sizes"], icon
    sw = httpx.get(f"{url}/sw.js")
    assert sw.status_code == 200 and sw.headers["content-type"].startswith("text/javascript")
    assert sw.headers["cache-control"] == "no-cache" and sw.headers["service-worker-allowed"] == "/"
    # the worker never answers for the game: its own rule, read from the file
    assert "api|ws|healthz|metrics" in sw.text


def test_the_app_starts_offline_to_the_lobbys_message(browser: Any, web_server: Any) -> None:
    """Online once (the service worker installs and caches the client as it loads), then offline: the page
    still opens from the cache, and the lobby says it cannot reach the server, in the page's language."""
    p = phone_page(browser, web_server.url, "en")
    try:
        p.page.goto(p.url)
        p.page.wait_for_selector("[data-testid=guest]")
        p.page.evaluate("() => navigator.serviceWorker.ready")
        p.page.reload()  # now controlled: every module goes through the worker into its cache
        p.page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        p.page.wait_for_selector("[data-testid=guest]")
        assert p.page.evaluate("() => window.erma.phone.worker") == "registered"
        assert p.page.locator("[data-testid=offline]").count() == 0
        p.context.set_offline(True)
        p.page.reload()
        p.page.wait_for_selector("[data-testid=offline]", timeout=10000)
        assert "Cannot reach the server" in p.page.inner_text("[data-testid=offline]")
        p.shot("phone-offline-en")
        p.context.set_offline(False)
    finally:
        p.close()
    # the browser logs the failed fetches of the offline start (the rooms): nothing else
    assert [e for e in p.errors if "ERR_INTERNET_DISCONNECTED" not in e and "Failed to fetch" not in e] == []


# ------------------------------------------------------------------------------ touch, wake lock, vibration

RECORD = """() => {
  window.__buzz = [];
  navigator.vibrate = (pattern) => { window.__buzz.push(pattern); return true; };
  window.__lock = [];
  const sentinel = () => {
    const s = new EventTarget();
    s.release = async () => { window.__lock.push('release'); s.dispatchEvent(new Event('release')); };
    return s;
  };
  Object.defineProperty(navigator, 'wakeLock', {value: {request: async (type) => { window.__lock.push(type);
    return sentinel(); }}, configurable: true});
}"""


FIRST_CAN = """() => {
  const t = document.querySelector('[data-testid=my-hand] .tile.can');
  const r = t.getBoundingClientRect();
  return [t.dataset.tile, r.left + r.width / 2, r.top + r.height / 2];
}"""


def to_my_discard(p: Page) -> dict[str, Any]:
    st = wait_my_turn(p, timeout=30)
    while st["phase"] != "turn" or "win" in st["legal"]:
        move(p, st)
        p.page.wait_for_timeout(60)
        st = wait_my_turn(p, timeout=30)
    return st


def test_drag_up_one_tap_wake_lock_and_vibration(browser: Any, web_server: Any) -> None:
    """A tile dragged up is discarded; with one-tap discard a single tap discards; the screen is held awake
    during the hand; my turn buzzes once (the browser's vibrate and wake lock recorded)."""
    p = phone_page(browser, web_server.url, "zh")
    p.context.add_init_script(f"({RECORD})()")
    try:
        enter_as_guest(p)
        p.page.evaluate("() => { window.erma.settings.vibrate = true; }")
        play_bot(p, "web-plain")
        st = to_my_discard(p)
        p.page.wait_for_function("() => window.__buzz.length > 0 && window.__lock.includes('screen')")
        me = p.page.evaluate("() => window.erma.state.view.seat")
        before = len(st["discards"][me])
        # the tile and where it is, read at once (the table re-renders by itself when the rules page it
        # fetched at the hand's start comes: a tile read by two look-ups could be gone for the second)
        kind, x, y = p.page.evaluate(FIRST_CAN)
        p.page.mouse.move(x, y)
        p.page.mouse.down()
        p.page.mouse.move(x, y - 25, steps=3)
        # a render during the drag (that rules page, a message) keeps the dragged tile under the finger: it
        # replaced it, and the drag was lost (the clean-clone CI: no discard in 10 s)
        p.page.evaluate("() => window.erma.render()")
        p.page.mouse.move(x, y - 70, steps=4)
        p.page.mouse.up()
        newest = p.page.wait_for_function(
            f"() => {{ const d = window.erma.state.view.discards[{me}];"
            f" return d.length > {before} ? d[d.length - 1] : null; }}",
            timeout=10000,
        ).json_value()
        assert newest == kind
        # one-tap discard: the first tap discards
        p.page.evaluate("() => { window.erma.settings.onetap = true; window.erma.render(); }")
        st = to_my_discard(p)
        before = len(st["discards"][me])
        tile = p.page.locator("[data-testid=my-hand] .tile.can >> nth=0")
        kind = tile.get_attribute("data-tile")
        tile.tap()
        newest = p.page.wait_for_function(
            f"() => {{ const d = window.erma.state.view.discards[{me}];"
            f" return d.length > {before} ? d[d.length - 1] : null; }}",
            timeout=10000,
        ).json_value()
        assert newest == kind
        buzz = p.page.evaluate("() => window.__buzz")
        assert buzz and all(b == 30 or b == [40, 60, 40] for b in buzz), buzz
        # the hand ends (托管): the lock is let go on the settlement
        p.page.evaluate(AUTOPLAY)
        p.page.wait_for_selector("[data-testid=settlement]", timeout=60000)
        p.page.wait_for_function("() => window.__lock.at(-1) === 'release'")
    finally:
        p.close()
    assert p.errors == [], p.errors


# ------------------------------------------------------------------------------ a player's polish


def test_the_escape_says_what_it_costs(browser: Any, web_server: Any) -> None:
    """The leave button's confirmation names the beans an escape costs: the engine's escape points (its
    family, the room's rules) times the room's rate."""
    p = phone_page(browser, web_server.url, "en")
    try:
        enter_as_guest(p)
        play_bot(p, "web-classic")
        wait_my_turn(p, timeout=30)
        rooms = httpx.get(f"{web_server.url}/api/rooms").json()["rooms"]
        room = next(r for r in rooms if r["id"] == "web-classic")
        rules = find_ruleset(room["rules"], room["options"])
        points = family_for(rules).escape_points(rules, dealer=0, escaper=1, streak=0, stakes=(False, False))
        said: list[str] = []

        def answer(dialog: Any) -> None:
            said.append(dialog.message)
            dialog.dismiss()

        p.page.on("dialog", answer)
        p.page.click("[data-testid=leave]")
        p.page.wait_for_timeout(200)
        rate = room["bean_rate"]
        beans = points * rate
        assert said == [f"Leaving now is an escape: you pay {beans} beans ({points} points × {rate}). Leave?"]
        assert state(p)["screen"] == "table"  # dismissed: still playing
    finally:
        p.close()
    assert p.errors == [], p.errors


SETTLE = """(args) => {
  const [me, how, seed] = args;
  const s = window.erma.state;
  s.match = {id: 'x', seat: me, room: 'web-cuopai', players: [{name: 'a'}, {name: 'b'}], over: false};
  s.end = {seed, bean_rate: 10, beans: [80, -80], balances: [1080, 920], record_id: null,
           result: {reason: 'win', winner: 0, how, hand: '123m456p789s11z', fan_total: 8, points: 8,
                    fans: [], deltas: [8, -8], hands: ['123m456p789s11z', '1199m']}};
  s.screen = 'settle';
  window.erma.render();
  return document.querySelector('[data-testid=settlement]').innerText;
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_words_a_player_meets(browser: Any, web_server: Any, lang: str) -> None:
    """接炮 for one's own win on a discard and 点炮 only for the one who dealt in; the seed explained (a short
    code inside "both hands", no bare hex); "You draw"; the bots' names worded; the guest's upgrade offered in
    the lobby, where it keeps the beans."""
    p = phone_page(browser, web_server.url, lang)
    try:
        enter_as_guest(p)
        seed = "3fa29c1b" + "0" * 56
        won = p.page.evaluate(SETTLE, [0, "discard", seed])
        lost = p.page.evaluate(SETTLE, [1, "discard", seed])
        if lang == "zh":
            assert "接炮" in won and "点炮" not in won and "你点炮" in lost
        else:
            assert "on the opponent's discard" in won and "on your discard" in lost
        assert not re.search(r"[0-9a-f]{12}", won), "a bare hex seed on the settlement"
        p.page.click("[data-testid=settlement] details summary")
        code = p.page.inner_text("[data-testid=settlement] .seed")
        assert "3fa2 9c1b" in code and ("公平" in code if lang == "zh" else "Fair shuffle" in code)
        drew = p.page.evaluate(
            "async () => { const m = await import('./replay.js');"
            " return [m.describeEvent({type: 'draw', seat: 0}, 0),"
            " m.describeEvent({type: 'draw', seat: 0, tile: '1m'}, 0)]; }"
        )
        assert drew == (["你摸牌", "你摸到 一万"] if lang == "zh" else ["You draw", "You draw 1 Characters"])
        names = p.page.evaluate(
            "async () => { const m = await import('./i18n.js');"
            " return ['机器人·贪心', '机器人·随机'].map((n) => m.playerName(n, true)); }"
        )
        assert all(("机器人" in n) == (lang == "zh") and "greedy" not in n for n in names), names
        # the upgrade, from the lobby
        p.page.evaluate("() => { window.erma.state.screen = 'lobby'; window.erma.render(); }")
        p.page.wait_for_selector("[data-testid=lobby-upgrade]")
        balance = p.page.inner_text("[data-testid=balance]")
        name = f"p{time.monotonic_ns() % 10**9}"
        p.page.fill("[data-testid=lobby-upgrade] input[name=name]", name)
        p.page.fill("[data-testid=lobby-upgrade] input[name=password]", "pw-123456")
        p.page.click("[data-testid=lobby-upgrade-go]")
        p.page.wait_for_selector("[data-testid=lobby-upgrade]", state="detached")
        assert p.page.inner_text("[data-testid=account] .acct-name") == name
        assert p.page.inner_text("[data-testid=balance]") == balance
        token = p.page.evaluate("() => localStorage.getItem('erma.token')")
        me = httpx.get(f"{web_server.url}/api/me", headers={"Authorization": f"Bearer {token}"}).json()
        assert me["account"]["name"] == name and not me["account"]["guest"]
    finally:
        p.close()
    assert p.errors == [], p.errors


def test_no_rule_id_shows_as_a_name(web_server: Any) -> None:
    """A fan table's name as the rules page shows it never carries its id (the page read "(erqs)")."""
    for preset in PRESETS:
        info = httpx.get(f"{web_server.url}/api/rules/{preset}").json()
        table = info.get("fan_table")
        if table:
            assert table["id"] not in table["name_en"] + table["name_zh"], table


READY_BY_MANY = """() => {
  const v = window.erma.state.view;
  const kinds = ['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m', '1p', '2p', '3p', '4p', '5p'];
  v.hints = {after_discard: Object.fromEntries(kinds.map((k) => [k, [{tile: '1s', unseen: 1}]]))};
  window.erma.state.hover = null;
  window.erma.render();
  return document.querySelector('[data-testid=hints]').dataset.mode;
}"""


def test_many_ready_discards_fit_a_small_phone(browser: Any, web_server: Any) -> None:
    """The hint "Ready by discarding:" with many discards (a 财神 hand has a dozen) wraps to a second line
    on a 360 px phone instead of running off both sides of the screen."""
    p = phone_page(browser, web_server.url, "en", 360, 740)
    try:
        enter_as_guest(p)
        play_bot(p, PRESETS["cuopai789"])
        st = wait_my_turn(p, timeout=30)
        while st["phase"] != "turn" and st["screen"] == "table":
            move(p, st)
            p.page.wait_for_timeout(60)
            st = wait_my_turn(p, timeout=30)
        assert p.page.evaluate(READY_BY_MANY) == "ready"
        m = p.page.evaluate(MEASURE)
        assert m["wide"] == [], m["wide"]
        label = p.page.locator("[data-testid=hints] .label").bounding_box()
        assert label and label["x"] >= 0, label  # the words begin on the screen
    finally:
        p.close()
    assert p.errors == [], p.errors


SLIDE_REACH = """() => new Promise((done) => {
  const tiles = [...document.querySelectorAll('[data-testid=my-hand] .tile')];
  const right = (t) => t.getBoundingClientRect().right;
  const edge = tiles.reduce((a, b) => (right(b) > right(a) ? b : a));
  edge.classList.remove('slide');
  void edge.offsetWidth;  // (the animation starts again)
  edge.classList.add('slide');
  let most = 0;
  const start = performance.now();
  const look = () => {
    most = Math.max(most, edge.getBoundingClientRect().right);
    if (performance.now() - start < 450) requestAnimationFrame(look);
    else done({most, width: innerWidth});
  };
  look();
})"""


def test_a_drawn_tile_flies_in_within_the_screen(browser: Any, web_server: Any) -> None:
    """The drawn tile's slide-in stays inside the screen even for the tile at its right edge: flying in from
    beyond it widened the page, and a phone zoomed the whole table out."""
    p = phone_page(browser, web_server.url, "zh")
    try:
        enter_as_guest(p)
        play_bot(p, PRESETS["cuopai789"])
        wait_my_turn(p, timeout=30)
        reach = p.page.evaluate(SLIDE_REACH)
        assert reach["most"] <= reach["width"] + 0.5, reach
        assert p.page.evaluate("() => innerWidth") == 390
    finally:
        p.close()
    assert p.errors == [], p.errors


@pytest.mark.parametrize(("lang", "title"), [("zh", "怎么操作"), ("en", "How to play here")])
def test_the_help_on_a_phone_is_about_taps(browser: Any, web_server: Any, lang: str, title: str) -> None:
    """The table's "?" on a touch phone explains taps and drags (a phone has no keyboard to list)."""
    p = phone_page(browser, web_server.url, lang)
    try:
        enter_as_guest(p)
        play_bot(p, PRESETS["cuopai789"])
        p.page.locator("[data-testid=help-open]").tap()
        text = p.page.inner_text("[data-testid=help]")
        assert title in text and "Enter" not in text, text
        assert ("再点一下就打出" if lang == "zh" else "tap it again to discard") in text
        m = p.page.evaluate(MEASURE)
        assert m["wide"] == [], m["wide"]
    finally:
        p.close()
    assert p.errors == [], p.errors


MANY_WAITS = """([n, decide]) => {
  const v = window.erma.state.view;
  const kinds = ['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m', '1p', '2p', '3p'];
  v.hints = {waits: kinds.slice(0, n).map((k) => ({tile: k, unseen: 3, points: 41, points_self: 81}))};
  const was = (window.__was ||= {phase: v.phase, legal: v.legal, last: v.last_discard});  // my real turn
  Object.assign(v, {phase: was.phase, legal: was.legal, last_discard: was.last});
  if (decide === 'claim') {  // the opponent's discard: every claim at once
    v.phase = 'claim';
    v.last_discard = '5s';
    v.legal = ['win', 'kong', 'pung', 'chow 3s', 'chow 4s', 'pass'];
  } else if (decide === 'turn') {  // my turn: 自摸, a concealed kong, 报听 (and the discards under it)
    const discards = v.legal.filter((a) => a.startsWith('discard ') && !a.endsWith('riichi'));
    v.legal = [...discards, ...discards.map((a) => `${a} riichi`), 'win', 'akong 9s'];
  }
  window.erma.state.hover = null;
  window.erma.render();
  return document.querySelector('[data-testid=hints]').dataset.mode;
}"""

#: A tile of my hand focused (as a hover or a first tap does): the strip shows what discarding it leaves; the
#: hand's tiles and the decision buttons that moved with it (sideways the foot once wrapped onto a second line
#: on a hover and the hand jumped from under the mouse, back and forth every frame).
HOVER_STILL = """() => {
  const sel = '[data-testid=my-hand] .tile, [data-testid=actions] .btn';
  const at = (r) => `${Math.round(r.left)},${Math.round(r.top)}`;
  const where = () => [...document.querySelectorAll(sel)].map((e) => at(e.getBoundingClientRect()));
  const before = where();
  const tile = document.querySelector('[data-testid=my-hand] .tile.can');
  tile.focus();
  const mode = document.querySelector('[data-testid=hints]').dataset.mode;
  const after = where();
  tile.blur();
  return {mode, moved: before.map((b, i) => (b === after[i] ? null : `${b} -> ${after[i]}`)).filter(Boolean)};
}"""

WAITS_SEEN = """() => {
  document.getAnimations().forEach((a) => { try { a.finish(); } catch (e) {} });
  const W = innerWidth, H = innerHeight;
  const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const out = (r) => r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5;
  const box = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
  const others = [...document.querySelectorAll('[data-testid=my-hand] .tile, .tablewrap .btn')]
    .map((e) => e.getBoundingClientRect());
  const across = [], down = [], over = [], hidden = [], off = [], clipped = [];
  const strip = document.querySelector('[data-testid=hints]');
  const sr = strip.getBoundingClientRect();
  const waits = [...strip.querySelectorAll('.wait')];
  for (const w of waits) {
    const r = w.getBoundingClientRect();
    const name = `${w.dataset.tile} ${box(r)}`;
    // beyond the strip's edge: reached by a swipe of the strip (scrolls below), not of the page
    if (r.left < sr.left - 0.5 || r.right > sr.right + 0.5) { clipped.push(name); continue; }
    if (r.left < 0 || r.right > W) across.push(name);
    if (r.top < 0 || r.bottom > H) down.push(name);
    if (others.some((o) => hit(r, o))) over.push(name);
    // shown: what is at its tile's centre is the wait (not cut off by the strip, not covered)
    const t = w.querySelector('.tile').getBoundingClientRect();
    const at = document.elementFromPoint(t.left + t.width / 2, t.top + t.height / 2);
    if (!(at && w.contains(at))) hidden.push(`${name} under ${at ? at.className : 'nothing'}`);
  }
  // the strip swiped to its end: its last wait in it (then back)
  let last = null;
  if (clipped.length) {
    strip.scrollLeft = strip.scrollWidth;
    const r = waits.at(-1).getBoundingClientRect();
    last = r.left >= sr.left - 0.5 && r.right <= sr.right + 0.5 && r.right <= W;
    strip.scrollLeft = 0;
  }
  // every decision button, the hand and the strip itself: wholly on the screen
  const must = [...document.querySelectorAll('[data-testid=actions] .btn, [data-testid=my-hand] .tile')];
  for (const e of [strip, ...must]) {
    const r = e.getBoundingClientRect();
    if (out(r)) off.push(`${e.dataset.testid || e.dataset.tile || e.className} ${box(r)}`);
  }
  const se = document.scrollingElement;
  const buttons = document.querySelectorAll('[data-testid=actions] .btn').length;
  return {across, down, over, hidden, off, clipped, last, buttons, H, W,
          scroll: se.scrollHeight, scrollW: se.scrollWidth,
          strip: {w: Math.round(sr.width), sw: strip.scrollWidth, h: Math.round(sr.height)}};
}"""

PHONES = UPRIGHT + SIDEWAYS


def waits_problems(p: Page, seen: dict[str, Any], where: str, *, hover: bool) -> list[str]:
    """What :data:`WAITS_SEEN` found wrong on any screen: a wait outside the screen, covered or over the
    hand or a button; something off the screen; the page scrolling; and with ``hover``, a focused tile (a
    hover, a first tap) that moved the hand or the buttons."""
    bad = []
    if seen["across"] or seen["over"] or seen["hidden"] or seen["down"] or seen["off"]:
        bad.append(f"{where}: not all seen: {seen}")
    if seen["scroll"] > seen["H"] or seen["scrollW"] > seen["W"]:
        bad.append(f"{where}: the page scrolls: {seen}")
    if hover:
        still = p.page.evaluate(HOVER_STILL)
        if still["mode"] != "after" or still["moved"]:
            bad.append(f"{where}: a hovered tile moved the hand or the buttons: {still}")
    return bad


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_many_waits_are_all_seen_on_a_phone(
    browser: Any, web_server: Any, lang: str, size: tuple[int, int]
) -> None:
    """温州's 财神 give many waits: on a phone each one (tile, count, worth) is on the screen, not cut off by
    the strip (sideways they were: the first one or two beside the seat's name), not over the hand or a
    button; and with them the hand and every decision button (和 碰 吃 杠 过 on the opponent's discard,
    自摸 杠 报听 on my turn) wholly on the screen without the page scrolling (at 360×740 and 740×360 the
    buttons were below the screen's foot). A dozen waits: the strip scrolls sideways inside itself, the
    page never. (Every case is measured before the test fails: one run says all that is wrong.)"""
    p = phone_page(browser, web_server.url, lang, *size)
    try:
        enter_as_guest(p)
        play_bot(p, PRESETS["wenzhou2p"])
        to_my_discard(p)
        bad: list[str] = []
        for n, decide in ((6, "none"), (6, "claim"), (6, "turn"), (12, "claim"), (12, "turn")):
            assert p.page.evaluate(MANY_WAITS, [n, decide]) == "waits"
            p.page.wait_for_function(LOADED)
            seen = p.page.evaluate(WAITS_SEEN)
            where = f"{n} waits, {decide}, {lang} {size}"
            if decide != "none" and size in ((360, 740), (740, 360)):
                p.shot(f"phone-waits{n}-{decide}-{lang}-{size[0]}x{size[1]}")
            bad += waits_problems(p, seen, where, hover=decide != "claim")  # my turn: a hover moves nothing
            if seen["clipped"] and (n == 6 or not seen["last"]):  # six all in sight; more by a swipe
                bad.append(f"{where}: waits out of the strip's sight: {seen}")
            if decide != "none" and seen["buttons"] < 3:
                bad.append(f"{where}: {seen['buttons']} buttons")
        assert bad == [], "\n".join(bad)
    finally:
        p.close()
    assert p.errors == [], p.errors
