"""A declared opponent's waits: the memory of where it declared, the kinds known safe, the fitted model."""

from __future__ import annotations

import dataclasses

from erma.bots.expert import Estimator, ExpertBot, Settings
from erma.bots.expert.declared import (
    COEFFICIENTS,
    FEATURE_NAMES,
    N_FEATURES,
    DeclaredMemory,
    Reading,
    wait_chances,
    wait_rows,
)
from erma.game import SeatView, new_hand, seat_view
from erma.lab.selfplay import play_hand
from erma.rules import find_ruleset


def _view(opp_river: tuple[int, ...], own_river: tuple[int, ...], declared: bool, version: int) -> SeatView:
    view = seat_view(new_hand(find_ruleset("classic64"), "declared", dealer=0), 0)
    return dataclasses.replace(
        view, discards=(own_river, opp_river), riichi=(False, declared), version=version
    )


def test_memory_remembers_the_declaring_discard() -> None:
    mem = DeclaredMemory()
    assert mem.observe(_view((1, 2), (3,), False, 10)) is None
    r = mem.observe(_view((1, 2, 4), (3, 5), True, 12))  # declared with 4: our river then 3, 5
    assert r is not None and r.declaring == 4 and r.before == (1, 2) and r.after == ()
    r = mem.observe(_view((1, 2, 4, 7), (3, 5, 8), True, 16))
    assert r is not None and r.declaring == 4 and r.after == (7,) and r.passed == (8,)
    assert r.safe[7] and r.safe[8] and not r.safe[4] and not r.safe[1]
    # a new hand (an earlier event) forgets it
    r = mem.observe(_view((9, 10), (3,), True, 5))
    assert r is not None and r.declaring == 10 and r.before == (9,)


def test_declaring_discard_claimed() -> None:
    """We claimed the declaring discard: it left the river, what follows is still read as after it."""
    r = Reading(_view((1, 2, 6), (3,), True, 20), (1, 2, 4), 1)
    assert r.declaring == 4 and r.after == (6,) and r.safe[6]


def test_wait_chances_known_safe_kinds_are_zero() -> None:
    view = _view((1, 2, 4, 7), (3, 5, 8), True, 16)
    r = Reading(view, (1, 2, 4), 1)
    unseen = [view.unseen(t) for t in range(34)]
    rows = wait_rows(view, r, unseen, view.kinds)
    assert len(FEATURE_NAMES) == N_FEATURES
    assert all(len(x) == N_FEATURES for x in rows.values())
    assert 7 not in rows and 5 not in rows and 8 not in rows
    coefficients = COEFFICIENTS.get("classic64", tuple([-2.0] + [0.0] * (N_FEATURES - 1)))
    p = wait_chances(view, r, unseen, view.kinds, coefficients)
    assert p[7] == p[5] == p[8] == 0.0
    assert all(0.0 < p[t] < 1.0 for t in rows)


def test_estimator_reads_the_model_only_with_a_reading() -> None:
    view = _view((1, 2, 4, 7), (3, 5, 8), True, 16)
    r = Reading(view, (1, 2, 4), 1)
    plain = Estimator(view, Settings()).danger()
    read = Estimator(view, Settings(declared_model=True), 0, r).danger()
    if "classic64" in COEFFICIENTS:
        assert read[7] == 0.0 and read != plain
    else:
        assert read == plain


def _model_bots() -> list[ExpertBot]:
    return [
        ExpertBot("a", settings=Settings(declared_model=True)),
        ExpertBot("b", settings=Settings(declared_model=True, declared_fold=True)),
    ]


def test_level5_with_the_model_plays_whole_hands() -> None:
    """The flags play whole hands deterministically; without 报听 (wenzhou2p) or coefficients (cuopai789)
    they change nothing."""
    for rules in ("classic64", "wushuang128", "wenzhou2p", "cuopai789"):
        rs = find_ruleset(rules)
        a = play_hand(rs, "m1", _model_bots(), 0).result
        b = play_hand(rs, "m1", _model_bots(), 0).result
        assert a is not None and b is not None and a.deltas == b.deltas
        if rules in ("wenzhou2p", "cuopai789"):  # no 报听 / no coefficients: level5's own choices
            c = play_hand(rs, "m1", [ExpertBot("a"), ExpertBot("b")], 0).result
            assert c is not None and c.deltas == a.deltas
