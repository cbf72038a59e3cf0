"""The expert bot and the levels: legal choices, no hidden state read, the same estimate for every choice."""

from __future__ import annotations

import random

import pytest

from erma.bots import make_bot
from erma.bots.expert import Estimator, ExpertBot, Settings
from erma.game import Kind, Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.rules import find_ruleset
from tests.game.test_properties import reshuffled

PRESETS = ["cuopai789", "classic64", "wushuang128", "wenzhou2p"]
LEVELS = ["level1", "level2", "level3", "level4", "level5"]


@pytest.mark.parametrize("name", PRESETS)
def test_choices_do_not_change_when_hidden_tiles_are_dealt_again(name: str) -> None:
    """At every third decision of a few hands, the seat's view is kept and the opponent's concealed tiles,
    the hidden wall and the reserve are dealt again: the expert (a fresh one, same seed) chooses the same."""
    rules = find_ruleset(name, {"cuo_prob": 0.3, "triplet_offer_prob": 0.3} if name == "cuopai789" else {})
    rng = random.Random(name)
    compared = changed = 0
    for g in range(3):
        state = new_hand(rules, f"hidden:{name}:{g}", dealer=g % 2)
        players = [make_bot("greedy", g), make_bot("greedy", g + 1)]
        step = 0
        while state.phase is not Phase.END:
            seat = state.actor
            legal = legal_actions(state, seat)
            if step % 3 == 0:
                other = reshuffled(state, seat, rng)
                view = seat_view(state, seat)
                assert seat_view(other, seat) == view  # the premise: the seat sees the same
                changed += other.seats[1 - seat].counts != state.seats[1 - seat].counts
                a = make_bot("level5", f"x{step}").choose(view, legal)
                b = make_bot("level5", f"x{step}").choose(seat_view(other, seat), legal_actions(other, seat))
                assert a == b, (name, g, step)
                compared += 1
            apply_unchecked(state, seat, players[seat].choose(seat_view(state, seat), legal))
            step += 1
    assert compared > 10 and changed > compared // 2  # the hidden tiles did differ


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("level", LEVELS)
def test_levels_play_whole_hands_legally(name: str, level: str) -> None:
    rules = find_ruleset(name)
    for g in range(2):
        state = new_hand(rules, f"levels:{g}")
        bots = [make_bot(level, g), make_bot("greedy", g)]
        while state.phase is not Phase.END:
            seat = state.actor
            legal = legal_actions(state, seat)
            a = bots[seat].choose(seat_view(state, seat), legal)
            assert a in legal
            apply_unchecked(state, seat, a)


def test_make_bot_names_the_level() -> None:
    assert [make_bot(x).name for x in LEVELS] == LEVELS
    assert isinstance(make_bot("level5"), ExpertBot)


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


def test_deal_in_chance_after_the_opponent_declared_ready() -> None:
    """A kind the opponent discarded is safer than a middle 万 it has not; with 报听 the chances rise."""
    rules = find_ruleset("classic64")
    state = new_hand(rules, "danger", dealer=0)
    view = seat_view(state, 0)
    est = Estimator(view, Settings())
    d = est.danger()
    assert all(0 <= x <= 1 for x in d)
    declared = Estimator(view.__class__(**{**_fields(view), "riichi": (False, True)}), Settings()).danger()
    assert sum(declared) > sum(d)


def _fields(view):  # type: ignore[no-untyped-def]
    return {f: getattr(view, f) for f in view.__dataclass_fields__}


def test_stakes_dealer_raises_and_a_lone_dingdi_is_declined() -> None:
    rules = find_ruleset("wenzhou2p")
    state = new_hand(rules, "stakes", dealer=0)
    assert state.phase is Phase.MAIDI
    legal = legal_actions(state, state.actor)
    assert make_bot("level5").choose(seat_view(state, state.actor), legal).kind is Kind.MAIDI
    assert make_bot("level3").choose(seat_view(state, state.actor), legal).kind is Kind.PASS


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
    declared = view.__class__(**{**_fields(view), "riichi": (False, True)})
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


@pytest.mark.parametrize("name", ["classic64", "wenzhou2p"])
def test_claims_by_the_estimate_outside_wenzhou(name: str) -> None:
    """level5 decides claims by the estimate (``Settings.own``), except in 温州 (``wz_claims`` off), where
    they stay greedy's."""
    rules = find_ruleset(name)
    seen = 0
    for g in range(4):
        state = new_hand(rules, f"claims:{g}", dealer=g % 2)
        players = [make_bot("greedy", g), make_bot("greedy", g + 1)]
        while state.phase is not Phase.END:
            seat = state.actor
            legal = legal_actions(state, seat)
            view = seat_view(state, seat)
            if state.phase is Phase.CLAIM and any(a.kind in (Kind.CHOW, Kind.PUNG) for a in legal):
                bot = ExpertBot(g)
                got = bot.choose(view, legal)
                if name == "wenzhou2p":
                    assert got == bot.greedy.choose(view, legal)
                elif Kind.WIN not in {a.kind for a in legal}:
                    assert got == bot._claim(view, Estimator(view, bot.settings, bot.seed), legal)
                seen += 1
            apply_unchecked(state, seat, players[seat].choose(view, legal))
    assert seen >= 5


def test_exchange_pick_stops_at_the_rules_limit() -> None:
    from erma.bots.expert import exchange_pick

    rules = find_ruleset("cuopai789", {"start_exchange_max": 1})
    state = new_hand(rules, "ex3", dealer=0)
    view = seat_view(state, 0)
    unseen = [view.unseen(t) for t in range(34)]
    assert exchange_pick(view, unseen, "s", [27]) is None  # 1z marked: the one tile allowed


def test_cuo_that_completes_the_hand_is_the_win() -> None:
    """搓牌 draws the tile chosen: a kind that completes the hand is a self-drawn win, worth its points (the
    estimate of before valued it as a hand about to discard)."""
    import dataclasses

    from erma.analysis.api import pack
    from erma.tiles import parse

    view = seat_view(new_hand(find_ruleset("classic64"), "cuo", dealer=0), 0)
    tiles = parse("1112345678999m")
    ready = dataclasses.replace(view, key=pack(tiles), size=13, melds=(), jokers=0)
    est = Estimator(ready, Settings())
    bot = ExpertBot(0)
    won = bot.cuo_win(ready, est, 4)  # 5m: 九莲宝灯
    assert won is not None and won >= 88
    assert bot.cuo_win(ready, est, 27) is None  # 1z completes nothing
