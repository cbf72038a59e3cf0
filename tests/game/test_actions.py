"""Actions: the text form both ways and malformed input."""

from __future__ import annotations

import pytest

from erma.errors import IllegalActionError
from erma.game.actions import CUO, DISCARD, RIICHI, SELECT, Action, Kind, accept, pick


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


def test_equality_and_hash_are_field_by_field() -> None:
    """``Action.__eq__`` and ``__hash__`` are written out (compiled: native code); they follow the fields."""
    texts = ["discard 5m", "discard 5m riichi", "chow 3s", "accept 1m1m9p", "pick 2", "pass", "win"]
    for a in texts:
        for b in texts:
            x, y = Action.parse(a), Action.parse(b)
            assert (x == y) is (a == b)
            assert (x != y) is (a != b)
            if a == b:
                assert hash(x) == hash(y) and x is not y
    assert Action.parse("pick 2") != Action(Kind.PICK, index=3)
    assert Action.parse("discard 5m") != "discard 5m"
    assert len({Action.parse(t) for t in texts + texts}) == len(texts)


def test_tables_hold_the_actions_they_name() -> None:
    for t in range(34):
        assert DISCARD[t] == Action(Kind.DISCARD, t) and RIICHI[t] == Action(Kind.DISCARD, t, riichi=True)
        assert CUO[t] == Action(Kind.CUO, t) and SELECT[t] == Action(Kind.SELECT, t)
    assert pick(5) == Action(Kind.PICK, index=5) and pick(5) is pick(5)
    assert accept((0, 0, 17)) == Action.parse("accept 1m1m9p") and accept((0, 0, 17)) is accept((0, 0, 17))
