"""Which database errors a table waits out (:func:`erma.store.transient.is_transient`) and how it retries
them (:func:`erma.server.dbretry.retrying`), without a database."""

from __future__ import annotations

import asyncio

import pytest
import sqlalchemy.exc as sa_exc

from erma.errors import InsufficientBeansError, InvalidInputError
from erma.server.dbretry import DatabaseAway, RetryingStore, retrying
from erma.store.transient import is_transient


class _PgError(Exception):
    def __init__(self, sqlstate: str, text: str = "") -> None:
        super().__init__(text)
        self.sqlstate = sqlstate


def _dbapi(cls: type[sa_exc.DBAPIError], orig: Exception, invalidated: bool = False) -> sa_exc.DBAPIError:
    return cls("SELECT 1", {}, orig, connection_invalidated=invalidated)


@pytest.mark.parametrize(
    "exc",
    [
        _dbapi(sa_exc.InterfaceError, Exception("connection is closed")),  # the crash
        _dbapi(sa_exc.OperationalError, ConnectionRefusedError(111, "Connect call failed")),
        _dbapi(sa_exc.DBAPIError, _PgError("08006", "connection failure")),
        _dbapi(sa_exc.DBAPIError, _PgError("57P01", "terminating connection due to administrator command")),
        _dbapi(sa_exc.DBAPIError, _PgError("57P03", "the database system is starting up")),
        _dbapi(sa_exc.DBAPIError, _PgError("40001", "could not serialize access")),
        _dbapi(sa_exc.DBAPIError, _PgError("40P01", "deadlock detected")),
        _dbapi(sa_exc.DBAPIError, Exception("whatever"), invalidated=True),
        _dbapi(sa_exc.OperationalError, Exception("database is locked")),
        sa_exc.TimeoutError("QueuePool limit reached, connection timed out"),
        ConnectionRefusedError(111, "refused"),
        TimeoutError(),
        OSError(113, "No route to host"),
    ],
)
def test_connection_trouble_is_transient(exc: BaseException) -> None:
    assert is_transient(exc)


@pytest.mark.parametrize(
    "exc",
    [
        _dbapi(sa_exc.IntegrityError, _PgError("23505", "duplicate key")),
        _dbapi(sa_exc.ProgrammingError, _PgError("42P01", "relation does not exist")),
        _dbapi(sa_exc.DataError, _PgError("22003", "out of range")),
        _dbapi(sa_exc.DBAPIError, _PgError("23503", "foreign key")),
        _dbapi(sa_exc.OperationalError, Exception("no such table: accounts")),
        InvalidInputError("bad unit"),
        InsufficientBeansError("broke"),
        ValueError("a bug"),
        KeyError("a bug"),
    ],
)
def test_bad_input_and_bugs_are_not(exc: BaseException) -> None:
    assert not is_transient(exc)


def test_retrying_waits_out_a_blip_and_says_so() -> None:
    calls: list[int] = []
    told: list[bool] = []

    async def flaky() -> str:
        calls.append(1)
        if len(calls) < 4:
            raise _dbapi(sa_exc.InterfaceError, Exception("connection is closed"))
        return "ok"

    assert asyncio.run(retrying(flaky, 5.0, told.append)) == "ok"
    assert len(calls) == 4 and told == [True, False]


def test_retrying_gives_up_after_the_window_and_at_once_on_other_errors() -> None:
    told: list[bool] = []

    async def down() -> None:
        raise ConnectionRefusedError(111, "refused")

    with pytest.raises(DatabaseAway):
        asyncio.run(retrying(down, 0.3, told.append))
    assert told == [True]  # (never back)

    n: list[int] = []

    async def bad() -> None:
        n.append(1)
        raise InvalidInputError("unit 'x': bad")

    with pytest.raises(InvalidInputError):
        asyncio.run(retrying(bad, 5.0))
    assert n == [1]


def test_a_retrying_store_wraps_coroutine_methods_only() -> None:
    class Fake:
        engine = "the engine"
        n = 0

        async def balances(self, ids: list[int]) -> list[int]:
            self.n += 1
            if self.n == 1:
                raise ConnectionResetError("reset")
            return [1 for _ in ids]

    fake = Fake()
    store = RetryingStore(fake, 5.0)
    assert store.engine == "the engine"
    assert asyncio.run(store.balances([1, 2])) == [1, 1] and fake.n == 2
