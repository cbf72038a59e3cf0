"""``win.wins`` (what 报听's legality asks of each wait: the win counted, not built —
:func:`erma.scoring.score_counts`) agrees with ``win.check_win`` (the win built and scored) on every complete
hand the games of the standard presets reach (greedy against random: greedy's hands get complete, random's
claims and discards vary the sets and the waits), at several minimums: 0 (every complete hand wins), 8, 10,
13, 24 and 300 (none wins)."""

from __future__ import annotations

import random

import pytest

from erma.bots import make_bot
from erma.game import Phase, apply, legal_actions, new_hand, seat_view
from erma.game.legal import self_win_tile
from erma.game.state import GameState
from erma.game.win import check_win, win_context, wins
from erma.rules import find_ruleset


def _asked(state: GameState) -> list[tuple[int, int, str]]:
    """The wins legality may ask of this state: the actor's on its draw, on the opponent's discard."""
    seat = state.actor
    if state.phase is Phase.TURN and not state.claimed:
        tile = self_win_tile(state)
        return [(seat, tile, "self")] if tile is not None else []
    if state.phase is Phase.CLAIM and state.last_discard is not None:
        return [(seat, state.last_discard, "discard")]
    return []


@pytest.mark.parametrize("min_fan", [0, 8, 10, 13, 24, 300])
@pytest.mark.parametrize("preset", ["cuopai789", "classic64", "wushuang128"])
def test_wins_agrees_with_check_win(preset: str, min_fan: int) -> None:
    rules = find_ruleset(preset, {"min_fan": min_fan})
    rng = random.Random(f"{preset}:{min_fan}")
    greedy = make_bot("greedy", 1)
    complete = won = 0
    for hand in range(80):
        state = new_hand(rules, f"wins-{hand}")
        while state.phase is not Phase.END:
            for seat, tile, how in _asked(state):
                if win_context(state, seat, tile, how) is None:
                    continue
                complete += 1
                expected = check_win(state, seat, tile, how) is not None
                won += expected
                assert wins(state, seat, tile, how) is expected, (preset, min_fan, hand, seat, tile, how)
            legal = legal_actions(state, state.actor)
            if state.actor == hand % 2:
                action = greedy.choose(seat_view(state, state.actor, legal), legal)
            else:
                action = legal[rng.randrange(len(legal))]
            apply(state, state.actor, action)
    assert complete >= 20, complete  # (random play reaches complete hands: the test asks something)
    if min_fan == 0:
        assert won == complete
    if min_fan == 300:
        assert won == 0
    if min_fan == 8 and preset != "cuopai789":
        assert won > complete // 2  # (万 and honours: most complete hands reach 8 fans)
