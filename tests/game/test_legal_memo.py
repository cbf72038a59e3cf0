"""The opt-in memo of legal_actions (GameState.legal_memo) gives what the engine computes afresh."""

from __future__ import annotations

import pytest

from erma.bots import make_bot
from erma.game import apply, legal_actions, seat_view
from erma.game.match import Match
from erma.game.state import Phase
from erma.rules.ruleset import find_ruleset


@pytest.mark.parametrize("rules", ["cuopai789", "classic64", "wushuang128", "wenzhou2p"])
def test_memo_equals_fresh_at_every_step(rules: str) -> None:
    hits = 0
    for g in range(6):
        state = Match(find_ruleset(rules), f"memo{g}").next_hand()
        state.legal_memo = {}
        bots = [make_bot("greedy", g), make_bot("random", g)]
        while state.phase is not Phase.END:
            seat = state.actor
            for s in (seat, 1 - seat, seat):  # the second call for the actor is a memo hit
                memoised = legal_actions(state, s)
                memo, state.legal_memo = state.legal_memo, None
                assert memoised == legal_actions(state, s)
                state.legal_memo = memo
            hits += 1
            legal = legal_actions(state, seat)
            legal.clear()  # a caller's list is its own: the memo is not changed through it
            legal = legal_actions(state, seat)
            assert legal
            apply(state, seat, bots[seat].choose(seat_view(state, seat), legal))
    assert hits > 60
