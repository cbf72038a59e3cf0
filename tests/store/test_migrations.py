"""Migrations: ``alembic upgrade head`` from empty on both backends; ``Store.open`` on a database at head
changes nothing."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa

from erma.store.engine import dispose, make_engine, resolve_url
from erma.store.migrate import current_revision, head_revision
from erma.store.schema import metadata
from tests.store.conftest import opened

ROOT = Path(__file__).parents[2]
INI = ROOT / "src" / "erma" / "store" / "alembic.ini"


async def tables_and_revision(url: str) -> tuple[set[str], str | None]:
    engine = make_engine(resolve_url(url))
    try:
        async with engine.connect() as conn:
            names = await conn.run_sync(lambda c: set(sa.inspect(c).get_table_names()))
            return names, await conn.run_sync(current_revision)
    finally:
        await dispose(engine)


def alembic(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "alembic", "-c", str(INI), "-x", f"db={url}", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_alembic_upgrade_head_from_empty(fresh_db: Callable[[], str]) -> None:
    url = fresh_db()
    assert asyncio.run(tables_and_revision(url)) == (set(), None)
    done = alembic(url, "upgrade", "head")
    assert done.returncode == 0, done.stderr
    tables, rev = asyncio.run(tables_and_revision(url))
    assert rev == head_revision()
    assert set(metadata.tables) <= tables
    done = alembic(url, "current")
    assert head_revision() in done.stdout, done.stdout + done.stderr

    async def body() -> None:
        async with opened(url) as s:
            assert not s.migrated  # already at head: a no-op
            g = await s.create_guest()
            assert await s.balance(g.id) == 10_000
            assert await s.check() == []

    asyncio.run(body())
    # And back down to nothing, and up again.
    assert alembic(url, "downgrade", "base").returncode == 0
    assert asyncio.run(tables_and_revision(url))[0] <= {"alembic_version"}
    assert alembic(url, "upgrade", "head").returncode == 0


def test_store_open_migrates_once(fresh_db: Callable[[], str]) -> None:
    url = fresh_db()

    async def body() -> None:
        async with opened(url) as s:
            assert s.migrated
            a = (await s.create_guest()).id
        # Several stores opening the same database at once: none migrates again, nothing is lost.
        stores = await asyncio.gather(*(opened(url).__aenter__() for _ in range(3)))
        try:
            assert [s.migrated for s in stores] == [False] * 3
            assert await stores[0].balance(a) == 10_000
        finally:
            for s in stores:
                await s.close()
        assert (await tables_and_revision(url))[1] == head_revision()

    asyncio.run(body())


def test_concurrent_first_opens_migrate_once(fresh_db: Callable[[], str]) -> None:
    url = fresh_db()

    async def body() -> None:
        from erma.store import Store

        stores = await asyncio.gather(*(Store.open(url) for _ in range(3)))
        try:
            assert sum(s.migrated for s in stores) >= 1
            assert await stores[0].check() == []
        finally:
            for s in stores:
                await s.close()

    asyncio.run(body())
