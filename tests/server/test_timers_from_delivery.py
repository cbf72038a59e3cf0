"""Timers from delivery (issue 37 item 2): the clock to the next hand starts when the hand_end is let out
to the seat (after the pause after its own discard), not at the server's hand end, and the hand_end says how
long it is.

The hand's last discards are made with a long pause after them (``claim_window_s`` raised near the wall's end,
so the hand itself plays fast): the hand_end reaches the player a pause after the server ended the hand. The
player then takes half its ``next_hand_timeout_s`` before sending ``next``. Before, the clock had run from the
server's hand end, so that ``next`` came too late: the match ended and the player was marked as the one who
did not confirm (a leaver of the rated match). Now the next hand is dealt.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from .conftest import Client, run_async, start_server, stop_server

SCALE = 0.2
LONG_WINDOW_S = 12.5  # × SCALE: 2.5 s of pause after each of the hand's last discards
NEXT_HAND_S = 15.0  # the preset's next_hand_timeout_s (× SCALE: 3 s)


def discard(view: dict[str, Any]) -> str:
    """Never win (the hand then always ends on the bot's move, inside the pause after one's discard)."""
    legal = view["legal"]
    if "pass" in legal:
        return "pass"
    drawn = view.get("drawn")
    if drawn and f"discard {drawn}" in legal:
        return f"discard {drawn}"
    plain = [a for a in legal if a.startswith("discard") and "riichi" not in a]
    return plain[-1] if plain else legal[0]


def test_the_next_hand_clock_counts_from_the_hand_end_reaching_the_seat(tmp_path: Path) -> None:
    srv, thread, running = start_server(tmp_path, timeouts=True, time_scale=SCALE, bot_pause_s=0.0)

    async def go() -> tuple[dict[str, Any], float, dict[str, Any]]:
        c = Client(running)
        await c.connect()
        await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot"})
        m = await c.expect("match")
        match, seat = m["match"], m["seat"]
        await c.send({"type": "next", "match": match})
        loop = asyncio.get_running_loop()
        for _ in range(40):  # until a hand ends inside a long pause (a bot's early win ends one before)
            object.__setattr__(running.settings, "claim_window_s", 0.05)
            acted: set[int] = set()
            last_discard = loop.time()
            while True:
                msg = await c.recv(60)
                if msg["type"] == "match_end":  # the match ran out of hands first: another match
                    await c.send({"type": "queue", "room": "classic-novice", "opponent": "bot"})
                    m = await c.expect("match")
                    match, seat = m["match"], m["seat"]
                    acted = set()
                    await c.send({"type": "next", "match": match})
                    continue
                event = msg.get("event") if msg["type"] == "event" else None
                if event and event["type"] == "discard" and event["seat"] == seat:
                    last_discard = loop.time()
                if msg["type"] == "hand_end":
                    end, held = msg, loop.time() - last_discard
                    break
                if msg["type"] == "view":
                    view = msg["view"]
                    if view["wall"] <= 16:  # the hand's last discards: a long pause after each
                        object.__setattr__(running.settings, "claim_window_s", LONG_WINDOW_S)
                    if view["actor"] == seat and view["legal"] and view["decision"] not in acted:
                        acted.add(view["decision"])
                        await c.act(match, discard(view))
            if held > LONG_WINDOW_S * SCALE * 0.8:
                break
            await c.send({"type": "next", "match": match})
        await asyncio.sleep(NEXT_HAND_S * SCALE / 2)  # a slow phone: half the time to the next hand
        await c.send({"type": "next", "match": match})
        after = await c.expect("hand_start", "match_end", timeout=30)
        await c.send({"type": "leave", "match": match})
        await c.close()
        return end, held, after

    try:
        end, held, after = run_async(go())
    finally:
        stop_server(srv, thread, running)
    # the hand_end came a long pause after the player's last discard (the hand ended inside that pause)
    assert held > LONG_WINDOW_S * SCALE * 0.8, held
    # the player's next, half its time after the hand_end reached it, was in time: the next hand is dealt
    assert after["type"] == "hand_start", after
    assert end["next_ms"] == int(NEXT_HAND_S * SCALE * 1000)  # (the time it had, from the message's arrival)
