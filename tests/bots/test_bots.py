"""Bots: the protocol, determinism, and strength in duplicate games."""

from __future__ import annotations

import pytest

from erma.bots import bot_names, make_bot
from erma.errors import UnknownBotError
from erma.game import legal_actions, new_hand, seat_view
from erma.lab.selfplay import run, wilson
from erma.rules import find_ruleset


def test_make_bot() -> None:
    assert bot_names() == [
        "expert",
        "greedy",
        "greedy-maidi",
        "greedy-plain",
        "level1",
        "level2",
        "level3",
        "level4",
        "level5",
        "nn",
        "random",
    ]
    with pytest.raises(UnknownBotError, match="unknown bot 'smart'"):
        make_bot("smart")


def test_bots_choose_a_legal_action() -> None:
    state = new_hand(find_ruleset("cuopai789"), "bots", dealer=0)
    legal = legal_actions(state, state.actor)
    for name in bot_names():
        assert make_bot(name, 3).choose(seat_view(state, state.actor), legal) in legal


def test_view_of_holds_no_opponent_tiles() -> None:
    state = new_hand(find_ruleset("classic64"), "view", dealer=0)
    view = seat_view(state, 1)
    assert view.counts == tuple(state.seats[1].counts)
    assert view.drawn is None  # not seat 1's turn
    # what seat 1 sees of each kind is its own tiles plus public ones only
    assert list(view.visible) == state.seats[1].counts


@pytest.mark.parametrize("name", ["cuopai789", "classic64", "wushuang128", "wenzhou2p"])
def test_greedy_beats_random_in_duplicate_games(name: str) -> None:
    stats = run(find_ruleset(name), ["greedy", "random"], 40, seed="strength", duplicate=True)
    greedy, rand = stats.wins
    low, _ = wilson(greedy, stats.games)
    _, high = wilson(rand, stats.games)
    assert greedy > 3 * rand and low > high, stats.summary()


def test_runs_are_deterministic() -> None:
    rules = find_ruleset("cuopai789")
    a = run(rules, ["greedy", "random"], 6, seed=9).summary()
    b = run(rules, ["greedy", "random"], 6, seed=9).summary()
    for key in ("seconds", "games_per_second", "actions_per_second"):
        a.pop(key)
        b.pop(key)
    assert a == b
