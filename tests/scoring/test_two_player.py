"""The two-player fan tables (RULES.md §2.9, §2.11, §1.12, §4.5–4.8): vectors, extra fans, exclusions, caps,
limits, minimums, 无双 (8 copies) and the one-flush-fan property of 万 + honours hands."""

from __future__ import annotations

import random
from typing import Any

import pytest

from erma.hand import Meld
from erma.scoring import WinContext, load_table, plan_for, score, score_record, table_names
from erma.scoring.context import read_record
from erma.tiles import parse

from .notation import record_of, summary

TWO_PLAYER = ("erqs", "classic64t3", "mcr_subset", "cuopai13")


def _score(text: str, table: str) -> dict[str, Any]:
    result = score_record(record_of(text), table)
    assert "fans" in result, result
    return result


def min_total(result: dict[str, Any], table: str) -> int:
    """What counts toward the minimum, as the engine computes it (flower and bonus fans apart)."""
    rows = plan_for(table).rows
    return sum(f["points"] * f["count"] for f in result["fans"] if rows[f["id"]].counts_for_min)


# ------------------------------------------------------------------------------ RULES vectors

VECTORS = [
    # §2.11 K1–K8 (erqs; wind=E; seat=E unless stated)
    (
        "erqs",
        "(111z)(222z)(333z)(444z)5z + 5z ; self",
        {"大四喜": 88, "字一色": 64, "单钓张": 1, "自摸": 1},
        154,
    ),
    ("erqs", "(111z)(222z)(333z)(444z)5z + 5z ; discard", {"大四喜": 88, "字一色": 64, "全求人": 6}, 158),
    ("erqs", "1122334455667z + 7z ; discard", {"大七星": 88}, 88),
    ("erqs", "1122334455667z + 7z ; self", {"大七星": 88, "自摸": 1}, 89),
    ("erqs", "(999m)(888m)(777m)(666m)5m + 5m ; discard", {"四连刻": 48, "清一色": 16, "全求人": 6}, 70),
    ("erqs", "(234m)(678m)(444z)999m5m + 5m ; discard, seat=W", {"混一色": 6, "单钓张": 1}, 7),
    ("erqs", "(234m)(678m)(444z)999m5m + 5m ; self, seat=W", {"混一色": 6, "单钓张": 1, "自摸": 1}, 8),
    (
        "erqs",
        "(111z)(555z)(333z)(666z)5m + 5m ; discard, seat=W",
        {"四字刻": 24, "混一色": 6, "全求人": 6, "双箭刻": 6, "圈风刻": 2, "门风刻": 2},
        46,
    ),
    (
        "erqs",
        "(111z)(222z)234m678m3z + 3z ; discard, seat=W",
        {"小三风": 6, "混一色": 6, "圈风刻": 2, "单钓张": 1},
        15,
    ),
    (
        "erqs",
        "[1111m](2222z)234m678m5z + 5z ; discard, seat=E",
        {"混一色": 6, "暗杠": 2, "明杠": 1, "单钓张": 1},
        10,
    ),
    ("erqs", "1111335577m11z5z + 5z ; discard", {"七对": 24, "混一色": 6, "四归一": 2}, 32),
    # K3 百万石 (classic64t3) and its boundary (99 pips: no 百万石, same as mcr)
    (
        "classic64t3",
        "(999m)(888m)(777m)(666m)5m + 5m ; discard",
        {"百万石": 88, "一色四节高": 48, "全求人": 6, "幺九刻": 1, "二五八将": 1},
        144,
    ),
    (
        "mcr",
        "(999m)(888m)(777m)(666m)5m + 5m ; discard",
        {"一色四节高": 48, "清一色": 24, "全求人": 6, "幺九刻": 1},
        79,
    ),
    (
        "classic64t3",
        "(999m)(888m)(777m)(555m)6m + 6m ; discard",
        {"清一色": 24, "一色三节高": 24, "碰碰和": 6, "全求人": 6, "幺九刻": 1},
        61,
    ),
    # K2 in the tables without 大七星 (classic64t3) and with it (mcr_subset)
    ("classic64t3", "1122334455667z + 7z ; discard", {"字一色": 64, "七对": 24}, 88),
    ("mcr_subset", "1122334455667z + 7z ; self", {"大七星": 88, "自摸": 1}, 89),
    # K9: a 无双 extended kong is still one melded kong (明杠 1), not two
    (
        "erqs",
        "(55555m)123m678m111z9m + 9m ; discard, seat=W, copies=8",
        {"混一色": 6, "圈风刻": 2, "明杠": 1},
        9,
    ),
    # K10 (mcr): 九莲宝灯 excludes 清一色
    ("mcr", "1112345678999m + 5m ; discard", {"九莲宝灯": 88, "双暗刻": 2, "幺九刻": 1}, 91),
    # §1.12 C1–C4, C8 (cuopai13; bonus = copies of the bonus kind, counted by the engine)
    (
        "cuopai13",
        "234m567m345p678s5p + 5p ; discard, seat=W, bonus=3",
        {"门清": 1, "平胡": 1, "断幺九": 1, "花牌": 3},
        6,
    ),
    (
        "cuopai13",
        "123123456789m9m + 9m ; self, seat=E, bonus=3",
        {"清一色": 5, "一气通贯": 2, "一杯口": 2, "平胡": 1, "门清自摸": 1, "花牌": 3},
        14,
    ),
    ("cuopai13", "(555z)(666z)777z234m9m + 9m ; discard, bonus=4", {"大三元": 13}, 13),
    (
        "cuopai13",
        "123m456m789p56s22z + 7s ; self, kong, rob, seat=W, bonus=1",
        {"门清自摸": 1, "抢杠": 1, "花牌": 1},
        3,
    ),
    (
        "cuopai13",
        "123m456m789p56s22z + 7s ; self, ready, ready1, seat=E",
        {"天听": 2, "门清自摸": 1},
        3,
    ),
]


@pytest.mark.parametrize(("table", "text", "fans", "total"), VECTORS, ids=[f"{v[0]}:{v[1]}" for v in VECTORS])
def test_vector(table: str, text: str, fans: dict[str, int], total: int) -> None:
    result = _score(text, table)
    assert summary(result) == fans
    assert result["total"] == total


def test_c5_haidi_win() -> None:
    """C5: a 海底捞月 pick completing a declared 门清 hand: 海底捞月 + 门清自摸 + 门清报听 (or 天听 2)."""
    r = _score("123m456m789p56s22z + 7s ; self, wall, ready, seat=W", "cuopai13")
    assert summary(r) == {"海底捞月": 1, "门清自摸": 1, "门清报听": 1}
    r = _score("123m456m789p56s22z + 7s ; self, wall, ready, ready1, seat=W", "cuopai13")
    assert summary(r) == {"天听": 2, "海底捞月": 1, "门清自摸": 1}


def test_engine_context() -> None:
    """The engine builds WinContext itself: melds with 无双 sizes, robbing scored as self-drawn, copies=8."""
    rob = WinContext(
        melds=(),
        concealed=tuple(parse("123m456m789p56s22z")),
        win_tile=parse("7s")[0],
        self_drawn=True,
        about_kong=True,
        robbing=True,
        seat_wind=2,
        bonus_count=1,
    )
    result = score(rob, "cuopai13")
    assert result is not None
    assert [(f.name_zh, f.points * f.count) for f in result.fans] == [
        ("门清自摸", 1),
        ("抢杠", 1),
        ("花牌", 1),
    ]
    assert (result.total, result.capped_total) == (3, 3)
    wushuang = WinContext(
        melds=(Meld.parse("(55555m)"),),
        concealed=tuple(parse("123m678m111z9m")),
        win_tile=parse("9m")[0],
        seat_wind=2,
        copies=8,
    )
    result = score(wushuang, "erqs")
    assert result is not None
    assert {f.id: f.count for f in result.fans}["melded_kong"] == 1
    assert (
        score(WinContext(melds=(), concealed=tuple(parse("147m258p369s1234z")), win_tile=31), "cuopai13")
        is None
    )


def test_c2_cap_and_c3_limit() -> None:
    """C2: F = 14 → 13 points; C3: a limit hand is 13 whatever the bonus (no other fan is added)."""
    c2 = _score("123123456789m9m + 9m ; self, bonus=3", "cuopai13")
    assert (c2["total"], c2["capped_total"]) == (14, 13)
    c3 = _score("(555z)(666z)777z234m9m + 9m ; discard, bonus=4", "cuopai13")
    assert (c3["total"], c3["capped_total"]) == (13, 13)
    # two limit fans add up, then the cap applies
    both = _score("(999m)(888m)(777m)(666m)5m + 5m ; discard, bonus=2", "cuopai13")
    assert summary(both) == {"四连刻": 13, "百万石": 13}
    assert (both["total"], both["capped_total"]) == (26, 13)


def test_k4_minimum_fan() -> None:
    """K4: 混一色 6 + 单钓张 1 = 7 < 8 is not a legal win in erqs; self-drawn it is 8."""
    assert load_table("erqs").cap is None
    assert min_total(_score("(234m)(678m)(444z)999m5m + 5m ; discard, seat=W", "erqs"), "erqs") == 7
    assert min_total(_score("(234m)(678m)(444z)999m5m + 5m ; self, seat=W", "erqs"), "erqs") == 8


def test_bonus_and_flowers_never_count_for_the_minimum() -> None:
    c1 = _score("234m567m345p678s5p + 5p ; discard, seat=W, bonus=3", "cuopai13")
    assert min_total(c1, "cuopai13") == 3
    fl = _score("(234m)(678m)(444z)999m5m + 5m ; discard, seat=W, flowerset=1234f", "erqs")
    assert summary(fl) == {"混一色": 6, "春夏秋冬": 4, "单钓张": 1}
    assert min_total(fl, "erqs") == 7


# ------------------------------------------------------------------------------ the extra fans

EXTRA = [
    # (table, hand, a fan id that must be scored, fan ids that must not be)
    (
        "erqs",
        "1122334455667z + 7z ; discard",
        "big_seven_stars",
        (
            "seven_pairs",
            "all_honors",
            "all_terminals_and_honors",
            "three_dragons_seven_pairs",
            "four_winds_seven_pairs",
            "concealed_hand",
            "single_wait",
        ),
    ),
    ("erqs", "1122334455667z + 7z ; self", "self_drawn", ("fully_concealed_hand",)),
    ("erqs", "(111z)(222z)(333z)123m4z + 4z ; discard", "little_four_winds", ("little_three_winds",)),
    ("erqs", "1122334m556677z + 4m ; discard", "three_dragons_seven_pairs", ("seven_pairs",)),
    ("erqs", "556677m1122334z + 4z ; discard", "four_winds_seven_pairs", ("seven_pairs",)),
    ("erqs", "(111z)(555z)(333z)(666z)5m + 5m ; discard", "four_honor_pungs", ("all_pungs",)),
    ("erqs", "(111z)(222z)234m678m3z + 3z ; discard", "little_three_winds", ()),
    (
        "erqs",
        "123m456m789m11z22z + 2z ; self, initial, seat=E",
        "heavenly_hand",
        ("self_drawn", "fully_concealed_hand", "single_wait"),
    ),
    ("erqs", "12m456m789m11z222z + 3m ; self, initial, seat=E", "heavenly_hand", ("edge_wait",)),
    ("erqs", "13m456m789m11z222z + 2m ; self, initial, seat=E", "heavenly_hand", ("closed_wait",)),
    (
        "erqs",
        "123m456m789m11z22z + 2z ; self, initial, seat=W",
        "earthly_hand",
        ("self_drawn", "fully_concealed_hand"),
    ),
    ("erqs", "123m456m789m11z22z + 2z ; discard, initial, seat=W", "human_hand", ("concealed_hand",)),
    ("erqs", "(123m)456m789m11z22z + 2z ; discard, ready", "declared_ready", ()),
    ("erqs", "123m456m789m11z22z + 2z ; discard, ready, ready1", "heavenly_ready", ("declared_ready",)),
    ("erqs", "123m456m789m11z22z + 2z ; discard, ready, oneshot", "ready_one_shot", ()),
    ("erqs", "(234m)(678m)(444z)999m5m + 5m ; discard, flowerset=1234f", "four_seasons", ("flower_tiles",)),
    ("erqs", "(234m)(678m)(444z)999m5m + 5m ; discard, flowerset=5678f", "four_plants", ("flower_tiles",)),
    (
        "erqs",
        "(234m)(678m)(444z)999m5m + 5m ; discard, flowerset=12345678f",
        "all_flowers",
        ("flower_tiles", "four_seasons", "four_plants"),
    ),
    ("erqs", "(234m)(678m)(444z)999m5m + 5m ; discard, flowerset=15f", "flower_tiles", ("no_flowers",)),
    ("erqs", "(234m)(678m)(444z)999m5m + 5m ; discard, flowerset", "no_flowers", ("flower_tiles",)),
    # classic64t3: 立直 (门清) and 报听 (not 门清); 天听 excludes both; 幺九头, 二五八将
    (
        "classic64t3",
        "123m456m789m11z22z + 2z ; discard, ready",
        "declared_ready_concealed",
        ("declared_ready",),
    ),
    (
        "classic64t3",
        "(123m)456m789m11z22z + 2z ; discard, ready",
        "declared_ready",
        ("declared_ready_concealed",),
    ),
    (
        "classic64t3",
        "123m456m789m11z22z + 2z ; discard, ready, ready1",
        "heavenly_ready",
        ("declared_ready", "declared_ready_concealed"),
    ),
    ("classic64t3", "123m456m789m11z22z + 2z ; discard", "terminal_or_honor_pair", ("pair_258",)),
    ("classic64t3", "123m456m789m55m22z + 2z ; discard", "pair_258", ("terminal_or_honor_pair",)),
    ("classic64t3", "123m456m789m11z22z + 2z ; discard, initial, seat=W", "human_hand", ("concealed_hand",)),
    # mcr_subset: no 人胡, no 圈风刻 (the prevalent wind pung is a 幺九刻)
    ("mcr_subset", "123m456m789m11z22z + 2z ; discard, initial, seat=W", "concealed_hand", ("human_hand",)),
    (
        "mcr_subset",
        "(111z)123456789m6z + 6z ; discard, seat=W",
        "pung_of_terminals_or_honors",
        ("prevalent_wind",),
    ),
    ("mcr_subset", "123m456m789m11z22z + 2z ; self, initial, seat=W", "earthly_hand", ("self_drawn",)),
    # cuopai13
    ("cuopai13", "2233445566778p + 8p ; discard", "big_wheels", ("seven_pairs",)),
    (
        "cuopai13",
        "123m456m789p55s22z + 2z ; self, initial, seat=E, bonus=2",
        "heavenly_hand",
        ("fully_concealed_hand", "self_drawn", "bonus_tiles"),
    ),
    ("cuopai13", "123m456m789p55s22z + 2z ; discard, initial, seat=W", "human_hand", ("concealed_hand",)),
    ("cuopai13", "1133m5577p99s11z2z + 2z ; discard", "seven_pairs", ("concealed_hand", "plain_win")),
    ("cuopai13", "1133m5577p99s11z2z + 2z ; self", "self_drawn", ("fully_concealed_hand",)),
    ("cuopai13", "(111s)555s777s99s77z + 7z ; discard", "red_peacock", ()),
    ("cuopai13", "(111z)123456789m4z + 4z ; discard", "northeast_express", ()),
    ("cuopai13", "(444z)123456789p1z + 1z ; discard", "northeast_express", ()),
    ("cuopai13", "(999m)(888m)(777m)(666m)5m + 5m ; discard", "million_stones", ("full_flush",)),
    (
        "cuopai13",
        "112233m445566p7s + 7s ; discard",
        "twice_pure_double_chow",
        ("pure_double_chow", "seven_pairs"),
    ),
    (
        "cuopai13",
        "112233m445566p7s + 7s ; self",
        "self_drawn",
        ("fully_concealed_hand", "concealed_hand", "seven_pairs"),
    ),
    ("cuopai13", "1111m3355p7799s1z + 1z ; discard", "dragon_seven_pairs", ("seven_pairs", "concealed_hand")),
    ("cuopai13", "1111m3355p7799s1z + 1z ; self", "self_drawn", ("fully_concealed_hand",)),
    ("cuopai13", "123m789m123p999s1p + 1p ; discard", "pure_outside_hand", ("outside_hand",)),
    ("cuopai13", "123m789m123p111z1p + 1p ; discard", "outside_hand", ("pure_outside_hand",)),
    ("cuopai13", "(123m)(789p)(456s)(222s)5z + 5z ; discard", "plain_win", ()),
    ("cuopai13", "(123m)(789p)(456s)(222s)5z + 5z ; discard, bonus=2", "plain_win", ()),
    ("cuopai13", "(123m)(789p)(456s)55z22s + 5z ; discard", "dragon_pung", ("plain_win",)),
    (
        "cuopai13",
        "123m456m789p56s22z + 7s ; self, kong, rob",
        "robbing_the_kong",
        ("out_with_replacement_tile",),
    ),
    ("cuopai13", "(1111m)456m789p56s22z + 7s ; self, kong", "out_with_replacement_tile", ("self_drawn",)),
    ("cuopai13", "123m456m789p56s22z + 7s ; self, wall", "last_tile_draw", ("self_drawn",)),
    ("cuopai13", "123m456m789p56s22z + 7s ; discard, ready", "declared_ready_concealed", ()),
    ("cuopai13", "(555z)(666z)7z234m999m + 7z ; discard", "little_three_dragons", ("dragon_pung",)),
    (
        "cuopai13",
        "(111m)999m111p99s11z + 1z ; discard",
        "all_terminals_and_honors",
        ("outside_hand", "all_pungs"),
    ),
]


@pytest.mark.parametrize(("table", "text", "present", "absent"), EXTRA, ids=[f"{e[0]}:{e[2]}" for e in EXTRA])
def test_extra_fan(table: str, text: str, present: str, absent: tuple[str, ...]) -> None:
    ids = {f["id"] for f in _score(text, table)["fans"]}
    assert present in ids
    assert not ids & set(absent)


def test_kongs_count_each_in_cuopai13() -> None:
    """明杠 1 each, 暗杠 2 each, 剑刻 1 each (cuopai13); erqs counts 明杠 once (MCR)."""
    r = _score("[1111m](2222p)(5555z)(666z)9s + 9s ; discard", "cuopai13")
    s = summary(r)
    assert (s["明杠"], s["暗杠"], s["剑刻"]) == (2, 2, 2)


def test_robbing_without_the_key_keeps_the_reference_convention() -> None:
    """mcr records: about_kong without self-draw is 抢杠和; self-drawn with a kong is 杠上开花."""
    rob = _score("(123m)(456m)(789s)55p79p + 8p ; discard, kong", "mcr")
    assert "robbing_the_kong" in {f["id"] for f in rob["fans"]}
    rep = _score("(1111m)(456m)(789s)55p78p + 6p ; self, kong", "mcr")
    assert "out_with_replacement_tile" in {f["id"] for f in rep["fans"]}
    rob_self = _score("(1111m)(456m)(789s)55p78p + 6p ; self, kong, rob", "mcr")
    assert {f["id"] for f in rob_self["fans"]} >= {"robbing_the_kong", "self_drawn"}
    assert "out_with_replacement_tile" not in {f["id"] for f in rob_self["fans"]}


def test_shapes_a_table_does_not_recognise_do_not_win() -> None:
    knitted = record_of("147m258p369s1234z + 5z ; discard")
    assert "fans" in score_record(knitted, "mcr")
    assert score_record(knitted, "cuopai13")["error"] == "not_win"
    orphans = record_of("19m19p19s1234567z + 1m ; discard")
    assert summary(score_record(orphans, "cuopai13")) == {"十三幺": 13}


# ------------------------------------------------------------------------------ 无双: 8 copies


WUSHUANG = [
    (
        "erqs",
        "111111m222m333m9m + 9m ; discard, copies=8",
        {"四暗刻": 64, "三连刻": 24, "清一色": 16, "四归一": 2, "单钓张": 1},
    ),
    (
        "mcr",
        "111111m222m333m9m + 9m ; discard, copies=8",
        {"四暗刻": 64, "清一色": 24, "一色三节高": 24, "四归一": 2, "幺九刻": 2, "独听・单钓": 1},
    ),
    (
        "erqs",
        "11111111m22z33z4z + 4z ; discard, copies=8",
        {"混幺九": 32, "七对": 24, "混一色": 6, "四归一": 2},
    ),
    (
        "erqs",
        "[55555m][66666m](777777m)(8888m)1z + 1z ; self, copies=8",
        {"四杠": 88, "四连刻": 48, "混一色": 6, "双暗刻": 2, "自摸": 1},
    ),
    # six of a kind read as two pungs; the pips of every kong tile count for 百万石
    (
        "cuopai13",
        "(99999999m)(888m)777m666m5m + 5m ; discard, copies=8",
        {"四连刻": 13, "百万石": 13},
    ),
]


@pytest.mark.parametrize(("table", "text", "fans"), WUSHUANG, ids=[f"{w[0]}:{w[1]}" for w in WUSHUANG])
def test_wushuang(table: str, text: str, fans: dict[str, int]) -> None:
    assert summary(_score(text, table)) == fans


def test_wushuang_last_tile_and_concealed_pungs() -> None:
    """和绝张 is forced only when all 7 other copies are the winner's own; a discard onto two concealed pungs
    of its kind makes one of them melded."""
    ids = {f["id"] for f in _score("(555m)123m789m111z5m + 5m ; discard, copies=8", "erqs")["fans"]}
    assert "last_tile" not in ids
    ids = {f["id"] for f in _score("(5555555m)46m789m111z99m + 5m ; discard, copies=8", "erqs")["fans"]}
    assert "last_tile" in ids
    ids = {f["id"] for f in _score("11111m555m999m77m + 1m ; discard, copies=8", "erqs")["fans"]}
    assert "three_concealed_pungs" in ids
    assert "two_concealed_pungs" not in ids


def test_wushuang_needs_copies_8() -> None:
    rec = record_of("111111m222m333m9m + 9m ; discard")
    assert score_record(rec, "erqs")["error"] == "invalid_input"
    assert read_record({**rec, "copies": 8}).copies == 8


# ----------------------------------------------- property: one flush fan in every 万 + honours win

FLUSH = ("half_flush", "full_flush", "all_honors")


def _random_win(rng: random.Random, copies: int) -> dict[str, Any]:
    """A random complete 万 + honours hand (4 sets and a pair, or seven pairs) as a record."""
    kinds = list(range(9)) + list(range(27, 34))
    left = dict.fromkeys(kinds, copies)
    if rng.random() < 0.15:
        pairs = []
        while len(pairs) < 7:
            t = rng.choice(kinds)
            if left[t] >= 2:
                left[t] -= 2
                pairs.append(t)
        tiles = sorted(t for t in pairs for _ in range(2))
        win = tiles.pop(rng.randrange(14))
        return {"packs": [], "hand": _mpsz(tiles), "win_tile": _mpsz([win]), "copies": copies}
    packs: list[list[Any]] = []
    concealed: list[int] = []
    sets = 0
    while sets < 4:
        if rng.random() < 0.5:
            t = rng.randrange(7)
            if not all(left[t + i] for i in range(3)):
                continue
            for i in range(3):
                left[t + i] -= 1
            if rng.random() < 0.3:
                packs.append(["CHI", _mpsz([t + 1]), 1])
            else:
                concealed += [t, t + 1, t + 2]
        else:
            t = rng.choice(kinds)
            kong = rng.random() < 0.15
            need = (rng.randint(4, copies) if kong else 3) if copies == 8 else (4 if kong else 3)
            if left[t] < need:
                continue
            left[t] -= need
            if kong:
                packs.append(["GANG", _mpsz([t]), rng.choice((0, 1)), need])  # 5–8: a 无双 extended kong
            elif rng.random() < 0.3:
                packs.append(["PENG", _mpsz([t]), 1])
            else:
                concealed += [t] * 3
        sets += 1
    pair = rng.choice([t for t in kinds if left[t] >= 2])
    concealed += [pair, pair]
    win = concealed.pop(rng.randrange(len(concealed)))
    return {
        "packs": packs,
        "hand": _mpsz(sorted(concealed)),
        "win_tile": _mpsz([win]),
        "is_self_drawn": rng.random() < 0.4,
        "seat_wind": rng.randrange(4),
        "prevalent_wind": rng.randrange(4),
        "copies": copies,
    }


def _mpsz(tiles: list[int]) -> str:
    from erma.tiles import to_mpsz

    return to_mpsz(tiles)


@pytest.mark.parametrize("table", ["mcr", *TWO_PLAYER])
@pytest.mark.parametrize("copies", [4, 8])
def test_every_man_and_honours_win_has_one_flush_fan(table: str, copies: int) -> None:
    rng = random.Random(f"{table}-{copies}")
    rows = plan_for(table).rows
    checked = 0
    for _ in range(400):
        rec = _random_win(rng, copies)
        result = score_record(rec, table)
        if "fans" not in result:
            continue
        checked += 1
        ids = {f["id"] for f in result["fans"]}
        tiles = read_record(rec)
        every = [*tiles.concealed, tiles.win_tile, *(t for m in tiles.melds for t in m.tiles)]
        suited, honors = any(t < 27 for t in every), any(t >= 27 for t in every)
        expected = "half_flush" if suited and honors else "full_flush" if suited else "all_honors"
        assert not ids & (set(FLUSH) - {expected}), (rec, ids)
        excluded_by = [k for k in ids if any(ex.target == expected for ex in rows[k].excludes)]
        limit = any(rows[k].limit for k in ids)  # cuopai13: a limit hand keeps only its limit fans
        assert (expected in ids) != bool(excluded_by or limit), (rec, ids)
        assert "chicken_hand" not in ids
    assert checked > 300


def test_tables_are_packaged() -> None:
    assert set(TWO_PLAYER) <= set(table_names())
    assert load_table("cuopai13").cap == 13
    assert all(load_table(t).cap is None for t in ("erqs", "classic64t3", "mcr_subset"))


@pytest.mark.parametrize("table", TWO_PLAYER)
def test_excluders_come_first(table: str) -> None:
    """Rows are in priority order: a row that excludes an earlier row only excludes rows excluding nothing."""
    t = load_table(table)
    pos = {r.id: i for i, r in enumerate(t.rows)}
    for row in t.rows:
        for ex in row.excludes:
            if ex.target in pos and pos[ex.target] < pos[row.id]:
                assert not t.row(ex.target).excludes, (row.id, ex.target)


@pytest.mark.parametrize(
    ("table", "fan_ids"),
    [
        (
            "erqs",
            {"concealed_kong_and_melded_kong", "pung_of_terminals_or_honors", "no_honors", "chicken_hand"},
        ),
        ("classic64t3", {"concealed_kong_and_melded_kong", "big_seven_stars", "flower_tiles"}),
        ("mcr_subset", {"human_hand", "prevalent_wind", "flower_tiles", "concealed_kong_and_melded_kong"}),
        ("cuopai13", {"prevalent_wind", "seat_wind", "pung_of_terminals_or_honors", "chicken_hand"}),
    ],
)
def test_fans_a_table_leaves_out(table: str, fan_ids: set[str]) -> None:
    assert not fan_ids & set(load_table(table).ids)
