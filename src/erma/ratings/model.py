"""The hidden rating (隐藏分): OpenSkill's Weng–Lin Bayesian model (Plackett–Luce), per rule family.

Each player has, per rule family, a skill estimate ``mu`` and its uncertainty ``sigma``. A rated match (一场,
a block of hands: docs/ratings.md) with a winner moves both players' estimates by Weng and Lin's closed-form
update (no iteration, so a settlement transaction stays short and a replay is exact); a drawn match moves
nothing. A bot seat is an anchor (锚点): it plays at the fixed rating of its level (``anchors.toml``) and
never moves, so the scale means the same thing over time. See ``docs/ratings.md`` for why OpenSkill rather
than Glicko-2.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources

from openskill.models import PlackettLuce

from erma.errors import InvalidInputError

MU = 25.0
"""A new player's mu (OpenSkill's default)."""
SIGMA = MU / 3
"""A new player's sigma."""
BETA = MU / 6
"""The spread of one match's performance around a player's skill."""
TAU = MU / 300
"""The dynamics: added (in quadrature) to a player's sigma before each match, so a rating can follow a player
who improves."""
Z90 = 1.6448536269514722
"""The two-sided 90% quantile of the normal distribution: a rating's interval is ``mu ± Z90·sigma``."""


class Family(StrEnum):
    """A rule family (规则族): ratings are kept separately per family."""

    STANDARD = "standard"
    WENZHOU = "wenzhou"


def family(value: object) -> Family:
    """The family named ``value``, or :class:`InvalidInputError` naming it."""
    try:
        return Family(str(value))
    except ValueError:
        names = ", ".join(f.value for f in Family)
        raise InvalidInputError(f"rule family {value!r}: expected one of {names}") from None


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: mean and standard deviation on OpenSkill's scale."""

    mu: float
    sigma: float

    def interval(self) -> tuple[float, float]:
        """The 90% interval ``mu ± 1.645·sigma``.

        >>> [round(x, 3) for x in Rating(25.0, 1.0).interval()]
        [23.355, 26.645]
        """
        return self.mu - Z90 * self.sigma, self.mu + Z90 * self.sigma

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies in the 90% interval."""
        lo, hi = self.interval()
        return lo <= value <= hi


NEW = Rating(MU, SIGMA)
"""Where every person starts."""


@cache
def _model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


@cache
def anchors() -> dict[str, Rating]:
    """The bot anchors from ``anchors.toml``: bot name → its fixed rating (the same for every family)."""
    text = resources.files("erma.ratings").joinpath("anchors.toml").read_text(encoding="utf-8")
    out: dict[str, Rating] = {}
    for row in tomllib.loads(text).get("anchor", []):
        bot, mu, sigma = row["bot"], float(row["mu"]), float(row["sigma"])
        if bot in out or not sigma > 0 or not math.isfinite(mu):
            raise InvalidInputError(f"anchors.toml: bad or repeated anchor {row!r}")
        out[bot] = Rating(mu, sigma)
    return out


def win_probability(a: Rating, b: Rating) -> float:
    """The model's probability that ``a`` wins a match against ``b`` (draws aside): Plackett–Luce with two
    players, 1 / (1 + exp((μb − μa) / c)), c² = σa² + σb² + 2β².

    >>> round(win_probability(Rating(25, 1), Rating(25, 1)), 3)
    0.5
    >>> round(win_probability(Rating(30, 1), Rating(25, 1)), 3)
    0.695
    """
    c = math.sqrt(a.sigma**2 + b.sigma**2 + 2 * BETA**2)
    return 1.0 / (1.0 + math.exp((b.mu - a.mu) / c))


def rate(
    pair: tuple[Rating, Rating], winner: int | None, fixed: tuple[bool, bool] = (False, False)
) -> tuple[Rating, Rating]:
    """Both seats' ratings after a match: ``winner`` 0 or 1, or ``None`` for a draw (nothing moves). A seat
    with ``fixed`` (a bot anchor) keeps its rating; the other is updated against it.

    >>> a, b = rate((NEW, NEW), 0)
    >>> a.mu > 25 > b.mu, a.sigma < NEW.sigma
    (True, True)
    >>> rate((NEW, Rating(30.0, 1.0)), 1, (False, True))[1]
    Rating(mu=30.0, sigma=1.0)
    """
    if winner is None:
        return pair
    if winner not in (0, 1):
        raise InvalidInputError(f"winner {winner!r}: expected 0, 1 or None")
    model = _model()
    teams = [[model.create_rating([r.mu, r.sigma])] for r in pair]
    ranks = [0.0, 1.0] if winner == 0 else [1.0, 0.0]
    new = model.rate(teams, ranks=ranks)
    out = tuple(
        old if keep else Rating(float(team[0].mu), float(team[0].sigma))
        for old, keep, team in zip(pair, fixed, new, strict=True)
    )
    return out[0], out[1]
