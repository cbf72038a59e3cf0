"""The expert's estimate: scored waits, 报听 later, the typical rates, the lookahead's reach, the ron share,
改良."""

from __future__ import annotations

import dataclasses

import pytest

from erma.bots.expert import Estimator, Settings
from erma.game import Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.rules import find_ruleset


def test_a_ready_wait_is_worth_its_scored_points() -> None:
    """classic64: a ready hand's wins are scored with the room's fan table (九莲宝灯 88 on every 万)."""
    rules = find_ruleset("classic64")
    state = new_hand(rules, "value", dealer=0)
    view = seat_view(state, state.actor)
    est = Estimator(view, Settings())
    # 1112345678999m waits on every 万 (九莲宝灯, 88): worth far more than the mean
    from erma.analysis.api import pack
    from erma.tiles import parse

    nine = pack(parse("1112345678999m"))
    p_self, m_self, _, m_ron = est.wait(nine, 13, 0, (), False)
    assert m_self >= 88 and m_ron >= 88 and p_self > 0
    flat = Estimator(view, Settings(value=False)).wait(nine, 13, 0, (), False)
    assert flat[1] < 40  # without scoring, the mean win


def test_a_hand_ready_later_may_declare() -> None:
    """One draw ahead or after a claim, a ready hand is worth the better of playing on and declaring 报听
    (less the margin), horizon by horizon: never less than playing on, more for an open hand whose discard
    wins reach the minimum fan only with 报听's, and the same with ``declare_ahead`` off or where 报听 is not
    allowed."""
    from erma.analysis.api import pack
    from erma.hand import Meld, MeldKind
    from erma.tiles import parse

    rules = find_ruleset("classic64")
    view = seat_view(new_hand(rules, "later", dealer=0), 0)
    # 123m 567m 333z open, 23m 11z concealed: 混一色 alone is short of 8 on a discard win
    melds = (
        Meld(MeldKind.CHOW, 0, claimed=0),
        Meld(MeldKind.CHOW, 4, claimed=4),
        Meld(MeldKind.PUNG, 29, claimed=29),
    )
    key = pack(parse("23m11z"))
    est = Estimator(view, Settings())
    assert est.wait(key, 4, 0, melds, False)[2] == 0 < est.wait(key, 4, 0, melds, True)[2]
    plain = est.ready_race(est.wait(key, 4, 0, melds, False), 10)
    later = est.later_ready(key, 4, 0, melds, 10)
    assert all(x >= y for x, y in zip(later, plain[0], strict=True))
    assert later[10] > plain[0][10]
    off = Estimator(view, Settings(declare_ahead=False)).later_ready(key, 4, 0, melds, 10)
    assert off == plain[0]
    no_riichi = find_ruleset("classic64", {"declare_ready_enabled": False})
    e2 = Estimator(seat_view(new_hand(no_riichi, "later", dealer=0), 0), Settings())
    assert e2.later_ready(key, 4, 0, melds, 10) == e2.ready_race(e2.wait(key, 4, 0, melds, False), 10)[0]


def test_typical_rates_are_settings() -> None:
    """A hand two from ready is valued by rates: a higher slope or value share makes it worth more."""
    from erma.analysis.api import pack
    from erma.tiles import parse

    view = seat_view(new_hand(find_ruleset("classic64"), "rates", dealer=0), 0)
    key = pack(parse("1245789m112234z"))
    assert Estimator(view, Settings()).shanten(key, 13, 0) == 2

    def worth(**kw: float) -> float:
        a, _ = Estimator(view, Settings(depth=2, **kw)).race(key, 13, 0, (), 10)  # type: ignore[arg-type]
        return a[10]

    assert (
        worth(typical_slope=1.5, typical_value=1.0) > worth() > worth(typical_slope=0.25, typical_value=0.5)
    )


def test_two_from_ready_looks_two_draws_ahead() -> None:
    """With ``depth = 3`` (level5's) a hand two from ready is valued by the exact two-draw lookahead, down to
    scored waits, not by the typical rates; 温州 stops at :data:`~erma.bots.expert.WZ_DEPTH`."""
    from erma.analysis.api import pack
    from erma.bots.expert import WZ_DEPTH
    from erma.tiles import parse

    view = seat_view(new_hand(find_ruleset("classic64"), "rates", dealer=0), 0)
    key = pack(parse("1245789m112234z"))
    deep = Estimator(view, Settings(depth=3))
    shallow = Estimator(view, Settings(depth=2))
    a3, _ = deep.race(key, 13, 0, (), 10)
    a2, _ = shallow.race(key, 13, 0, (), 10)
    assert a3[10] != a2[10]
    assert deep._ready and not shallow._ready  # scored waits reached only by the lookahead
    assert Settings().depth == 3
    state = new_hand(find_ruleset("wenzhou2p"), "rates", dealer=0)
    while state.phase is not Phase.TURN:  # past 买底 / 顶底: the 财神 is known
        apply_unchecked(state, state.actor, legal_actions(state, state.actor)[0])
    wz_view = seat_view(state, 0)
    assert wz_view.caishen is not None
    assert Estimator(wz_view, Settings(depth=3)).depth == WZ_DEPTH == 2


def test_a_declared_opponent_discards_what_it_draws() -> None:
    """After the opponent's 报听 its discards are its draws: a ready hand's chance to win on one is the
    whole random-tile chance (``locked_ron``), not the share of an opponent that keeps what it needs."""
    from erma.analysis.api import pack
    from erma.bots.expert import RON_SHARE
    from erma.tiles import parse

    view = seat_view(new_hand(find_ruleset("classic64"), "ron", dealer=0), 0)
    declared = dataclasses.replace(view, riichi=(False, True))
    key = pack(parse("1112345678999m"))
    before = Estimator(view, Settings()).wait(key, 13, 0, (), False)
    after = Estimator(declared, Settings()).wait(key, 13, 0, (), False)
    assert after[2] == pytest.approx(before[2] / RON_SHARE) and after[0] == before[0]
    old = Estimator(declared, Settings(locked_ron=RON_SHARE)).wait(key, 13, 0, (), False)
    assert old[2] == pytest.approx(before[2])


def test_one_from_ready_counts_the_draws_that_widen_it() -> None:
    """改良: a hand one from ready (``123456m 13m 9m 111z 2z``: 2m, 9m or 2z make it ready) may also draw a
    tile that leaves it one from ready with more useful tiles; with ``widen`` its race takes the better of
    swapping and keeping at every horizon, so it is never worth less and worth more once there is time to
    use the swap. Ready hands and hands two from ready are unchanged; the coach keeps its estimate."""
    from erma.analysis.api import pack
    from erma.coach.estimate import FULL
    from erma.tiles import parse

    view = seat_view(new_hand(find_ruleset("classic64"), "widen", dealer=0), 0)
    est = Estimator(view, Settings())
    key = pack(parse("123456m13m9m1112z"))
    assert est.shanten(key, 13, 0) == 1
    swaps = est.widenings(key, 13, (), 10)
    assert swaps and all(0 < w < 1 for w, _ in swaps)
    wide, _ = est.race(key, 13, 0, (), 10, widen=True)
    plain, _ = est.race(key, 13, 0, (), 10)
    assert all(x >= y - 1e-9 for x, y in zip(wide, plain, strict=True))
    assert wide[10] > plain[10] + 1
    for other in ("1234567m9m11122z", "135m789m111z22z4z"):  # ready; two from ready
        k = pack(parse(other))
        assert est.race(k, 13, 0, (), 10, widen=True) == est.race(k, 13, 0, (), 10)
    assert Settings().widen and not FULL.widen


def test_imagined_completions_score_what_the_hand_can_become() -> None:
    """classic64 (minimum 8 fans): a hand valued by its imagined completions scored by the fan table
    (``Settings.samples``). With a chow and a pung of 9m open, every completion is 清一色 (16 fans and
    more); with a pung of 2z (no wind fan for seat 0) instead, 混一色 at best: worth clearly less. The same
    seeds give the same value; without samples there are none (the typical share of the mean win is used
    instead)."""
    from erma.analysis.api import pack
    from erma.hand import Meld, MeldKind
    from erma.tiles import parse

    view = seat_view(new_hand(find_ruleset("classic64"), "far", dealer=0), 0)
    est = Estimator(view, Settings(samples=24), seed="far")
    key = pack(parse("4568m259m"))
    chow = Meld(MeldKind.CHOW, 0, claimed=0)
    flush = est.completions(key, 7, (chow, Meld(MeldKind.PUNG, 8, claimed=8)))
    mixed = est.completions(key, 7, (chow, Meld(MeldKind.PUNG, 28, claimed=28)))
    assert flush >= 16
    assert mixed < flush - 5
    again = Estimator(view, Settings(samples=24), seed="far").completions(
        key, 7, (chow, Meld(MeldKind.PUNG, 28, claimed=28))
    )
    assert again == mixed
    assert Estimator(view, Settings(samples=0)).completions(key, 7, (chow,)) == 0.0


def test_the_opponents_threat_is_scaled_by_settings() -> None:
    """``cost_scale`` multiplies what the opponent's win costs, ``hazard_scale`` each of its turns' hazard
    (capped below 1): either makes a hand far from ready worth less, as each turn it is not won is dearer."""
    from erma.analysis.api import pack
    from erma.tiles import parse

    view = seat_view(new_hand(find_ruleset("classic64"), "threat", dealer=0), 0)
    base = Estimator(view, Settings())
    dear = Estimator(view, Settings(cost_scale=2.0))
    risky = Estimator(view, Settings(hazard_scale=3.0))
    assert dear.cost == pytest.approx(2 * base.cost) and risky.cost == base.cost
    assert all(r == pytest.approx(min(0.95, 3 * h)) for r, h in zip(risky.hazard, base.hazard, strict=True))
    assert any(h > 0 for h in base.hazard)
    key = pack(parse("1245789m112234z"))
    worth = [e.race(key, 13, 0, (), 10)[0][10] for e in (base, dear, risky)]
    assert worth[0] > worth[1] and worth[0] > worth[2]
