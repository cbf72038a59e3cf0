"""温州 wenzhou2p: RULES §3.9 test vectors, scenarios from fixed walls, the match streak."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as hypothesis_st

from erma.analysis.tables import INC
from erma.game import EndReason, HandResult, Phase, WinHow, apply, legal_actions, new_hand
from erma.game.engine import events_for, offered_multiplier
from erma.game.families import wenzhou_wins as wz
from erma.game.match import Match
from erma.game.record import to_record, verify
from erma.game.state import GameState
from erma.game.view import view_for
from erma.rules import RuleSet, find_ruleset
from erma.tiles import parse, parse_tile

from .helpers import build_wenzhou_deck, tile_multiset

NINE_P = parse_tile("9p")


def rules(**over: Any) -> RuleSet:
    return find_ruleset("wenzhou2p", over)


def verdict(
    tiles: str, how: str = "discard", caishen: int = NINE_P, melds: int = 0, **facts: Any
) -> wz.Verdict | None:
    """Classify a hand written as concealed tiles + winning tile (``melds`` declared sets beside it)."""
    concealed, win = tiles.split("+")
    counts = [0] * 34
    for t in parse(concealed) + parse(win):
        counts[t] += 1
    key, jokers = wz.play_key(counts, caishen)
    f = wz.WinFacts(how=how, win_tile=parse_tile(win), **facts)
    return wz.classify(key, sum(counts), jokers, concealed=not melds, facts=f, rules=rules(), caishen=caishen)


def pay(v: wz.Verdict | None, r: RuleSet | None = None, **kw: Any) -> int:
    assert v is not None
    args: dict[str, Any] = {"streak": 0, "buy": False, "top": False, "dealer_won": False}
    args.update({"caishen_winner": 0, "caishen_loser": 0, **kw})
    return wz.settle_win(r or rules(), v, **args).points


# ------------------------------------------------------------------------------ §3.9 vectors


def test_w1_hard_eight_pairs() -> None:
    v = verdict("112233m4455p6677s1z3z+1z", "self")
    assert v is not None and (v.multiplier, v.grade, v.shape) == (4, "double", "eight_pairs")
    assert v.reasons[0].id == "hard_eight_pairs"
    assert pay(v) == 40


def test_w2_soft_eight_pairs() -> None:
    v = verdict("112233m4455p667s9p1z3z+1z")
    assert v is not None and v.multiplier == 2 and v.reasons[0].id == "soft_eight_pairs"
    assert pay(v, caishen_winner=1) == 21
    soft1 = find_ruleset("wenzhou2p", soft_eight_pairs_mult=1)
    counts = [0] * 34
    for t in parse("112233m4455p667s9p1z3z1z"):
        counts[t] += 1
    key, j = wz.play_key(counts, NINE_P)
    f = wz.WinFacts(how="discard", win_tile=parse_tile("1z"))
    v1 = wz.classify(key, 17, j, concealed=True, facts=f, rules=soft1, caishen=NINE_P)
    assert v1 is not None and pay(v1, soft1, caishen_winner=1) == 11


def test_w3_three_caishen() -> None:
    v = verdict("9p9p9p1m4m7m2p5p8p3s6s9s1z2z3z4z+5z")  # no shape
    assert v is not None and v.multiplier == 2 and v.shape == "none" and v.three_caishen
    assert pay(v, caishen_winner=3) == 26
    v = verdict("9p9p9p123m456m789m12p44s+4s")  # a valid shape
    assert v is not None and v.multiplier == 4 and v.reasons[0].id == "three_caishen"
    assert pay(v, caishen_winner=3) == 46


def test_w4_white_is_the_natural_face() -> None:
    five_p = parse_tile("5p")
    v = verdict("4p5z6p123m456m789m11z77s+7s", caishen=five_p)
    assert v is not None and v.multiplier == 2 and v.reasons[0].id == "no_substitute"
    assert wz.play_kind(parse_tile("5z"), five_p) == five_p and wz.play_kind(five_p, five_p) == wz.JOKER


def test_w6_maidi_dingdi() -> None:
    v = verdict("123m456m789m123p4s5p99s+4s", "self", caishen=parse_tile("5p"))  # 5p substitutes 4s
    assert v is not None and v.multiplier == 2
    assert pay(v, buy=True, top=True, caishen_winner=1) == 61
    assert pay(v, buy=True, top=False, caishen_winner=1) == 21


def test_w7_escape() -> None:
    r = rules()
    assert wz.escape_points(r, streak=1, buy=True, top=False, escaper_is_dealer=True) == 320
    assert wz.escape_points(r, streak=0, buy=True, top=True, escaper_is_dealer=False) == 240


def test_w8_dandiao() -> None:
    v = verdict("3s+3s", melds=5, single_left=True)
    assert v is not None and v.multiplier == 4 and v.reasons[0].id == "dandiao"
    assert pay(v) == 40


def test_soft_win_and_maidi_formula() -> None:
    v = verdict("123m456m789m123p4s9p99s+4s")  # 9p substitutes a 4s: soft on a discard
    assert v is not None and v.multiplier == 1 and v.grade == "soft"
    r = rules()
    # bools, as typed (the compiled engine checks argument types)
    flags = ((False, False), (True, False), (False, True), (True, True))
    assert [wz.maidi_term(r, b, d, True) for b, d in flags] == [0, 1, 1, 2]
    assert [wz.maidi_term(r, b, d, False) for b, d in flags] == [0, 0, 1, 2]
    assert verdict("123m456m789m123p4s5s77z+6z") is None


# ----------------------------------------------------------------------------- scenarios

DEALER = "123m456m789m123p4599s1z"  # 17 tiles; the single 1z is a lone honour
OTHER = "111m234p567p789p22s37s"  # 16


def start(seed: str = "wz", maidi: bool = False, **over: Any) -> GameState:
    r = rules(maidi_enabled=maidi, **over)
    deck = build_wenzhou_deck(r, seed, DEALER, OTHER, draws="6s9s", flip="9p")
    return new_hand(r, seed, dealer=0, deck=deck)


def legal(state: GameState, seat: int) -> list[str]:
    return sorted(a.to_str() for a in legal_actions(state, seat))


def test_flip_deal_and_views() -> None:
    state = start()
    assert state.wild == NINE_P and state.flipped == NINE_P
    assert state.seats[0].size == 17 and state.seats[1].size == 16
    assert state.wall_left == 102 and state.family.draws_left(state) == 86  # W11: 86 normal draws, no kongs
    assert tile_multiset(state) == Counter(state.rules.tile_list())
    deal = next(e for e in events_for(state, 1) if e["type"] == "deal")
    assert deal["flipped"] == "9p" and deal["caishen"] == "9p"
    view = view_for(state, 1)
    assert view["caishen"] == "9p" and view["flipped"] == "9p" and view["opponent_hand_count"] == 17
    assert all("tiles" not in e for e in events_for(state, 1) if e.get("seat") == 0)
    kept = start(caishen_flip_removed=False)
    assert kept.wall_left == 103 and kept.wall_public.count(True) == 1


def test_caishen_next_mode() -> None:
    state = start(caishen_mode="next")
    assert state.flipped == NINE_P and state.wild == parse_tile("1p")


def test_lone_honour_first() -> None:
    assert legal(start(), 0) == ["discard 1z"]  # W5: the lone 1z first
    assert "discard 1m" in legal(start(lone_honour_first=False, follow_lone_honour=False), 0)


def test_follow_the_opponents_honour() -> None:
    # W5: singles 4z and 6z → either; the opponent then holds singles 2z and 6z → only 6z; 77z never forced
    r = rules(maidi_enabled=False)
    deck = build_wenzhou_deck(r, "hon", "123m456m789m12p45s4z6z77z", "111m234p567p789p23s2z6z", draws="3s")
    state = new_hand(r, "hon", dealer=0, deck=deck)
    assert legal(state, 0) == ["discard 4z", "discard 6z"]
    apply(state, 0, "discard 6z")
    assert legal(state, 1) == ["discard 6z"]
    assert wz.play_kind(parse_tile("5z"), NINE_P) == NINE_P  # 白板 is a natural 9p here, not an honour


def test_caishen_is_never_discarded() -> None:
    r = rules(maidi_enabled=False)
    deck = build_wenzhou_deck(r, "cs", "9p9p3m456m789m12p456789s", "111m234p567p789p23s6z5m", flip="9p")
    state = new_hand(r, "cs", dealer=0, deck=deck)
    assert "discard 9p" not in legal(state, 0) and "discard 3m" in legal(state, 0)
    r2 = rules(maidi_enabled=False, caishen_discardable=True)
    state = new_hand(r2, "cs", dealer=0, deck=deck)
    assert "discard 9p" in legal(state, 0)


def test_white_pungs_as_the_caishen_kind() -> None:
    r = rules(maidi_enabled=False)
    five = parse_tile("5p")
    deck = build_wenzhou_deck(r, "wh", "123m456m789m12p3s5z6789s", "1119m234p678p12s55z34z", flip="5p")
    state = new_hand(r, "wh", dealer=0, deck=deck)
    assert state.wild == five
    apply(state, 0, "discard 5z")  # 白板 plays as a natural 5p
    assert "pung" in legal(state, 1)
    apply(state, 1, "pung")
    assert state.seats[1].melds[0].tile == five
    assert view_for(state, 0)["melds"][1] == ["(555z)"]
    assert tile_multiset(state) == Counter(r.tile_list())
    assert legal(state, 1) == ["discard 3z", "discard 4z"]  # lone honours first after a claim too


def test_eight_pairs_self_drawn_in_play() -> None:
    r = rules(maidi_enabled=False)
    deck = build_wenzhou_deck(
        r, "ep", "112233m4455p6677s1z3z5s", "456m234p567p78p1238s6z", draws="9s1z", flip="9p"
    )
    state = new_hand(r, "ep", dealer=0, deck=deck)
    apply(state, 0, "discard 3z")
    assert legal(state, 1) == ["discard 6z"]
    apply(state, 1, "discard 6z")
    assert state.actor == 0 and state.drawn == parse_tile("1z") and "win" in legal(state, 0)
    apply(state, 0, "win")
    res = state.result.to_json() if state.result is not None else None
    assert res is not None and res["multiplier"] == 4 and res["fans"][0]["id"] == "hard_eight_pairs"
    assert res["deltas"] == [40, -40] and res["grade"] == "double"
    assert verify(json.loads(json.dumps(to_record(state)))) == []


def test_tianhu() -> None:
    r = rules(maidi_enabled=False)
    deck = build_wenzhou_deck(r, "th", "123m456m789m123p444s99s", "111m234p567p789p23s6z5m")
    state = new_hand(r, "th", dealer=0, deck=deck)
    assert "win" in legal(state, 0)
    apply(state, 0, "win")
    assert state.result is not None and state.result.fans[0].id == "tianhu"
    assert state.result.deltas == (40, -40)


def test_pass_win_guo_shui() -> None:
    # W10: a declined discard win bars discard wins of no higher multiplier until the seat's next draw
    r = rules(maidi_enabled=False)
    deck = build_wenzhou_deck(r, "gs", "5m111s222s333s444s6789s", "123m456p789p55m67m34s9p", flip="9p")
    state = new_hand(r, "gs", dealer=0, deck=deck)
    apply(state, 0, "discard 5m")
    assert "win" in legal(state, 1) and "pung" in legal(state, 1)  # 地胡 ×4 with the 9p as 5s
    state.seats[1].passed_win = 4
    assert "win" not in legal(state, 1)  # only a higher win would be allowed
    state.seats[1].passed_win = 0
    apply(state, 1, "pung")  # declining the win by claiming: the limit holds until the next draw
    assert state.seats[1].passed_win == 4
    none = new_hand(rules(maidi_enabled=False, pass_win_rule="none"), "gs", dealer=0, deck=deck)
    apply(none, 0, "discard 5m")
    apply(none, 1, "pass")
    assert none.seats[1].passed_win == 0


# 过水 played through (RULES §3.4, W10). 9s is the 财神. After its second discard the dealer holds
# 23m 555p 777p 888p 22p 78s 9s and waits on 1m / 4m — hard (×2): the 9s 归位 in 789s — and on 6s or 白板
# (a natural 9s) — soft (×1): the 9s stands in for 1m or 4m. The non-dealer pungs the dealer's 6s, draws
# the fourth 6s and adds it to the pung; with ``rob_kong_counts_as=discard`` robbing it is a ×1 win.
GS_DEALER = "6s23m555p777p888p22p7s9s1s"
GS_OTHER = "147m235689p1466s2z5z5z"


def guo_shui_rob_declined() -> GameState:
    """Play to the dealer declining (``pass``) the ×1 robbing chance on the added 6s kong."""
    r = rules(maidi_enabled=False, rob_kong_counts_as="discard")
    deck = build_wenzhou_deck(r, "gsr", GS_DEALER, GS_OTHER, draws="8s6s4z9m3z5z", tail="9m", flip="9s")
    state = new_hand(r, "gsr", dealer=0, deck=deck)
    for seat, action in ((0, "discard 6s"), (1, "pung"), (1, "discard 2z"), (0, "discard 1s")):
        apply(state, seat, action)
    assert state.drawn == parse_tile("6s") and "akong 6s" in legal(state, 1)
    apply(state, 1, "akong 6s")
    assert state.phase is Phase.ROB and legal(state, 0) == ["pass", "win"]
    assert offered_multiplier(state, 0) == 1
    apply(state, 0, "pass")
    assert state.seats[0].passed_win == 1  # the kong stands; its owner draws the replacement (9m)
    assert state.actor == 1 and state.drawn == parse_tile("9m")
    return state


def test_guo_shui_declined_rob_bars_no_higher_discard_win_until_the_next_draw() -> None:
    state = guo_shui_rob_declined()
    apply(state, 1, "discard 5z")  # 白板 completes the dealer's hand for ×1: barred
    assert state.phase is Phase.CLAIM and offered_multiplier(state, 0) == 1
    assert legal(state, 0) == ["chow 7s", "pass"]
    apply(state, 0, "pass")  # the dealer's own draw (a lone 4z) ends the limit
    assert state.drawn == parse_tile("4z") and state.seats[0].passed_win == 0
    apply(state, 0, "discard 4z")
    apply(state, 1, "discard 5z")  # the same ×1 win is offered again
    assert legal(state, 0) == ["chow 7s", "pass", "win"]
    apply(state, 0, "pass")  # declined in the claim window: with two players the decliner draws at once
    assert state.drawn == parse_tile("3z") and state.seats[0].passed_win == 0
    apply(state, 0, "discard 3z")
    assert state.drawn == parse_tile("5z")  # the non-dealer draws the last 白板 and throws it
    apply(state, 1, "discard 5z")
    assert "win" in legal(state, 0)
    apply(state, 0, "win")
    res = state.result.to_json() if state.result is not None else None
    assert res is not None and (res["multiplier"], res["grade"], res["how"]) == (1, "soft", "discard")
    assert tile_multiset(state) == Counter(state.rules.tile_list())
    assert verify(json.loads(json.dumps(to_record(state)))) == []


def test_guo_shui_a_higher_discard_win_is_offered_before_the_next_draw() -> None:
    state = guo_shui_rob_declined()
    apply(state, 1, "discard 4m")  # 4m makes 234m with the 9s 归位 in 789s: ×2 > the ×1 declined
    assert "win" in legal(state, 0) and offered_multiplier(state, 0) == 2
    apply(state, 0, "win")
    res = state.result.to_json() if state.result is not None else None
    assert res is not None and res["multiplier"] == 2 and res["fans"][0]["id"] == "no_substitute"
    assert verify(json.loads(json.dumps(to_record(state)))) == []


def test_guo_shui_claiming_instead_of_winning_bars_discard_wins_until_the_next_draw() -> None:
    # W10 played: the non-dealer pungs the dealer's first discard 5m instead of winning (地胡 ×4), so no
    # discard win (every one is ×4 at most) is offered until its next draw.
    r = rules(maidi_enabled=False)
    deck = build_wenzhou_deck(
        r, "gs", "5m111s222s333s444s6789s", "123m456p789p55m67m34s9p", draws="8m1z8m", flip="9p"
    )
    state = new_hand(r, "gs", dealer=0, deck=deck)
    apply(state, 0, "discard 5m")
    assert offered_multiplier(state, 1) == 4 and "win" in legal(state, 1)
    apply(state, 1, "pung")
    apply(state, 1, "discard 3s")  # waits 5m / 8m with the 9p as 4s (×1)
    apply(state, 0, "pass")  # (the dealer could pung or kong the 3s)
    assert state.seats[1].passed_win == 4 and state.drawn == parse_tile("8m")
    apply(state, 0, "discard 8m")
    assert offered_multiplier(state, 1) == 1 and legal(state, 1) == ["chow 6m", "pass"]  # the win is barred
    apply(state, 1, "pass")
    assert state.drawn == parse_tile("1z") and state.seats[1].passed_win == 0
    apply(state, 1, "discard 1z")
    apply(state, 0, "discard 8m")
    assert legal(state, 1) == ["chow 6m", "pass", "win"] and offered_multiplier(state, 1) == 1


def test_maidi_phase_and_escape() -> None:
    state = start(maidi=True)
    assert state.phase is Phase.MAIDI and state.actor == 0 and state.seats[0].size == 0
    assert legal(state, 0) == ["maidi", "pass"]
    apply(state, 0, "maidi")
    assert state.phase is Phase.DINGDI and state.actor == 1 and legal(state, 1) == ["dingdi", "pass"]
    apply(state, 1, "timeout")  # a timeout declines
    assert state.stakes == [True, False] and state.phase is Phase.TURN and state.seats[0].size == 17
    assert tile_multiset(state) == Counter(state.rules.tile_list())
    apply(state, 1, "escape")  # m′ as if the dealer had won: b = 1 → 10 × 2 × 8
    assert state.result is not None and state.result.points == 160 and state.result.deltas == (160, -160)
    assert verify(json.loads(json.dumps(to_record(state)))) == []


def _end(state: GameState, result: dict[str, Any]) -> None:
    winner = result.get("winner")
    reason = EndReason(result["reason"])
    win = {"winner": winner, "loser": 1 - winner, "how": WinHow.SELF, "tile": 0} if winner is not None else {}
    state.result = HandResult(reason, (0, 0), hands=("", ""), **win)  # type: ignore[arg-type]
    state.phase = Phase.END


def test_w9_streak_and_redraw() -> None:
    match = Match(rules(), "streak-secret")
    first = match.next_hand()
    dealer = first.dealer
    bases = []
    for _ in range(4):
        state = first if not bases else match.next_hand()
        assert state.dealer == dealer
        bases.append(wz.base_points(state.rules, state.streak))
        _end(state, {"reason": "win", "winner": dealer})
        match.finish_hand()
    assert bases == [10, 20, 30, 40] and match.dealer is None and match.streak == 0
    state = match.next_hand()
    assert state.streak == 0 and state.dealer_drawn
    _end(state, {"reason": "draw"})
    match.finish_hand()
    assert match.dealer == 1 - state.dealer and match.streak == 0  # a 流局 passes the deal


@pytest.mark.parametrize("seed", range(2))
def test_wild_win_detection_equals_brute_force(seed: int) -> None:
    """is_complete (five sets + pair or 八对, 财神 as jokers) against substituting every joker."""
    import itertools
    import random

    from ..analysis import naive

    rng = random.Random(seed)
    r = rules()
    for i in range(8):
        jokers = i % 3
        kinds = rng.sample(range(34), rng.randint(6, 9))
        hand = rng.sample([t for t in kinds for _ in range(4)], 17 - jokers)
        counts = tuple(hand.count(t) for t in range(34))
        key = sum(c << (4 * t) for t, c in enumerate(counts))
        mine = wz.is_complete(key, 17, jokers, True, r)
        expected = naive.eight_pairs_with_jokers(counts, jokers) == -1
        for choice in itertools.combinations_with_replacement(range(34), jokers):
            if expected:
                break
            c = list(counts)
            for t in choice:
                c[t] += 1
            expected = naive.is_regular_win(tuple(c))
        assert mine == expected, (hand, jokers)


def test_three_caishen_in_play() -> None:
    """三财神: holding the three 财神 in play wins at once (here on the dealer's first turn)."""
    r = rules(maidi_enabled=False)
    deck = build_wenzhou_deck(r, "tc", "999p123m456m789m123s44z", "111m234p567p678p23s6z5m", flip="9p")
    state = new_hand(r, "tc", dealer=0, deck=deck)
    assert "win" in legal(state, 0)
    apply(state, 0, "win")
    res = state.result.to_json() if state.result is not None else None
    assert res is not None and res["winner"] == 0
    assert "three_caishen" in {f["id"] for f in res["fans"]}
    assert res["deltas"][0] > 0 and sum(res["deltas"]) == 0
    assert verify(json.loads(json.dumps(to_record(state)))) == []


def test_dandiao_after_five_claims_in_play() -> None:
    """单吊: five pungs reduce the hand to its last tile, and that tile wins (RULES §3.5, seed page 002)."""
    r = rules(maidi_enabled=False)
    dealer = "1m2m3m4m6m3s5p5p5p7p7p7p8p8p8p2p2p"
    other = "11m22m33m44m66m1s5s6s7s8s3s"
    deck = build_wenzhou_deck(r, "dd", dealer, other, draws="1p4p4p6p6p", flip="9s")
    state = new_hand(r, "dd", dealer=0, deck=deck)
    for claimed, fodder in zip(("1m", "2m", "3m", "4m", "6m"), ("1s", "5s", "6s", "7s", "8s"), strict=True):
        apply(state, 0, f"discard {claimed}")
        assert "pung" in legal(state, 1), (claimed, legal(state, 1))
        apply(state, 1, "pung")
        apply(state, 1, f"discard {fodder}")
        if state.phase is Phase.CLAIM:
            apply(state, 0, "pass")
        assert state.actor == 0 and state.phase is Phase.TURN
    assert state.seats[1].size == 1 and len(state.seats[1].melds) == 5
    apply(state, 0, "discard 3s")
    assert "win" in legal(state, 1)
    apply(state, 1, "win")
    res = state.result.to_json() if state.result is not None else None
    assert res is not None and res["winner"] == 1
    assert "dandiao" in {f["id"] for f in res["fans"]} and res["multiplier"] == 4
    assert verify(json.loads(json.dumps(to_record(state)))) == []


def test_robbing_an_added_kong_in_play() -> None:
    """抢杠: the non-dealer adds the 4th 1m to its pung; the dealer, waiting on 1m, robs it."""
    r = rules(maidi_enabled=False)
    dealer = "1m2m3m555p777p888p22p345s"
    other = "11m4s6s8s1p3p6m8m1s2s3s5s7s4m5m"
    deck = build_wenzhou_deck(r, "rb", dealer, other, draws="9m1m", flip="9s")
    state = new_hand(r, "rb", dealer=0, deck=deck)
    apply(state, 0, "discard 1m")
    apply(state, 1, "pung")
    apply(state, 1, "discard 1s")
    assert state.actor == 0 and state.drawn == parse_tile("9m")
    apply(state, 0, "discard 9m")
    assert state.actor == 1 and state.drawn == parse_tile("1m") and "akong 1m" in legal(state, 1)
    apply(state, 1, "akong 1m")
    assert state.phase is Phase.ROB and sorted(legal(state, 0)) == ["pass", "win"]
    apply(state, 0, "win")
    res = state.result.to_json() if state.result is not None else None
    assert res is not None and res["winner"] == 0 and res["how"] == "rob"
    assert [m.to_notation() for m in state.seats[1].melds] == [
        "(111m)"
    ]  # the robbed kong goes back to a pung
    assert verify(json.loads(json.dumps(to_record(state)))) == []


@given(
    counts=hypothesis_st.lists(hypothesis_st.integers(0, 4), min_size=34, max_size=34),
    caishen=hypothesis_st.integers(0, 33),
)
def test_played_key_is_play_key_from_the_physical_key(counts: list[int], caishen: int) -> None:
    """The two-nibble move from the physical key gives the key as played and the jokers that a pass over the
    kinds does, each tile at its play kind (白板 as the 财神's kind, and 白板 as the 财神 itself)."""
    by_kind = 0
    for t, c in enumerate(counts):
        if t != caishen:
            by_kind += INC[wz.play_kind(t, caishen)] * c
    physical = sum(c * INC[t] for t, c in enumerate(counts))
    assert wz.played_key(physical, counts, caishen) == (by_kind, counts[caishen])
    assert wz.play_key(counts, caishen) == (by_kind, counts[caishen])
