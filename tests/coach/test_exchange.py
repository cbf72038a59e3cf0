"""The review of the start exchange (换牌): a selection is worth the whole exchange it leads to."""

from __future__ import annotations

from erma.coach.estimate import exchange_given, exchange_plan
from erma.coach.review import review_decision
from erma.game import legal_actions, new_hand, seat_view
from erma.game.actions import Action, Kind
from erma.rules import find_ruleset


def _start() -> tuple[object, list[Action]]:
    state = new_hand(find_ruleset("cuopai789"), "ex3", dealer=0)
    return seat_view(state, 0), legal_actions(state, 0)


def test_a_selection_gives_back_the_rest_of_level5s_exchange() -> None:
    view, _ = _start()
    # 44m 7m 1p 6p 3s 4s 7s 9s 1z 22z 3z 6z: level5 (greedy's exchange) gives back 1p 1z 3z 6z
    assert exchange_plan(view, ()) == (9, 27, 29, 32)  # type: ignore[arg-type]
    assert exchange_given(view, Action(Kind.EXCHANGE)) == []  # type: ignore[arg-type]
    assert exchange_given(view, Action(Kind.SELECT, 27)) == [27, 9, 29, 32]  # type: ignore[arg-type]
    assert exchange_given(view, Action(Kind.SELECT, 6)) == [6, 9, 27, 29, 32]  # type: ignore[arg-type]
    assert exchange_given(view, Action(Kind.SELECT, 6), extra=(6, 14)) == [6, 9, 27, 29, 32, 14]  # type: ignore[arg-type]


def test_committing_at_once_is_charged_the_exchange() -> None:
    """Keeping every tile dealt (交换 with nothing marked) is a loss against giving back the lone honours."""
    view, legal = _start()
    d = review_decision(view, legal, Action(Kind.EXCHANGE), seed="t", samples=8, step=0)  # type: ignore[arg-type]
    assert d["best"].startswith("select") and d["value_lost"] > 0
    assert d["value_lost_ci95"][0] <= d["value_lost"] <= d["value_lost_ci95"][1]


def test_t95_widens_the_interval_of_few_samples() -> None:
    from erma.coach.review import t95

    assert t95(15) == 2.131 and t95(7) == 2.365 and t95(0) == 0.0
    assert abs(t95(30) - 2.042) < 0.003 and abs(t95(120) - 1.980) < 0.003
