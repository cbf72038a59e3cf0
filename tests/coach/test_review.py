"""The review (复盘): its JSON contract, its figures' invariants, and that it reads only the seat's view."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from erma.coach import FORMAT, DecisionKind, Tag, review_record
from erma.errors import ErmaError, InvalidRecordError, ReviewError
from erma.game.actions import Action
from erma.game.record import load

RECORDS = Path(__file__).parent.parent / "data" / "records"
SAMPLES = 6


@pytest.fixture(scope="module")
def triplet_review() -> dict[str, Any]:
    return review_record(load(RECORDS / "cuopai789-triplet.json"), samples=SAMPLES)


def test_keys_and_types(triplet_review: dict[str, Any]) -> None:
    r = triplet_review
    assert r["format"] == FORMAT == "erma.review/1"
    assert r["rules"] == "cuopai789" and r["seat"] == [0, 1]
    json.dumps(r, allow_nan=False)  # JSON-serialisable, no NaN or infinity
    actions = load(RECORDS / "cuopai789-triplet.json")["actions"]
    assert r["decisions"], "the hand has decisions"
    kinds = {k.value for k in DecisionKind}
    for d in r["decisions"]:
        assert set(d) == {"seat", "step", "kind", "played", "best", "candidates"} | {
            "value_lost", "value_lost_ci95", "mistake", "tag"
        }  # fmt: skip
        assert d["kind"] in kinds
        seat, text = actions[d["step"]]
        assert seat == d["seat"]
        assert Action.parse(d["played"]) == Action.parse(text) or text == "timeout"
        Action.parse(d["best"])
        assert isinstance(d["mistake"], bool)
        assert d["tag"] is None or d["tag"] in {t.value for t in Tag}
        assert (d["tag"] is not None) == d["mistake"]
        lo, hi = d["value_lost_ci95"]
        assert lo <= d["value_lost"] + 1e-9 <= hi + 2e-9
        assert 1 <= len(d["candidates"]) <= 4
        assert sum(c["played"] for c in d["candidates"]) == 1
        assert sum(c["best"] for c in d["candidates"]) == 1
        for c in d["candidates"]:
            assert set(c) == {"action", "value", "win", "deal_in", "useful", "played", "best"}
            assert 0 <= c["win"] <= 1 and 0 <= c["deal_in"] <= 1 and isinstance(c["useful"], int)
            assert math.isfinite(c["value"])
    kinds_seen = {d["kind"] for d in r["decisions"]}
    assert {"discard", "exchange", "triplet"} <= kinds_seen, kinds_seen


def test_value_lost_is_best_minus_played(triplet_review: dict[str, Any]) -> None:
    for d in triplet_review["decisions"]:
        assert d["value_lost"] >= 0
        best = next(c for c in d["candidates"] if c["best"])
        played = next(c for c in d["candidates"] if c["played"])
        assert best["action"] == d["best"] and played["action"] == d["played"]
        # the best is level5's move (test_coach_level5.py), not always the highest estimate
        assert d["value_lost"] == pytest.approx(max(0.0, best["value"] - played["value"]), abs=2e-4)
        if d["mistake"]:
            assert d["value_lost_ci95"][0] > 0 and d["best"] != d["played"]


def test_summary(triplet_review: dict[str, Any]) -> None:
    for s in triplet_review["summary"]:
        mine = [d for d in triplet_review["decisions"] if d["seat"] == s["seat"]]
        assert s["decisions"] == len(mine)
        assert s["mistakes"] == sum(d["mistake"] for d in mine)
        assert s["agreement"] == pytest.approx(
            sum(d["played"] == d["best"] for d in mine) / len(mine), abs=1e-4
        )
        assert s["value_lost"] == pytest.approx(sum(d["value_lost"] for d in mine), abs=1e-3)


def test_one_seat_and_determinism() -> None:
    record = load(RECORDS / "classic64-win.json")
    one = review_record(record, 1, samples=SAMPLES)
    assert one["seat"] == [1] and all(d["seat"] == 1 for d in one["decisions"])
    assert [s["seat"] for s in one["summary"]] == [1]
    assert review_record(record, 1, samples=SAMPLES) == one
    other = review_record(record, 1, samples=SAMPLES, seed="another")
    assert [d["step"] for d in other["decisions"]] == [d["step"] for d in one["decisions"]]


@pytest.mark.parametrize("seat", [2, -1, "0", True])
def test_bad_seat(seat: object) -> None:
    with pytest.raises(ReviewError, match="seat"):
        review_record(load(RECORDS / "classic64-win.json"), seat)  # type: ignore[arg-type]


def test_bad_record() -> None:
    record = load(RECORDS / "classic64-win.json")
    broken = dict(record, actions=[*record["actions"][:3], [0, "discard 9z"]])
    with pytest.raises(InvalidRecordError, match="action 3"):
        review_record(broken)
    with pytest.raises(InvalidRecordError, match="format"):
        review_record({"rules": "cuopai789"})
    with pytest.raises(ErmaError):
        review_record([])  # type: ignore[arg-type]
