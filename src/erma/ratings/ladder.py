"""The visible ladder (段位): tiers of levels, each with points to climb, apart from the hidden rating.

In the spirit of 雀魂's 段位: six tiers — 初心 Novice, 雀士 Adept, 雀杰 Expert, 雀豪 Master, 雀圣 Saint (three
levels each) and 魂天 Celestial (one). Each level has a promotion threshold; a player enters a level with half
its threshold. A won match (一场) gives points, a lost one takes the level's loss points; reaching the
threshold promotes (to the next level, at its start), falling below zero demotes (to the level below, at its
start) — except at the Novice levels and at Adept 1, which cannot be lost. The points a match gives or takes
are scaled by the hidden ratings' expectation: beating a far weaker opponent (a low bot) gives little, losing
to a far stronger one costs little. The rules are written out in ``docs/ratings.md``; all arithmetic is in
integers after one rounding, so a replay gives the same ladder.
"""

from __future__ import annotations

from dataclasses import dataclass

from erma.ratings.model import Rating, win_probability


@dataclass(frozen=True, slots=True)
class Level:
    """One level of the ladder."""

    tier: str
    """The tier's key (``novice`` … ``celestial``)."""
    star: int
    """1–3 within the tier (1 for 魂天)."""
    zh: str
    en: str
    threshold: int | None
    """Points that promote (``None``: the top, no promotion)."""
    loss: int
    """Points a lost match against an equal opponent takes."""
    floor: bool
    """The level cannot be lost (points stop at 0)."""

    @property
    def start(self) -> int:
        """The points a player enters this level with."""
        return (self.threshold or 2000) // 2


_TIERS = (
    # key, 中文, English, threshold, loss, floor
    ("novice", "初心", "Novice", 20, 0, True),
    ("adept", "雀士", "Adept", 80, 4, False),
    ("expert", "雀杰", "Expert", 200, 6, False),
    ("master", "雀豪", "Master", 300, 8, False),
    ("saint", "雀圣", "Saint", 400, 10, False),
)
_STARS = "一二三"

LEVELS: tuple[Level, ...] = (
    *(
        Level(
            key,
            i + 1,
            f"{zh}{_STARS[i]}",
            f"{en} {i + 1}",
            threshold,
            loss,
            floor or (key == "adept" and i == 0),
        )
        for key, zh, en, threshold, loss, floor in _TIERS
        for i in range(3)
    ),
    Level("celestial", 1, "魂天", "Celestial", None, 12, False),
)
"""Every level, lowest first; a rank's ``level`` indexes this."""

WIN_POINTS = 10
"""Points for beating an equal opponent (scaled by 2·(1 − p), p the model's chance of the win)."""
ESCAPE_FACTOR = 2
"""Leaving a match (逃跑, or leaving mid-match) costs this many times a loss."""


@dataclass(frozen=True, slots=True)
class Rank:
    """A place on the ladder."""

    level: int
    points: int

    def describe(self) -> dict[str, object]:
        """The rank as the API shows it."""
        lv = LEVELS[self.level]
        return {
            "level": self.level,
            "tier": lv.tier,
            "star": lv.star,
            "name_zh": lv.zh,
            "name_en": lv.en,
            "points": self.points,
            "threshold": lv.threshold,
        }


START = Rank(0, LEVELS[0].start)
"""Where everyone starts: Novice 1 at half its threshold."""


def match_points(me: Rating, other: Rating, won: bool, escaped: bool = False, level: int = 0) -> int:
    """The points a rated match gives (> 0) or takes (≤ 0) at ``level``.

    A win gives ``round(10 · 2 · (1 − p))`` (at least 1), p the model's probability of that win; a loss takes
    ``round(loss · 2 · (1 − q))``, q the probability of that loss, times 2 for leaving the match.

    >>> match_points(Rating(25, 1), Rating(25, 1), True)
    10
    >>> match_points(Rating(25, 1), Rating(25, 1), False, level=3)
    -4
    """
    p = win_probability(me, other)
    if won:
        return max(1, round(WIN_POINTS * 2 * (1 - p)))
    loss = LEVELS[level].loss * (ESCAPE_FACTOR if escaped else 1)
    return -round(loss * 2 * p)


def advance(rank: Rank, delta: int) -> Rank:
    """The rank after a match worth ``delta`` points: promotion at the threshold, demotion below zero.

    >>> advance(Rank(0, 15), 10)
    Rank(level=1, points=10)
    >>> advance(Rank(4, 1), -4)
    Rank(level=3, points=40)
    >>> advance(Rank(3, 0), -4)
    Rank(level=3, points=0)
    """
    lv = LEVELS[rank.level]
    points = rank.points + delta
    if lv.threshold is not None and points >= lv.threshold:
        return Rank(rank.level + 1, LEVELS[rank.level + 1].start)
    if points < 0:
        if lv.floor or rank.level == 0:
            return Rank(rank.level, 0)
        return Rank(rank.level - 1, LEVELS[rank.level - 1].start)
    return Rank(rank.level, points)
