"""Alembic environment for the store: runs on a connection handed in by ``Store.open`` (in its write
transaction), or, from the ``alembic`` command, on an engine made from ``-x db=URL``, ``ERMA_DB_URL``
or ``sqlalchemy.url``."""

from __future__ import annotations

import asyncio
import os
from logging.config import fileConfig

import sqlalchemy as sa
from alembic import context

from erma.store.engine import dispose, make_engine, resolve_url
from erma.store.migrate import PG_MIGRATION_LOCK
from erma.store.schema import metadata


def _run(connection: sa.Connection) -> None:
    if connection.dialect.name == "postgresql":
        # Concurrent upgraders wait here; the second one then finds the database at head.
        connection.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": PG_MIGRATION_LOCK})
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_from_url(url: str | None) -> None:
    engine = make_engine(resolve_url(url))
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_run)
    finally:
        await dispose(engine)


def main() -> None:
    """Run the migrations Alembic was asked for."""
    config = context.config
    if context.is_offline_mode():
        raise SystemExit("the store's migrations run online only (they create triggers per dialect)")
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    if config.config_file_name is not None:
        fileConfig(config.config_file_name, disable_existing_loggers=False)
    url = context.get_x_argument(as_dictionary=True).get("db") or os.environ.get("ERMA_DB_URL")
    asyncio.run(_run_from_url(url or config.get_main_option("sqlalchemy.url")))


if hasattr(context, "config"):  # run by Alembic (not merely imported, as by pytest's doctest collection)
    main()
