"""A database blip is not a lost match: PostgreSQL stopped (every connection cut) and started again while
tables play; the tables wait (their players told ``db_wait``) and go on, nothing is stranded in escrow."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from erma.store import Store
from erma.store.schema import transactions as T

from ..server.conftest import Client, choose, run_async, start_server, stop_server
from ..server.test_protocol import play_until_hand_end
from .conftest import PrivatePostgres

OUTAGE_S = 4.0


def test_a_table_survives_a_database_outage_shorter_than_the_window(
    private_pg: PrivatePostgres, tmp_path: Path
) -> None:
    srv, thread, running = start_server(tmp_path, db_url=private_pg.url, db_retry_window_s=30.0)
    restarted: dict[str, float] = {}

    async def outage() -> None:
        await asyncio.sleep(0.3)
        await asyncio.to_thread(private_pg.stop)  # immediate: every connection cut, as a crash or restart
        restarted["down"] = time.monotonic()
        await asyncio.sleep(OUTAGE_S)
        await asyncio.to_thread(private_pg.start)
        restarted["up"] = time.monotonic()

    async def player() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        c = Client(running)
        await c.connect()
        await c.send({"type": "queue", "room": "cuopai-novice", "opponent": "bot"})
        m = await c.expect("match")
        ends = [await play_until_hand_end(c, m["match"], m["seat"])]
        while "up" not in restarted or len(ends) < 4:  # hands through the outage, then two more after it
            await c.send({"type": "next", "match": m["match"]})
            ends.append(await play_until_hand_end(c, m["match"], m["seat"]))
            assert len(ends) < 60, "the outage never ended"
        await c.send({"type": "leave", "match": m["match"]})
        await c.expect("match_end")
        await c.close()
        return ends, c.seen

    async def go() -> list[tuple[list[dict[str, Any]], list[dict[str, Any]]]]:
        players = [asyncio.create_task(player()) for _ in range(2)]
        await asyncio.sleep(2.0)  # both in their first hands
        await outage()
        return list(await asyncio.gather(*players))

    try:
        played = run_async(go())
    finally:
        stop_server(srv, thread, running)  # fails on any traceback in the server's log
    waits = 0
    for ends, seen in played:
        assert all(e["result"]["reason"] in ("win", "draw") for e in ends)  # no forfeit, no escape
        match_ends = [m for m in seen if m["type"] == "match_end"]
        assert len(match_ends) == 1 and seen[-1]["type"] == "match_end"  # only the one the leave asked for
        assert sum(match_ends[0]["scores"]) == 0 and len(ends) >= 4
        flags = [m["waiting"] for m in seen if m["type"] == "db_wait"]
        assert flags in ([], [True, False])  # told to wait, then that it is over (or never needed)
        waits += len(flags)
    assert waits > 0, "no table met the outage"

    async def check() -> tuple[list[str], list[Any]]:
        store = await Store.open(private_pg.url)
        try:
            return await store.check(), await store.open_holds()
        finally:
            await store.close()

    breaches, holds = run_async(check())
    assert breaches == [] and holds == []


def test_an_outage_longer_than_the_window_ends_the_match_cleanly_and_the_sweeper_refunds_its_hand(
    private_pg: PrivatePostgres, tmp_path: Path
) -> None:
    """The database goes away in the middle of a hand and stays away past the window (1.5 s here): the
    match ends (``match_end``, no traceback), the hand's stakes stay held while the database is away, and
    once it is back the sweeper refunds them, once."""
    srv, thread, running = start_server(
        tmp_path, db_url=private_pg.url, db_retry_window_s=1.5, sweep_interval_s=0.3, sweep_min_age_s=0.0
    )

    async def go() -> tuple[str, int, list[dict[str, Any]]]:
        c = Client(running)
        welcome = await c.connect()
        await c.send({"type": "queue", "room": "cuopai-novice", "opponent": "bot"})
        m = await c.expect("match")
        start = await c.expect("hand_start")  # held; nobody's clock runs (no timers)
        await asyncio.to_thread(private_pg.stop)
        acted: set[int] = set()
        while True:  # play the hand out: its settlement meets the outage
            msg = await c.recv(30)
            if msg["type"] == "match_end":
                break
            if msg["type"] in ("view", "snapshot"):
                view = msg["view"]
                if view["legal"] and view["actor"] == m["seat"] and view["decision"] not in acted:
                    acted.add(view["decision"])
                    await c.act(m["match"], choose(view))
        await asyncio.to_thread(private_pg.start)
        await asyncio.sleep(2.0)  # the sweeper's next rounds
        await c.close()
        return f"{m['match']}:{start['hand_no']}", welcome["balance"], c.seen

    try:
        unit, balance, seen = run_async(go())
    finally:
        stop_server(srv, thread, running)  # no traceback
    assert not [x for x in seen if x["type"] == "hand_end"]  # the hand could not be settled
    assert [x["waiting"] for x in seen if x["type"] == "db_wait"] == [True]

    person = next(x for x in seen if x["type"] == "welcome")["account"]["id"]

    async def after() -> tuple[list[str], list[Any], list[tuple[str, str | None]], int]:
        store = await Store.open(private_pg.url)
        try:
            async with store.engine.connect() as conn:
                q = sa.select(T.c.kind, T.c.reason).where(T.c.unit == unit).order_by(T.c.id)
                moves = [(r.kind, r.reason) for r in await conn.execute(q)]
            return await store.check(), await store.open_holds(), moves, await store.balance(person)
        finally:
            await store.close()

    breaches, holds, moves, after_balance = run_async(after())
    assert breaches == [] and holds == []
    assert moves == [("hold", None), ("refund", "sweep")]  # held, then refunded once, by the sweeper
    assert after_balance == balance  # every bean back
