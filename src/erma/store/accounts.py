"""Accounts (账户) and sessions: guests, registered players, their passwords and session tokens.

A player is a ``user`` row of the ledger's ``accounts`` table; a guest has no password and is reached only
through its session tokens, until :func:`upgrade_guest` gives it a name and a password (same id, so its
beans and records stay). Passwords are kept as Argon2id hashes, session tokens as their SHA-256. The
functions here run inside a transaction the :class:`~erma.store.store.Store` opens.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import re
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.ext.asyncio import AsyncConnection

from erma.errors import InvalidInputError
from erma.store.schema import accounts as A
from erma.store.schema import sessions as S
from erma.store.schema import utc

#: A player name: 2–24 letters (any script), digits, ``_``, ``-`` or ``.``, after NFKC normalisation.
NAME_PATTERN = re.compile(r"[^\W_][\w.-]{1,23}")
#: Passwords: 6 to 1024 characters.
PASSWORD_MIN, PASSWORD_MAX = 6, 1024
#: Names starting with this are the store's guests; nobody can register one.
GUEST_PREFIX = "guest-"
#: Names starting with this are the house's bot accounts (``bot:<level>``; nobody can register a ``:``).
BOT_PREFIX = "bot:"

_NOW = sa.func.current_timestamp(type_=sa.DateTime(timezone=True))


def default_password_hasher() -> PasswordHasher:
    """Argon2id at OWASP's first recommended setting (19 MiB, 2 passes, 1 lane): about 0.1 s a hash on
    one core here, where argon2-cffi's default (64 MiB, 3 passes, 4 lanes) takes 0.7 s."""
    return PasswordHasher(time_cost=2, memory_cost=19_456, parallelism=1)


@dataclass(frozen=True, slots=True)
class Account:
    """A player's account (a user ledger account)."""

    id: int
    """The account id, used everywhere else in the store's API."""
    name: str
    """The display name: as registered, or ``guest-xxxxxx`` for a guest."""
    is_guest: bool
    """True for a guest (no password; reachable only through its session tokens)."""
    created: dt.datetime
    """When the account was made (UTC, stamped by the database)."""


def _account(row: Any) -> Account:
    return Account(id=row.id, name=row.name, is_guest=bool(row.is_guest), created=utc(row.created))


_COLUMNS = (A.c.id, A.c.name, A.c.is_guest, A.c.created)


def name_key(name: str) -> str:
    """The form a name is unique and looked up by: NFKC, case-folded.

    >>> name_key("Ｍahjong")
    'mahjong'
    """
    return unicodedata.normalize("NFKC", name).casefold()


def checked_name(name: object) -> str:
    """A name a player may register (NFKC-normalised), or :class:`InvalidInputError` saying why not."""
    if not isinstance(name, str):
        raise InvalidInputError(f"name {name!r}: expected a string")
    name = unicodedata.normalize("NFKC", name)
    if not NAME_PATTERN.fullmatch(name):
        raise InvalidInputError(
            f"name {name!r}: 2–24 letters, digits, '_', '-' or '.', starting with a letter or digit"
        )
    if name_key(name).startswith(GUEST_PREFIX):
        raise InvalidInputError(f"name {name!r}: names starting with {GUEST_PREFIX!r} are for guests")
    return name


def check_password(password: object) -> None:
    """:class:`InvalidInputError` unless ``password`` is a string of ``PASSWORD_MIN``–``PASSWORD_MAX``."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise InvalidInputError(f"password: expected {PASSWORD_MIN}–{PASSWORD_MAX} characters")


def is_token(token: object) -> bool:
    """Whether ``token`` could be a session token (a string of 1–256 characters)."""
    return isinstance(token, str) and 0 < len(token) <= 256


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def session_key(token: str) -> str:
    """What the store keeps of a session token (its SHA-256, hex): how a server names a socket's session
    without keeping the token itself."""
    return _token_hash(token)


class Passwords:
    """Argon2id hashing off the event loop, with the same work for an unknown name as for a wrong
    password."""

    def __init__(self, hasher: PasswordHasher) -> None:
        self.hasher = hasher
        self._dummy_hash: str | None = None

    async def hash(self, password: str) -> str:
        """The password's hash, computed in a worker thread."""
        return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches the ``stored`` hash (``None``: no such account, always False)."""
        if stored is None:
            if self._dummy_hash is None:
                self._dummy_hash = await self.hash(secrets.token_urlsafe(16))
            stored = self._dummy_hash  # same work for an unknown name as for a wrong password
            password = ""
        try:
            return await asyncio.to_thread(self.hasher.verify, stored, password)
        except (VerificationError, InvalidHashError):
            return False


# ---------------------------------------------------------------------- in a transaction


async def insert(conn: AsyncConnection, name: str, password_hash: str | None) -> Account:
    """A new player account named ``name``: a guest if ``password_hash`` is ``None``. A taken name raises
    ``IntegrityError``."""
    values: dict[str, Any] = {"kind": "user", "name": name, "name_key": name_key(name)}
    if password_hash is None:
        values["is_guest"] = True
    else:
        values.update(is_guest=False, password_hash=password_hash)
    row = (await conn.execute(sa.insert(A).values(**values).returning(*_COLUMNS))).one()
    return _account(row)


async def upgrade_guest(conn: AsyncConnection, account_id: int, name: str, password_hash: str) -> Account:
    """Give the guest ``account_id`` a name and password; :class:`InvalidInputError` if it is not a guest.
    A taken name raises ``IntegrityError``."""
    row = (
        await conn.execute(
            sa.update(A)
            .where(A.c.id == account_id, A.c.kind == "user", A.c.is_guest.is_(True))
            .values(name=name, name_key=name_key(name), is_guest=False, password_hash=password_hash)
            .returning(*_COLUMNS)
        )
    ).first()
    if row is None:
        raise InvalidInputError(f"account {account_id}: not a guest account")
    return _account(row)


async def for_login(conn: AsyncConnection, name: str) -> tuple[Account, str | None] | None:
    """The player account named ``name`` and its password hash (``None`` for a guest), or ``None``."""
    q = sa.select(*_COLUMNS, A.c.password_hash).where(A.c.name_key == name_key(name), A.c.kind == "user")
    row = (await conn.execute(q)).first()
    return None if row is None else (_account(row), row.password_hash)


async def set_password_hash(conn: AsyncConnection, account_id: int, password_hash: str) -> None:
    """Replace the account's password hash (a rehash at a newer setting)."""
    await conn.execute(sa.update(A).where(A.c.id == account_id).values(password_hash=password_hash))


async def get(conn: AsyncConnection, account_id: int) -> Account | None:
    """The player account with this id, or ``None``."""
    q = sa.select(*_COLUMNS).where(A.c.id == account_id, A.c.kind == "user")
    row = (await conn.execute(q)).first()
    return None if row is None else _account(row)


async def new_session(conn: AsyncConnection, account_id: int, token: str, ttl: float | None) -> None:
    """Store the token's hash for the player account, expiring ``ttl`` seconds from the database's now
    (never if ``None``); :class:`InvalidInputError` if there is no such player account."""
    q = sa.select(A.c.id).where(A.c.id == account_id, A.c.kind == "user")
    if (await conn.execute(q)).first() is None:
        raise InvalidInputError(f"account {account_id}: no such player account")
    expires = None
    if ttl is not None:
        now = utc((await conn.execute(sa.select(_NOW))).scalar_one())
        expires = now + dt.timedelta(seconds=ttl)
    await conn.execute(
        sa.insert(S).values(token_hash=_token_hash(token), account_id=account_id, expires=expires)
    )


async def for_session(conn: AsyncConnection, token: str) -> Account | None:
    """The account a live session token belongs to, or ``None`` (unknown or expired)."""
    q = (
        sa.select(*_COLUMNS, S.c.expires, _NOW.label("now"))
        .select_from(S.join(A, A.c.id == S.c.account_id))
        .where(S.c.token_hash == _token_hash(token))
    )
    row = (await conn.execute(q)).first()
    if row is None or (row.expires is not None and utc(row.expires) <= utc(row.now)):
        return None
    return _account(row)


async def live_sessions(conn: AsyncConnection, keys: list[str]) -> set[str]:
    """Those of the session ``keys`` (:func:`session_key`) that still exist and have not expired."""
    q = sa.select(S.c.token_hash, S.c.expires, _NOW.label("now")).where(S.c.token_hash.in_(keys))
    return {
        row.token_hash
        for row in (await conn.execute(q)).all()
        if row.expires is None or utc(row.expires) > utc(row.now)
    }


async def end_session(conn: AsyncConnection, token: str) -> bool:
    """Delete one session; ``False`` if there was none."""
    done = await conn.execute(sa.delete(S).where(S.c.token_hash == _token_hash(token)))
    return bool(done.rowcount)


async def revoke_sessions(conn: AsyncConnection, account_id: int) -> int:
    """Delete every session of the account; how many there were."""
    done = await conn.execute(sa.delete(S).where(S.c.account_id == account_id))
    return int(done.rowcount)


async def user_by_name(conn: AsyncConnection, name: str) -> Any:
    """The player row named ``name`` (``id``, ``name``, ``is_guest``), or ``None``."""
    q = sa.select(A.c.id, A.c.name, A.c.is_guest).where(A.c.name_key == name_key(name), A.c.kind == "user")
    return (await conn.execute(q)).first()
