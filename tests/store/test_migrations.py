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


def test_0003_makes_each_hand_rated_before_it_a_match_and_the_rebuild_still_agrees(
    fresh_db: Callable[[], str],
) -> None:
    from erma.ratings import FRESH, play
    from erma.store.schema import accounts, rated_hand_players, rated_hands

    url = fresh_db()
    assert alembic(url, "upgrade", "0002").returncode == 0
    outcomes = [(0, None), (1, None), (None, None), (None, 0)]  # (winner, escaper), rated as 0002 did

    async def old_data() -> None:  # what the server stored before 0003: each hand rated alone
        engine = make_engine(resolve_url(url))
        try:
            async with engine.begin() as conn:
                for i in (1, 2):
                    await conn.execute(
                        sa.insert(accounts).values(id=100 + i, kind="user", name=f"p{i}", name_key=f"p{i}")
                    )
                now = (FRESH, FRESH)
                for n, (winner, escaper) in enumerate(outcomes, 1):
                    after = play(now, winner, escaper=escaper)
                    await conn.execute(
                        sa.insert(rated_hands).values(
                            id=n, unit=f"u{n}", family="standard", winner=winner, escaper=escaper
                        )
                    )
                    for seat in (0, 1):
                        await conn.execute(
                            sa.insert(rated_hand_players).values(
                                hand_id=n,
                                seat=seat,
                                account_id=101 + seat,
                                anchor=False,
                                mu_before=now[seat].rating.mu,
                                sigma_before=now[seat].rating.sigma,
                                mu_after=after[seat].rating.mu,
                                sigma_after=after[seat].rating.sigma,
                                level_after=after[seat].rank.level,
                                points_after=after[seat].rank.points,
                            )
                        )
                    now = after
                for seat in (0, 1):
                    s = now[seat]
                    await conn.execute(
                        sa.text(
                            "INSERT INTO ratings (account_id, family, mu, sigma, level, points, hands) "
                            "VALUES (:a, 'standard', :mu, :sigma, :level, :points, :hands)"
                        ),
                        {
                            "a": 101 + seat,
                            "mu": s.rating.mu,
                            "sigma": s.rating.sigma,
                            "level": s.rank.level,
                            "points": s.rank.points,
                            "hands": s.hands,
                        },
                    )
        finally:
            await dispose(engine)

    asyncio.run(old_data())
    done = alembic(url, "upgrade", "head")
    assert done.returncode == 0, done.stderr

    async def body() -> None:
        async with opened(url) as s:
            rebuilt = await s.rebuild_ratings(write=False)
            assert (rebuilt.matches, rebuilt.hands, rebuilt.differences) == (4, 4, [])
            p1 = (await s.profile("p1"))["families"]["standard"]  # type: ignore[index]
            assert (p1["matches"], p1["hands"], p1["hands_played"]) == (4, 4, 4)

    asyncio.run(body())
    for step in ("0002", "head"):  # and down and up again with the data in place
        done = alembic(url, "downgrade" if step == "0002" else "upgrade", step)
        assert done.returncode == 0, done.stderr
    asyncio.run(body())
