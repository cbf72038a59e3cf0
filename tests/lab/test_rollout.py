"""Determinized rollouts (lab): a state built from a seat's view shows that seat the same view, holds the same
unseen tiles, and plays on to the end; the rollout bot is level5 where it does not roll out."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from erma.analysis import shapes
from erma.bots import make_bot
from erma.game import GameState, Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.lab.rollout import RolloutBot, determinize, rollout_values
from erma.lab.selfplay import play_out
from erma.rules import find_ruleset


def _positions(preset: str, hands: int) -> Iterator[tuple[GameState, int]]:
    """Every TURN and CLAIM decision of hands between level5 and greedy."""
    rules = find_ruleset(preset)
    for h in range(hands):
        state = new_hand(rules, f"rollout-test:{h}", h % 2)
        bots = [make_bot("level5", f"t{h}:0"), make_bot("greedy", f"t{h}:1")]
        while state.phase is not Phase.END:
            seat = state.actor
            legal = legal_actions(state, seat)
            if state.phase in (Phase.TURN, Phase.CLAIM):
                yield state, seat
            apply_unchecked(state, seat, bots[seat].choose(seat_view(state, seat, legal), legal))


def _hidden(state: GameState, seat: int) -> Counter[int]:
    """The tiles ``seat`` cannot see: the opponent's concealed tiles and concealed kongs, the wall."""
    opp = state.seats[1 - seat]
    out = Counter(opp.tiles())
    for m in opp.melds:
        if m.is_concealed:
            out.update(m.tiles)
    out.update(state.wall[state.head : state.tail])
    return out


@pytest.mark.parametrize(
    ("preset", "history"), [("classic64", False), ("wushuang128", False), ("classic64", True)]
)
def test_determinized_state_shows_the_same_view(preset: str, history: bool) -> None:
    rules = find_ruleset(preset)
    rng = random.Random(7)
    seen = 0
    for state, seat in _positions(preset, 40):
        view = seat_view(state, seat)
        det = determinize(view, rules, rng, history=history)
        again = seat_view(det, seat)
        assert again.to_json() == view.to_json()
        for name in ("hand", "melds", "visible", "counts", "key", "size", "draws_left", "opponent_melds"):
            assert getattr(again, name) == getattr(view, name), name
        assert _hidden(det, seat) == _hidden(state, seat)
        assert det.seats[1 - seat].size == state.seats[1 - seat].size
        if history and view.riichi[1 - seat]:
            o = det.seats[1 - seat]
            assert shapes.overall(o.key, o.size, 0, view.shapes) == 0  # a declared hand is ready
        seen += 1
    assert seen > 300


def test_determinize_uses_only_the_view() -> None:
    """Two states that show a seat the same view give the same determinization for the same generator."""
    rules = find_ruleset("classic64")
    for state, seat in _positions("classic64", 1):
        view = seat_view(state, seat)
        a = determinize(view, rules, random.Random(3))
        b = determinize(seat_view(determinize(view, rules, random.Random(99)), seat), rules, random.Random(3))
        assert a.wall == b.wall and a.seats[1 - seat].counts == b.seats[1 - seat].counts


@pytest.mark.parametrize("preset", ["classic64", "wushuang128"])
def test_determinized_states_play_to_the_end(preset: str) -> None:
    rules = find_ruleset(preset)
    rng = random.Random(11)
    for i, (state, seat) in enumerate(_positions(preset, 3)):
        if i % 5:
            continue
        det = determinize(seat_view(state, seat), rules, rng)
        play_out(det, [make_bot("greedy", f"p{i}:0"), make_bot("greedy", f"p{i}:1")])
        assert det.result is not None and det.phase is Phase.END


def test_rollout_values_share_samples() -> None:
    """Common random numbers: a candidate listed twice gets the same points on every sample."""
    rules = find_ruleset("classic64")
    for state, seat in _positions("classic64", 2):
        view = seat_view(state, seat)
        if view.phase is Phase.TURN and len(view.legal) >= 2:
            a = view.legal[-1]
            vals = rollout_values(view, [a, a], 4, "s")
            assert vals[0] == vals[1] and len(vals[0]) == 4
            return
    assert rules  # pragma: no cover


def test_other_rule_sets_raise() -> None:
    rules = find_ruleset("cuopai789")
    state = new_hand(rules, "x", 0)
    with pytest.raises(NotImplementedError):
        determinize(seat_view(state, state.actor), rules, random.Random(1))


def test_rollout_bot_is_level5_without_rollouts() -> None:
    """With no decision to roll out, the rollout bot plays level5's game move for move."""
    rules = find_ruleset("classic64")
    for h in range(2):
        games = []
        for first in (RolloutBot(f"r{h}", where=frozenset()), make_bot("level5", f"r{h}")):
            state = new_hand(rules, f"same:{h}", 0)
            bots = [first, make_bot("greedy", f"g{h}")]
            while state.phase is not Phase.END:
                seat = state.actor
                legal = legal_actions(state, seat)
                apply_unchecked(state, seat, bots[seat].choose(seat_view(state, seat, legal), legal))
            games.append(state.actions)
        assert games[0] == games[1]
