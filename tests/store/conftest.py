"""Fixtures for the store's tests: every test that takes ``db_url`` runs on SQLite and on PostgreSQL.

PostgreSQL: the server at ``ERMA_TEST_PG`` (default ``postgresql://postgres@127.0.0.1:5432/test``, trust
auth) makes one fresh database per test session and per :func:`fresh_db` call, each dropped at the end.
Without a reachable server the PostgreSQL cases are skipped, except under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from argon2 import PasswordHasher
from sqlalchemy.engine import make_url

from erma.store import Store

PG_ADMIN = os.environ.get("ERMA_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = ["sqlite", "postgresql"]

#: Argon2 at its cheapest: the tests make many accounts.
FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


async def _admin(sql: str) -> None:
    conn = await asyncpg.connect(PG_ADMIN, timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def _pg_available() -> str | None:
    """None if the server answers, else why not."""
    try:
        asyncio.run(_admin("SELECT 1"))
    except (TimeoutError, OSError, asyncpg.PostgresError) as e:
        return f"PostgreSQL at {PG_ADMIN} is not reachable: {e}"
    return None


class Databases:
    """Makes fresh, empty databases for one backend and drops them at the end of the session."""

    def __init__(self, backend: str, tmp: Path) -> None:
        self.backend = backend
        self.tmp = tmp
        self.made: list[str] = []

    def new(self) -> str:
        name = f"erma_test_{os.getpid()}_{secrets.token_hex(4)}"
        if self.backend == "sqlite":
            return f"sqlite:///{self.tmp / (name + '.db')}"
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
        self.made.append(name)
        return make_url(PG_ADMIN).set(database=name).render_as_string(hide_password=False)

    def drop_all(self) -> None:
        for name in self.made:
            with contextlib.suppress(Exception):
                asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        self.made.clear()


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The database backend of this run of the test: ``sqlite`` or ``postgresql``."""
    if request.param == "postgresql":
        why = _pg_available()
        if why is not None:
            if os.environ.get("CI"):
                pytest.fail(why)
            pytest.skip(why)
    return str(request.param)


@pytest.fixture(scope="session")
def databases(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Databases]:
    """The database factory for the backend."""
    dbs = Databases(backend, tmp_path_factory.mktemp(f"store-{backend}"))
    yield dbs
    dbs.drop_all()


@pytest.fixture(scope="session")
def db_url(databases: Databases) -> str:
    """One fresh database per backend for the test session (migrated by the first ``Store.open``). Tests
    that share it use their own accounts and unit names; the invariants hold for the whole database."""
    return databases.new()


@pytest.fixture
def fresh_db(databases: Databases) -> Callable[[], str]:
    """A factory of new, empty databases (for migrations and crash tests)."""
    return databases.new


@contextlib.asynccontextmanager
async def opened(url: str, **options: Any) -> AsyncIterator[Store]:
    """``Store.open(url)`` with the fast hasher, closed at the end."""
    options.setdefault("password_hasher", FAST_HASHER)
    store = await Store.open(url, **options)
    try:
        yield store
    finally:
        await store.close()
