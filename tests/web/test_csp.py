"""The web client runs under its strict Content-Security-Policy with 0 violations: the lobby, the rules pages,
a hand against the bot played by clicks to its settlement, and the ranks page, in Chromium."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.server.conftest import Running
from tests.web.conftest import Page
from tests.web.test_client import enter_as_guest, move, play_bot, wait_my_turn

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# every violation the page reports (a `securitypolicyviolation` event) goes to the console with this mark
LISTEN = """
document.addEventListener('securitypolicyviolation', (e) => {
  console.warn('csp-violation ' + e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' +
               (e.sourceFile || '') + ':' + (e.lineNumber || 0));
}, true);
"""


class Watched(Page):
    """A page that keeps its CSP violations (the events and Chromium's own reports) and CSP headers."""

    def __init__(self, browser: Any, url: str) -> None:
        super().__init__(browser, url)
        self.context.add_init_script(LISTEN)
        self.violations: list[str] = []
        self.policies: dict[str, str | None] = {}
        self.page.on("console", self._console)
        self.page.on("response", self._response)

    def _console(self, m: Any) -> None:
        text = m.text
        if text.startswith("csp-violation") or "Content Security Policy" in text:
            self.violations.append(text)

    def _response(self, r: Any) -> None:
        if r.request.resource_type == "document":
            self.policies[r.url] = r.headers.get("content-security-policy")


def play_to_settlement(p: Page, seconds: float = 90) -> int:
    """Play the hand by clicks until the settlement shows; the number of moves made."""
    moves = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        st = wait_my_turn(p)
        if st["screen"] == "settle":
            return moves
        move(p, st, claim=True, smart=True)
        moves += 1
        p.page.wait_for_timeout(60)
    raise AssertionError(f"no settlement after {moves} moves")


@pytest.fixture
def watched(browser: Any, web_server: Running) -> Any:
    p = Watched(browser, web_server.url)
    yield p
    p.close()
    assert p.errors == [], f"console errors: {p.errors}"


def test_the_client_runs_with_no_csp_violation(watched: Watched) -> None:
    p = watched
    enter_as_guest(p)
    for rules in ("cuopai789", "wenzhou2p"):
        p.page.click(f"[data-testid=rules-link][data-rules={rules}]")
        p.page.wait_for_selector("[data-testid=rules-fans] [data-fan]")
        p.page.click("[data-testid=rules-page] .rules-head .btn")
        p.page.wait_for_selector("[data-testid=rules-link]")
    play_bot(p, "web-events")
    assert play_to_settlement(p) > 0
    p.page.wait_for_selector("[data-testid=next-hand]")
    p.page.goto(p.url + "/ranks.html#board=standard")
    p.page.wait_for_selector("[data-testid=leaderboard]")
    p.page.wait_for_timeout(300)
    assert p.violations == []
    pages = {url.split("#")[0].removeprefix(p.url) for url in p.policies}
    assert {"/", "/ranks.html"} <= pages, p.policies
    for url, policy in p.policies.items():
        assert policy and "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, url


def test_the_watch_sees_a_violation(watched: Watched) -> None:
    """The listener is live: inline code the policy forbids is blocked and reported."""
    p = watched
    p.page.goto(p.url)
    p.page.wait_for_selector("[data-testid=guest]")
    p.page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
        " document.body.append(s); const st = document.createElement('style');"
        " st.textContent = 'body { color: red }'; document.head.append(st); }"
    )
    p.page.wait_for_timeout(300)
    assert p.page.evaluate("() => window.ran") is None  # the inline script did not run
    assert any("script-src" in v for v in p.violations), p.violations
    assert any("style-src" in v for v in p.violations), p.violations
    # Chromium also reports each violation as a console error, so every browser test's check for no console
    # error (the `page` fixture) fails on a violation too
    assert any("Content Security Policy" in e for e in p.errors), p.errors
    p.errors.clear()
