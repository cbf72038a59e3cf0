"""Between hands, a person looking at a replay or review (``review``) stops the clock to the next hand."""

from __future__ import annotations

import asyncio
from pathlib import Path

from .conftest import Client, run_async, start_server


def _first_hand_over(tmp_path: Path, review: bool) -> list[str]:
    """Play one hand under 托管, then wait five times past the next-hand timeout, with or without ``review``,
    and confirm: does the next hand start or had the match ended?"""
    srv, thread, running = start_server(tmp_path, time_scale=0.02)  # next_hand_timeout_s 15 s → 0.3 s
    try:

        async def go() -> list[str]:
            c = Client(running)
            await c.connect()
            await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot"})
            m = await c.expect("match")
            await c.send({"type": "next", "match": m["match"]})
            await c.send({"type": "autoplay", "match": m["match"], "on": True})
            await c.expect("hand_end", timeout=60)
            if review:
                await c.send({"type": "review", "match": m["match"], "on": True})
            await asyncio.sleep(1.5)  # five times the scaled timeout
            if review:
                await c.send({"type": "review", "match": m["match"], "on": False})
            await c.send({"type": "next", "match": m["match"]})
            got = await c.expect("hand_start", "match_end", timeout=10)
            await c.close()
            return [got["type"]]

        return run_async(go())  # type: ignore[no-any-return]
    finally:
        srv.should_exit = True
        thread.join(10)


def test_the_clock_to_the_next_hand_runs_without_review(tmp_path: Path) -> None:
    assert _first_hand_over(tmp_path, review=False) == ["match_end"]


def test_review_stops_the_clock_to_the_next_hand(tmp_path: Path) -> None:
    assert _first_hand_over(tmp_path, review=True) == ["hand_start"]
