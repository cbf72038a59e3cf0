"""The judgements of :mod:`erma.server.current` on their own: which hand or decision a message answers, and
what an earlier view offers once its decision is taken."""

from __future__ import annotations

from erma.server import protocol as P
from erma.server.current import action_refusal, next_refusal, open_offer


def act(**fields: object) -> P.Act:
    return P.Act.model_validate({"type": "action", "match": "m", "seq": 1, "action": "pass", **fields})


def test_an_action_names_the_hand_and_decision_it_answers() -> None:
    assert action_refusal(act(), 3, None, 0) is None  # an older client's action: not judged here
    assert action_refusal(act(hand=3, decision=0), 3, None, 0) is None
    code, message = action_refusal(act(hand=2), 3, None, 0) or ("", "")
    assert code == "stale" and "hand 2" in message
    code, message = action_refusal(act(hand=3, decision=1), 3, None, 0) or ("", "")
    assert code == "stale" and "not been offered" in message


def test_a_next_counts_only_between_hands_for_the_next_hand() -> None:
    nxt = P.Next.model_validate({"type": "next", "match": "m"})
    assert next_refusal(nxt, 0, between=True) is None
    assert (next_refusal(nxt, 4, between=False) or ("",))[0] == "stale"
    named = P.Next.model_validate({"type": "next", "match": "m", "hand": 5})
    assert next_refusal(named, 4, between=True) is None
    assert (next_refusal(named, 3, between=True) or ("",))[0] == "stale"
    assert (next_refusal(named, 4, between=False) or ("",))[0] == "stale"


def test_a_view_whose_decision_was_taken_offers_nothing() -> None:
    view = {"decision": 4, "legal": ["discard 1m"], "hints": {"after_discard": {}, "waits": []}}
    assert open_offer(view, 4) is view  # still open
    taken = open_offer(view, 5)
    assert taken["legal"] == [] and taken["hints"] == {"waits": []} and taken["decision"] == 4
    assert view["legal"] == ["discard 1m"]  # (the stream's own copy is not changed)
