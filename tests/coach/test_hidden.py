"""The review reads only the seat's view: dealing the opponent's concealed tiles, the hidden wall and the
reserve again (consistently with what the seat sees) changes no decision's review."""

from __future__ import annotations

import random

import pytest

from erma.bots import make_bot
from erma.coach.review import review_decision
from erma.game import Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.rules import find_ruleset
from tests.game.test_properties import reshuffled

PRESETS = ["cuopai789", "classic64", "wushuang128", "wenzhou2p"]


@pytest.mark.parametrize("name", PRESETS)
def test_review_does_not_change_when_hidden_tiles_are_dealt_again(name: str) -> None:
    rules = find_ruleset(name, {"cuo_prob": 0.3, "triplet_offer_prob": 0.3} if name == "cuopai789" else {})
    rng = random.Random(name)
    compared = changed = 0
    for g in range(2):
        state = new_hand(rules, f"coach-hidden:{name}:{g}", dealer=g % 2)
        players = [make_bot("level5", g), make_bot("level3", g + 1)]
        step = 0
        while state.phase is not Phase.END:
            seat = state.actor
            legal = legal_actions(state, seat)
            action = players[seat].choose(seat_view(state, seat), legal)
            if len(legal) > 1 and step % 2 == 0:
                other = reshuffled(state, seat, rng)
                view = seat_view(state, seat)
                assert seat_view(other, seat) == view  # the premise: the seat sees the same
                changed += other.seats[1 - seat].counts != state.seats[1 - seat].counts
                a = review_decision(view, legal, action, seed="h", samples=4, step=step)
                b = review_decision(
                    seat_view(other, seat), legal_actions(other, seat), action, seed="h", samples=4, step=step
                )
                assert a == b, (name, g, step)
                compared += 1
            apply_unchecked(state, seat, action)
            step += 1
    assert compared >= 10 and changed >= compared // 2, (compared, changed)
