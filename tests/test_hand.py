"""Melds and hands: frozen values, notation, validation."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from erma.errors import InvalidHandError, InvalidNotationError
from erma.hand import Hand, Meld, MeldKind, validate_tiles
from erma.tiles import parse


@pytest.mark.parametrize(
    ("text", "kind", "size"),
    [
        ("(123m)", MeldKind.CHOW, 3),
        ("(777s)", MeldKind.PUNG, 3),
        ("(7777s)", MeldKind.EXPOSED_KONG, 4),
        ("[7777s]", MeldKind.CONCEALED_KONG, 4),
        ("(55555m)", MeldKind.EXPOSED_KONG, 5),
        ("[11111111z]", MeldKind.CONCEALED_KONG, 8),
    ],
)
def test_meld_parse(text: str, kind: MeldKind, size: int) -> None:
    meld = Meld.parse(text)
    assert (meld.kind, meld.size) == (kind, size)
    assert meld.to_notation() == text
    assert eval(repr(meld)) == meld  # repr shows how to rebuild it


def test_added_kong_and_frozen() -> None:
    meld = Meld.parse("(2222p)", added=True)
    assert meld.kind is MeldKind.ADDED_KONG and meld.is_kong and not meld.is_concealed
    with pytest.raises(dataclasses.FrozenInstanceError):
        meld.tile = 3  # type: ignore[misc]


@pytest.mark.parametrize("text", ["(124m)", "(789z)", "(12m)", "(123456m)", "[123m]", "(1111m]", "(1f2f3f)"])
def test_meld_parse_errors(text: str) -> None:
    with pytest.raises(InvalidNotationError) as info:
        Meld.parse(text)
    assert repr(text) in str(info.value)


def test_meld_value_errors() -> None:
    with pytest.raises(InvalidHandError, match="chow cannot start"):
        Meld(MeldKind.CHOW, parse("8m")[0])
    with pytest.raises(InvalidHandError, match="4 to 8"):
        Meld(MeldKind.EXPOSED_KONG, 0, 9)
    with pytest.raises(InvalidHandError, match="not in the chow"):
        Meld(MeldKind.CHOW, 0, claimed=5)


def test_hand_parse_and_validate() -> None:
    hand = Hand.parse("[1111m](2222z)234m678m5z + 5z ; self")
    assert hand.to_notation() == "[1111m](2222z)234678m5z+5z"
    assert len(hand.melds) == 2 and hand.win_tile == parse("5z")[0]
    hand.validate()
    assert eval(repr(hand)) == hand


def test_hand_validation_errors() -> None:
    with pytest.raises(InvalidHandError, match="5×1m exceeds the 4-copy limit"):
        Hand.parse("(111m)11m2345678m + 9m").validate()
    Hand.parse("(11111m)2345678999m + 5m").validate(copies=8)
    with pytest.raises(InvalidHandError, match=r"10 tiles beside 1 declared set.*needs 11"):
        Hand.parse("(123m)123456789m + 1z").validate()
    with pytest.raises(InvalidHandError, match=r"13 tiles beside 0 declared set.*16-tile hand needs 16"):
        Hand.parse("123m456m789m123p4p").validate(hand_size=16)
    with pytest.raises(InvalidNotationError, match="unbalanced"):
        Hand.parse("(123m 456m")


def test_validate_tiles_names_the_input() -> None:
    with pytest.raises(InvalidHandError, match="'11111z'"):
        validate_tiles(parse("11111z"))
    with pytest.raises(InvalidHandError, match="not a suit or honour"):
        validate_tiles([40])


@given(st.lists(st.integers(0, 33), min_size=1, max_size=13))
def test_hand_notation_round_trip(ts: list[int]) -> None:
    hand = Hand(concealed=tuple(ts[:-1]), win_tile=ts[-1])
    assert Hand.parse(hand.to_notation()) == hand
