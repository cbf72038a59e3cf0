"""Hints: waits with unseen counts and what each win is worth, from the seat's own knowledge only."""

from __future__ import annotations

from erma.game import apply, new_hand
from erma.game.hints import hints_for
from erma.rules import find_ruleset

from .helpers import build_deck

QUIET = {"cuo_prob": 0.0, "triplet_offer_prob": 0.0, "start_exchange_enabled": False}


def test_waits_with_unseen_and_worth() -> None:
    rules = find_ruleset("cuopai789", QUIET)
    deck = build_deck(rules, "111z333z555z2345p9s", "123m456m789p56s22z", draws="9m8p6m4s7s", revealed="1m")
    state = new_hand(rules, "hints", dealer=0, deck=deck)
    apply(state, 0, "discard 9s")
    # seat 1 has drawn 9m: discarding it leaves 123m456m789p56s22z, waiting on 4s and 7s
    after = hints_for(state, 1)["after_discard"]
    assert set(after) == {"9m"}
    waits = {w["tile"]: w for w in after["9m"]}
    assert set(waits) == {"4s", "7s"}
    assert waits["4s"]["unseen"] == 4 and waits["7s"]["unseen"] == 4
    # 门清 1 + bonus 1m ×1 on a discard; 门清自摸 1 + bonus 1 self-drawn
    assert waits["4s"]["points"] == 2 and waits["4s"]["points_self"] == 2
    apply(state, 1, "discard 9m")
    between = hints_for(state, 1)["waits"]
    assert [w["tile"] for w in between] == ["4s", "7s"]
    # the dealer drew 8p: 111z333z555z2345p8p; throwing 8p (or 2p/5p) leaves it ready
    assert {"8p"} <= set(hints_for(state, 0)["after_discard"])


def test_hints_reveal_nothing_of_the_opponent() -> None:
    rules = find_ruleset("classic64")
    state = new_hand(rules, "h2", dealer=0)
    seen_before = hints_for(state, 1)
    # changing the opponent's hidden hand must not change the hints
    state.seats[0].counts = list(reversed(state.seats[0].counts))
    assert hints_for(state, 1) == seen_before
