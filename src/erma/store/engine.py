"""Database URLs, engines and the write-transaction runner with retries.

SQLite (the embedded default) gets WAL, a busy timeout, foreign keys, and ``BEGIN IMMEDIATE`` for every
write transaction, through SQLAlchemy's documented recipe for drivers whose own BEGIN handling is in the
way: the DB-API connection's ``isolation_level`` set to ``None`` and a ``begin`` event that emits the BEGIN
itself (on the async engine's ``sync_engine``). A connection opened with the execution option
``erma_readonly=True`` begins a deferred (``BEGIN``) transaction instead, so readers never take the write
lock. PostgreSQL runs at READ COMMITTED with row locks (``SELECT … FOR UPDATE``, conditional ``UPDATE …
RETURNING``); serialization failures and deadlocks are retried.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from erma.errors import InvalidInputError

T = TypeVar("T")

#: How long a SQLite writer waits for the write lock before failing (then the runner retries).
SQLITE_BUSY_TIMEOUT_MS = 30_000

#: PostgreSQL SQLSTATEs worth retrying: serialization failure, deadlock detected.
_PG_RETRY_STATES = {"40001", "40P01"}


def resolve_url(url: str | None, data_dir: str | Path = "data") -> URL:
    """The async SQLAlchemy URL for ``url``.

    ``None`` is ``sqlite+aiosqlite:///{data_dir}/erma.db``; a string without ``://`` is a SQLite file path;
    ``sqlite://`` and ``postgresql://`` (or ``postgres://``) URLs get their async driver. Raises
    :class:`InvalidInputError` for anything else.

    >>> resolve_url("postgresql://postgres@127.0.0.1/test").drivername
    'postgresql+asyncpg'
    >>> resolve_url("db/x.db").render_as_string()
    'sqlite+aiosqlite:///db/x.db'
    """
    if url is None:
        return make_url(f"sqlite+aiosqlite:///{Path(data_dir) / 'erma.db'}")
    if "://" not in url:
        return make_url(f"sqlite+aiosqlite:///{url}")
    try:
        parsed = make_url(url)
    except ArgumentError as e:
        raise InvalidInputError(f"cannot read database URL {url!r}: {e}") from None
    backend = parsed.get_backend_name()
    if backend in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+asyncpg")
    if backend == "sqlite":
        if parsed.database in (None, "", ":memory:"):
            raise InvalidInputError(f"database URL {url!r}: the store needs a SQLite file, not memory")
        return parsed.set(drivername="sqlite+aiosqlite")
    raise InvalidInputError(f"database URL {url!r}: only sqlite and postgresql are supported")


def is_sqlite(engine: AsyncEngine | AsyncConnection) -> bool:
    """True on SQLite."""
    return engine.dialect.name == "sqlite"


def make_engine(url: URL, **kwargs: Any) -> AsyncEngine:
    """An async engine for ``url`` (from :func:`resolve_url`), with the SQLite settings described above."""
    if url.get_backend_name() != "sqlite":
        return create_async_engine(url, **kwargs)
    if url.database:
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_async_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}, **kwargs)

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        _ensure_wal(cursor)
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: sa.Connection) -> None:
        readonly = connection.get_execution_options().get("erma_readonly", False)
        connection.exec_driver_sql("BEGIN" if readonly else "BEGIN IMMEDIATE")

    return engine


def _ensure_wal(cursor: Any) -> None:
    """Switch a database file to WAL (a persistent setting, so this happens once per file). The switch
    needs the file to itself and does not wait on the busy timeout: retry for a few seconds while another
    connection (a concurrent first open) holds it; a file left in rollback-journal mode is still correct."""
    cursor.execute("PRAGMA journal_mode")
    if str(cursor.fetchone()[0]).lower() == "wal":
        return
    for _ in range(200):
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) and "busy" not in str(e):
                raise
            time.sleep(0.025)


def is_retryable(error: DBAPIError) -> bool:
    """A failure that a fresh attempt of the whole transaction may not meet: lock contention, a
    serialization failure, or a connection the pool had kept after the server dropped it (no pre-ping: a
    round trip saved on every transaction); never a constraint violation."""
    if error.connection_invalidated:
        return True
    orig = error.orig
    state = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    if state is None and orig is not None:
        state = getattr(orig.__cause__, "sqlstate", None)
    if state in _PG_RETRY_STATES:
        return True
    text = str(orig).lower()
    return "database is locked" in text or "database is busy" in text or "deadlock detected" in text


async def run_write(
    engine: AsyncEngine, fn: Callable[[AsyncConnection], Awaitable[T]], attempts: int = 30
) -> T:
    """Run ``fn`` in a write transaction (``BEGIN IMMEDIATE`` on SQLite), committing on return and rolling
    back on any exception; retry the whole transaction on a retryable failure (:func:`is_retryable`)."""
    for attempt in range(attempts):
        try:
            async with engine.begin() as conn:
                return await fn(conn)
        except DBAPIError as e:
            if attempt == attempts - 1 or not is_retryable(e):
                raise
            await asyncio.sleep(random.uniform(0, min(0.2, 0.002 * 2**attempt)))
    raise AssertionError("unreachable")


async def run_read(
    engine: AsyncEngine, fn: Callable[[AsyncConnection], Awaitable[T]], snapshot: bool = False
) -> T:
    """Run ``fn`` in a read transaction: a deferred BEGIN on SQLite (a consistent WAL snapshot); on
    PostgreSQL READ COMMITTED, or REPEATABLE READ with ``snapshot=True`` (one snapshot for all queries)."""
    async with engine.connect() as conn:
        if is_sqlite(conn):
            await conn.execution_options(erma_readonly=True)
        elif snapshot:
            await conn.execution_options(isolation_level="REPEATABLE READ")
        async with conn.begin():
            return await fn(conn)
