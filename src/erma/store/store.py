"""The store's front (:class:`Store`): it owns the engine, checks what it is handed and runs each call in one
transaction, delegating the work to the modules by concept — :mod:`~erma.store.accounts` (accounts,
passwords, sessions), :mod:`~erma.store.ledger` (the double-entry bean ledger), :mod:`~erma.store.records`
(game records), :mod:`~erma.store.reviews`, :mod:`~erma.store.ratings`, :mod:`~erma.store.standings` and
:mod:`~erma.store.check`.

It knows nothing of tiles: the server hands it plain rows (a settlement unit, account ids, bean deltas,
JSON records). See ``docs/store.md`` for the design and the guarantees.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from erma.errors import InvalidInputError, NameTakenError
from erma.store import accounts as _accounts
from erma.store import check as _check
from erma.store import holds as _holds
from erma.store import ledger as _ledger
from erma.store import pairs as _pairs
from erma.store import ratings as _ratings
from erma.store import records as _records
from erma.store import reviews as _reviews
from erma.store import standings as _standings
from erma.store.accounts import (
    GUEST_PREFIX,
    PASSWORD_MAX,
    Account,
    Passwords,
    check_password,
    checked_name,
    default_password_hasher,
    is_token,
)
from erma.store.engine import dispose, make_engine, resolve_url, run_read, run_write
from erma.store.holds import OpenHold
from erma.store.inputs import RECORD_ID_LIMIT, check_id, check_json, check_unit, clamp, is_int
from erma.store.ledger import Payout
from erma.store.migrate import upgrade as _upgrade
from erma.store.ratings import RatedHand, Rebuilt


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
        self._passwords = Passwords(password_hasher or default_password_hasher())

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
            if not is_int(value) or value < 0:
                raise InvalidInputError(f"{key}={value!r}: expected an int ≥ 0")
        engine = make_engine(resolve_url(url, data_dir), **engine_options)
        try:
            migrated = await _upgrade(engine) if upgrade else False
            issuance_id = await run_read(engine, _ledger.issuance_id)
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

    # ------------------------------------------------------------------ accounts and sessions

    async def _signed_up(self, conn: AsyncConnection, name: str, password_hash: str | None) -> Account:
        """A new account (a guest without ``password_hash``), credited the sign-up grant."""
        account = await _accounts.insert(conn, name, password_hash)
        await _ledger.grant(
            conn, self.issuance_id, account.id, self.signup_grant, "grant", f"signup:{account.id}"
        )
        return account

    async def _credentials(self, name: str, password: str) -> tuple[str, str]:
        """The name as registered and the password's hash, for :meth:`register` and :meth:`upgrade_guest`;
        :class:`InvalidInputError` for a bad name or password."""
        name = checked_name(name)
        check_password(password)
        return name, await self._passwords.hash(password)

    async def _naming(self, name: str, op: Callable[[AsyncConnection], Awaitable[Account]]) -> Account:
        """Run the write ``op`` that gives an account ``name``; :class:`NameTakenError` if it is taken."""
        try:
            return await run_write(self.engine, op)
        except IntegrityError:
            raise NameTakenError(f"name {name!r} is taken") from None

    async def create_guest(self) -> Account:
        """A new guest account ``guest-xxxxxx`` (six random hex digits), credited the sign-up grant."""
        for _ in range(20):
            try:
                return await run_write(
                    self.engine, lambda conn: self._signed_up(conn, GUEST_PREFIX + secrets.token_hex(3), None)
                )
            except IntegrityError:
                continue  # the random name was taken: draw another
        raise RuntimeError("could not find a free guest name")

    async def register(self, name: str, password: str) -> Account:
        """A new registered account, credited the sign-up grant.

        ``name``: 2–24 letters, digits, ``_``, ``-``, ``.`` (any script; NFKC-normalised; unique ignoring
        case; not ``guest-…``). ``password``: 6–1024 characters, kept as an Argon2id hash. Raises
        :class:`NameTakenError` or :class:`InvalidInputError`.
        """
        name, hashed = await self._credentials(name, password)
        return await self._naming(name, lambda conn: self._signed_up(conn, name, hashed))

    async def login(self, name: str, password: str) -> Account | None:
        """The registered account with this name and password, or ``None`` (unknown name or wrong password
        take the same time)."""
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > PASSWORD_MAX:
            return None
        found = await run_read(self.engine, lambda conn: _accounts.for_login(conn, name))
        account, stored = found if found is not None else (None, None)
        if not await self._passwords.verify(stored, password):
            return None
        assert account is not None and stored is not None
        if self._passwords.hasher.check_needs_rehash(stored):
            new_hash = await self._passwords.hash(password)
            await run_write(self.engine, lambda conn: _accounts.set_password_hash(conn, account.id, new_hash))
        return account

    async def new_session(self, account_id: int, ttl_s: float | None = None) -> str:
        """A new session token for the account (``secrets.token_urlsafe(32)``); only its SHA-256 is stored.
        It expires ``ttl_s`` (default: the store's ``session_ttl_s``) seconds from now by the database's
        clock, or never if both are ``None``."""
        check_id(account_id)
        token = secrets.token_urlsafe(32)
        ttl = self.session_ttl_s if ttl_s is None else ttl_s
        await run_write(self.engine, lambda conn: _accounts.new_session(conn, account_id, token, ttl))
        return token

    async def account_for_session(self, token: str) -> Account | None:
        """The account a live session token belongs to, or ``None`` (unknown, expired or revoked)."""
        if not is_token(token):
            return None
        return await run_read(self.engine, lambda conn: _accounts.for_session(conn, token))

    async def end_session(self, token: str) -> bool:
        """Log one session out (its token stops working); ``False`` if there was no such session."""
        if not is_token(token):
            return False
        return await run_write(self.engine, lambda conn: _accounts.end_session(conn, token))

    async def revoke_sessions(self, account_id: int) -> int:
        """Log the account out everywhere: every session token of it stops working; returns how many."""
        check_id(account_id)
        return await run_write(self.engine, lambda conn: _accounts.revoke_sessions(conn, account_id))

    async def live_sessions(self, keys: Iterable[str]) -> set[str]:
        """Those of the session ``keys`` (:func:`~erma.store.accounts.session_key` of a token) that are still
        live: not logged out, revoked or expired (by the database's clock). One query per 500 keys."""
        wanted = sorted(set(keys))
        live: set[str] = set()
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]

            async def read(conn: AsyncConnection, chunk: list[str] = chunk) -> set[str]:
                return await _accounts.live_sessions(conn, chunk)

            live |= await run_read(self.engine, read)
        return live

    async def change_password(self, account_id: int, old: str, new: str) -> str | None:
        """Change a registered account's password (改密码) given the current one: every session of the
        account is revoked and a new session token is returned; ``None`` if ``old`` is wrong (or the account
        has no password). :class:`InvalidInputError` for a bad new password."""
        check_id(account_id)
        check_password(new)
        account = await self.account(account_id)
        if account is None or not isinstance(old, str) or len(old) > PASSWORD_MAX:
            return None
        found = await run_read(self.engine, lambda conn: _accounts.for_login(conn, account.name))
        stored = found[1] if found is not None and found[0].id == account_id else None
        if not await self._passwords.verify(stored, old):
            return None
        hashed = await self._passwords.hash(new)

        async def change(conn: AsyncConnection) -> None:
            await _accounts.set_password_hash(conn, account_id, hashed)
            await _accounts.revoke_sessions(conn, account_id)

        await run_write(self.engine, change)
        return await self.new_session(account_id)

    async def upgrade_guest(self, account_id: int, name: str, password: str) -> Account:
        """Make a guest a registered account, keeping its id — so its beans, ledger history, game records,
        ratings and sessions stay. ``name`` and ``password`` as for :meth:`register` (no second sign-up
        grant). Raises :class:`NameTakenError`, or :class:`InvalidInputError` (bad name or password, or the
        account is not a guest)."""
        check_id(account_id)
        name, hashed = await self._credentials(name, password)
        return await self._naming(name, lambda conn: _accounts.upgrade_guest(conn, account_id, name, hashed))

    async def account(self, account_id: int) -> Account | None:
        """The player account with this id, or ``None``."""
        if not is_int(account_id):
            return None
        return await run_read(self.engine, lambda conn: _accounts.get(conn, account_id))

    # ------------------------------------------------------------------ beans

    async def balance(self, account_id: int) -> int:
        """The account's free beans (not counting what is held in escrow for a hand in play)."""
        check_id(account_id)
        value = await run_read(self.engine, lambda conn: _ledger.balance(conn, account_id))
        if value is None:
            raise InvalidInputError(f"account {account_id}: no such account")
        return value

    async def balances(self, account_ids: Sequence[int]) -> list[int]:
        """The free beans of several accounts, in the order given, in one query."""
        for a in account_ids:
            check_id(a)
        found = await run_read(self.engine, lambda conn: _ledger.balances(conn, account_ids))
        missing = [a for a in sorted(set(account_ids)) if a not in found]
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
        _ledger.check_stakes(unit, stakes)

        def op(conn: AsyncConnection) -> Awaitable[dict[int, int]]:
            return _ledger.hold(conn, self.issuance_id, unit, stakes)

        try:
            return await run_write(self.engine, op)
        except IntegrityError:
            return await run_write(self.engine, op)  # lost a race for the key: the winner's holdings

    async def hold_reading(
        self, unit: str, stakes: dict[int, int], floats: Mapping[int, int] | None = None
    ) -> tuple[dict[int, int], list[int]]:
        """:meth:`hold` that also returns each account's balance before it (in the order of ``stakes``) and
        first grants an account of ``floats`` (a bot's: account → float) back up to its float if its balance
        is below its stake — one transaction where a hand's start took three (balances, top-up, hold)."""
        _ledger.check_stakes(unit, stakes)

        def op(conn: AsyncConnection) -> Awaitable[tuple[dict[int, int], dict[int, int]]]:
            return _ledger.hold_reading(conn, self.issuance_id, unit, stakes, floats or {})

        try:
            held, before = await run_write(self.engine, op)
        except IntegrityError:
            held, before = await run_write(self.engine, op)  # lost a race for the key: the winner's holdings
        return held, [before[a] for a in stakes]

    async def _terminal(
        self, unit: str, kind: str, reason: str, payout: Payout, rated: RatedHand | None = None
    ) -> bool:
        """Run the unit's terminal transaction (see :func:`erma.store.ledger.terminal`)."""
        _ledger.check_rated(rated)
        try:
            return await run_write(
                self.engine,
                lambda conn: _ledger.terminal(conn, self.issuance_id, unit, kind, reason, payout, rated),
            )
        except IntegrityError:
            if await run_read(self.engine, lambda conn: _ledger.has_terminal(conn, unit)):
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
        payout = _ledger.settle_payout(unit, deltas, reason)
        return await self._terminal(unit, "settle", reason, payout, rated)

    async def refund(self, unit: str, rated: RatedHand | None = None, reason: str = "refund") -> bool:
        """End a unit with no result (a drawn or aborted hand): everything held goes back. ``True`` if
        written now, ``False`` if the unit had already ended. ``rated`` (a drawn hand): counted in the same
        transaction (a draw moves no rating). ``reason``: the transaction's (the sweeper's is ``sweep``)."""
        check_unit(unit)
        if not isinstance(reason, str) or not 0 < len(reason) <= 64:
            raise InvalidInputError(f"reason {reason!r}: expected 1–64 characters")
        return await self._terminal(unit, "refund", reason, dict, rated)

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
        payout = _ledger.forfeit_payout(unit, escaper, penalty, shares)
        return await self._terminal(unit, "forfeit", "forfeit", payout, rated)

    async def daily_relief(self, account_id: int, day: str) -> int:
        """Grant ``relief_amount`` beans to an account whose balance is below ``relief_threshold``, at most
        once per account per ``day`` (an ISO date, ``YYYY-MM-DD``, chosen by the caller); returns the beans
        granted, 0 if not eligible or already granted that day."""
        check_id(account_id)
        _ledger.checked_day(day)
        if self.relief_amount == 0:
            return 0
        key = f"relief:{account_id}:{day}"
        try:
            return await run_write(
                self.engine,
                lambda conn: _ledger.relief(
                    conn, self.issuance_id, account_id, key, self.relief_amount, self.relief_threshold
                ),
            )
        except IntegrityError:
            return 0  # granted by a concurrent call

    async def history(self, account_id: int, limit: int = 50) -> list[dict[str, Any]]:
        """The account's ledger entries, newest first: ``transaction_id``, ``kind`` (grant, relief, hold,
        settle, refund, forfeit), ``reason``, ``unit``, ``delta``, ``balance_after``, ``created`` (ISO 8601,
        UTC)."""
        check_id(account_id)
        limit = clamp(limit, 1000)
        return await run_read(self.engine, lambda conn: _ledger.history(conn, account_id, limit))

    async def match_beans(self, match_id: str, account_ids: Sequence[int]) -> list[int]:
        """What each account won (or lost, < 0) over a match's hands, in the order given."""
        for a in account_ids:
            check_id(a)
        return await run_read(self.engine, lambda conn: _pairs.match_beans(conn, match_id, account_ids))

    async def pair_moved(self, prefix: str, a: int, b: int, since: dt.datetime) -> int:
        """The beans moved between accounts ``a`` and ``b`` since ``since`` in the hands of matches whose id
        begins with ``prefix`` (friend tables: the daily pair cap)."""
        check_id(a)
        check_id(b)
        return await run_read(self.engine, lambda conn: _pairs.pair_moved(conn, prefix, a, b, since))

    # ------------------------------------------------------------------ records

    async def save_record(
        self, unit: str, account_ids: list[int], record: dict[str, Any], summary: dict[str, Any]
    ) -> int:
        """Store a finished hand's game record (JSON) linked to its accounts (in seat order); returns its id.
        Idempotent per unit: saving a unit again returns the first record's id and stores nothing."""
        _records.check(unit, account_ids, record, summary)
        try:
            return await run_write(
                self.engine, lambda conn: _records.save(conn, unit, account_ids, record, summary)
            )
        except IntegrityError:
            found = await run_read(self.engine, lambda conn: _records.of_unit(conn, unit))
            if found is None:
                raise
            return found

    async def list_games(self, account_id: int, limit: int = 50) -> list[dict[str, Any]]:
        """The account's game records, newest first: ``id``, ``unit``, ``created`` (ISO 8601), ``summary``."""
        check_id(account_id)
        limit = clamp(limit, 1000)
        return await run_read(self.engine, lambda conn: _records.games(conn, account_id, limit))

    async def get_record(self, record_id: int) -> dict[str, Any] | None:
        """A stored record: ``id``, ``unit``, ``created`` (ISO 8601), ``account_ids`` (seat order),
        ``summary``, ``record`` (the JSON as saved); ``None`` if there is none."""
        if not is_int(record_id) or not 0 < record_id < RECORD_ID_LIMIT:
            return None
        return await run_read(self.engine, lambda conn: _records.get(conn, record_id))

    # ------------------------------------------------------------------ reviews (复盘)

    async def save_review(
        self, record_id: int, seat: int, review: dict[str, Any], summary: dict[str, Any]
    ) -> bool:
        """Keep a review of a stored hand's seat (JSON) with its summary; the first one written stays (True
        if this call wrote it). Raises InvalidInputError for a bad seat or JSON."""
        check_id(record_id, "record id")
        if seat not in (0, 1) or not is_int(seat):
            raise InvalidInputError(f"seat {seat!r}: expected 0 or 1")
        for what, value in (("review", review), ("summary", summary)):
            check_json(what, value, f"of record {record_id}")

        try:
            return await run_write(
                self.engine, lambda conn: _reviews.save(conn, record_id, seat, review, summary)
            )
        except IntegrityError:
            raise InvalidInputError(f"no game record {record_id}") from None

    async def get_review(self, record_id: int, seat: int) -> dict[str, Any] | None:
        """The stored review of a hand's seat: ``review`` (the JSON) and ``created``; None if not reviewed."""
        if not is_int(record_id) or not is_int(seat) or not 0 < record_id < RECORD_ID_LIMIT:
            return None

        return await run_read(self.engine, lambda conn: _reviews.get(conn, record_id, seat))

    async def recent_reviews(self, account_id: int, limit: int = 20) -> list[dict[str, Any]]:
        """The account's reviewed hands (its own seat), newest first: ``id``, ``created``, ``rules``,
        ``room``, ``seat``, ``summary`` (see :mod:`erma.store.reviews`)."""
        check_id(account_id)
        limit = clamp(limit, 200)
        return await run_read(self.engine, lambda conn: _reviews.recent(conn, account_id, limit))

    # ------------------------------------------------------------------ ratings

    async def leaderboard(
        self, family: str, limit: int = 50, account_id: int | None = None
    ) -> dict[str, Any]:
        """A rule family's leaderboard: ``family``, ``players`` (how many are rated), ``top`` (the first
        ``limit``, by level, points, then mu) and ``me`` (``account_id``'s own row, or ``None``), each row
        with ``position``, ``name``, ``account_id``, ``rank``, ``rating`` (``mu``, ``sigma``, ``interval``),
        ``hands``. :class:`InvalidInputError` for an unknown family."""
        if not is_int(limit) or not 1 <= limit <= 500:
            raise InvalidInputError(f"limit {limit!r}: expected an int 1–500")

        return await run_read(
            self.engine, lambda conn: _standings.leaderboard(conn, family, limit, account_id)
        )

    async def rating_of(self, account_id: int, family: str) -> float | None:
        """The account's rating (mu) in a rule family: its bot anchor's for a bot account, ``None`` for a
        player with no rated hand there (matchmaking reads it)."""
        check_id(account_id)
        return await run_read(self.engine, lambda conn: _standings.rating_of(conn, account_id, family))

    async def profile(self, name: str, history: int = 200) -> dict[str, Any] | None:
        """A player's public profile by name: ``name``, ``guest``, and per family (``standard``, ``wenzhou``)
        the rank, rating and interval, ``hands_played``, ``wins``, ``win_rate``, ``average_fans`` (per
        win), ``deal_in_rate`` (点炮) and ``history`` (the rating after each of the last ``history`` hands,
        oldest first). ``None`` if there is no such player."""
        if not isinstance(name, str) or not 0 < len(name) <= 160:
            return None

        async def op(conn: AsyncConnection) -> dict[str, Any] | None:
            row = await _accounts.user_by_name(conn, name)
            if row is None:
                return None
            families = await _standings.profile(conn, row.id, clamp(history, 1000))
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
            check_id(leaver)

        try:
            return await run_write(self.engine, lambda conn: _ratings.close(conn, block, leaver))
        except IntegrityError:
            return False  # another process rated it first (the block is unique in rated_matches)

    async def rebuild_ratings(self, write: bool = True) -> Rebuilt:
        """Recompute every standing by replaying the stored rated matches in order; report (and with
        ``write``, correct) where the stored standings differ. On a sound store the replay equals what is
        stored."""
        return await run_write(self.engine, lambda conn: _ratings.rebuild(conn, write))

    # ------------------------------------------------------------------ invariants

    async def open_holds(self, older_than_s: float = 0.0) -> list[OpenHold]:
        """The units held at least ``older_than_s`` seconds ago (the database's clock) and not yet settled,
        refunded or forfeited, oldest first (see :mod:`erma.store.holds`)."""
        if not isinstance(older_than_s, int | float) or isinstance(older_than_s, bool) or older_than_s < 0:
            raise InvalidInputError(f"older_than_s {older_than_s!r}: expected a number ≥ 0")
        return await run_read(self.engine, lambda conn: _holds.open_holds(conn, older_than_s))

    async def check(self) -> list[str]:
        """Every breach of the ledger's invariants, as a sentence; ``[]`` if the ledger is sound. Reads one
        consistent snapshot (see :mod:`erma.store.check`)."""
        return await run_read(self.engine, _check.breaches, snapshot=True)
