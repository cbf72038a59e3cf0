"""RULES.md §4.2 (the five principles), §4.9 and §2.11 (`mcr` totals) as parametrized vectors."""

from __future__ import annotations

import pytest

from erma.scoring import score_record

from .notation import record_of, summary

VECTORS = [
    # §4.2 不重复: 大四喜 implies 碰碰和, 三风刻, 圈风刻, 门风刻, 幺九刻
    ("(111z)(222z)(333z)(444z)5z + 5z ; self", {"大四喜": 88, "字一色": 64, "独听・单钓": 1, "自摸": 1}, 154),
    ("(111z)(222z)(333z)(444z)5z + 5z ; discard", {"大四喜": 88, "字一色": 64, "全求人": 6}, 158),
    # 不拆移: 111 222 333 read as pungs may not also be 123 123 123
    (
        "111222333789m5m + 5m ; discard",
        {"清一色": 24, "一色三节高": 24, "三暗刻": 16, "门前清": 2, "幺九刻": 1},
        67,
    ),
    # 不得相同: 一般高 and 连六 once, not 连六 twice
    (
        "(111z)123m456m456m5z + 5z ; discard, seat=E",
        {"混一色": 6, "圈风刻": 2, "门风刻": 2, "一般高": 1, "连六": 1, "独听・单钓": 1},
        13,
    ),
    # 就高不就低: seven pairs beats the chow reading
    ("112233445566m1z + 1z ; discard", {"七对": 24, "混一色": 6}, 30),
    # 套算一次: 一般高 ×2 and 连六 ×1
    (
        "(456m)123m123m456m1z + 1z ; discard, seat=W",
        {"混一色": 6, "一般高": 2, "连六": 1, "独听・单钓": 1},
        10,
    ),
    # §4.9
    (
        "[1111m](2222z)234m678m5z + 5z ; self",
        {"混一色": 6, "幺九刻": 2, "独听・单钓": 1, "自摸": 1, "明暗杠": 5},
        15,
    ),
    (
        "[1111m][2222z]234m678m5z + 5z ; discard",
        {"混一色": 6, "双暗杠": 6, "门前清": 2, "幺九刻": 2, "独听・单钓": 1},
        17,
    ),
    (
        "[1111m](2222z)(4444z)234m5z + 5z ; discard, seat=W",
        {"三杠": 32, "混一色": 6, "幺九刻": 3, "独听・单钓": 1},
        42,
    ),
    ("1112345678999m + 5m ; discard", {"九莲宝灯": 88, "双暗刻": 2, "幺九刻": 1}, 91),
    (
        "(111z)123456789m6z + 6z ; discard, seat=W",
        {"清龙": 16, "混一色": 6, "圈风刻": 2, "独听・单钓": 1},
        25,
    ),
    (
        "(111z)123456789m6z + 6z ; discard, seat=E",
        {"清龙": 16, "混一色": 6, "圈风刻": 2, "门风刻": 2, "独听・单钓": 1},
        27,
    ),
    (
        "(234m)(678m)(444z)999m5m + 5m ; discard, flowers=3",
        {"混一色": 6, "幺九刻": 2, "独听・单钓": 1, "花牌": 3},
        12,
    ),
    # §2.11, the `mcr` totals
    ("1122334455667z + 7z ; discard", {"字一色": 64, "七对": 24}, 88),
    (
        "(999m)(888m)(777m)(666m)5m + 5m ; discard",
        {"一色四节高": 48, "清一色": 24, "全求人": 6, "幺九刻": 1},
        79,
    ),
    (
        "(999m)(888m)(777m)(555m)6m + 6m ; discard",
        {"清一色": 24, "一色三节高": 24, "碰碰和": 6, "全求人": 6, "幺九刻": 1},
        61,
    ),
    ("(234m)(678m)(444z)999m5m + 5m ; discard, seat=W", {"混一色": 6, "幺九刻": 2, "独听・单钓": 1}, 9),
    (
        "(234m)(678m)(444z)999m5m + 5m ; self, seat=W",
        {"混一色": 6, "幺九刻": 2, "独听・单钓": 1, "自摸": 1},
        10,
    ),
    (
        "(111z)(555z)(333z)(666z)5m + 5m ; discard, seat=W",
        {"碰碰和": 6, "混一色": 6, "全求人": 6, "双箭刻": 6, "圈风刻": 2, "门风刻": 2},
        28,
    ),
    (
        "(111z)(222z)234m678m3z + 3z ; discard, seat=W",
        {"混一色": 6, "圈风刻": 2, "幺九刻": 1, "独听・单钓": 1},
        10,
    ),
    (
        "[1111m](2222z)234m678m5z + 5z ; discard, seat=E",
        {"混一色": 6, "幺九刻": 2, "独听・单钓": 1, "明暗杠": 5},
        14,
    ),
    ("1111335577m11z5z + 5z ; discard", {"七对": 24, "混一色": 6, "四归一": 2}, 32),
    # §4.4 conventions
    (
        "1112345678999m + 5m ; self",
        {"九莲宝灯": 88, "双暗刻": 2, "幺九刻": 1, "自摸": 1},
        92,
    ),  # 自摸, not 不求人
    ("1112345678999m + 1m ; discard", {"九莲宝灯": 88, "清龙": 16, "四归一": 2}, 106),
]


@pytest.mark.parametrize(("text", "fans", "total"), VECTORS, ids=[v[0] for v in VECTORS])
def test_vector(text: str, fans: dict[str, int], total: int) -> None:
    result = score_record(record_of(text))
    assert summary(result) == fans
    assert result["total"] == total == result["capped_total"]


@pytest.mark.parametrize(
    ("text", "present", "absent"),
    [
        # a discard completing a concealed pung makes it melded (三暗刻 → 双暗刻) …
        ("111m222p456s99s33s + 3s ; discard", "双暗刻", "三暗刻"),
        ("111m222p456s99s33s + 3s ; self", "三暗刻", "双暗刻"),
        # … unless the tile can sit in a concealed chow
        ("111m222p77789s55z + 7s ; discard", "三暗刻", "双暗刻"),
        # 和绝张 is forced when the other three copies are in the winner's own pung
        ("(777p)123m456m68p55s + 7p ; discard", "和绝张", "无番和"),
        # 抢杠和 removes 和绝张; a robbed tile must be a first copy
        ("(123m)(456m)(789s)55p79p + 8p ; discard, kong, last", "抢杠和", "和绝张"),
        # 杠上开花 needs a kong; it removes 自摸
        ("(1111m)(456m)(789s)55p78p + 6p ; self, kong", "杠上开花", "自摸"),
        ("(111m)(456m)(789s)55p78p + 6p ; self, kong", "自摸", "杠上开花"),
        # 妙手回春 removes 自摸; 海底捞月 on a discard
        ("(123m)(456m)(789s)55p78p + 6p ; self, wall", "妙手回春", "自摸"),
        ("(123m)(456m)(789s)55p78p + 6p ; discard, wall", "海底捞月", "妙手回春"),
        # 四暗刻 self-drawn scores 自摸 (its 不求人 is removed)
        ("111m222p333s444s9s + 9s ; self", "自摸", "不求人"),
        # wait fans need a unique wait: 45m waits on 3m and 6m
        ("123m456p789s45m99s + 6m ; discard", "门前清", "独听・边张"),
        ("123m456p789s12m99s + 3m ; discard", "独听・边张", "独听・嵌张"),
        ("123m456p789s13m99s + 2m ; discard", "独听・嵌张", "独听・边张"),
    ],
)
def test_conventions(text: str, present: str, absent: str) -> None:
    fans = summary(score_record(record_of(text)))
    assert present in fans
    assert absent not in fans


def test_chicken_hand_and_flowers() -> None:
    rec = record_of("(234m)(567p)(888s)45p11z + 3p ; discard, flowers=2")
    result = score_record(rec)
    assert summary(result) == {"无番和": 8, "花牌": 2}
    assert result["total"] == 10


def test_explained_tiles() -> None:
    result = score_record(record_of("(456m)123m123m456m1z + 1z ; discard, seat=W"))
    by_id = {f["id"]: f for f in result["fans"]}
    assert by_id["pure_double_chow"]["count"] == 2
    assert len(by_id["pure_double_chow"]["tiles"]) == 2
    assert by_id["short_straight"]["tiles"] == ["123m 456m"]
    assert by_id["single_wait"]["tiles"] == ["11z"]
    assert result["reading"] == "456m 123m 123m 456m 11z"
