"""Hints: waits with unseen counts and what each win is worth, from the seat's own knowledge only."""

from __future__ import annotations

from erma.game import apply, new_hand
from erma.game.hints import hints_for
from erma.rules import find_ruleset
from erma.tiles import parse_tile

from .helpers import build_deck, build_wenzhou_deck

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


def test_wenzhou_waits_with_the_caishen_as_jokers() -> None:
    """温州: waits read with the 财神 wild (the 财神 one of them), worth as settled, 软/硬/双翻 shown."""
    rules = find_ruleset("wenzhou2p", {"maidi_enabled": False})
    dealer = "1z3p5p6p8p1s2s3s8s6m6m2z2z5z5z6z6z"
    other = "123m456m789m2p45s7s9p9p3z"  # two 9p (the 财神) and a lone 3z
    deck = build_wenzhou_deck(rules, "hwz", dealer, other, draws="1p9m", flip="9p")
    state = new_hand(rules, "hwz", dealer=0, deck=deck)
    # not ready, but two 财神 held: a third one drawn wins (三财神 without a shape, ×2; 财神钱 2 × 3)
    assert hints_for(state, 1)["waits"] == [
        {
            "tile": "9p",
            "unseen": 1,
            "points": None,
            "points_self": 26,
            "multiplier": None,
            "multiplier_self": 2,
        }
    ]
    apply(state, 0, "discard 1z")
    # seat 1 drew 1p; throwing the lone 3z (its only legal discard) leaves 123m 456m 789m 12p 45s 7s 9p9p
    after = hints_for(state, 1)["after_discard"]
    assert set(after) == {"3z"}
    waits = {w["tile"]: w for w in after["3z"]}
    assert set(waits) == {"3p", "3s", "4s", "6s", "7s", "9p"}
    # 3p: the two 9p stand in (软 ×1) on a discard, 硬 ×2 self-drawn; 财神钱 +2 (the opponent's are hidden)
    assert waits["3p"] == {
        "tile": "3p",
        "unseen": 4,
        "points": 12,
        "points_self": 22,
        "multiplier": 1,
        "multiplier_self": 2,
    }
    # the last 9p makes 三财神 with a shape (双翻 ×4, 财神钱 doubled); it is never discarded
    assert (waits["9p"]["points"], waits["9p"]["points_self"], waits["9p"]["multiplier_self"]) == (
        None,
        46,
        4,
    )
    assert waits["4s"]["unseen"] == 3  # seat 1 holds one
    apply(state, 1, "discard 3z")
    between = hints_for(state, 1)["waits"]
    assert [w["tile"] for w in between] == ["3p", "9p", "3s", "4s", "6s", "7s"]
    # nothing of the opponent's hidden hand shows: hand the dealer the last 财神 (it lowers 财神钱)
    before = hints_for(state, 1)
    state.seats[0].remove(parse_tile("6m"))
    state.seats[0].add(parse_tile("9p"))
    assert hints_for(state, 1) == before
