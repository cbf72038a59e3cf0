"""The double-entry bean (欢乐豆) ledger: balances, grants, holds in escrow and a unit's terminal transaction
(settle, refund, forfeit).

Every move of beans is one ledger transaction whose entries sum to zero; its unique key makes it happen at
most once. A settlement unit (one hand) has at most a hold (``{unit}:hold``) and one terminal transaction
(``{unit}:end``). The functions here run inside a transaction the :class:`~erma.store.store.Store` opens;
the argument checks (``check_…``, ``checked_day``, and the payouts ``…_payout``, which check their input and
are plain functions of what the hold took) run before it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from erma.errors import InsufficientBeansError, InvalidInputError
from erma.store import ratings as _ratings
from erma.store.inputs import check_id, check_unit, is_int
from erma.store.ratings import RatedHand
from erma.store.schema import accounts as A
from erma.store.schema import entries as E
from erma.store.schema import transactions as T
from erma.store.schema import upsert, utc

ISSUANCE_NAME = "system:issuance"

Payout = Callable[[dict[int, int]], dict[int, int]]
"""What each account gets back from a unit's escrow, given what the hold took from each (seat order)."""


def split(amount: int, weights: Mapping[int, int]) -> dict[int, int]:
    """``amount`` shared by ``weights``, each share rounded down, the remainder to the first key (RULES §5.5).

    >>> split(10, {7: 1, 3: 1, 5: 1})
    {7: 4, 3: 3, 5: 3}
    """
    total = sum(weights.values())
    shares = {a: amount * w // total for a, w in weights.items()}
    first = next(iter(weights))
    shares[first] += amount - sum(shares.values())
    return shares


# ---------------------------------------------------------------------- checks and payouts


def check_stakes(unit: str, stakes: dict[int, int]) -> None:
    """:class:`InvalidInputError` for a bad unit or stakes (account id → beans > 0)."""
    check_unit(unit)
    if not isinstance(stakes, dict) or not stakes:
        raise InvalidInputError(f"stakes {stakes!r}: expected a non-empty dict account id → beans")
    for a, s in stakes.items():
        check_id(a)
        if not is_int(s) or s <= 0:
            raise InvalidInputError(f"stake {s!r} for account {a}: expected an int > 0")


def check_rated(rated: RatedHand | None) -> None:
    """:class:`InvalidInputError` unless ``rated`` is ``None`` or a sound :class:`RatedHand`."""
    if rated is not None:
        if not isinstance(rated, RatedHand):
            raise InvalidInputError(f"rated {rated!r}: expected a RatedHand")
        rated.checked()


def settle_payout(unit: str, deltas: dict[int, int], reason: str) -> Payout:
    """The payout of a settlement by ``deltas`` (each loser pays at most what it put up, the winners share
    it by their deltas); :class:`InvalidInputError` for a bad unit, deltas or reason."""
    check_unit(unit)
    if not isinstance(deltas, dict):
        raise InvalidInputError(f"deltas {deltas!r}: expected a dict account id → beans")
    for a, d in deltas.items():
        check_id(a)
        if not is_int(d):
            raise InvalidInputError(f"delta {d!r} for account {a}: expected an int")
    if sum(deltas.values()) != 0:
        raise InvalidInputError(f"deltas {deltas}: must sum to zero")
    if not isinstance(reason, str) or not 0 < len(reason) <= 64:
        raise InvalidInputError(f"reason {reason!r}: expected 1–64 characters")

    def payout(held: dict[int, int]) -> dict[int, int]:
        paid = {a: min(-d, held.get(a, 0)) for a, d in deltas.items() if d < 0}
        winners = {a: d for a, d in deltas.items() if d > 0}
        won = split(sum(paid.values()), winners) if winners else {}
        back = {a: h - paid.get(a, 0) + won.get(a, 0) for a, h in held.items()}
        for a, w in won.items():
            back.setdefault(a, w)
        return back

    return payout


def forfeit_payout(unit: str, escaper: int, penalty: int, shares: dict[int, int] | None) -> Payout:
    """The payout of an escape (逃跑): the escaper pays ``min(penalty, held)``, shared by ``shares``
    (default: every other account that put up beans, weight 1); :class:`InvalidInputError` for bad input."""
    check_unit(unit)
    check_id(escaper, "escaper")
    if not is_int(penalty) or penalty < 0:
        raise InvalidInputError(f"penalty {penalty!r}: expected an int ≥ 0")
    if shares is not None:
        if not isinstance(shares, dict) or not shares or escaper in shares:
            raise InvalidInputError(
                f"shares {shares!r}: expected weights for the accounts other than the escaper"
            )
        for a, w in shares.items():
            check_id(a)
            if not is_int(w) or w < 0:
                raise InvalidInputError(f"share weight {w!r} for account {a}: expected an int ≥ 0")
        if sum(shares.values()) <= 0:
            raise InvalidInputError(f"shares {shares!r}: the weights sum to zero")

    def payout(held: dict[int, int]) -> dict[int, int]:
        weights = shares if shares is not None else {a: 1 for a in held if a != escaper}
        paid = min(penalty, held.get(escaper, 0)) if weights else 0
        back = dict(held)
        if paid:
            back[escaper] -= paid
            for a, x in split(paid, weights).items():
                back[a] = back.get(a, 0) + x
        return back

    return payout


def checked_day(day: object) -> str:
    """An ISO date ``YYYY-MM-DD``, or :class:`InvalidInputError`."""
    try:
        ok = isinstance(day, str) and len(day) == 10 and dt.date.fromisoformat(day) is not None
    except ValueError:
        ok = False
    if not ok:
        raise InvalidInputError(f"day {day!r}: expected an ISO date YYYY-MM-DD")
    assert isinstance(day, str)
    return day


# ---------------------------------------------------------------------- in a transaction


async def issuance_id(conn: AsyncConnection) -> int | None:
    """The issuance account's id (``None``: not an erma store)."""
    q = sa.select(A.c.id).where(A.c.name_key == ISSUANCE_NAME)
    return (await conn.execute(q)).scalar_one_or_none()


async def lock_escrow(conn: AsyncConnection, unit: str) -> int:
    """The unit's escrow account id, made if new, and locked (one upsert ``… ON CONFLICT DO UPDATE …
    RETURNING``, which locks the row it meets): every operation on a unit takes this lock first, so the
    operations on one unit run one at a time; user rows are locked after it, in ascending id order."""
    name = f"escrow:{unit}"
    stmt = (
        upsert(conn, A)
        .values(kind="escrow", name=name, name_key=name)
        .on_conflict_do_update(
            index_elements=["name_key"], set_={"kind": A.c.kind}, where=A.c.kind == "escrow"
        )
        .returning(A.c.id)
    )
    return int((await conn.execute(stmt)).scalar_one())


async def unit_state(conn: AsyncConnection, unit: str) -> tuple[bool, dict[int, int] | None]:
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


async def has_terminal(conn: AsyncConnection, unit: str) -> bool:
    """Whether the unit's terminal transaction is written."""
    q = sa.select(T.c.id).where(T.c.key == f"{unit}:end")
    return (await conn.execute(q)).first() is not None


async def lock_users(
    conn: AsyncConnection, ids: Iterable[int], issuance: int | None = None
) -> dict[int, Any]:
    """Lock the accounts ``ids`` (and the ``issuance`` account, if given) in ascending id order and return
    their rows; every id must be a user account (or the issuance account)."""
    wanted = set(ids)
    if issuance is not None:
        wanted.add(issuance)
    q = (
        sa.select(A.c.id, A.c.kind, A.c.balance)
        .where(A.c.id.in_(sorted(wanted)))
        .order_by(A.c.id)
        .with_for_update()
    )
    rows = {r.id: r for r in (await conn.execute(q)).all()}
    for a in sorted(wanted):
        row = rows.get(a)
        if row is None or (row.kind != "user" and a != issuance):
            raise InvalidInputError(f"account {a}: no such player account")
    return rows


async def post(
    conn: AsyncConnection,
    issuance: int,
    kind: str,
    key: str,
    moves: Sequence[tuple[int, int]],
    *,
    unit: str | None = None,
    reason: str | None = None,
) -> int:
    """Write one ledger transaction: its row (the unique ``key`` makes it happen at most once), the
    balances by one conditional ``UPDATE … RETURNING`` (a debit only if the balance covers it; the
    ``issuance`` account alone may go negative), then the entries, in the order given (seat order). The
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
        .where(sa.or_(A.c.id == issuance, A.c.balance + change >= 0))
        .values(balance=A.c.balance + change)
        .returning(A.c.id, A.c.balance)
    )
    after = {r.id: r.balance for r in await conn.execute(stmt)}
    short = [a for a in by_account if a not in after]
    if short:
        raise InsufficientBeansError(f"account(s) {short} cannot pay their part of {key!r}: {moves}")
    await conn.execute(
        sa.insert(E),
        [{"transaction_id": tx_id, "account_id": a, "delta": d, "balance_after": after[a]} for a, d in moves],
    )
    return int(tx_id)


async def grant(
    conn: AsyncConnection, issuance: int, account_id: int, amount: int, kind: str, key: str
) -> None:
    """Move ``amount`` beans (if any) from the ``issuance`` account to ``account_id``, as the transaction
    ``key`` of ``kind``."""
    if amount > 0:
        await post(conn, issuance, kind, key, [(issuance, -amount), (account_id, amount)])


async def balance(conn: AsyncConnection, account_id: int) -> int | None:
    """The account's balance, or ``None`` if there is no such account."""
    q = sa.select(A.c.balance).where(A.c.id == account_id)
    return (await conn.execute(q)).scalar_one_or_none()


async def balances(conn: AsyncConnection, account_ids: Iterable[int]) -> dict[int, int]:
    """The balances of the accounts found among ``account_ids``, by id."""
    q = sa.select(A.c.id, A.c.balance).where(A.c.id.in_(sorted(set(account_ids))))
    return {r.id: r.balance for r in (await conn.execute(q)).all()}


async def hold(conn: AsyncConnection, issuance: int, unit: str, stakes: dict[int, int]) -> dict[int, int]:
    """Move ``min(stake, balance)`` from each account into the unit's escrow and return it (seat order),
    or the first hold's amounts if the unit is held already; :class:`InvalidInputError` if it has ended,
    :class:`InsufficientBeansError` if an account has no beans."""
    escrow = await lock_escrow(conn, unit)
    ended, held = await unit_state(conn, unit)
    if ended:
        raise InvalidInputError(f"unit {unit!r} has already ended: nothing can be held for it")
    if held is not None:
        return held
    rows = await lock_users(conn, stakes)
    amounts = {a: min(s, rows[a].balance) for a, s in stakes.items()}
    broke = [a for a, x in amounts.items() if x <= 0]
    if broke:
        raise InsufficientBeansError(f"unit {unit!r}: account(s) {broke} have no beans to put up")
    moves = [(a, -x) for a, x in amounts.items()] + [(escrow, sum(amounts.values()))]
    await post(conn, issuance, "hold", f"{unit}:hold", moves, unit=unit)
    return amounts


async def hold_reading(
    conn: AsyncConnection,
    issuance: int,
    unit: str,
    stakes: dict[int, int],
    floats: Mapping[int, int],
) -> tuple[dict[int, int], dict[int, int]]:
    """:func:`hold`, and each account's balance before it (read under the hold's lock), in one transaction
    instead of a read, a top-up and a hold: an account of ``floats`` (a bot's) whose balance is below its
    stake is first granted back up to its float (``grant``, key ``bot-topup:{account}:{unit}``). A unit held
    already gives the first hold's amounts and the balances as they are now."""
    escrow = await lock_escrow(conn, unit)
    ended, held = await unit_state(conn, unit)
    if ended:
        raise InvalidInputError(f"unit {unit!r} has already ended: nothing can be held for it")
    if held is not None:
        return held, await balances(conn, stakes)
    rows = await lock_users(conn, stakes)
    before = {a: int(rows[a].balance) for a in stakes}
    free = dict(before)
    for a, full in floats.items():
        if a in free and free[a] < stakes[a] and full > free[a]:
            await grant(conn, issuance, a, full - free[a], "grant", f"bot-topup:{a}:{unit}")
            free[a] = full
    amounts = {a: min(s, free[a]) for a, s in stakes.items()}
    broke = [a for a, x in amounts.items() if x <= 0]
    if broke:
        raise InsufficientBeansError(f"unit {unit!r}: account(s) {broke} have no beans to put up")
    moves = [(a, -x) for a, x in amounts.items()] + [(escrow, sum(amounts.values()))]
    await post(conn, issuance, "hold", f"{unit}:hold", moves, unit=unit)
    return amounts, before


async def terminal(
    conn: AsyncConnection,
    issuance: int,
    unit: str,
    kind: str,
    reason: str,
    payout: Payout,
    rated: RatedHand | None,
) -> bool:
    """End the unit: pay its escrow out by ``payout`` (and rate the hand, with ``rated``) in one ledger
    transaction; ``False`` if it had already ended."""
    escrow = await lock_escrow(conn, unit)
    ended, held_or_none = await unit_state(conn, unit)
    if ended:
        return False
    held = held_or_none or {}
    back = payout(held)
    pot = sum(held.values())
    if sum(back.values()) != pot or any(v < 0 for v in back.values()):
        raise AssertionError(f"unit {unit!r}: payout {back} does not match escrow {held}")
    paid_to = [a for a, v in back.items() if v > 0]
    if paid_to:
        await lock_users(conn, paid_to)
    moves = [*back.items(), (escrow, -pot)]
    await post(conn, issuance, kind, f"{unit}:end", moves, unit=unit, reason=reason)
    if rated is not None:
        await _ratings.apply(conn, unit, rated)
    return True


async def relief(
    conn: AsyncConnection, issuance: int, account_id: int, key: str, amount: int, threshold: int
) -> int:
    """Grant ``amount`` as transaction ``key`` if the account's balance is below ``threshold`` and ``key``
    is not written yet; the beans granted (0 if not)."""
    rows = await lock_users(conn, [account_id], issuance)
    if rows[account_id].balance >= threshold:
        return 0
    if (await conn.execute(sa.select(T.c.id).where(T.c.key == key))).first() is not None:
        return 0
    await grant(conn, issuance, account_id, amount, "relief", key)
    return amount


async def history(conn: AsyncConnection, account_id: int, limit: int) -> list[dict[str, Any]]:
    """The account's last ``limit`` ledger entries, newest first (see :meth:`Store.history`)."""
    q = (
        sa.select(T.c.id, T.c.kind, T.c.reason, T.c.unit, E.c.delta, E.c.balance_after, T.c.created)
        .select_from(E.join(T, T.c.id == E.c.transaction_id))
        .where(E.c.account_id == account_id)
        .order_by(E.c.id.desc())
        .limit(limit)
    )
    return [
        {
            "transaction_id": r.id,
            "kind": r.kind,
            "reason": r.reason,
            "unit": r.unit,
            "delta": r.delta,
            "balance_after": r.balance_after,
            "created": utc(r.created).isoformat(),
        }
        for r in (await conn.execute(q)).all()
    ]
