"""The decision kinds and the calibration (胜率校准) of the chance of winning."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from erma.coach import calibration, review_record
from erma.coach.calibration import MODELS, TERMS, calibrated, features, terms
from erma.coach.kinds import DecisionKind, decision_kind
from erma.coach.review import win_chance
from erma.game import legal_actions, seat_view
from erma.game.actions import PASS, WIN, Action, Kind
from erma.game.record import load, steps
from erma.game.state import Phase

RECORDS = Path(__file__).parent.parent / "data" / "records"


def test_decision_kinds() -> None:
    d5 = Action(Kind.DISCARD, 4)
    assert decision_kind(Phase.TURN, [d5, Action(Kind.DISCARD, 5)]) is DecisionKind.DISCARD
    assert decision_kind(Phase.TURN, [d5, Action(Kind.DISCARD, 4, riichi=True)]) is DecisionKind.RIICHI
    assert decision_kind(Phase.TURN, [d5, Action(Kind.CONCEALED_KONG, 4)]) is DecisionKind.KONG
    assert decision_kind(Phase.TURN, [WIN, d5]) is DecisionKind.WIN
    assert decision_kind(Phase.CLAIM, [Action(Kind.PUNG), PASS]) is DecisionKind.CLAIM
    assert decision_kind(Phase.ROB, [WIN, PASS]) is DecisionKind.WIN
    assert decision_kind(Phase.EXCHANGE, [Action(Kind.EXCHANGE)]) is DecisionKind.EXCHANGE
    assert decision_kind(Phase.TRIPLET, [PASS]) is DecisionKind.TRIPLET
    assert decision_kind(Phase.CUO, [PASS]) is DecisionKind.CUO
    assert decision_kind(Phase.HAIDI, [Action(Kind.PICK, index=0)]) is DecisionKind.HAIDI
    assert decision_kind(Phase.MAIDI, [Action(Kind.MAIDI), PASS]) is DecisionKind.STAKE
    assert decision_kind(Phase.DINGDI, [Action(Kind.DINGDI), PASS]) is DecisionKind.STAKE


PRESETS = ["cuopai789", "classic64", "wushuang128", "wenzhou2p"]
KIND_NAMES = [k.value for k in DecisionKind]


def _seen(kind: str, shanten: int, ready: int, opp_ready: int, draws_left: int) -> dict[str, object]:
    return {
        "kind": kind,
        "shanten": shanten,
        "ready": ready,
        "opp_ready": opp_ready,
        "draws_left": draws_left,
    }


@pytest.mark.parametrize("preset", PRESETS)
def test_calibration_is_a_monotone_chance_at_every_stage(preset: str) -> None:
    draws, coef, xs, ys = MODELS[preset]
    assert len(coef) == len(TERMS) and draws > 0
    assert len(xs) == len(ys) and list(xs) == sorted(set(xs)) and list(ys) == sorted(ys)
    assert all(0 <= y <= 1 for y in ys)
    # the slope in the raw chance's logit is linear in the stage and 报听: positive at the corners, everywhere
    slope = {t: c for t, c in zip(TERMS, coef, strict=True)}
    for s in (0.0, 1.0):
        for o in (0.0, 1.0):
            assert slope["logit"] + s * slope["logit*stage"] + o * slope["logit*opp_ready"] > 0
    grid = [i / 100 for i in range(101)]
    for kind in KIND_NAMES:
        for shanten in (-1, 0, 1, 2, 3, 6):
            for ready in (0, 1):
                for opp in (0, 1):
                    for left in (0, 1, draws // 2, draws, 3 * draws):
                        f = _seen(kind, shanten, ready, opp, left)
                        out = [calibrated(preset, x, f) for x in grid]
                        assert all(0 <= y <= 1 for y in out)
                        assert all(a <= b + 1e-12 for a, b in itertools.pairwise(out)), (kind, shanten, left)
                        assert out == [calibrated(preset, x, dict(f)) for x in grid]  # deterministic


def test_the_stage_is_read_within_the_hand() -> None:
    f = _seen("discard", 1, 0, 0, 0)
    assert terms(0.3, f, 40)[TERMS.index("stage")] == 0.0
    assert terms(0.3, {**f, "draws_left": 20}, 40)[TERMS.index("stage")] == 0.5
    assert terms(0.3, {**f, "draws_left": 90}, 40)[TERMS.index("stage")] == 1.0
    assert terms(0.0, f, 40)[TERMS.index("logit")] == terms(0.001, f, 40)[TERMS.index("logit")] < 0
    assert terms(0.3, _seen("stake", 1, 0, 0, 0), 40)[TERMS.index("kind=other")] == 1.0


def test_no_model_leaves_the_chance() -> None:
    assert calibrated("no-such-room", 0.37, _seen("discard", 1, 0, 0, 10)) == 0.37


def test_win_chance_is_the_model_of_the_raw_chance(monkeypatch: pytest.MonkeyPatch) -> None:
    record = load(RECORDS / "cuopai789-triplet.json")
    seen = []
    for step, (state, who, text) in enumerate(steps(record)):
        legal = legal_actions(state, who) if who >= 0 and state.actor == who else []
        if len(legal) >= 2 and Action.parse(text) in legal:
            seen.append((step, seat_view(state, who), legal, Action.parse(text)))
    assert len(seen) >= 10
    cooked = [win_chance(v, lg, a, seed="t", step=i) for i, v, lg, a in seen]
    monkeypatch.delitem(MODELS, "cuopai789")
    raw = [win_chance(v, lg, a, seed="t", step=i) for i, v, lg, a in seen]
    monkeypatch.undo()
    expect = [calibrated("cuopai789", r, features(v, lg)) for r, (_, v, lg, _) in zip(raw, seen, strict=True)]
    assert cooked == pytest.approx(expect, abs=1e-12)
    assert cooked != raw


def test_the_model_changes_the_chances_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Values, losses, intervals, mistakes and tags do not read the calibration (nor does the best)."""
    record = load(RECORDS / "cuopai789-triplet.json")
    with_model = review_record(record, samples=4)
    monkeypatch.setattr(calibration, "MODELS", {})
    without = review_record(record, samples=4)
    strip = ("win",)
    for a, b in zip(with_model["decisions"], without["decisions"], strict=True):
        assert {k: v for k, v in a.items() if k != "candidates"} == {
            k: v for k, v in b.items() if k != "candidates"
        }
        ca = [{k: v for k, v in c.items() if k not in strip} for c in a["candidates"]]
        cb = [{k: v for k, v in c.items() if k not in strip} for c in b["candidates"]]
        assert ca == cb
    assert with_model["summary"] == without["summary"]
    assert any(
        c["win"] != d["win"]
        for a, b in zip(with_model["decisions"], without["decisions"], strict=True)
        for c, d in zip(a["candidates"], b["candidates"], strict=True)
    )
