"""A player's standing in one rule family — hidden rating, visible rank, matches — and one match's step.

The rated unit is a match (一场): a block of consecutive hands between the same two seats, won by the seat
with more points over the block (docs/ratings.md). :func:`play` is the whole update: the store calls it inside
the transaction that settles a match's last hand, and :func:`replay` calls it again over the stored matches
in their order (``erma ratings rebuild``), so both give the same floats bit for bit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from erma.ratings.ladder import START, Rank, advance, match_points
from erma.ratings.model import NEW, Rating, rate


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a player stands in a family."""

    rating: Rating
    rank: Rank
    hands: int
    """Hands of the rated matches played (draws included)."""
    matches: int = 0
    """Rated matches played (draws included)."""


FRESH = Standing(NEW, START, 0, 0)
"""A player's standing before the first rated match of a family."""


def anchored(rating: Rating) -> Standing:
    """A bot anchor's standing (its rank is not kept)."""
    return Standing(rating, START, 0, 0)


def play(
    before: tuple[Standing, Standing],
    winner: int | None,
    *,
    escaper: int | None = None,
    fixed: tuple[bool, bool] = (False, False),
    hands: int = 1,
) -> tuple[Standing, Standing]:
    """Both seats' standings after a rated match of ``hands`` hands: ``winner`` 0/1 or ``None`` (a draw: the
    ratings and ranks stay, the match counts); ``escaper`` the seat that left the match (it loses, at twice
    the loss points); a ``fixed`` seat (a bot anchor) comes back unchanged.

    >>> a, b = play((FRESH, FRESH), 0, hands=8)
    >>> a.rank, b.rank, a.matches, a.hands  # Novice 1 (10 of 20) + 10: promoted to Novice 2 at its start
    (Rank(level=1, points=10), Rank(level=0, points=10), 1, 8)
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
            delta = match_points(
                s.rating, before[1 - seat].rating, won, escaped=escaper == seat, level=rank.level
            )
            rank = advance(rank, delta)
        out.append(Standing(ratings[seat], rank, s.hands + hands, s.matches + 1))
    return out[0], out[1]


def match_winner(points: Sequence[tuple[int, int]], leaver: int | None = None) -> int | None:
    """A match's winning seat from each of its hands' points (each seat's): more points over the block wins,
    equal is a draw (``None``); a seat that left the match (``leaver``) loses it whatever the points.

    >>> match_winner([(8, -8), (-2, 2)]), match_winner([(3, -3), (-3, 3)]), match_winner([(8, -8)], leaver=0)
    (0, None, 1)
    """
    if leaver is not None:
        return 1 - leaver
    net = (sum(p[0] for p in points), sum(p[1] for p in points))
    return 0 if net[0] > net[1] else 1 if net[1] > net[0] else None


@dataclass(frozen=True, slots=True)
class Played:
    """A rated match as stored: the family, the two accounts in seat order, the outcome (``escaper``: the
    seat that left), which seats are bot anchors (with their fixed ratings), how many hands it had."""

    family: str
    accounts: tuple[int, int]
    winner: int | None
    escaper: int | None = None
    anchors: tuple[Rating | None, Rating | None] = (None, None)
    hands: int = 1


def replay(matches: Iterable[Played]) -> dict[tuple[int, str], Standing]:
    """Every (account, family) standing after the matches, applied in the order given (the store's order)."""
    now: dict[tuple[int, str], Standing] = {}
    for h in matches:
        before = tuple(
            anchored(anchor) if anchor is not None else now.get((a, h.family), FRESH)
            for a, anchor in zip(h.accounts, h.anchors, strict=True)
        )
        fixed = (h.anchors[0] is not None, h.anchors[1] is not None)
        after = play((before[0], before[1]), h.winner, escaper=h.escaper, fixed=fixed, hands=h.hands)
        for seat in (0, 1):
            if not fixed[seat]:
                now[(h.accounts[seat], h.family)] = after[seat]
    return now
