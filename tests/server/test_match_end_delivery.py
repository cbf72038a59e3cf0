"""The match_end is owed to a seat that leaves and drops at once (a click on leave, then the tab closed): the
table takes the socket's closing (or its return) into account before the match ends, so the match_end reaches
the new socket, or is kept for the seat's next hello — after the version it had, never twice."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from .conftest import Client, Running, run_async
from .test_protocol import play_until_hand_end


async def rest(c: Client, quiet: float = 1.5) -> list[dict[str, Any]]:
    """What comes until nothing does for ``quiet`` seconds."""
    got = []
    try:
        while True:
            got.append(await c.recv(quiet))
    except TimeoutError:
        return got


@pytest.mark.parametrize("back_after", [0.0, 1.0])
def test_leave_and_drop_still_gets_the_match_end(server: Running, back_after: float) -> None:
    async def go() -> tuple[list[dict[str, Any]], str, int]:
        c = Client(server)
        await c.connect()
        await c.send({"type": "queue", "room": "cuopai-novice", "opponent": "bot"})
        m = await c.expect("match")
        await play_until_hand_end(c, m["match"], m["seat"])
        await c.send({"type": "leave", "match": m["match"]})
        await c.ws.close()  # at once: the table learns of it while the match is ending
        resume = dict(c.versions)
        await asyncio.sleep(back_after)  # 0: back while it ends; 1 s: after it ended
        await c.connect(resume=resume)
        got = await rest(c)
        await c.close()
        return got, m["match"], resume[m["match"]]

    got, match, since = run_async(go())
    ends = [m for m in got if m["type"] == "match_end"]
    assert len(ends) == 1, [m["type"] for m in got]
    assert ends[0]["match"] == match and ends[0]["v"] > since
    stream = [m for m in got if m.get("match") == match and "v" in m and m["type"] != "snapshot"]
    assert all(m["v"] > since for m in stream)
