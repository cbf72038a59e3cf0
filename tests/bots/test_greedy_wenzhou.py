"""The greedy bot's 温州 value sense: which wins it declines, which waits it keeps (fixed walls)."""

from __future__ import annotations

import dataclasses
from typing import Any

from erma.analysis.tables import INC
from erma.bots.base import BotView
from erma.bots.greedy import GreedyBot, Wait, wz_wait, wz_wait_value
from erma.game import Phase, apply, apply_unchecked, legal_actions, new_hand, seat_view
from erma.game.actions import PASS, WIN, Action
from erma.game.families import wenzhou_wins as wz
from erma.game.state import GameState
from erma.hand import MeldKind
from erma.lab.selfplay import hand_seed
from erma.rules import RuleSet, find_ruleset

from ..game.helpers import build_wenzhou_deck

HONOURS = "1z1z1z2z2z2z3z3z3z4z4z4z6z6z6z7z"  # an opponent that only matters as a seat


def rules(**over: Any) -> RuleSet:
    return find_ruleset("wenzhou2p", {"maidi_enabled": False, **over})


def soft_win_offered() -> tuple[GameState, BotView, list[Action]]:
    """9p is the 财神. The non-dealer, holding two 9p, throws its lone 3z after drawing 1p and waits with
    123m 456m 789m 12p 45s 7s 9p9p: 3p completes 123p, and the two 9p must stand in (45s+9p, 7s+9p) — a 软
    (×1) win on the dealer's second discard, 3p. Sixteen tiles complete the hand, a self-draw is 硬 ×2."""
    r = rules()
    dealer = "1z3p5p6p8p1s2s3s8s6m6m2z2z5z5z6z6z"
    other = "123m456m789m2p45s7s9p9p3z"
    deck = build_wenzhou_deck(r, "soft", dealer, other, draws="1p9m", flip="9p")
    state = new_hand(r, "soft", dealer=0, deck=deck)
    for seat, action in ((0, "discard 1z"), (1, "discard 3z"), (0, "discard 3p")):
        apply(state, seat, action)
    assert state.phase is Phase.CLAIM and state.actor == 1
    return state, seat_view(state, 1), legal_actions(state, 1)


def test_a_soft_discard_win_is_declined_early_and_taken_late() -> None:
    state, view, legal = soft_win_offered()
    assert WIN in legal and view.win_multiplier == 1 and view.jokers == 2
    bot = GreedyBot(5)
    wait = wz_wait(view, view.key, view.size, view.jokers)
    assert wait.m_self >= 2 and wait.m_discard == 1.0 and wait.p_self > 0.15
    assert wz_wait_value(view, wait, my_draw_first=True) > 1  # waiting for a self-draw is worth more
    choice = bot.choose(view, legal)
    assert choice == PASS  # declined, and not claimed instead (a chow would set the 过水 limit)
    assert GreedyBot(5).choose(view, legal) == PASS  # deterministic
    assert GreedyBot(5, value_sense=False).choose(view, legal) == WIN  # the plain bot takes every win
    # the same offer near the end of the wall (8 normal draws left), or worth ×2 now: taken
    late = dataclasses.replace(view, wall_left=view.rules.reserve_tiles + 8)  # type: ignore[union-attr]
    assert wz_wait_value(late, wait, my_draw_first=True) < 1
    assert bot.choose(late, legal) == WIN
    assert bot.choose(dataclasses.replace(view, win_multiplier=2), legal) == WIN
    # declining in a claim window costs nothing under 过水: the seat draws at once and the limit ends
    apply(state, 1, choice)
    assert state.actor == 1 and state.drawn is not None and state.seats[1].passed_win == 0


def test_a_ready_discard_keeps_the_wait_that_wins_hard() -> None:
    # 9p is the 财神; the dealer's 17 tiles 13m 123p 566p 78p 9p 123s 678s. Throwing 5p leaves 2m, which
    # wins 硬 (×2) on a discard (the 9p 归位 in 789p); throwing 1m leaves as many winning tiles (3m 4p 7p
    # and the 9p), each only 软 (×1) on a discard. The plain bot, counting tiles, throws the edge 1m.
    r = rules()
    deck = build_wenzhou_deck(r, "rank", "13m123566789p123678s", HONOURS, flip="9p")
    state = new_hand(r, "rank", dealer=0, deck=deck)
    view, legal = seat_view(state, 0), legal_actions(state, 0)
    assert GreedyBot(1).choose(view, legal) == Action.parse("discard 5p")
    assert GreedyBot(1, value_sense=False).choose(view, legal) == Action.parse("discard 1m")


def reference_wait(view: BotView, key: int, n: int, jokers: int) -> Wait:
    """wz_wait by classifying every kind (no shortcuts)."""
    assert view.rules is not None and view.caishen is not None
    facts = wz.WinFacts(
        how="discard",
        win_tile=0,
        single_left=n == 1 and len(view.melds) == 5,
        melds_have_chow=any(m.kind is MeldKind.CHOW for m in view.melds),
    )
    unseen = w_self = w_disc = 0
    v_self = v_disc = 0.0
    for t in view.kinds:
        u = view.unseen(t)
        if not u:
            continue
        unseen += u
        p = view.play(t)
        k, j = (key, jokers + 1) if p == wz.JOKER else (key + INC[p], jokers)
        v = wz.classify(
            k, n + 1, j, concealed=not view.melds, facts=facts, rules=view.rules, caishen=view.caishen
        )
        if v is None:
            continue
        w_self += u
        v_self += u * max(2, v.multiplier)
        if p != wz.JOKER:
            w_disc += u
            v_disc += u * v.multiplier
    return Wait(
        w_self / unseen,
        v_self / w_self if w_self else 0.0,
        w_disc / unseen,
        v_disc / w_disc if w_disc else 0.0,
    )


def test_the_wait_shortcuts_agree_with_classify() -> None:
    """wz_wait skips classify where only a five-sets win can come; every claim window of some self-play
    hands (with and without 八对 or declared sets) gives the same wait both ways."""
    r = find_ruleset("wenzhou2p")
    bots = [GreedyBot(1), GreedyBot(2)]
    checked = 0
    for i in range(12):
        state = new_hand(r, hand_seed("wz-wait", i))
        while state.phase is not Phase.END:
            seat = state.actor
            legal = legal_actions(state, seat)
            view = seat_view(state, seat)
            if state.phase is Phase.CLAIM:
                got = wz_wait(view, view.key, view.size, view.jokers)
                assert got == reference_wait(view, view.key, view.size, view.jokers), state.actions
                checked += 1
            apply_unchecked(state, seat, bots[seat].choose(view, legal))
    assert checked > 50
