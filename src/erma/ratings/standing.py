"""A player's standing in one rule family — hidden rating, visible rank, hands — and one hand's step.

:func:`play` is the whole update: the store calls it inside a hand's settlement transaction, and
:func:`replay` calls it again over the stored hands in their order (``erma ratings rebuild``), so both give
the same floats bit for bit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from erma.ratings.ladder import START, Rank, advance, hand_points
from erma.ratings.model import NEW, Rating, rate


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a player stands in a family."""

    rating: Rating
    rank: Rank
    hands: int
    """Rated hands played (draws included)."""


FRESH = Standing(NEW, START, 0)
"""A player's standing before the first rated hand of a family."""


def anchored(rating: Rating) -> Standing:
    """A bot anchor's standing (its rank is not kept)."""
    return Standing(rating, START, 0)


def play(
    before: tuple[Standing, Standing],
    winner: int | None,
    *,
    escaper: int | None = None,
    fixed: tuple[bool, bool] = (False, False),
) -> tuple[Standing, Standing]:
    """Both seats' standings after a rated hand: ``winner`` 0/1 or ``None`` (a draw: the ratings and ranks
    stay, the hand counts); ``escaper`` the seat that escaped (it loses, at twice the loss points); a
    ``fixed`` seat (a bot anchor) comes back unchanged.

    >>> a, b = play((FRESH, FRESH), 0)
    >>> a.rank, b.rank, a.hands  # Novice 1 (10 of 20 points) + 10: promoted to Novice 2 at its start
    (Rank(level=1, points=10), Rank(level=0, points=10), 1)
    """
    if escaper is not None:
        winner = 1 - escaper
    ratings = rate((before[0].rating, before[1].rating), winner, fixed)
    out = []
    for seat in (0, 1):
        s = before[seat]
        if fixed[seat]:
            out.append(s)
            continue
        rank = s.rank
        if winner is not None:
            won = winner == seat
            delta = hand_points(
                s.rating, before[1 - seat].rating, won, escaped=escaper == seat, level=rank.level
            )
            rank = advance(rank, delta)
        out.append(Standing(ratings[seat], rank, s.hands + 1))
    return out[0], out[1]


@dataclass(frozen=True, slots=True)
class Hand:
    """A rated hand as stored: the family, the two accounts in seat order, the outcome, which seats are bot
    anchors (with their fixed ratings)."""

    family: str
    accounts: tuple[int, int]
    winner: int | None
    escaper: int | None = None
    anchors: tuple[Rating | None, Rating | None] = (None, None)


def replay(hands: Iterable[Hand]) -> dict[tuple[int, str], Standing]:
    """Every (account, family) standing after the hands, applied in the order given (the store's order)."""
    now: dict[tuple[int, str], Standing] = {}
    for h in hands:
        before = tuple(
            anchored(anchor) if anchor is not None else now.get((a, h.family), FRESH)
            for a, anchor in zip(h.accounts, h.anchors, strict=True)
        )
        fixed = (h.anchors[0] is not None, h.anchors[1] is not None)
        after = play((before[0], before[1]), h.winner, escaper=h.escaper, fixed=fixed)
        for seat in (0, 1):
            if not fixed[seat]:
                now[(h.accounts[seat], h.family)] = after[seat]
    return now
