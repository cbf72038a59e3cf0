"""The web client's socket (net.js) after a close with code 4409 (``moved``: the match went to another server
process): it opens a new socket at once, where any other close waits for its backoff."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Page

REOPENS = """async (code) => {
  const { Net } = await import(new URL("net.js", location.href).href);
  const opened = [];
  const delays = [];  // what the client asks the timer for when the socket closes
  const Real = window.WebSocket;
  const realTimeout = window.setTimeout;
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
    window.setTimeout = (f, ms, ...rest) => { delays.push(ms); return realTimeout(f, ms, ...rest); };
    first.onclose({ code });
    window.setTimeout = realTimeout;
    // wait for the second socket, at most 450 ms (timers never fire early: the 500 ms backoff opens none)
    while (opened.length < 2 && performance.now() - closed < 450) await new Promise((r) => setTimeout(r, 10));
    net.stopped = true;
    return { opened: opened.length, delays, after_ms: opened.length > 1 ? opened[1] - closed : null };
  } finally {
    window.WebSocket = Real;
    window.setTimeout = realTimeout;
  }
}"""


def test_a_moved_socket_reopens_at_once(page: Page) -> None:
    page.page.goto(page.url)
    moved: dict[str, Any] = page.page.evaluate(REOPENS, 4409)
    # the reopening is asked of the timer with no delay and comes well before the first backoff (500 ms);
    # the wall time is only bounded loosely (a loaded CI machine's timer fired 160 ms late once)
    assert moved["delays"] == [0] and moved["opened"] == 2 and moved["after_ms"] < 400, moved
    other: dict[str, Any] = page.page.evaluate(REOPENS, 1006)
    assert other["delays"] == [500] and other["opened"] == 1, "any other close waits for the backoff (500 ms)"
