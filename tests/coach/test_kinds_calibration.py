"""The decision kinds and the calibration map of the chance of winning."""

from __future__ import annotations

import pytest

from erma.coach.calibration import MAPS, calibrated
from erma.coach.kinds import DecisionKind, decision_kind
from erma.game.actions import PASS, WIN, Action, Kind
from erma.game.state import Phase


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


@pytest.mark.parametrize("preset", ["cuopai789", "classic64", "wushuang128", "wenzhou2p"])
def test_calibration_maps_are_monotone_chances(preset: str) -> None:
    xs, ys = MAPS[preset]
    assert len(xs) == len(ys) >= 2 and list(xs) == sorted(xs) and list(ys) == sorted(ys)
    grid = [i / 100 for i in range(101)]
    out = [calibrated(preset, x) for x in grid]
    assert all(0 <= y <= 1 for y in out) and out == sorted(out)
    assert calibrated(preset, xs[3]) == pytest.approx(ys[3])


def test_no_map_leaves_the_chance() -> None:
    assert calibrated("no-such-room", 0.37) == 0.37
