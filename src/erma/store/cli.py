"""``erma ledger check --db URL`` (the ledger's invariants) and ``erma ratings rebuild --db URL`` (every
rating recomputed from the stored rated matches), from the command line."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from sqlalchemy.exc import DBAPIError, NoSuchModuleError, SQLAlchemyError

from erma.errors import ErmaError
from erma.store.engine import resolve_url
from erma.store.ratings import Rebuilt
from erma.store.store import Store

#: ``erma ledger check`` fails on a hold open longer than this by default (seconds): a hand lasts minutes,
#: and a table waits out a database outage for ``db_retry_window_s`` (30 s) before the sweeper's turn.
HOLD_AGE_S = 600.0


async def _check(url: str | None, hold_age_s: float | None) -> list[str]:
    store = await Store.open(url, upgrade=False)
    try:
        found = await store.check()
        if hold_age_s is not None:
            found += [h.sentence() for h in await store.open_holds(hold_age_s)]
        return found
    finally:
        await store.close()


def _readable(url: str | None) -> None:
    resolved = resolve_url(url)
    if resolved.get_backend_name() == "sqlite" and not Path(resolved.database or "").is_file():
        raise ErmaError(f"no SQLite database at {resolved.database!r}")


def _unreadable(command: str, url: str | None, e: Exception) -> int:
    first = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
    print(f"{command}: cannot read the database at {url!r}: {first}", file=sys.stderr)
    return 2


async def _rebuild(url: str | None, write: bool) -> Rebuilt:
    store = await Store.open(url, upgrade=False)
    try:
        return await store.rebuild_ratings(write=write)
    finally:
        await store.close()


def ratings_rebuild(url: str | None, write: bool = True) -> int:
    """Recompute every rating and rank at ``url`` by replaying the stored rated hands in order, compare with
    the stored standings, and (with ``write``) store the replay's values where they differ. Prints a summary
    and each difference. Exit code: 0 if the replay equals what was stored, 1 if anything differed (then
    corrected, unless ``write`` is false), 2 if the database cannot be read. Never creates or migrates one."""
    command = "erma ratings rebuild"
    try:
        _readable(url)
        done = asyncio.run(_rebuild(url, write))
    except ErmaError as e:
        print(f"{command}: {e}", file=sys.stderr)
        return 2
    except (DBAPIError, NoSuchModuleError, SQLAlchemyError, OSError) as e:
        return _unreadable(command, url, e)
    for line in done.differences:
        print(line)
    print(
        f"{done.matches} rated matches of {done.hands} rated hands replayed, "
        f"{done.standings} standings recomputed"
    )
    if done.differences:
        fixed = "corrected" if write else "not written (--dry-run)"
        print(
            f"{len(done.differences)} standing(s) differed from the stored values: {fixed}.", file=sys.stderr
        )
        return 1
    print("every stored rating equals the rebuild")
    return 0


def ledger_check(url: str | None, hold_age_s: float | None = HOLD_AGE_S) -> int:
    """Check the ledger at ``url`` (``None``: ``data/erma.db``); print every breach, and every hold open
    (stakes in escrow, no settle, refund or forfeit) for ``hold_age_s`` seconds or more (``None``: holds not
    looked at). Returns the exit code: 0 if sound, 1 if there is a breach or an old open hold, 2 if the
    database cannot be read or the age is bad (one line on stderr). Never creates or migrates a database."""
    try:
        if hold_age_s is not None and not hold_age_s >= 0:
            raise ErmaError(f"--hold-age-min: expected a number ≥ 0, not {hold_age_s / 60!r}")
        resolved = resolve_url(url)
        if resolved.get_backend_name() == "sqlite" and not Path(resolved.database or "").is_file():
            raise ErmaError(f"no SQLite database at {resolved.database!r}")
        breaches = asyncio.run(_check(url, hold_age_s))
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
