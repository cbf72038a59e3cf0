"""The session watch on its own: it closes exactly the sockets whose session is no longer live, with 4401,
counts them, asks the store once for all of them, and goes on checking after the database failed once."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from erma.server.sessions import SIGNED_OUT, CloseCode, SessionWatch


class FakeConn:
    def __init__(self, session: str | None) -> None:
        self.session = session
        self.closed = False
        self.closes: list[tuple[str, int]] = []

    async def close(self, reason: str = "", code: int = 4000) -> None:
        self.closed = True
        self.closes.append((reason, code))


class FakeStore:
    def __init__(self, live: set[str]) -> None:
        self.live = live
        self.asked: list[list[str]] = []
        self.fail = 0

    async def live_sessions(self, keys: Any) -> set[str]:
        keys = list(keys)
        self.asked.append(keys)
        if self.fail:
            self.fail -= 1
            raise OSError("database away")
        return self.live & set(keys)


def test_only_the_sockets_of_ended_sessions_are_closed_with_4401() -> None:
    conns = [FakeConn("a"), FakeConn("b"), FakeConn("c"), FakeConn(None)]
    store = FakeStore({"a", "c"})
    metrics: Counter[str] = Counter()
    watch = SessionWatch(lambda: conns, store, 0, metrics)
    assert asyncio.run(watch.check()) == 1
    assert [c.closes for c in conns] == [[], [("signed out", 4401)], [], []]
    assert SIGNED_OUT == CloseCode.SIGNED_OUT == 4401 and metrics["signed_out"] == 1
    assert store.asked == [["a", "b", "c"]]  # one question for every signed-in socket; none for the others
    store.live = {"c"}
    assert asyncio.run(watch.check()) == 1 and conns[0].closes == [("signed out", 4401)]
    assert store.asked[-1] == ["a", "c"]  # a closed socket is not asked about again


def test_the_watch_goes_on_after_the_database_failed() -> None:
    async def go() -> list[Any]:
        conn = FakeConn("a")
        store = FakeStore(set())
        store.fail = 1
        watch = SessionWatch(lambda: [conn], store, 0.05)
        watch.start()
        for _ in range(100):
            await asyncio.sleep(0.02)
            if conn.closed:
                break
        await watch.stop()
        return [conn.closes, len(store.asked)]

    closes, asked = asyncio.run(go())
    assert closes == [("signed out", 4401)] and asked >= 2
