"""Ratings through the server: hands played under load are rated in their settlements and the rebuild
equals the stored ratings (SQLite and PostgreSQL); the leaderboard and profile endpoints."""

from __future__ import annotations

import asyncio
import os
import secrets
from pathlib import Path

import asyncpg
import httpx
import pytest
from sqlalchemy.engine import make_url

from erma.lab.loadtest import run_load
from erma.store import Store

from ..store.conftest import PG_ADMIN, _admin
from .conftest import run_async, start_server


def _pg_url() -> str:
    try:
        name = f"erma_rl_{secrets.token_hex(4)}"
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    except (OSError, asyncpg.PostgresError) as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL at {PG_ADMIN}: {exc}")
        pytest.skip(f"PostgreSQL at {PG_ADMIN} is not reachable: {exc}")
    return make_url(PG_ADMIN).set(database=name).render_as_string(hide_password=False)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_rated_under_load_and_rebuild_equals_stored(tmp_path: Path, backend: str) -> None:
    url = str(tmp_path / "erma.db") if backend == "sqlite" else _pg_url()
    try:
        srv, thread, running = start_server(tmp_path, db_url=url)
        try:
            summary = run_async(run_load([running.ws_url], tables=6, seconds=6, room="cuopai-novice"))
            board = httpx.get(running.url + "/api/leaderboard/standard?limit=3").json()
            assert board["players"] >= 6 and len(board["top"]) == 3 and board["me"] is None
            name = board["top"][0]["name"]
            profile = httpx.get(running.url + f"/api/players/{name}").json()
            assert profile["families"]["standard"]["hands_played"] >= 1
            assert httpx.get(running.url + "/api/leaderboard/riichi").status_code == 400
            assert httpx.get(running.url + "/api/leaderboard/standard?limit=x").status_code == 400
            assert httpx.get(running.url + "/api/players/nobody-here").status_code == 404
            assert len(httpx.get(running.url + "/api/ladder").json()["levels"]) == 16
        finally:
            srv.should_exit = True
            thread.join(10)
        assert summary["hands_completed"] >= 6

        async def rebuild() -> tuple[int, list[str], list[str]]:
            store = await Store.open(url, tmp_path)
            try:
                done = await store.rebuild_ratings(write=False)
                return done.hands, done.differences, await store.check()
            finally:
                await store.close()

        hands, differences, breaches = run_async(rebuild())
        assert hands >= summary["hands_completed"] and differences == [] and breaches == []
    finally:
        if backend == "postgresql":
            asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)'))


def test_leaderboard_shows_the_callers_own_position(tmp_path: Path) -> None:
    srv, thread, running = start_server(tmp_path)
    try:
        summary = run_async(run_load([running.ws_url], tables=3, seconds=3, room="wenzhou-novice"))
        assert summary["hands_completed"] >= 3
        r = httpx.post(running.url + "/api/register", json={"name": "Watcher", "password": "only looking"})
        token = r.json()["token"]
        board = httpx.get(
            running.url + "/api/leaderboard/wenzhou", headers={"Authorization": f"Bearer {token}"}
        ).json()
        assert board["me"] is None  # registered, never rated
        top = board["top"]
        assert [row["position"] for row in top] == list(range(1, len(top) + 1))
        for row in top:
            assert {"name", "rank", "rating", "hands"} <= set(row) and "account_id" not in row
            lo, hi = row["rating"]["interval"]
            assert lo < row["rating"]["mu"] < hi
    finally:
        srv.should_exit = True
        thread.join(10)
