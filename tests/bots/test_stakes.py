"""买底 / 顶底 as the bots weigh them: level3 and level4 (greedy) never raise, greedy-maidi buys as dealer,
level5 answers too."""

from __future__ import annotations

from erma.bots import make_bot
from erma.bots.stakes import Stakes, stake_choice
from erma.game import Kind, Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.game.actions import Action
from erma.rules import find_ruleset

NAMES = ("level3", "level4", "greedy-maidi", "level5")


def _after_maidi():  # type: ignore[no-untyped-def]
    state = new_hand(find_ruleset("wenzhou2p"), "stakes", dealer=0)
    assert state.phase is Phase.MAIDI
    apply_unchecked(state, state.actor, Action(Kind.MAIDI))
    assert state.phase is Phase.DINGDI
    return state


def test_each_level_weighs_its_own_stakes() -> None:
    state = new_hand(find_ruleset("wenzhou2p"), "stakes", dealer=0)
    legal = legal_actions(state, state.actor)
    view = seat_view(state, state.actor)
    chosen = {name: make_bot(name).choose(view, legal).kind for name in NAMES}
    assert chosen == {
        "level3": Kind.PASS,
        "level4": Kind.PASS,
        "greedy-maidi": Kind.MAIDI,
        "level5": Kind.MAIDI,
    }

    state = _after_maidi()
    legal = legal_actions(state, state.actor)
    view = seat_view(state, state.actor)
    assert Action(Kind.DINGDI) in legal
    chosen = {name: make_bot(name).choose(view, legal).kind for name in NAMES}
    assert chosen == {
        "level3": Kind.PASS,
        "level4": Kind.PASS,
        "greedy-maidi": Kind.PASS,
        "level5": Kind.DINGDI,
    }


def test_stake_choice_by_setting() -> None:
    state = _after_maidi()
    legal = legal_actions(state, state.actor)
    view = seat_view(state, state.actor)
    assert [stake_choice(view, legal, s).kind for s in Stakes] == [Kind.PASS, Kind.PASS, Kind.DINGDI]
