"""The learned value of a hand far from ready (erma.bots.expert.learned) and level5's early discards by it."""

from __future__ import annotations

import pytest

from erma.analysis.tables import INC
from erma.bots.expert import Estimator, ExpertBot, Settings
from erma.bots.expert.learned import FAR_WEIGHTS, FEATURES, far_features, far_value, value_honours
from erma.game import Kind, Phase
from erma.rules import find_ruleset
from tests.bots.expert.test_policy import greedy_decisions


def test_features_count_the_hand_after_the_discard() -> None:
    """On real views of classic64: one entry per name; honours, lone honours and 万 ranks as counted by hand;
    a hand without honours is flagged (the 清一色 route)."""
    rules = find_ruleset("classic64")
    seen = 0
    for _, state, seat, _, view in greedy_decisions(rules, "learned:features", 3):
        if state.phase is not Phase.TURN or view.melds:
            continue
        t = next(t for t in range(34) if view.counts[t])
        c = list(view.counts)
        c[t] -= 1
        f = dict(
            zip(
                FEATURES,
                far_features(view, c, view.key - INC[t], view.size - 1, 2, 20, value_honours(view)),
                strict=True,
            )
        )
        assert f["bias"] == 1.0 and f["shanten"] == 2.0 and f["useful"] == 2.0
        assert f["honours"] == sum(c[27:34])
        assert f["lone_honours"] == sum(1 for x in c[27:34] if x == 1)
        assert f["no_honours"] == (1.0 if sum(c[27:34]) == 0 else 0.0)
        assert f["ranks"] == sum(1 for x in c[:9] if x)
        assert f["closed"] == 1.0 and f["open_sets"] == 0.0
        assert f["turn"] == len(view.discards[seat]) / 10
        seen += 1
    assert seen >= 10


def test_value_is_the_weights_dot_product() -> None:
    assert far_value((1.0, -2.0, 0.5), (3.0, 1.0, 4.0)) == pytest.approx(3.0)
    assert far_value((), (1.0,)) == 0.0
    assert len(FAR_WEIGHTS) in (0, len(FEATURES))


def _after(view: object, tile: int) -> tuple[int, int, int]:
    v = view  # a SeatView
    return v.key - INC[tile], v.size - 1, 0  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["classic64", "cuopai789"])
def test_early_discards_by_the_learned_value(name: str) -> None:
    """With weights (``Settings.far_weights``; here a value that prefers keeping honours), a hand two or
    more from ready after the discard (``learned_from``) plays the discard of highest learned value among
    those of the lowest shanten within ``learned_keep`` useful tiles of the most, where a win needs 8 fans
    or more (classic64; in cuopai789 level5 plays as without weights). Its choices are efficient and the same
    for a seed, and some differ from level5's in classic64."""
    rules = find_ruleset(name)
    weights = tuple(3.0 if f == "honours" else 0.0 for f in FEATURES)
    settings = Settings(far_weights=weights, learned_from=2)
    early = differ = 0
    for g, state, seat, legal, view in greedy_decisions(rules, f"learned:{name}", 8):
        if state.phase is not Phase.TURN or view.riichi[1 - seat]:
            continue
        plain = ExpertBot(g).choose(view, legal)
        est = Estimator(view, settings, g)
        if plain.kind is not Kind.DISCARD or plain.riichi or est.shanten(*_after(view, plain.tile)) < 2:
            continue
        got = ExpertBot(g, settings=settings).choose(view, legal)
        assert got == ExpertBot(g, settings=settings).choose(view, legal)
        early += 1
        if got == plain:
            continue
        assert name == "classic64"
        s = est.shanten(*_after(view, plain.tile))
        assert got.kind is Kind.DISCARD and est.shanten(*_after(view, got.tile)) == s
        useful = {
            a.tile: sum(u for u, _, _ in est.improving(*_after(view, a.tile), s))
            for a in legal
            if a.kind is Kind.DISCARD and est.shanten(*_after(view, a.tile)) == s
        }
        assert useful[got.tile] >= max(useful.values()) - settings.learned_keep
        differ += 1
    assert early >= 10
    assert (differ > 0) == (name == "classic64")
