"""Scenarios from fixed walls written in tile notation, one per rule of RULES.md §1, §2 and §5."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from erma.bots import make_bot
from erma.errors import IllegalActionError
from erma.game import EndReason, Phase, WinHow, apply, legal_actions, new_hand
from erma.game.engine import events_for, timeout_action
from erma.game.match import Match
from erma.game.state import GameState
from erma.game.view import view_for
from erma.lab.selfplay import play_hand
from erma.rules import RuleSet, find_ruleset
from erma.tiles import parse, to_mpsz

from .helpers import build_deck

QUIET = {"cuo_prob": 0.0, "triplet_offer_prob": 0.0, "start_exchange_enabled": False}


def cuopai(**over: Any) -> RuleSet:
    return find_ruleset("cuopai789", {**QUIET, **over})


def legal(state: GameState, seat: int) -> list[str]:
    return [a.to_str() for a in legal_actions(state, seat)]


def play(state: GameState, *steps: tuple[int, str]) -> None:
    for seat, action in steps:
        assert action in legal(state, seat), (action, state.phase, legal(state, seat))
        apply(state, seat, action)


def fan_ids(state: GameState) -> dict[str, int]:
    assert state.result is not None
    assert state.result is not None
    return {f.id: f.count for f in state.result.fans}


# --------------------------------------------------------------------------------- robbing (§1.6)

ROB_DEALER = "77s19p19s134567z28p"
ROB_OTHER = "123m456m789p56s22z"


def test_robbing_an_added_kong_scores_as_self_drawn() -> None:
    """RULES §1.12 C4: the dealer adds a kong of 7s, the non-dealer robs it (门清自摸 + 抢杠 + bonus 1m)."""
    rules = cuopai()
    deck = build_deck(rules, ROB_DEALER, ROB_OTHER, draws="7s9m7s", revealed="1m")
    state = new_hand(rules, "rob", dealer=0, deck=deck)
    assert state.bonus_kinds == parse("1m")
    play(state, (0, "discard 1z"))
    assert "win" in legal(state, 1)  # the drawn 7s completes the hand; the player discards it instead
    play(state, (1, "discard 7s"), (0, "pung"), (0, "discard 3z"), (1, "discard 9m"))
    assert "akong 7s" in legal(state, 0)
    play(state, (0, "akong 7s"))
    assert state.phase is Phase.ROB and legal(state, 1) == ["win", "pass"]
    play(state, (1, "win"))
    result = state.result
    assert result is not None and result.how is WinHow.ROB and result.winner == 1
    assert fan_ids(state) == {"fully_concealed_hand": 1, "robbing_the_kong": 1, "bonus_tiles": 1}
    assert result.points == 3 and result.deltas == (-3, 3)
    assert [m.to_notation() for m in state.seats[0].melds] == ["(777s)"]  # the dealer keeps a pung


def test_passing_a_robbing_chance_completes_the_kong() -> None:
    rules = cuopai()
    deck = build_deck(rules, ROB_DEALER, ROB_OTHER, draws="7s9m7s", revealed="1m")
    state = new_hand(rules, "rob", dealer=0, deck=deck)
    play(state, (0, "discard 1z"), (1, "discard 7s"), (0, "pung"), (0, "discard 3z"), (1, "discard 9m"))
    play(state, (0, "akong 7s"), (1, "pass"))
    assert [m.to_notation() for m in state.seats[0].melds] == ["(7777s)"]
    assert state.phase is Phase.TURN and state.actor == 0
    assert state.drawn == parse("1m")[0]  # the replacement draw took the revealed tile from the tail
    draw = [e for e in events_for(state, 1) if e["type"] == "draw"][-1]
    assert draw["tile"] == "1m"  # a revealed tile stays public when drawn


# --------------------------------------------------------------------------- declare ready (§1.8)

RIICHI_DEALER = "111z333z555z2345p9s"
RIICHI_OTHER = "123m456m789p56s22z"


def riichi_state(**over: Any) -> GameState:
    rules = cuopai(**over)
    deck = build_deck(rules, RIICHI_DEALER, RIICHI_OTHER, draws="9m8p6m4s7s")
    state = new_hand(rules, "riichi", dealer=0, deck=deck)
    play(state, (0, "discard 9s"))
    assert "discard 9m riichi" in legal(state, 1) and "discard 2z riichi" not in legal(state, 1)
    play(state, (1, "discard 9m riichi"), (0, "discard 8p"))
    return state


def test_riichi_auto_play_prompt_and_auto_win() -> None:
    state = riichi_state()
    # the non-dealer's 6m was discarded for them; the dealer drew 4s
    autos = [e for e in events_for(state, 0) if e["type"] == "auto"]
    assert autos[-1] == {"type": "auto", "seat": 1, "action": "discard 6m", "v": autos[-1]["v"]}
    assert state.actor == 0 and state.drawn == parse("4s")[0]
    play(state, (0, "discard 4s"))
    assert state.phase is Phase.CLAIM and legal(state, 1) == [
        "win",
        "pass",
    ]  # the prompt on a winning discard
    play(state, (1, "pass"))  # declining keeps the lock; the next draw (7s) wins by itself
    assert state.phase is Phase.END and state.result is not None
    assert state.result is not None and state.result.how is WinHow.SELF and state.result.winner == 1
    ids = fan_ids(state)
    assert ids["heavenly_ready"] == 1 and "declared_ready_concealed" not in ids  # 天听 replaces 门清报听 (C8)
    assert ids["fully_concealed_hand"] == 1
    assert [e["type"] for e in events_for(state, 1)][-2:] == ["auto", "win"]


def test_riichi_furiten_permanent() -> None:
    state = riichi_state(riichi_pass_furiten="permanent")
    play(state, (0, "discard 4s"), (1, "pass"))
    assert state.seats[1].furiten_permanent
    assert state.phase is Phase.END  # a self-draw still wins


def test_riichi_locked_hand_cannot_claim_or_choose() -> None:
    state = riichi_state()
    assert legal(state, 1) == []
    with pytest.raises(IllegalActionError, match="not seat 1's decision"):
        apply(state, 1, "discard 1m")


# ------------------------------------------------------------------------------ 海底捞月 (§1.10)

HAIDI_DEALER = "1199m1199p19s1234z"


def haidi_state(**over: Any) -> GameState:
    rules = cuopai(**over)
    deck = build_deck(rules, HAIDI_DEALER, RIICHI_OTHER, draws="9m", reserve="4s4s4s4s7s7s7s7s")
    state = new_hand(rules, "haidi", dealer=0, deck=deck)
    apply(state, 0, "timeout")  # discards the 14th tile (4z)
    play(state, (1, "discard 9m riichi"))
    guard = 0
    while state.phase not in (Phase.HAIDI, Phase.END):
        apply(state, state.actor, "timeout")
        guard += 1
        assert guard < 200
    return state


def test_haidi_success() -> None:
    state = haidi_state()
    assert state.phase is Phase.HAIDI and state.actor == 1 and state.wall_left == 0
    assert len(legal(state, 1)) == len(state.reserve) == 65
    play(state, (1, "pick 0"))
    assert state.result is not None and state.result.how is WinHow.HAIDI
    assert fan_ids(state)["last_tile_draw"] == 1


def test_haidi_failure_is_a_draw_and_the_dealer_stays() -> None:
    state = haidi_state()
    play(state, (1, "pick 30"))
    assert state.result is not None
    assert state.result.reason is EndReason.DRAW and state.result.deltas == (0, 0)
    match = Match(cuopai(), "m")
    match.current, match.hand_no = state, 1
    match.finish_hand()
    assert match.dealer == 0


def test_haidi_nobody_declared_is_a_draw() -> None:
    rules = cuopai()
    deck = build_deck(rules, HAIDI_DEALER, RIICHI_OTHER, draws="9m", reserve="4s4s4s4s7s7s7s7s")
    state = new_hand(rules, "haidi", dealer=0, deck=deck)
    while state.phase is not Phase.END:
        apply(state, state.actor, "timeout")
    assert state.result is not None and state.result.reason is EndReason.DRAW


# --------------------------------------------------------------------------------- 搓牌 (§1.9.4)


def cuo_state() -> GameState:
    rules = cuopai(cuo_prob=1.0)
    deck = build_deck(rules, RIICHI_DEALER, RIICHI_OTHER, draws="8m", reserve="6z")
    state = new_hand(rules, "cuo", dealer=0, deck=deck)
    play(state, (0, "discard 9s"))
    assert state.phase is Phase.CUO and state.actor == 1
    return state


def test_cuo_from_the_reserve() -> None:
    """C6: a kind with a copy in the reserve: W falls by 1, the reserve keeps its size with the old head."""
    state = cuo_state()
    w, r = state.wall_left, len(state.reserve)
    head = state.wall[state.head]
    assert "cuo 6z" in legal(state, 1) and view_for(state, 1)["cuo_kinds"]
    assert "cuo_kinds" not in view_for(state, 0)
    play(state, (1, "cuo 6z"))
    assert state.wall_left == w - 1 and len(state.reserve) == r
    assert state.reserve[0] == head and state.seats[1].counts[parse("6z")[0]] == 1
    seen_by_dealer = [e for e in events_for(state, 0) if e["type"] in ("cuo", "draw")][-2:]
    assert all("kind" not in e and "tile" not in e for e in seen_by_dealer)


def test_cuo_from_the_wall() -> None:
    state = cuo_state()
    w, r = state.wall_left, len(state.reserve)
    kind = parse("8m")[0]  # only in the wall (at its head)
    assert kind not in state.reserve
    play(state, (1, "cuo 8m"))
    assert state.wall_left == w - 1 and len(state.reserve) == r
    assert state.seats[1].counts[kind] == 1


def test_cuo_declined_draws_normally() -> None:
    state = cuo_state()
    head = state.wall[state.head]
    play(state, (1, "pass"))
    assert state.drawn == head and state.phase is Phase.TURN


# ---------------------------------------------------------------------------- 换牌 (§1.9.2, §1.9.3)


def test_triplet_offer_accepted() -> None:
    rules = cuopai(triplet_offer_prob=1.0)
    deck = build_deck(rules, RIICHI_DEALER, RIICHI_OTHER, draws="8m")
    state = new_hand(rules, "trip", dealer=0, deck=deck)
    play(state, (0, "discard 9s"))
    assert state.phase is Phase.TRIPLET and state.actor == 1
    offer = state.offer
    assert offer is not None and view_for(state, 1)["offer"] and "offer" not in view_for(state, 0)
    w, r = state.wall_left, len(state.reserve)
    before = state.seats[1].counts[offer]
    assert "accept 1m8m9p" in legal(state, 1)
    apply(state, 1, "accept 8m9p1m")  # any order: it says where the given tiles go in the pool
    assert state.seats[1].counts[offer] == before + 3
    assert (state.wall_left, len(state.reserve), state.seats[1].size) == (w, r, 14)
    assert state.phase is Phase.TURN and state.actor == 1
    assert [e for e in events_for(state, 0) if e["type"].startswith("triplet")] == []


def test_triplet_offer_declined_and_only_once() -> None:
    rules = cuopai(triplet_offer_prob=1.0)
    deck = build_deck(rules, RIICHI_DEALER, RIICHI_OTHER, draws="8m")
    state = new_hand(rules, "trip", dealer=0, deck=deck)
    play(state, (0, "discard 9s"), (1, "pass"))
    assert state.phase is Phase.TURN and state.seats[1].triplet_offers == 1
    play(state, (1, "discard 8m"))
    assert state.phase is Phase.TRIPLET and state.actor == 0  # the dealer's own single offer


def test_start_exchange() -> None:
    """C7: the dealer exchanges 5 tiles: hand still 14, W still 44, reserve still 65."""
    rules = find_ruleset("cuopai789", cuo_prob=0.0, triplet_offer_prob=0.0)
    deck = build_deck(rules, RIICHI_DEALER, RIICHI_OTHER, reserve="1s2s3s4s6s")
    state = new_hand(rules, "exchange", dealer=0, deck=deck)
    assert state.phase is Phase.EXCHANGE and state.actor == 0
    reserve_before = Counter(state.reserve)
    hand_before = Counter(state.seats[0].tiles())
    for t in ("1z", "1z", "3z", "5z", "9s"):
        play(state, (0, f"select {t}"))
    play(state, (0, "exchange"))
    assert (state.seats[0].size, state.wall_left, len(state.reserve)) == (14, 44, 65)
    gave = Counter(parse("1z1z3z5z9s"))
    got = Counter(state.seats[0].tiles()) - (hand_before - gave)
    assert Counter(state.reserve) == reserve_before - got + gave
    assert state.actor == 1 and state.phase is Phase.EXCHANGE
    seen = [e for e in events_for(state, 1) if e["type"] == "exchange"]
    assert seen[0]["count"] == 5 and "gave" not in seen[0]
    apply(state, 1, "timeout")  # a timeout exchanges nothing
    assert state.phase is Phase.TURN and state.actor == 0


# ---------------------------------------------------------------------------- 无双 kongs (§2.4)


def test_eight_tile_kong() -> None:
    rules = find_ruleset("wushuang128")
    dealer = "55555555m" + "1234z" + "9m7z"
    deck = build_deck(rules, dealer, "11223344m11z22z3z", tail="1z2z3z4z5z")
    state = new_hand(rules, "ws", dealer=0, deck=deck)
    play(state, (0, "ckong 5m"))
    for _ in range(4):
        play(state, (0, "xkong 5m"))
    melds = state.seats[0].melds
    assert len(melds) == 1 and melds[0].size == 8 and melds[0].is_concealed
    assert state.seats[0].size == 14 - 8 + 5  # five replacement draws
    assert "xkong 5m" not in legal(state, 0)


# ---------------------------------------------------------------------------- match (§1.4, §5)


def test_dealer_rotation_after_a_win_and_a_draw() -> None:
    rules = find_ruleset("classic64")
    match = Match(rules, "rotation-secret")
    bots = [make_bot("random", 1), make_bot("random", 2)]
    seen = set()
    for _ in range(40):
        state = match.next_hand()
        while state.phase is not Phase.END:
            seat = state.actor
            from erma.game import seat_view

            apply(state, seat, bots[seat].choose(seat_view(state, seat), legal_actions(state, seat)))
        old = state.dealer
        result = state.result
        assert result is not None
        match.finish_hand()
        if result.is_win:
            assert match.dealer == result.winner
            seen.add("win")
        else:
            assert match.dealer == old
            seen.add("draw")
        if seen == {"win", "draw"}:
            break
    assert seen == {"win", "draw"}
    assert sum(match.scores) == 0 and len(match.records) == match.hand_no


@pytest.mark.parametrize(
    ("name", "over", "penalty"),
    [("cuopai789", {}, 13), ("classic64", {}, 88), ("classic64", {"fan_cap": 50}, 50)],
)
def test_escape(name: str, over: dict[str, Any], penalty: int) -> None:
    rules = find_ruleset(name, over)
    state = new_hand(rules, "escape", dealer=0)
    apply(state, 1, "escape")  # either seat, at any time
    assert state.result is not None
    assert state.result.to_json() == {
        "reason": "escape",
        "escaper": 1,
        "points": penalty,
        "deltas": [penalty, -penalty],
    }
    with pytest.raises(IllegalActionError, match="over"):
        apply(state, 0, "discard 1m")
    match = Match(rules, "s")
    match.current, match.hand_no = state, 1
    match.finish_hand()
    assert match.over


# ---------------------------------------------------------------------------- timeouts (§5.2, §5.3)


def test_timeout_defaults() -> None:
    rules = cuopai()
    deck = build_deck(rules, ROB_DEALER, ROB_OTHER, draws="7s9m7s", revealed="1m")
    state = new_hand(rules, "timeouts", dealer=0, deck=deck)
    assert timeout_action(state, 0).to_str() == "discard 8p"  # the 14th dealt tile stands for the draw
    play(state, (0, "discard 1z"))
    assert timeout_action(state, 1).to_str() == "win"  # a legal win is always taken
    play(state, (1, "discard 7s"))
    assert legal(state, 0)[:1] == ["pung"]
    apply(state, 0, "timeout")  # claims are passed; the dealer then draws
    assert state.phase is Phase.TURN and state.actor == 0 and state.drawn == parse("9m")[0]
    apply(state, 0, "timeout")
    assert state.seats[0].discards[-1] == parse("9m")[0]  # the drawn tile is discarded
    assert [e["applied"] for e in events_for(state, 0) if e["type"] == "timeout"] == ["pass", "discard 9m"]
    with pytest.raises(IllegalActionError):
        timeout_action(state, 0)  # not seat 0's decision now


def test_timeout_declines_offers() -> None:
    state = cuo_state()
    apply(state, 1, "timeout")
    assert state.phase is Phase.TURN  # 搓牌 declined: a normal draw
    rules = cuopai(triplet_offer_prob=1.0)
    trip = new_hand(rules, "trip", dealer=0, deck=build_deck(rules, RIICHI_DEALER, RIICHI_OTHER, draws="8m"))
    play(trip, (0, "discard 9s"))
    apply(trip, 1, "timeout")
    assert trip.phase is Phase.TURN and trip.seats[1].size == 14


def test_first_dealer_is_drawn_by_the_hand_generator() -> None:
    rules = find_ruleset("classic64")
    dealers = {new_hand(rules, f"d{i}").dealer for i in range(20)}
    assert dealers == {0, 1}
    dice = find_ruleset("classic64", first_dealer="dice")
    assert {new_hand(dice, f"d{i}").dealer for i in range(20)} == {0, 1}
    assert new_hand(rules, "same").dealer == new_hand(rules, "same").dealer


def test_bad_deck_is_rejected() -> None:
    rules = cuopai()
    with pytest.raises(IllegalActionError, match="permutation"):
        new_hand(rules, "x", deck=parse("123m"))


def test_play_hand_is_deterministic() -> None:
    rules = find_ruleset("cuopai789")
    a = play_hand(rules, "det", [make_bot("greedy", 1), make_bot("random", 2)])
    b = play_hand(rules, "det", [make_bot("greedy", 1), make_bot("random", 2)])
    assert a.actions == b.actions and a.result == b.result
    assert to_mpsz(a.wall) == to_mpsz(b.wall)
