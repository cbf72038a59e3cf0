"""Ratings (评分): the hidden OpenSkill rating per rule family, the visible ladder (段位), bot anchors.

Pure: no I/O besides reading the packaged ``anchors.toml``. The store applies :func:`play` in each hand's
settlement transaction and :func:`replay` rebuilds every standing from the stored hands (docs/ratings.md).
"""

from erma.ratings.ladder import LEVELS, START, Level, Rank, advance, hand_points
from erma.ratings.model import NEW, Family, Rating, anchors, family, rate, win_probability
from erma.ratings.standing import FRESH, Hand, Standing, anchored, play, replay

__all__ = [
    "FRESH",
    "LEVELS",
    "NEW",
    "START",
    "Family",
    "Hand",
    "Level",
    "Rank",
    "Rating",
    "Standing",
    "advance",
    "anchored",
    "anchors",
    "family",
    "hand_points",
    "play",
    "rate",
    "replay",
    "win_probability",
]
