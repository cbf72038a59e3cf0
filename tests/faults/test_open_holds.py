"""No stake stranded: a hold nobody will end (its table crashed or was forgotten) is refunded by the sweeper,
exactly once, and ``erma ledger check`` fails on such a hold once it is old — on a private PostgreSQL."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from erma.cli import main
from erma.server.sweeper import sweep
from erma.store import Store
from erma.store.schema import transactions as T

from ..server.conftest import Client, run_async, start_server, stop_server
from .conftest import PrivatePostgres


async def _never(match: str) -> bool:
    return False


def test_ledger_check_fails_on_an_old_open_hold_and_passes_after_the_sweep(
    private_pg: PrivatePostgres, capsys: pytest.CaptureFixture[str]
) -> None:
    url = private_pg.url

    async def setup() -> tuple[int, int]:
        store = await Store.open(url)
        try:
            a, b = await store.create_guest(), await store.create_guest()
            await store.hold("lost-match:3", {a.id: 300, b.id: 200})
            await store.hold("young-match:1", {a.id: 10, b.id: 10})
            async with store.engine.begin() as conn:  # the crash was eleven minutes ago
                # (the ledger is append-only by trigger: the private server's superuser sets the clock back)
                await conn.execute(sa.text("SET LOCAL session_replication_role = replica"))
                await conn.execute(
                    sa.update(T)
                    .where(T.c.key == "lost-match:3:hold")
                    .values(created=sa.text("CURRENT_TIMESTAMP - INTERVAL '11 minutes'"))
                )
            return a.id, b.id
        finally:
            await store.close()

    a, b = asyncio.run(setup())
    assert main(["ledger", "check", "--db", url]) == 1
    out = capsys.readouterr()
    assert "'lost-match:3' has held 500 beans in escrow for 11.0 min" in out.out
    assert "young-match" not in out.out and "1 breach(es)" in out.err
    assert main(["ledger", "check", "--db", url, "--hold-age-min", "12"]) == 0
    capsys.readouterr()

    async def swept() -> tuple[list[str], list[str], list[int], list[str]]:
        store = await Store.open(url)
        try:
            first = await sweep(store, _never, 600.0)  # only the old one
            again = await sweep(store, _never, 600.0)  # exactly once
            refunds = [h["reason"] for h in await store.history(a) if h["kind"] == "refund"]
            return first.refunded, again.refunded, await store.balances([a, b]), refunds
        finally:
            await store.close()

    first, again, balances, refunds = asyncio.run(swept())
    assert first == ["lost-match:3"] and again == [] and refunds == ["sweep"]
    assert balances == [10_000 - 10, 10_000 - 10]  # the lost hand's stakes back; the young hold stays
    assert main(["ledger", "check", "--db", url]) == 0
    assert "ledger sound" in capsys.readouterr().out


def test_a_hold_left_open_by_a_crash_is_resolved_by_the_sweeper(
    private_pg: PrivatePostgres, tmp_path: Path
) -> None:
    """A server sweeping every 0.3 s: a hold whose table is gone (placed for a match no process holds, as a
    crash leaves it) is refunded; the hold of a table playing here is left to that table."""
    srv, thread, running = start_server(
        tmp_path, db_url=private_pg.url, sweep_interval_s=0.3, sweep_min_age_s=0.0
    )

    async def orphan() -> tuple[int, int]:
        store = await Store.open(private_pg.url)
        try:
            a, b = await store.create_guest(), await store.create_guest()
            await store.hold("crashed-match:2", {a.id: 130, b.id: 130})
            return a.id, b.id
        finally:
            await store.close()

    async def go() -> tuple[str, list[Any], list[int], list[str]]:
        c = Client(running)
        await c.connect()
        await c.send({"type": "queue", "room": "cuopai-novice", "opponent": "bot"})
        m = await c.expect("match")
        start = await c.expect("hand_start")  # its hold is placed; nobody acts (no timers)
        a, b = await orphan()
        await asyncio.sleep(2.0)  # several sweeps
        store = await Store.open(private_pg.url)
        try:
            still = await store.open_holds()
            balances = await store.balances([a, b])
            reasons = [h["reason"] for h in await store.history(a)]
        finally:
            await store.close()
        await c.send({"type": "leave", "match": m["match"]})
        await c.expect("match_end")
        await c.close()
        return f"{m['match']}:{start['hand_no']}", still, balances, reasons

    try:
        live, still, balances, reasons = run_async(go())
    finally:
        stop_server(srv, thread, running)
    assert [h.unit for h in still] == [live]  # the playing table's hold, not swept
    assert balances == [10_000, 10_000] and reasons.count("sweep") == 1

    async def after() -> tuple[list[str], list[Any]]:
        store = await Store.open(private_pg.url)
        try:
            return await store.check(), await store.open_holds()
        finally:
            await store.close()

    assert run_async(after()) == ([], [])  # the live table ended its own hand (the leave's forfeit)
