"""``erma loadtest`` reports what it could not do: connection failures are errors, and no table started is a
failure (exit 1)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from erma.cli import main
from erma.lab.loadtest import run_load
from erma.store import Store
from tests.server.conftest import Running, run_async, start_server


def test_a_wrong_websocket_path_is_an_error(server: Running, capsys: pytest.CaptureFixture[str]) -> None:
    url = server.ws_url.replace("/ws", "/ws/wrong")
    assert main(["loadtest", "--url", url, "--tables", "1", "--seconds", "1"]) == 1
    out, err = capsys.readouterr()
    assert "tables 0/1" in out and "errors 0" not in out
    assert "cannot connect" in err and "no table started" in err


def test_tables_ask_for_the_bot_level(tmp_path: Path) -> None:
    """``--bot-level 5``: every table is played against level5 (the seat the record names), not the room's
    default bot."""
    url = str(tmp_path / "erma.db")
    srv, thread, running = start_server(tmp_path, db_url=url)
    try:
        summary = run_async(run_load([running.ws_url], tables=2, seconds=4, room="cuopai-novice", level=5))
    finally:
        srv.should_exit = True
        thread.join(10)
    assert summary["tables_started"] == 2 and summary["errors"] == 0 and summary["hands_completed"] >= 1

    async def players() -> list[list[str]]:
        store = await Store.open(url, tmp_path)
        try:
            found = []
            for rid in range(1, summary["hands_completed"] + 1):
                got = await store.get_record(rid)
                if got is not None:
                    found.append(got["record"]["players"])
            return found
        finally:
            await store.close()

    seen = run_async(players())
    assert seen and all(any(p.endswith("L5") for p in names) for names in seen), seen


def test_clients_escape_a_hand_still_running_when_the_time_is_up(tmp_path: Path) -> None:
    """With human think times a hand outlasts the run: a client still in it half the give-up bound after the
    time is up leaves at its next turn (an escape), so nothing is counted stuck or failed and every match ends
    before the bound."""
    srv, thread, running = start_server(tmp_path, db_url=str(tmp_path / "erma.db"))
    try:
        t0 = time.monotonic()
        summary = run_async(run_load([running.ws_url], tables=4, seconds=1, think=1.0, give_up_s=16))
        took = time.monotonic() - t0
    finally:
        srv.should_exit = True
        thread.join(10)
    # a hand that ends early (a quick win) is left at its end; the others are escaped
    assert summary["tables_started"] == 4 and summary["escaped"] >= 1, summary
    assert summary["stuck"] == 0 and summary["failures"] == 0, summary
    assert took < 1 + 16, f"the clients escaped, not given up at the bound: {took:.1f} s"
