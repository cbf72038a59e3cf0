"""A table's rated matches: blocks of the room's ``rated_hands`` hands, rated when the block's last hand
settles (by the block's net points), and a block left between hands rated as lost by the seat that left."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

from erma.ratings import FRESH, match_winner
from erma.store import Store
from erma.store.schema import rated_matches

from .conftest import Client, run_async, start_server, stop_server
from .test_protocol import play_until_hand_end

ROOMS = """
[[room]]
id = "short"
name_zh = "搓牌 两局一场"
name_en = "Cuopai, matches of two hands"
rules = "cuopai789"
tier = "novice"
entry_min = 100
bean_rate = 1
bot_level = 3
rated_hands = 2
"""


def test_a_match_of_two_hands_is_rated_at_its_second_hand_and_a_leaver_loses(tmp_path: Path) -> None:
    rooms = tmp_path / "rooms.toml"
    rooms.write_text(ROOMS, encoding="utf-8")
    srv, thread, running = start_server(tmp_path, rooms_file=str(rooms))

    def standard(name: str) -> dict[str, Any]:
        return httpx.get(running.url + f"/api/players/{name}").json()["families"]["standard"]  # type: ignore[no-any-return]

    async def go() -> tuple[str, str, int, list[dict[str, Any]], list[dict[str, Any]]]:
        c = Client(running)
        await c.connect()
        name = httpx.get(running.url + "/api/me", headers={"Authorization": f"Bearer {c.token}"}).json()
        await c.send({"type": "queue", "room": "short", "opponent": "bot"})
        m = await c.expect("match")
        ends, seen = [], []
        for hand in range(3):
            ends.append(await play_until_hand_end(c, m["match"], m["seat"]))
            seen.append(standard(name["account"]["name"]))
            if hand < 2:
                await c.send({"type": "next", "match": m["match"]})
        await c.send({"type": "leave", "match": m["match"]})  # between hands, in the second match
        await c.expect("match_end")
        await c.close()
        return name["account"]["name"], m["match"], m["seat"], ends, seen

    try:
        name, match, seat, ends, seen = run_async(go())
        last = standard(name)
    finally:
        stop_server(srv, thread, running)
    escaped = [e["result"]["reason"] == "escape" for e in ends]
    assert not any(escaped)  # (the test's player never escapes; the bot never does)
    assert (seen[0]["hands_played"], seen[0]["matches"]) == (1, 0)  # stored, the match not yet rated
    assert seen[0]["rating"]["mu"] == FRESH.rating.mu
    assert (seen[1]["hands_played"], seen[1]["matches"], seen[1]["hands"]) == (2, 1, 2)
    mine = [(e["result"]["deltas"][seat], e["result"]["deltas"][1 - seat]) for e in ends]
    won = match_winner(mine[:2])
    if won is None:
        assert seen[1]["rating"]["mu"] == FRESH.rating.mu  # a drawn match moves nothing
    else:
        assert (seen[1]["rating"]["mu"] > FRESH.rating.mu) == (won == 0)
    assert (seen[2]["matches"], seen[2]["rating"]) == (1, seen[1]["rating"])  # hand 3 opens match 2
    assert (last["matches"], last["hands"], last["hands_played"]) == (2, 3, 3)
    assert last["rating"]["mu"] < seen[2]["rating"]["mu"]  # left match 2 between hands: lost it

    async def stored() -> list[tuple[str, int | None, int | None, int]]:
        store = await Store.open(running.settings.db_url, Path(running.settings.data_dir))
        try:
            async with store.engine.connect() as conn:
                q = sa.select(rated_matches.c.block, rated_matches.c.winner, rated_matches.c.leaver)
                rows = [tuple(r) for r in await conn.execute(q.order_by(rated_matches.c.id))]
            assert (await store.rebuild_ratings(write=False)).differences == []
            return rows  # type: ignore[return-value]
        finally:
            await store.close()

    rows = run_async(stored())
    seat_won = None if won is None else (seat if won == 0 else 1 - seat)
    assert rows == [(f"{match}:b1", seat_won, None), (f"{match}:b2", 1 - seat, seat)]
