"""``erma ledger check --db URL``: the ledger's invariants, from the command line."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from sqlalchemy.exc import DBAPIError, NoSuchModuleError, SQLAlchemyError

from erma.errors import ErmaError
from erma.store.engine import resolve_url
from erma.store.store import Store


async def _check(url: str | None) -> list[str]:
    store = await Store.open(url, upgrade=False)
    try:
        return await store.check()
    finally:
        await store.close()


def ledger_check(url: str | None) -> int:
    """Check the ledger at ``url`` (``None``: ``data/erma.db``); print every breach. Returns the exit code:
    0 if sound, 1 if there is a breach, 2 if the database cannot be read (one line on stderr). Never
    creates or migrates a database."""
    try:
        resolved = resolve_url(url)
        if resolved.get_backend_name() == "sqlite" and not Path(resolved.database or "").is_file():
            raise ErmaError(f"no SQLite database at {resolved.database!r}")
        breaches = asyncio.run(_check(url))
    except ErmaError as e:
        print(f"erma ledger check: {e}", file=sys.stderr)
        return 2
    except (DBAPIError, NoSuchModuleError, SQLAlchemyError, OSError) as e:
        first = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
        print(f"erma ledger check: cannot read the ledger at {url!r}: {first}", file=sys.stderr)
        return 2
    for line in breaches:
        print(line)
    if breaches:
        print(f"{len(breaches)} breach(es).", file=sys.stderr)
        return 1
    print("ledger sound")
    return 0
