"""Browser tests: a real server (tests/server/conftest.py) and Debian's Chromium driven by Playwright.

Screenshots go to tests/web/screenshots/ (git-ignored; the latest ones are copied by hand into
docs/screenshots/ when the client's look changes).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("erma.server.app", reason="the server (erma.server) is not in this tree")
pytest.importorskip("tests.server.conftest", reason="the server's test helpers are not in this tree")

from tests.server.conftest import Running, start_server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SHOTS = Path(__file__).parent / "screenshots"

ROOMS = """
[[room]]
id = "web-cuopai"
name_zh = "搓牌 测试场"
name_en = "Cuopai · test"
rules = "cuopai789"
options = { next_hand_timeout_s = 60.0 }  # time to step through a replay in the tests
tier = "novice"
entry_min = 100
bean_rate = 10

[[room]]
id = "web-events"
name_zh = "搓牌 事件场"
name_en = "Cuopai · events"
rules = "cuopai789"
options = { cuo_prob = 1.0, triplet_offer_prob = 1.0 }
tier = "novice"
entry_min = 100
bean_rate = 10

[[room]]
id = "web-plain"
name_zh = "搓牌 无事件"
name_en = "Cuopai · plain"
rules = "cuopai789"
options = { cuo_prob = 0.0, triplet_offer_prob = 0.0, start_exchange_enabled = false }
tier = "expert"
entry_min = 100
bean_rate = 200

[[room]]
id = "web-classic"
name_zh = "经典 测试场"
name_en = "Classic · test"
rules = "classic64"
options = { next_hand_timeout_s = 60.0 }  # time to step through a replay in the tests
tier = "novice"
entry_min = 100
bean_rate = 1

[[room]]
id = "web-wushuang"
name_zh = "无双 测试场"
name_en = "Wushuang · test"
rules = "wushuang128"
options = { next_hand_timeout_s = 60.0 }  # time to step through a replay in the tests
tier = "novice"
entry_min = 100
bean_rate = 1

[[room]]
id = "web-wenzhou"
name_zh = "温州 测试场"
name_en = "Wenzhou · test"
rules = "wenzhou2p"
options = { next_hand_timeout_s = 60.0 }  # time to step through a replay in the tests
tier = "novice"
entry_min = 100
bean_rate = 5
"""


#: The files whose tests play whole matches and hands (the longest), first, in this order: with the Makefile's
#: ``-n 2 --dist worksteal`` the short tests fill the end of the run instead of one long test running alone.
LONG_FIRST = (
    "test_friend.py",
    "test_friend_beans.py",
    "test_review.py",
    "test_client.py",
    "test_table.py",
    "test_match_view.py",
    "test_teach.py",
    "test_phone.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """LONG_FIRST's files first among the browser tests (a stable sort), in the browser tests' own places:
    in a run with other tests no other test moves behind a page's event loop."""
    here = Path(__file__).parent
    slots = [i for i, item in enumerate(items) if item.path.parent == here]

    def rank(item: pytest.Item) -> int:
        name = item.path.name
        return LONG_FIRST.index(name) if name in LONG_FIRST else len(LONG_FIRST)

    for i, item in zip(slots, sorted((items[i] for i in slots), key=rank), strict=True):
        items[i] = item


def serve(
    tmp_path_factory: pytest.TempPathFactory, name: str, rooms: str = ROOMS, **settings: Any
) -> Iterator[Running]:
    """A server for the browser tests on its own data folder and rooms file (skipped without chromium),
    stopped when the fixture that yields from this ends. Each xdist worker starts its own, on its own port
    (a port another worker's server took first is given up for another)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (.ci/run installs Debian's chromium)")
    for _ in range(3):
        tmp = tmp_path_factory.mktemp(name)
        path = tmp / "rooms.toml"
        path.write_text(rooms, encoding="utf-8")
        try:
            srv, thread, running = start_server(tmp, rooms_file=str(path), **settings)
        except RuntimeError:  # nothing answered on its port
            continue
        while not srv.started and thread.is_alive():  # (its /healthz may be another worker's server)
            time.sleep(0.01)
        if srv.started:
            break
        thread.join(10)  # its port was taken between free_port() and its bind: another port
    else:
        raise RuntimeError(f"the {name} server did not start")
    yield running
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    yield from serve(
        tmp_path_factory,
        "web",
        bot_pause_s=0.05,
        claim_window_s=0.05,
        bot_fill_s=0.5,
        timeouts=True,
        time_scale=1.0,
    )


@pytest.fixture(scope="session")
def paced_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """A server with the real pacing: the uniform 1.2 s pause after a person's discard (claim_window_s)."""
    yield from serve(
        tmp_path_factory, "paced", bot_pause_s=0.3, claim_window_s=1.2, bot_fill_s=0.5, time_scale=1.0
    )


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Page:
    """A fresh browser context and page that records console errors and uncaught exceptions."""

    def __init__(
        self,
        browser: Any,
        url: str,
        width: int = 960,
        height: int = 720,
        touch: bool = False,
        lang: str = "zh",
    ) -> None:
        self.context = browser.new_context(
            viewport={"width": width, "height": height},
            locale="zh-CN" if lang == "zh" else "en-US",
            has_touch=touch,
            is_mobile=touch,
        )
        if lang != "zh":  # the client remembers its language in localStorage
            self.context.add_init_script(
                f"localStorage.getItem('erma.lang') || localStorage.setItem('erma.lang', '{lang}')"
            )
        self.page = self.context.new_page()
        self.url = url
        self.errors: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))

    def shot(self, name: str, full_page: bool = False) -> Path:
        SHOTS.mkdir(exist_ok=True)
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def page(browser: Any, web_server: Running) -> Iterator[Page]:
    p = Page(browser, web_server.url)
    yield p
    p.close()
    assert p.errors == [], f"console errors: {p.errors}"


@pytest.fixture
def phone(browser: Any, web_server: Running) -> Iterator[Page]:
    p = Page(browser, web_server.url, width=390, height=844)
    yield p
    p.close()
    assert p.errors == [], f"console errors: {p.errors}"


DESKTOP = (1366, 768)
PHONE = (390, 844)


def copy_shots(dest: Path) -> None:
    """Copy the latest screenshots somewhere (used by hand: docs/screenshots/)."""
    dest.mkdir(parents=True, exist_ok=True)
    for png in SHOTS.glob("*.png"):
        shutil.copy(png, dest / png.name)
