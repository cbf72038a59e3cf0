"""Actions: the text form both ways and malformed input."""

from __future__ import annotations

import pytest

from erma.errors import IllegalActionError
from erma.game.actions import Action, Kind


@pytest.mark.parametrize(
    "text",
    [
        "discard 5m",
        "discard 7z riichi",
        "win",
        "chow 3s",
        "pung",
        "kong",
        "ckong 1z",
        "akong 9p",
        "xkong 5m",
        "pass",
        "select 2p",
        "exchange",
        "accept 1m1m9p",
        "cuo 4s",
        "pick 12",
        "timeout",
        "escape",
    ],
)
def test_round_trip(text: str) -> None:
    action = Action.parse(text)
    assert action.to_str() == text
    assert eval(repr(action)) == action


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty action"),
        ("fly 5m", "unknown action 'fly'"),
        ("discard", "takes one tile"),
        ("discard 5m 6m", "takes one tile"),
        ("discard 0m", "digit 0"),
        ("accept 1m2m", "three tiles"),
        ("pick x", "reserve position"),
        ("pass now", "takes no argument"),
    ],
)
def test_malformed(text: str, fragment: str) -> None:
    with pytest.raises(IllegalActionError) as info:
        Action.parse(text)
    assert fragment in str(info.value)


def test_not_a_string() -> None:
    with pytest.raises(IllegalActionError, match="string"):
        Action.parse(5)  # type: ignore[arg-type]
    assert Action(Kind.DISCARD, 4, riichi=True).to_str() == "discard 5m riichi"
