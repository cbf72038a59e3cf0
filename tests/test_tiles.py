"""Tiles and notations: constants, the three notations both ways, bad input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from erma import tiles as T
from erma.errors import InvalidNotationError


def test_kind_layout() -> None:
    assert T.parse("1m9m1p9p1s9s") == [0, 8, 9, 17, 18, 26]
    assert T.parse("1234567z") == [T.EAST, T.SOUTH, T.WEST, T.NORTH, T.WHITE, T.GREEN, T.RED]
    assert (T.WHITE, T.GREEN, T.RED) == (31, 32, 33)
    assert T.parse("12345678f") == list(range(34, 42))
    assert len(T.TERMINALS_AND_HONORS) == 13
    assert tuple(t for t in range(27) if t % 9 not in (0, 8)) == T.SIMPLES
    assert [T.name_zh(t) for t in (0, 13, 26, 27, 31, 32, 33, 34)] == [
        "一万",
        "五筒",
        "九条",
        "东",
        "白",
        "发",
        "中",
        "春",
    ]


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("123m456p789s1155z", [0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 31, 31]),
        ("W1 W2 B3 F1 J3 H2", [0, 1, 11, 27, 31, 35]),
        ("W1,J1,J2,J3", [0, 33, 32, 31]),
        ("一万 九筒 三条 东风 红中 发财 白板 春", [0, 17, 20, 27, 33, 32, 31, 34]),
        ("1万 五饼 七索 東 發 中", [0, 13, 24, 27, 32, 33]),
        ("EESSWNPFC", [27, 27, 28, 28, 29, 30, 31, 32, 33]),
        ("  12m 3p  ", [0, 1, 11]),
        ("", []),
    ],
)
def test_parse(text: str, kinds: list[int]) -> None:
    assert T.parse(text) == kinds


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("123x", "unexpected character 'x'"),
        ("0m", "digit 0"),
        ("8z", "8z is not a tile"),
        ("9f", "9f is not a tile"),
        ("123", "no suit letter"),
        ("m12", "no digits before it"),
        ("W0 B1", "W0"),
        ("一万 十万", "十万"),
    ],
)
def test_parse_errors_name_the_input(text: str, fragment: str) -> None:
    with pytest.raises(InvalidNotationError) as info:
        T.parse(text)
    assert repr(text) in str(info.value)
    assert fragment in str(info.value)


def test_bad_kinds_in_lists() -> None:
    with pytest.raises(InvalidNotationError, match="42"):
        T.parse([1, 42])
    with pytest.raises(InvalidNotationError, match="not a tile kind"):
        T.to_mpsz([-1])


def test_printers() -> None:
    tiles = T.parse("5z6z7z1f9m")
    assert T.to_mpsz(tiles) == "9m567z1f"
    assert T.to_botzone(tiles) == "J3 J2 J1 H1 W9"
    assert T.to_zh(tiles) == "白 发 中 春 九万"
    assert T.tile_to_mpsz(T.RED) == "7z"
    assert T.parse_tile("J2") == T.GREEN
    with pytest.raises(InvalidNotationError, match="expected one tile"):
        T.parse_tile("12m")


kinds = st.lists(st.integers(min_value=0, max_value=41), max_size=20)


@given(kinds)
def test_mpsz_round_trip(ts: list[int]) -> None:
    assert T.parse(T.to_mpsz(ts)) == sorted(ts)


@given(kinds)
def test_botzone_round_trip(ts: list[int]) -> None:
    assert T.parse(T.to_botzone(ts)) == ts


@given(kinds)
def test_chinese_round_trip(ts: list[int]) -> None:
    assert T.parse(T.to_zh(ts)) == ts


@given(st.text(alphabet="0123456789mpszfESWNPFCx ", max_size=12))
def test_parse_never_fails_otherwise(text: str) -> None:
    """Any text either parses into kinds 0–41 or raises InvalidNotationError naming it."""
    try:
        out = T.parse(text)
    except InvalidNotationError as exc:
        assert repr(text) in str(exc)
    else:
        assert all(0 <= t < 42 for t in out)
