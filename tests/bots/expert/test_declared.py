"""A declared opponent's waits: where it declared (from the view), the kinds known safe, the fitted model."""

from __future__ import annotations

import dataclasses

from erma.bots.expert import Estimator, ExpertBot, Settings
from erma.bots.expert.declared import (
    COEFFICIENTS,
    FEATURE_NAMES,
    N_FEATURES,
    read,
    wait_chances,
    wait_rows,
)
from erma.game import Declaration, SeatView, new_hand, seat_view
from erma.lab.selfplay import play_hand
from erma.rules import find_ruleset


def _view(
    opp_river: tuple[int, ...], own_river: tuple[int, ...], declaration: Declaration | None, version: int = 16
) -> SeatView:
    view = seat_view(new_hand(find_ruleset("classic64"), "declared", dealer=0), 0)
    return dataclasses.replace(
        view,
        discards=(own_river, opp_river),
        riichi=(False, declaration is not None),
        declarations=(None, declaration),
        version=version,
    )


DECLARED = Declaration(before=2, tile=4, kept=True, other=2)
"""The opponent declared with 4 (its third discard) when our river was 3, 5."""


def test_reading_from_the_view() -> None:
    assert read(_view((1, 2), (3,), None)) is None
    r = read(_view((1, 2, 4), (3, 5), DECLARED))
    assert r is not None and r.declaring == 4 and r.before == (1, 2) and r.after == () and r.passed == ()
    r = read(_view((1, 2, 4, 7), (3, 5, 8), DECLARED))
    assert r is not None and r.declaring == 4 and r.after == (7,) and r.passed == (8,)
    assert r.safe[7] and r.safe[8] and not r.safe[4] and not r.safe[1]
    assert r.before_count[1] == r.before_count[2] == 1 and r.suit_count == [2, 0, 0, 0]
    assert r.seen[4] and r.seen[1] and not r.seen[7] and r.ours_before[3] and not r.ours_before[8]


def test_declaring_discard_claimed() -> None:
    """We claimed the declaring discard: it left the river, what follows is read as after it."""
    r = read(_view((1, 2, 6), (3,), Declaration(before=2, tile=4, kept=False, other=1)))
    assert r is not None and r.declaring == 4 and r.before == (1, 2) and r.after == (6,) and r.safe[6]


def test_wait_chances_known_safe_kinds_are_zero() -> None:
    view = _view((1, 2, 4, 7), (3, 5, 8), DECLARED)
    r = read(view)
    assert r is not None
    unseen = [view.unseen(t) for t in range(34)]
    rows = wait_rows(view, r, unseen, view.kinds)
    assert len(FEATURE_NAMES) == N_FEATURES
    assert all(len(x) == N_FEATURES for x in rows.values())
    assert 7 not in rows and 8 not in rows and 5 in rows  # 5: ours before it declared
    coefficients = COEFFICIENTS.get("classic64", tuple([-2.0] + [0.0] * (N_FEATURES - 1)))
    p = wait_chances(view, r, unseen, view.kinds, coefficients)
    assert p[7] == p[8] == 0.0 < p[5]
    assert all(0.0 < p[t] < 1.0 for t in rows)


def test_estimator_reads_the_model_only_with_a_reading() -> None:
    view = _view((1, 2, 4, 7), (3, 5, 8), DECLARED)
    plain = Estimator(view, Settings(declared_model=False)).danger()
    model = Estimator(view, Settings(declared_model=True)).danger()
    if "classic64" in COEFFICIENTS:
        assert model[7] == 0.0 and model != plain
    else:
        assert model == plain
    unread = dataclasses.replace(view, declarations=(None, None))  # no declaration: the view's own danger
    assert Estimator(unread, Settings(declared_model=True)).danger() == Estimator(unread, Settings()).danger()


def _model_bots() -> list[ExpertBot]:
    return [
        ExpertBot("a", settings=Settings(declared_model=True)),
        ExpertBot("b", settings=Settings(declared_model=True, declared_fold=True)),
    ]


def test_level5_reads_a_declared_opponent_by_the_model() -> None:
    """level5 (the default settings) has the model and the fold on."""
    assert Settings().declared_model and Settings().declared_fold


def test_level5_with_the_model_plays_whole_hands() -> None:
    """The flags play whole hands deterministically; without 报听 (wenzhou2p) or coefficients (cuopai789)
    they change nothing."""
    for rules in ("classic64", "wushuang128", "wenzhou2p", "cuopai789"):
        rs = find_ruleset(rules)
        a = play_hand(rs, "m1", _model_bots(), 0).result
        b = play_hand(rs, "m1", _model_bots(), 0).result
        assert a is not None and b is not None and a.deltas == b.deltas
        if rules in ("wenzhou2p", "cuopai789"):  # no 报听 / no coefficients: level5's own choices
            off = Settings(declared_model=False, declared_fold=False)
            c = play_hand(rs, "m1", [ExpertBot("a", settings=off), ExpertBot("b", settings=off)], 0).result
            assert c is not None and c.deltas == a.deltas
