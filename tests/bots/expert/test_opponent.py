"""The opponent as the expert sees it: the chance each discard deals in."""

from __future__ import annotations

import dataclasses

from erma.bots.expert import Estimator, Settings
from erma.game import new_hand, seat_view
from erma.rules import find_ruleset


def test_deal_in_chance_after_the_opponent_declared_ready() -> None:
    """A kind the opponent discarded is safer than a middle 万 it has not; with 报听 the chances rise."""
    rules = find_ruleset("classic64")
    state = new_hand(rules, "danger", dealer=0)
    view = seat_view(state, 0)
    est = Estimator(view, Settings())
    d = est.danger()
    assert all(0 <= x <= 1 for x in d)
    declared = Estimator(dataclasses.replace(view, riichi=(False, True)), Settings()).danger()
    assert sum(declared) > sum(d)
