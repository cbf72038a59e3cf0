"""The checks of what callers hand the store: ids, settlement units, list limits, JSON documents.

Each check raises :class:`InvalidInputError` naming the bad value, before any transaction begins.
"""

from __future__ import annotations

import json
from typing import Any

from erma.errors import InvalidInputError

#: Record ids are 32-bit on PostgreSQL (``game_records.id`` INTEGER): a larger id names no record (asking
#: PostgreSQL for one fails instead of finding nothing).
RECORD_ID_LIMIT = 2**31
#: Longest settlement-unit id (the transaction keys append ``:hold`` / ``:end``).
UNIT_MAX = 100


def is_int(value: object) -> bool:
    """An int and not a bool."""
    return type(value) is int


def check_unit(unit: object) -> str:
    """A settlement unit (one hand): 1–``UNIT_MAX`` printable characters."""
    if not isinstance(unit, str) or not unit or len(unit) > UNIT_MAX or not unit.isprintable():
        raise InvalidInputError(f"settlement unit {unit!r}: expected 1–{UNIT_MAX} printable characters")
    return unit


def check_id(account_id: object, what: str = "account id") -> int:
    """An id (``what`` names it in the error): an int."""
    if not is_int(account_id):
        raise InvalidInputError(f"{what} {account_id!r}: expected an int")
    assert isinstance(account_id, int)
    return account_id


def check_json(what: str, value: Any, where: str) -> None:
    """``value`` is a JSON document (no NaN or infinity); ``what`` and ``where`` name it in the error."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise InvalidInputError(f"{what} {where} is not JSON: {e}") from None


def clamp(limit: int, most: int) -> int:
    """A list's length limit, brought into 0–``most``."""
    return max(0, min(int(limit), most))
