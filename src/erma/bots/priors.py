"""Priors (先验) the expert bot reads about an opponent it cannot see, measured once from greedy self-play.

``python scripts/bot_priors.py 600 priors`` printed these figures (600 hands per preset): the chance a seat
wins in each round of the hand (after its k-th discard, before its next, the hand still going), the same
for a seat that has declared ready (报听). Rounds where fewer than 20 hands
went on are smoothed to the last reliable figure.
"""

from __future__ import annotations

from erma.rules import RuleSet

WIN_BY_ROUND: dict[str, tuple[float, ...]] = {
    "classic64": (0.0, 0.014, 0.06, 0.102, 0.157, 0.192, 0.21, 0.21, 0.21, 0.22),
    "wushuang128": (0.0, 0.021, 0.073, 0.105, 0.177, 0.195, 0.21, 0.21, 0.2, 0.2),
    "cuopai789": (0.0, 0.006, 0.035, 0.069, 0.095, 0.113, 0.115, 0.13, 0.13, 0.13),
    "wenzhou2p": (
        0.002,
        0.002,
        0.002,
        0.006,
        0.02,
        0.028,
        0.033,
        0.058,
        0.068,
        0.085,
        0.085,
        0.09,
        0.1,
        0.1,
        0.11,
        0.12,
        0.13,
    ),
}
"""The chance a seat wins in its round k (k discards made; the last figure holds for later rounds)."""

WIN_PER_ROUND_DECLARED: dict[str, float] = {"classic64": 0.70, "wushuang128": 0.67, "cuopai789": 0.65}
"""The chance a seat that has declared ready (报听) wins in a round."""

MEAN_WIN_POINTS: dict[str, tuple[float, float]] = {
    "classic64": (27.2, 18.7),
    "wushuang128": (29.7, 19.1),
    "cuopai789": (3.51, 1.83),
    "wenzhou2p": (2.14, 1.79),
}
"""What a win moves on average, (concealed 门清, with an open set), from 500 hands of greedy self-play per
preset (温州: in bases, at the first base of 10)."""


def win_chance(rules: RuleSet, discards: int, declared: bool) -> float:
    """The chance a seat with ``discards`` discards made wins before its next one."""
    if declared:
        return WIN_PER_ROUND_DECLARED.get(rules.name, 0.6)
    table = WIN_BY_ROUND.get(rules.name, WIN_BY_ROUND["cuopai789"])
    return table[min(discards, len(table) - 1)]


def mean_win_points(rules: RuleSet, concealed: bool = True) -> float:
    """The mean points of a win under ``rules`` (温州: bases); a variant of a preset uses the preset's."""
    pair = MEAN_WIN_POINTS.get(rules.name)
    if pair is None:
        return 2.0 if rules.family == "wenzhou" else 10.0
    return pair[0] if concealed else pair[1]


READY_BY_DISCARDS: dict[str, tuple[float, ...]] = {
    "classic64": (0.0, 0.024, 0.097, 0.154, 0.212, 0.318, 0.339, 0.386, 0.473, 0.523, 0.6, 0.6, 0.65, 0.7),
    "wushuang128": (0.0, 0.039, 0.111, 0.177, 0.268, 0.3, 0.396, 0.449, 0.5, 0.5, 0.55, 0.6, 0.65, 0.7),
    "cuopai789": (0.0, 0.015, 0.065, 0.09, 0.141, 0.177, 0.195, 0.222, 0.22, 0.24, 0.281, 0.287, 0.319, 0.35),
    "wenzhou2p": (0.0, 0.004, 0.023, 0.058, 0.106, 0.18, 0.289, 0.38, 0.444, 0.528, 0.58, 0.642, 0.689, 0.75),
}
"""The share of seats ready (听牌) right after their k-th discard (the script's ``ready_by_discards``, from a
run of 400 hands per preset; smoothed past 12 discards)."""


def ready_chance(rules: RuleSet, discards: int, declared: bool) -> float:
    """The chance a seat that has made ``discards`` discards is ready."""
    if declared:
        return 1.0
    table = READY_BY_DISCARDS.get(rules.name, READY_BY_DISCARDS["cuopai789"])
    if discards < len(table):
        return table[discards]
    return min(0.9, table[-1] + 0.03 * (discards - len(table) + 1))
