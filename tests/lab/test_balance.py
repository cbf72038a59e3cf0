"""erma.lab.balance: options parsed through the rule set, paired combinations, figures that add up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from erma.bots import make_bot
from erma.errors import RuleSetError
from erma.game import Phase, apply_unchecked, legal_actions, new_hand, seat_view
from erma.lab.balance import (
    EVENTS,
    BalanceConfig,
    HandStat,
    combinations,
    escape_cost,
    parse_vary,
    play_tracked,
    play_wall,
    run_balance,
)
from erma.lab.selfplay import Outcome, hand_seed, play_hand
from erma.rules import find_ruleset


def erma(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "erma.cli", *args], capture_output=True, text=True, timeout=300
    )


def test_values_are_typed_by_the_rule_set() -> None:
    vary = parse_vary(["cuo_prob=0,0.05", "haidi_mode=none,pick_reserve", "fan_cap=null,13"])
    assert vary == {"cuo_prob": [0, 0.05], "haidi_mode": ["none", "pick_reserve"], "fan_cap": [None, 13]}
    combos = combinations("cuopai789", vary)
    assert len(combos) == 8
    options, rules = combos[0]
    assert options == {"cuo_prob": 0.0, "haidi_mode": "none", "fan_cap": None}
    assert rules.cuo_prob == 0.0 and isinstance(rules.cuo_prob, float) and rules.fan_cap is None
    assert combinations("wenzhou2p", parse_vary(["escape_penalty=[16,8],[8,4]"]))[1][1].escape_penalty == (
        8,
        4,
    )


@pytest.mark.parametrize(
    ("items", "message"),
    [
        (["cuo_probb=0,1"], "unknown option 'cuo_probb'"),
        (["cuo_prob=0,2"], "cuo_prob must be a number in 0.0–1.0, not 2"),
        (["haidi_mode=sometimes"], "haidi_mode must be one of"),
        (["cuo_prob"], "write KEY=V1,V2"),
        (["cuo_prob=0", "cuo_prob=1"], "varied twice"),
        (["cuo_prob=0,0"], "repeated"),
    ],
)
def test_bad_options_name_what_is_wrong(items: list[str], message: str) -> None:
    with pytest.raises(RuleSetError, match=message):
        combinations("cuopai789", parse_vary(items))


def test_per_seat_events_add_up_to_the_state_counters() -> None:
    rules = find_ruleset("cuopai789", cuo_prob=0.5, triplet_offer_prob=0.5)
    fired = dict.fromkeys(EVENTS, 0)
    for wall in range(12):
        seed = hand_seed("ev", wall)
        h = play_tracked(rules, seed, ["greedy", "random"], ["a", "b"])
        state = play_hand(rules, seed, [make_bot("greedy", "a"), make_bot("random", "b")])
        assert state.result is not None and h.outcome.deltas == state.result.deltas
        for i, name in enumerate(EVENTS):
            assert h.events[0][i] + h.events[1][i] == state.counters[name], name
            fired[name] += state.counters[name]
        assert h.length == sum(s.discards_made for s in state.seats)
        assert all(g is not None and -14 <= g <= 14 for g in h.max_gap)
    assert fired["cuo"] and fired["triplet_offer"] and fired["exchange"]


def test_escape_cost_is_what_the_engine_charges() -> None:
    from erma.game import apply
    from erma.game.actions import ESCAPE

    for preset in ("cuopai789", "classic64", "wenzhou2p"):
        rules = find_ruleset(preset)
        for seat in (0, 1):
            state = new_hand(rules, hand_seed("esc", seat), 0)
            cost = escape_cost(state, seat)
            apply(state, seat, ESCAPE)
            assert state.result is not None and state.result.deltas[seat] == -cost, preset


def test_combinations_are_paired_on_the_same_walls() -> None:
    rules = find_ruleset("classic64")
    config = BalanceConfig((rules, rules), ("greedy", "random"), 3)
    for wall in range(3):
        first, second = play_wall(config, wall)
        assert first == second  # the same rules on the same wall: the same hands
        a, b = first
        assert a.dealer == b.dealer  # the swap moves the bots, not the deal
    report = run_balance("classic64", {"min_fan": [8, 0]}, 6, ("greedy", "random"), 3)
    c0, c1 = report["combinations"]
    assert c0["options"] == {"min_fan": 8} and c1["options"] == {"min_fan": 0}
    assert set(c1["vs_first"]) == {
        "dealer_win_rate",
        "draw_rate",
        "hand_length",
        "points_per_hand",
        "bot_a_win_rate",
    }


def test_figures_add_up() -> None:
    report = run_balance("cuopai789", {"cuo_prob": [0.0, 0.3]}, 10, ("greedy", "greedy"), 7)
    assert report["walls"] == 10 and report["hands_per_combination"] == 20
    for c in report["combinations"]:
        total = c["dealer_win_rate"]["value"] + c["nondealer_win_rate"]["value"] + c["draw_rate"]["value"]
        assert total == pytest.approx(1.0, abs=1e-3)  # no escapes among bots
        assert sum(c["points"].values()) == c["wins"] == sum(c["fan_total"].values())
        for fig in ("dealer_win_rate", "hand_length", "points_per_hand", "points_spread"):
            lo, hi = c[fig]["ci95"]
            assert lo <= c[fig]["value"] <= hi
        assert c["escape"]["escape_cost"]["value"] == 13  # cuopai789: escape_points 13, cap 13
    off, on = report["combinations"]
    assert off["events"]["cuo"]["fire_rate"]["value"] == 0 and on["events"]["cuo"]["fire_rate"]["value"] > 0


def test_the_same_for_one_or_two_workers() -> None:
    args = ("wenzhou2p", {"maidi_enabled": [True, False]}, 5, ("greedy", "random"), "w")
    assert run_balance(*args) == run_balance(*args, workers=2)  # type: ignore[arg-type]


def test_cli_json_table_and_report(tmp_path: Path) -> None:
    args = ["balance", "--rules", "cuopai789", "--vary", "cuo_prob=0,0.2", "--walls", "4", "--seed", "1"]
    out = erma(*args, "--json", "--out", str(tmp_path))
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert [c["options"] for c in report["combinations"]] == [{"cuo_prob": 0.0}, {"cuo_prob": 0.2}]
    assert json.loads((tmp_path / "report.json").read_text(encoding="utf-8")) == report
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page.count("data:image/png;base64,") >= 5 and "<script" not in page and "http" not in page
    text = erma(*args, "--workers", "2")
    assert text.returncode == 0, text.stderr
    assert "dealer wins" in text.stdout and "paired differences" in text.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--vary", "cuo_probb=0,1"], "unknown option 'cuo_probb'"),
        (["--vary", "cuo_prob=0,7"], "cuo_prob must be a number"),
        (["--vary", "cuo_prob=0,1", "--bots", "greedy"], "name two bots"),
        (["--vary", "cuo_prob=0,1", "--bots", "greedy,clever"], "unknown bot 'clever'"),
        (["--vary", "cuo_prob=0,1", "--walls", "0"], "--walls 0"),
        (["--vary", "cuo_prob=0,1", "--workers", "0"], "--workers 0"),
        ([], "name at least one option"),
        (["--rules", "nope", "--vary", "cuo_prob=0,1"], "unknown rule set 'nope'"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    out = erma("balance", "--walls", "1", *args) if "--walls" not in args else erma("balance", *args)
    assert out.returncode == 2, out
    assert message in out.stderr and len(out.stderr.strip().splitlines()) == 1 and not out.stdout


def test_shanten_is_the_familys() -> None:
    from erma.analysis import shapes
    from erma.game.families import family_for
    from erma.game.families import wenzhou_wins as wz
    from erma.lab.balance import _shanten
    from erma.rules import shape_mask

    for preset in ("wenzhou2p", "cuopai789"):
        rules = find_ruleset(preset)
        for wall in range(4):
            bots = [make_bot("greedy", "x"), make_bot("random", "y")]
            state = new_hand(rules, hand_seed("sh", wall))
            seen = 0
            while state.phase is not Phase.END and seen < 60:
                for seat in (0, 1):
                    me = state.seats[seat]
                    _, key, wilds = family_for(rules).played(state, seat)
                    if state.wild is None:
                        want = shapes.overall(key, me.size, 0, shape_mask(rules))  # the shapes it can win
                    else:
                        want = wz.shanten(key, me.size, wilds, not me.melds, rules)
                    assert _shanten(state, seat) == want
                seat = state.actor
                bot = bots[seat]
                apply_unchecked(state, seat, bot.choose(seat_view(state, seat), legal_actions(state, seat)))
                seen += 1


def _hand(deltas: tuple[int, int], gaps: tuple[int | None, int | None], cost: int = 10) -> HandStat:
    winner = 0 if deltas[0] > 0 else 1 if deltas[1] > 0 else None
    out = Outcome("win" if winner is not None else "draw", winner, None, (), 0, deltas)
    zero = (0,) * len(EVENTS)
    return HandStat(0, out, winner, 20, (zero, zero), gaps, (cost, cost))


def test_escape_incentive_as_defined() -> None:
    # wall 1: seat 1 fell 2 behind and lost 30 (escaping at 10 would have saved 20); seat 0 never behind;
    #         second hand: seat 0 fell 1 behind and won 5 (escaping would have cost 10 more than playing on)
    # wall 2: nobody fell behind
    wall1 = (_hand((30, -30), (0, 2)), _hand((5, -5), (1, -1)))
    wall2 = (_hand((0, 0), (0, 0)), _hand((8, -8), (None, 0)))
    from erma.lab.balance import _escape_stats

    esc = _escape_stats([wall1, wall2])
    assert esc["behind_share"]["value"] == pytest.approx((2 / 4 + 0 / 4) / 2)
    assert esc["play_on_loss"] == {"value": 12.5, "ci95": None, "n": 1}  # (30 + −5) / 2, one wall
    assert esc["escape_cost"]["value"] == 10
    assert esc["escape_gain"]["value"] == 2.5  # ((30 − 10) + (−5 − 10)) / 2
    assert esc["escape_better_share"]["value"] == 0.5
    assert esc["gain_by_gap"] == {
        "1": {"seat_hands": 1, "mean_gain": -15.0, "escape_better_share": 0.0},
        "2": {"seat_hands": 1, "mean_gain": 20.0, "escape_better_share": 1.0},
    }


def test_equal_bots_play_a_wall_once_with_the_same_result() -> None:
    rules = find_ruleset("cuopai789", cuo_prob=0.2)
    config = BalanceConfig((rules,), ("greedy", "greedy"), 4)
    for wall in range(4):
        assert play_wall(config, wall) == play_wall(config, wall, mirror=False)
