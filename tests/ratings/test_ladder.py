"""The ladder (段位): levels, promotion and demotion rules as written in docs/ratings.md."""

from __future__ import annotations

from erma.ratings import LEVELS, START, Rank, Rating, advance, match_points


def test_sixteen_levels_and_the_start() -> None:
    assert len(LEVELS) == 16 and LEVELS[0].zh == "初心一" and LEVELS[-1].zh == "魂天"
    assert [lv.tier for lv in LEVELS[::3]][:5] == ["novice", "adept", "expert", "master", "saint"]
    assert Rank(0, 10) == START
    assert LEVELS[-1].threshold is None and LEVELS[-1].start == 1000


def test_promotion_at_the_threshold_to_the_next_start() -> None:
    assert advance(Rank(2, 19), 1) == Rank(3, LEVELS[3].start)  # 初心三 → 雀士一 at 40
    assert advance(Rank(14, 399), 5) == Rank(15, 1000)  # 雀圣三 → 魂天
    assert advance(Rank(15, 1000), 500) == Rank(15, 1500)  # no promotion above 魂天


def test_demotion_below_zero_except_novice_and_adept_one() -> None:
    assert advance(Rank(1, 2), -5) == Rank(1, 0)  # 初心 cannot be lost
    assert advance(Rank(3, 2), -5) == Rank(3, 0)  # 雀士一 cannot be lost
    assert advance(Rank(4, 2), -5) == Rank(3, LEVELS[3].start)  # 雀士二 → 雀士一
    assert advance(Rank(6, 0), -1) == Rank(5, LEVELS[5].start)  # 雀杰一 → 雀士三
    assert advance(Rank(15, 3), -12) == Rank(14, 200)  # 魂天 → 雀圣三


def test_points_follow_the_expectation() -> None:
    even, strong, weak = Rating(25, 1), Rating(40, 1), Rating(5, 1)
    assert match_points(even, even, True) == 10
    assert match_points(even, strong, True) > 10 > match_points(even, weak, True) >= 1
    assert match_points(even, even, False, level=0) == 0  # 初心: no loss points
    assert match_points(even, even, False, level=6) == -6
    assert match_points(even, even, False, escaped=True, level=6) == -12
    assert match_points(even, strong, False, level=6) > -6  # losing to a far stronger player costs less
