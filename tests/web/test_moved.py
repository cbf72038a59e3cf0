"""The web client's socket (net.js) after a close with code 4409 (``moved``: the match went to another server
process): it opens a new socket at once, where any other close waits for its backoff."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Page

REOPENS = """async (code) => {
  const { Net } = await import(new URL("net.js", location.href).href);
  const opened = [];
  const Real = window.WebSocket;
  class Fake {
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      opened.push(performance.now());
      Fake.last = this;
    }
    send() {}
    close() {}
  }
  Fake.OPEN = 1;
  window.WebSocket = Fake;
  try {
    const net = new Net(() => {}, () => {});
    net.connect("token");
    const first = Fake.last;
    const closed = performance.now();
    first.onclose({ code });
    await new Promise((r) => setTimeout(r, 300));
    net.stopped = true;
    return { opened: opened.length, after_ms: opened.length > 1 ? opened[1] - closed : null };
  } finally {
    window.WebSocket = Real;
  }
}"""


def test_a_moved_socket_reopens_at_once(page: Page) -> None:
    page.page.goto(page.url)
    moved: dict[str, Any] = page.page.evaluate(REOPENS, 4409)
    assert moved["opened"] == 2 and moved["after_ms"] < 100, moved
    other: dict[str, Any] = page.page.evaluate(REOPENS, 1006)
    assert other["opened"] == 1, "any other close waits for the backoff (500 ms first)"
