"""Ratings (评分): the hidden OpenSkill rating per rule family, the visible ladder (段位), bot anchors.

Pure: no I/O besides reading the packaged ``anchors.toml``. The store applies :func:`play` when a rated
match's last hand is settled, in that transaction, and :func:`replay` rebuilds every standing from the stored
matches (docs/ratings.md).
"""

from erma.ratings.ladder import LEVELS, START, Level, Rank, advance, match_points
from erma.ratings.model import NEW, Family, Rating, anchors, family, rate, win_probability
from erma.ratings.standing import FRESH, Played, Standing, anchored, match_winner, play, replay

__all__ = [
    "FRESH",
    "LEVELS",
    "NEW",
    "START",
    "Family",
    "Level",
    "Played",
    "Rank",
    "Rating",
    "Standing",
    "advance",
    "anchored",
    "anchors",
    "family",
    "match_points",
    "match_winner",
    "play",
    "rate",
    "replay",
    "win_probability",
]
