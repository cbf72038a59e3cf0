"""The expert bot (level5) and the levels choosing: legal choices, no hidden state read, claims by the
estimate outside 温州, 搓牌 that completes the hand."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from erma.bots import make_bot
from erma.bots.expert import Estimator, ExpertBot, Settings
from erma.game import Action, Kind, Phase, SeatView, apply_unchecked, legal_actions, new_hand, seat_view
from erma.game.state import GameState
from erma.rules import RuleSet, find_ruleset
from tests.game.test_properties import reshuffled

PRESETS = ["cuopai789", "classic64", "wushuang128", "wenzhou2p"]
LEVELS = ["level1", "level2", "level3", "level4", "level5"]


def greedy_decisions(
    rules: RuleSet, tag: str, games: int
) -> Iterator[tuple[int, GameState, int, list[Action], SeatView]]:
    """Every decision of ``games`` hands between two greedy bots (hand g: seed ``f"{tag}:{g}"``, dealer
    ``g % 2``), as (g, state, seat, legal, view); greedy's move is applied once the caller has looked."""
    for g in range(games):
        state = new_hand(rules, f"{tag}:{g}", dealer=g % 2)
        players = [make_bot("greedy", g), make_bot("greedy", g + 1)]
        while state.phase is not Phase.END:
            seat = state.actor
            legal = legal_actions(state, seat)
            view = seat_view(state, seat)
            yield g, state, seat, legal, view
            apply_unchecked(state, seat, players[seat].choose(view, legal))


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


def test_stakes_dealer_raises_and_a_lone_dingdi_is_declined() -> None:
    rules = find_ruleset("wenzhou2p")
    state = new_hand(rules, "stakes", dealer=0)
    assert state.phase is Phase.MAIDI
    legal = legal_actions(state, state.actor)
    assert make_bot("level5").choose(seat_view(state, state.actor), legal).kind is Kind.MAIDI
    assert make_bot("level3").choose(seat_view(state, state.actor), legal).kind is Kind.PASS


@pytest.mark.parametrize("name", ["classic64", "wenzhou2p"])
def test_claims_by_the_estimate_outside_wenzhou(name: str) -> None:
    """level5 decides claims by the estimate (``Settings.own``), except in 温州 (``wz_claims`` off), where
    they stay greedy's."""
    rules = find_ruleset(name)
    seen = 0
    for g, state, _, legal, view in greedy_decisions(rules, "claims", 4):
        if state.phase is Phase.CLAIM and any(a.kind in (Kind.CHOW, Kind.PUNG) for a in legal):
            bot = ExpertBot(g)
            got = bot.choose(view, legal)
            if name == "wenzhou2p":
                assert got == bot.greedy.choose(view, legal)
            elif Kind.WIN not in {a.kind for a in legal}:
                assert got == bot._claim(view, Estimator(view, bot.settings, bot.seed), legal)
            seen += 1
    assert seen >= 5


def test_claim_margin_holds_claims_back() -> None:
    """``claim_margin``: a claim must beat passing by that many points; with a margin no claim can reach,
    level5 passes every claim it would have made (and still takes every win)."""
    import dataclasses

    rules = find_ruleset("classic64")
    made = held = 0
    for g, state, _, legal, view in greedy_decisions(rules, "margin", 6):
        if state.phase is Phase.CLAIM and any(a.kind in (Kind.CHOW, Kind.PUNG, Kind.KONG) for a in legal):
            plain = ExpertBot(g).choose(view, legal)
            never = ExpertBot(g, settings=dataclasses.replace(Settings(), claim_margin=1e9))
            got = never.choose(view, legal)
            assert got.kind in (Kind.PASS, Kind.WIN)
            if plain.kind in (Kind.CHOW, Kind.PUNG, Kind.KONG):
                made += 1
                held += got.kind is Kind.PASS
    assert made >= 3 and held == made


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


@pytest.mark.parametrize("name", ["classic64", "cuopai789"])
def test_far_discards_by_imagined_completions(name: str) -> None:
    """With ``Settings.far`` (off in level5: not shown to help, docs/lab/2026-12-06-level5-far-value.md), far
    from ready (more than ``Settings.ahead``) the expert plays greedy's discard unless the imagined
    completions make another efficient one (same shanten, within ``keep`` useful tiles of the most) worth
    more; only where a win needs 8 fans or more (classic64, not cuopai789's minimum of 1). Its far choices are
    always efficient, and some differ from greedy's in classic64."""
    rules = find_ruleset(name)
    settings = Settings(far=8)
    far = differ = 0
    for g, state, seat, legal, view in greedy_decisions(rules, f"far:{name}", 10):
        if state.phase is Phase.TURN and not view.riichi[1 - seat]:
            bot = ExpertBot(g, settings=settings)
            base = ExpertBot(g, settings=settings).greedy.choose(view, legal)  # (its ties use its rng)
            est = Estimator(view, bot.settings, bot.seed)
            if base.kind is Kind.DISCARD and est.shanten(*_after(view, base.tile)) > bot.settings.ahead:
                got = bot.choose(view, legal)
                assert got == ExpertBot(g, settings=settings).choose(view, legal)  # the same for a seed
                if got != base:
                    assert name == "classic64"
                    s = est.shanten(*_after(view, base.tile))
                    assert got.kind is Kind.DISCARD and est.shanten(*_after(view, got.tile)) == s
                    useful = {
                        a.tile: sum(u for u, _, _ in est.improving(*_after(view, a.tile)[:3], s))
                        for a in (base, got)
                    }
                    assert useful[got.tile] >= useful[base.tile] - bot.settings.keep  # type: ignore[operator]
                    differ += 1
                far += 1
    assert far >= 5
    assert (differ > 0) == (name == "classic64")


def _after(view: object, tile: int) -> tuple[int, int, int]:
    """(key, size, jokers) of the view's hand after discarding ``tile`` (standard family)."""
    from erma.analysis.tables import INC

    v = view  # a SeatView
    return v.key - INC[tile], v.size - 1, 0  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["classic64", "cuopai789"])
def test_tianting_declares_at_the_first_discard_as_greedy_does(name: str) -> None:
    """With ``Settings.tianting`` (level5 since 2026-12-06, issue 39) a dealt hand that is ready at its
    first discard declares 报听 (天听, 32 fans in classic64) whenever greedy would: with greedy's discard
    where it would have played on; only where a win needs 8 fans or more (classic64), never in cuopai789."""
    rules = find_ruleset(name)
    ready = declared = declined = 0
    for g in range(500, 900):  # classic64: level5 before would have played on in hands 552, 640 and 874
        state = new_hand(rules, f"tian:{name}:{g}", dealer=g % 2)
        while state.phase is not Phase.TURN:  # the start exchange and the like: greedy's
            seat = state.actor
            action = make_bot("greedy", g).choose(seat_view(state, seat), legal_actions(state, seat))
            apply_unchecked(state, seat, action)
        seat = state.actor
        legal = legal_actions(state, seat)
        if not any(a.riichi for a in legal):
            continue
        view = seat_view(state, seat)
        greedy = make_bot("greedy", 0).choose(view, legal)
        on, off = (
            ExpertBot(0, settings=Settings(tianting=True)),
            ExpertBot(0, settings=Settings(tianting=False)),
        )
        got, before = on.choose(view, legal), off.choose(view, legal)
        ready += 1
        if name == "classic64" and greedy.riichi and not before.riichi:
            assert got == greedy  # it declares with greedy's discard
            declined += 1
        else:
            assert got == before  # it declared anyway (its own discard), or greedy would not
        declared += got.riichi
    assert ready >= 3 and declared > 0
    assert (declined > 0) == (name == "classic64")
