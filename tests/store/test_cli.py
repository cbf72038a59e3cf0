"""``erma ledger check``: 0 when sound, 1 on a breach, 2 when the database cannot be read."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa

from erma.cli import main
from erma.store.cli import ledger_check
from erma.store.schema import accounts
from tests.store.conftest import opened


def test_ledger_check(fresh_db: Callable[[], str], capsys: pytest.CaptureFixture[str]) -> None:
    url = fresh_db()

    async def setup(tamper: bool) -> None:
        async with opened(url) as s:
            g = await s.create_guest()
            await s.hold("cli-1", {g.id: 10})
            if tamper:
                async with s.engine.begin() as conn:
                    await conn.execute(sa.update(accounts).where(accounts.c.id == g.id).values(balance=5))

    asyncio.run(setup(False))
    assert ledger_check(url) == 0
    assert "sound" in capsys.readouterr().out
    assert main(["ledger", "check", "--db", url]) == 0
    assert "sound" in capsys.readouterr().out
    if url.startswith("postgresql"):  # libpq's sslmode, as operators copy it from psql: asyncpg's ssl
        assert ledger_check(url + "?sslmode=disable") == 0
        assert "sound" in capsys.readouterr().out
    asyncio.run(setup(True))
    assert ledger_check(url) == 1
    out = capsys.readouterr()
    assert "has balance 5 but its entries sum to" in out.out and "breach" in out.err


def test_ledger_check_bad_urls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for url in (
        "nosuchdb://x/y",
        "postgresql://postgres@127.0.0.1:1/none",
        str(tmp_path / "missing.db"),
        "sqlite:///:memory:",
        "postgresql://postgres@127.0.0.1:5432/erma_no_such_database",
    ):
        assert ledger_check(url) == 2, url
        err = capsys.readouterr().err
        assert err.startswith("erma ledger check: ") and err.count("\n") == 1, err
    assert not (tmp_path / "missing.db").exists()


def test_ratings_rebuild(fresh_db: Callable[[], str], capsys: pytest.CaptureFixture[str]) -> None:
    from erma.store.ratings import RatedHand
    from erma.store.schema import ratings

    url = fresh_db()

    async def setup(tamper: bool) -> None:
        async with opened(url) as s:
            a, b = await s.create_guest(), await s.create_guest()
            for i in range(3):
                await s.hold(f"rb-{tamper}-{i}", {a.id: 10, b.id: 10})
                points = (5, -5) if i % 2 == 0 else (-5, 5)
                rated = RatedHand("standard", (a.id, b.id), winner=i % 2, points=points)
                await s.settle(
                    f"rb-{tamper}-{i}",
                    {a.id: 5, b.id: -5} if i % 2 == 0 else {a.id: -5, b.id: 5},
                    rated=rated,
                )
            if tamper:
                async with s.engine.begin() as conn:
                    await conn.execute(
                        sa.update(ratings).where(ratings.c.account_id == a.id).values(points=99)
                    )

    asyncio.run(setup(False))
    assert main(["ratings", "rebuild", "--db", url]) == 0
    out = capsys.readouterr().out
    assert "3 rated matches of 3 rated hands replayed, 2 standings recomputed" in out and "equals" in out
    asyncio.run(setup(True))
    assert main(["ratings", "rebuild", "--db", url, "--dry-run"]) == 1
    assert "not written" in capsys.readouterr().err
    assert main(["ratings", "rebuild", "--db", url]) == 1
    assert "corrected" in capsys.readouterr().err
    assert main(["ratings", "rebuild", "--db", url]) == 0
    assert main(["ratings", "rebuild", "--db", "/nonexistent/x.db"]) == 2
    assert "no SQLite database" in capsys.readouterr().err
