"""The web client signed out by the server: a page at a table whose session is logged out everywhere (from
elsewhere) gets its socket closed with 4401 and goes back to sign-in saying why, in either language, and
stops reconnecting."""

from __future__ import annotations

import httpx
import pytest

from tests.web.conftest import Page
from tests.web.test_client import enter_as_guest, play_bot
from tests.web.test_table import ROOM_IDS, UNTRANSLATED

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TEXT = {
    "zh": "已退出登录（已登出、改了密码或登录已过期），请重新登录",
    "en": "Signed out (logged out, password changed or session expired): please sign in again",
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_page_whose_session_ended_is_signed_out(browser: object, web_server: object, lang: str) -> None:
    p = Page(browser, web_server.url, lang=lang)  # type: ignore[attr-defined]
    try:
        enter_as_guest(p)
        play_bot(p, "web-cuopai")
        token = p.page.evaluate("() => localStorage.getItem('erma.token')")
        r = httpx.post(web_server.url + "/api/logout_all", headers={"Authorization": f"Bearer {token}"})  # type: ignore[attr-defined]
        assert r.status_code == 200 and r.json()["revoked"] == 1
        p.page.wait_for_selector("[data-testid=guest]", timeout=5000)  # back at sign-in
        assert p.page.locator("#toast").inner_text() == TEXT[lang]
        assert p.page.locator("#status").inner_text() == TEXT[lang]
        assert p.page.evaluate("() => localStorage.getItem('erma.token')") is None
        assert p.page.evaluate("() => window.erma.state.account") is None
        p.page.wait_for_timeout(1500)  # no reconnection with the ended session (it would log bad_token)
        assert p.page.locator("[data-testid=guest]").count() == 1
        assert p.page.evaluate(UNTRANSLATED, ROOM_IDS) == []
        assert p.errors == [], p.errors
    finally:
        p.close()
