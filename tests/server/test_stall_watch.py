"""The stall watch on its own: a socket whose writer cannot hand its messages over (the peer reads nothing)
for ``stall_s``, or whose queue passes ``backlog_max``, is closed with 4408 (its queue dropped, the close
frame tried, the connection cut when even that cannot go) and handed to the hub; a socket that takes its
messages is left alone."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from erma.server.connection import Connection
from erma.server.stalls import NOT_READING, StallWatch


class Transport:
    """Only what the watch and the close use (no socket: the kernel's counts are unknown here)."""

    def __init__(self) -> None:
        self.aborted = False

    def get_extra_info(self, name: str) -> Any:
        return None

    def abort(self) -> None:
        self.aborted = True


class FakeSocket:
    """A websocket whose peer reads nothing (``stuck``): sending and closing wait forever."""

    def __init__(self, stuck: bool) -> None:
        self.stuck = stuck
        self.transport = Transport()
        self.scope = {"erma.transport": self.transport}
        self.sent: list[str] = []
        self.closes: list[int] = []

    async def send_text(self, text: str) -> None:
        if self.stuck:
            await asyncio.Event().wait()
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        if self.stuck:
            await asyncio.Event().wait()
        self.closes.append(code)


def run(stuck: bool, backlog_max: int, stall_s: float, messages: int, wait: float) -> tuple[Any, ...]:
    async def go() -> tuple[Any, ...]:
        ws = FakeSocket(stuck)
        conn = Connection(ws)  # type: ignore[arg-type]
        gone: list[Connection] = []

        async def on_gone(c: Connection) -> None:
            gone.append(c)

        metrics: Counter[str] = Counter()
        watch = StallWatch(lambda: [conn], on_gone, backlog_max, stall_s, metrics)
        for i in range(messages):
            conn.send({"type": "pong", "t": i})
        await asyncio.sleep(wait)
        found = watch.check()
        for _ in range(60):  # the close: up to 2 s for the writer, 2 s for the close frame
            if gone or not found:
                break
            await asyncio.sleep(0.1)
        await watch.stop()
        return found, metrics["not_reading"], gone == [conn], ws.closes, ws.transport.aborted, conn.backlog()

    return asyncio.run(go())


def test_a_socket_whose_queue_passes_the_bound_is_closed_at_once() -> None:
    found, counted, gone, closes, aborted, backlog = run(True, 5, 0.0, 10, 0.05)
    assert (found, counted, gone) == (1, 1, True)
    assert aborted and closes == [] and backlog <= 1  # (no close frame could go: cut; the queue dropped)


def test_a_socket_that_takes_nothing_for_stall_s_is_closed() -> None:
    assert run(True, 0, 0.3, 1, 0.1)[0] == 0  # not yet
    found, counted, gone, _, aborted, _ = run(True, 0, 0.3, 1, 0.4)
    assert (found, counted, gone, aborted) == (1, 1, True, True)


def test_a_socket_that_takes_its_messages_is_left_alone() -> None:
    found, counted, gone, closes, aborted, _ = run(False, 5, 0.3, 100, 0.4)
    assert (found, counted, gone, closes, aborted) == (0, 0, False, [], False)


def test_the_close_code_is_4408() -> None:
    assert NOT_READING == 4408
