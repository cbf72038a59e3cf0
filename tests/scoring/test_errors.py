"""Records that are not winning hands, or not records at all, give error results and never raise."""

from __future__ import annotations

from typing import Any

import pytest

from erma.scoring import score_record

GOOD: dict[str, Any] = {"packs": [["PENG", "1z", 1]], "hand": "123456789m6z", "win_tile": "6z"}


def test_good_record() -> None:
    assert score_record(GOOD)["total"] == 27


@pytest.mark.parametrize(
    "record",
    [
        {"packs": [], "hand": "123456789m1234z", "win_tile": "5z"},
        {"packs": [["CHI", "2m", 1]], "hand": "456789m1234z", "win_tile": "5z"},
    ],
)
def test_not_win(record: dict[str, Any]) -> None:
    r = score_record(record)
    assert r["error"] == "not_win"
    assert "not a winning hand" in r["message"]


BAD: list[Any] = [
    None,
    [],
    "123m",
    {},
    {"packs": [], "hand": "123m"},
    {**GOOD, "hand": "123456789m"},  # too few tiles
    {**GOOD, "hand": "123456789m66z"},  # too many
    {**GOOD, "win_tile": "6zz"},
    {**GOOD, "win_tile": "0m"},
    {**GOOD, "win_tile": 5},
    {**GOOD, "packs": [["PONG", "1z", 1]]},
    {**GOOD, "packs": [["PENG", "1z", 4]]},
    {**GOOD, "packs": [["PENG", "1z", 0]]},  # offer 0 is only for a concealed kong
    {**GOOD, "packs": [["CHI", "1m", 1]], "hand": "23456789m6z11z"},  # CHI names the middle tile
    {**GOOD, "packs": [["PENG", "1z"]]},
    {**GOOD, "packs": "PENG 1z"},
    {**GOOD, "packs": [["PENG", "1z", 1]] * 5},
    {"packs": [["GANG", "1m", 0]], "hand": "111m234m567m5z", "win_tile": "5z"},  # five 1m
    {**GOOD, "hand": "123456789m1f"},
    {**GOOD, "seat_wind": 4},
    {**GOOD, "prevalent_wind": -1},
    {**GOOD, "flower_count": 9},
    {**GOOD, "is_self_drawn": "yes"},
    {**GOOD, "colour": "red"},
    {**GOOD, "flowers": "1f2f", "flower_count": 3},
    {**GOOD, "hand": ["1m", "2m", 3]},
    {**GOOD, "hand": 12345},
]


@pytest.mark.parametrize("record", BAD, ids=range(len(BAD)))
def test_invalid_input(record: Any) -> None:
    r = score_record(record)
    assert r["error"] == "invalid_input", r
    assert isinstance(r["message"], str) and r["message"]


def test_notations_and_defaults() -> None:
    botzone = {"packs": [["PENG", "F1", 1]], "hand": "W1 W2 W3 W4 W5 W6 W7 W8 W9 J2", "win_tile": "J2"}
    listed = {
        "packs": [("PENG", "1z", 1)],
        "hand": list("123456789") and [f"{d}m" for d in "123456789"] + ["6z"],
        "win_tile": "6z",
    }
    assert score_record(botzone)["total"] == score_record(listed)["total"] == score_record(GOOD)["total"]


def test_flowers_by_name() -> None:
    r = score_record({**GOOD, "flowers": "1f5f"})
    fl = next(f for f in r["fans"] if f["id"] == "flower_tiles")
    assert fl["count"] == 2
    assert fl["tiles"] == ["1f", "5f"]
