"""Value over speed (``Settings.value_jump``): a slower discard of higher imagined-completion value."""

from __future__ import annotations

from dataclasses import replace

import pytest

from erma.analysis.tables import INC
from erma.bots.expert import Estimator, ExpertBot, Settings
from erma.game import Kind, Phase
from erma.game.seatview import SeatView
from erma.rules import find_ruleset
from tests.bots.expert.test_policy import greedy_decisions


def _after(view: SeatView, est: Estimator, tile: int) -> tuple[int, int]:
    """The concealed key and shanten after discarding ``tile``."""
    k = view.key - INC[view.play(tile)]
    return k, est.shanten(k, view.size - 1, 0)


def test_off_by_default() -> None:
    assert Settings().value_jump == 0.0


@pytest.mark.parametrize("name", ["classic64", "cuopai789"])
def test_value_jump_plays_a_same_shanten_discard_of_higher_value(name: str) -> None:
    """With a jump, a changed discard keeps level5's shanten, has fewer unseen useful tiles and imagined
    completions worth at least the jump more; the same for a seed; none changes in cuopai789 (minimum 1 fan)
    nor once the opponent has declared."""
    rules = find_ruleset(name)
    jump = 4.0
    settings = Settings(value_jump=jump)
    turns = differ = 0
    for g, state, seat, legal, view in greedy_decisions(rules, f"value_jump:{name}", 6):
        if state.phase is not Phase.TURN:
            continue
        plain = ExpertBot(g).choose(view, legal)
        got = ExpertBot(g, settings=settings).choose(view, legal)
        assert got == ExpertBot(g, settings=settings).choose(view, legal)
        turns += 1
        if got == plain:
            continue
        assert name == "classic64" and not view.riichi[1 - seat]
        est = Estimator(view, settings, g)
        far = Estimator(view, replace(settings, samples=settings.far_samples), g)
        n = view.size - 1
        (k0, s0), (k1, s1) = _after(view, est, plain.tile), _after(view, est, got.tile)
        assert got.kind is Kind.DISCARD and s1 == s0 and 1 <= s0 <= 3
        u0 = sum(u for u, _, _ in est.improving(k0, n, 0, s0))
        u1 = sum(u for u, _, _ in est.improving(k1, n, 0, s1))
        assert u1 < u0
        assert far.completions(k1, n, view.melds) >= far.completions(k0, n, view.melds) + jump
        differ += 1
    assert turns >= 20
    assert (differ > 0) == (name == "classic64")
