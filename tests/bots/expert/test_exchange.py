"""The expert's start exchange."""

from __future__ import annotations

from erma.game import new_hand, seat_view
from erma.rules import find_ruleset


def test_exchange_pick_stops_at_the_rules_limit() -> None:
    from erma.bots.expert import exchange_pick

    rules = find_ruleset("cuopai789", {"start_exchange_max": 1})
    state = new_hand(rules, "ex3", dealer=0)
    view = seat_view(state, 0)
    unseen = [view.unseen(t) for t in range(34)]
    assert exchange_pick(view, unseen, "s", [27]) is None  # 1z marked: the one tile allowed
