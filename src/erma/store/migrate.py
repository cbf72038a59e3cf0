"""Alembic for the store: the configuration, the head revision, and the upgrade run by :meth:`Store.open`.

The migration scripts live in ``erma/store/migrations``. From a shell::

    alembic -c src/erma/store/alembic.ini -x db=URL upgrade head

(``URL`` as for ``Store.open``; without ``-x db`` the ``ERMA_DB_URL`` environment variable, else
``data/erma.db``).
"""

from __future__ import annotations

import asyncio
import weakref
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).parent / "migrations"

#: The key of the PostgreSQL advisory lock that serialises concurrent upgrades (any fixed 64-bit int).
PG_MIGRATION_LOCK = 0x65726D61  # "erma"


def alembic_config(url: str | None = None) -> Config:
    """An Alembic configuration for the store's migrations (no ini file needed)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def head_revision() -> str:
    """The newest migration's revision id."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(connection: sa.Connection) -> str | None:
    """The revision a database is at (``None`` for an empty one)."""
    return MigrationContext.configure(connection).get_current_revision()


#: Alembic keeps its running context in module globals: one upgrade at a time per process (per event loop).
_LOCKS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = weakref.WeakKeyDictionary()


async def upgrade(engine: AsyncEngine) -> bool:
    """Upgrade the database to head, in one write transaction; returns whether anything was applied
    (``False``: already at head, a no-op). Concurrent upgraders in other processes wait on the database's
    write lock (SQLite) or an advisory lock (PostgreSQL), then find it at head."""
    lock = _LOCKS.setdefault(asyncio.get_running_loop(), asyncio.Lock())
    async with lock:
        return await _upgrade(engine)


async def _upgrade(engine: AsyncEngine) -> bool:
    head = head_revision()
    async with engine.connect() as conn:
        if await conn.run_sync(current_revision) == head:
            return False

    def _run(connection: sa.Connection) -> None:
        cfg = alembic_config()
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")

    async with engine.begin() as conn:
        await conn.run_sync(_run)
    return True
