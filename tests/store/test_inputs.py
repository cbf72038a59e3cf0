"""The store's argument checks: ids, units, JSON, list limits (no database)."""

from __future__ import annotations

import math

import pytest

from erma.errors import InvalidInputError
from erma.store.inputs import UNIT_MAX, check_id, check_json, check_unit, clamp, is_int


def test_ids_are_ints_not_bools() -> None:
    assert is_int(3) and not is_int(True) and not is_int(3.0) and not is_int("3")
    assert check_id(7) == 7
    with pytest.raises(InvalidInputError, match="escaper True: expected an int"):
        check_id(True, "escaper")
    with pytest.raises(InvalidInputError, match="account id '7': expected an int"):
        check_id("7")


def test_units_are_short_printable_strings() -> None:
    assert check_unit("t1:h3") == "t1:h3"
    assert check_unit("x" * UNIT_MAX) == "x" * UNIT_MAX
    for bad in ("", "x" * (UNIT_MAX + 1), "a\nb", 5, None):
        with pytest.raises(InvalidInputError, match="settlement unit"):
            check_unit(bad)


def test_json_documents() -> None:
    check_json("record", {"a": [1, "b", None]}, "for unit 'u'")
    with pytest.raises(InvalidInputError, match=r"^summary of record 4 is not JSON: "):
        check_json("summary", {"x": math.nan}, "of record 4")
    with pytest.raises(InvalidInputError, match=r"^record for unit 'u' is not JSON: "):
        check_json("record", {"x": object()}, "for unit 'u'")


def test_limits_are_clamped() -> None:
    assert [clamp(n, 200) for n in (-5, 0, 20, 200, 10_000)] == [0, 0, 20, 200, 200]
