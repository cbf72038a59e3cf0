"""The store: accounts and sessions, the double-entry bean (欢乐豆) ledger, game records.

It knows nothing of tiles: the server hands it plain rows (a settlement unit, account ids, bean deltas,
JSON records). See ``docs/store.md`` for the design and the guarantees.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import re
import secrets
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from erma.errors import InsufficientBeansError, InvalidInputError, NameTakenError
from erma.store import check as _check
from erma.store import ratings as _ratings
from erma.store import reviews as _reviews
from erma.store.engine import dispose, make_engine, resolve_url, run_read, run_write
from erma.store.migrate import upgrade as _upgrade
from erma.store.ratings import RatedHand, Rebuilt
from erma.store.schema import accounts as A
from erma.store.schema import entries as E
from erma.store.schema import record_players as RP
from erma.store.schema import records as R
from erma.store.schema import sessions as S
from erma.store.schema import transactions as T

#: A player name: 2–24 letters (any script), digits, ``_``, ``-`` or ``.``, after NFKC normalisation.
NAME_PATTERN = re.compile(r"[^\W_][\w.-]{1,23}")
#: Passwords: 6 to 1024 characters.
PASSWORD_MIN, PASSWORD_MAX = 6, 1024
#: Names starting with this are the store's guests; nobody can register one.
GUEST_PREFIX = "guest-"
#: Record ids are 32-bit on PostgreSQL (``game_records.id`` INTEGER): a larger id names no record (asking
#: PostgreSQL for one fails instead of finding nothing).
RECORD_ID_LIMIT = 2**31
#: Longest settlement-unit id (the transaction keys append ``:hold`` / ``:end``).
UNIT_MAX = 100

ISSUANCE_NAME = "system:issuance"


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


def _utc(value: dt.datetime) -> dt.datetime:
    return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


def _account(row: Any) -> Account:
    return Account(id=row.id, name=row.name, is_guest=bool(row.is_guest), created=_utc(row.created))


def name_key(name: str) -> str:
    """The form a name is unique and looked up by: NFKC, case-folded.

    >>> name_key("Ｍahjong")
    'mahjong'
    """
    return unicodedata.normalize("NFKC", name).casefold()


def _is_int(value: object) -> bool:
    return type(value) is int


def _check_unit(unit: object) -> str:
    if not isinstance(unit, str) or not unit or len(unit) > UNIT_MAX or not unit.isprintable():
        raise InvalidInputError(f"settlement unit {unit!r}: expected 1–{UNIT_MAX} printable characters")
    return unit


def _check_id(account_id: object, what: str = "account id") -> int:
    if not _is_int(account_id):
        raise InvalidInputError(f"{what} {account_id!r}: expected an int")
    assert isinstance(account_id, int)
    return account_id


def _split(amount: int, weights: Mapping[int, int]) -> dict[int, int]:
    """``amount`` shared by ``weights``, each share rounded down, the remainder to the first key (RULES §5.5).

    >>> _split(10, {7: 1, 3: 1, 5: 1})
    {7: 4, 3: 3, 5: 3}
    """
    total = sum(weights.values())
    shares = {a: amount * w // total for a, w in weights.items()}
    first = next(iter(weights))
    shares[first] += amount - sum(shares.values())
    return shares


class Store:
    """Accounts, sessions, the bean ledger and game records, on SQLite or PostgreSQL.

    Make one with :meth:`Store.open` (which applies the migrations) and :meth:`close` it at the end.
    Every method is a coroutine and safe to call concurrently, from one or several processes.
    """

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        issuance_id: int,
        signup_grant: int,
        relief_amount: int,
        relief_threshold: int,
        migrated: bool,
        password_hasher: PasswordHasher | None = None,
        session_ttl_s: float | None = None,
    ) -> None:
        """Use :meth:`Store.open`."""
        self.session_ttl_s = session_ttl_s
        """How long a new session lasts (``None``: until revoked)."""
        self.engine = engine
        self.issuance_id = issuance_id
        self.signup_grant = signup_grant
        self.relief_amount = relief_amount
        self.relief_threshold = relief_threshold
        self.migrated = migrated
        """Whether :meth:`open` applied any migration (``False``: the database was already at head)."""
        self._hasher = password_hasher or default_password_hasher()
        self._dummy_hash: str | None = None

    @classmethod
    async def open(
        cls,
        url: str | None = None,
        data_dir: str | Path = "data",
        *,
        signup_grant: int = 10_000,
        relief_amount: int = 2_000,
        relief_threshold: int = 500,
        upgrade: bool = True,
        password_hasher: PasswordHasher | None = None,
        session_ttl_s: float | None = 30 * 24 * 3600,
        **engine_options: Any,
    ) -> Store:
        """Connect to ``url`` and bring its schema to head.

        ``url``: ``None`` for ``sqlite+aiosqlite:///{data_dir}/erma.db`` (the folder is made), a SQLite file
        path, or a ``sqlite://`` / ``postgresql://`` URL (the async driver is filled in).
        ``signup_grant``: beans given to every new account; ``relief_amount`` beans a day to an account whose
        balance is below ``relief_threshold``. ``upgrade=False`` skips the migrations (for read-only tools).
        ``password_hasher``: an ``argon2.PasswordHasher`` (default :func:`default_password_hasher`); other
        keywords go to ``create_async_engine``. ``session_ttl_s``: how long a new session token lasts
        (default 30 days; ``None``: until revoked), measured by the database's clock.
        """
        if session_ttl_s is not None and not (
            isinstance(session_ttl_s, int | float)
            and not isinstance(session_ttl_s, bool)
            and session_ttl_s >= 0
        ):
            raise InvalidInputError(f"session_ttl_s={session_ttl_s!r}: expected a number ≥ 0 or None")
        for key, value in (
            ("signup_grant", signup_grant),
            ("relief_amount", relief_amount),
            ("relief_threshold", relief_threshold),
        ):
            if not _is_int(value) or value < 0:
                raise InvalidInputError(f"{key}={value!r}: expected an int ≥ 0")
        engine = make_engine(resolve_url(url, data_dir), **engine_options)
        try:
            migrated = await _upgrade(engine) if upgrade else False

            async def _issuance(conn: AsyncConnection) -> int | None:
                q = sa.select(A.c.id).where(A.c.name_key == ISSUANCE_NAME)
                return (await conn.execute(q)).scalar_one_or_none()

            issuance_id = await run_read(engine, _issuance)
        except BaseException:
            await dispose(engine)
            raise
        if issuance_id is None:
            await dispose(engine)
            raise InvalidInputError(f"database {url!r} has no issuance account: not an erma store")
        return cls(
            engine,
            issuance_id=issuance_id,
            signup_grant=signup_grant,
            relief_amount=relief_amount,
            relief_threshold=relief_threshold,
            migrated=migrated,
            password_hasher=password_hasher,
            session_ttl_s=session_ttl_s,
        )

    async def close(self) -> None:
        """Close every connection."""
        await dispose(self.engine)

    # ------------------------------------------------------------------ helpers

    async def _lock_escrow(self, conn: AsyncConnection, unit: str) -> int:
        """The unit's escrow account id, made if new, and locked (one upsert ``… ON CONFLICT DO UPDATE …
        RETURNING``, which locks the row it meets): every operation on a unit takes this lock first, so the
        operations on one unit run one at a time; user rows are locked after it, in ascending id order."""
        name = f"escrow:{unit}"
        insert = (postgresql if self.engine.dialect.name == "postgresql" else sqlite).insert(A)
        stmt = (
            insert.values(kind="escrow", name=name, name_key=name)
            .on_conflict_do_update(
                index_elements=["name_key"], set_={"kind": A.c.kind}, where=A.c.kind == "escrow"
            )
            .returning(A.c.id)
        )
        return int((await conn.execute(stmt)).scalar_one())

    @staticmethod
    async def _unit_state(conn: AsyncConnection, unit: str) -> tuple[bool, dict[int, int] | None]:
        """Whether the unit has ended, and what its hold took from each account in stake (seat) order
        (``None`` if never held), in one query."""
        hold_key, end_key = f"{unit}:hold", f"{unit}:end"
        j = T.outerjoin(E, sa.and_(E.c.transaction_id == T.c.id, E.c.delta < 0, T.c.key == hold_key))
        q = (
            sa.select(T.c.key, E.c.account_id, E.c.delta)
            .select_from(j)
            .where(T.c.key.in_((hold_key, end_key)))
            .order_by(E.c.id)
        )
        rows = (await conn.execute(q)).all()
        ended = any(r.key == end_key for r in rows)
        if not any(r.key == hold_key for r in rows):
            return ended, None
        return ended, {r.account_id: -r.delta for r in rows if r.account_id is not None}

    @staticmethod
    async def _has_terminal(conn: AsyncConnection, unit: str) -> bool:
        q = sa.select(T.c.id).where(T.c.key == f"{unit}:end")
        return (await conn.execute(q)).first() is not None

    async def _lock_users(
        self, conn: AsyncConnection, ids: Iterable[int], *, with_issuance: bool = False
    ) -> dict[int, Any]:
        """Lock the accounts ``ids`` in ascending id order and return their rows; every id must be a user
        account (the issuance account too, with ``with_issuance``)."""
        wanted = set(ids)
        if with_issuance:
            wanted.add(self.issuance_id)
        q = (
            sa.select(A.c.id, A.c.kind, A.c.balance)
            .where(A.c.id.in_(sorted(wanted)))
            .order_by(A.c.id)
            .with_for_update()
        )
        rows = {r.id: r for r in (await conn.execute(q)).all()}
        for a in sorted(wanted):
            row = rows.get(a)
            if row is None or (row.kind != "user" and not (with_issuance and a == self.issuance_id)):
                raise InvalidInputError(f"account {a}: no such player account")
        return rows

    async def _post(
        self,
        conn: AsyncConnection,
        kind: str,
        key: str,
        moves: Sequence[tuple[int, int]],
        *,
        unit: str | None = None,
        reason: str | None = None,
    ) -> int:
        """Write one ledger transaction: its row (the unique ``key`` makes it happen at most once), the
        balances by one conditional ``UPDATE … RETURNING`` (a debit only if the balance covers it; the
        issuance account alone may go negative), then the entries, in the order given (seat order). The
        moves must sum to zero; the caller has locked the rows it debits."""
        if sum(d for _, d in moves) != 0:
            raise AssertionError(f"unbalanced transaction {key!r}: {moves}")
        tx_id = (
            await conn.execute(
                sa.insert(T).values(kind=kind, key=key, unit=unit, reason=reason).returning(T.c.id)
            )
        ).scalar_one()
        moves = [(a, d) for a, d in moves if d != 0]
        if not moves:
            return int(tx_id)
        by_account = dict(moves)
        if len(by_account) != len(moves):
            raise AssertionError(f"transaction {key!r} moves an account twice: {moves}")
        change = sa.case({a: sa.literal(d, sa.BigInteger) for a, d in by_account.items()}, value=A.c.id)
        stmt = (
            sa.update(A)
            .where(A.c.id.in_(list(by_account)))
            .where(sa.or_(A.c.id == self.issuance_id, A.c.balance + change >= 0))
            .values(balance=A.c.balance + change)
            .returning(A.c.id, A.c.balance)
        )
        after = {r.id: r.balance for r in await conn.execute(stmt)}
        short = [a for a in by_account if a not in after]
        if short:
            raise InsufficientBeansError(f"account(s) {short} cannot pay their part of {key!r}: {moves}")
        if moves:
            await conn.execute(
                sa.insert(E),
                [
                    {"transaction_id": tx_id, "account_id": a, "delta": d, "balance_after": after[a]}
                    for a, d in moves
                ],
            )
        return int(tx_id)

    async def _grant(self, conn: AsyncConnection, account_id: int, amount: int, kind: str, key: str) -> None:
        if amount > 0:
            await self._post(conn, kind, key, [(self.issuance_id, -amount), (account_id, amount)])

    async def _hash(self, password: str) -> str:
        return await asyncio.to_thread(self._hasher.hash, password)

    async def _verify(self, stored: str | None, password: str) -> bool:
        if stored is None:
            if self._dummy_hash is None:
                self._dummy_hash = await self._hash(secrets.token_urlsafe(16))
            stored = self._dummy_hash  # same work for an unknown name as for a wrong password
            password = ""
        try:
            return await asyncio.to_thread(self._hasher.verify, stored, password)
        except (VerificationError, InvalidHashError):
            return False

    # ------------------------------------------------------------------ accounts and sessions

    async def create_guest(self) -> Account:
        """A new guest account ``guest-xxxxxx`` (six random hex digits), credited the sign-up grant."""

        async def op(conn: AsyncConnection) -> Account:
            name = GUEST_PREFIX + secrets.token_hex(3)
            row = (
                await conn.execute(
                    sa.insert(A)
                    .values(kind="user", name=name, name_key=name_key(name), is_guest=True)
                    .returning(A.c.id, A.c.name, A.c.is_guest, A.c.created)
                )
            ).one()
            await self._grant(conn, row.id, self.signup_grant, "grant", f"signup:{row.id}")
            return _account(row)

        for _ in range(20):
            try:
                return await run_write(self.engine, op)
            except IntegrityError:
                continue  # the random name was taken: draw another
        raise RuntimeError("could not find a free guest name")

    async def register(self, name: str, password: str) -> Account:
        """A new registered account, credited the sign-up grant.

        ``name``: 2–24 letters, digits, ``_``, ``-``, ``.`` (any script; NFKC-normalised; unique ignoring
        case; not ``guest-…``). ``password``: 6–1024 characters, kept as an Argon2id hash. Raises
        :class:`NameTakenError` or :class:`InvalidInputError`.
        """
        name = _checked_name(name)
        _check_password(password)
        hashed = await self._hash(password)

        async def op(conn: AsyncConnection) -> Account:
            row = (
                await conn.execute(
                    sa.insert(A)
                    .values(
                        kind="user", name=name, name_key=name_key(name), is_guest=False, password_hash=hashed
                    )
                    .returning(A.c.id, A.c.name, A.c.is_guest, A.c.created)
                )
            ).one()
            await self._grant(conn, row.id, self.signup_grant, "grant", f"signup:{row.id}")
            return _account(row)

        try:
            return await run_write(self.engine, op)
        except IntegrityError:
            raise NameTakenError(f"name {name!r} is taken") from None

    async def login(self, name: str, password: str) -> Account | None:
        """The registered account with this name and password, or ``None`` (unknown name or wrong password
        take the same time)."""
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > PASSWORD_MAX:
            return None

        async def op(conn: AsyncConnection) -> Any:
            q = sa.select(A.c.id, A.c.name, A.c.is_guest, A.c.created, A.c.password_hash).where(
                A.c.name_key == name_key(name), A.c.kind == "user"
            )
            return (await conn.execute(q)).first()

        row = await run_read(self.engine, op)
        if not await self._verify(row.password_hash if row is not None else None, password):
            return None
        assert row is not None
        if self._hasher.check_needs_rehash(row.password_hash):
            new_hash = await self._hash(password)

            async def rehash(conn: AsyncConnection) -> None:
                await conn.execute(sa.update(A).where(A.c.id == row.id).values(password_hash=new_hash))

            await run_write(self.engine, rehash)
        return _account(row)

    async def new_session(self, account_id: int, ttl_s: float | None = None) -> str:
        """A new session token for the account (``secrets.token_urlsafe(32)``); only its SHA-256 is stored.
        It expires ``ttl_s`` (default: the store's ``session_ttl_s``) seconds from now by the database's
        clock, or never if both are ``None``."""
        _check_id(account_id)
        token = secrets.token_urlsafe(32)
        ttl = self.session_ttl_s if ttl_s is None else ttl_s

        async def op(conn: AsyncConnection) -> None:
            q = sa.select(A.c.id).where(A.c.id == account_id, A.c.kind == "user")
            if (await conn.execute(q)).first() is None:
                raise InvalidInputError(f"account {account_id}: no such player account")
            expires = None
            if ttl is not None:
                now = _utc((await conn.execute(sa.select(_NOW))).scalar_one())
                expires = now + dt.timedelta(seconds=ttl)
            await conn.execute(
                sa.insert(S).values(token_hash=_token_hash(token), account_id=account_id, expires=expires)
            )

        await run_write(self.engine, op)
        return token

    async def account_for_session(self, token: str) -> Account | None:
        """The account a live session token belongs to, or ``None`` (unknown, expired or revoked)."""
        if not isinstance(token, str) or not 0 < len(token) <= 256:
            return None

        async def op(conn: AsyncConnection) -> Any:
            q = (
                sa.select(A.c.id, A.c.name, A.c.is_guest, A.c.created, S.c.expires, _NOW.label("now"))
                .select_from(S.join(A, A.c.id == S.c.account_id))
                .where(S.c.token_hash == _token_hash(token))
            )
            return (await conn.execute(q)).first()

        row = await run_read(self.engine, op)
        if row is None or (row.expires is not None and _utc(row.expires) <= _utc(row.now)):
            return None
        return _account(row)

    async def end_session(self, token: str) -> bool:
        """Log one session out (its token stops working); ``False`` if there was no such session."""
        if not isinstance(token, str) or not 0 < len(token) <= 256:
            return False

        async def op(conn: AsyncConnection) -> bool:
            done = await conn.execute(sa.delete(S).where(S.c.token_hash == _token_hash(token)))
            return bool(done.rowcount)

        return await run_write(self.engine, op)

    async def revoke_sessions(self, account_id: int) -> int:
        """Log the account out everywhere: every session token of it stops working; returns how many."""
        _check_id(account_id)

        async def op(conn: AsyncConnection) -> int:
            done = await conn.execute(sa.delete(S).where(S.c.account_id == account_id))
            return int(done.rowcount)

        return await run_write(self.engine, op)

    async def upgrade_guest(self, account_id: int, name: str, password: str) -> Account:
        """Make a guest a registered account, keeping its id — so its beans, ledger history, game records,
        ratings and sessions stay. ``name`` and ``password`` as for :meth:`register` (no second sign-up
        grant). Raises :class:`NameTakenError`, or :class:`InvalidInputError` (bad name or password, or the
        account is not a guest)."""
        _check_id(account_id)
        name = _checked_name(name)
        _check_password(password)
        hashed = await self._hash(password)

        async def op(conn: AsyncConnection) -> Account:
            row = (
                await conn.execute(
                    sa.update(A)
                    .where(A.c.id == account_id, A.c.kind == "user", A.c.is_guest.is_(True))
                    .values(name=name, name_key=name_key(name), is_guest=False, password_hash=hashed)
                    .returning(A.c.id, A.c.name, A.c.is_guest, A.c.created)
                )
            ).first()
            if row is None:
                raise InvalidInputError(f"account {account_id}: not a guest account")
            return _account(row)

        try:
            return await run_write(self.engine, op)
        except IntegrityError:
            raise NameTakenError(f"name {name!r} is taken") from None

    async def account(self, account_id: int) -> Account | None:
        """The player account with this id, or ``None``."""
        if not _is_int(account_id):
            return None

        async def op(conn: AsyncConnection) -> Any:
            q = sa.select(A.c.id, A.c.name, A.c.is_guest, A.c.created).where(
                A.c.id == account_id, A.c.kind == "user"
            )
            return (await conn.execute(q)).first()

        row = await run_read(self.engine, op)
        return None if row is None else _account(row)

    # ------------------------------------------------------------------ beans

    async def balance(self, account_id: int) -> int:
        """The account's free beans (not counting what is held in escrow for a hand in play)."""
        _check_id(account_id)

        async def op(conn: AsyncConnection) -> int | None:
            q = sa.select(A.c.balance).where(A.c.id == account_id)
            return (await conn.execute(q)).scalar_one_or_none()

        value = await run_read(self.engine, op)
        if value is None:
            raise InvalidInputError(f"account {account_id}: no such account")
        return value

    async def balances(self, account_ids: Sequence[int]) -> list[int]:
        """The free beans of several accounts, in the order given, in one query."""
        for a in account_ids:
            _check_id(a)
        wanted = sorted(set(account_ids))

        async def op(conn: AsyncConnection) -> dict[int, int]:
            q = sa.select(A.c.id, A.c.balance).where(A.c.id.in_(wanted))
            return {r.id: r.balance for r in (await conn.execute(q)).all()}

        found = await run_read(self.engine, op)
        missing = [a for a in wanted if a not in found]
        if missing:
            raise InvalidInputError(f"account(s) {missing}: no such account")
        return [found[a] for a in account_ids]

    async def hold(self, unit: str, stakes: dict[int, int]) -> dict[int, int]:
        """Put up the stakes of a settlement unit (a hand): move ``min(stake, balance)`` from each account
        into the unit's escrow, in one transaction; return what was held, in the order of ``stakes`` (seat
        order). Idempotent: a second call for the unit, before it ends, returns the first call's holdings and
        moves nothing.

        Raises :class:`InsufficientBeansError` (and holds nothing) if an account has no beans, and
        :class:`InvalidInputError` for a bad stake or account, or a unit that has already ended.
        """
        _check_unit(unit)
        if not isinstance(stakes, dict) or not stakes:
            raise InvalidInputError(f"stakes {stakes!r}: expected a non-empty dict account id → beans")
        for a, s in stakes.items():
            _check_id(a)
            if not _is_int(s) or s <= 0:
                raise InvalidInputError(f"stake {s!r} for account {a}: expected an int > 0")

        async def op(conn: AsyncConnection) -> dict[int, int]:
            escrow = await self._lock_escrow(conn, unit)
            ended, held = await self._unit_state(conn, unit)
            if ended:
                raise InvalidInputError(f"unit {unit!r} has already ended: nothing can be held for it")
            if held is not None:
                return held
            rows = await self._lock_users(conn, stakes)
            amounts = {a: min(s, rows[a].balance) for a, s in stakes.items()}
            broke = [a for a, x in amounts.items() if x <= 0]
            if broke:
                raise InsufficientBeansError(f"unit {unit!r}: account(s) {broke} have no beans to put up")
            moves = [(a, -x) for a, x in amounts.items()] + [(escrow, sum(amounts.values()))]
            await self._post(conn, "hold", f"{unit}:hold", moves, unit=unit)
            return amounts

        try:
            return await run_write(self.engine, op)
        except IntegrityError:
            return await run_write(self.engine, op)  # lost a race for the key: the winner's holdings

    async def _terminal(
        self,
        unit: str,
        kind: str,
        reason: str,
        payout: Any,  # payout(held) -> {account: beans back}
        rated: RatedHand | None = None,
    ) -> bool:
        if rated is not None:
            if not isinstance(rated, RatedHand):
                raise InvalidInputError(f"rated {rated!r}: expected a RatedHand")
            rated.checked()

        async def op(conn: AsyncConnection) -> bool:
            escrow = await self._lock_escrow(conn, unit)
            ended, held_or_none = await self._unit_state(conn, unit)
            if ended:
                return False
            held = held_or_none or {}
            back: dict[int, int] = payout(held)
            pot = sum(held.values())
            if sum(back.values()) != pot or any(v < 0 for v in back.values()):
                raise AssertionError(f"unit {unit!r}: payout {back} does not match escrow {held}")
            paid_to = [a for a, v in back.items() if v > 0]
            if paid_to:
                await self._lock_users(conn, paid_to)
            moves = [*back.items(), (escrow, -pot)]
            await self._post(conn, kind, f"{unit}:end", moves, unit=unit, reason=reason)
            if rated is not None:
                await _ratings.apply(conn, unit, rated)
            return True

        try:
            return await run_write(self.engine, op)
        except IntegrityError:

            async def ended(conn: AsyncConnection) -> bool:
                return await self._has_terminal(conn, unit)

            if await run_read(self.engine, ended):
                return False  # another process ended the unit first
            raise

    async def settle(
        self, unit: str, deltas: dict[int, int], reason: str = "settle", rated: RatedHand | None = None
    ) -> bool:
        """End a unit by its result: each loser (delta < 0) pays ``min(-delta, held)`` (cap_by_balance),
        the winners share what the losers paid in proportion to their deltas (all of it to a single
        winner; rounded down, remainder to the first winner), and every account gets back the rest of
        what it put up. ``deltas`` must sum to zero.

        This is the unit's terminal transaction: returns ``True`` if it was written now, ``False`` if the
        unit had already ended (settled, refunded or forfeited; nothing moves).

        ``rated``: the hand's outcome for the ratings, applied in this same database transaction (a rating
        never moves without the beans, nor the other way round; see :mod:`erma.store.ratings`).
        """
        _check_unit(unit)
        if not isinstance(deltas, dict):
            raise InvalidInputError(f"deltas {deltas!r}: expected a dict account id → beans")
        for a, d in deltas.items():
            _check_id(a)
            if not _is_int(d):
                raise InvalidInputError(f"delta {d!r} for account {a}: expected an int")
        if sum(deltas.values()) != 0:
            raise InvalidInputError(f"deltas {deltas}: must sum to zero")
        if not isinstance(reason, str) or not 0 < len(reason) <= 64:
            raise InvalidInputError(f"reason {reason!r}: expected 1–64 characters")

        def payout(held: dict[int, int]) -> dict[int, int]:
            paid = {a: min(-d, held.get(a, 0)) for a, d in deltas.items() if d < 0}
            winners = {a: d for a, d in deltas.items() if d > 0}
            won = _split(sum(paid.values()), winners) if winners else {}
            back = {a: h - paid.get(a, 0) + won.get(a, 0) for a, h in held.items()}
            for a, w in won.items():
                back.setdefault(a, w)
            return back

        return await self._terminal(unit, "settle", reason, payout, rated)

    async def refund(self, unit: str, rated: RatedHand | None = None) -> bool:
        """End a unit with no result (a drawn or aborted hand): everything held goes back. ``True`` if
        written now, ``False`` if the unit had already ended. ``rated`` (a drawn hand): counted in the same
        transaction (a draw moves no rating)."""
        _check_unit(unit)
        return await self._terminal(unit, "refund", "refund", dict, rated)

    async def forfeit(
        self,
        unit: str,
        escaper: int,
        penalty: int,
        shares: dict[int, int] | None = None,
        rated: RatedHand | None = None,
    ) -> bool:
        """End a unit by an escape (逃跑): the escaper pays ``min(penalty, held)``, shared by ``shares``
        (weights by account, in seat order; default: every other account that put up beans, weight 1),
        each share rounded down and the remainder to the first (RULES §5.5); everything else held goes back.
        ``True`` if written now, ``False`` if the unit had already ended."""
        _check_unit(unit)
        _check_id(escaper, "escaper")
        if not _is_int(penalty) or penalty < 0:
            raise InvalidInputError(f"penalty {penalty!r}: expected an int ≥ 0")
        if shares is not None:
            if not isinstance(shares, dict) or not shares or escaper in shares:
                raise InvalidInputError(
                    f"shares {shares!r}: expected weights for the accounts other than the escaper"
                )
            for a, w in shares.items():
                _check_id(a)
                if not _is_int(w) or w < 0:
                    raise InvalidInputError(f"share weight {w!r} for account {a}: expected an int ≥ 0")
            if sum(shares.values()) <= 0:
                raise InvalidInputError(f"shares {shares!r}: the weights sum to zero")

        def payout(held: dict[int, int]) -> dict[int, int]:
            weights = shares if shares is not None else {a: 1 for a in held if a != escaper}
            paid = min(penalty, held.get(escaper, 0)) if weights else 0
            back = dict(held)
            if paid:
                back[escaper] -= paid
                for a, x in _split(paid, weights).items():
                    back[a] = back.get(a, 0) + x
            return back

        return await self._terminal(unit, "forfeit", "forfeit", payout, rated)

    async def daily_relief(self, account_id: int, day: str) -> int:
        """Grant ``relief_amount`` beans to an account whose balance is below ``relief_threshold``, at most
        once per account per ``day`` (an ISO date, ``YYYY-MM-DD``, chosen by the caller); returns the beans
        granted, 0 if not eligible or already granted that day."""
        _check_id(account_id)
        try:
            ok = isinstance(day, str) and len(day) == 10 and dt.date.fromisoformat(day) is not None
        except ValueError:
            ok = False
        if not ok:
            raise InvalidInputError(f"day {day!r}: expected an ISO date YYYY-MM-DD")
        if self.relief_amount == 0:
            return 0
        key = f"relief:{account_id}:{day}"

        async def op(conn: AsyncConnection) -> int:
            rows = await self._lock_users(conn, [account_id], with_issuance=True)
            if rows[account_id].balance >= self.relief_threshold:
                return 0
            if (await conn.execute(sa.select(T.c.id).where(T.c.key == key))).first() is not None:
                return 0
            await self._grant(conn, account_id, self.relief_amount, "relief", key)
            return self.relief_amount

        try:
            return await run_write(self.engine, op)
        except IntegrityError:
            return 0  # granted by a concurrent call

    async def history(self, account_id: int, limit: int = 50) -> list[dict[str, Any]]:
        """The account's ledger entries, newest first: ``transaction_id``, ``kind`` (grant, relief, hold,
        settle, refund, forfeit), ``reason``, ``unit``, ``delta``, ``balance_after``, ``created`` (ISO 8601,
        UTC)."""
        _check_id(account_id)
        limit = max(0, min(int(limit), 1000))

        async def op(conn: AsyncConnection) -> list[Any]:
            q = (
                sa.select(T.c.id, T.c.kind, T.c.reason, T.c.unit, E.c.delta, E.c.balance_after, T.c.created)
                .select_from(E.join(T, T.c.id == E.c.transaction_id))
                .where(E.c.account_id == account_id)
                .order_by(E.c.id.desc())
                .limit(limit)
            )
            return list((await conn.execute(q)).all())

        return [
            {
                "transaction_id": r.id,
                "kind": r.kind,
                "reason": r.reason,
                "unit": r.unit,
                "delta": r.delta,
                "balance_after": r.balance_after,
                "created": _utc(r.created).isoformat(),
            }
            for r in await run_read(self.engine, op)
        ]

    # ------------------------------------------------------------------ records

    async def save_record(
        self, unit: str, account_ids: list[int], record: dict[str, Any], summary: dict[str, Any]
    ) -> int:
        """Store a finished hand's game record (JSON) linked to its accounts (in seat order); returns its id.
        Idempotent per unit: saving a unit again returns the first record's id and stores nothing."""
        _check_unit(unit)
        if not isinstance(account_ids, list | tuple) or not account_ids:
            raise InvalidInputError(f"account ids {account_ids!r}: expected a non-empty list")
        for a in account_ids:
            _check_id(a)
        if len(set(account_ids)) != len(account_ids):
            raise InvalidInputError(f"account ids {account_ids!r}: repeated")
        for what, value in (("record", record), ("summary", summary)):
            try:
                json.dumps(value, allow_nan=False)
            except (TypeError, ValueError) as e:
                raise InvalidInputError(f"{what} for unit {unit!r} is not JSON: {e}") from None

        async def existing(conn: AsyncConnection) -> int | None:
            return (await conn.execute(sa.select(R.c.id).where(R.c.unit == unit))).scalar_one_or_none()

        async def op(conn: AsyncConnection) -> int:
            found = await existing(conn)
            if found is not None:
                return found
            await self._lock_users(conn, account_ids)
            rid = (
                await conn.execute(
                    sa.insert(R).values(unit=unit, record=record, summary=summary).returning(R.c.id)
                )
            ).scalar_one()
            await conn.execute(
                sa.insert(RP),
                [{"record_id": rid, "account_id": a, "seat": i} for i, a in enumerate(account_ids)],
            )
            return int(rid)

        try:
            return await run_write(self.engine, op)
        except IntegrityError:
            found = await run_read(self.engine, existing)
            if found is None:
                raise
            return found

    async def list_games(self, account_id: int, limit: int = 50) -> list[dict[str, Any]]:
        """The account's game records, newest first: ``id``, ``unit``, ``created`` (ISO 8601), ``summary``."""
        _check_id(account_id)
        limit = max(0, min(int(limit), 1000))

        async def op(conn: AsyncConnection) -> list[Any]:
            q = (
                sa.select(R.c.id, R.c.unit, R.c.created, R.c.summary)
                .select_from(RP.join(R, R.c.id == RP.c.record_id))
                .where(RP.c.account_id == account_id)
                .order_by(R.c.id.desc())
                .limit(limit)
            )
            return list((await conn.execute(q)).all())

        return [
            {"id": r.id, "unit": r.unit, "created": _utc(r.created).isoformat(), "summary": r.summary}
            for r in await run_read(self.engine, op)
        ]

    async def get_record(self, record_id: int) -> dict[str, Any] | None:
        """A stored record: ``id``, ``unit``, ``created`` (ISO 8601), ``account_ids`` (seat order),
        ``summary``, ``record`` (the JSON as saved); ``None`` if there is none."""
        if not _is_int(record_id) or not 0 < record_id < RECORD_ID_LIMIT:
            return None

        async def op(conn: AsyncConnection) -> tuple[Any, list[int]]:
            row = (await conn.execute(sa.select(R).where(R.c.id == record_id))).first()
            q = sa.select(RP.c.account_id).where(RP.c.record_id == record_id).order_by(RP.c.seat)
            return row, list((await conn.execute(q)).scalars())

        row, ids = await run_read(self.engine, op)
        if row is None:
            return None
        return {
            "id": row.id,
            "unit": row.unit,
            "created": _utc(row.created).isoformat(),
            "account_ids": ids,
            "summary": row.summary,
            "record": row.record,
        }

    # ------------------------------------------------------------------ reviews (复盘)

    async def save_review(
        self, record_id: int, seat: int, review: dict[str, Any], summary: dict[str, Any]
    ) -> bool:
        """Keep a review of a stored hand's seat (JSON) with its summary; the first one written stays (True
        if this call wrote it). Raises InvalidInputError for a bad seat or JSON."""
        _check_id(record_id, "record id")
        if seat not in (0, 1) or not _is_int(seat):
            raise InvalidInputError(f"seat {seat!r}: expected 0 or 1")
        for what, value in (("review", review), ("summary", summary)):
            try:
                json.dumps(value, allow_nan=False)
            except (TypeError, ValueError) as e:
                raise InvalidInputError(f"{what} of record {record_id} is not JSON: {e}") from None

        async def op(conn: AsyncConnection) -> bool:
            return await _reviews.save(conn, record_id, seat, review, summary)

        try:
            return await run_write(self.engine, op)
        except IntegrityError:
            raise InvalidInputError(f"no game record {record_id}") from None

    async def get_review(self, record_id: int, seat: int) -> dict[str, Any] | None:
        """The stored review of a hand's seat: ``review`` (the JSON) and ``created``; None if not reviewed."""
        if not _is_int(record_id) or not _is_int(seat) or not 0 < record_id < RECORD_ID_LIMIT:
            return None

        async def op(conn: AsyncConnection) -> dict[str, Any] | None:
            return await _reviews.get(conn, record_id, seat)

        return await run_read(self.engine, op)

    async def recent_reviews(self, account_id: int, limit: int = 20) -> list[dict[str, Any]]:
        """The account's reviewed hands (its own seat), newest first: ``id``, ``created``, ``rules``,
        ``room``, ``seat``, ``summary`` (see :mod:`erma.store.reviews`)."""
        _check_id(account_id)
        limit = max(0, min(int(limit), 200))

        async def op(conn: AsyncConnection) -> list[dict[str, Any]]:
            return await _reviews.recent(conn, account_id, limit)

        return await run_read(self.engine, op)

    # ------------------------------------------------------------------ ratings

    async def leaderboard(
        self, family: str, limit: int = 50, account_id: int | None = None
    ) -> dict[str, Any]:
        """A rule family's leaderboard: ``family``, ``players`` (how many are rated), ``top`` (the first
        ``limit``, by level, points, then mu) and ``me`` (``account_id``'s own row, or ``None``), each row
        with ``position``, ``name``, ``account_id``, ``rank``, ``rating`` (``mu``, ``sigma``, ``interval``),
        ``hands``. :class:`InvalidInputError` for an unknown family."""
        if not _is_int(limit) or not 1 <= limit <= 500:
            raise InvalidInputError(f"limit {limit!r}: expected an int 1–500")

        async def op(conn: AsyncConnection) -> dict[str, Any]:
            return await _ratings.leaderboard(conn, family, limit, account_id)

        return await run_read(self.engine, op)

    async def rating_of(self, account_id: int, family: str) -> float | None:
        """The account's rating (mu) in a rule family: its bot anchor's for a bot account, ``None`` for a
        player with no rated hand there (matchmaking reads it)."""
        _check_id(account_id)

        async def op(conn: AsyncConnection) -> float | None:
            return await _ratings.rating_of(conn, account_id, family)

        return await run_read(self.engine, op)

    async def profile(self, name: str, history: int = 200) -> dict[str, Any] | None:
        """A player's public profile by name: ``name``, ``guest``, and per family (``standard``, ``wenzhou``)
        the rank, rating and interval, ``hands_played``, ``wins``, ``win_rate``, ``average_fans`` (per
        win), ``deal_in_rate`` (点炮) and ``history`` (the rating after each of the last ``history`` hands,
        oldest first). ``None`` if there is no such player."""
        if not isinstance(name, str) or not 0 < len(name) <= 160:
            return None

        async def op(conn: AsyncConnection) -> dict[str, Any] | None:
            q = sa.select(A.c.id, A.c.name, A.c.is_guest).where(
                A.c.name_key == name_key(name), A.c.kind == "user"
            )
            row = (await conn.execute(q)).first()
            if row is None:
                return None
            families = await _ratings.profile(conn, row.id, max(0, min(int(history), 1000)))
            return {"name": row.name, "guest": bool(row.is_guest), "families": families}

        return await run_read(self.engine, op, snapshot=True)

    async def close_match(self, block: str, leaver: int | None = None) -> bool:
        """Rate a match whose block of hands ended between hands, before its last hand (docs/ratings.md):
        account ``leaver`` (a seat of the block, or ``None``) loses it, else the points of its hands decide.
        ``True`` if rated now, ``False`` if the block has no rated hand or was already rated (idempotent: a
        retry or a second process finds it done)."""
        if not isinstance(block, str) or not 0 < len(block) <= 100:
            raise InvalidInputError(f"block {block!r}: expected a non-empty string of at most 100")
        if leaver is not None:
            _check_id(leaver)

        async def op(conn: AsyncConnection) -> bool:
            return await _ratings.close(conn, block, leaver)

        try:
            return await run_write(self.engine, op)
        except IntegrityError:
            return False  # another process rated it first (the block is unique in rated_matches)

    async def rebuild_ratings(self, write: bool = True) -> Rebuilt:
        """Recompute every standing by replaying the stored rated matches in order; report (and with
        ``write``, correct) where the stored standings differ. On a sound store the replay equals what is
        stored."""

        async def op(conn: AsyncConnection) -> Rebuilt:
            return await _ratings.rebuild(conn, write)

        return await run_write(self.engine, op)

    # ------------------------------------------------------------------ invariants

    async def check(self) -> list[str]:
        """Every breach of the ledger's invariants, as a sentence; ``[]`` if the ledger is sound. Reads one
        consistent snapshot (see :mod:`erma.store.check`)."""
        return await run_read(self.engine, _check.breaches, snapshot=True)


_NOW = sa.func.current_timestamp(type_=sa.DateTime(timezone=True))


def _checked_name(name: object) -> str:
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


def _check_password(password: object) -> None:
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise InvalidInputError(f"password: expected {PASSWORD_MIN}–{PASSWORD_MAX} characters")


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
