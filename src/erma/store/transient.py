"""Transient database errors (暂时性故障), classified in one place: :func:`is_transient` says whether an
exception raised by a store call is worth trying again once the database answers — a connection closed,
refused or reset (a restart, a failover, a network blip), the server starting up or shutting down, a
serialization failure or a deadlock, a timeout — and never a bad input, a constraint violation or a bug.

The server retries such calls inside a bounded window (:mod:`erma.server.dbretry`); the store's own runners
(:func:`erma.store.engine.run_write`) already retry contention within one call.
"""

from __future__ import annotations

import sqlalchemy.exc as sa_exc

from erma.errors import ErmaError

#: PostgreSQL SQLSTATE classes and codes that pass: 08 connection exception, 40001 serialization failure,
#: 40P01 deadlock, 53300 too many connections, 57P01–57P03 admin shutdown / crash shutdown / cannot connect
#: now (starting up), 55P03 lock not available.
_PG_CLASSES = ("08",)
_PG_STATES = {"40001", "40P01", "53300", "57P01", "57P02", "57P03", "55P03"}

#: Driver messages of a dropped or refused connection (asyncpg, aiosqlite), lower case.
_PHRASES = (
    "connection is closed",
    "connection was closed",
    "connection refused",
    "connection reset",
    "connection does not exist",
    "server closed the connection",
    "terminating connection",
    "the database system is starting up",
    "the database system is shutting down",
    "cannot connect now",
    "database is locked",
    "database is busy",
    "deadlock detected",
    "could not serialize",
    "timeout",
    "timed out",
)


def _sqlstate(exc: BaseException) -> str | None:
    for e in (exc, getattr(exc, "orig", None), getattr(getattr(exc, "orig", None), "__cause__", None)):
        state = getattr(e, "sqlstate", None) or getattr(e, "pgcode", None)
        if isinstance(state, str):
            return state
    return None


def is_transient(exc: BaseException) -> bool:
    """Whether ``exc`` (raised by a store call) may pass if the same call is made again a little later."""
    if isinstance(exc, ErmaError | sa_exc.IntegrityError | sa_exc.ProgrammingError | sa_exc.DataError):
        return False  # bad input, a constraint, a bad statement: the same call fails again
    if isinstance(exc, sa_exc.DBAPIError) and exc.connection_invalidated:
        return True
    if isinstance(exc, sa_exc.TimeoutError | TimeoutError | ConnectionError):
        return True  # the pool's wait, a driver's timeout, a refused or reset connection
    state = _sqlstate(exc)
    if state is not None:
        return state in _PG_STATES or state[:2] in _PG_CLASSES
    if isinstance(exc, sa_exc.InterfaceError | sa_exc.DisconnectionError | OSError):
        return True  # the driver's own connection trouble (no SQLSTATE: the server never answered)
    if isinstance(getattr(exc, "orig", None), OSError):
        return True
    text = f"{exc} {getattr(exc, 'orig', '')}".lower()
    return isinstance(exc, sa_exc.DBAPIError) and any(p in text for p in _PHRASES)
