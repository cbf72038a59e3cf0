"""The hidden rating: OpenSkill's update, anchors fixed, draws move nothing, bad input named."""

from __future__ import annotations

import pytest

from erma.errors import InvalidInputError
from erma.ratings import NEW, Family, Rating, anchors, family, rate, win_probability


def test_a_win_moves_both_and_shrinks_uncertainty_symmetrically() -> None:
    a, b = rate((NEW, NEW), 0)
    assert a.mu > NEW.mu > b.mu and a.sigma < NEW.sigma and b.sigma < NEW.sigma
    assert a.mu - NEW.mu == pytest.approx(NEW.mu - b.mu)
    b2, a2 = rate((NEW, NEW), 1)
    assert (a2, b2) == (a, b)  # seat order does not matter


def test_upsets_move_more_than_expected_results() -> None:
    strong, weak = Rating(30.0, 3.0), Rating(20.0, 3.0)
    expected = rate((strong, weak), 0)[0].mu - strong.mu
    upset = rate((strong, weak), 1)[1].mu - weak.mu  # what the weaker gains by winning
    assert 0 < expected < upset


def test_anchors_stay_and_draws_move_nothing() -> None:
    bot = anchors()["greedy"]
    me, it = rate((NEW, bot), 1, fixed=(False, True))
    assert it == bot and me.mu < NEW.mu
    assert rate((NEW, bot), None) == (NEW, bot)
    with pytest.raises(InvalidInputError, match="winner"):
        rate((NEW, NEW), 2)


def test_anchor_table_is_ordered_data() -> None:
    table = anchors()
    assert table["random"].mu < table["greedy"].mu
    assert all(r.sigma > 0 for r in table.values())


def test_win_probability_and_intervals() -> None:
    assert win_probability(Rating(25, 1), Rating(25, 1)) == pytest.approx(0.5)
    assert win_probability(Rating(30, 1), Rating(25, 1)) + win_probability(Rating(25, 1), Rating(30, 1)) == (
        pytest.approx(1.0)
    )
    lo, hi = Rating(10.0, 2.0).interval()
    assert hi - lo == pytest.approx(2 * 1.6448536 * 2.0)
    assert Rating(10.0, 2.0).contains(12.0) and not Rating(10.0, 2.0).contains(14.0)


def test_families_by_name() -> None:
    assert family("wenzhou") is Family.WENZHOU and family("standard") is Family.STANDARD
    with pytest.raises(InvalidInputError, match="'mcr'"):
        family("mcr")
