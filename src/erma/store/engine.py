"""Database URLs, engines and the write-transaction runner with retries.

SQLite (the embedded default) gets WAL, a busy timeout, foreign keys, and ``BEGIN IMMEDIATE`` for every
write transaction, through SQLAlchemy's documented recipe for drivers whose own BEGIN handling is in the
way: the DB-API connection's ``isolation_level`` set to ``None`` and a ``begin`` event that emits the BEGIN
itself (on the async engine's ``sync_engine``). A connection opened with the execution option
``erma_readonly=True`` begins a deferred (``BEGIN``) transaction instead, so readers never take the write
lock. PostgreSQL runs at READ COMMITTED with row locks (``SELECT … FOR UPDATE``, conditional ``UPDATE …
RETURNING``); serialization failures and deadlocks are retried.

On SQLite, :func:`run_write` and :func:`run_read` run the whole transaction in one worker thread on a
synchronous twin of the engine (the standard ``sqlite3`` driver, same settings): through aiosqlite every
statement, cursor and commit is a round trip between its thread and the event loop (18 for one balance
read), which made the ledger the largest CPU cost of a busy server. A transaction function is written once,
as ``async def fn(conn)`` awaiting only ``conn.execute``; in the thread its ``await``s never suspend, so it
is driven to the end in one step. PostgreSQL keeps asyncpg on the event loop.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
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
    ``sqlite://`` and ``postgresql://`` (or ``postgres://``) URLs get their async driver (libpq's
    ``sslmode=`` becomes asyncpg's ``ssl=``, which takes the same values). Raises :class:`InvalidInputError`
    for anything else.

    >>> resolve_url("postgresql://postgres@127.0.0.1/test").drivername
    'postgresql+asyncpg'
    >>> resolve_url("postgresql://u@h/db?sslmode=disable").query
    immutabledict({'ssl': 'disable'})
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
        if "sslmode" in parsed.query:
            parsed = parsed.difference_update_query(["sslmode"]).update_query_dict(
                {"ssl": parsed.query["sslmode"]}
            )
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
    """An async engine for ``url`` (from :func:`resolve_url`), with the SQLite settings described above (and,
    on SQLite, its synchronous twin for the transaction runners)."""
    if url.get_backend_name() != "sqlite":
        return create_async_engine(url, **kwargs)
    if url.database:
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_async_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}, **kwargs)
    _sqlite_settings(engine.sync_engine)
    twin = sa.create_engine(
        url.set(drivername="sqlite+pysqlite"),
        connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000, "check_same_thread": False},
        pool_size=_SQLITE_THREADS,
    )
    _sqlite_settings(twin)
    _twins[engine] = _Twin(twin, ThreadPoolExecutor(_SQLITE_THREADS, thread_name_prefix="erma-sqlite"))
    return engine


#: Threads (and pooled connections) for SQLite transactions: one writer at a time anyway, readers beside it.
_SQLITE_THREADS = 4


class _Twin:
    """A SQLite engine's synchronous twin and the threads its transactions run in."""

    def __init__(self, engine: sa.Engine, threads: ThreadPoolExecutor) -> None:
        self.engine = engine
        self.threads = threads


_twins: weakref.WeakKeyDictionary[AsyncEngine, _Twin] = weakref.WeakKeyDictionary()


async def dispose(engine: AsyncEngine) -> None:
    """Close every connection of ``engine`` (and of its SQLite twin, whose threads stop)."""
    twin = _twins.pop(engine, None)
    if twin is not None:
        twin.threads.shutdown(wait=True)
        twin.engine.dispose()
    await engine.dispose()


class _SyncConn:
    """What a transaction function sees in a SQLite worker thread: ``execute`` runs the statement at once."""

    def __init__(self, conn: sa.Connection) -> None:
        self._conn = conn
        self.dialect = conn.dialect

    async def execute(self, statement: Any, parameters: Any = None) -> Any:
        return self._conn.execute(statement, parameters)


def _drive(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never suspends (a transaction function on a :class:`_SyncConn`) to its end."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coro.close()
    raise RuntimeError("a store transaction awaited something other than the database")


def _write_in_thread(twin: sa.Engine, fn: Callable[[Any], Awaitable[T]]) -> T:
    with twin.begin() as conn:
        return _drive(fn(_SyncConn(conn)))  # type: ignore[arg-type]


def _read_in_thread(twin: sa.Engine, fn: Callable[[Any], Awaitable[T]]) -> T:
    with twin.connect() as conn:
        conn = conn.execution_options(erma_readonly=True)
        with conn.begin():
            return _drive(fn(_SyncConn(conn)))  # type: ignore[arg-type]


def _sqlite_settings(sync_engine: sa.Engine) -> None:
    """WAL, the busy timeout, foreign keys, and our own BEGIN (IMMEDIATE unless read-only)."""

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        _ensure_wal(cursor)
        cursor.close()

    @event.listens_for(sync_engine, "begin")
    def _on_begin(connection: sa.Connection) -> None:
        readonly = connection.get_execution_options().get("erma_readonly", False)
        connection.exec_driver_sql("BEGIN" if readonly else "BEGIN IMMEDIATE")


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
    twin = _twins.get(engine)
    for attempt in range(attempts):
        try:
            if twin is not None:
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(twin.threads, _write_in_thread, twin.engine, fn)
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
    twin = _twins.get(engine)
    if twin is not None:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(twin.threads, _read_in_thread, twin.engine, fn)
    async with engine.connect() as conn:
        if is_sqlite(conn):
            await conn.execution_options(erma_readonly=True)
        elif snapshot:
            await conn.execution_options(isolation_level="REPEATABLE READ")
        async with conn.begin():
            return await fn(conn)
